// Differential fuzz target of pool_product2: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/pool_product2/registry.h"
#include "reference/pool.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(pool_product2)
  static constexpr std::int64_t lo = 0, hi = 127;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length()}; }
  static int outputs(const Shape& s) { return s.n / 2; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { nnuelab::ref::pool_product2(in, s.n, out); }
  static std::vector<int> order(const V& v, const Shape& s) { return nnuelab::pool_product2::output_order(v, s); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::pool_product2::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
