#include "kernels/quantmoid4/registry.h"

#define NNUELAB_REGISTRY_OP quantmoid4
#define NNUELAB_REGISTRY_LIST "kernels/quantmoid4/quantmoid4.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_QUANTMOID4_KERNEL
#define NNUELAB_COUNTED_LIMITS(n) count_limits(n, 1, 1 << 20)
#define NNUELAB_COUNTED_OUT_BYTES(s) (s).n  // n output bytes
#include "kernels/common/counted_registry.inc"
#include "kernels/common/registry_table.inc"
