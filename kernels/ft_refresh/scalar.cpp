// ft_refresh without ISA flags (one int16 per "register"):
// the shared techniques of kernels/ft_refresh/ft_tiles.h on ft::Scalar, 32-register tiles.
#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_refresh {
NNUELAB_FT_REFRESH_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::Scalar, 32)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_refresh
