// pool_product2, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/pool_product2/pool_product2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_product2 {
using namespace ::nnuelab::pool_product2;

const char* loop_supports(const Shape&) { return nullptr; }

void loop_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  const int h = s.n / 2;  // a local: uint8 stores may alias s.n
  for (int i = 0; i < h; ++i) output[i] = std::uint8_t((input[i] * input[i + h]) >> 7);  // int product, in 0..126
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_product2
