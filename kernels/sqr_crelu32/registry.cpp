#include "kernels/sqr_crelu32/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP sqr_crelu32
#define NNUELAB_REGISTRY_LIST "kernels/sqr_crelu32/sqr_crelu32.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_SQR_CRELU32_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_REGISTRY_MANY   // every kernel has its inlined form, <tech>_run_many
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) shifted_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) shifted_limits((s).n, (s).shift, (1 << 20), 28)
#define NNUELAB_ELEMENTWISE_OUT_BYTES(s) (s).n
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::sqr_crelu32 {

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Whole output vectors, one lane block each.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packs32x2_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::sqr_crelu32
