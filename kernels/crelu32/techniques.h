// crelu32 techniques over an act:: vector interface (kernels/common/activation.h),
// instantiated by each ISA file inside its own namespace. Bits = true: the *_bits form
// that also writes the output's nnz bitset (one bit per 4-byte chunk) as it stores.
#pragma once
#include "kernels/common/activation.h"
#include "kernels/common/run_many.h"
#include "kernels/crelu32/crelu32.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {
using namespace ::nnuelab::crelu32;

// Four int32 input vectors per output vector of V::kBytes bytes.
template <class V>
const char* whole_vectors(const Shape& s) {
  if (s.n % V::kBytes == 0) return nullptr;
  return V::kBytes == 16 ? "needs n % 16 == 0 (four int32x4 vectors per output vector)"
         : V::kBytes == 32 ? "needs n % 32 == 0 (four int32x8 vectors per output vector)"
                           : "needs n % 64 == 0 (four int32x16 vectors per output vector)";
}

// The packs-before-shift forms (PacksMax, PacksAddsSubs): packs_epi32 saturates to int16
// before the shift. For x > 32767 the result is 32767 >> s, which still clamps to 127 only
// while 32767 >> s >= 127, i.e. s <= 8.
template <class V>
const char* packs_domain(const Shape& s) {
  if (const char* r = whole_vectors<V>(s)) return r;
  return s.shift > 8 ? "needs shift <= 8 (it saturates to int16 before shifting)" : nullptr;
}

// `shift`: a run-time V::count, or an act::Imm<S> (run_loop_imm). Always inlined, as is
// run_loop: the register-count loop is also the imm forms' fallback, and GCC made it one
// shared out-of-line copy, a jump and the shape's reloads per call (+2 to +5 instructions
// of 69 at 32 elements).
// InOrder = false: the *_lanes forms, which skip fix_packs32x2 and leave every output
// vector in the packs' per-128-bit-lane order (4-byte chunk k of the vector holds input
// vector k % 4's lane k / 4: packs32x2_lane_order in kernels/common/lane_order.h, declared
// by the registry line, absorbed by the next layer's prepare). Chunks move whole, so the
// bitset is simply that of the bytes as stored.
template <class V, class Tech, bool Bits, bool InOrder, class Count>
[[gnu::always_inline]] inline void run_loop_by(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                               std::uint64_t* bits, Count shift) {
  constexpr int kLanes = V::kBytes / 4;  // int32 per input vector
  const int vectors = act::whole_vectors_of<V>(s.n);
  act::BitWriter w(bits);
  const auto one = [&](int k) {
    const std::int32_t* in = input + 4 * k * kLanes;
    auto out = Tech::template step<V>(V::load(in), V::load(in + kLanes), V::load(in + 2 * kLanes), V::load(in + 3 * kLanes), shift);
    if constexpr (InOrder) out = V::fix_packs32x2(out);
    V::store(output + k * V::kBytes, out);
    if constexpr (Bits) w.push(V::nnz(out), V::kBytes / 4);
  };
  act::for_each_vector<V>(vectors, one);  // 32 elements: the straight path
  if constexpr (Bits) w.finish();
}

template <class V, class Tech, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void run_loop(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                            std::uint64_t* bits) {
  run_loop_by<V, Tech, Bits, InOrder>(s, input, output, bits, V::shift_count(s.shift));
}

// The same loop with the shift as an immediate: one instantiation per shift 0..8 (the
// packs domain), picked once per call. A shift outside it (refused by supports; only a
// raw call gets here) takes the run-time count, so the kernel still equals run_loop.
template <class V, class Tech, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void run_loop_imm(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t* bits) {
  if (!act::with_imm_shift8(s.shift, [&](auto imm) NNUELAB_INLINE_LAMBDA { run_loop_by<V, Tech, Bits, InOrder>(s, input, output, bits, imm); }))
    run_loop<V, Tech, Bits, InOrder>(s, input, output, bits);
}

// run_loop_imm without the lane fix-up (the *_lanes forms; see run_loop_by).
template <class V, class Tech, bool Bits>
[[gnu::always_inline]] inline void run_loop_imm_lanes(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                      std::uint64_t* bits) {
  run_loop_imm<V, Tech, Bits, false>(s, input, output, bits);
}

