// ft_refresh with AVX2 flags (16 ymm registers of 16 int16):
// the shared techniques of kernels/ft_refresh/ft_tiles.h on ft::X256, 16-register tiles.
#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::X256, 16)
NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X256, 16)
NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X256, 16)
NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X256)
NNUELAB_FT_REFRESH_FLOOR_DEFINE(::nnuelab::NNUELAB_ISA_NS::ft::X256)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
