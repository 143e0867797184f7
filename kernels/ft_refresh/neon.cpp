// ft_refresh with NEON (32 q registers of 8 int16): the shared techniques of
// kernels/ft_refresh/ft_tiles.h on ft::N128 (kernels/common/neon.h), 16-register tiles.
// NEON's add takes registers only, so each row register is loaded into a temporary: 16
// accumulators leave 16 registers for loads in flight (32 would spill; tiles are powers of two).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::N128, 16)
NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::N128, 16)
NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::N128, 16)
NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::N128)
NNUELAB_FT_REFRESH_FLOOR_DEFINE(::nnuelab::NNUELAB_ISA_NS::ft::N128)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
