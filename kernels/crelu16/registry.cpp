#include "kernels/crelu16/registry.h"

#include <vector>

#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::crelu16 {  \
  NNUELAB_CRELU16_KERNEL(tech)      \
  }
#define NNUELAB_ROW_BITS NNUELAB_ROW
#include "kernels/crelu16/crelu16.inc"
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS

namespace nnuelab::crelu16 {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("crelu16", #ns, #tech, note), &ns::crelu16::tech##_supports, &ns::crelu16::tech##_run, false},
#define NNUELAB_ROW_BITS(ns, tech, note) \
  Variant{make_variant_info("crelu16", #ns, #tech, note), &ns::crelu16::tech##_supports, &ns::crelu16::tech##_run, true},
  static const std::vector<Variant> table = {
#include "kernels/crelu16/crelu16.inc"
  };
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  return why_unsupported_elementwise(
      v, s, s.n >= 1 && s.n <= (1 << 20) ? "" : "n must be 1..1048576, got " + std::to_string(s.n));
}

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

const Variant& run_active(const Shape& s, const std::int16_t* input, std::uint8_t* output) {
  const Variant& v = active_variant(variants(), [&](const Variant& c) { return why_unsupported(c, s).empty(); });
  std::vector<std::uint64_t> bits(v.writes_bits ? nnz_bitset_words(s.n) : 0);  // a forced *_bits variant
  run(v, s, input, output, v.writes_bits ? bits.data() : nullptr);
  return v;
}

}  // namespace nnuelab::crelu16
