// Differential fuzz target of sqr_crelu32: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/sqr_crelu32.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(sqr_crelu32)
  static constexpr std::int64_t lo = INT32_MIN, hi = INT32_MAX;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length(), int(src.range(-1, 29))}; }
  static int outputs(const Shape& s) { return s.n; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { nnuelab::ref::sqr_crelu32(in, s.n, s.shift, out); }
  // The *_lanes forms' declared order (the identity for the others).
  static std::vector<int> order(const V& v, const Shape& s) { return nnuelab::sqr_crelu32::output_order(v, s); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::sqr_crelu32::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
