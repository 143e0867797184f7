#include "bench/peak.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "bench/harness.h"
#include "bench/pct_peak.h"
#include "kernels/dot_u8i8/registry.h"

namespace nnuelab::bench {
namespace {

using Clock = std::chrono::steady_clock;
using dot_u8i8::PeakKernel;

// Seconds of one run of `rounds` rounds; the MACs it did go to *macs.
double timed_run(const PeakKernel& k, std::int64_t rounds, std::int64_t* macs) {
  const auto t0 = Clock::now();
  *macs = k.run(rounds);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Best MAC/ns of one kernel within about `budget` seconds. Runs grow until one takes a
// millisecond (clock cost negligible; this also wakes the wide units, which some CPUs
// power down when idle), then repeat; the fastest run counts, as the least disturbed one.
// *rounds: the run length, kept between windows (0 = not grown yet).
double measure(const PeakKernel& k, double budget, std::int64_t* rounds) {
  std::int64_t macs = 0;
  if (*rounds == 0) {
    *rounds = 256;
    while (timed_run(k, *rounds, &macs) < 1e-3 && *rounds < (std::int64_t(1) << 40)) *rounds *= 2;
  }
  double best = 0;
  const auto end = Clock::now() + std::chrono::duration<double>(budget);
  do {
    const double t = timed_run(k, *rounds, &macs);
    if (t > 0) best = std::max(best, double(macs) / (t * 1e9));
  } while (Clock::now() < end);
  return best;
}

// The first window of an ISA is long (it also warms the units up); later ones are short
// and spaced, so that they sample the whole run at under 1% of its time.
constexpr double kFirstWindow = 0.05, kLaterWindow = 0.004, kSpacing = 0.5;  // seconds

struct IsaPeak {
  std::vector<const PeakKernel*> kernels;  // the ISA's native peak kernels this CPU runs
  std::vector<std::int64_t> rounds;        // per kernel, for measure()
  std::vector<double> bests;               // per window: the best rate of its kernels
  Clock::time_point last;
};

std::mutex g_mu;
std::map<std::string, IsaPeak, std::less<>> g_peaks;

void take_window(IsaPeak& p, double budget) {
  double best = 0;
  for (std::size_t i = 0; i < p.kernels.size(); ++i)
    best = std::max(best, measure(*p.kernels[i], budget / double(p.kernels.size()), &p.rounds[i]));
  p.bests.push_back(best);
  p.last = Clock::now();
}

}  // namespace

double peak_macs_per_ns(std::string_view isa) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_peaks.find(isa);
  if (it == g_peaks.end()) {
    it = g_peaks.emplace(std::string(isa), IsaPeak{}).first;
    IsaPeak& p = it->second;
    for (const PeakKernel& k : dot_u8i8::peak_kernels())
      if (k.info.isa == isa && !k.info.emulated && k.info.available()) p.kernels.push_back(&k);
    p.rounds.assign(p.kernels.size(), 0);
    if (!p.kernels.empty()) take_window(p, kFirstWindow);
  } else if (IsaPeak& p = it->second;
             !p.kernels.empty() && std::chrono::duration<double>(Clock::now() - p.last).count() >= kSpacing) {
    take_window(p, kLaterWindow);
  }
  return peak_of_windows(it->second.bests);
}

void set_pct_peak(benchmark::State& state, std::string_view isa, double macs_per_call) {
  if (const double peak = peak_macs_per_ns(peak_isa_of(isa)); peak > 0)
    state.counters["pct_peak"] =
        benchmark::Counter(pct_of_peak(macs_per_call, peak), benchmark::Counter::kIsIterationInvariantRate);
}

std::vector<PeakWindows> peak_windows() {
  std::lock_guard<std::mutex> lock(g_mu);
  std::vector<PeakWindows> out;
  for (const auto& [isa, p] : g_peaks)
    if (!p.bests.empty()) out.push_back({isa, p.bests});
  return out;
}

void register_peak_benchmarks() {
  for (const PeakKernel& k : dot_u8i8::peak_kernels()) {
    if (k.info.emulated) continue;
    const std::string name = k.info.name + "/chains" + std::to_string(k.chains) + "/dense:100";
    benchmark::internal::Benchmark* b;
    if (!k.info.available()) {
      const std::string why = "unavailable: this CPU lacks " + k.info.missing();
      b = benchmark::RegisterBenchmark(name.c_str(), [why](benchmark::State& st) {
        st.SkipWithError(why.c_str());
        for (auto _ : st) {
        }
      });
    } else {
      const PeakKernel* kp = &k;
      b = benchmark::RegisterBenchmark(name.c_str(), [kp, name](benchmark::State& st) {
        if (budget_exhausted()) {
          st.SkipWithError("time budget exhausted");
          for (auto _ : st) {
          }
          return;
        }
        constexpr std::int64_t kRounds = 1 << 14;  // tens of microseconds per call
        std::int64_t macs = 0;
        double total_macs = 0, total_ns = 0;
        timed_run(*kp, kRounds, &macs);  // warm-up
        journal_begin();
        for (auto _ : st) {
          const double s = timed_run(*kp, kRounds, &macs);
          set_iteration_time(st, s);
          total_macs += double(macs);
          total_ns += s * 1e9;
        }
        st.counters["macs"] = benchmark::Counter(double(macs), benchmark::Counter::kIsIterationInvariantRate);
        st.counters["macs_per_ns"] = benchmark::Counter(total_ns > 0 ? total_macs / total_ns : 0.0);
        journal_end(name, st, min_time(), "");  // no MinTime of its own: the command line's
      });
    }
    b->UseManualTime();
  }
}

}  // namespace nnuelab::bench
