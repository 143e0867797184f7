// dot_u8i8 on plain armv8 NEON (no dot instruction): the two widening forms of
// kernels/common/neon_dot.h, 4 groups (16 bytes) per step, scalar tail below 4 groups.
//   dpbusd_widen16: u and w widened to int16, one exact vmulq_s16 per 8 bytes, vpadalq_s16;
//                   exact on the whole domain (the dpbusd semantics).
//   sdot_smull:     vmull_s8 / vmull_high_s8 of u read as int8, vpadalq_s16: exact int8 x int8
//                   sums, i.e. equal to dpbusd for u <= 127 only (the sdot semantics).
#include "kernels/common/neon_dot.h"
#include "kernels/dot_u8i8/groups.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

using namespace ::nnuelab::NNUELAB_ISA_NS::neon_dot;

// Both inputs of 4 groups; pair(lo, hi, u, w) adds one input's byte-pair sums.
template <Semantics S, class Pair>
inline void run_groups(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                       const std::uint8_t* u2, const std::int8_t* w2, Pair pair) {
  const int n = s.groups;
  int g = 0;
  for (; g + 4 <= n; g += 4) {
    int32x4_t lo = vdupq_n_s32(0), hi = lo;
    pair(lo, hi, vld1q_u8(u + 4 * g), vld1q_s8(w + 4 * g));
    pair(lo, hi, vld1q_u8(u2 + 4 * g), vld1q_s8(w2 + 4 * g));
    // The 8 products of a group are at most 8 * 255 * 128 in magnitude: the fold is exact,
    // and only the add to acc wraps (done on unsigned lanes, as the instruction would).
    const uint32x4_t sum = vreinterpretq_u32_s32(fold_pairs(lo, hi));
    vst1q_s32(acc + g, vreinterpretq_s32_u32(vaddq_u32(vreinterpretq_u32_s32(vld1q_s32(acc + g)), sum)));
  }
  scalar_tail<S>({acc, u, w, u2, w2}, g, n);
}

}  // namespace

NNUELAB_DOT_U8I8_KERNEL(dpbusd_widen16)
NNUELAB_DOT_U8I8_KERNEL(sdot_smull)

const char* dpbusd_widen16_supports(const Shape&) { return nullptr; }
void dpbusd_widen16_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                        const std::uint8_t* u2, const std::int8_t* w2) {
  run_groups<Semantics::kDpbusd>(s, acc, u, w, u2, w2, [](int32x4_t& lo, int32x4_t& hi, uint8x16_t a, int8x16_t b) {
    widen16_padal(lo, hi, a, b);
  });
}

const char* sdot_smull_supports(const Shape&) { return nullptr; }
void sdot_smull_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                    const std::uint8_t* u2, const std::int8_t* w2) {
  run_groups<Semantics::kSdot>(s, acc, u, w, u2, w2, [](int32x4_t& lo, int32x4_t& hi, uint8x16_t a, int8x16_t b) {
    smull_padal(lo, hi, vreinterpretq_s8_u8(a), b);
  });
}

NNUELAB_DOT_U8I8_PEAK(smull_padal, 8)

// vmull_s8 + vmull_high_s8 + 2 vpadalq_s16 per 16 MACs (the accumulator's lanes hold byte
// pair sums; the MAC count is what matters here). Each chain is one int32x4 accumulator
// whose two halves of products both add into it.
std::int64_t peak_smull_padal_chains8(std::int64_t rounds) {
  return peak_chains<8>(rounds, vreinterpretq_s32_s8(vdupq_n_s8(3)), vreinterpretq_s32_s8(vdupq_n_s8(-5)),
                        [](int32x4_t acc, int32x4_t u, int32x4_t w) {
                          const int8x16_t a = vreinterpretq_s8_s32(u), b = vreinterpretq_s8_s32(w);
                          acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(a), vget_low_s8(b)));
                          return vpadalq_s16(acc, vmull_high_s8(a, b));
                        });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
