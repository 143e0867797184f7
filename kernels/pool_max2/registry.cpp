#include "kernels/pool_max2/registry.h"

#include <vector>

#define NNUELAB_REGISTRY_OP pool_max2
#define NNUELAB_REGISTRY_LIST "kernels/pool_max2/pool_max2.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_POOL_MAX2_KERNEL
#include "kernels/common/registry_table.inc"

namespace nnuelab::pool_max2 {

std::string shape_name(const Shape& s) { return std::to_string(s.n); }

namespace {
Refusal refusal(const Variant& v, const Shape& s) { return refusal_of(v, s, paired_limits(s.n)); }
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

void run(const Variant& v, const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, refusal(v, s), shape_name);
}

}  // namespace nnuelab::pool_max2
