#include "kernels/crelu32_pair/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu32_pair
#define NNUELAB_REGISTRY_LIST "kernels/crelu32_pair/crelu32_pair.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU32_PAIR_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) shifted_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) shifted_limits((s).n, (s).shift, (1 << 19), 28, " (2n outputs)")
#define NNUELAB_ELEMENTWISE_OUT_BYTES(s) (2 * (s).n)
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu32_pair {

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
