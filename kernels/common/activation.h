// Vector interface and shared steps of the activation ops (crelu16, crelu32, sqr_crelu32,
// crelu32_pair, quantmoid4), written once and compiled per ISA (Highway's habit): an ISA
// file picks V = act::X128 (sse2/ssse3/sse41), act::X256 (avx2) or act::X512 (avx512bw,
// also its SIMDe copy) and instantiates the technique templates of kernels/<op>/techniques.h.
// Everything here lands in the including ISA's namespace. Members that need more than the
// file's baseline (SSSE3 abs/sign, SSE4.1 max_epi8/blendv/packus_epi32) exist only when the
// compiler targets it, so an SSE2 file cannot use them by accident.
#pragma once
#include <cstdint>

#include "kernels/common/isa.h"

#if NNUELAB_EMULATED
#define NNUELAB_ACT_SSSE3 1
#define NNUELAB_ACT_SSE41 1
#define NNUELAB_ACT_AVX2 1
#define NNUELAB_ACT_AVX512BW 1
#else
#if defined(__SSSE3__)
#define NNUELAB_ACT_SSSE3 1
#endif
#if defined(__SSE4_1__)
#define NNUELAB_ACT_SSE41 1
#endif
#if defined(__AVX2__)
#define NNUELAB_ACT_AVX2 1
#endif
#if defined(__AVX512BW__)
#define NNUELAB_ACT_AVX512BW 1
#endif
#endif

namespace nnuelab::NNUELAB_ISA_NS::act {

// Output vectors of V in n elements' output (n / kBytes, n >= 0: div_nonneg, isa.h).
template <class V>
[[gnu::always_inline]] inline int whole_vectors_of(int n) {
  return div_nonneg<V::kBytes>(n);
}

// step(k) for every output vector k < vectors. 32 output bytes (a hidden layer's width:
// one vector at 256 bits, two at 128) take a fall-through copy with a constant count: no
// loop setup or counter. At 32 elements a call through the harness is about 50
// instructions and runs near 6 per cycle, so instructions are time (crelu32's 32-element
// calls: -7 to -16 instructions, avx2 packs_shift_imm_permute 2.21 -> 1.97 ns, Xeon VM,
// 2026-11-24). Kernels that pick an instantiation per call pair this with
// NNUELAB_NO_CROSSJUMPING (isa.h), or GCC merges the copies' tails behind taken jumps.
template <class V, class Step>
[[gnu::always_inline]] inline void for_each_vector(int vectors, Step step) {
  constexpr int kWidth32 = 32 / V::kBytes;  // 0 at 512 bits: no such path
  if (kWidth32 > 0 && vectors == kWidth32) [[likely]] {
    for (int k = 0; k < kWidth32; ++k) step(k);
  } else {
    for (int k = 0; k < vectors; ++k) step(k);
  }
}

// ---- the fused nnz bitset -------------------------------------------------------------
// Collects one bit per 4-byte output chunk (bit j of words[j / 64]: bytes 4j..4j+3 not all
// zero), kBytes / 4 bits per output vector, and stores each word once it is complete (no
// memset, no read-modify-write on the way). Every push is kBytes / 4 bits at a multiple of
// that count, and 4, 8, 16 divide 64, so a push never straddles a word.
// Two writers may share one word (crelu32_pair: the squared half's last chunks and the
// clipped half's first ones when n % 256 != 0). Then the first writer ends with
// take_tail() (its last, partial word, not stored) and the second, which starts mid-word
// and stores its first word like any other, ends with finish_merging(tail): the tail is
// ORed into that word in a register while it is still pending (n < 256), or with one
// read-modify-write after the loop. Until 2026-11-24 the caller zeroed the shared word and
// both writers ORed into it: at 32 elements that store and its two reloads put two
// store-forwarding round trips on the call's path (crelu32_pair of 32 on avx2: 5.4 ns with
// the bitset against 2.7 without).
class BitWriter {
 public:
  // first_chunk >= 0: divided unsigned (a shift and a mask, no sign fix-ups).
  explicit BitWriter(std::uint64_t* words, int first_chunk = 0)
      : first_(words ? words + unsigned(first_chunk) / 64 : nullptr), w_(first_), pos_(int(unsigned(first_chunk) % 64)) {}
  void push(std::uint64_t mask, int count) {
    acc_ |= mask << pos_;
    pos_ += count;
    if (pos_ == 64) {
      *w_++ = acc_;
      acc_ = 0;
      pos_ = 0;
    }
  }
  // Writes the last, partial word (its bits past the last chunk stay zero).
  void finish() {
    if (pos_) *w_ = acc_;
  }
  // The last, partial word's bits, for the writer that shares that word; nothing is stored.
  std::uint64_t take_tail() const { return pos_ ? acc_ : 0; }
  // finish() for the second of two writers sharing its first word: `tail` (the first
  // writer's take_tail(), bits below this writer's first chunk) goes into that word.
  void finish_merging(std::uint64_t tail) {
    if (w_ == first_) {  // the first word is still pending (pos_ > 0: it starts mid-word)
      *w_ = acc_ | tail;
      return;
    }
    finish();
    *first_ |= tail;
  }

