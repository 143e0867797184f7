// ft_refresh with SSE2 flags (16 xmm registers of 8 int16):
// the shared techniques of kernels/ft_refresh/ft_tiles.h on ft::X128, 8-register tiles
// (non-VEX paddw cannot take an unaligned row from memory: each row register is loaded into
// a temporary first, so 16 accumulators plus temporaries would spill; 8 leave room).
#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::X128, 8)
NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X128, 8)
NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X128, 8)
NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X128)
NNUELAB_FT_REFRESH_FLOOR_DEFINE(::nnuelab::NNUELAB_ISA_NS::ft::X128)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
