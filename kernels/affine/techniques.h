// The affine techniques, written once against a vector interface V and compiled per ISA
// (Highway's habit): an ISA file picks V (x128::Maddubs, x256::Maddubs, x256::Vnni,
// x512::Maddubs, x512::Vnni) and defines its registry functions with
// NNUELAB_AFFINE_DEFINE(technique, Impl<V>). Everything here is instantiated inside the
// including ISA's namespace, so no AVX-512 code can be merged into an AVX2 caller.
//
// V provides: reg, kBytes, zero, load, store, add, bcast32, dot (u8 x i8 4-byte groups
// into int32 lanes: maddubs+madd or vpdpbusd), hsum, haddx4, nonzero_chunks.
#pragma once
#include <bit>
#include <cstring>
#include <iterator>

#include "kernels/affine/affine.h"
#include "kernels/common/index_list.h"
#include "kernels/common/isa.h"
#include "kernels/common/nnz_x86.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using namespace ::nnuelab::affine;

inline std::int32_t load_chunk(const std::uint8_t* p) {
  std::int32_t x;
  std::memcpy(&x, p, 4);
  return x;
}

// dense_rows4 and dot1 divide their register counts with div_nonneg (isa.h): -3.5 to -7%
// instructions per call, dense_rows4 1-3% faster. In the blocked and x2 forms the same
// change moved their times by -4 to +4.5% with no pattern (code layout, not work:
// dense_blocked4_x2 64x32 +2.4%), so they keep int division.

// ---- dense_rows4: the seed's dense kernel ---------------------------------------------
// Four weight rows at a time against whole input registers, one haddx4 per 4 outputs.
template <class V>
struct DenseRows4 {
  static const char* supports(const Shape& s) {
    if (s.in % V::kBytes) return V::kBytes == 16 ? "needs in % 16 == 0 (whole input registers)"
                                 : V::kBytes == 32 ? "needs in % 32 == 0 (whole input registers)"
                                                   : "needs in % 64 == 0 (whole input registers)";
    if (s.out % 4) return "needs out % 4 == 0 (outputs are produced 4 at a time)";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_row_major(p, w, b); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int in = p.shape.in, out = p.shape.out, regs = div_nonneg<V::kBytes>(in);
    for (int o = 0; o < out; o += 4) {
      const std::int8_t* r0 = w + std::size_t(o) * in;
      typename V::reg a0 = V::zero(), a1 = a0, a2 = a0, a3 = a0;
      for (int k = 0; k < regs; ++k) {
        const typename V::reg x = V::load(input + k * V::kBytes);
        a0 = V::dot(a0, x, V::load(r0 + k * V::kBytes));
        a1 = V::dot(a1, x, V::load(r0 + in + k * V::kBytes));
        a2 = V::dot(a2, x, V::load(r0 + 2 * in + k * V::kBytes));
        a3 = V::dot(a3, x, V::load(r0 + 3 * in + k * V::kBytes));
      }
      const __m128i sums = _mm_add_epi32(V::haddx4(a0, a1, a2, a3), _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + o)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(output + o), sums);
    }
  }
};

// ---- dot1: the 1-output dot ---------------------------------------------------------
// One row at a time, two accumulators to halve the dependency chain, one hsum per row.
template <class V>
struct Dot1 {
  static const char* supports(const Shape& s) {
    return s.in % V::kBytes ? "needs in to be a multiple of the register width" : nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_row_major(p, w, b); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int in = p.shape.in, out = p.shape.out, regs = div_nonneg<V::kBytes>(in);
    for (int o = 0; o < out; ++o) {
      const std::int8_t* row = w + std::size_t(o) * in;
      typename V::reg a0 = V::zero(), a1 = V::zero();
      int k = 0;
      for (; k + 2 <= regs; k += 2) {
        a0 = V::dot(a0, V::load(input + k * V::kBytes), V::load(row + k * V::kBytes));
        a1 = V::dot(a1, V::load(input + (k + 1) * V::kBytes), V::load(row + (k + 1) * V::kBytes));
      }
      if (k < regs) a0 = V::dot(a0, V::load(input + k * V::kBytes), V::load(row + k * V::kBytes));
      output[o] = b[o] + V::hsum(V::add(a0, a1));
    }
  }
};

// ---- the blocked layout: 4-byte broadcast over 4-byte-interleaved weight tiles ---------
// Tiles (layout.cpp, pack_tiles4): for input chunk c (bytes 4c..4c+3), the 4 weights of
// every output o lie at tiles[c][o][0..3]. One broadcast of the chunk times one register
// of tiles gives kBytes/4 outputs' partial dots with no horizontal sum; a zero chunk can
// be skipped whole, which is what the sparse forms do.
//
// Accumulates the chunks listed in idx (or all chunks, kDense) for R registers of outputs
// starting at `first` (an output index), with K independent accumulator sets (set k takes
// every K-th chunk: K chains hide the dot's latency), then stores bias + sum.
// kOneSlab: the slab covers every output, so the tile stride is the compile-time R * kBytes
// (a shift, where the row stride out * 4 costs an imul per chunk, on a port the
// multiplies also use). The chunk index is a size_t: the broadcast's address is then one
// scaled addressing mode (an int index cost GCC 12 a lea and an and per chunk).
// Accumulator registers a slab may hold: half the register file (16 ymm/xmm, 32 zmm),
// the rest left to the broadcast input, the tiles and the compiler.
template <class V>
inline constexpr int kAccBudget = (V::kBytes == 64 ? 32 : 16) / 2;

// The tiles of chunk c: base + c * stride. kPin (the sparse walks): kept in a register of
// its own (in_register: kernels/common/isa.h says what Intel does with indexed addresses),
// so the R tile loads after it are [t + r * kBytes]. Left to the compiler, a sparse walk
// folded c * stride into every load as an index register: with R = 4 tile registers, four
// extra uops per chunk on Intel. Pinned, the address costs one add per chunk. The dense walks
// pass kPin false: blocked_slab's dense loop already steps a pointer of its own, and in
// the x2 dense walk a pinned tile pointer cost 4-18% more instructions per call (the
// gate) for no time measured (dense_blocked4_x2 64x32 on a Cascade Lake VM: +2%, noise).
template <bool kPin>
[[gnu::always_inline]] inline const std::int8_t* tile_at(const std::int8_t* base, std::size_t c, std::size_t stride) {
  const std::int8_t* t = base + c * stride;
  if constexpr (kPin) t = in_register(t);
  return t;
}

