// 256-bit helpers with AVX-VNNI (the VEX-encoded vpdpbusd of Alder Lake and Zen 5: a
// different CPU feature from AVX512-VNNI). Included by avxvnni ISA files only.
#pragma once
#include "kernels/common/avx2.h"

namespace nnuelab::NNUELAB_ISA_NS::x256 {

// As Maddubs, but the dot is one vpdpbusd: exact, no int16 pair saturation.
struct Vnni : Maddubs {
  static reg dot(reg acc, reg u, reg w) { return _mm256_dpbusd_avx_epi32(acc, u, w); }
  // The whole dot (vpdpbusd: 5 cycles on Intel cores) lies on the accumulator's chain,
  // where maddubs+madd leave only the 1-cycle add on it: a technique with few
  // accumulators needs more independent sets (techniques.h, DenseBlocked4).
  static constexpr bool kDotInChain = true;
  // No two- or four-chunk dot: they save madds, and vpdpbusd has none to save. Deleted so
  // that the x2 and x4 techniques cannot be instantiated on a VNNI ISA by mistake.
  static reg dot2(reg, reg, reg, reg, reg) = delete;
  static reg dot4(reg, reg, reg, reg, reg, reg, reg, reg, reg) = delete;
};

}  // namespace nnuelab::NNUELAB_ISA_NS::x256
