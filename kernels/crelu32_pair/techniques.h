// crelu32_pair techniques over an act:: vector interface (kernels/common/activation.h):
// one packs_epi32 narrowing shared by the squared half (act::sqr_packed) and the clipped
// half (act::clip_packed). Bits = true: also writes the nnz bitset of all 2n output bytes.
#pragma once
#include "kernels/common/activation.h"
#include "kernels/common/run_many.h"
#include "kernels/crelu32_pair/crelu32_pair.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {
using namespace ::nnuelab::crelu32_pair;

// Both halves' domains: the clip after int16 saturation needs shift <= 8, the mulhi square
// also shift >= 5 (see act::clip_packed and act::sqr_packed).
template <class V>
const char* shared_packs_domain(const Shape& s) {
  if (s.n % V::kBytes)
    return V::kBytes == 16 ? "needs n % 16 == 0 (four int32x4 vectors per output vector)"
           : V::kBytes == 32 ? "needs n % 32 == 0 (four int32x8 vectors per output vector)"
                             : "needs n % 64 == 0 (four int32x16 vectors per output vector)";
  if (s.shift > 8) return "needs shift <= 8 (it saturates to int16 before shifting and squaring)";
  if (s.shift < 5) return "needs shift >= 5 (mulhi keeps x*x >> 16; 2*shift + 7 < 16 needs the low half)";
  return nullptr;
}

// shift, post: the clip's shift and the square's 2 * shift + 7 - 16, both run-time
// V::counts or both act::Imm (shared_packs_imm_run).
// Always inlined, as is shared_packs_run: the register-count loop is also the imm forms'
// fallback, and GCC had made it one shared out-of-line copy (crelu32's run_loop_by says the cost).
// InOrder = false: the *_lanes forms, without the two fix_packs32x2: each half's output
// vectors stay in the packs' per-lane order (packs32x2_lane_order, declared by the registry
// line and absorbed by the next layer's prepare), as crelu32's *_lanes forms do.
template <class V, bool Bits, bool InOrder, class Count, class PostCount>
[[gnu::always_inline]] inline void shared_packs_loop(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                     std::uint64_t* bits, Count shift, PostCount post) {
  constexpr int kLanes = V::kBytes / 4;
  const int n = s.n, vectors = act::whole_vectors_of<V>(n);
  // Two bit streams: the squared half from chunk 0, the clipped half from chunk n / 4
  // (a multiple of kBytes / 4, so pushes stay aligned). Unless n % 256 == 0 they share
  // word n / 256: the squared stream's tail is merged into the clipped stream's first word
  // (act::BitWriter::finish_merging). Up to n = 128 one word holds both (below).
  const unsigned chunks = unsigned(n) / 4;  // n >= 0 (supports): no sign fix-ups
  constexpr int kChunks = V::kBytes / 4;   // bits per output vector
  // One output vector of each half from input vector group k (stored), for the bitset.
  const auto step = [&](int k, typename V::reg& sq, typename V::reg& clip) {
    const std::int32_t* in = input + 4 * k * kLanes;
    const auto x01 = V::packs32(V::load(in), V::load(in + kLanes));  // the shared narrowing
    const auto x23 = V::packs32(V::load(in + 2 * kLanes), V::load(in + 3 * kLanes));
    sq = act::sqr_packed<V>(x01, x23, post);
    clip = act::clip_packed<V>(x01, x23, shift);
    if constexpr (InOrder) sq = V::fix_packs32x2(sq), clip = V::fix_packs32x2(clip);
    V::store(output + k * V::kBytes, sq);
    V::store(output + n + k * V::kBytes, clip);
  };
  typename V::reg sq, clip;
  if constexpr (!Bits) {
    act::for_each_vector<V>(vectors, [&](int k) { step(k, sq, clip); });  // 32: the straight path
  } else if (chunks <= 32) {
    // Up to 128 elements (Stockfish's 16 and 32) both halves fit one word (2 * n / 4 <= 64
    // bits): gathered in a register and stored once, no writers, no merge.
    std::uint64_t word = 0;
    act::for_each_vector<V>(vectors, [&](int k) {
      step(k, sq, clip);
      word |= V::nnz(sq) << (k * kChunks) | V::nnz(clip) << (chunks + unsigned(k * kChunks));
    });
    bits[0] = word;
  } else {
    const bool shared = chunks % 64 != 0;
    act::BitWriter wsqr(bits), wclip(bits, int(chunks));
    for (int k = 0; k < vectors; ++k) {
      step(k, sq, clip);
      wsqr.push(V::nnz(sq), kChunks);
      wclip.push(V::nnz(clip), kChunks);
    }
    if (shared) {
      wclip.finish_merging(wsqr.take_tail());
    } else {
      wsqr.finish();
      wclip.finish();
    }
  }
}

