// Portable building blocks of the xsimd variants, over xs::batch<T, Arch> of the including
// xsimd build (kernels/common/xsimd_arch.h). Each one stands in for an operation xsimd 8.1
// lacks, in the closest portable form; the variant notes in each <op>.inc name them:
//   - no saturating narrow / pack (packs, packus): values are first brought into the target
//     range with xsimd (clip, min, max), then narrowed by a plain store loop (narrow_store),
//     which the compiler vectorises with this build's flags;
//   - no widening load and no maddubs/madd/dpbusd: bytes are split into even and odd 16-bit
//     lanes with shifts of the reinterpreted batch (even_*, odd_*), multiplied in int16 and
//     summed pairwise the same way into int32 (dot4_*);
//   - no bitmask (movemask): xs::any() skips all-zero batches; the lanes of the others are
//     read back and scanned in scalar code (list_nonzero).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/common/xsimd_arch.h"

namespace nnuelab::NNUELAB_ISA_NS::xops {

// The supports() text for an element count that is not a multiple of `per`.
inline const char* need_multiple(int n, int per) {
  if (n % per == 0) return nullptr;
  switch (per) {
    case 4: return "needs a multiple of 4 elements (whole xsimd batches)";
    case 8: return "needs a multiple of 8 elements (whole xsimd batches)";
    case 16: return "needs a multiple of 16 elements (whole xsimd batches)";
    case 32: return "needs a multiple of 32 elements (whole xsimd batches)";
    case 64: return "needs a multiple of 64 elements (whole xsimd batches)";
    default: return "needs a multiple of the xsimd batch width";
  }
}

// Narrowing without a pack instruction: every lane of v must already be in 0..255.
template <class T>
inline void narrow_store(const B<T>& v, std::uint8_t* out) {
  alignas(64) T tmp[B<T>::size];
  v.store_aligned(tmp);
  for (std::size_t i = 0; i < B<T>::size; ++i) out[i] = std::uint8_t(tmp[i]);
}

// Even and odd bytes of each 16-bit lane as int16, without a widening load: the batch is
// reinterpreted as 16-bit lanes, then shifted (arithmetic for int8, masked for uint8).
inline B<std::int16_t> even_u8(const B<std::uint8_t>& v) {
  return xs::bitwise_cast<B<std::int16_t>>(xs::bitwise_cast<B<std::uint16_t>>(v) & B<std::uint16_t>(0x00FF));
}
inline B<std::int16_t> odd_u8(const B<std::uint8_t>& v) {
  return xs::bitwise_cast<B<std::int16_t>>(xs::bitwise_cast<B<std::uint16_t>>(v) >> 8);
}
inline B<std::int16_t> even_i8(const B<std::int8_t>& v) {
  return (xs::bitwise_cast<B<std::int16_t>>(v) << 8) >> 8;
}
inline B<std::int16_t> odd_i8(const B<std::int8_t>& v) { return xs::bitwise_cast<B<std::int16_t>>(v) >> 8; }

// Pairwise sum of int16 lanes into int32 (pmaddwd with ones), by the same even/odd split.
inline B<std::int32_t> pair_sum16(const B<std::int16_t>& p) {
  const auto q = xs::bitwise_cast<B<std::int32_t>>(p);
  return ((q << 16) >> 16) + (q >> 16);
}

// The 4-byte group dot u8 x i8 -> int32 lane, pmaddubsw semantics: the two products of a
// 16-bit lane (each fits int16: 255 x -128 = -32640) summed with int16 saturation (sadd),
// then the pairs summed into int32. Bit-exact with maddubs + madd(ones).
inline B<std::int32_t> dot4_maddubs(const B<std::uint8_t>& u, const B<std::int8_t>& w) {
  return pair_sum16(xs::sadd(even_u8(u) * even_i8(w), odd_u8(u) * odd_i8(w)));
}
// ... exact (vpdpbusd semantics): the two int16 products of a 16-bit lane go to int32
// separately, so nothing saturates.
inline B<std::int32_t> dot4_exact(const B<std::uint8_t>& u, const B<std::int8_t>& w) {
  return pair_sum16(even_u8(u) * even_i8(w)) + pair_sum16(odd_u8(u) * odd_i8(w));
}
// ... the same with u's even and odd bytes already split (an affine kernel splits each
// broadcast input chunk once for all its output batches).
inline B<std::int32_t> dot4_maddubs_split(const B<std::int16_t>& ue, const B<std::int16_t>& uo, const B<std::int8_t>& w) {
  return pair_sum16(xs::sadd(ue * even_i8(w), uo * odd_i8(w)));
}

// Indices of the non-zero T-lanes of in[0..n) (n a multiple of the batch width), ascending,
// as uint16; returns the count. No bitmask in xsimd: any() tests a whole batch, and only a
// batch with a non-zero lane is read back lane by lane.
template <class T>
inline int list_nonzero(const T* in, int n, std::uint16_t* out) {
  constexpr int W = int(B<T>::size);
  int count = 0;
  for (int i = 0; i < n; i += W) {
    const auto v = B<T>::load_unaligned(in + i);
    if (!xs::any(v != B<T>(0))) continue;
    alignas(64) T lanes[W];
    v.store_aligned(lanes);
    for (int j = 0; j < W; ++j) {
      out[count] = std::uint16_t(i + j);
      count += lanes[j] != 0;
    }
  }
  return count;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::xops
