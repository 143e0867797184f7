// The registry of registries: every op's variants, for ./lab list and for validating
// NNUELAB_FORCE_VARIANT. A new op adds one line here.
#include "kernels/affine/registry.h"
#include "kernels/common/variant.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/dot_u8i8/registry.h"
#include "kernels/find_nnz/registry.h"
#include "kernels/ft_output/registry.h"
#include "kernels/pool_avg2/registry.h"
#include "kernels/pool_max2/registry.h"
#include "kernels/pool_product2/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"
#include "kernels/octav_step/registry.h"
#include "kernels/quantize/registry.h"

namespace nnuelab {
namespace {
template <class V>
void append(std::vector<const VariantInfo*>& out, std::span<const V> vs) {
  for (const V& v : vs) out.push_back(&v.info);
}
}  // namespace

std::vector<const VariantInfo*> all_variants() {
  std::vector<const VariantInfo*> out;
  append(out, affine::variants());
  append(out, crelu16::variants());
  append(out, crelu32::variants());
  append(out, crelu32_pair::variants());
  append(out, dot_u8i8::variants());
  append(out, find_nnz::variants());
  append(out, ft_output::variants());
  append(out, pool_avg2::variants());
  append(out, pool_max2::variants());
  append(out, pool_product2::variants());
  append(out, quantmoid4::variants());
  append(out, sqr_crelu32::variants());
  append(out, ft_refresh::variants());
  append(out, ft_update::variants());
  append(out, octav_step::variants());
  append(out, quantize::variants());
  return out;
}

}  // namespace nnuelab
