#include "kernels/crelu16/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu16
#define NNUELAB_REGISTRY_LIST "kernels/crelu16/crelu16.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU16_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu16 {

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


std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Whole output vectors of two int16 inputs each, one lane block per vector.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::crelu16
