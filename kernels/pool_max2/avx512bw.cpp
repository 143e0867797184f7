// pool_max2 with avx512bw flags (pairwise.h's V512: 64 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/pool_max2/pool_max2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_max2 {
using namespace ::nnuelab::pool_max2;

const char* max_epu8_supports(const Shape& s) {
  return (s.n / 2) % 64 ? "needs n % 128 == 0 (one 64-byte register from each half per step)" : nullptr;
}

void max_epu8_run(const Shape& s, const std::uint8_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::bytes_pairwise<pairwise::V512, pairwise::ByteOp::kMax>(input, s.n, output);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_max2
