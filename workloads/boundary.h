// Boundary inputs, shared by the tests and the fuzzers (fuzz/): the values where a SIMD
// form can part from the reference. Each generator takes `pick(lo, hi)`, any source of
// integers in [lo, hi] (workloads::Rng in tests, the fuzzer's bytes in fuzz/), so a
// boundary the tests build by hand and one the fuzzer explores are the same code.
//
//   edges            type ends and the 127/128/255 steps of the activation domains
//   near_overflow16  int16 values a few steps from +-32767/-32768 with small same-sign
//                    addends: an int16 accumulator (ft_refresh/ft_update) wraps
//   maddubs_pairs    uint8 x int8 pairs whose two-product sum leaves int16
//                    (255*127*2 = 64770): where pmaddubsw saturates and vpdpbusd does not
//   all_ones         every bit set (uint8 255, int8/int16/int32 -1): all-ones masks,
//                    every chunk non-zero, every nnz bit set
//   tail_sizes       every length k * width + t, t = 0..width-1: each vector loop's tail
// Header-only, no ISA code: included by tests, fuzzers and benchmarks alike.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace nnuelab::workloads::boundary {

// int16 ends and halves: a sum of two of these leaves int16 (ft's wrap-around cases).
inline constexpr std::int16_t kInt16Edges[] = {32767, 32766, -32768, -32767, -1, 0, 1, 16384, -16384};
// uint8 activation steps: 127 is the ClippedReLU top, 128 the first byte maddubs reads as
// > int8, 255 the top of the byte.
inline constexpr std::uint8_t kUint8Edges[] = {0, 1, 2, 63, 64, 65, 126, 127, 128, 129, 254, 255};
inline constexpr std::int8_t kInt8Edges[] = {-128, -127, -64, -1, 0, 1, 63, 64, 126, 127};
// int16 inputs of the activations: each clamp's edges (0/127/255), the int16 ends, and
// the int8 saturation of packs (-129/-128, 127/128).
inline constexpr std::int16_t kActivation16Edges[] = {-32768, -32767, -256, -129, -128, -127, -1, 0, 1,
                                                      2,      126,    127,  128,  129,  254,  255, 256,
                                                      257,    4095,   4096, 8191, 8192, 32766, 32767};
// int32 inputs: the type ends, the int16 ends (narrowing forms saturate there), powers
// of two (the shift edges of crelu32/sqr_crelu32).
inline std::vector<std::int32_t> int32_edges() {
  std::vector<std::int32_t> v = {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::min() + 1,
                                 std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max() - 1,
                                 -32769, -32768, 32767, 32768, 65535, 65536, 0, -1, 1};
  for (int k = 0; k < 31; ++k)
    for (std::int32_t x : {(1 << k) - 1, 1 << k, -(1 << k)}) v.push_back(x);
  return v;
}

// The edge set of a type (int32: int32_edges()).
template <class T>
std::vector<T> edges() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return {std::begin(kUint8Edges), std::end(kUint8Edges)};
  else if constexpr (std::is_same_v<T, std::int8_t>) return {std::begin(kInt8Edges), std::end(kInt8Edges)};
  else if constexpr (std::is_same_v<T, std::int16_t>) return {std::begin(kActivation16Edges), std::end(kActivation16Edges)};
  else return int32_edges();
}

// out[i] drawn from `set`.
template <class T, class Pick>
void fill_from(T* out, std::size_t n, const std::vector<T>& set, Pick&& pick) {
  for (std::size_t i = 0; i < n; ++i) out[i] = set[std::size_t(pick(0, std::int64_t(set.size()) - 1))];
}

template <class T, class Pick>
void fill_edges(T* out, std::size_t n, Pick&& pick) {
  fill_from(out, n, edges<T>(), pick);
}

// int16 starts (bias, prev) within `reach` of either end, or a small addend (|x| <= reach)
// of the sign that pushes across that end: a run of these through an int16 accumulator
// wraps, which the contract (paddw/psubw) requires to be bit-exact mod 2^16.
template <class Pick>
void fill_near_overflow16(std::int16_t* out, std::size_t n, Pick&& pick, int reach = 64) {
  for (std::size_t i = 0; i < n; ++i) {
    switch (pick(0, 3)) {
      case 0: out[i] = std::int16_t(32767 - pick(0, reach)); break;
      case 1: out[i] = std::int16_t(-32768 + pick(0, reach)); break;
      case 2: out[i] = std::int16_t(pick(1, reach)); break;
      default: out[i] = std::int16_t(-pick(1, reach)); break;
    }
  }
}

// Activations u and weights w, pair by pair (bytes 2k, 2k+1): mostly pairs whose exact sum
// u0*w0 + u1*w1 leaves int16 (both u >= 128 with both w = 127, or both = -128), mixed with
// pairs just inside (u = 128 with w = -128: -32768 exactly; 127 x 127: 32258).
template <class Pick>
void fill_maddubs_pairs(std::uint8_t* u, std::int8_t* w, std::size_t n, Pick&& pick) {
  for (std::size_t i = 0; i < n; i += 2) {
    const int kind = int(pick(0, 3));
    for (std::size_t j = i; j < std::min(n, i + 2); ++j) {
      switch (kind) {
        case 0: u[j] = std::uint8_t(pick(128, 255)), w[j] = 127; break;    // > 32767: saturates high
        case 1: u[j] = std::uint8_t(pick(129, 255)), w[j] = -128; break;   // < -32768: saturates low
        case 2: u[j] = 128, w[j] = -128; break;                            // exactly -32768
        default: u[j] = 127, w[j] = std::int8_t(pick(126, 127)); break;    // just inside
      }
    }
  }
}

template <class T>
void fill_all_ones(T* out, std::size_t n) {
  std::fill_n(out, n, T(~std::make_unsigned_t<T>(0)));
}

// Every length k * width + t for k = 1..blocks and t = 0..width - 1 (then 1..width - 1 at
// k = 0): each kernel's main loop with every tail it can have.
inline std::vector<int> tail_sizes(int width, int blocks = 2) {
  std::vector<int> out;
  for (int t = 1; t < width; ++t) out.push_back(t);
  for (int k = 1; k <= blocks; ++k)
    for (int t = 0; t < width; ++t) out.push_back(k * width + t);
  return out;
}

}  // namespace nnuelab::workloads::boundary
