#include "kernels/pool_avg2/registry.h"

#define NNUELAB_REGISTRY_OP pool_avg2
#define NNUELAB_REGISTRY_LIST "kernels/pool_avg2/pool_avg2.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_POOL_AVG2_KERNEL
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) count_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) paired_limits((s).n)
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"