template <class V, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void shared_packs_run(const Shape& s, const std::int32_t* input, std::uint8_t* output,
                                                    std::uint64_t* bits) {
  shared_packs_loop<V, Bits, InOrder>(s, input, output, bits, V::shift_count(s.shift),
                                      V::shift_count(2 * s.shift + 7 - 16));
}

// Both shifts as immediates (vpsraw $s, vpsrlw $2s-9: one uop each, where the register-
// count forms are two on Intel cores, one of them on port 5 with the packs and the two
// permutes): one instantiation per shift 5..8, picked once per call. Any other shift
// (refused by supports) takes the run-time counts, so the kernel still equals shared_packs_run.
template <class V, bool Bits, bool InOrder = true>
[[gnu::always_inline]] inline void shared_packs_imm_run(const Shape& s, const std::int32_t* input,
                                                        std::uint8_t* output, std::uint64_t* bits) {
  const auto loop = [&](auto shift, auto post) NNUELAB_INLINE_LAMBDA { shared_packs_loop<V, Bits, InOrder>(s, input, output, bits, shift, post); };
  if (!act::with_imm_sqr_shifts(s.shift, loop)) shared_packs_run<V, Bits, InOrder>(s, input, output, bits);
}

// shared_packs_imm_run without the lane fix-ups (the *_lanes forms).
template <class V, bool Bits>
[[gnu::always_inline]] inline void shared_packs_imm_lanes_run(const Shape& s, const std::int32_t* input,
                                                              std::uint8_t* output, std::uint64_t* bits) {
  shared_packs_imm_run<V, Bits, false>(s, input, output, bits);
}

// The unfused baseline the shared form is measured against: what calling sqr_crelu32 and
// then crelu32 does, two passes over the input, each with its own packs_epi32 narrowing.
template <class V>
[[gnu::always_inline]] inline void separate_packs_run(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t*) {
  constexpr int kLanes = V::kBytes / 4;
  const typename V::count shift = V::shift_count(s.shift);
  const typename V::count post = V::shift_count(2 * s.shift + 7 - 16);
  const int n = s.n, vectors = act::whole_vectors_of<V>(n);
  for (int k = 0; k < vectors; ++k) {
    const std::int32_t* in = input + 4 * k * kLanes;
    const auto x01 = V::packs32(V::load(in), V::load(in + kLanes));
    const auto x23 = V::packs32(V::load(in + 2 * kLanes), V::load(in + 3 * kLanes));
    V::store(output + k * V::kBytes, V::fix_packs32x2(act::sqr_packed<V>(x01, x23, post)));
  }
  for (int k = 0; k < vectors; ++k) {
    const std::int32_t* in = input + 4 * k * kLanes;
    const auto x01 = V::packs32(V::load(in), V::load(in + kLanes));
    const auto x23 = V::packs32(V::load(in + 2 * kLanes), V::load(in + 3 * kLanes));
    V::store(output + n + k * V::kBytes, V::fix_packs32x2(act::clip_packed<V>(x01, x23, shift)));
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair

// Run is shared_packs_run (run-time shift counts) or shared_packs_imm_run (immediates); no
// cross-jumping, as in crelu32 (the 32-element path of act::for_each_vector). tech_run_many,
// the inlined form, inlines Run into the loop over calls (the immediates are still picked
// per call, one predicted compare at the nets' shift 6).
#define NNUELAB_CRELU32_PAIR_DEFINE_RUN(tech, V, Bits, Run)                                      \
  const char* tech##_supports(const Shape& s) { return shared_packs_domain<V>(s); }             \
  NNUELAB_NO_CROSSJUMPING void tech##_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) { \
    Run<V, Bits>(s, in, out, b);                                                                 \
  }                                                                                              \
  NNUELAB_NO_CROSSJUMPING void tech##_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, \
                                               std::uint64_t* b, int count) {                    \
    run_calls_with(s, in, out, b, count, std::size_t(s.n), std::size_t(2 * s.n), bitset_words_of(2 * s.n), \
                   [](const Shape& sh, const std::int32_t* i, std::uint8_t* o, std::uint64_t* bb) NNUELAB_INLINE_LAMBDA { \
                     Run<V, Bits>(sh, i, o, bb);                                                  \
                   }); \
  }
#define NNUELAB_CRELU32_PAIR_DEFINE(tech, V, Bits) NNUELAB_CRELU32_PAIR_DEFINE_RUN(tech, V, Bits, shared_packs_run)