// A power-of-two tile stride as a shift count held in a register. A constant shift of
// the chunk index is shl, which overwrites its operand, and the broadcast still needs the
// index: GCC copied it first, one uop more per chunk. With the count in a register GCC
// shifts with BMI2's shlx, which leaves its source intact. In one process beside the
// constant shift (sparse_blocked4_lut_acc1 and _acc2 at 1024x32, 1536x16, 3072x16 at 15%
// and on the real traces; Cascade Lake VM, two runs of 8 interleaved repetitions, fastest):
// -0 to -3% per call at 16 outputs, within +-2.4% at 32. The gate: -2 to -7% instructions
// per call for 34 AVX2 sparse cases (the list, bitset and x2/x4 walks). SSE builds (no
// BMI2) keep the constant shift.
struct StrideShift {
  unsigned shift;
};
template <bool kPin>
[[gnu::always_inline]] inline const std::int8_t* tile_at(const std::int8_t* base, std::size_t c, StrideShift s) {
  const std::int8_t* t = base + (c << s.shift);
  if constexpr (kPin) t = in_register(t);
  return t;
}
// The stride a sparse walk steps its tiles by: a StrideShift when kConst (the one-slab
// stride R * kBytes, 0 when the stride is the row's) is a power of two and the build has
// BMI2; else the number. Made once, before the walk: the empty asm hides the constant
// from GCC (which would fold it back into a constant shift).
template <std::size_t kConst>
[[gnu::always_inline]] inline auto walk_stride(std::size_t stride) {
#ifdef __BMI2__
  if constexpr (kConst != 0 && std::has_single_bit(kConst)) {
    unsigned shift = unsigned(std::countr_zero(kConst));
    asm("" : "+r"(shift));
    return StrideShift{shift};
  } else {
    return stride;
  }
#else
  return stride;
#endif
}

template <class V, int R, int K, bool kDense, bool kOneSlab = false>
inline void blocked_slab(const std::int8_t* tiles, int out, int first, const std::int32_t* bias,
                         const std::uint8_t* input, const std::uint16_t* idx, int count, std::int32_t* output) {
  constexpr int L = V::kBytes / 4;
  typename V::reg acc[K][R];
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    acc[0][r] = V::load(bias + first + r * L);
    NNUELAB_UNROLL
    for (int k = 1; k < K; ++k) acc[k][r] = V::zero();
  }
  const std::size_t stride = kOneSlab ? std::size_t(R) * V::kBytes : std::size_t(out) * 4;
  const auto walk = walk_stride<kOneSlab && !kDense ? std::size_t(R) * V::kBytes : 0>(stride);
  const std::int8_t* base = tiles + std::size_t(first) * 4;
  int j = 0;
  for (; j + K <= count; j += K) {
    NNUELAB_UNROLL
    for (int k = 0; k < K; ++k) {
      const std::size_t c = kDense ? std::size_t(j + k) : std::size_t(idx[j + k]);
      const typename V::reg x = V::bcast32(load_chunk(input + 4 * c));
      const std::int8_t* t = tile_at<!kDense>(base, c, walk);
      NNUELAB_UNROLL
      for (int r = 0; r < R; ++r) acc[k][r] = V::dot(acc[k][r], x, V::load(t + r * V::kBytes));
    }
  }
  for (; j < count; ++j) {
    const std::size_t c = kDense ? std::size_t(j) : std::size_t(idx[j]);
    const typename V::reg x = V::bcast32(load_chunk(input + 4 * c));
    const std::int8_t* t = tile_at<!kDense>(base, c, walk);
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) acc[0][r] = V::dot(acc[0][r], x, V::load(t + r * V::kBytes));
  }
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    typename V::reg sum = acc[0][r];
    NNUELAB_UNROLL
    for (int k = 1; k < K; ++k) sum = V::add(sum, acc[k][r]);
    V::store(output + first + r * L, sum);
  }
}

// Calls Slab::template run<R>(first, args...) for slabs of R registers (8, 4, 2 or 1, at
// most kMax) that cover all `out` outputs from the left. A static function template with
// the arguments by value, not a lambda capturing them: through a lambda's closure GCC 12
// reloaded the captured arguments in every slab (+2-8% instructions per call at 32x32).
// The loop re-derives the widest fitting R each round; a loop of the widest R and then
// halving tail pieces measured +13-33% instructions for the acc1 kernels (GCC 12 then
// schedules their one-set slabs worse), -2-7% for acc2/acc3.
template <class V, int kMax, class Slab, class... Args>
[[gnu::always_inline]] inline void for_each_slab(int out, Args... args) {
  constexpr int L = V::kBytes / 4;
  int first = 0;
  while (first < out) {
    const int regs = (out - first) / L;
    if (kMax >= 8 && regs >= 8) {
      Slab::template run<(kMax >= 8 ? 8 : 1)>(first, args...);
      first += 8 * L;
    } else if (kMax >= 4 && regs >= 4) {
      Slab::template run<(kMax >= 4 ? 4 : 1)>(first, args...);
      first += 4 * L;
    } else if (kMax >= 2 && regs >= 2) {
      Slab::template run<(kMax >= 2 ? 2 : 1)>(first, args...);
      first += 2 * L;
    } else {
      Slab::template run<1>(first, args...);
      first += L;
    }
  }
}

// Calls Slab::template run<R>(0, args...) with R == regs (1 <= regs <= kMax): the register
// count as a compile-time constant, when one slab covers every output. Always inlined, so
// the chain is a compare per step.
template <int kMax, class Slab, class... Args>
[[gnu::always_inline]] inline void with_regs(int regs, Args... args) {
  if constexpr (kMax > 1)
    if (regs != kMax) return with_regs<kMax - 1, Slab>(regs, args...);
  Slab::template run<kMax>(0, args...);
}

template <class V, int K, bool kDense>
struct BlockedSlab {
  template <int R>
  [[gnu::always_inline]] static void run(int first, const std::int8_t* tiles, int out, const std::int32_t* bias,
                                         const std::uint8_t* input, const std::uint16_t* idx, int count,
                                         std::int32_t* output) {
    blocked_slab<V, R, K, kDense>(tiles, out, first, bias, input, idx, count, output);
  }
};
// Covers all outputs with slabs of as many registers as the accumulator budget allows
// (R * K <= half the register file), re-reading the chunk list once per slab.
template <class V, int K, bool kDense>
inline void blocked_all(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
                        std::int32_t* output) {
  constexpr int kBudget = kAccBudget<V>;
  for_each_slab<V, kBudget / K, BlockedSlab<V, K, kDense>>(
      p.shape.out, static_cast<const std::int8_t*>(p.blocks.slot[0].data), p.shape.out,
      static_cast<const std::int32_t*>(p.blocks.slot[1].data), input, idx, count, output);
}

template <class V>
struct BlockedBase {
  static const char* supports_common(const Shape& s) {
    if (s.in % 4) return "needs in % 4 == 0 (whole 4-byte chunks)";
    if (s.out % (V::kBytes / 4))
      return V::kBytes == 16 ? "needs out % 4 == 0 (4 int32 outputs per register)"
           : V::kBytes == 32 ? "needs out % 8 == 0 (8 int32 outputs per register)"
                             : "needs out % 16 == 0 (16 int32 outputs per register)";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_tiles4(c, p); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_tiles4(p, w, b); }
};

// Accumulator sets a one-slab dense kernel of R registers takes: 1 for maddubs+madd (only
// the add is on the chain), else enough that R * K >= 8 VNNI chains are in flight, within
// kAccBudget (V::kDotInChain: kernels/common/avx512.h, avxvnni.h).
template <class V>
constexpr int chain_sets(int regs) {
  if constexpr (requires { V::kDotInChain; }) {
    int k = 1;
    while (regs * k < 8 && regs * (k + 1) <= kAccBudget<V>) ++k;
    return k;
  } else {
    return 1;
  }
}

