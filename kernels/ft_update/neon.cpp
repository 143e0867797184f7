// ft_update with NEON (32 q registers of 8 int16): the shared techniques of
// kernels/ft_refresh/ft_tiles.h on ft::N128 (kernels/common/neon.h), 16-register tiles
// (loads need temporaries: NEON's add takes no memory operand).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_update {
NNUELAB_FT_UPDATE_TECHNIQUES(::nnuelab::NNUELAB_ISA_NS::ft::N128, 16)
NNUELAB_FT_UPDATE_GROUPED_TECHNIQUE(::nnuelab::NNUELAB_ISA_NS::ft::N128)
}  // namespace nnuelab::NNUELAB_ISA_NS::ft_update
