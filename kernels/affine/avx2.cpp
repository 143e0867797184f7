// affine with AVX2 (+BMI2, FMA, POPCNT) flags.
#include "kernels/common/isa.h"
#include "kernels/common/avx2.h"
#include "kernels/affine/affine.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using namespace ::nnuelab::affine;

// ---- dense_rows4: 4 rows per step, one haddx4 per 4 outputs -------------------------

const char* dense_rows4_supports(const Shape& s) {
  if (s.in % 32) return "needs in % 32 == 0 (whole 32-byte input blocks)";
  if (s.out % 4) return "needs out % 4 == 0 (outputs are produced 4 at a time)";
  return nullptr;
}

// Row-major weights are what this kernel reads; packing only adds alignment.
void dense_rows4_prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }

void dense_rows4_unpack(const Packed& p, std::int8_t* weights, std::int32_t* bias) {
  unpack_row_major(p, weights, bias);
}

void dense_rows4_run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
  const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
  const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
  const int in = p.shape.in, out = p.shape.out;
  const int blocks = in / 32;
  for (int o = 0; o < out; o += 4) {
    const std::int8_t* r0 = w + std::size_t(o) * in;
    const std::int8_t* r1 = r0 + in;
    const std::int8_t* r2 = r1 + in;
    const std::int8_t* r3 = r2 + in;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (int k = 0; k < blocks; ++k) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(input) + k);
      a0 = x256::dot_u8i8_madd(a0, x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r0) + k));
      a1 = x256::dot_u8i8_madd(a1, x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r1) + k));
      a2 = x256::dot_u8i8_madd(a2, x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r2) + k));
      a3 = x256::dot_u8i8_madd(a3, x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r3) + k));
    }
    const __m128i sums = _mm_add_epi32(x256::haddx4(a0, a1, a2, a3),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + o)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(output + o), sums);
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::affine
