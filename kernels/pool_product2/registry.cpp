#include "kernels/pool_product2/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP pool_product2
#define NNUELAB_REGISTRY_LIST "kernels/pool_product2/pool_product2.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_POOL_PRODUCT2_KERNEL
#define NNUELAB_REGISTRY_LANES  // NNUELAB_VARIANT_LANES lines: packus lane counts
#include "kernels/common/registry_table.inc"

namespace nnuelab::pool_product2 {

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

namespace {
Refusal refusal(const Variant& v, const Shape& s) { return refusal_of(v, s, paired_limits(s.n)); }
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, refusal(v, s), shape_name);
}

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // A supported shape is a whole number of steps, and a step is one lane block.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n / 2); });
}

}  // namespace nnuelab::pool_product2
