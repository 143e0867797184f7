// The ft_refresh registry: every variant of kernels/ft_refresh/ft_refresh.inc, plus the
// checked entry points. Scalar-side header.
#pragma once
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/ft_refresh/ft_refresh.h"

namespace nnuelab::ft_refresh {

struct Variant {
  VariantInfo info;
  const char* (*supports)(const Shape&);  // nullptr when supported, else the reason
  void (*run)(const Shape&, const Args&);  // unchecked: call through ft_refresh::run
};

std::span<const Variant> variants();
// "<l1>x<active>", with "x2p" appended for two perspectives: "1024x30x2p".
std::string shape_name(const Shape& s);
// Empty when supported, else the reason: "this CPU lacks X" first (nothing of the variant
// is called then), the op's limits (l1 1..4096, features 1..65536, active 0..64,
// perspectives 1..2), then the variant's own (l1 a whole number of its registers).
std::string why_unsupported(const Variant& v, const Shape& s);
// Checks the shape (as above), the pointers (non-null where read or written; the two
// accumulators must not overlap) and every active id (< features, the bad one named),
// throwing std::invalid_argument before anything is written; then runs the variant.
void run(const Variant& v, const Shape& s, const Args& a);
// Runs the variant a program should use (NNUELAB_FORCE_VARIANT's, or the last native
// available one that supports the shape) and returns it.
const Variant& run_active(const Shape& s, const Args& a);

// A floor kernel of kernels/ft_refresh/floor.inc: not a variant of the op (its output is a
// fold of the rows, not an accumulator), the yardstick of what a refresh's rows cost to read
// (kernels/ft_refresh/ft_tiles.h, RefreshRowsRead). bench/ft_bench.cpp times them.
struct FloorKernel {
  VariantInfo info;                       // name "floor/<isa>/ft_<technique>"; available(), emulated as for variants
  const char* (*supports)(const Shape&);  // nullptr when supported (l1 % 64 == 0), else the reason
  // Unchecked: valid ids and pointers, a supported shape; call only when info.available().
  void (*run)(const Shape&, const Args&);
};
std::span<const FloorKernel> floor_kernels();

}  // namespace nnuelab::ft_refresh
