// nnuelab_bench's command-line and progress-line helpers (bench/cli.h), the pct_peak
// counter's arithmetic (bench/pct_peak.h) and the slow-spell probe (bench/noise_probe.h).
#include "bench/cli.h"
#include "bench/noise_probe.h"
#include "bench/pct_peak.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace nnuelab::bench {
namespace {

TEST(BenchCli, BoolFlagSpellingsAsGoogleBenchmarkReadsThem) {
  for (const char* no : {"=0", "=f", "=false", "=n", "=no", "=off", "=FALSE", "=Off"}) EXPECT_FALSE(flag_is_true(no)) << no;
  for (const char* yes : {"", "=1", "=true", "=yes", "=on", "=t", "=y", "=TRUE"}) EXPECT_TRUE(flag_is_true(yes)) << yes;
}

TEST(BenchCli, ReadBoolFlagMatchesOnlyThatFlag) {
  bool v = false;
  EXPECT_TRUE(read_bool_flag("--benchmark_list_tests", "--benchmark_list_tests", &v));
  EXPECT_TRUE(v);
  // The spelling the binary's own check once took for list mode, where Google Benchmark runs.
  EXPECT_TRUE(read_bool_flag("--benchmark_list_tests=0", "--benchmark_list_tests", &v));
  EXPECT_FALSE(v);
  EXPECT_TRUE(read_bool_flag("--benchmark_list_tests=true", "--benchmark_list_tests", &v));
  EXPECT_TRUE(v);
  // Another flag, even one that begins with the name, leaves the value alone.
  EXPECT_FALSE(read_bool_flag("--benchmark_list_tests_extra=0", "--benchmark_list_tests", &v));
  EXPECT_TRUE(v);
  EXPECT_FALSE(read_bool_flag("--benchmark_filter=list", "--benchmark_list_tests", &v));
  EXPECT_TRUE(v);
  // The last occurrence wins.
  EXPECT_TRUE(read_bool_flag("--benchmark_enable_random_interleaving=true", "--benchmark_enable_random_interleaving", &v));
  EXPECT_TRUE(read_bool_flag("--benchmark_enable_random_interleaving=no", "--benchmark_enable_random_interleaving", &v));
  EXPECT_FALSE(v);
}

TEST(BenchCli, ShareOfRunsDoneInOrderIsTheShareOfBenchmarks) {
  EXPECT_DOUBLE_EQ(share_of_runs_done(0, 40, 5, false), 0.0);
  EXPECT_DOUBLE_EQ(share_of_runs_done(10, 40, 5, false), 0.25);
  EXPECT_DOUBLE_EQ(share_of_runs_done(40, 40, 5, false), 1.0);
  // One repetition: interleaving changes nothing.
  EXPECT_DOUBLE_EQ(share_of_runs_done(10, 40, 1, true), 0.25);
  // More reported than counted (cannot happen, but must not pass 1), and no benchmarks.
  EXPECT_DOUBLE_EQ(share_of_runs_done(50, 40, 5, false), 1.0);
  EXPECT_DOUBLE_EQ(share_of_runs_done(0, 0, 5, true), 1.0);
}

// Interleaved: a benchmark has finished once all its repetitions fell in the runs done. The
// expected share, simulated: 143 benchmarks x 5 repetitions (./lab targets) in an order
// drawn at random, the share of runs done at the moment the k-th benchmark finishes,
// against the formula.
TEST(BenchCli, ShareOfRunsDoneInterleavedMatchesARandomOrder) {
  const int benchmarks = 143, reps = 5, runs = benchmarks * reps;
  std::uint64_t x = 20261127;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<int> order;
  for (int b = 0; b < benchmarks; ++b)
    for (int r = 0; r < reps; ++r) order.push_back(b);
  for (int i = runs - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[std::size_t(next() % std::uint64_t(i + 1))]);
  std::vector<int> seen(benchmarks, 0);
  int finished = 0;
  double worst = 0;
  for (int i = 0; i < runs; ++i) {
    if (++seen[std::size_t(order[std::size_t(i)])] != reps) continue;
    ++finished;
    const double actual = double(i + 1) / runs;
    const double estimate = share_of_runs_done(std::size_t(finished), benchmarks, reps, true);
    // From the 5th finished benchmark on (the first few are a small sample).
    if (finished >= 5) worst = std::max(worst, std::abs(estimate - actual));
  }
  EXPECT_EQ(finished, benchmarks);
  EXPECT_LT(worst, 0.1);
  // The old estimate (finished benchmarks as the share) is far off early in such a run.
  EXPECT_GT(share_of_runs_done(5, benchmarks, reps, true), 5.0 * share_of_runs_done(5, benchmarks, reps, false));
}

TEST(BenchCli, RemainingSecondsScalesElapsedAndKeepsToTheBudget) {
  EXPECT_DOUBLE_EQ(remaining_seconds(60, 0.25, 0), 180.0);
  EXPECT_DOUBLE_EQ(remaining_seconds(60, 1.0, 0), 0.0);
  EXPECT_DOUBLE_EQ(remaining_seconds(60, 0.0, 0), 0.0);  // nothing done yet: no estimate
  EXPECT_DOUBLE_EQ(remaining_seconds(60, 0.25, 100), 40.0);
  EXPECT_DOUBLE_EQ(remaining_seconds(120, 0.25, 100), 0.0);  // past the budget
  EXPECT_DOUBLE_EQ(remaining_seconds(60, 0.5, 1000), 60.0);
}

// The journal's rule (bench/journal.h): the first repetition's runs of the body below the
// minimum time are Google Benchmark's trial runs, not results; its run at or above it, or
// at the iteration cap, is one; every later repetition is one whatever its time (it reuses
// the first's iteration count). tests/check_interrupt.py compares a whole run's journal with
// the file Google Benchmark wrote.
TEST(BenchCli, JournalTakesTheRunsGoogleBenchmarkReports) {
  EXPECT_FALSE(repetition_reported(false, 0.0099, 0.01, 1000));
  EXPECT_TRUE(repetition_reported(false, 0.01, 0.01, 1000));
  EXPECT_TRUE(repetition_reported(false, 0.5, 0.01, 1));
  EXPECT_TRUE(repetition_reported(false, 0.0, 0.01, 1000000000));
  EXPECT_FALSE(repetition_reported(false, 0.0, 0.01, 999999999));
  EXPECT_TRUE(repetition_reported(true, 0.0001, 0.01, 1000));  // a later repetition, faster than the first
}

TEST(PctPeak, IsaOfABenchmarkNameIsItsSecondField) {
  EXPECT_EQ(isa_of_benchmark("affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:15/manual_time"), "avx2");
  EXPECT_EQ(isa_of_benchmark("dot_u8i8/avx512vnni-emu/dpbusd/64/dense:100"), "avx512vnni-emu");
  EXPECT_EQ(isa_of_benchmark("affine/neon"), "neon");
  EXPECT_EQ(isa_of_benchmark("affine"), "");
  EXPECT_EQ(isa_of_benchmark(""), "");
}

TEST(PctPeak, Vbmi2IsMeasuredAgainstVnni) {
  EXPECT_EQ(peak_isa_of("avx512vbmi2"), "avx512vnni");
  for (const char* isa : {"avx2", "avx512vnni", "avxvnni", "neon", "avx512vbmi2-emu", "scalar"})
    EXPECT_EQ(peak_isa_of(isa), isa);
  // The file's context carries the same table for plots/results.py.
  EXPECT_EQ(peak_isa_of_context(), "avx512vbmi2=avx512vnni");
}

TEST(PctPeak, PercentOfAPeakPerNanosecond) {
  // 43 GMAC/s against a peak of 86 MAC/ns is half of it.
  EXPECT_DOUBLE_EQ(pct_of_peak(43e9, 86), 50.0);
  EXPECT_DOUBLE_EQ(pct_of_peak(0, 86), 0.0);
}

TEST(PctPeak, FinalPeakIsTheUpperMedianOfThreeOrMoreWindows) {
  EXPECT_EQ(peak_of_windows({}), 0.0);
  EXPECT_EQ(peak_of_windows({72.1}), 72.1);
  EXPECT_EQ(peak_of_windows({72.1, 86.0}), 86.0);  // two: the higher
  // The 2026-11-29 case: a first window in a slow spell moves nothing.
  EXPECT_EQ(peak_of_windows({72.1, 86.0, 85.8, 86.2, 85.9}), 85.9);
  // Nor does one frequency spike.
  EXPECT_EQ(peak_of_windows({85.8, 99.0, 86.0}), 86.0);
  EXPECT_EQ(peak_of_windows({85.8, 86.0, 99.0, 72.0}), 86.0);  // even count: the upper middle
}

TEST(PctPeak, FinalFigureScalesWithTheRateButTheCvDoesNot) {
  EXPECT_DOUBLE_EQ(final_pct_peak(43e9, 86, false), 50.0);
  EXPECT_DOUBLE_EQ(final_pct_peak(4.3e9, 86, false), 5.0);  // a stddev aggregate
  EXPECT_DOUBLE_EQ(final_pct_peak(0.031, 86, true), 0.031);  // a cv aggregate: the rate's own
}

TEST(NoiseProbe, SummaryEndsWithTheFastPassesAbsoluteTimes) {
  NoiseReport r;
  r.kernel = "affine/avx2/dense_blocked4";
  r.seconds = 1;
  r.samples = 800;
  r.slow_pct = 12.5;
  r.kernel_fast_ns = 200;  // 8 calls: 25 ns a call
  r.kernel_slow_ns = 300;
  r.chain_fast_ns = 1000;
  r.chain_slow_ns = 1100;
  r.longest_slow_ms = 44;
  EXPECT_EQ(noise_summary(r),
            "12.5% of 800 samples slow over 1.0 s (affine/avx2/dense_blocked4 pass 1.50x slower, register chain "
            "1.10x; longest slow stretch 44 ms); fast passes: 25.0 ns a kernel call, 1000 ns a register chain");
  // No slow pass (a state covering the whole probe reads so): the absolute times remain.
  r.slow_pct = 0;
  r.kernel_slow_ns = r.chain_slow_ns = r.longest_slow_ms = 0;
  EXPECT_EQ(noise_summary(r),
            "0.0% of 800 samples slow over 1.0 s (affine/avx2/dense_blocked4 pass); fast passes: 25.0 ns a kernel "
            "call, 1000 ns a register chain");
}

TEST(NoiseProbe, ShortProbeTimesANativeDenseKernel) {
  const auto r = probe_noise(0.02);
  if (!r) GTEST_SKIP() << "no native dense_blocked4 affine variant runs on this CPU";
  EXPECT_NE(r->kernel.find("/dense_blocked4"), std::string::npos) << r->kernel;
  EXPECT_GT(r->samples, 0);
  EXPECT_GT(r->kernel_fast_ns, 0);
  EXPECT_GT(r->chain_fast_ns, 0);
  EXPECT_GE(r->slow_pct, 0);
  EXPECT_LE(r->slow_pct, 100);
  // The fast passes are those at or under 1.4x the 10th percentile, so 90% of them at least.
  EXPECT_LE(r->slow_pct, 90);
  EXPECT_EQ(probe_noise(0), std::nullopt);
}

}  // namespace
}  // namespace nnuelab::bench
