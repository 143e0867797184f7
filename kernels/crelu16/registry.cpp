#include "kernels/crelu16/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu16
#define NNUELAB_REGISTRY_LIST "kernels/crelu16/crelu16.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU16_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) count_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) count_limits((s).n, 1, 1 << 20)
#define NNUELAB_ELEMENTWISE_OUT_BYTES(s) (s).n  // n output bytes
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu16 {

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Whole output vectors of two int16 inputs each, one lane block per vector.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::crelu16