 private:
  std::uint64_t* first_;
  std::uint64_t* w_;
  int pos_;
  std::uint64_t acc_ = 0;
};

// A shift count known at compile time. The X structs' sra16 takes it as well as a run-time
// V::count, and then emits the immediate form (psraw $S), which is one uop on the shift
// ports; the count-register form (psraw %xmm) is two on Intel cores, one of them on port
// 5, where the packs and permutes of these kernels also run. with_imm_shift8 turns a
// run-time shift into one of these.
template <int S>
struct Imm {
  static_assert(S >= 0 && S < 16, "a 16-bit shift count");
  static constexpr int value = S;
};

// f(Imm<s>{}) for a run-time s in 0..8; false for any other s, which the caller then
// handles with a run-time count. A chain of compares, the nets' usual shift (6, weights
// x64) first. crelu32 of 32 on avx2 (one loop step, so the pick is all of the gain's
// cost) measured 2.30 ns this way against 2.16 for the register-count form; the chain in
// order 0..8 took 2.54 ns and a switch (a jump table) 3.72 ns. A fold over an
// integer_sequence reads simpler, but GCC 12 compiles it to that jump table as well.
template <int S = 0, class F>
[[gnu::always_inline]] inline bool with_imm_shift8_from(int s, F& f) {
  if constexpr (S > 8) {
    return false;
  } else {
    if (S != 6 && s == S) return f(Imm<S>{}), true;
    return with_imm_shift8_from<S + 1>(s, f);
  }
}
template <class F>
[[gnu::always_inline]] inline bool with_imm_shift8(int s, F&& f) {
  if (s == 6) return f(Imm<6>{}), true;
  return with_imm_shift8_from(s, f);
}

// ---- vector interfaces ----------------------------------------------------------------
// Common to all: reg, kBytes, load/store, set1_8/16, the saturating packs, 16-bit shifts by
// a V::count (from V::shift_count(int)), mulhi, byte subs. An interface leaves out what no
// variant of its width calls, rather than carry code no test can reach: adds8 and min_epu8
// (the SSE2 clips') are X128's only; packus32, packus16 and min_epu16 (the packus clip of
// crelu32, SSE4.1 and AVX2), and add8, sub8 and sign8 (Quantmoid4's sign form, SSSE3 and
// AVX2) are not in X512; NEON's N128 (kernels/common/neon.h) has neither group (its crelu32
// and Quantmoid4 forms are the packs and blend ones). Also:
//   fix_packs16(r): canonical order after ONE packs/packus_epi16 of two consecutive input
//                   vectors (packs works per 128-bit lane, interleaving 8-byte groups);
//   fix_packs32x2(r): canonical order after packs_epi32 (or packus_epi32) of vectors
//                   (0,1) and (2,3) followed by one packs_epi16 (4-byte groups interleaved);
//   nnz(r): the bitset bits of one output vector (kBytes / 4 bits).
// nnz uses a signed int32 compare with 0: exact only because every activation output byte
// is 0..127, so a non-zero chunk always reads as a positive int32.

#if defined(__SSE2__) || NNUELAB_EMULATED
struct X128 {
  using reg = __m128i;
  static constexpr int kBytes = 16;
  using count = __m128i;  // shift counts (sra16/srl16/sll16); NEON's N128 has its own
  static count shift_count(int s) { return _mm_cvtsi32_si128(s); }
  static reg load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void store(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
  static reg zero() { return _mm_setzero_si128(); }
  static reg set1_8(std::int8_t x) { return _mm_set1_epi8(x); }
  static reg set1_16(std::int16_t x) { return _mm_set1_epi16(x); }
  static reg packs32(reg a, reg b) { return _mm_packs_epi32(a, b); }
  static reg packs16(reg a, reg b) { return _mm_packs_epi16(a, b); }
  static reg packus16(reg a, reg b) { return _mm_packus_epi16(a, b); }
  static reg sra16(reg a, __m128i c) { return _mm_sra_epi16(a, c); }
  template <int S>
  static reg sra16(reg a, Imm<S>) { return _mm_srai_epi16(a, S); }
  static reg srl16(reg a, __m128i c) { return _mm_srl_epi16(a, c); }
  template <int S>
  static reg srl16(reg a, Imm<S>) { return _mm_srli_epi16(a, S); }
  static reg sll16(reg a, __m128i c) { return _mm_sll_epi16(a, c); }
  static reg mulhi16(reg a, reg b) { return _mm_mulhi_epi16(a, b); }
  static reg subs_epu16(reg a, reg b) { return _mm_subs_epu16(a, b); }
  static reg add8(reg a, reg b) { return _mm_add_epi8(a, b); }
  static reg sub8(reg a, reg b) { return _mm_sub_epi8(a, b); }
  static reg adds8(reg a, reg b) { return _mm_adds_epi8(a, b); }
  static reg subs8(reg a, reg b) { return _mm_subs_epi8(a, b); }
  static reg min_epu8(reg a, reg b) { return _mm_min_epu8(a, b); }
#if NNUELAB_ACT_SSSE3
  static reg abs16(reg a) { return _mm_abs_epi16(a); }
  static reg sign8(reg a, reg s) { return _mm_sign_epi8(a, s); }
#endif
#if NNUELAB_ACT_SSE41
  static reg max8(reg a, reg b) { return _mm_max_epi8(a, b); }
  static reg packus32(reg a, reg b) { return _mm_packus_epi32(a, b); }
  static reg min_epu16(reg a, reg b) { return _mm_min_epu16(a, b); }
  // b where the sign byte's top bit is set, else a.
  static reg blend_neg8(reg a, reg b, reg sign) { return _mm_blendv_epi8(a, b, sign); }
#endif
  // One 128-bit lane: packs keeps the order, nothing to fix.
  static reg fix_packs16(reg r) { return r; }
  static reg fix_packs32x2(reg r) { return r; }
  static std::uint64_t nnz(reg r) {
    return unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(r, _mm_setzero_si128()))));
  }
};
#endif

