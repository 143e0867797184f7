// crelu16, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/crelu16/crelu16.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {
using namespace ::nnuelab::crelu16;

const char* clamp_supports(const Shape&) { return nullptr; }

void clamp_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  const int n = s.n;  // a local: uint8 stores may alias s.n, which would block vectorising
  for (int i = 0; i < n; ++i) {
    const int x = input[i];
    output[i] = std::uint8_t(x < 0 ? 0 : x > 127 ? 127 : x);
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16
