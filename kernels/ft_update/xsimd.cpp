// ft_update over xsimd::batch<int16_t>: ft_tiles.h's techniques on the xsimd interface
// (kernels/common/xsimd_ft.h), compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/ft_update/ft_update.h"

#define NNUELAB_XSIMD_FT_UPDATE_EACH(M) M(naive) M(tiled) M(grouped) M(fused_add1_sub1) M(fused_add1_sub2) M(fused_add2_sub2)

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(ft_update, NNUELAB_XSIMD_FT_UPDATE_EACH(NNUELAB_FT_UPDATE_KERNEL))
namespace nnuelab::xsimd::ft_update {
using namespace ::nnuelab::ft_update;
#define NNUELAB_XSIMD_FT_FORWARD(tech)                                                                     \
  const char* tech##_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(ft_update, tech##_supports, s); } \
  void tech##_run(const Shape& s, const Args& a) { NNUELAB_XSIMD_CALL(ft_update, tech##_run, s, a); }
NNUELAB_XSIMD_FT_UPDATE_EACH(NNUELAB_XSIMD_FT_FORWARD)
#undef NNUELAB_XSIMD_FT_FORWARD
}  // namespace nnuelab::xsimd::ft_update
#else
#include "kernels/common/xsimd_ft.h"
namespace nnuelab::NNUELAB_ISA_NS::ft_update {
NNUELAB_XSIMD_FT_UPDATE_EACH(NNUELAB_FT_UPDATE_KERNEL)
NNUELAB_FT_UPDATE_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::XS16, ::nnuelab::NNUELAB_ISA_NS::ft::kXsTileRegs)
NNUELAB_FT_UPDATE_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::XS16)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_update
#endif
