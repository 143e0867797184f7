// Pairwise (2 -> 1) kernels shared by pool_avg2, pool_max2, pool_product2 and ft_output:
// element i meets element i + n/2 (reference/pool.h), so a step combines two whole
// registers, one from each half, with no shuffle. Written once against a small vector
// interface (V128 / V256 / V512 below); every ISA file instantiates them for its width.
//
// Included by ISA files only: everything lands in the including ISA's namespace.
#pragma once
#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::pairwise {

// ---- vector interfaces ------------------------------------------------------------------
// reg, kBytes, load/store (unaligned), the uint8 and int16 lane ops the kernels need, and:
//   packus16(a, b)  saturates int16 -> uint8. The instruction works per 128-bit lane: lane L
//                   of the result holds a's 8 words of lane L, then b's 8 words of lane L.
//   unlace(x)       moves those 8-byte groups back to a's then b's element order (a no-op
//                   for 128-bit registers, where packus is already in order).
//   zero_chunks     bit j set iff bytes 4j..4j+3 of x are all zero (kBytes / 4 bits; an
//                   equality test, so right for every byte value, not just 0..127). The
//                   kernels collect zero bits and invert once per 64-bit word.
#if defined(__SSE2__) || NNUELAB_EMULATED
struct V128 {
  using reg = __m128i;
  static constexpr int kBytes = 16;
  static constexpr int kLanes = 1;  // 128-bit lanes per register
  static reg load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void store(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
  static reg zero() { return _mm_setzero_si128(); }
  static reg set1_16(short x) { return _mm_set1_epi16(x); }
  static reg avg_u8(reg a, reg b) { return _mm_avg_epu8(a, b); }
  static reg max_u8(reg a, reg b) { return _mm_max_epu8(a, b); }
  static reg max16(reg a, reg b) { return _mm_max_epi16(a, b); }
  static reg min16(reg a, reg b) { return _mm_min_epi16(a, b); }
  static reg mullo16(reg a, reg b) { return _mm_mullo_epi16(a, b); }
  static reg mulhi16(reg a, reg b) { return _mm_mulhi_epi16(a, b); }
  static reg srli7(reg a) { return _mm_srli_epi16(a, 7); }
  static reg slli7(reg a) { return _mm_slli_epi16(a, 7); }
  static reg packus16(reg a, reg b) { return _mm_packus_epi16(a, b); }
  static reg unlace(reg x) { return x; }
  static unsigned zero_chunks(reg x) { return unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, zero())))); }
};
#endif

#if defined(__AVX2__) || NNUELAB_EMULATED
struct V256 {
  using reg = __m256i;
  static constexpr int kBytes = 32;
  static constexpr int kLanes = 2;
  static reg load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void store(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg zero() { return _mm256_setzero_si256(); }
  static reg set1_16(short x) { return _mm256_set1_epi16(x); }
  static reg avg_u8(reg a, reg b) { return _mm256_avg_epu8(a, b); }
  static reg max_u8(reg a, reg b) { return _mm256_max_epu8(a, b); }
  static reg max16(reg a, reg b) { return _mm256_max_epi16(a, b); }
  static reg min16(reg a, reg b) { return _mm256_min_epi16(a, b); }
  static reg mullo16(reg a, reg b) { return _mm256_mullo_epi16(a, b); }
  static reg mulhi16(reg a, reg b) { return _mm256_mulhi_epi16(a, b); }
  static reg srli7(reg a) { return _mm256_srli_epi16(a, 7); }
  static reg slli7(reg a) { return _mm256_slli_epi16(a, 7); }
  static reg packus16(reg a, reg b) { return _mm256_packus_epi16(a, b); }
  // After packus the qwords hold a0-7, b0-7 (lane 0), a8-15, b8-15 (lane 1): taking
  // qwords 0, 2, 1, 3 gives a0-15, b0-15.
  static reg unlace(reg x) { return _mm256_permute4x64_epi64(x, 0b11011000); }
  static unsigned zero_chunks(reg x) {
    return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, zero()))));
  }
};
#endif

