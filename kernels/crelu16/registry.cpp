#include "kernels/crelu16/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP crelu16
#define NNUELAB_REGISTRY_LIST "kernels/crelu16/crelu16.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_CRELU16_KERNEL
#define NNUELAB_REGISTRY_LANES  // the *_lanes forms' declared lane counts
#define NNUELAB_COUNTED_LIMITS(n) count_limits(n, 1, 1 << 20)
#define NNUELAB_COUNTED_OUT_BYTES(s) (s).n  // n output bytes
#include "kernels/common/counted_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::crelu16 {

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // Whole output vectors of two int16 inputs each, one lane block per vector.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n); });
}

}  // namespace nnuelab::crelu16
