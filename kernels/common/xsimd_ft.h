// The int16 vector interface of kernels/ft_refresh/ft_tiles.h over xsimd::batch<int16_t>,
// so the feature-transformer techniques (naive, tiled, fused) are shared with the
// intrinsic ISAs instead of copied. xsimd's + and - on int16 wrap (paddw/psubw, add/sub on
// NEON), exactly the ops' mod-2^16 arithmetic.
#pragma once
#include "kernels/common/xsimd_arch.h"
#include "kernels/ft_refresh/ft_tiles.h"

namespace nnuelab::NNUELAB_ISA_NS::ft {

struct XS16 {
  using reg = B<std::int16_t>;
  static constexpr int kLanes = int(reg::size);
  static constexpr const char* kWidthReason = kLanes == 8    ? "needs l1 % 8 == 0 (whole xsimd batches of 8 int16)"
                                              : kLanes == 16 ? "needs l1 % 16 == 0 (whole xsimd batches of 16 int16)"
                                                             : "needs l1 % 32 == 0 (whole xsimd batches of 32 int16)";
  static reg load(const std::int16_t* p) { return reg::load_unaligned(p); }
  static void store(std::int16_t* p, const reg& v) { v.store_unaligned(p); }
  static reg add(const reg& a, const reg& b) { return a + b; }
  static reg sub(const reg& a, const reg& b) { return a - b; }
};

// Accumulator registers per tile: half of the register file (16 of the 32 NEON or AVX2
// ymm ... registers the backend has, 8 of SSE's 16 xmm), as the intrinsic builds use.
#if defined(NNUELAB_ISA_xsimd_sse41)
inline constexpr int kXsTileRegs = 8;
#else
inline constexpr int kXsTileRegs = 16;
#endif

}  // namespace nnuelab::NNUELAB_ISA_NS::ft
