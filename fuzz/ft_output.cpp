// Differential fuzz target of ft_output: every variant against reference/ (see fuzz/driver.h).
#include "fuzz/driver.h"
#include "kernels/ft_output/registry.h"
#include "reference/pool.h"

namespace {
struct Op {
  NNUELAB_FUZZ_REGISTRY(ft_output)
  static constexpr std::int64_t lo = INT16_MIN, hi = INT16_MAX;
  static Shape shape(nnuelab::fuzz::Source& src) { return {src.length(), src.flag() ? nnuelab::ft_output::Form::kClamp255 : nnuelab::ft_output::Form::kClamp127}; }
  static int outputs(const Shape& s) { return s.n / 2; }
  static void reference(const Shape& s, const V::Input* in, V::Output* out) { s.form == nnuelab::ft_output::Form::kClamp255 ? nnuelab::ref::ft_output_clamp255(in, s.n, out) : nnuelab::ref::ft_output_clamp127(in, s.n, out); }
  static std::vector<int> order(const V& v, const Shape& s) { return nnuelab::ft_output::output_order(v, s); }
  static void run(const V& v, const Shape& s, const V::Input* in, V::Output* out, std::uint64_t* bits) {
    nnuelab::ft_output::run(v, s, in, out, bits);
  }
};
}  // namespace

NNUELAB_FUZZ_ENTRY(nnuelab::fuzz::fuzz_elementwise<Op>)
