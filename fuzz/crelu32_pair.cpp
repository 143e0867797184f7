// Differential fuzz target of crelu32_pair: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/crelu32_pair/registry.h"
#include "reference/crelu32_pair.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(crelu32_pair)
  static constexpr std::int64_t lo = INT32_MIN, hi = INT32_MAX;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length(), int(src.range(-1, 29))}; }
  static int outputs(const Shape& s) { return 2 * s.n; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { nnuelab::ref::crelu32_pair(in, s.n, s.shift, out); }
  // The *_lanes forms' declared order (the identity for the others).
  static std::vector<int> order(const V& v, const Shape& s) { return nnuelab::crelu32_pair::output_order(v, s); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::crelu32_pair::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
