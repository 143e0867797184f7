// The affine techniques on NEON, written once against a dot policy D and instantiated by
// kernels/affine/neon.cpp (D = Smull: vmull_s8 + vpadalq_s16), neon-dotprod.cpp (Sdot:
// vdotq_s32) and neon-i8mm.cpp (Usdot: vusdotq_s32). Everything lands in the including
// ISA's namespace.
//
// Layouts: the x86 ones suit NEON as they are. dense_rows4 and dot1 read row-major W;
// the blocked forms read pack_tiles4's tiles[c][o][0..3], so one 128-bit register holds
// chunk c's 4 weights of 4 consecutive outputs, and one broadcast chunk times it gives
// those 4 outputs' partial dots with no horizontal sum (for Smull after a final vpaddq_s32
// of the two byte-pair accumulators).
//
// Domain: Smull and Sdot read x as int8: exact on the op's domain 0..127, x >= 128 reads as
// x - 256 (tests/affine_test.cpp, AffineDomain). Usdot is exact on 0..255.
#pragma once
#include "kernels/affine/affine.h"
#include "kernels/common/index_list.h"
#include "kernels/common/neon_dot.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using namespace ::nnuelab::affine;
namespace nd = ::nnuelab::NNUELAB_ISA_NS::neon_dot;

// ---- dot policies -------------------------------------------------------------------------
// Acc: the accumulator of one register of 4 outputs; dot(acc, x, w) adds x . w per 4-byte
// group; out(acc) gives the 4 outputs' int32 sums; kRegs is the vector registers per Acc.
// dot_row(a, x, w) accumulates into one int32x4 whose lane sum is the row's dot (the rows
// forms only need the total).
struct Smull {
  struct Acc {
    int32x4_t lo, hi;  // byte-pair sums: lo outputs 0, 1; hi outputs 2, 3
  };
  static constexpr int kRegs = 2;
  static Acc zero() { return {vdupq_n_s32(0), vdupq_n_s32(0)}; }
  static Acc dot(Acc a, uint8x16_t x, int8x16_t w) {
    nd::smull_padal(a.lo, a.hi, w, vreinterpretq_s8_u8(x));
    return a;
  }
  static Acc add(Acc a, Acc b) { return {vaddq_s32(a.lo, b.lo), vaddq_s32(a.hi, b.hi)}; }
  static int32x4_t out(Acc a) { return nd::fold_pairs(a.lo, a.hi); }
  static int32x4_t dot_row(int32x4_t a, uint8x16_t x, int8x16_t w) {
    const int8x16_t xs = vreinterpretq_s8_u8(x);
    a = vpadalq_s16(a, vmull_s8(vget_low_s8(w), vget_low_s8(xs)));
    return vpadalq_s16(a, vmull_high_s8(w, xs));
  }
};

#if NNUELAB_EMULATED || defined(__ARM_FEATURE_DOTPROD)
struct Sdot {
  using Acc = int32x4_t;
  static constexpr int kRegs = 1;
  static Acc zero() { return vdupq_n_s32(0); }
  static Acc dot(Acc a, uint8x16_t x, int8x16_t w) { return nd::sdot(a, w, vreinterpretq_s8_u8(x)); }
  static Acc add(Acc a, Acc b) { return vaddq_s32(a, b); }
  static int32x4_t out(Acc a) { return a; }
  static int32x4_t dot_row(int32x4_t a, uint8x16_t x, int8x16_t w) { return dot(a, x, w); }
};
#endif

#if NNUELAB_EMULATED || defined(__ARM_FEATURE_MATMUL_INT8)
struct Usdot {
  using Acc = int32x4_t;
  static constexpr int kRegs = 1;
  static Acc zero() { return vdupq_n_s32(0); }
  static Acc dot(Acc a, uint8x16_t x, int8x16_t w) { return nd::usdot(a, x, w); }
  static Acc add(Acc a, Acc b) { return vaddq_s32(a, b); }
  static int32x4_t out(Acc a) { return a; }
  static int32x4_t dot_row(int32x4_t a, uint8x16_t x, int8x16_t w) { return dot(a, x, w); }
};
#endif

