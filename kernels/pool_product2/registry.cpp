#include "kernels/pool_product2/registry.h"

#include <vector>

#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note)    \
  namespace nnuelab::ns::pool_product2 { \
  NNUELAB_POOL_PRODUCT2_KERNEL(tech)     \
  }
#define NNUELAB_ROW_BITS NNUELAB_ROW
#include "kernels/pool_product2/pool_product2.inc"
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS

namespace nnuelab::pool_product2 {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("pool_product2", #ns, #tech, note), &ns::pool_product2::tech##_supports, &ns::pool_product2::tech##_run, false},
#define NNUELAB_ROW_BITS(ns, tech, note) \
  Variant{make_variant_info("pool_product2", #ns, #tech, note), &ns::pool_product2::tech##_supports, &ns::pool_product2::tech##_run, true},
  static const std::vector<Variant> table = {
#include "kernels/pool_product2/pool_product2.inc"
  };
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  std::string limits;
  if (s.n < 2 || s.n > (1 << 20)) limits = "n must be 2..1048576, got " + std::to_string(s.n);
  else if (s.n % 2) limits = "n = " + std::to_string(s.n) + " is odd (inputs are paired i with i + n/2)";
  return why_unsupported_elementwise(v, s, limits);
}

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

}  // namespace nnuelab::pool_product2
