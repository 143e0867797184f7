// quantmoid4, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/quantmoid4/quantmoid4.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {
using namespace ::nnuelab::quantmoid4;

const char* formula_supports(const Shape&) { return nullptr; }

void formula_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  const int n = s.n;  // a local: uint8 stores may alias s.n
  for (int i = 0; i < n; ++i) {
    const int x = input[i];
    const int a = x < 0 ? -x : x;  // in int: |-32768| fits
    const int d = 127 - (a < 127 ? a : 127);
    const int m = (d * d) >> 8;
    output[i] = std::uint8_t(x < 0 ? m : 126 - m);
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4
