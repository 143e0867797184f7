// pool_product2 with avx512bw flags (pairwise.h's V512: 64 outputs per step).
#include "kernels/common/isa.h"
#include "kernels/common/pairwise.h"
#include "kernels/pool_product2/pool_product2.h"

namespace nnuelab::NNUELAB_ISA_NS::pool_product2 {
using namespace ::nnuelab::pool_product2;
using pairwise::Product;

static const char* step_supports(const Shape& s) {
  return (s.n / 2) % 64 ? "needs n % 128 == 0 (two 64-byte int16 registers from each half per step)" : nullptr;
}

const char* mullo_srli_packus_permute_supports(const Shape& s) { return step_supports(s); }
const char* mullo_srli_packus_permute_bits_supports(const Shape& s) { return step_supports(s); }
const char* mullo_srli_packus_lanes_supports(const Shape& s) { return step_supports(s); }
const char* mullo_srli_packus_lanes_bits_supports(const Shape& s) { return step_supports(s); }

void mullo_srli_packus_permute_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::words_pairwise<pairwise::V512, Product::kMul7, /*unlace=*/true, /*kBits=*/false>(input, s.n, output, nullptr);
}

void mullo_srli_packus_permute_bits_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  pairwise::words_pairwise<pairwise::V512, Product::kMul7, /*unlace=*/true, /*kBits=*/true>(input, s.n, output, bits);
}

// Without the permute: the bytes stay in packus' per-lane order (4 lanes, declared by the
// registry line), which the next layer's prepare absorbs; the bitset is that of the bytes
// as stored.
void mullo_srli_packus_lanes_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t*) {
  pairwise::words_pairwise<pairwise::V512, Product::kMul7, /*unlace=*/false, /*kBits=*/false>(input, s.n, output, nullptr);
}

void mullo_srli_packus_lanes_bits_run(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  pairwise::words_pairwise<pairwise::V512, Product::kMul7, /*unlace=*/false, /*kBits=*/true>(input, s.n, output, bits);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pool_product2
