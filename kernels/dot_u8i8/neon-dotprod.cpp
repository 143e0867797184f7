// dot_u8i8 with FEAT_DotProd (-march=armv8.2-a+dotprod): vdotq_s32, the 4-product dot in
// one instruction, but int8 x int8: u is read as int8, so it equals dpbusd only for
// u <= 127 (the sdot semantics; the NNUE activation domain is inside it).
#include "kernels/common/neon_dot.h"
#include "kernels/dot_u8i8/groups.h"
#include "kernels/dot_u8i8/peak_chains.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {

NNUELAB_DOT_U8I8_KERNEL(sdot_vdotq)

const char* sdot_vdotq_supports(const Shape&) { return nullptr; }
void sdot_vdotq_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                    const std::uint8_t* u2, const std::int8_t* w2) {
  const int n = s.groups;
  int g = 0;
  for (; g + 4 <= n; g += 4) {
    int32x4_t a = vld1q_s32(acc + g);
    a = neon_dot::sdot(a, vreinterpretq_s8_u8(vld1q_u8(u + 4 * g)), vld1q_s8(w + 4 * g));
    a = neon_dot::sdot(a, vreinterpretq_s8_u8(vld1q_u8(u2 + 4 * g)), vld1q_s8(w2 + 4 * g));
    vst1q_s32(acc + g, a);
  }
  scalar_tail<Semantics::kSdot>({acc, u, w, u2, w2}, g, n);
}

NNUELAB_DOT_U8I8_PEAK(sdot, 12)

// vdotq_s32 reads its accumulator: 12 chains cover its latency (3-4 cycles, 2-4 per cycle).
std::int64_t peak_sdot_chains12(std::int64_t rounds) {
  return peak_chains<12>(rounds, vreinterpretq_s32_s8(vdupq_n_s8(3)), vreinterpretq_s32_s8(vdupq_n_s8(-5)),
                         [](int32x4_t acc, int32x4_t u, int32x4_t w) {
                           return neon_dot::sdot(acc, vreinterpretq_s8_s32(u), vreinterpretq_s8_s32(w));
                         });
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
