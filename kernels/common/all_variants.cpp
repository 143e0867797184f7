// The registry of registries: every op's variants, for ./lab list and for validating
// NNUELAB_FORCE_VARIANT. A new op adds one line here.
#include "kernels/affine/registry.h"
#include "kernels/common/variant.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/dot_u8i8/registry.h"
#include "kernels/find_nnz/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"

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
  append(out, dot_u8i8::variants());
  append(out, find_nnz::variants());
  append(out, ft_refresh::variants());
  append(out, ft_update::variants());
  return out;
}

}  // namespace nnuelab
