// ISA-side loop of the peak kernels (kernels/dot_u8i8/peak.inc): kChains independent
// accumulators, each advanced once per round by the ISA's best dot sequence over
// register-resident inputs. Throughput, not latency, bounds it once kChains covers the
// sequence's latency times its issue rate (vpdpbusd: ~4-5 cycles x 2 per cycle on recent
// cores), which is why the VNNI kernels run 12 chains.
// Included by kernels/dot_u8i8/<isa>.cpp only; see groups.h for the namespace rule.
#pragma once
#include <utility>

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
#elif defined(__aarch64__)
  asm volatile("" : "+w"(v));  // an AdvSIMD register ("v" is an x86 constraint)
#else
  asm volatile("" : "+v"(v));
#endif
}

// Runs `rounds` rounds of step(acc[c], u, w) for each of kChains accumulators; returns
// the int8 MACs done (one per input byte per step). The chains are unrolled by a fold over
// an index pack rather than a loop, so every acc[c] has a constant index from the start
// and the compiler keeps each one in a register (a loop left some of them on the stack).
template <class V, class Step, std::size_t... C>
inline std::int64_t peak_chains_unrolled(std::int64_t rounds, V u, V w, Step step, std::index_sequence<C...>) {
  V acc[sizeof...(C)];
  ((acc[C] = u), ...);
  std::int64_t r = 0;
  for (; r < rounds; ++r) ((opaque(u), acc[C] = step(acc[C], u, w)), ...);
  (opaque(acc[C]), ...);  // the results count as used
  // The rounds the loop ran, not the ones asked for: the MACs reported are the MACs done
  // (the registry test's run(1) then also pins the loop's bound).
  return r * std::int64_t(sizeof...(C) * sizeof(V));
}

template <int kChains, class V, class Step>
inline std::int64_t peak_chains(std::int64_t rounds, V u, V w, Step step) {
  return peak_chains_unrolled(rounds, u, w, step, std::make_index_sequence<kChains>{});
}

}  // namespace
}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