// dense_blocked4: every chunk, no horizontal sums.
template <class V>
struct DenseBlocked4 : BlockedBase<V> {
  static const char* supports(const Shape& s) { return BlockedBase<V>::supports_common(s); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    // The hidden layers' widths in one slab get the compile-time tile stride and skip the
    // slab dispatch, as SparseBlocked4::dots does (a 64x32 call is only ~16 chunks, so the
    // dispatch and the runtime stride were a fifth of its instructions).
    // With a VNNI dot the whole vpdpbusd is on each accumulator's chain, so one set of
    // 1-2 zmm (2-4 ymm) accumulators waited on its latency: avx512vnni 64x32 took 27.5 ns
    // on a Cascade Lake VM, 24% of its peak, no faster than avx512bw's maddubs+madd (28.1).
    // There the slab takes K sets, so that R * K >= 8 chains are in flight.
    constexpr int L = V::kBytes / 4, kMaxOne = V::kBytes == 16 ? 4 : 8;
    constexpr int R16 = 16 % L == 0 ? 16 / L : 1, R32 = 32 % L == 0 ? 32 / L : 1;
    constexpr int K16 = chain_sets<V>(R16), K32 = chain_sets<V>(R32);
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int chunks = p.shape.in / 4;
    if (p.shape.out == 16 && 16 % L == 0 && R16 <= kMaxOne)
      blocked_slab<V, R16, K16, true, true>(tiles, 16, 0, bias, input, nullptr, chunks, output);
    else if (p.shape.out == 32 && 32 % L == 0 && R32 <= kMaxOne)
      blocked_slab<V, R32, K32, true, true>(tiles, 32, 0, bias, input, nullptr, chunks, output);
    else
      blocked_all<V, 1, true>(p, input, nullptr, chunks, output);
  }
};

// sparse_blocked4_<nnz>_acc<K>: list the non-zero chunks first (Nnz: lsb loop or lookup
// table, kernels/common/nnz_x86.h), then accumulate only those.
template <class V, class Nnz, int K>
struct SparseBlocked4 : BlockedBase<V> {
  static const char* supports(const Shape& s) {
    if (const char* why = BlockedBase<V>::supports_common(s)) return why;
    return s.in % V::kBytes ? "needs in to be a multiple of the register width (chunk masks per register)" : nullptr;
  }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    dots(p, input, idx, Nnz::template chunks<V>(input, p.shape.in, idx), output);
  }
  // The producer's bitset in place of the input scan (the table list only: Nnz::from_bits).
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    dots(p, input, idx, Nnz::from_bits(words, p.shape.in / 4, idx), output);
  }
  // The list given (affine::RunList): the dots alone.
  static void run_list(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
                       std::int32_t* output) {
    dots(p, input, idx, count, output);
  }
  [[gnu::always_inline]] static void dots(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
                                          std::int32_t* output) {
    // The hidden layers' widths (16 and 32 outputs) in one slab get the compile-time tile
    // stride: -4 to -15% instructions per call on AVX2 in the gate. Not for SSE slabs of 8
    // xmm (ssse3 32 outputs): there GCC 12 then needed 11-14% more instructions.
    constexpr int L = V::kBytes / 4, kMaxOne = V::kBytes == 16 ? 4 : 8;
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    if (p.shape.out == 16 && 16 % L == 0 && (16 / L) * K <= kMaxOne)
      blocked_slab<V, (16 % L == 0 ? 16 / L : 1), K, false, true>(tiles, 16, 0, bias, input, idx, count, output);
    else if (p.shape.out == 32 && 32 % L == 0 && (32 / L) * K <= kMaxOne)
      blocked_slab<V, (32 % L == 0 ? 32 / L : 1), K, false, true>(tiles, 32, 0, bias, input, idx, count, output);
    else
      blocked_all<V, K, false>(p, input, idx, count, output);
  }
};

// ---- sparse_blocked4_bitset_acc<K>: no list at all ---------------------------------
// Per 64 chunks one mask word (V::nonzero_chunks32 / nonzero_chunks: the 1-bit-per-chunk
// bitset a fused producer can write), whose set bits are walked with tzcnt + blsr straight
// into the dots. A list costs ~2-3 cycles per 8 chunks in stores and table loads before
// the first dot can start; here the only serial work is the mask of the first 64 chunks,
// and the scalar walk of the next word runs ahead under the multiplies of this one (the
// loop exit of each word is a data-dependent branch, but it resolves long before the
// queued multiplies drain, so most of its penalty is hidden). When one slab of R
// registers covers every output the tile stride is the compile-time R * kBytes (no imul
// per chunk). K accumulator sets take K bits per round while K remain.
// words: the producer's bitset, or nullptr to build each word from the input. Always
// inlined, as SparseBitset::one_slab is (see there). Its register loops are left to GCC's
// own unrolling: with NNUELAB_UNROLL the acc2 forms took 7-18% more instructions per call.
template <class V, int R, int K, bool kOneSlab>
[[gnu::always_inline]] inline void bitset_slab(const std::int8_t* tiles, int out, int first, const std::int32_t* bias,
                        const std::uint8_t* input, const std::uint64_t* words, int chunks, std::int32_t* output) {
  constexpr int L = V::kBytes / 4;
  typename V::reg acc[K][R];
  for (int r = 0; r < R; ++r) {
    acc[0][r] = V::load(bias + first + r * L);
    for (int k = 1; k < K; ++k) acc[k][r] = V::zero();
  }
  const std::size_t stride = kOneSlab ? std::size_t(R) * V::kBytes : std::size_t(out) * 4;
  const auto walk = walk_stride<kOneSlab ? std::size_t(R) * V::kBytes : 0>(stride);
  for (int b = 0; b < chunks; b += 64) {
    std::uint64_t m = words ? words[b / 64] : nnz::chunk_mask64<V>(input, b, chunks);
    const std::int8_t* tb = tiles + std::size_t(first) * 4 + std::size_t(b) * stride;
    const std::uint8_t* ib = input + 4 * b;
    auto step = [&](auto& a) {
      const std::size_t c = std::size_t(__builtin_ctzll(m));
      m &= m - 1;
      const typename V::reg x = V::bcast32(load_chunk(ib + 4 * c));
      const std::int8_t* t = tile_at<true>(tb, c, walk);
      for (int r = 0; r < R; ++r) a[r] = V::dot(a[r], x, V::load(t + r * V::kBytes));
    };
    if constexpr (K > 1) {
      for (int n = __builtin_popcountll(m); n >= K; n -= K)
        for (int k = 0; k < K; ++k) step(acc[k]);
    }
    while (m) step(acc[0]);
  }
  for (int r = 0; r < R; ++r) {
    typename V::reg sum = acc[0][r];
    for (int k = 1; k < K; ++k) sum = V::add(sum, acc[k][r]);
    V::store(output + first + r * L, sum);
  }
}