#if NNUELAB_ACT_AVX2
struct X256 {
  using reg = __m256i;
  static constexpr int kBytes = 32;
  using count = __m128i;  // shift counts (sra16/srl16/sll16); NEON's N128 has its own
  static count shift_count(int s) { return _mm_cvtsi32_si128(s); }
  static reg load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void store(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg zero() { return _mm256_setzero_si256(); }
  static reg set1_8(std::int8_t x) { return _mm256_set1_epi8(x); }
  static reg set1_16(std::int16_t x) { return _mm256_set1_epi16(x); }
  static reg packs32(reg a, reg b) { return _mm256_packs_epi32(a, b); }
  static reg packus32(reg a, reg b) { return _mm256_packus_epi32(a, b); }
  static reg packs16(reg a, reg b) { return _mm256_packs_epi16(a, b); }
  static reg packus16(reg a, reg b) { return _mm256_packus_epi16(a, b); }
  static reg sra16(reg a, __m128i c) { return _mm256_sra_epi16(a, c); }
  template <int S>
  static reg sra16(reg a, Imm<S>) { return _mm256_srai_epi16(a, S); }
  static reg srl16(reg a, __m128i c) { return _mm256_srl_epi16(a, c); }
  template <int S>
  static reg srl16(reg a, Imm<S>) { return _mm256_srli_epi16(a, S); }
  static reg sll16(reg a, __m128i c) { return _mm256_sll_epi16(a, c); }
  static reg mulhi16(reg a, reg b) { return _mm256_mulhi_epi16(a, b); }
  static reg subs_epu16(reg a, reg b) { return _mm256_subs_epu16(a, b); }
  static reg min_epu16(reg a, reg b) { return _mm256_min_epu16(a, b); }
  static reg abs16(reg a) { return _mm256_abs_epi16(a); }
  static reg add8(reg a, reg b) { return _mm256_add_epi8(a, b); }
  static reg sub8(reg a, reg b) { return _mm256_sub_epi8(a, b); }
  static reg subs8(reg a, reg b) { return _mm256_subs_epi8(a, b); }
  static reg max8(reg a, reg b) { return _mm256_max_epi8(a, b); }
  static reg sign8(reg a, reg s) { return _mm256_sign_epi8(a, s); }
  static reg blend_neg8(reg a, reg b, reg sign) { return _mm256_blendv_epi8(a, b, sign); }
  // Lane fix-up after one packs_epi16 of x0..15 and x16..31: the 8-byte groups come out as
  // x0-7, x16-23 (lane 0), x8-15, x24-31 (lane 1); qwords 0, 2, 1, 3 restore x0..31.
  static reg fix_packs16(reg r) { return _mm256_permute4x64_epi64(r, 0b11011000); }
  // Lane fix-up after packs_epi32 (0,1), (2,3) then packs_epi16: the 4-byte groups hold
  // inputs 0-3, 8-11, 16-19, 24-27 (lane 0) and 4-7, 12-15, 20-23, 28-31 (lane 1), i.e.
  // position 4L + k holds group 2k + L; dwords 0, 4, 1, 5, 2, 6, 3, 7 restore the order.
  static reg fix_packs32x2(reg r) { return _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)); }
  static std::uint64_t nnz(reg r) {
    return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(r, _mm256_setzero_si256()))));
  }
};
#endif

