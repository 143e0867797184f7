#include "kernels/crelu32_pair/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu32_pair
#define NNUELAB_REGISTRY_LIST "kernels/crelu32_pair/crelu32_pair.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU32_PAIR_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu32_pair {

std::string shape_name(const Shape& s) { return std::to_string(s.n) + ">>" + std::to_string(s.shift); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  return why_unsupported_elementwise(v, s, shifted_limits(s.n, s.shift, 1 << 19, 28, " (2n outputs)"));
}

void run(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

void run_many(const Variant& v, const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits,
              int count) {
  run_many_checked(v, s, input, output, bits, count, why_unsupported(v, s), shape_name(s));
}

const Variant& run_active(const Shape& s, const std::int32_t* input, std::uint8_t* output) {
  return run_active_elementwise(variants(), s, 2 * s.n, input, output, why_unsupported, run);  // 2n output bytes
}


std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Each half is a whole number of output vectors, each one lane block; the halves stay.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) {
    std::vector<int> order = packs32x2_lane_order(lanes, s.n);
    order.reserve(2 * std::size_t(s.n));
    for (int p = 0; p < s.n; ++p) order.push_back(s.n + order[p]);
    return order;
  });
}

}  // namespace nnuelab::crelu32_pair
