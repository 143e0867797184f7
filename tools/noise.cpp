// ./lab noise [SECONDS]: does this machine have slow spells, and how slow are they?
//
// A shared VM can run the same code at two speeds: on the AMD EPYC Zen 3 VM of 2026-11-26
// a loop of L1 loads ran about 2x slower in stretches of tens of milliseconds to seconds,
// while a chain of register-only arithmetic slowed by only 10-30% (README, "Slow
// spells"). Nothing in the guest causes them (a memory-heavy loop on the other vCPU did
// not change their share), so a benchmark median on such a machine mixes two speeds.
//
// This probe alternates two short passes for SECONDS (default 10) on the CPU it runs on:
// - kernel: 8 calls of the lab's own dense_blocked4 affine kernel, 1536x16, on the widest
//   native ISA this CPU runs (24 KiB of weights in L1: vector loads and multiplies, like
//   every affine kernel here);
// - chain: four independent integer multiply-add chains on registers (no memory).
// A sample is "slow" when its kernel pass took more than 1.4x the 10th percentile of all
// kernel passes. It prints the share of slow samples, each pass's median in fast and in
// slow samples, and the longest slow stretch. Run it pinned (./lab noise pins it to CPU 1,
// as the benchmarks are).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "kernels/affine/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kCalls = 8;        // kernel calls per pass
constexpr int kChainSteps = 1024;

// The widest native ISA's dense_blocked4 this CPU runs, or nullptr.
const nnuelab::affine::Variant* pick_kernel() {
  static const char* const kOrder[] = {"avx512vnni", "avxvnni", "avx512bw", "avx2", "ssse3", "neon-dotprod", "neon"};
  for (const char* isa : kOrder)
    for (const auto& v : nnuelab::affine::variants())
      if (v.info.isa == isa && v.info.name == "affine/" + std::string(isa) + "/dense_blocked4" && v.info.available())
        return &v;
  return nullptr;
}

// Four multiply-add chains: the multiplier bounds the pass, and nothing touches memory.
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

int main(int argc, char** argv) {
  double seconds = 10;
  if (argc > 2 || (argc == 2 && ((seconds = std::atof(argv[1])) <= 0 || seconds > 3600))) {
    std::fprintf(stderr, "usage: nnuelab_noise [SECONDS]  (0 < SECONDS <= 3600, default 10)\n");
    return 2;
  }
  const nnuelab::affine::Variant* kernel = pick_kernel();
  if (!kernel) {
    std::fprintf(stderr, "nnuelab_noise: no native dense_blocked4 affine variant runs on this CPU\n");
    return 1;
  }
  const nnuelab::affine::Shape shape{1536, 16};
  std::mt19937 rng(20261126);
  std::vector<std::int8_t> weights(std::size_t(shape.in) * std::size_t(shape.out));
  std::vector<std::int32_t> bias(std::size_t(shape.out));
  std::vector<std::uint8_t> input(std::size_t(shape.in));
  std::vector<std::int32_t> output(std::size_t(shape.out));
  for (auto& w : weights) w = std::int8_t(int(rng() % 128) - 64);
  for (auto& b : bias) b = int(rng() % 2001) - 1000;
  for (auto& x : input) x = std::uint8_t(rng() % 128);
  nnuelab::affine::Packed packed;
  try {
    packed = nnuelab::affine::prepare(*kernel, nnuelab::affine::Canonical{shape, weights.data(), bias.data()});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_noise: %s\n", e.what());
    return 1;
  }
  const auto pass = [&] {
    for (int c = 0; c < kCalls; ++c) kernel->run(packed, input.data(), output.data());
  };
  pass();  // weights and input into L1
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
  double longest_ms = 0, spell_start = -1;
  for (std::size_t i = 0; i < kernel_ns.size(); ++i) {
    const bool slow = kernel_ns[i] > threshold;
    (slow ? slow_kernel : fast_kernel).push_back(kernel_ns[i]);
    (slow ? slow_chain : fast_chain).push_back(chain_ns[i]);
    if (slow && spell_start < 0) spell_start = at_ms[i];
    if (spell_start >= 0 && (!slow || i + 1 == kernel_ns.size())) {
      longest_ms = std::max(longest_ms, at_ms[i] - spell_start);
      spell_start = -1;
    }
  }
  const std::size_t n = kernel_ns.size();
  const double share = 100.0 * double(slow_kernel.size()) / double(n);
  std::printf("noise: %zu samples over %.1f s; slow (kernel pass > 1.4x its 10th percentile): %.1f%%\n", n, seconds,
              share);
  std::printf("  kernel pass (%d calls of %s 1536x16): fast %.0f ns", kCalls, kernel->info.name.c_str(),
              median(fast_kernel));
  if (!slow_kernel.empty())
    std::printf(", slow %.0f ns (%.2fx)", median(slow_kernel), median(slow_kernel) / median(fast_kernel));
  std::printf("\n  chain pass (registers only): fast %.0f ns", median(fast_chain));
  if (!slow_chain.empty())
    std::printf(", slow %.0f ns (%.2fx)", median(slow_chain), median(slow_chain) / median(fast_chain));
  std::printf("\n  longest slow stretch: %.0f ms\n", longest_ms);
  if (share >= 5)
    std::printf("  this machine has slow spells: medians mix two speeds; compare variants within one interleaved "
                "run, and see the min column of ./lab bench --repetitions N\n");
  return 0;
}
