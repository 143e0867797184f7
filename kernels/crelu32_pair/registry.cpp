#include "kernels/crelu32_pair/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu32_pair
#define NNUELAB_REGISTRY_LIST "kernels/crelu32_pair/crelu32_pair.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU32_PAIR_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#define NNUELAB_SHIFTED32_MAX_N (1 << 19)
#define NNUELAB_SHIFTED32_MAX_SHIFT 28
#define NNUELAB_SHIFTED32_NOTE " (2n outputs)"
#define NNUELAB_SHIFTED32_OUT_BYTES(s) (2 * (s).n)
#include "kernels/common/shifted32_registry.inc"
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