// ---- dense_rows4: 4 weight rows against whole input registers --------------------------
template <class D>
struct NeonDenseRows4 {
  static const char* supports(const Shape& s) {
    if (s.in % 16) return "needs in % 16 == 0 (whole 128-bit input registers)";
    if (s.out % 4) return "needs out % 4 == 0 (outputs are produced 4 at a time)";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_row_major(p, w, b); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int in = p.shape.in, out = p.shape.out;
    for (int o = 0; o < out; o += 4) {
      const std::int8_t* r = w + std::size_t(o) * in;
      int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
      for (int k = 0; k < in; k += 16) {
        const uint8x16_t x = vld1q_u8(input + k);
        a0 = D::dot_row(a0, x, vld1q_s8(r + k));
        a1 = D::dot_row(a1, x, vld1q_s8(r + in + k));
        a2 = D::dot_row(a2, x, vld1q_s8(r + 2 * in + k));
        a3 = D::dot_row(a3, x, vld1q_s8(r + 3 * in + k));
      }
      // Two rounds of pairwise adds: lane i = the lane sum of a_i (haddx4).
      const int32x4_t sums = vpaddq_s32(vpaddq_s32(a0, a1), vpaddq_s32(a2, a3));
      vst1q_s32(output + o, vaddq_s32(sums, vld1q_s32(b + o)));
    }
  }
};

// ---- dot1: the 1-output dot, two accumulators per row, one vaddvq ---------------------
template <class D>
struct NeonDot1 {
  static const char* supports(const Shape& s) { return s.in % 16 ? "needs in % 16 == 0 (whole 128-bit input registers)" : nullptr; }
  static void prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_row_major(p, w, b); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int in = p.shape.in, out = p.shape.out;
    for (int o = 0; o < out; ++o) {
      const std::int8_t* row = w + std::size_t(o) * in;
      int32x4_t a0 = vdupq_n_s32(0), a1 = a0;
      int k = 0;
      for (; k + 32 <= in; k += 32) {
        a0 = D::dot_row(a0, vld1q_u8(input + k), vld1q_s8(row + k));
        a1 = D::dot_row(a1, vld1q_u8(input + k + 16), vld1q_s8(row + k + 16));
      }
      if (k < in) a0 = D::dot_row(a0, vld1q_u8(input + k), vld1q_s8(row + k));
      output[o] = b[o] + vaddvq_s32(vaddq_s32(a0, a1));
    }
  }
};

// ---- the blocked forms -------------------------------------------------------------------
// R registers (4R outputs from `first`), K accumulator sets (set k takes every K-th chunk).
// Chunks come from idx (a list), or all of them (kDense).
// The loops over k and r carry NNUELAB_UNROLL (kernels/common/isa.h), as the x86 slabs do:
// without it GCC 12 for aarch64 kept the K x R accumulator arrays partly on the stack.
// Stack accesses in the objects' code, counted with objdump (untimed: no ARM CPU here):
// 342 -> 173 in neon.cpp.o, 128 -> 62 in neon-dotprod.cpp.o; what is left is mostly
// the saves of the callee-saved d8-d15.
template <class D, int R, int K, bool kDense>
inline void neon_blocked_slab(const std::int8_t* tiles, int out, int first, const std::int32_t* bias,
                              const std::uint8_t* input, const std::uint16_t* idx, int count, std::int32_t* output) {
  typename D::Acc acc[K][R];
  NNUELAB_UNROLL
  for (int k = 0; k < K; ++k)
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) acc[k][r] = D::zero();
  const std::size_t stride = std::size_t(out) * 4;
  const std::int8_t* base = tiles + std::size_t(first) * 4;
  auto step = [&](typename D::Acc* a, int c) {
    const uint8x16_t x = nd::bcast_chunk(input + 4 * c);
    const std::int8_t* t = base + c * stride;
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) a[r] = D::dot(a[r], x, vld1q_s8(t + 16 * r));
  };
  int j = 0;
  for (; j + K <= count; j += K)
    NNUELAB_UNROLL
    for (int k = 0; k < K; ++k) step(acc[k], kDense ? j + k : idx[j + k]);
  for (; j < count; ++j) step(acc[0], kDense ? j : idx[j]);
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    typename D::Acc sum = acc[0][r];
    NNUELAB_UNROLL
    for (int k = 1; k < K; ++k) sum = D::add(sum, acc[k][r]);
    vst1q_s32(output + first + 4 * r, vaddq_s32(D::out(sum), vld1q_s32(bias + first + 4 * r)));
  }
}

