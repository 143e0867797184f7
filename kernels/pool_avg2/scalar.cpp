// pool_avg2, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/pool_avg2/pool_avg2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_avg2 {
using namespace ::nnuelab::pool_avg2;

const char* loop_supports(const Shape&) { return nullptr; }

void loop_run(const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t*) {
  const int h = s.n / 2;  // a local: uint8 stores may alias s.n
  for (int i = 0; i < h; ++i) output[i] = std::uint8_t((input[i] + input[i + h] + 1) >> 1);  // 9-bit sum in int
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_avg2
