// find_nnz, no ISA flags: the portable baselines. Both test every byte value (x != 0).
#include <cstring>

#include "kernels/common/isa.h"
#include "kernels/find_nnz/find_nnz.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {
using namespace ::nnuelab::find_nnz;

namespace {
// One unaligned 32-bit load per chunk; != 0 does not depend on byte order.
inline bool chunk_nonzero(const std::uint8_t* in, int c) {
  std::uint32_t w;
  std::memcpy(&w, in + 4 * c, 4);
  return w != 0;
}
}  // namespace

const char* branchy_supports(const Shape&) { return nullptr; }

int branchy_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  int count = 0;
  if (s.form == Form::kBytes) {
    const int n = s.n;  // a local: the uint8 input may alias s.n as far as the compiler knows
    for (int i = 0; i < n; ++i)
      if (in[i]) out[count++] = std::uint16_t(i);
  } else {
    const int chunks = s.n / 4;
    for (int c = 0; c < chunks; ++c)
      if (chunk_nonzero(in, c)) out[count++] = std::uint16_t(c);
  }
  return count;
}

const char* branchless_supports(const Shape&) { return nullptr; }

// Every index is stored and the count advances by 0 or 1: no data-dependent branch, one
// store per element, and one entry written past the count (within the slack).
int branchless_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  int count = 0;
  if (s.form == Form::kBytes) {
    const int n = s.n;
    for (int i = 0; i < n; ++i) {
      out[count] = std::uint16_t(i);
      count += in[i] != 0;
    }
  } else {
    const int chunks = s.n / 4;
    for (int c = 0; c < chunks; ++c) {
      out[count] = std::uint16_t(c);
      count += chunk_nonzero(in, c);
    }
  }
  return count;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
