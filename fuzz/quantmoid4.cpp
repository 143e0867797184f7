// Differential fuzz target of quantmoid4: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/quantmoid4/registry.h"
#include "reference/quantmoid4.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(quantmoid4)
  static constexpr std::int64_t lo = INT16_MIN, hi = INT16_MAX;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length()}; }
  static int outputs(const Shape& s) { return s.n; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { nnuelab::ref::quantmoid4(in, s.n, out); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::quantmoid4::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
