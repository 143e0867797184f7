// pool_avg2 with avx2 flags (pairwise.h's V256: 32 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/pool_avg2/pool_avg2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_avg2 {
using namespace ::nnuelab::pool_avg2;

const char* avg_epu8_supports(const Shape& s) {
  return (s.n / 2) % 32 ? "needs n % 64 == 0 (one 32-byte register from each half per step)" : nullptr;
}

void avg_epu8_run(const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::bytes_pairwise<pairwise::V256, pairwise::ByteOp::kAvg>(input, s.n, output);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_avg2
