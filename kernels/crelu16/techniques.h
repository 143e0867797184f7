// crelu16 techniques over an act:: vector interface (kernels/common/activation.h),
// instantiated by each ISA file inside its own namespace. Bits = true: the *_bits form
// that also writes the output's nnz bitset (one bit per 4-byte chunk) as it stores.
#pragma once
#include "kernels/common/activation.h"
#include "kernels/crelu16/crelu16.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu16 {
using namespace ::nnuelab::crelu16;

// Two int16 input vectors per output vector of V::kBytes bytes.
template <class V>
const char* whole_vectors(const Shape& s) {
  if (s.n % V::kBytes == 0) return nullptr;
  return V::kBytes == 16 ? "needs n % 16 == 0 (two int16x8 vectors per output vector)"
         : V::kBytes == 32 ? "needs n % 32 == 0 (two int16x16 vectors per output vector)"
                           : "needs n % 64 == 0 (two int16x32 vectors per output vector)";
}

// Clip is the per-vector step: (packed int16 pair) -> bytes 0..127 in packs order.
// InOrder = false: the *_lanes forms, which keep that order (8-byte groups interleaved per
// 128-bit lane: packus_lane_order, declared by the registry line, absorbed by the next
// layer's prepare) instead of fix_packs16's cross-lane permute.
template <class V, class Clip, bool Bits, bool InOrder = true>
void run_loop(const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  const int vectors = act::whole_vectors_of<V>(s.n);
  act::BitWriter w(bits);
  for (int k = 0; k < vectors; ++k) {
    const auto a = V::load(input + (2 * k) * (V::kBytes / 2));
    const auto b = V::load(input + (2 * k + 1) * (V::kBytes / 2));
    auto out = Clip::template step<V>(a, b);
    if constexpr (InOrder) out = V::fix_packs16(out);
    V::store(output + k * V::kBytes, out);
    if constexpr (Bits) w.push(V::nnz(out), V::kBytes / 4);
  }
  if constexpr (Bits) w.finish();
}

// packs_epi16 saturates to -128..127, max_epi8 with 0 clips below: clamp(x, 0, 127).
struct PacksMax {
  template <class V>
  static typename V::reg step(typename V::reg a, typename V::reg b) {
    return V::max8(V::packs16(a, b), V::zero());
  }
};

// The SSE2 form (no pmaxsb): packus_epi16 saturates to 0..255 (negatives become 0), then
// min_epu8 with 127 caps above: the same clamp in two instructions.
struct PackusMin {
  template <class V>
  static typename V::reg step(typename V::reg a, typename V::reg b) {
    return V::min_epu8(V::packus16(a, b), V::set1_8(127));
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu16

// Defines <tech>_supports / <tech>_run of a registry line from a technique.
#define NNUELAB_CRELU16_DEFINE_ORDER(tech, V, Clip, Bits, InOrder)                                \
  const char* tech##_supports(const Shape& s) { return whole_vectors<V>(s); }                    \
  void tech##_run(const Shape& s, const std::int16_t* in, std::uint8_t* out, std::uint64_t* b) { \
    run_loop<V, Clip, Bits, InOrder>(s, in, out, b);                                             \
  }
#define NNUELAB_CRELU16_DEFINE(tech, V, Clip, Bits) NNUELAB_CRELU16_DEFINE_ORDER(tech, V, Clip, Bits, true)
