// The pct_peak counter's arithmetic (README, "pct_peak"). Header-only and free of Google
// Benchmark, so the test suite checks it (tests/bench_cli_test.cpp).
//
// Every affine and dot_u8i8 result carries pct_peak: its MAC rate as % of the peak of its
// ISA measured in the same process (bench/peak.h). The peak is measured in windows spaced
// through the run, not once: one window of 50 ms at the first affine benchmark measured
// 72.1 MAC/ns against the peak benchmark's median of 86.0 on 2026-11-29 (a slow spell
// covering it), which put every figure of that run 19% high. So the counter a benchmark
// sets while it runs is provisional (the peak so far, shown on the console); the JSON file
// gets it again at the end of the run, from the rate counter and the run's final peak.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nnuelab::bench {

// The ISAs whose variants are measured against another ISA's peak kernels: avx512vbmi2's
// affine variants dot with vpdpbusd, so their peak is AVX512-VNNI's. Every other ISA is
// its own. The one table: the result file's context carries it (nnuelab_peak_isa_of,
// peak_isa_of_context) for plots/results.py.
inline constexpr std::pair<std::string_view, std::string_view> kPeakIsaOf[] = {{"avx512vbmi2", "avx512vnni"}};

inline std::string_view peak_isa_of(std::string_view isa) {
  for (const auto& [from, to] : kPeakIsaOf)
    if (isa == from) return to;
  return isa;
}

// kPeakIsaOf as "from=to" pairs, comma-separated ("avx512vbmi2=avx512vnni").
inline std::string peak_isa_of_context() {
  std::string out;
  for (const auto& [from, to] : kPeakIsaOf) {
    if (!out.empty()) out += ',';
    out.append(from).append("=").append(to);
  }
  return out;
}

// The <isa> field of a benchmark name "<op>/<isa>/<technique>/..." (harness.h); empty
// when the name has no second field.
inline std::string_view isa_of_benchmark(std::string_view name) {
  const std::size_t a = name.find('/');
  if (a == std::string_view::npos) return {};
  const std::size_t b = name.find('/', a + 1);
  return name.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1);
}

// A MAC rate per second as % of a peak in MACs per ns.
inline double pct_of_peak(double macs_per_s, double peak_macs_per_ns) {
  return macs_per_s * 1e-9 / peak_macs_per_ns * 100;
}

// The peak a run's counters are finally given against, from the best rates of its
// windows: their upper median once there are three or more (a window inside a slow spell
// is low, one on a frequency spike high; neither moves the median), else the higher one.
// 0 with no window.
inline double peak_of_windows(std::vector<double> bests) {
  if (bests.empty()) return 0;
  if (bests.size() < 3) return *std::max_element(bests.begin(), bests.end());
  const auto mid = bests.begin() + std::ptrdiff_t(bests.size() / 2);
  std::nth_element(bests.begin(), mid, bests.end());
  return *mid;
}

// A result's pct_peak given again against the final peak. `rate` is the result's own rate
// counter (useful_macs for affine, macs for dot_u8i8: the counter pct_peak was made from)
// of the same run or aggregate. Percentages scale with the rate in every statistic but the
// coefficient of variation, which is scale-free: a "cv" aggregate of pct_peak is the cv of
// the rate (all repetitions now share one peak).
inline double final_pct_peak(double rate, double final_peak_macs_per_ns, bool cv_aggregate) {
  return cv_aggregate ? rate : pct_of_peak(rate, final_peak_macs_per_ns);
}

}  // namespace nnuelab::bench