#if defined(__AVX512BW__) || NNUELAB_EMULATED
struct V512 {
  using reg = __m512i;
  static constexpr int kBytes = 64;
  static constexpr int kLanes = 4;
  static reg load(const void* p) { return _mm512_loadu_si512(p); }
  static void store(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg zero() { return _mm512_setzero_si512(); }
  static reg set1_16(short x) { return _mm512_set1_epi16(x); }
  static reg avg_u8(reg a, reg b) { return _mm512_avg_epu8(a, b); }
  static reg max_u8(reg a, reg b) { return _mm512_max_epu8(a, b); }
  static reg max16(reg a, reg b) { return _mm512_max_epi16(a, b); }
  static reg min16(reg a, reg b) { return _mm512_min_epi16(a, b); }
  static reg mullo16(reg a, reg b) { return _mm512_mullo_epi16(a, b); }
  static reg mulhi16(reg a, reg b) { return _mm512_mulhi_epi16(a, b); }
  static reg srli7(reg a) { return _mm512_srli_epi16(a, 7); }
  static reg slli7(reg a) { return _mm512_slli_epi16(a, 7); }
  static reg packus16(reg a, reg b) { return _mm512_packus_epi16(a, b); }
  // Qwords after packus: a0-7, b0-7, a8-15, b8-15, a16-23, b16-23, a24-31, b24-31;
  // the even qwords then the odd ones give a0-31, b0-31.
  static reg unlace(reg x) { return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), x); }
  static unsigned zero_chunks(reg x) { return unsigned(_mm512_cmpeq_epi32_mask(x, zero())); }
};
#endif

// ---- uint8 -> uint8: avg / max of the two halves ----------------------------------------
enum class ByteOp { kAvg, kMax };

template <class V, ByteOp op>
[[gnu::always_inline]] inline void byte_step(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out) {
  const auto x = V::load(a), y = V::load(b);
  // avg_epu8 forms the 9-bit sum inside the instruction: (x + y + 1) >> 1 with no wrap.
  V::store(out, op == ByteOp::kAvg ? V::avg_u8(x, y) : V::max_u8(x, y));
}

// Needs (n / 2) % V::kBytes == 0.
template <class V, ByteOp op>
inline void bytes_pairwise(const std::uint8_t* in, int n, std::uint8_t* out) {
  const int h = div_nonneg<2>(n);  // n >= 0 (supports)
  const std::uint8_t* a = in;
  const std::uint8_t* b = in + h;
  const std::uint8_t* const end = b;
  // Two steps per iteration through three pointers of their own and a count (see
  // words_pairwise below).
  for (int pairs = int(unsigned(h) / (2 * V::kBytes)); pairs > 0;
       --pairs, a += 2 * V::kBytes, b += 2 * V::kBytes, out += 2 * V::kBytes) {
    a = in_register(a), b = in_register(b), out = in_register(out);
    byte_step<V, op>(a, b, out);
    byte_step<V, op>(a + V::kBytes, b + V::kBytes, out + V::kBytes);
  }
  if (a != end) byte_step<V, op>(a, b, out);
}

// ---- int16 -> uint8: products of the two halves ------------------------------------------
enum class Product {
  kMul7,          // pool_product2: (a * b) >> 7 for a, b already in 0..127
  kClamp127Mul7,  // ft_output clamp127: clamp both to 0..127 first
  kClamp255Mul9,  // ft_output clamp255: clamp to 0..255, (a * b) >> 9 via mulhi(a << 7, b)
};

template <class V, Product p>
inline typename V::reg product(typename V::reg a, typename V::reg b) {
  if constexpr (p == Product::kMul7) {
    // a * b <= 127 * 127 = 16129 fits int16, so mullo's low half is the whole product and
    // a logical shift is the floor (inputs outside 0..127 are outside the op's domain).
    return V::srli7(V::mullo16(a, b));
  } else if constexpr (p == Product::kClamp127Mul7) {
    // Both sides clamped: mullo of an unclamped negative side would wrap.
    const auto lo = V::zero(), hi = V::set1_16(127);
    return V::srli7(V::mullo16(V::min16(V::max16(a, lo), hi), V::min16(V::max16(b, lo), hi)));
  } else {
    // a clamped to 0..255, so a << 7 <= 32640 stays a positive int16. b is only clamped
    // from above: mulhi gives floor(a * 128 * b / 65536) = (a * b) >> 9 exactly (the 32-bit
    // product cannot overflow: |32640 * -32768| < 2^31), and for b < 0 that is <= 0, which
    // packus saturates to 0 = the reference's clamp(b) = 0 result. One max saved per pair.
    const auto a7 = V::slli7(V::min16(V::max16(a, V::zero()), V::set1_16(255)));
    return V::mulhi16(a7, V::min16(b, V::set1_16(255)));
  }
}

