// pool_avg2 with NEON (pairwise.h on neon.h's pairwise::N128: 16 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/pool_avg2/pool_avg2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_avg2 {
using namespace ::nnuelab::pool_avg2;

const char* rhadd_u8_supports(const Shape& s) {
  return (s.n / 2) % 16 ? "needs n % 32 == 0 (one 16-byte register from each half per step)" : nullptr;
}

// urhadd is pavgb: (a + b + 1) >> 1 with the 9-bit sum inside the instruction, no wrap.
void rhadd_u8_run(const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::bytes_pairwise<pairwise::N128, pairwise::ByteOp::kAvg>(input, s.n, output);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_avg2
