#include "bench/noise_probe.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "kernels/affine/registry.h"

namespace nnuelab::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kChainSteps = 1024;

// The dense_blocked4 this CPU runs natively that comes last in registry order (the
// registry lists ISAs from baseline to widest, as active_variant assumes), or nullptr.
// Not active_variant itself: a forced variant (NNUELAB_FORCE_VARIANT) must not change
// which kernel the probe times.
const affine::Variant* pick_kernel() {
  const affine::Variant* last = nullptr;
  for (const auto& v : affine::variants())
    if (v.info.technique == "dense_blocked4" && v.info.available() && !v.info.emulated && !v.info.portable) last = &v;
  return last;
}

// Four multiply-add chains: the multiplier's latency bounds the pass, and nothing touches
// memory.
[[gnu::noinline]] std::uint64_t chain(std::uint64_t seed) {
  std::uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3;
  for (int k = 0; k < kChainSteps; ++k) {
    a = a * 0x9e3779b97f4a7c15ull + 1;
    b = b * 0xbf58476d1ce4e5b9ull + 3;
    c = c * 0x94d049bb133111ebull + 5;
    d = d * 0x2545f4914f6cdd1dull + 7;
  }
  return a ^ b ^ c ^ d;
}

double ns_since(Clock::time_point t0, Clock::time_point t1) {
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

std::optional<NoiseReport> probe_noise(double seconds) {
  const affine::Variant* kernel = pick_kernel();
  if (!kernel || !(seconds > 0)) return std::nullopt;
  const affine::Shape shape{1536, 16};
  std::mt19937 rng(20261126);
  std::vector<std::int8_t> weights(std::size_t(shape.in) * std::size_t(shape.out));
  std::vector<std::int32_t> bias(std::size_t(shape.out));
  std::vector<std::uint8_t> input(std::size_t(shape.in));
  std::vector<std::int32_t> output(std::size_t(shape.out));
  for (auto& w : weights) w = std::int8_t(int(rng() % 128) - 64);
  for (auto& b : bias) b = int(rng() % 2001) - 1000;
  for (auto& x : input) x = std::uint8_t(rng() % 128);
  const affine::Packed packed = affine::prepare(*kernel, affine::Canonical{shape, weights.data(), bias.data()});
  affine::run(*kernel, packed, input.data(), output.data());  // the checked entry once; weights and input into L1
  // Timed passes call the kernel itself, as the benchmark harness does (no per-call checks).
  const auto pass = [&] {
    for (int c = 0; c < kNoiseCalls; ++c) kernel->run(packed, input.data(), output.data());
  };
  volatile std::uint64_t sink = 1;
  std::vector<double> kernel_ns, chain_ns, at_ms;
  const Clock::time_point start = Clock::now();
  for (;;) {
    const Clock::time_point t0 = Clock::now();
    pass();
    const Clock::time_point t1 = Clock::now();
    sink = sink + chain(sink + std::uint64_t(output[0]));
    const Clock::time_point t2 = Clock::now();
    kernel_ns.push_back(ns_since(t0, t1));
    chain_ns.push_back(ns_since(t1, t2));
    at_ms.push_back(ns_since(start, t0) / 1e6);
    if (ns_since(start, t2) >= seconds * 1e9) break;
  }
  std::vector<double> sorted = kernel_ns;
  std::sort(sorted.begin(), sorted.end());
  const double threshold = 1.4 * sorted[sorted.size() / 10];
  std::vector<double> fast_kernel, slow_kernel, fast_chain, slow_chain;
  NoiseReport r;
  double spell_start = -1;
  for (std::size_t i = 0; i < kernel_ns.size(); ++i) {
    const bool slow = kernel_ns[i] > threshold;
    (slow ? slow_kernel : fast_kernel).push_back(kernel_ns[i]);
    (slow ? slow_chain : fast_chain).push_back(chain_ns[i]);
    if (slow && spell_start < 0) spell_start = at_ms[i];
    if (spell_start >= 0 && (!slow || i + 1 == kernel_ns.size())) {
      r.longest_slow_ms = std::max(r.longest_slow_ms, at_ms[i] - spell_start);
      spell_start = -1;
    }
  }
  r.kernel = kernel->info.name;
  r.seconds = seconds;
  r.samples = long(kernel_ns.size());
  r.slow_pct = 100.0 * double(slow_kernel.size()) / double(kernel_ns.size());
  r.kernel_fast_ns = median(fast_kernel);
  r.kernel_slow_ns = median(slow_kernel);
  r.chain_fast_ns = median(fast_chain);
  r.chain_slow_ns = median(slow_chain);
  return r;
}

std::string noise_summary(const NoiseReport& r) {
  char line[320];
  if (r.kernel_slow_ns > 0 && r.kernel_fast_ns > 0 && r.chain_fast_ns > 0)
    std::snprintf(line, sizeof line,
                  "%.1f%% of %ld samples slow over %.1f s (%s pass %.2fx slower, register chain %.2fx; longest slow "
                  "stretch %.0f ms)",
                  r.slow_pct, r.samples, r.seconds, r.kernel.c_str(), r.kernel_slow_ns / r.kernel_fast_ns,
                  r.chain_slow_ns / r.chain_fast_ns, r.longest_slow_ms);
  else
    std::snprintf(line, sizeof line, "%.1f%% of %ld samples slow over %.1f s (%s pass)", r.slow_pct, r.samples,
                  r.seconds, r.kernel.c_str());
  // The share of slow passes is judged against the probe's own fastest tenth, so a state
  // that slows the whole probe reads as quiet; the fast passes' absolute times let two runs
  // on one machine be compared (the kernel per call, the chain per pass).
  char times[160];
  std::snprintf(times, sizeof times, "; fast passes: %.1f ns a kernel call, %.0f ns a register chain",
                r.kernel_fast_ns / kNoiseCalls, r.chain_fast_ns);
  return std::string(line) + times;
}

}  // namespace nnuelab::bench