// Accumulators use at most 16 of the 32 vector registers: slabs of 8, 4, 2 or 1 registers.
template <class D, int K, bool kDense>
inline void neon_blocked_all(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
                             std::int32_t* output) {
  constexpr int kBudget = 16 / D::kRegs;
  const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
  const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
  const int out = p.shape.out;
  for (int first = 0; first < out;) {
    const int regs = (out - first) / 4;
    if (regs >= 8 && 8 * K <= kBudget) {
      neon_blocked_slab<D, 8, K, kDense>(tiles, out, first, bias, input, idx, count, output);
      first += 32;
    } else if (regs >= 4 && 4 * K <= kBudget) {
      neon_blocked_slab<D, 4, K, kDense>(tiles, out, first, bias, input, idx, count, output);
      first += 16;
    } else if (regs >= 2 && 2 * K <= kBudget) {
      neon_blocked_slab<D, 2, K, kDense>(tiles, out, first, bias, input, idx, count, output);
      first += 8;
    } else {
      neon_blocked_slab<D, 1, K, kDense>(tiles, out, first, bias, input, idx, count, output);
      first += 4;
    }
  }
}

template <class D>
struct NeonBlockedBase {
  static const char* supports(const Shape& s) {
    if (s.in % 4) return "needs in % 4 == 0 (whole 4-byte chunks)";
    if (s.out % 4) return "needs out % 4 == 0 (4 int32 outputs per register)";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_tiles4(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_tiles4(p, w, b); }
};

template <class D>
struct NeonDenseBlocked4 : NeonBlockedBase<D> {
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    neon_blocked_all<D, 1, true>(p, input, nullptr, p.shape.in / 4, output);
  }
};

// List the non-zero chunks (Nnz = nd::Lsb or nd::Lut), then accumulate only those.
template <class D, class Nnz, int K>
struct NeonSparseBlocked4 : NeonBlockedBase<D> {
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = Nnz::chunks(input, p.shape.in / 4, idx);
    neon_blocked_all<D, K, false>(p, input, idx, count, output);
  }
  // The producer's bitset in place of the input scan (the table list only: Nnz::from_bits).
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    neon_blocked_all<D, K, false>(p, input, idx, Nnz::from_bits(words, p.shape.in / 4, idx), output);
  }
  // The list given (affine::RunList): the dots alone.
  static void run_list(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
                       std::int32_t* output) {
    neon_blocked_all<D, K, false>(p, input, idx, count, output);
  }
};

