#include "kernels/crelu32_pair/registry.h"

#include <vector>

#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::crelu32_pair {  \
  NNUELAB_CRELU32_PAIR_KERNEL(tech)      \
  }
#define NNUELAB_ROW_BITS NNUELAB_ROW
#include "kernels/crelu32_pair/crelu32_pair.inc"
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS

namespace nnuelab::crelu32_pair {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("crelu32_pair", #ns, #tech, note), &ns::crelu32_pair::tech##_supports, &ns::crelu32_pair::tech##_run, false},
#define NNUELAB_ROW_BITS(ns, tech, note) \
  Variant{make_variant_info("crelu32_pair", #ns, #tech, note), &ns::crelu32_pair::tech##_supports, &ns::crelu32_pair::tech##_run, true},
  static const std::vector<Variant> table = {
#include "kernels/crelu32_pair/crelu32_pair.inc"
  };
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.n) + ">>" + std::to_string(s.shift); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  return why_unsupported_elementwise(
      v, s,
      s.n < 1 || s.n > (1 << 19) ? "n must be 1..524288 (2n outputs), got " + std::to_string(s.n)
      : s.shift < 0 || s.shift > 28 ? "shift must be 0..28, got " + std::to_string(s.shift)
                                   : std::string());
}

void run(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

const Variant& run_active(const Shape& s, const std::int32_t* input, std::uint8_t* output) {
  const Variant& v = active_variant(variants(), [&](const Variant& c) { return why_unsupported(c, s).empty(); });
  std::vector<std::uint64_t> bits(v.writes_bits ? nnz_bitset_words(2 * s.n) : 0);  // 2n output bytes; a forced *_bits variant
  run(v, s, input, output, v.writes_bits ? bits.data() : nullptr);
  return v;
}

}  // namespace nnuelab::crelu32_pair
