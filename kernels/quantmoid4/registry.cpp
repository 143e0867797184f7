#include "kernels/quantmoid4/registry.h"

#define NNUELAB_REGISTRY_OP quantmoid4
#define NNUELAB_REGISTRY_LIST "kernels/quantmoid4/quantmoid4.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_QUANTMOID4_KERNEL
#define NNUELAB_ELEMENTWISE_SHAPE_NAME(s) count_shape_name(s)
#define NNUELAB_ELEMENTWISE_LIMITS(s) count_limits((s).n, 1, 1 << 20)
#define NNUELAB_ELEMENTWISE_OUT_BYTES(s) (s).n  // n output bytes
#include "kernels/common/elementwise_registry.inc"
#include "kernels/common/registry_table.inc"
