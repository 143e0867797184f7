// ft_refresh with AVX-512BW flags, or SIMDe for avx512bw-emu (32 zmm registers of 32 int16):
// the shared techniques of kernels/ft_refresh/ft_tiles.h on ft::X512, 32-register tiles.
#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::X512, 32)
NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X512, 32)
NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X512, 32)
NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::X512)
NNUELAB_FT_REFRESH_FLOOR_DEFINE(::nnuelab::NNUELAB_ISA_NS::ft::X512)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
