#include "bench/peak.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "bench/harness.h"
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
double measure(const PeakKernel& k, double budget) {
  std::int64_t rounds = 256, macs = 0;
  double t = timed_run(k, rounds, &macs);
  while (t < 1e-3 && rounds < (std::int64_t(1) << 40)) t = timed_run(k, rounds *= 2, &macs);
  double best = 0;
  const auto end = Clock::now() + std::chrono::duration<double>(budget);
  do {
    t = timed_run(k, rounds, &macs);
    if (t > 0) best = std::max(best, double(macs) / (t * 1e9));
  } while (Clock::now() < end);
  return best;
}

}  // namespace

double peak_macs_per_ns(std::string_view isa) {
  static std::mutex mu;
  static std::map<std::string, double, std::less<>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(isa); it != cache.end()) return it->second;
  std::vector<const PeakKernel*> runnable;
  for (const PeakKernel& k : dot_u8i8::peak_kernels())
    if (k.info.isa == isa && !k.info.emulated && k.info.available()) runnable.push_back(&k);
  double best = 0;
  for (const PeakKernel* k : runnable) best = std::max(best, measure(*k, 0.05 / double(runnable.size())));
  cache.emplace(std::string(isa), best);
  return best;
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
      b = benchmark::RegisterBenchmark(name.c_str(), [kp](benchmark::State& st) {
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
        for (auto _ : st) {
          const double s = timed_run(*kp, kRounds, &macs);
          st.SetIterationTime(s);
          total_macs += double(macs);
          total_ns += s * 1e9;
        }
        st.counters["macs"] = benchmark::Counter(double(macs), benchmark::Counter::kIsIterationInvariantRate);
        st.counters["macs_per_ns"] = benchmark::Counter(total_ns > 0 ? total_macs / total_ns : 0.0);
      });
    }
    b->UseManualTime();
  }
}

}  // namespace nnuelab::bench
