// ft_update with SSE2 flags (16 xmm registers of 8 int16):
// the shared techniques of kernels/ft_refresh/ft_tiles.h on ft::X128, 16-register tiles.
#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_update {
NNUELAB_FT_UPDATE_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::X128, 16)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_update
