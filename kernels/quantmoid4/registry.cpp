#include "kernels/quantmoid4/registry.h"

#include <vector>

#define NNUELAB_REGISTRY_OP quantmoid4
#define NNUELAB_REGISTRY_LIST "kernels/quantmoid4/quantmoid4.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_QUANTMOID4_KERNEL
#include "kernels/common/registry_table.inc"

namespace nnuelab::quantmoid4 {

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

namespace {
Refusal refusal(const Variant& v, const Shape& s) { return refusal_of(v, s, count_limits(s.n, 1, 1 << 20)); }
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, refusal(v, s), shape_name);
}

const Variant& run_active(const Shape& s, const std::int16_t* input, std::uint8_t* output) {
  return run_active_elementwise(variants(), s, s.n, input, output, refusal, run);  // n output bytes
}

}  // namespace nnuelab::quantmoid4
