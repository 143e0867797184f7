// The squared clipped ReLU of the xsimd variants (sqr_crelu32, crelu32_pair), in int32 lanes:
//   min(127, (x * x) >> (2s + 7))
// xsimd 8.1 has no mulhi and no 32x32 -> 64-bit multiply, so the square must stay in int32:
// x is first clipped to [-C, C], C the least value with C * C >= 127 << (2s + 7). Every
// |x| >= C gives 127 either way, and every |x| < C squares exactly. C * C fits int32 only
// while 127 << (2s + 7) < 2^31 - (2C - 1), i.e. shift <= 8: larger shifts are refused.
#pragma once
#include <cstdint>

#include "kernels/common/xsimd_arch.h"

namespace nnuelab::NNUELAB_ISA_NS::xops {

inline const char* sqr_shift_supported(int shift) {
  return shift < 0 || shift > 8 ? "needs shift 0..8 (the square is formed in int32 lanes: xsimd 8.1 has no "
                                  "mulhi and no widening multiply)"
                                : nullptr;
}

// Least C with C * C >= 127 << (2s + 7), for s = 0..8 (compile time).
constexpr std::int32_t sqr_clip_bound(int shift) {
  const std::int64_t limit = std::int64_t(127) << (2 * shift + 7);
  std::int64_t lo = 0, hi = 1 << 16;  // hi * hi >= limit for every shift <= 8
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (mid * mid >= limit) hi = mid; else lo = mid + 1;
  }
  return std::int32_t(lo);
}
inline constexpr std::int32_t kSqrClip[9] = {sqr_clip_bound(0), sqr_clip_bound(1), sqr_clip_bound(2),
                                             sqr_clip_bound(3), sqr_clip_bound(4), sqr_clip_bound(5),
                                             sqr_clip_bound(6), sqr_clip_bound(7), sqr_clip_bound(8)};
static_assert(std::int64_t(kSqrClip[8]) * kSqrClip[8] < (std::int64_t(1) << 31), "C * C must fit int32");

struct SqrClip {
  int k;          // 2s + 7
  std::int32_t c; // kSqrClip[s]
  explicit SqrClip(int shift) : k(2 * shift + 7), c(kSqrClip[shift]) {}
  B<std::int32_t> operator()(const B<std::int32_t>& x) const {
    using V = B<std::int32_t>;
    const V a = xs::clip(x, V(-c), V(c));
    return xs::min((a * a) >> k, V(127));
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::xops
