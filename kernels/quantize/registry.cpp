#include "kernels/quantize/registry.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/common/refusal.h"
#include "kernels/common/registry_macros.h"
#include "reference/octav.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::quantize { \
  NNUELAB_QUANTIZE_KERNEL(tech)     \
  }
#include "kernels/quantize/quantize.inc"
#undef NNUELAB_ROW

namespace nnuelab::quantize {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("quantize", #ns, #tech, note), &ns::quantize::tech##_run_i8, &ns::quantize::tech##_run_i16},
  static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
    return std::vector<Variant>{
#include "kernels/quantize/quantize.inc"
    };
  }();
#undef NNUELAB_ROW
  return table;
}

Params params(float s, int bits, int max_bits) {
  // The reference's checks and its float(L) / s: the one scale every variant uses.
  const float scale = ref::quantize_sym_scale("quantize", s, bits, max_bits);
  return Params{scale, ref::quantize_sym_levels(bits)};
}

namespace {

template <class T>
void checked(const Variant& v, const float* x, std::size_t n, float s, int bits, int max_bits, T* out,
             void (*fn)(const float*, std::size_t, const Params&, T*)) {
  require_available(v.info);
  if (n == 0) refuse_call(v.info.name, "empty tensor (n == 0)");
  if (!x || !out) refuse_call(v.info.name, "run needs input and output buffers");
  Params p;
  try {
    p = params(s, bits, max_bits);
  } catch (const std::invalid_argument& e) {
    refuse_call(v.info.name, e.what());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) refuse_call(v.info.name, non_finite_element(x, i));
  fn(x, n, p, out);
}

}  // namespace

void run_i8(const Variant& v, const float* x, std::size_t n, float s, int bits, std::int8_t* out) {
  checked(v, x, n, s, bits, 8, out, v.run_i8);
}

void run_i16(const Variant& v, const float* x, std::size_t n, float s, int bits, std::int16_t* out) {
  checked(v, x, n, s, bits, 16, out, v.run_i16);
}

const Variant& active() { return active_variant(variants()); }

}  // namespace nnuelab::quantize