template <class V, int K>
struct SparseBitset : BlockedBase<V> {
  static constexpr int kMaxRegs = kAccBudget<V> / K;
  static const char* supports(const Shape& s) { return SparseBlocked4<V, nnz::Lsb, K>::supports(s); }
  // One slab of R registers from `first`; kOneSlab: it covers every output, so the tile
  // stride is the compile-time R * kBytes.
  template <bool kOneSlab>
  struct Slab {
    template <int R>
    [[gnu::always_inline]] static void run(int first, const Packed* p, const std::uint8_t* input,
                                           const std::uint64_t* words, std::int32_t* output) {
      bitset_slab<V, R, K, kOneSlab>(static_cast<const std::int8_t*>(p->blocks.slot[0].data), p->shape.out, first,
                                     static_cast<const std::int32_t*>(p->blocks.slot[1].data), input, words,
                                     p->shape.in / 4, output);
    }
  };
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) { run_bits(p, input, nullptr, output); }
  // The producer's bitset in place of the input scan (words == nullptr: scan). One slab
  // when the register budget holds every output (with_regs: a compare per register count,
  // always inlined; GCC 12, deciding by the size of the whole ISA file, otherwise left
  // steps of such chains out of line: +3-11% instructions per call); wider layers take
  // slabs of kMaxRegs registers, then single registers, each walking the bitset again with
  // the row stride (for_each_slab's 8/4/2/1 pieces measured +2.9% instructions at
  // ssse3 acc3 32x32).
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    constexpr int L = V::kBytes / 4;
    const int regs = p.shape.out / L;
    if (regs <= kMaxRegs) {
      with_regs<kMaxRegs, Slab<true>>(regs, &p, input, words, output);
      return;
    }
    int first = 0;
    for (; first + kMaxRegs * L <= p.shape.out; first += kMaxRegs * L)
      Slab<false>::template run<kMaxRegs>(first, &p, input, words, output);
    for (; first < p.shape.out; first += L) Slab<false>::template run<1>(first, &p, input, words, output);
  }
};

// ---- the two-chunk (x2) techniques ----------------------------------------------------
// Two chunks per widening step: each chunk's broadcast meets its tiles in one maddubs,
// the two int16 pair-sum registers are added (paddw), and one madd with ones plus one
// add widen them: 3 multiplies per register and 2 chunks instead of 4, so these variants
// can pass the maddubs+madd `peak` they are measured against (up to 4/3 of it). The int16
// sum is exact only for chunks pack_tiles4_x2 did not mark heavy (affine.h): heavy chunks
// get the one-chunk dot, so every variant here is exact for any int8 weights on 0..127.
// kPin: tile_at's, false for the dense walk.
template <class V, int R, bool kPin = true, class Stride>
[[gnu::always_inline]] inline void x2_pair(typename V::reg (&acc)[R], const std::uint8_t* input, const std::int8_t* base,
                                           Stride stride, std::size_t c0, std::size_t c1) {
  // size_t indices: each broadcast's address is one scaled addressing mode (see blocked_slab).
  const typename V::reg x0 = V::bcast32(load_chunk(input + 4 * c0));
  const typename V::reg x1 = V::bcast32(load_chunk(input + 4 * c1));
  const std::int8_t* t0 = tile_at<kPin>(base, c0, stride);
  const std::int8_t* t1 = tile_at<kPin>(base, c1, stride);
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    const typename V::reg w0 = V::load(t0 + r * V::kBytes), w1 = V::load(t1 + r * V::kBytes);
    acc[r] = V::dot2(acc[r], x0, w0, x1, w1);
  }
}
// Four chunks per widening (the x4 techniques: group-4 layouts, affine.h).
template <class V, int R, bool kPin = true, class Stride>
[[gnu::always_inline]] inline void x4_quad(typename V::reg (&acc)[R], const std::uint8_t* input, const std::int8_t* base,
                                           Stride stride, const std::size_t (&c)[4]) {
  typename V::reg x[4];
  const std::int8_t* t[4];
  for (int k = 0; k < 4; ++k) {
    x[k] = V::bcast32(load_chunk(input + 4 * c[k]));
    t[k] = tile_at<kPin>(base, c[k], stride);
  }
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) {
    const int o = r * V::kBytes;
    acc[r] = V::dot4(acc[r], x[0], V::load(t[0] + o), x[1], V::load(t[1] + o), x[2], V::load(t[2] + o), x[3],
                     V::load(t[3] + o));
  }
}
template <class V, int R, bool kPin = true, class Stride>
[[gnu::always_inline]] inline void x2_single(typename V::reg (&acc)[R], const std::uint8_t* input,
                                             const std::int8_t* base, Stride stride, std::size_t c) {
  const typename V::reg x = V::bcast32(load_chunk(input + 4 * c));
  const std::int8_t* t = tile_at<kPin>(base, c, stride);
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) acc[r] = V::dot(acc[r], x, V::load(t + r * V::kBytes));
}

// How an x2 slab finds its chunks: all of them in pairs (dense), a table list, or the
// 64-chunk mask words (scanned, or the producer's bitset).
enum class X2Walk { kDense, kList, kWords };
struct X2Chunks {
  const std::uint8_t* input;
  int chunks;
  const std::uint16_t* idx = nullptr;  // kList: the non-zero chunks
  int count = 0;
  const std::uint64_t* words = nullptr;  // kWords: the producer's bitset, or nullptr to scan
};

// The heavy chunks' one-chunk dots (pack_tiles4_x2 moved their tiles to slot 3, chunk
// order, the chunk indices behind them). A zero input chunk adds zero, so with few heavy
// chunks (0-5 in the nets of ../shared/data) they are all done with no test: a branch on
// the input would mispredict. With many (uniform random weights mark nearly every chunk)
// a sparse walk skips the zero ones, or it would do a dense pass.
template <class V, int R>
[[gnu::always_inline]] inline void x2_heavy(typename V::reg (&acc)[R], const Packed& p, int first, std::size_t stride,
                                            const std::uint8_t* input, bool sparse) {
  const std::int64_t n = p.blocks.meta[0];
  if (!n) return;  // before heavy_chunks: the common no-heavy call forms no pointers
  const HeavyChunks h = heavy_chunks(p);
  const std::uint32_t* index = h.index;
  const std::int8_t* base = h.tiles + std::size_t(first) * 4;
  // x2_single with both addresses formed here (stride and chunk 0): heavy chunk k's input
  // is chunk index[k], its tile the k-th moved one. tile_at still pins base + k * stride,
  // so the tile loads stay [pointer + constant].
  if (sparse && n * 8 > p.shape.in / 4) {
    for (std::int64_t k = 0; k < n; ++k)
      if (load_chunk(input + 4 * std::size_t(index[k])))
        x2_single<V, R>(acc, input + 4 * std::size_t(index[k]), base + std::size_t(k) * stride, 0, 0);
    return;
  }
  for (std::int64_t k = 0; k < n; ++k)
    x2_single<V, R>(acc, input + 4 * std::size_t(index[k]), base + std::size_t(k) * stride, 0, 0);
}

