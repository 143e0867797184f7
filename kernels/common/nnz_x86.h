// Non-zero 4-byte chunk lists for the sparse affine techniques, on any x86 vector width V
// (V::nonzero_chunks gives one bit per chunk of a register: a signed compare, exact on
// the activation domain 0..127). Lists are ascending uint16 chunk indices; the caller's
// buffer needs 64 entries of slack (the table form stores 8 entries at a time).
#pragma once
#include "kernels/common/isa.h"
#include "kernels/common/nnz_tables.h"

namespace nnuelab::NNUELAB_ISA_NS::nnz {

// Up to 64 chunks' bits in one word: chunks [first, first + 64) of a row of `chunks`.
template <class V>
inline std::uint64_t chunk_mask64(const std::uint8_t* in, int first, int chunks) {
  constexpr int L = V::kBytes / 4;
  const int regs = (chunks - first < 64 ? chunks - first : 64) / L;
  std::uint64_t m = 0;
  for (int r = 0; r < regs; ++r) m |= std::uint64_t(V::nonzero_chunks(in + (first + r * L) * 4)) << (r * L);
  return m;
}

// lsb: walk the mask's set bits with tzcnt + blsr (one branch per non-zero chunk; the
// branch predictor decides its speed on real data).
struct Lsb {
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    const int chunks = n / 4;
    int count = 0;
    for (int first = 0; first < chunks; first += 64) {
      std::uint64_t m = chunk_mask64<V>(in, first, chunks);
      while (m) {
        out[count++] = std::uint16_t(first + __builtin_ctzll(m));
        m &= m - 1;
      }
    }
    return count;
  }
};

// Byte form of the lsb walk: the ascending indices of the non-zero bytes of in[0..n),
// n a multiple of V::kBytes (64-bit masks are filled one register at a time).
template <class V>
inline int lsb_bytes(const std::uint8_t* in, int n, std::uint16_t* out) {
  constexpr int kPer = V::kBytes;  // mask bits per register
  int count = 0;
  for (int first = 0; first < n; first += 64) {
    std::uint64_t m = 0;
    for (int r = 0; r < 64 / kPer && first + r * kPer < n; ++r) m |= V::nonzero_bytes(in + first + r * kPer) << (r * kPer);
    while (m) {
      out[count++] = std::uint16_t(first + __builtin_ctzll(m));
      m &= m - 1;
    }
  }
  return count;
}

// lut: 8 mask bits at a time, store the table's 8 positions plus the running base as
// one 128-bit store and advance by the table's count (branch-free: no mispredictions).
struct Lut {
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    const int chunks = n / 4;
    const __m128i step = _mm_set1_epi16(8);
    __m128i base = _mm_setzero_si128();
    int count = 0;
    for (int first = 0; first < chunks; first += 64) {
      const std::uint64_t m = chunk_mask64<V>(in, first, chunks);
      const int bytes = (chunks - first < 64 ? chunks - first + 7 : 64) / 8;
      for (int i = 0; i < bytes; ++i) {
        const unsigned b = unsigned(m >> (8 * i)) & 0xff;
        const __m128i pos = _mm_load_si128(reinterpret_cast<const __m128i*>(kNnzLut[b]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + count), _mm_add_epi16(pos, base));
        count += kNnzCount[b];
        base = _mm_add_epi16(base, step);
      }
    }
    return count;
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::nnz