// out[i] = product(in[i], in[i + n/2]) as uint8, V::kBytes outputs per step (two int16
// registers from each half). unlace: canonical output order (one permute per step); else
// the bytes stay in packus' per-lane order, which the caller declares (see
// kernels/common/lane_order.h) so the next layer's prepare can absorb it. kBits: also
// write the nnz bitset of the bytes as stored (bit j of bits[j / 64] for chunk j),
// exactly nnz_bitset_words(n / 2) words. Needs (n / 2) % V::kBytes == 0.
template <class V, Product p, bool unlace>
inline typename V::reg product_step(const std::int16_t* a, const std::int16_t* b, std::uint8_t* out) {
  constexpr int kWords = V::kBytes / 2;  // int16 per register
  const auto p0 = product<V, p>(V::load(a), V::load(b));
  const auto p1 = product<V, p>(V::load(a + kWords), V::load(b + kWords));
  // Every product is in 0..127 (or negative for clamp255's b < 0, saturated to 0 here).
  auto bytes = V::packus16(p0, p1);
  if constexpr (unlace) bytes = V::unlace(bytes);
  V::store(out, bytes);
  return bytes;
}

template <class V, Product p, bool unlace, bool kBits>
inline void words_pairwise(const std::int16_t* in, int n, std::uint8_t* out, std::uint64_t* bits) {
  const int h = div_nonneg<2>(n);  // n >= 0 (supports)
  const std::int16_t* a = in;
  const std::int16_t* b = in + h;
  const std::int16_t* const end = b;
  // The two halves and the output advance as three pointers of their own (in_register),
  // not as one index shared by three bases: every load and store is then [pointer +
  // constant], which Intel keeps fused with the vpmullw / vpmaxsw that reads it (isa.h,
  // in_register, says what it does with an indexed address). pool_product2 2x1024 on
  // AVX2, a Cascade Lake VM, rdtsc probe: 144 TSC ticks per call with the shared index,
  // 134 with pointers, 116 with pointers and two steps per iteration (the form below),
  // 122 with four. The loops count iterations in a register of their own: comparing the
  // moving pointer with the end cost a copy and a subtraction more per iteration.
  if constexpr (kBits) {
    // One bitset word is 64 chunks = 256 output bytes = kSteps steps; with a constant trip
    // count the compiler unrolls the steps and every shift is an immediate.
    constexpr int kSteps = 256 / V::kBytes, kChunks = V::kBytes / 4;
    for (int words = int(unsigned(h) / 256); words > 0; --words, a += 256, b += 256, out += 256) {
      a = in_register(a), b = in_register(b), out = in_register(out);
      std::uint64_t zeros = 0;
      for (int k = 0; k < kSteps; ++k)
        zeros |= std::uint64_t(V::zero_chunks(product_step<V, p, unlace>(a + k * V::kBytes, b + k * V::kBytes,
                                                                          out + k * V::kBytes)))
                 << (k * kChunks);
      *bits++ = ~zeros;
    }
    if (a != end) {  // a last, partial word: the bits past the last chunk stay zero
      std::uint64_t zeros = 0;
      int filled = 0;
      for (; a != end; a += V::kBytes, b += V::kBytes, out += V::kBytes, filled += kChunks)
        zeros |= std::uint64_t(V::zero_chunks(product_step<V, p, unlace>(a, b, out))) << filled;
      *bits = ~zeros & ((std::uint64_t(1) << filled) - 1);  // filled < 64 here
    }
  } else {
    for (int pairs = int(unsigned(h) / (2 * V::kBytes)); pairs > 0;
         --pairs, a += 2 * V::kBytes, b += 2 * V::kBytes, out += 2 * V::kBytes) {
      a = in_register(a), b = in_register(b), out = in_register(out);
      product_step<V, p, unlace>(a, b, out);
      product_step<V, p, unlace>(a + V::kBytes, b + V::kBytes, out + V::kBytes);
    }
    if (a != end) product_step<V, p, unlace>(a, b, out);
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::pairwise