// One slab of R registers of outputs from `first`. The accumulators stay in this one
// function (no lambda or pointer between their loads and stores): GCC then keeps them in
// registers; handed to a callback by pointer they went through the stack, and the bias's
// two 16-byte halves stored there and reloaded as one 32-byte register cost a store-
// forwarding stall per register (about 30 cycles per call at 64x32).
// Every chunk is paired with no test: heavy chunks have zero tiles here (affine.h) and
// their dots come from x2_heavy. Until 2026-11-24 heavy chunks were split off instead: a
// test per pair (dense), a second list built beside the first (the split cost about 25 ns
// of a 1536-input list on the Xeon VM), or a mask per word.
// G: chunks per int16 sum, 2 (x2) or 4 (x4, the dense and list walks only); a group-4
// layout also pairs safely (any two of its unmarked chunks are within the bound).
template <class V, int R, bool kOneSlab, X2Walk W, int G = 2>
inline void x2_slab(const Packed& p, int first, const X2Chunks& a, std::int32_t* output) {
  static_assert(G == 2 || (G == 4 && W != X2Walk::kWords));
  constexpr int L = V::kBytes / 4;
  const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
  const std::int8_t* base = static_cast<const std::int8_t*>(p.blocks.slot[0].data) + std::size_t(first) * 4;
  const std::size_t stride = kOneSlab ? std::size_t(R) * V::kBytes : std::size_t(p.shape.out) * 4;
  const auto walk = walk_stride<kOneSlab && W != X2Walk::kDense ? std::size_t(R) * V::kBytes : 0>(stride);
  typename V::reg acc[R];
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) acc[r] = V::load(bias + first + r * L);
  if constexpr (W == X2Walk::kDense) {
    int c = 0;
    if constexpr (G == 4)
      for (; c + 4 <= a.chunks; c += 4) {
        const std::size_t q[4] = {std::size_t(c), std::size_t(c) + 1, std::size_t(c) + 2, std::size_t(c) + 3};
        x4_quad<V, R, false>(acc, a.input, base, stride, q);
      }
    for (; c + 2 <= a.chunks; c += 2) x2_pair<V, R, false>(acc, a.input, base, stride, c, c + 1);
    if (c < a.chunks) x2_single<V, R, false>(acc, a.input, base, stride, c);
  } else if constexpr (W == X2Walk::kList) {
    // The list walks as a pointer to its end: the loop is an add and a compare. With an
    // int index GCC 12 kept the index, a copy of it and the compare (one uop more per
    // pair); in one process beside the index walk (lut_x2 at 1024x32, 1536x16, 3072x16
    // at 15% and on the real 1536x16, 3072x16, 3072x32 traces, Cascade Lake VM, fastest of
    // 8 interleaved repetitions): -0.7 to -3.2% per call.
    const std::uint16_t* q = a.idx;
    if constexpr (G == 4)
      for (const std::uint16_t* const end4 = a.idx + (a.count & ~3); q != end4; q += 4) {
        const std::size_t c[4] = {q[0], q[1], q[2], q[3]};
        x4_quad<V, R>(acc, a.input, base, walk, c);
      }
    for (const std::uint16_t* const end2 = a.idx + (a.count & ~1); q != end2; q += 2)
      x2_pair<V, R>(acc, a.input, base, walk, q[0], q[1]);
    if (a.count & 1) x2_single<V, R>(acc, a.input, base, walk, *q);
  } else {
    for (int b = 0; b < a.chunks; b += 64) {
      std::uint64_t m = a.words ? a.words[b / 64] : nnz::chunk_mask64<V>(a.input, b, a.chunks);
      const std::uint8_t* ib = a.input + 4 * b;
      const std::int8_t* tb = base + std::size_t(b) * stride;
      while (m & (m - 1)) {  // two or more bits left
        const int c0 = __builtin_ctzll(m);
        m &= m - 1;
        const int c1 = __builtin_ctzll(m);
        m &= m - 1;
        x2_pair<V, R>(acc, ib, tb, walk, c0, c1);
      }
      if (m) x2_single<V, R>(acc, ib, tb, walk, __builtin_ctzll(m));
    }
  }
  x2_heavy<V, R>(acc, p, first, stride, a.input, W != X2Walk::kDense);
  NNUELAB_UNROLL
  for (int r = 0; r < R; ++r) V::store(output + first + r * L, acc[r]);
}

template <class V, bool kOneSlab, X2Walk W, int G>
struct X2Slab {
  template <int R>
  [[gnu::always_inline]] static void run(int first, const Packed* p, const X2Chunks* a, std::int32_t* output) {
    x2_slab<V, R, kOneSlab, W, G>(*p, first, *a, output);
  }
};

// Shared by the x2 techniques: layout and the slabs over all outputs (one slab with the
// compile-time stride R * kBytes when R registers hold every output, else slabs of up to
// kMaxRegs with the row stride).
template <class V, int G = 2>
struct X2Base : BlockedBase<V> {
  static constexpr int L = V::kBytes / 4;
  static constexpr int kMaxRegs = kAccBudget<V>;
  static void prepare(const Canonical& c, Packed& p) { pack_tiles4_x2(c, p, G); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_tiles4_x2(p, w, b); }
  // The dense SSE walk takes slabs of at most 4 xmm: with 8 accumulators GCC 12 spilled
  // two of them in the pair loop of the two-operand SSE code (ssse3 1024x32: +5% more
  // instructions per call than in two slabs of 4). The sparse walks keep 8: walking their
  // list or mask words twice cost them 5-40% more.
  template <X2Walk W>
  [[gnu::always_inline]] static void slabs(const Packed& p, const X2Chunks& a, std::int32_t* output) {
    constexpr int kMax = W == X2Walk::kDense && V::kBytes == 16 ? 4 : kMaxRegs;
    const int regs = p.shape.out / L;
    if (regs <= kMax)
      with_regs<kMax, X2Slab<V, true, W, G>>(regs, &p, &a, output);
    else
      for_each_slab<V, kMax, X2Slab<V, false, W, G>>(p.shape.out, &p, &a, output);
  }
};

// dense_blocked4_x2: chunks (2k, 2k+1) paired in order, then the heavy chunks' dots.
// dense_blocked4_x4 (G = 4): chunks 4k..4k+3 per widening, a pair and a single at the end.
template <class V, int G = 2>
struct DenseBlocked4X2 : X2Base<V, G> {
  static const char* supports(const Shape& s) { return BlockedBase<V>::supports_common(s); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    X2Base<V, G>::template slabs<X2Walk::kDense>(p, {input, p.shape.in / 4}, output);
  }
};

// sparse_blocked4_lut_x2: the table list of non-zero chunks, consecutive entries paired,
// then the heavy chunks' dots. sparse_blocked4_lut_x4 (G = 4): four consecutive entries
// per widening, then a pair and a single for the 1-3 left.
template <class V, int G = 2>
struct SparseBlocked4X2Lut : X2Base<V, G> {
  static const char* supports(const Shape& s) { return SparseBlocked4<V, nnz::Lut, 1>::supports(s); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = nnz::Lut::chunks<V>(input, p.shape.in, idx);
    run_list(p, input, idx, count, output);
  }
  // The list from the producer's bitset instead of the input.
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = nnz::Lut::from_bits(words, p.shape.in / 4, idx);
    run_list(p, input, idx, count, output);
  }
  // The list given (affine::RunList): the paired dots and the heavy chunks' pass. run and
  // run_bits end here after making their list.
  [[gnu::always_inline]] static void run_list(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx,
                                              int count, std::int32_t* output) {
    X2Chunks a{input, p.shape.in / 4, idx};
    a.count = count;
    X2Base<V, G>::template slabs<X2Walk::kList>(p, a, output);
  }
};

// sparse_blocked4_bitset_x2: no list; each 64-chunk mask word (scanned, or the producer's
// bitset) walked two set bits at a time, then the heavy chunks' dots.
template <class V>
struct SparseBitsetX2 : X2Base<V> {
  static const char* supports(const Shape& s) { return SparseBlocked4<V, nnz::Lsb, 1>::supports(s); }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) { run_bits(p, input, nullptr, output); }
  static void run_bits(const Packed& p, const std::uint8_t* input, const std::uint64_t* words, std::int32_t* output) {
    X2Chunks a{input, p.shape.in / 4};
    a.words = words;
    X2Base<V>::template slabs<X2Walk::kWords>(p, a, output);
  }
};

