// pool_max2, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/pool_max2/pool_max2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_max2 {
using namespace ::nnuelab::pool_max2;

const char* loop_supports(const Shape&) { return nullptr; }

void loop_run(const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t*) {
  const int h = s.n / 2;  // a local: uint8 stores may alias s.n
  for (int i = 0; i < h; ++i) output[i] = input[i] > input[i + h] ? input[i] : input[i + h];
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_max2
