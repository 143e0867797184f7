// The ft_update registry: every variant of kernels/ft_update/ft_update.inc, plus the
// checked entry points. Scalar-side header.
#pragma once
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/ft_update/ft_update.h"

namespace nnuelab::ft_update {

struct Variant {
  VariantInfo info;
  const char* (*supports)(const Shape&);  // nullptr when supported, else the reason
  void (*run)(const Shape&, const Args&);  // unchecked: call through ft_update::run
};

std::span<const Variant> variants();
// "<l1>+<added>-<removed>", then "x2p" for two perspectives and ".inplace" for an in-place
// update: "1024+1-2", "1024+2-2x2p.inplace" (no '/': benchmark names keep one field per
// shape).
std::string shape_name(const Shape& s);
// Empty when supported, else the reason: "this CPU lacks X" first (nothing of the variant
// is called then), the op's limits (l1 1..4096, features 1..65536, n_removed and n_added
// 0..64, perspectives 1..2), then the variant's own (register width, exact counts of the
// fused forms).
std::string why_unsupported(const Variant& v, const Shape& s);
// Checks the shape, the pointers (non-null where read or written; out[p] == prev[p] when
// in_place, else out[p] and prev[p] disjoint; out[0] and out[1] disjoint) and every id
// (< features, the bad one named), throwing std::invalid_argument before anything is
// written; then runs the variant.
void run(const Variant& v, const Shape& s, const Args& a);
// Runs the variant a program should use (NNUELAB_FORCE_VARIANT's, or the last native
// available one that supports the shape: a fused form when the counts match, else tiled).
const Variant& run_active(const Shape& s, const Args& a);

}  // namespace nnuelab::ft_update