#if NNUELAB_ACT_AVX512BW
struct X512 {
  using reg = __m512i;
  static constexpr int kBytes = 64;
  using count = __m128i;  // shift counts (sra16/srl16/sll16); NEON's N128 has its own
  static count shift_count(int s) { return _mm_cvtsi32_si128(s); }
  static reg load(const void* p) { return _mm512_loadu_si512(p); }
  static void store(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg zero() { return _mm512_setzero_si512(); }
  static reg set1_8(std::int8_t x) { return _mm512_set1_epi8(x); }
  static reg set1_16(std::int16_t x) { return _mm512_set1_epi16(x); }
  static reg packs32(reg a, reg b) { return _mm512_packs_epi32(a, b); }
  static reg packs16(reg a, reg b) { return _mm512_packs_epi16(a, b); }
  static reg sra16(reg a, __m128i c) { return _mm512_sra_epi16(a, c); }
  template <int S>
  static reg sra16(reg a, Imm<S>) { return _mm512_srai_epi16(a, S); }
  static reg srl16(reg a, __m128i c) { return _mm512_srl_epi16(a, c); }
  template <int S>
  static reg srl16(reg a, Imm<S>) { return _mm512_srli_epi16(a, S); }
  static reg sll16(reg a, __m128i c) { return _mm512_sll_epi16(a, c); }
  static reg mulhi16(reg a, reg b) { return _mm512_mulhi_epi16(a, b); }
  static reg subs_epu16(reg a, reg b) { return _mm512_subs_epu16(a, b); }
  static reg abs16(reg a) { return _mm512_abs_epi16(a); }
  static reg subs8(reg a, reg b) { return _mm512_subs_epi8(a, b); }
  static reg max8(reg a, reg b) { return _mm512_max_epi8(a, b); }
  // No vpblendvb in AVX-512: the sign bytes become a mask register (vpmovb2m), and the
  // masked blend picks b where the mask bit is set.
  static reg blend_neg8(reg a, reg b, reg sign) { return _mm512_mask_blend_epi8(_mm512_movepi8_mask(sign), a, b); }
  // Four 128-bit lanes. After one packs_epi16 of x0..31, x32..63 the qwords are
  // x0-7, x32-39, x8-15, x40-47, x16-23, x48-55, x24-31, x56-63: take 0,2,4,6,1,3,5,7.
  static reg fix_packs16(reg r) { return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), r); }
  // After packs_epi32 (0,1), (2,3) then packs_epi16, dword position 4L + k holds input
  // group 4k + L (lane L, source vector k), so output group g comes from 4 (g % 4) + g / 4.
  static reg fix_packs32x2(reg r) {
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), r);
  }
  static std::uint64_t nnz(reg r) { return _mm512_cmpgt_epi32_mask(r, _mm512_setzero_si512()); }
};
#endif

