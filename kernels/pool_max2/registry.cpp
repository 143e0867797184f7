#include "kernels/pool_max2/registry.h"

#define NNUELAB_REGISTRY_OP pool_max2
#define NNUELAB_REGISTRY_LIST "kernels/pool_max2/pool_max2.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_POOL_MAX2_KERNEL
#define NNUELAB_COUNTED_LIMITS(n) paired_limits(n)
#include "kernels/common/counted_registry.inc"
#include "kernels/common/registry_table.inc"
