#include "kernels/crelu32/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu32
#define NNUELAB_REGISTRY_LIST "kernels/crelu32/crelu32.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU32_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#define NNUELAB_SHIFTED32_MAX_N (1 << 20)
#define NNUELAB_SHIFTED32_MAX_SHIFT 31
#define NNUELAB_SHIFTED32_NOTE ""
#define NNUELAB_SHIFTED32_OUT_BYTES(s) (s).n
#include "kernels/common/shifted32_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu32 {

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // A supported shape is a whole number of output vectors, each one lane block.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packs32x2_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::crelu32
