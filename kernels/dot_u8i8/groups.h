// ISA-side helpers of dot_u8i8: the scalar form of each semantics (for tails and the scalar
// variant), unaligned vector loads/stores by width, and the loop that walks a call's groups.
//
// Included by kernels/dot_u8i8/<isa>.cpp only, after kernels/common/isa.h. Everything lands
// in that ISA's namespace, inside an anonymous namespace: a template copied out of line
// then stays local to its object and can never be the copy another ISA's code links to
// (DESIGN.md, "ISA builds").
#pragma once
#include "kernels/common/isa.h"
#include "kernels/dot_u8i8/dot_u8i8.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

using ::nnuelab::dot_u8i8::Semantics;
using ::nnuelab::dot_u8i8::Shape;

// The five pointers of a call; at(g) points them at group g.
struct Groups {
  std::int32_t* acc;
  const std::uint8_t* u;
  const std::int8_t* w;
  const std::uint8_t* u2;
  const std::int8_t* w2;
  Groups at(int g) const { return {acc + g, u + 4 * g, w + 4 * g, u2 + 4 * g, w2 + 4 * g}; }
};

// ---- one group, scalar ------------------------------------------------------------------

inline std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) + std::uint32_t(b));  // paddd: mod 2^32, no UB
}

inline std::int32_t sat16(std::int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }

// The exact 4-product sum, |sum| <= 4 * 255 * 128 = 130560.
inline std::int32_t sum4(const std::uint8_t* u, const std::int8_t* w) {
  return u[0] * w[0] + u[1] * w[1] + u[2] * w[2] + u[3] * w[3];
}

// One int16 lane of pmaddubsw: bytes 2k and 2k+1, the sum saturated.
inline std::int32_t pair(const std::uint8_t* u, const std::int8_t* w, int k) {
  return sat16(u[2 * k] * w[2 * k] + u[2 * k + 1] * w[2 * k + 1]);
}

// acc after both inputs of group p (input A = u, w first, then B = u2, w2), as the vector
// forms compute it.
template <Semantics S>
inline std::int32_t group(std::int32_t acc, const Groups& p) {
  if constexpr (S == Semantics::kDpbusd) {
    return wrap_add(wrap_add(acc, sum4(p.u, p.w)), sum4(p.u2, p.w2));
  } else if constexpr (S == Semantics::kDpbusds) {
    // vpdpbusds saturates after each instruction, so A's overflow is clipped before B.
    auto sat_add = [](std::int32_t a, std::int32_t b) {
      const std::int64_t s = std::int64_t(a) + b;
      return std::int32_t(s < INT32_MIN ? INT32_MIN : s > INT32_MAX ? INT32_MAX : s);
    };
    return sat_add(sat_add(acc, sum4(p.u, p.w)), sum4(p.u2, p.w2));
  } else if constexpr (S == Semantics::kMaddubs) {
    // madd with ones is exact; four saturated pair sums fit int32 easily.
    return wrap_add(acc, pair(p.u, p.w, 0) + pair(p.u, p.w, 1) + pair(p.u2, p.w2, 0) + pair(p.u2, p.w2, 1));
  } else if constexpr (S == Semantics::kSdot) {
    auto sdot4 = [](const std::uint8_t* u, const std::int8_t* w) {
      return std::int8_t(u[0]) * w[0] + std::int8_t(u[1]) * w[1] + std::int8_t(u[2]) * w[2] + std::int8_t(u[3]) * w[3];
    };
    return wrap_add(wrap_add(acc, sdot4(p.u, p.w)), sdot4(p.u2, p.w2));
  } else {
    // paddw of A's and B's pair sums wraps to int16 before the widening madd.
    const std::int32_t s0 = std::int16_t(std::uint16_t(pair(p.u, p.w, 0) + pair(p.u2, p.w2, 0)));
    const std::int32_t s1 = std::int16_t(std::uint16_t(pair(p.u, p.w, 1) + pair(p.u2, p.w2, 1)));
    return wrap_add(acc, s0 + s1);
  }
}

// Groups [first, last) in the scalar form of S.
template <Semantics S>
inline void scalar_groups(const Groups& p, int first, int last) {
  for (int g = first; g < last; ++g) p.acc[g] = group<S>(p.acc[g], p.at(g));
}

// The at most 3 groups [g, last) a vector kernel leaves after its xmm step. The constant
// bound lets the compiler unroll it instead of vectorising a loop that never runs long.
template <Semantics S>
inline void scalar_tail(const Groups& p, int g, int last) {
  for (int k = 0; k < 3; ++k)
    if (g + k < last) p.acc[g + k] = group<S>(p.acc[g + k], p.at(g + k));
}

// ---- vectors ---------------------------------------------------------------------------
#if NNUELAB_EMULATED || defined(__SSE2__)

// Groups (int32 lanes) per vector of type V.
template <class V>
constexpr int kLanes = int(sizeof(V) / 4);

template <class V>
V loadu(const void* p);

template <>
inline __m128i loadu<__m128i>(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void storeu(void* p, __m128i v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }

#if NNUELAB_EMULATED || defined(__AVX2__)
template <>
inline __m256i loadu<__m256i>(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline void storeu(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
#endif

#if NNUELAB_EMULATED || defined(__AVX512F__)
template <>
inline __m512i loadu<__m512i>(const void* p) { return _mm512_loadu_si512(p); }
inline void storeu(void* p, __m512i v) { _mm512_storeu_si512(p, v); }
#endif

// Applies step(p.at(g)) to whole vectors of V from group g on; returns the first group left.
// A kernel chains these from its widest vector down, so a tail costs at most one step per
// narrower width, then scalar_tail for the under 4 groups left.
template <class V, class Step>
inline int cover(const Groups& p, int g, int groups, Step step) {
  for (; g + kLanes<V> <= groups; g += kLanes<V>) step(p.at(g));
  return g;
}

// Both inputs through one vector step form `dot(acc, u, w)`, read and written at p.
template <class V, class Dot>
inline void two_inputs(const Groups& p, Dot dot) {
  V acc = loadu<V>(p.acc);
  acc = dot(acc, loadu<V>(p.u), loadu<V>(p.w));
  acc = dot(acc, loadu<V>(p.u2), loadu<V>(p.w2));
  storeu(p.acc, acc);
}

// One call of a kernel: whole vectors of each type in Widths, widest first, then the
// scalar remainder in the same semantics. step(p, V{}) does one vector of type V.
template <Semantics S, class... Widths, class Step>
inline void run_call(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                     const std::uint8_t* u2, const std::int8_t* w2, Step step) {
  const int n = s.groups;  // a local: the stores to acc could alias s.groups
  const Groups p{acc, u, w, u2, w2};
  int g = 0;
  ((g = cover<Widths>(p, g, n, [&](const Groups& q) { step(q, Widths{}); })), ...);
  scalar_tail<S>(p, g, n);
}

#endif  // vectors

}  // namespace
}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8

// Declares and defines one technique: `step` is a function template step<V>(const Groups&)
// doing one vector of V, run at the widths listed (widest first); it refuses no shape.
#define NNUELAB_DOT_U8I8_DEFINE(tech, semantics, step, ...)                                   \
  NNUELAB_DOT_U8I8_KERNEL(tech)                                                             \
  const char* tech##_supports(const Shape&) { return nullptr; }                             \
  void tech##_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w, \
                  const std::uint8_t* u2, const std::int8_t* w2) {                          \
    run_call<Semantics::semantics, __VA_ARGS__>(s, acc, u, w, u2, w2,                       \
                                                [](const Groups& q, auto v) { step<decltype(v)>(q); }); \
  }
