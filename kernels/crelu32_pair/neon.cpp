// crelu32_pair with NEON (native aarch64, and as neon-emu against SIMDe).
#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/crelu32_pair/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

// The shared-narrowing technique on act::N128: one sqxtn pair per four input vectors
// feeds both halves (mulhi square; sshl + sqxtn + smax clip). No permutes: narrowing keeps
// the order. 5 <= shift <= 8 (the int16 saturation and mulhi's dropped low half).
NNUELAB_CRELU32_PAIR_DEFINE(shared_qmovn, act::N128, false)
NNUELAB_CRELU32_PAIR_DEFINE(shared_qmovn_bits, act::N128, true)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {

// NEON's own pair: the shared sqxtn narrowing feeds the sqdmulh square (x*x >> 15 in one
// instruction, see sqr_crelu32/neon.cpp: exact for 4 <= shift <= 8) and the clip (sshl
// right in int16, sqxtn, smax 0: exact for shift <= 8, like the packs form). Domain of the
// pair: 4 <= shift <= 8, one shift lower than the mulhi square allows.
// The _bits form writes the two bit streams (squared half from chunk 0, clipped half from
// chunk n / 4) with one vtst reduction per 64 output bytes of each half when n % 64 == 0
// (so the clipped stream starts on a 16-bit boundary), else one per 16 bytes.
static const char* qdmulh_domain(const Shape& s) {
  if (s.n % 16) return "needs n % 16 == 0 (four int32x4 vectors per output vector)";
  if (s.shift > 8) return "needs shift <= 8 (it saturates to int16 before shifting and squaring)";
  if (s.shift < 4) return "needs shift >= 4 (sqdmulh keeps x*x >> 15; 2*shift + 7 < 15 needs the low half)";
  return nullptr;
}

template <bool kBits>
static void shared_qdmulh(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const int n = s.n, vectors = n / 16;
  const int16x8_t sq_right = vdupq_n_s16(std::int16_t(-(2 * s.shift - 8)));
  const int16x8_t clip_right = vdupq_n_s16(std::int16_t(-s.shift));
  const int8x16_t zero = vdupq_n_s8(0);
  auto step = [&](int k, uint8x16_t& sq, uint8x16_t& clip) {
    const std::int32_t* p = in + 16 * k;
    const int16x8_t x01 = neon::qmovn2(vld1q_s32(p), vld1q_s32(p + 4));  // the shared narrowing
    const int16x8_t x23 = neon::qmovn2(vld1q_s32(p + 8), vld1q_s32(p + 12));
    sq = neon::u8(neon::qmovn2(vshlq_s16(vqdmulhq_s16(x01, x01), sq_right), vshlq_s16(vqdmulhq_s16(x23, x23), sq_right)));
    clip = neon::u8(vmaxq_s8(neon::qmovn2(vshlq_s16(x01, clip_right), vshlq_s16(x23, clip_right)), zero));
    vst1q_u8(out + 16 * k, sq);
    vst1q_u8(out + n + 16 * k, clip);
  };
  if constexpr (!kBits) {
    uint8x16_t sq, clip;
    for (int k = 0; k < vectors; ++k) step(k, sq, clip);
  } else {
    // As the generic form: unless n % 256 == 0 both streams share word n / 256, where the
    // squared stream's tail is merged into the clipped one's first word (act::BitWriter).
    const bool shared = n % 256 != 0;  // n % 16 == 0 here, so the clipped stream starts at bit n / 4
    act::BitWriter wsqr(bits), wclip(bits, n / 4);
    int k = 0;
    if (n % 64 == 0) {
      for (; k + 4 <= vectors; k += 4) {
        uint8x16_t sq[4], clip[4];
        for (int j = 0; j < 4; ++j) step(k + j, sq[j], clip[j]);
        wsqr.push(neon::nnz64(sq[0], sq[1], sq[2], sq[3]), 16);
        wclip.push(neon::nnz64(clip[0], clip[1], clip[2], clip[3]), 16);
      }
    }
    for (; k < vectors; ++k) {
      uint8x16_t sq, clip;
      step(k, sq, clip);
      wsqr.push(neon::nnz16(sq), 4);
      wclip.push(neon::nnz16(clip), 4);
    }
    if (shared) {
      wclip.finish_merging(wsqr.take_tail());
    } else {
      wsqr.finish();
      wclip.finish();
    }
  }
}

const char* shared_qmovn_qdmulh_supports(const Shape& s) { return qdmulh_domain(s); }
void shared_qmovn_qdmulh_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  shared_qdmulh<false>(s, in, out, b);
}
const char* shared_qmovn_qdmulh_bits_supports(const Shape& s) { return qdmulh_domain(s); }
void shared_qmovn_qdmulh_bits_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  shared_qdmulh<true>(s, in, out, b);
}

NNUELAB_CRELU32_PAIR_RUN_MANY(shared_qmovn_qdmulh)
NNUELAB_CRELU32_PAIR_RUN_MANY(shared_qmovn_qdmulh_bits)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