// ---- transposed layouts of the seed's two sparse techniques ---------------------------
// Row i holds input i's `out` weights as T; within each block of `block` outputs (one
// register of T), position q holds output out_of(q), the order the run-time unpacks undo.
// `extra_rows` zero rows follow the last input.
template <class T, class OutOf>
inline void pack_transposed(const Canonical& c, Packed& p, int block, OutOf out_of, int extra_rows) {
  const int in = c.shape.in, out = c.shape.out;
  auto* rows = static_cast<T*>(packed_alloc(p.blocks, 0, std::size_t(in + extra_rows) * out * sizeof(T)));
  for (int i = 0; i < in; ++i)
    for (int blk = 0; blk < out; blk += block)
      for (int q = 0; q < block; ++q) rows[std::size_t(i) * out + blk + q] = T(c.weights[std::size_t(blk + out_of(q)) * in + i]);
  std::memcpy(packed_alloc(p.blocks, 1, std::size_t(out) * 4), c.bias, std::size_t(out) * 4);
}

template <class T, class OutOf>
inline void unpack_transposed(const Packed& p, std::int8_t* w, std::int32_t* b, int block, OutOf out_of) {
  const int in = p.shape.in, out = p.shape.out;
  const auto* rows = static_cast<const T*>(p.blocks.slot[0].data);
  for (int i = 0; i < in; ++i)
    for (int blk = 0; blk < out; blk += block)
      for (int q = 0; q < block; ++q) w[std::size_t(blk + out_of(q)) * in + i] = std::int8_t(rows[std::size_t(i) * out + blk + q]);
  std::memcpy(b, p.blocks.slot[1].data, std::size_t(out) * 4);
}

// ---- sparse_lsb_i16: the seed's first sparse-input approach -------------------------
// Non-zero input bytes listed by tzcnt+blsr; weights widened to int16 and transposed
// (row i = the `out` weights of input i), two inputs per step: unpacklo/hi_epi16 of two
// rows gives (w_i, w_j) pairs per output and one madd with the broadcast pair (x_i, x_j)
// adds w_i*x_i + w_j*x_j exactly (int16 products, int32 sums: exact for any uint8 x).
// Lane fix-up: unpack works within 128-bit lanes, so each block of 2L outputs (one
// register of int16) is stored permuted at prepare time, position p holding output
// half*L + lane*4 + q (lane = p/8, half = p%8/4, q = p%4); unpacklo then yields outputs
// 0..L-1 and unpackhi L..2L-1 in order, with no run-time permute.
template <class V>
struct SparseLsbI16 {
  static constexpr int L = V::kBytes / 4;
  static int output_of(int p) { return (p % 8) / 4 * L + p / 8 * 4 + p % 4; }

  static const char* supports(const Shape& s) {
    if (s.in % V::kBytes) return "needs in to be a multiple of the register width (byte masks per register)";
    if (s.out % (2 * L))
      return V::kBytes == 16 ? "needs out % 8 == 0 (8 int16 weights per register)"
           : V::kBytes == 32 ? "needs out % 16 == 0 (16 int16 weights per register)"
                             : "needs out % 32 == 0 (32 int16 weights per register)";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) { pack_transposed<std::int16_t>(c, p, 2 * L, output_of, 0); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) {
    unpack_transposed<std::int16_t>(p, w, b, 2 * L, output_of);
  }

  // R int32 registers of outputs (R/2 int16 weight registers per input) from `first`.
  template <int R>
  static void slab(const std::int16_t* rows, int out, int first, const std::int32_t* bias, const std::uint8_t* input,
                   const std::uint16_t* idx, int count, std::int32_t* output) {
    typename V::reg acc[R];
    for (int r = 0; r < R; ++r) acc[r] = V::load(bias + first + r * L);
    for (int j = 0; j < count; j += 2) {
      const int a = idx[j];
      const int b = j + 1 < count ? idx[j + 1] : a;        // odd tail: pair with itself ...
      const int xb = j + 1 < count ? input[b] : 0;         // ... at weight 0
      const typename V::reg x = V::bcast32(std::int32_t(input[a]) | (xb << 16));
      const std::int16_t* ra = rows + std::size_t(a) * out + first;
      const std::int16_t* rb = rows + std::size_t(b) * out + first;
      for (int m = 0; m < R / 2; ++m) {
        const typename V::reg wa = V::load(ra + m * 2 * L), wb = V::load(rb + m * 2 * L);
        acc[2 * m] = V::add(acc[2 * m], V::madd16(V::unpacklo16(wa, wb), x));
        acc[2 * m + 1] = V::add(acc[2 * m + 1], V::madd16(V::unpackhi16(wa, wb), x));
      }
    }
    for (int r = 0; r < R; ++r) V::store(output + first + r * L, acc[r]);
  }

  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ByteList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = nnz::lsb_bytes<V>(input, p.shape.in, idx);
    const auto* rows = static_cast<const std::int16_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int out = p.shape.out;
    for (int first = 0; first < out;) {
      const int regs = (out - first) / L;
      if (regs >= 8) {
        slab<8>(rows, out, first, bias, input, idx, count, output);
        first += 8 * L;
      } else if (regs >= 4) {
        slab<4>(rows, out, first, bias, input, idx, count, output);
        first += 4 * L;
      } else {
        slab<2>(rows, out, first, bias, input, idx, count, output);
        first += 2 * L;
      }
    }
  }
};

// ---- sparse_lut_i8_tile64: the seed's alternative sparse-input approach ---------------
// Non-zero input bytes listed by the lookup table; weights stay int8, transposed (row i =
// the `out` weights of input i). Four inputs per step: their bytes are packed into one
// int32 and broadcast, and their four rows are interleaved at run time into 4-byte groups
// per output (unpack_epi8 pairs rows, unpack_epi16 pairs the pairs), so one dot adds
// x_a*w_a + x_b*w_b + x_c*w_c + x_d*w_d. Outputs live in a register tile of up to 64:
// one row register holds 4L outputs and feeds 4 accumulators (AVX2: 2 row registers =
// 64 outputs in 8 accumulators; AVX-512: 1 row register = 64 outputs).
// Lane fix-up: the unpacks work within 128-bit lanes, so within each block of 4L outputs
// (one row register) position p holds output h*L + k*4 + q (k = p/16, h = p%16/4,
// q = p%4), arranged at prepare time; the four dots then land on outputs in order.
template <class V>
struct SparseLutI8Tile64 {
  static constexpr int L = V::kBytes / 4;
  static constexpr int kBlock = 4 * L;  // outputs per row register
  static int output_of(int p) { return (p % 16) / 4 * L + p / 16 * 4 + p % 4; }

