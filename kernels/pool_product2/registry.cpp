#include "kernels/pool_product2/registry.h"

#include <vector>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP pool_product2
#define NNUELAB_REGISTRY_LIST "kernels/pool_product2/pool_product2.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_POOL_PRODUCT2_KERNEL
#define NNUELAB_REGISTRY_LANES  // NNUELAB_VARIANT_LANES lines: packus lane counts
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) count_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) paired_limits((s).n)
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"

namespace nnuelab::pool_product2 {

std::vector<int> output_order(const Variant& v, const Shape& s) {
  // A supported shape is a whole number of steps, and a step is one lane block.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n / 2); });
}

}  // namespace nnuelab::pool_product2