// No list: per 64 chunks one mask word (scanned here, or the producer's bitset), its set
// bits walked with ctz + clear-lowest straight into the dots; K sets take K bits per round
// while K remain. Outputs beyond the register budget take further slabs, each walking the
// words again.
template <class D, int R, int K>
inline void neon_bitset_slab(const std::int8_t* tiles, int out, int first, const std::int32_t* bias,
                             const std::uint8_t* input, const std::uint64_t* words, int chunks, std::int32_t* output) {
  typename D::Acc acc[K][R];
  NNUELAB_UNROLL
  for (int k = 0; k < K; ++k)
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) acc[k][r] = D::zero();
  const std::size_t stride = std::size_t(out) * 4;
  for (int b = 0; b < chunks; b += 64) {
    std::uint64_t m = words ? words[b / 64] : nd::chunk_mask64(input, b, chunks);
    const std::int8_t* tb = tiles + std::size_t(first) * 4 + std::size_t(b) * stride;
    const std::uint8_t* ib = input + 4 * std::size_t(b);
    auto step = [&](typename D::Acc* a) {
      const int c = __builtin_ctzll(m);
      m &= m - 1;
      const uint8x16_t x = nd::bcast_chunk(ib + 4 * c);
      const std::int8_t* t = tb + std::size_t(c) * stride;
      NNUELAB_UNROLL
      for (int r = 0; r < R; ++r) a[r] = D::dot(a[r], x, vld1q_s8(t + 16 * r));
    };
    if constexpr (K > 1) {
      for (int n = __builtin_popcountll(m); n >= K; n -= K)
        NNUELAB_UNROLL
        for (int k = 0; k < K; ++k) step(acc[k]);
    }
    while (m) step(acc[0]);
  }
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    typename D::Acc sum = acc[0][r];
    NNUELAB_UNROLL
    for (int k = 1; k < K; ++k) sum = D::add(sum, acc[k][r]);
    vst1q_s32(output + first + 4 * r, vaddq_s32(D::out(sum), vld1q_s32(bias + first + 4 * r)));
  }
}

template <class D, int K>
struct NeonSparseBitset : NeonBlockedBase<D> {
  static constexpr int kMaxRegs = 16 / D::kRegs / K;
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) { run_bits(p, input, nullptr, output); }
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int out = p.shape.out, chunks = p.shape.in / 4;
    // The widest slab the budget allows (one slab covers 16 outputs, or 32 with one set).
    for (int first = 0; first < out;) {
      const int regs = (out - first) / 4;
      if constexpr (kMaxRegs >= 8) {
        if (regs >= 8) {
          neon_bitset_slab<D, 8, K>(tiles, out, first, bias, input, words, chunks, output);
          first += 32;
          continue;
        }
      }
      if constexpr (kMaxRegs >= 4) {
        if (regs >= 4) {
          neon_bitset_slab<D, 4, K>(tiles, out, first, bias, input, words, chunks, output);
          first += 16;
          continue;
        }
      }
      if (regs >= 2) {
        neon_bitset_slab<D, 2, K>(tiles, out, first, bias, input, words, chunks, output);
        first += 8;
      } else {
        neon_bitset_slab<D, 1, K>(tiles, out, first, bias, input, words, chunks, output);
        first += 4;
      }
    }
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::affine

// NNUELAB_AFFINE_DEFINE / NNUELAB_AFFINE_DEFINE_BITS: kernels/affine/affine.h.

// The techniques every NEON ISA file instantiates with its dot policy D (affine.inc lists
// the same names under each NEON ISA).
#define NNUELAB_AFFINE_NEON_TECHNIQUES                                                              \
  NNUELAB_AFFINE_DEFINE(dense_rows4, NeonDenseRows4<D>)                                        \
  NNUELAB_AFFINE_DEFINE(dense_blocked4, NeonDenseBlocked4<D>)                                  \
  NNUELAB_AFFINE_DEFINE(dot1, NeonDot1<D>)                                                     \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc1, NeonSparseBlocked4<D, nd::Lsb, 1>)           \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc2, NeonSparseBlocked4<D, nd::Lsb, 2>)           \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_acc1, NeonSparseBlocked4<D, nd::Lut, 1>)      \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_acc2, NeonSparseBlocked4<D, nd::Lut, 2>)      \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_acc1, NeonSparseBitset<D, 1>)              \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_acc2, NeonSparseBitset<D, 2>)
