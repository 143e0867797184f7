#include "kernels/crelu16/registry.h"

#include <vector>

#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::crelu16 {  \
  NNUELAB_CRELU16_KERNEL(tech)      \
  }
#include "kernels/crelu16/crelu16.inc"
#undef NNUELAB_ROW

namespace nnuelab::crelu16 {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("crelu16", #ns, #tech, note), &ns::crelu16::tech##_supports, &ns::crelu16::tech##_run},
  static const std::vector<Variant> table = {
#include "kernels/crelu16/crelu16.inc"
  };
#undef NNUELAB_ROW
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  return why_unsupported_elementwise(
      v, s, s.n >= 1 && s.n <= (1 << 20) ? "" : "n must be 1..1048576, got " + std::to_string(s.n));
}

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output) {
  run_checked(v, s, input, output, why_unsupported(v, s), shape_name(s));
}

const Variant& run_active(const Shape& s, const std::int16_t* input, std::uint8_t* output) {
  const Variant& v = active_variant(variants());
  run(v, s, input, output);
  return v;
}

}  // namespace nnuelab::crelu16