// The inlined forms (tech_run_many): `count` calls of run_loop_by back to back, with the
// shift's count or immediate taken once for all of them (as in an engine, where the shift
// is a compile-time constant of the inlined layer). The shape is copied to a local: the
// uint8 stores cannot alias it, so n and the vector count stay in registers.
template <class V, class Tech, bool Bits, bool InOrder, class Count>
[[gnu::always_inline]] inline void run_calls_by(const Shape& shape, const std::int32_t* input, std::uint8_t* output,
                                                std::uint64_t* bits, int count, Count shift) {
  const Shape s = shape;
  const std::size_t n = std::size_t(s.n), words = bitset_words_of(s.n);
  for (int c = 0; c < count; ++c)
    run_loop_by<V, Tech, Bits, InOrder>(s, input + c * n, output + c * n, Bits ? bits + c * words : nullptr, shift);
}
template <class V, class Tech, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void run_loop_many(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                 std::uint64_t* bits, int count) {
  run_calls_by<V, Tech, Bits, InOrder>(s, input, output, bits, count, V::shift_count(s.shift));
}
template <class V, class Tech, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void run_loop_imm_many(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                     std::uint64_t* bits, int count) {
  if (!act::with_imm_shift8(s.shift, [&](auto imm) NNUELAB_INLINE_LAMBDA { run_calls_by<V, Tech, Bits, InOrder>(s, input, output, bits, count, imm); }))
    run_loop_many<V, Tech, Bits, InOrder>(s, input, output, bits, count);
}
template <class V, class Tech, bool Bits>
[[gnu::always_inline]] inline void run_loop_imm_lanes_many(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                           std::uint64_t* bits, int count) {
  run_loop_imm_many<V, Tech, Bits, false>(s, input, output, bits, count);
}

// The production form: packs_epi32 to int16, srai_epi16, packs_epi16, max_epi8 with 0.
struct PacksMax {
  template <class V, class Count>
  static typename V::reg step(typename V::reg a, typename V::reg b, typename V::reg c, typename V::reg d, Count shift) {
    return act::clip_packed<V>(V::packs32(a, b), V::packs32(c, d), shift);
  }
};

// SSE2 (no pmaxsb): the same narrowing, the clip at 0 by adds/subs saturation.
struct PacksAddsSubs {
  template <class V, class Count>
  static typename V::reg step(typename V::reg a, typename V::reg b, typename V::reg c, typename V::reg d, Count shift) {
    return act::clip_packed_addsubs<V>(V::packs32(a, b), V::packs32(c, d), shift);
  }
};

// The SSE4.1 packus form: packus_epi32 saturates to uint16 0..65535, so every negative x
// (whose floor shift is negative, clipped to 0) becomes 0 at once; a logical shift, then
// min_epu16 with 127 caps (values up to 65535 >> s would read as negative int16 in the
// following pack), and packus_epi16 narrows 0..127 exactly. For x > 65535 the result is
// 65535 >> s, still >= 127 while s <= 9: one shift more than the packs form allows.
template <class V>
const char* packus_domain(const Shape& s) {
  if (const char* r = whole_vectors<V>(s)) return r;
  return s.shift > 9 ? "needs shift <= 9 (it saturates to uint16 before shifting)" : nullptr;
}
struct PackusMin {
  template <class V, class Count>
  static typename V::reg step(typename V::reg a, typename V::reg b, typename V::reg c, typename V::reg d, Count shift) {
    const auto k127 = V::set1_16(127);
    const auto x01 = V::min_epu16(V::srl16(V::packus32(a, b), shift), k127);
    const auto x23 = V::min_epu16(V::srl16(V::packus32(c, d), shift), k127);
    return V::packus16(x01, x23);
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32

// Defines <tech>_supports / <tech>_run / <tech>_run_many of a registry line from a technique
// and its domain; Loop is run_loop (run-time shift count), run_loop_imm (immediate shift)
// or run_loop_imm_lanes, and Loop##_many its inlined form. No
// cross-jumping (NNUELAB_NO_CROSSJUMPING): GCC otherwise merged the nine imm
// instantiations' identical tails, and the 32-element path (act::for_each_vector) took two
// more taken jumps (*_lanes at 32: 2.24 against 1.83 ns).
#define NNUELAB_CRELU32_DEFINE_LOOP(tech, V, Tech, Domain, Bits, Loop)                           \
  const char* tech##_supports(const Shape& s) { return Domain<V>(s); }                          \
  NNUELAB_NO_CROSSJUMPING void tech##_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) { \
    Loop<V, Tech, Bits>(s, in, out, b);                                                          \
  }                                                                                              \
  NNUELAB_NO_CROSSJUMPING void tech##_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, \
                                               std::uint64_t* b, int count) {                    \
    Loop##_many<V, Tech, Bits>(s, in, out, b, count);                                            \
  }
#define NNUELAB_CRELU32_DEFINE(tech, V, Tech, Domain, Bits) NNUELAB_CRELU32_DEFINE_LOOP(tech, V, Tech, Domain, Bits, run_loop)
