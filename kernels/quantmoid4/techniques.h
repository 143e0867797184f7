// quantmoid4 techniques over an act:: vector interface (kernels/common/activation.h),
// instantiated by each ISA file inside its own namespace. Bits = true: the *_bits form
// that also writes the output's nnz bitset (one bit per 4-byte chunk) as it stores.
//
// Both techniques share the half-curve m = (d * d) >> 8 with d = 127 - min(|x|, 127):
//   d = subs_epu16(127, abs_epi16(x))  abs(-32768) is 0x8000 = 32768 read unsigned, so the
//                                      saturating subtraction gives 0 for it as for every
//                                      |x| >= 127
//   m = mulhi_epi16(d << 4, d << 4)    (256 d^2) >> 16 = d^2 >> 8 exactly; d << 4 <= 2032
//                                      keeps the product positive and the high half <= 63
//   m8 = packs_epi16(m0, m1)           0..63, never saturates
// and differ in how the branch (x < 0 ? m : 126 - m) is taken. The sign of x survives
// packs_epi16(x0, x1) (saturation keeps the sign and keeps 0 at 0), so the packed input
// bytes steer the byte-level choice without unpacking.
#pragma once
#include "kernels/common/activation.h"
#include "kernels/quantmoid4/quantmoid4.h"

namespace nnuelab::NNUELAB_ISA_NS::quantmoid4 {
using namespace ::nnuelab::quantmoid4;

template <class V>
const char* whole_vectors(const Shape& s) {
  if (s.n % V::kBytes == 0) return nullptr;
  return V::kBytes == 16 ? "needs n % 16 == 0 (two int16x8 vectors per output vector)"
         : V::kBytes == 32 ? "needs n % 32 == 0 (two int16x16 vectors per output vector)"
                           : "needs n % 64 == 0 (two int16x32 vectors per output vector)";
}

template <class V>
inline typename V::reg half_curve(typename V::reg x, typename V::count four) {
  const auto d = V::subs_epu16(V::set1_16(127), V::abs16(x));
  const auto d16 = V::sll16(d, four);
  return V::mulhi16(d16, d16);
}

// The seed's formulation (nnue-pytorch): blendv picks m where the packed sign byte is
// negative, else subs_epi8(126, m) (126 - m >= 63, never saturates). AVX-512 has no
// vpblendvb: X512::blend_neg8 turns the sign bytes into a mask (vpmovb2m) and blends.
struct Blend {
  template <class V>
  static typename V::reg step(typename V::reg m8, typename V::reg sign) {
    return V::blend_neg8(V::subs8(V::set1_8(126), m8), m8, sign);
  }
};

// The sign formulation, with no blend: out = 63 + sign(x) * (63 - m), psignb applying
// sign(x) from the packed sign bytes. For x > 0 it is 126 - m, for x < 0 it is m, and for
// x = 0 psignb gives 0 while 63 - m = 0 anyway (d = 127, m = 63): 63 either way. All
// values stay in 0..126, no wrap. Needs SSSE3 only (no SSE4.1 pblendvb), and on cores
// where pblendvb is two uops it trades it for single-uop psignb + paddb.
struct Sign {
  template <class V>
  static typename V::reg step(typename V::reg m8, typename V::reg sign) {
    const auto k63 = V::set1_8(63);
    return V::add8(k63, V::sign8(V::sub8(k63, m8), sign));
  }
};

template <class V, class Tech, bool Bits>
void run_loop(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  constexpr int kHalf = V::kBytes / 2;  // int16 per input vector
  const typename V::count four = V::shift_count(4);
  const int vectors = act::whole_vectors_of<V>(s.n);
  act::BitWriter w(bits);
  for (int k = 0; k < vectors; ++k) {
    const auto x0 = V::load(input + 2 * k * kHalf);
    const auto x1 = V::load(input + (2 * k + 1) * kHalf);
    const auto m8 = V::packs16(half_curve<V>(x0, four), half_curve<V>(x1, four));
    const auto sign = V::packs16(x0, x1);  // same lane interleave as m8
    const auto out = V::fix_packs16(Tech::template step<V>(m8, sign));
    V::store(output + k * V::kBytes, out);
    if constexpr (Bits) w.push(V::nnz(out), V::kBytes / 4);
  }
  if constexpr (Bits) w.finish();
}

}  // namespace nnuelab::NNUELAB_ISA_NS::quantmoid4

#define NNUELAB_QUANTMOID4_DEFINE(tech, V, Tech, Bits)                                           \
  const char* tech##_supports(const Shape& s) { return whole_vectors<V>(s); }                   \
  void tech##_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) { \
    run_loop<V, Tech, Bits>(s, in, out, b);                                                      \
  }