  static const char* supports(const Shape& s) {
    if (s.in % V::kBytes) return "needs in to be a multiple of the register width (byte masks per register)";
    if (s.in >= 65536) return "needs in < 65536 (the padding row's index must fit the u16 list)";
    if (s.out % kBlock)
      return V::kBytes == 16 ? "needs out % 16 == 0 (16 int8 weights per row register)"
           : V::kBytes == 32 ? "needs out % 32 == 0 (32 int8 weights per row register)"
                             : "needs out % 64 == 0 (64 int8 weights per row register)";
    return nullptr;
  }
  // One spare zero row (index `in`) pads the last step when the count is not a multiple of 4.
  static void prepare(const Canonical& c, Packed& p) { pack_transposed<std::int8_t>(c, p, kBlock, output_of, 1); }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) {
    unpack_transposed<std::int8_t>(p, w, b, kBlock, output_of);
  }

  // B row registers (4B accumulators) of outputs starting at `first`.
  template <int B>
  static void tile(const std::int8_t* rows, int out, int first, const std::int32_t* bias, const std::uint8_t* input,
                   const std::uint16_t* idx, int count, int pad_row, std::int32_t* output) {
    typename V::reg acc[4 * B];
    for (int r = 0; r < 4 * B; ++r) acc[r] = V::load(bias + first + r * L);
    // The list was padded to a multiple of 4 with pad_row (a zero weight row whose input
    // byte reads as 0), so every step takes four entries.
    for (int j = 0; j < count; j += 4) {
      const int id[4] = {idx[j], idx[j + 1], idx[j + 2], idx[j + 3]};
      std::uint32_t x = 0;
      for (int t = 0; t < 4; ++t) x |= std::uint32_t(id[t] < pad_row ? input[id[t]] : 0) << (8 * t);
      const typename V::reg xb = V::bcast32(std::int32_t(x));
      for (int blk = 0; blk < B; ++blk) {
        const std::size_t off = std::size_t(first) + std::size_t(blk) * kBlock;
        const typename V::reg r0 = V::load(rows + std::size_t(id[0]) * out + off);
        const typename V::reg r1 = V::load(rows + std::size_t(id[1]) * out + off);
        const typename V::reg r2 = V::load(rows + std::size_t(id[2]) * out + off);
        const typename V::reg r3 = V::load(rows + std::size_t(id[3]) * out + off);
        const typename V::reg lo01 = V::unpacklo8(r0, r1), hi01 = V::unpackhi8(r0, r1);
        const typename V::reg lo23 = V::unpacklo8(r2, r3), hi23 = V::unpackhi8(r2, r3);
        typename V::reg* a = acc + 4 * blk;
        a[0] = V::dot(a[0], xb, V::unpacklo16(lo01, lo23));
        a[1] = V::dot(a[1], xb, V::unpackhi16(lo01, lo23));
        a[2] = V::dot(a[2], xb, V::unpacklo16(hi01, hi23));
        a[3] = V::dot(a[3], xb, V::unpackhi16(hi01, hi23));
      }
    }
    for (int r = 0; r < 4 * B; ++r) V::store(output + first + r * L, acc[r]);
  }

  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ByteList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = nnz::lut_bytes<V>(input, p.shape.in, idx);
    for (int t = count; t % 4; ++t) idx[t] = std::uint16_t(p.shape.in);  // pad with the zero row
    const auto* rows = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int out = p.shape.out;
    // Up to 64 outputs per tile: row registers per tile = 64 / (outputs per row register).
    constexpr int kTileBlocks = 64 / kBlock > 0 ? 64 / kBlock : 1;
    for (int first = 0; first < out;) {
      if (kTileBlocks >= 2 && out - first >= 2 * kBlock) {
        tile<kTileBlocks >= 2 ? 2 : 1>(rows, out, first, bias, input, idx, count, p.shape.in, output);
        first += (kTileBlocks >= 2 ? 2 : 1) * kBlock;
      } else {
        tile<1>(rows, out, first, bias, input, idx, count, p.shape.in, output);
        first += kBlock;
      }
    }
  }
};

// ---- sparse_bso: sparse input with block-sparse output --------------------------------
// For nets whose weights are block-sparse: each 4-byte input chunk feeds at most
// kMaxBlocks blocks of 16 outputs (all other weights of that chunk are zero). prepare
// finds each chunk's non-zero blocks (and refuses weights with more), storing per chunk
// its block count, block ids and only those blocks' 4-byte tiles; run visits the non-zero
// input chunks and, for each, only its blocks, accumulating in an L1-resident int32
// array (blocks are chosen at run time, so accumulators cannot stay in registers).
// Layout: slot 0 tiles [chunk][kMaxBlocks][16 outputs][4] (unused blocks zero), slot 1
// bias, slot 2 per chunk {count, id0..id3} as uint16[5] (padded to 8).
template <class V, class Nnz>
struct SparseBso {
  static constexpr int kBlock = 16, kMaxBlocks = 4, kMeta = 8;
  static constexpr int kRegsPerBlock = kBlock * 4 / V::kBytes > 0 ? kBlock * 4 / V::kBytes : 1;

  static const char* supports(const Shape& s) {
    if (s.in % V::kBytes) return "needs in to be a multiple of the register width (chunk masks per register)";
    if (s.out % kBlock) return "needs out % 16 == 0 (16-output blocks)";
    if (V::kBytes > kBlock * 4) return "a 16-output block is narrower than one register";
    return nullptr;
  }
  static void prepare(const Canonical& c, Packed& p) {
    const int in = c.shape.in, out = c.shape.out, chunks = in / 4;
    auto* tiles = static_cast<std::int8_t*>(packed_alloc(p.blocks, 0, std::size_t(chunks) * kMaxBlocks * kBlock * 4));
    auto* meta = static_cast<std::uint16_t*>(packed_alloc(p.blocks, 2, std::size_t(chunks) * kMeta * 2));
    for (int ch = 0; ch < chunks; ++ch) {
      int n = 0;
      for (int blk = 0; blk < out / kBlock; ++blk) {
        bool any = false;
        for (int o = blk * kBlock; o < (blk + 1) * kBlock && !any; ++o)
          for (int j = 0; j < 4; ++j) any |= c.weights[std::size_t(o) * in + 4 * ch + j] != 0;
        if (!any) continue;
        if (n == kMaxBlocks) throw_too_many_blocks(ch);  // out of line: no std::string in ISA code
        meta[ch * kMeta + 1 + n] = std::uint16_t(blk);
        std::int8_t* t = tiles + (std::size_t(ch) * kMaxBlocks + n) * kBlock * 4;
        for (int o = 0; o < kBlock; ++o)
          for (int j = 0; j < 4; ++j) t[o * 4 + j] = c.weights[std::size_t(blk * kBlock + o) * in + 4 * ch + j];
        ++n;
      }
      meta[ch * kMeta] = std::uint16_t(n);
    }
    std::memcpy(packed_alloc(p.blocks, 1, std::size_t(out) * 4), c.bias, std::size_t(out) * 4);
  }
  static void unpack(const Packed& p, std::int8_t* w, std::int32_t* b) {
    const int in = p.shape.in, out = p.shape.out, chunks = in / 4;
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* meta = static_cast<const std::uint16_t*>(p.blocks.slot[2].data);
    std::memset(w, 0, std::size_t(in) * out);
    for (int ch = 0; ch < chunks; ++ch)
      for (int n = 0; n < meta[ch * kMeta]; ++n) {
        const int blk = meta[ch * kMeta + 1 + n];
        const std::int8_t* t = tiles + (std::size_t(ch) * kMaxBlocks + n) * kBlock * 4;
        for (int o = 0; o < kBlock; ++o)
          for (int j = 0; j < 4; ++j) w[std::size_t(blk * kBlock + o) * in + 4 * ch + j] = t[o * 4 + j];
      }
    std::memcpy(b, p.blocks.slot[1].data, std::size_t(out) * 4);
  }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    nnz::ChunkList list(p.shape.in);
    std::uint16_t* const idx = list.data();
    const int count = Nnz::template chunks<V>(input, p.shape.in, idx);
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* meta = static_cast<const std::uint16_t*>(p.blocks.slot[2].data);
    std::memcpy(output, p.blocks.slot[1].data, std::size_t(p.shape.out) * 4);  // accumulate in place
    for (int j = 0; j < count; ++j) {
      const int ch = idx[j];
      const typename V::reg x = V::bcast32(load_chunk(input + 4 * ch));
      const std::uint16_t* m = meta + ch * kMeta;
      for (int n = 0; n < m[0]; ++n) {
        std::int32_t* acc = output + m[1 + n] * kBlock;
        const std::int8_t* t = tiles + (std::size_t(ch) * kMaxBlocks + n) * kBlock * 4;
        for (int r = 0; r < kRegsPerBlock; ++r)
          V::store(acc + r * (V::kBytes / 4), V::dot(V::load(acc + r * (V::kBytes / 4)), x, V::load(t + r * V::kBytes)));
      }
    }
  }
};

