// Differential fuzz target of crelu16: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/crelu16/registry.h"
#include "reference/crelu16.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(crelu16)
  static constexpr std::int64_t lo = INT16_MIN, hi = INT16_MAX;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length()}; }
  static int outputs(const Shape& s) { return s.n; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { nnuelab::ref::crelu16(in, s.n, out); }
  // The *_lanes forms' declared order (the identity for the others).
  static std::vector<int> order(const V& v, const Shape& s) { return nnuelab::crelu16::output_order(v, s); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::crelu16::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
