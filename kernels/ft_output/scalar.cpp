// ft_output, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/ft_output/ft_output.h"

namespace nnuelab::NNUELAB_ISA_NS::ft_output {
using namespace ::nnuelab::ft_output;

const char* clamp_loop_supports(const Shape&) { return nullptr; }

void clamp_loop_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  const int h = s.n / 2;  // a local: uint8 stores may alias s
  const int hi = s.form == Form::kClamp127 ? 127 : 255;
  const int shift = s.form == Form::kClamp127 ? 7 : 9;
  auto clamp = [hi](int x) { return x < 0 ? 0 : x > hi ? hi : x; };
  for (int i = 0; i < h; ++i) output[i] = std::uint8_t((clamp(input[i]) * clamp(input[i + h])) >> shift);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::ft_output
