// ft_refresh over xsimd::batch<int16_t>: ft_tiles.h's techniques on the xsimd interface
// (kernels/common/xsimd_ft.h), compiled once per xsimd arch and once as the
// xsimd::dispatch front end (kernels/common/xsimd_arch.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/ft_refresh/ft_refresh.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(ft_refresh, NNUELAB_FT_REFRESH_KERNEL(naive) NNUELAB_FT_REFRESH_KERNEL(tiled)
                                       NNUELAB_FT_REFRESH_KERNEL(tiled_prefetch) NNUELAB_FT_REFRESH_KERNEL(tiled_stream)
                                       NNUELAB_FT_REFRESH_KERNEL(grouped))
namespace nnuelab::xsimd::ft_refresh {
using namespace ::nnuelab::ft_refresh;
#define NNUELAB_XSIMD_FT_FORWARD(tech)                                                                      \
  const char* tech##_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(ft_refresh, tech##_supports, s); } \
  void tech##_run(const Shape& s, const Args& a) { NNUELAB_XSIMD_CALL(ft_refresh, tech##_run, s, a); }
NNUELAB_XSIMD_FT_FORWARD(naive)
NNUELAB_XSIMD_FT_FORWARD(tiled)
NNUELAB_XSIMD_FT_FORWARD(tiled_prefetch)
NNUELAB_XSIMD_FT_FORWARD(tiled_stream)
NNUELAB_XSIMD_FT_FORWARD(grouped)
#undef NNUELAB_XSIMD_FT_FORWARD
}  // namespace nnuelab::xsimd::ft_refresh
#else
#include "kernels/common/xsimd_ft.h"
namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_KERNEL(naive)
NNUELAB_FT_REFRESH_KERNEL(tiled)
NNUELAB_FT_REFRESH_KERNEL(tiled_prefetch)
NNUELAB_FT_REFRESH_KERNEL(tiled_stream)
NNUELAB_FT_REFRESH_KERNEL(grouped)
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::XS16, ::nnuelab::NNUELAB_ISA_NS::ft::kXsTileRegs)
// The prefetches are __builtin_prefetch, not xsimd (8.1 has no prefetch).
NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::XS16, ::nnuelab::NNUELAB_ISA_NS::ft::kXsTileRegs)
NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::XS16, ::nnuelab::NNUELAB_ISA_NS::ft::kXsTileRegs)
NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::XS16)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
#endif
