// crelu32, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/common/run_many.h"
#include "kernels/crelu32/crelu32.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {
using namespace ::nnuelab::crelu32;

const char* clamp_supports(const Shape&) { return nullptr; }

void clamp_run(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t*) {
  const int n = s.n, shift = s.shift;  // locals: uint8 stores may alias the shape
  for (int i = 0; i < n; ++i) {
    const std::int32_t x = input[i] >> shift;  // arithmetic in C++20
    output[i] = std::uint8_t(x < 0 ? 0 : x > 127 ? 127 : x);
  }
}
NNUELAB_CRELU32_RUN_MANY(clamp)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
