// The scalar walk of a non-zero mask into an index list, shared by the x86 and NEON list
// builders (kernels/common/nnz_x86.h, kernels/common/neon_dot.h) and their find_nnz and
// affine kernels. Included by ISA files: it lands in that ISA's namespace, so a build with
// BMI1 (tzcnt + blsr) and one without (bsf, m & (m - 1)) never share one copy.
#pragma once
#include <cstdint>

#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::nnz {

// Appends first + the position of every set bit of m, ascending; returns how many. A
// branch per set bit: cheap when sparse, mispredicted on real data.
inline int emit_lsb(std::uint64_t m, int first, std::uint16_t* out) {
  int count = 0;
  while (m) {
    out[count++] = std::uint16_t(first + __builtin_ctzll(m));
    m &= m - 1;
  }
  return count;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::nnz