// ---- sparse_blocked4_<nnz>_pipe<K>: list and accumulate interleaved -----------------
// The two-pass form lists every chunk, then accumulates: the out-of-order core cannot
// overlap the scalar/shuffle work of the list with the multiplies of the dots. Here the
// input is cut into blocks of 64 chunks, and the list of block b+1 is built right before
// the dots of block b, so both independent streams sit in the reorder window together.
// All outputs stay in registers for the whole call (R * K <= half the register file).
// No NNUELAB_UNROLL here: with it the gate counted 3-7% more instructions per call.
template <class V, class Nnz, int K>
struct SparseBlocked4Pipe : BlockedBase<V> {
  static constexpr int L = V::kBytes / 4;
  static constexpr int kBudget = kAccBudget<V>;
  static const char* supports(const Shape& s) {
    if (const char* why = SparseBlocked4<V, Nnz, K>::supports(s)) return why;
    return (s.out / L) * K > kBudget ? "needs every output in registers: out / lanes * sets <= half the registers"
                                     : nullptr;
  }
  template <int R>
  static void run_r(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
    const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
    const int chunks = p.shape.in / 4;
    // One slab holds every output (out * 4 == R * kBytes): a compile-time stride, and size_t
    // indices, as in blocked_slab.
    constexpr std::size_t stride = std::size_t(R) * V::kBytes;
    // 512-byte aligned: neither half straddles a page boundary (kernels/common/page.h).
    alignas(512) std::uint16_t list[2][64 + 64];
    typename V::reg acc[K][R];
    for (int r = 0; r < R; ++r) {
      acc[0][r] = V::load(bias + r * L);
      for (int k = 1; k < K; ++k) acc[k][r] = V::zero();
    }
    int count = Nnz::template block<V>(input, 0, chunks, list[0]);
    for (int first = 0, b = 0; first < chunks; first += 64, ++b) {
      const std::uint16_t* idx = list[b & 1];
      const int next = first + 64 < chunks ? Nnz::template block<V>(input, first + 64, chunks, list[(b + 1) & 1]) : 0;
      int j = 0;
      for (; j + K <= count; j += K)
        for (int k = 0; k < K; ++k) {
          const std::size_t c = idx[j + k];
          const typename V::reg x = V::bcast32(load_chunk(input + 4 * c));
          const std::int8_t* t = tile_at<true>(tiles, c, stride);
          for (int r = 0; r < R; ++r) acc[k][r] = V::dot(acc[k][r], x, V::load(t + r * V::kBytes));
        }
      for (; j < count; ++j) {
        const std::size_t c = idx[j];
        const typename V::reg x = V::bcast32(load_chunk(input + 4 * c));
        const std::int8_t* t = tile_at<true>(tiles, c, stride);
        for (int r = 0; r < R; ++r) acc[0][r] = V::dot(acc[0][r], x, V::load(t + r * V::kBytes));
      }
      count = next;
    }
    for (int r = 0; r < R; ++r) {
      typename V::reg sum = acc[0][r];
      for (int k = 1; k < K; ++k) sum = V::add(sum, acc[k][r]);
      V::store(output + r * L, sum);
    }
  }
  static void run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
    const int regs = p.shape.out / L;  // supports() bounds regs * K by the budget
    if constexpr (8 * K <= kBudget) {
      if (regs == 8) return run_r<8>(p, input, output);
    }
    if constexpr (4 * K <= kBudget) {
      if (regs == 4) return run_r<4>(p, input, output);
    }
    if constexpr (2 * K <= kBudget) {
      if (regs == 2) return run_r<2>(p, input, output);
    }
    if (regs == 1) return run_r<1>(p, input, output);
    // Other register counts (3, 5, 6, 7): fall back to the two-pass form.
    SparseBlocked4<V, Nnz, K>::run(p, input, output);
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::affine

// NNUELAB_AFFINE_DEFINE / NNUELAB_AFFINE_DEFINE_BITS: kernels/affine/affine.h.

// The techniques every x86 ISA file instantiates with its vector interface V (the ISA's
// registry lines in affine.inc list the same names). sparse_lsb_i16 uses int16 madd,
// which VNNI does not change, so only the maddubs ISAs instantiate it.
#define NNUELAB_AFFINE_X86_TECHNIQUES                                                  \
  NNUELAB_AFFINE_DEFINE(dense_rows4, DenseRows4<V>)                                    \
  NNUELAB_AFFINE_DEFINE(dense_blocked4, DenseBlocked4<V>)                              \
  NNUELAB_AFFINE_DEFINE(dot1, Dot1<V>)                                                 \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc1, SparseBlocked4<V, nnz::Lsb, 1>)      \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc2, SparseBlocked4<V, nnz::Lsb, 2>)      \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_acc3, SparseBlocked4<V, nnz::Lsb, 3>)      \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_acc1, SparseBlocked4<V, nnz::Lut, 1>) \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_acc2, SparseBlocked4<V, nnz::Lut, 2>) \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_acc3, SparseBlocked4<V, nnz::Lut, 3>) \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_acc1, SparseBitset<V, 1>)          \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_acc2, SparseBitset<V, 2>)          \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_acc3, SparseBitset<V, 3>)          \
  NNUELAB_AFFINE_DEFINE(sparse_lut_i8_tile64, SparseLutI8Tile64<V>)                    \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lut_pipe2, SparseBlocked4Pipe<V, nnz::Lut, 2>)  \
  NNUELAB_AFFINE_DEFINE(sparse_blocked4_lsb_pipe2, SparseBlocked4Pipe<V, nnz::Lsb, 2>)

// The two-chunk (x2) techniques: only the maddubs+madd ISAs (ssse3, avx2, avx512bw)
// instantiate them; a vpdpbusd dot has no madd to save.
#define NNUELAB_AFFINE_X2_TECHNIQUES                                          \
  NNUELAB_AFFINE_DEFINE(dense_blocked4_x2, DenseBlocked4X2<V>)                \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_x2, SparseBlocked4X2Lut<V>)   \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_bitset_x2, SparseBitsetX2<V>)    \
  NNUELAB_AFFINE_DEFINE(dense_blocked4_x4, DenseBlocked4X2<V, 4>)             \
  NNUELAB_AFFINE_DEFINE_BITS(sparse_blocked4_lut_x4, SparseBlocked4X2Lut<V, 4>)
