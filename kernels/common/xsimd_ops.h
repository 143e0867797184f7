// Portable building blocks of the xsimd variants, over xs::batch<T, Arch> of the including
// xsimd build (kernels/common/xsimd_arch.h). Each one stands in for an operation xsimd 8.1
// lacks, in the closest portable form; the variant notes in each <op>.inc name them:
//   - no saturating narrow / pack (packs, packus): values are first brought into the target
//     range with xsimd (clip, min, max), then narrowed up to 64 lanes at a time by a
//     plain loop (Narrower, narrow_each), which the compiler vectorises with this build's
//     flags;
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

// Narrowing without a pack instruction: every lane must already be in the output type's
// range (0..255 for the activations' uint8).
//
// Batches are stored whole into an aligned block buffer, and a plain loop over the block
// narrows it; that loop covers up to 64 lanes, so GCC vectorises it into pack (or AND +
// pack) instructions of this build. Narrowing each batch on its own (4 to 16 lanes, a
// store and a byte loop per batch) is not vectorised: GCC 12 merges the byte stores into
// one 64-bit store built by a serial shift/or chain, and crelu32 of 32 on xsimd-avx2 took
// 27 ns that way, twice the scalar loop (AMD EPYC Zen 3, 2026-11-25).
// Out: the output type (uint8_t for the activations; quantize narrows int32 to int8 and
// int16 with it).
template <class T, class Out = std::uint8_t>
struct Narrower {
  static constexpr int kBlock = 64;  // lanes per block (a multiple of every batch size)
  alignas(64) T lanes[kBlock];
  void put(int j, const B<T>& v) { v.store_aligned(lanes + j); }  // lanes j .. j + size - 1
  // out[0 .. count) = the block's first `count` lanes as bytes. Every loop but the last
  // has a constant trip count, so it is vectorised with no scalar epilogue: a full block
  // takes one loop of 64 lanes; the last, partial block of a call loops of 16 lanes (one
  // xmm of bytes), then a plain loop over the rest (< 16 lanes: n % 16 != 0 only).
  void write(Out* out, int count) const {
    if (count == kBlock) {
      for (int j = 0; j < kBlock; ++j) out[j] = Out(lanes[j]);
      return;
    }
    int j = 0;
    for (; j + 16 <= count; j += 16)
      for (int k = 0; k < 16; ++k) out[j + k] = Out(lanes[j + k]);
    for (; j < count; ++j) out[j] = Out(lanes[j]);
  }
};

// The block loop over n elements (n a multiple of the batch size, which supports() checks):
// batch(i, j) for each batch, i its first element and j its lane in the current block,
// then flush(i0, count) once the block starting at element i0 holds its `count` lanes.
//
// The callables are taken by value, and their captures should be values too, except the
// Narrower blocks: a batch store goes through xsimd's may-alias vector type, after which the
// compiler reloads anything reachable from outside the function, so a shift or a pointer
// captured by reference was read again for every batch (sqr_crelu32 of 32 on xsimd-sse41:
// 293 instructions against 245 for the per-batch narrowing, until they were copied).
template <class T, class Batch, class Flush>
inline void for_blocks(int n, Batch batch, Flush flush) {
  constexpr int kBlock = Narrower<T>::kBlock, kSize = int(B<T>::size);
  for (int i0 = 0; i0 < n; i0 += kBlock) {
    const int count = n - i0 < kBlock ? n - i0 : kBlock;
    for (int j = 0; j < count; j += kSize) batch(i0 + j, j);
    flush(i0, count);
  }
}

// out[i] = the byte of element i for i < n, where batch_at(i) returns the batch of
// elements i .. i + size - 1 (lanes in 0..255). batch_at: by value, capturing values (see
// for_blocks).
template <class T, class F>
inline void narrow_each(int n, std::uint8_t* out, F batch_at) {
  Narrower<T> block;
  for_blocks<T>(
      n, [&block, batch_at](int i, int j) { block.put(j, batch_at(i)); },
      [&block, out](int i0, int count) { block.write(out + i0, count); });
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
