// dot_u8i8, no ISA flags: the portable form of the maddubs semantics.
#include "kernels/dot_u8i8/groups.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {

NNUELAB_DOT_U8I8_KERNEL(maddubs)

const char* maddubs_supports(const Shape&) { return nullptr; }

void maddubs_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                 const std::uint8_t* u2, const std::int8_t* w2) {
  scalar_groups<Semantics::kMaddubs>({acc, u, w, u2, w2}, 0, s.groups);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
