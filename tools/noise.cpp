// ./lab noise [SECONDS]: does this machine have slow spells, and how slow are they?
//
// A shared VM can run the same code at two speeds: on the AMD EPYC Zen 3 VM of 2026-11-26
// the lab's dense affine kernel ran about 1.6x slower in stretches of milliseconds, while a
// chain of register-only arithmetic slowed by about 1.2x (docs/findings/zen3.md, "Slow
// spells"). Nothing in the guest causes them (a memory-heavy loop on the other vCPU did not change their
// share), so a benchmark median on such a machine mixes two speeds.
//
// The probe (bench/noise_probe.h) alternates a pass of 8 dense_blocked4 calls with a
// register-only chain for SECONDS (default 10) and prints the share of slow samples, each
// pass's median in fast and in slow samples, and the longest slow stretch. Run it pinned
// (./lab noise pins it to CPU 1, as the benchmarks are).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>

#include "bench/noise_probe.h"
#include "tools/args.h"

int main(int argc, char** argv) {
  double seconds = 10;
  const auto read = [&] {
    if (argc > 2) throw std::invalid_argument("one argument at most");
    if (argc == 2) seconds = nnuelab::tools::real_number("SECONDS", argv[1], 0, 3600);
  };
  if (!nnuelab::tools::read_or_say("nnuelab_noise", read, "usage: nnuelab_noise [SECONDS], default 10")) return 2;
  try {
    const auto r = nnuelab::bench::probe_noise(seconds);
    if (!r) {
      std::fprintf(stderr, "nnuelab_noise: no native dense_blocked4 affine variant runs on this CPU\n");
      return 1;
    }
    std::printf("noise: %ld samples over %.1f s; slow (kernel pass > 1.4x its 10th percentile): %.1f%%\n", r->samples,
                r->seconds, r->slow_pct);
    std::printf("  kernel pass (%d calls of %s 1536x16): fast %.0f ns (%.1f ns a call)", nnuelab::bench::kNoiseCalls,
                r->kernel.c_str(), r->kernel_fast_ns, r->kernel_fast_ns / nnuelab::bench::kNoiseCalls);
    if (r->kernel_slow_ns > 0)
      std::printf(", slow %.0f ns (%.2fx)", r->kernel_slow_ns, r->kernel_slow_ns / r->kernel_fast_ns);
    std::printf("\n  chain pass (registers only): fast %.0f ns", r->chain_fast_ns);
    if (r->chain_slow_ns > 0)
      std::printf(", slow %.0f ns (%.2fx)", r->chain_slow_ns, r->chain_slow_ns / r->chain_fast_ns);
    std::printf("\n  longest slow stretch: %.0f ms\n", r->longest_slow_ms);
    if (r->slow_pct >= 5)
      std::printf("  this machine has slow spells: medians mix two speeds; compare variants within one interleaved "
                  "run, and see the min column of ./lab bench --repetitions N\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_noise: %s\n", e.what());
    return 1;
  }
  return 0;
}
