// sqr_crelu32 techniques over an act:: vector interface (kernels/common/activation.h),
// instantiated by each ISA file inside its own namespace. Bits = true: the *_bits form
// that also writes the output's nnz bitset (one bit per 4-byte chunk) as it stores.
#pragma once
#include "kernels/common/activation.h"
#include "kernels/common/run_many.h"
#include "kernels/sqr_crelu32/sqr_crelu32.h"

namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32 {
using namespace ::nnuelab::sqr_crelu32;

// The packs + mulhi form (act::sqr_packed): narrow to int16 with saturation, square with
// mulhi_epi16 (the high 16 bits of x*x), shift the rest. Exact for every int32 input only
// for 5 <= shift <= 8: below 5 the total shift 2s + 7 is < 16 and the bits it keeps are in
// the low half that mulhi drops; above 8 a large |x| narrowed to 32767 can square to less
// than 127 (reference/sqr_crelu32.h).
template <class V>
const char* packs_mulhi_domain(const Shape& s) {
  if (s.n % V::kBytes)
    return V::kBytes == 16 ? "needs n % 16 == 0 (four int32x4 vectors per output vector)"
           : V::kBytes == 32 ? "needs n % 32 == 0 (four int32x8 vectors per output vector)"
                             : "needs n % 64 == 0 (four int32x16 vectors per output vector)";
  if (s.shift > 8) return "needs shift <= 8 (it saturates to int16 before squaring)";
  if (s.shift < 5) return "needs shift >= 5 (mulhi keeps x*x >> 16; 2*shift + 7 < 16 needs the low half)";
  return nullptr;
}

// `post`: the shift after mulhi, 2 * shift + 7 - 16: a run-time V::count, or an act::Imm.
// Always inlined, as is packs_mulhi_run: the register-count loop is also the imm forms'
// fallback, and GCC had made it one shared out-of-line copy (crelu32's run_loop_by says the cost).
// InOrder = false: the *_lanes forms, without fix_packs32x2 (packs32x2_lane_order, declared
// by the registry line and absorbed by the next layer's prepare), as in crelu32.
template <class V, bool Bits, bool InOrder, class Count>
[[gnu::always_inline]] inline void packs_mulhi_loop(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                    std::uint64_t* bits, Count post) {
  constexpr int kLanes = V::kBytes / 4;
  const int vectors = act::whole_vectors_of<V>(s.n);
  act::BitWriter w(bits);
  act::for_each_vector<V>(vectors, [&](int k) {  // 32 elements: the straight path
    const std::int32_t* in = input + 4 * k * kLanes;
    const auto x01 = V::packs32(V::load(in), V::load(in + kLanes));
    const auto x23 = V::packs32(V::load(in + 2 * kLanes), V::load(in + 3 * kLanes));
    auto out = act::sqr_packed<V>(x01, x23, post);
    if constexpr (InOrder) out = V::fix_packs32x2(out);
    V::store(output + k * V::kBytes, out);
    if constexpr (Bits) w.push(V::nnz(out), V::kBytes / 4);
  });
  if constexpr (Bits) w.finish();
}

template <class V, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void packs_mulhi_run(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                   std::uint64_t* bits) {
  packs_mulhi_loop<V, Bits, InOrder>(s, input, output, bits, V::shift_count(2 * s.shift + 7 - 16));
}

// The same loop with the post shift as an immediate (vpsrlw $p: one uop, where vpsrlw %xmm
// is two on Intel cores, one of them on port 5 with the packs and the permute): one
// instantiation per shift 5..8, picked once per call (act::with_imm_sqr_shifts). Any other
// shift (refused by supports; only a raw call gets here) takes the run-time count, so the
// kernel still equals packs_mulhi_run.
template <class V, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void packs_mulhi_imm_run(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                       std::uint64_t* bits) {
  const auto loop = [&](auto, auto post) NNUELAB_INLINE_LAMBDA { packs_mulhi_loop<V, Bits, InOrder>(s, input, output, bits, post); };
  if (!act::with_imm_sqr_shifts(s.shift, loop)) packs_mulhi_run<V, Bits, InOrder>(s, input, output, bits);
}

// packs_mulhi_imm_run without the lane fix-up (the *_lanes forms).
template <class V, bool Bits>
[[gnu::always_inline]] inline void packs_mulhi_imm_lanes_run(const Shape& s, const std::int32_t* input,
                                                             std::uint8_t* output, std::uint64_t* bits) {
  packs_mulhi_imm_run<V, Bits, false>(s, input, output, bits);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::sqr_crelu32

// Run is packs_mulhi_run (run-time post shift) or packs_mulhi_imm_run (immediate); no
// cross-jumping, as in crelu32 (the 32-element path of act::for_each_vector). tech_run_many,
// the inlined form, inlines Run into the loop over calls (the immediate is still picked
// per call, one predicted compare at the nets' shift 6).
#define NNUELAB_SQR_CRELU32_DEFINE_RUN(tech, V, Bits, Run)                                       \
  const char* tech##_supports(const Shape& s) { return packs_mulhi_domain<V>(s); }              \
  NNUELAB_NO_CROSSJUMPING void tech##_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) { \
    Run<V, Bits>(s, in, out, b);                                                                 \
  }                                                                                              \
  NNUELAB_NO_CROSSJUMPING void tech##_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, \
                                               std::uint64_t* b, int count) {                    \
    run_calls_with(s, in, out, b, count, std::size_t(s.n), std::size_t(s.n), bitset_words_of(s.n), \
                   [](const Shape& sh, const std::int32_t* i, std::uint8_t* o, std::uint64_t* bb) NNUELAB_INLINE_LAMBDA { \
                     Run<V, Bits>(sh, i, o, bb);                                                  \
                   }); \
  }
#define NNUELAB_SQR_CRELU32_DEFINE(tech, V, Bits) NNUELAB_SQR_CRELU32_DEFINE_RUN(tech, V, Bits, packs_mulhi_run)
