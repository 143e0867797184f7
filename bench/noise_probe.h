// The slow-spell probe shared by ./lab noise (tools/noise.cpp) and nnuelab_bench (one short
// probe before the run, recorded in the result's context as nnuelab_noise).
//
// A shared VM can run the same code at two speeds (docs/findings/zen3.md, "Slow spells"). The probe
// alternates two short passes on the calling thread's CPU:
// - kernel: 8 calls of the lab's own dense_blocked4 affine kernel, 1536x16, on the widest
//   native ISA this CPU runs (24 KiB of weights in L1: vector loads and multiplies, like
//   every affine kernel here);
// - chain: four independent integer multiply-add chains on registers (no memory).
// A sample is slow when its kernel pass took more than 1.4x the 10th percentile of all
// kernel passes.
#pragma once
#include <optional>
#include <string>

namespace nnuelab::bench {

inline constexpr int kNoiseCalls = 8;  // kernel calls per pass

struct NoiseReport {
  std::string kernel;    // the registry name of the kernel timed
  double seconds = 0;    // how long the probe ran
  long samples = 0;      // passes of each kind
  double slow_pct = 0;   // % of samples whose kernel pass was slow
  double kernel_fast_ns = 0, kernel_slow_ns = 0;  // median pass in fast / slow samples (0: none)
  double chain_fast_ns = 0, chain_slow_ns = 0;
  double longest_slow_ms = 0;  // the longest run of consecutive slow samples
};

// Runs the probe for `seconds` (> 0); nullopt when no native dense_blocked4 runs here.
std::optional<NoiseReport> probe_noise(double seconds);

// One line, e.g. (the Zen 5 guest, 2026-12-07): "45.1% of 332779 samples slow over 1.0 s
// (affine/avx512vnni/dense_blocked4 pass 1.57x slower, register chain 1.05x; longest slow
// stretch 22 ms); fast passes: 130.2 ns a kernel call, 1283 ns a register chain". The share
// is relative to the probe's own fastest tenth; the absolute times are what tells two runs
// on one machine apart when a slow state covers a whole probe.
std::string noise_summary(const NoiseReport& r);

}  // namespace nnuelab::bench
