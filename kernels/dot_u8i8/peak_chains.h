// ISA-side loop of the peak kernels (kernels/dot_u8i8/peak.inc): kChains independent
// accumulators, each advanced once per round by the ISA's best dot sequence over
// register-resident inputs. Throughput, not latency, bounds it once kChains covers the
// sequence's latency times its issue rate (vpdpbusd: ~4-5 cycles x 2 per cycle on recent
// cores), which is why the VNNI kernels run 12 chains.
// Included by kernels/dot_u8i8/<isa>.cpp only; see groups.h for the namespace rule.
#pragma once
#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
namespace {

// Tells the compiler v may have changed, at no run-time cost (no instruction is emitted):
// each step then reads a "new" input, so it can be neither hoisted out of the loop nor
// shared between chains (maddubs+madd does not read the accumulator: without this the
// compiler computes it once per round, or once in all).
template <class V>
inline void opaque(V& v) {
#if NNUELAB_EMULATED
  asm volatile("" : "+m"(v));  // SIMDe's wide vectors are structs: keep them in memory
#else
  asm volatile("" : "+v"(v));
#endif
}

// Runs `rounds` rounds of step(acc[c], u, w) for each of kChains accumulators; returns
// the int8 MACs done (one per input byte per step).
template <int kChains, class V, class Step>
inline std::int64_t peak_chains(std::int64_t rounds, V u, V w, Step step) {
  V acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = u;
  for (std::int64_t r = 0; r < rounds; ++r) {
#pragma GCC unroll 16
    for (int c = 0; c < kChains; ++c) {
      opaque(u);
      acc[c] = step(acc[c], u, w);
    }
  }
  for (int c = 0; c < kChains; ++c) opaque(acc[c]);  // the results count as used
  return rounds * kChains * std::int64_t(sizeof(V));
}

}  // namespace
}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
