// pool_product2 with sse2 flags (pairwise.h's V128: 16 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/pool_product2/pool_product2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_product2 {
using namespace ::nnuelab::pool_product2;
using pairwise::Product;

static const char* step_supports(const Shape& s) {
  return (s.n / 2) % 16 ? "needs n % 32 == 0 (two 16-byte int16 registers from each half per step)" : nullptr;
}

const char* mullo_srli_packus_supports(const Shape& s) { return step_supports(s); }
const char* mullo_srli_packus_bits_supports(const Shape& s) { return step_supports(s); }

void mullo_srli_packus_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::words_pairwise<pairwise::V128, Product::kMul7, /*unlace=*/true, /*kBits=*/false>(input, s.n, output, nullptr);
}

void mullo_srli_packus_bits_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  pairwise::words_pairwise<pairwise::V128, Product::kMul7, /*unlace=*/true, /*kBits=*/true>(input, s.n, output, bits);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_product2