// ---- shared steps ---------------------------------------------------------------------

// crelu32 after the int16 narrowing: x01, x23 are packs_epi32 of four consecutive int32
// vectors. Arithmetic shift in int16, packs_epi16 to int8 (saturating at -128..127), clip
// at 0 with max_epi8. The caller permutes (fix_packs32x2). Equals clamp(x >> s, 0, 127) for
// every int32 x only while the int16 saturation cannot lower a result: 32767 >> s >= 127,
// i.e. s <= 8 (and -32768 >> s is negative, clipped to 0 like any negative x).
// `shift`: a V::count, or an Imm<S> on the x86 interfaces.
template <class V, class Count>
inline typename V::reg clip_packed(typename V::reg x01, typename V::reg x23, Count shift) {
  return V::max8(V::packs16(V::sra16(x01, shift), V::sra16(x23, shift)), V::zero());
}

// The same without max_epi8 (SSE2): adds_epi8(p, -128) saturates every p <= 0 to -128 and
// maps p > 0 to p - 128; subs_epi8(q, -128) adds 128 back, giving max(p, 0) exactly.
template <class V, class Count>
inline typename V::reg clip_packed_addsubs(typename V::reg x01, typename V::reg x23, Count shift) {
  const typename V::reg p = V::packs16(V::sra16(x01, shift), V::sra16(x23, shift));
  const typename V::reg k80 = V::set1_8(-128);
  return V::subs8(V::adds8(p, k80), k80);
}

// sqr_crelu32 after the narrowing: mulhi_epi16(x, x) = floor(x^2 / 2^16) (x^2 <= 2^30, the
// high half never overflows, -32768 included), then a logical shift by post = 2s + 7 - 16,
// so the total is floor(x^2 / 2^(2s + 7)); packs_epi16 saturates the non-negative result at
// 127, the min of the reference. post >= 0 needs s >= 5 (smaller shifts would need the low
// half); the int16 narrowing is harmless only while s <= 8 (32767^2 >> (2s + 7) >= 127).
// `post`: a V::count, or an Imm<P> on the x86 interfaces (with_imm_sqr_shifts).
template <class V, class Count>
inline typename V::reg sqr_packed(typename V::reg x01, typename V::reg x23, Count post) {
  return V::packs16(V::srl16(V::mulhi16(x01, x01), post), V::srl16(V::mulhi16(x23, x23), post));
}

// f(Imm<s>, Imm<2s + 7 - 16>) for a run-time shift s in 5..8, the square's domain: the
// clip's shift and sqr_packed's post shift as immediates. false for any other s, which the
// caller then handles with run-time counts.
template <class F>
[[gnu::always_inline]] inline bool with_imm_sqr_shifts(int s, F&& f) {
  bool done = false;
  with_imm_shift8(s, [&](auto shift) NNUELAB_INLINE_LAMBDA {
    constexpr int S = decltype(shift)::value;
    if constexpr (S >= 5) f(shift, Imm<2 * S + 7 - 16>{}), done = true;
  });
  return done;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::act
