#include "kernels/sqr_crelu32/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP sqr_crelu32
#define NNUELAB_REGISTRY_LIST "kernels/sqr_crelu32/sqr_crelu32.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_SQR_CRELU32_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#include "kernels/common/registry_table.inc"

namespace nnuelab::sqr_crelu32 {

std::string shape_name(const Shape& s) { return std::to_string(s.n) + ">>" + std::to_string(s.shift); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  return why_unsupported_elementwise(v, s, shifted_limits(s.n, s.shift, 1 << 20, 28));
}

void run(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

void run_many(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits,
              int count) {
  run_many_checked(v, s, input, output, bits, count, why_unsupported(v, s), shape_name(s));
}

const Variant& run_active(const Shape& s, const std::int32_t* input, std::uint8_t* output) {
  return run_active_elementwise(variants(), s, s.n, input, output, why_unsupported, run);  // n output bytes
}


std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Whole output vectors, one lane block each.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packs32x2_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::sqr_crelu32
