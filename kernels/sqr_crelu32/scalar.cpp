// sqr_crelu32, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/common/run_many.h"
#include "kernels/sqr_crelu32/sqr_crelu32.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {
using namespace ::nnuelab::sqr_crelu32;

const char* square_supports(const Shape&) { return nullptr; }

void square_run(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t*) {
  const int n = s.n, total = 2 * s.shift + 7;  // locals: uint8 stores may alias the shape
  for (int i = 0; i < n; ++i) {
    const std::int64_t x = input[i];
    const std::int64_t sq = (x * x) >> total;  // exact: x*x <= 2^62, total <= 63
    output[i] = std::uint8_t(sq > 127 ? 127 : sq);
  }
}

NNUELAB_SQR_CRELU32_RUN_MANY(square)

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32
