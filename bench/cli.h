// Pure helpers of nnuelab_bench's command line and progress line. Header-only and free of
// Google Benchmark, so the test suite checks them (tests/bench_cli_test.cpp).
#pragma once
#include <strings.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nnuelab::bench {

// A boolean Google Benchmark flag's value, given what follows its name: nothing or "=X",
// false for X one of its false spellings (0, f, false, n, no, off; any case), true for
// any other X.
inline bool flag_is_true(const char* rest) {
  if (*rest == '\0') return true;
  if (*rest != '=') return false;
  for (const char* no : {"0", "f", "false", "n", "no", "off"})
    if (strcasecmp(rest + 1, no) == 0) return false;
  return true;
}

// If `arg` is the boolean flag `name` ("--benchmark_list_tests", alone or with "=X"),
// stores its value in *value and returns true; else (another flag, also one that only
// begins with `name`) leaves *value as it was and returns false. The last occurrence of a
// flag wins, as in Google Benchmark.
inline bool read_bool_flag(const char* arg, const char* name, bool* value) {
  const std::size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || (arg[n] != '\0' && arg[n] != '=')) return false;
  *value = flag_is_true(arg + n);
  return true;
}

// The share of all runs done when `done` of `total` benchmarks have finished all their
// `reps` repetitions. In order (no interleaving) that is done / total. Interleaved at
// random, a benchmark finishes with its last repetition, so after a share f of the runs
// about f^reps of the benchmarks have finished (each of its repetitions fell in the first
// f): f = (done / total)^(1 / reps). Counting finished benchmarks as work done instead put
// `./lab targets` (143 benchmarks x 5 repetitions) at "remaining ~9h36m" after 4 minutes
// of a 15-minute run. Assumes benchmarks of about equal run time.
inline double share_of_runs_done(std::size_t done, std::size_t total, std::int64_t reps, bool interleaved) {
  if (total == 0) return 1;
  const double benchmarks = double(std::min(done, total)) / double(total);
  return interleaved && reps > 1 ? std::pow(benchmarks, 1.0 / double(reps)) : benchmarks;
}

// Seconds left when `elapsed` seconds ran a share `share` of the work (0 before any is
// done: nothing to scale), capped at what a budget (> 0) leaves.
inline double remaining_seconds(double elapsed, double share, double budget) {
  double remaining = share > 0 ? elapsed * (1 - share) / share : 0;
  if (budget > 0) remaining = std::max(0.0, std::min(remaining, budget - elapsed));
  return remaining;
}

// Whether Google Benchmark reports the run of a benchmark's body that just ended as a
// repetition (bench/journal.h writes a journal line for exactly those). The first
// repetition runs the body with growing iteration counts and reports the run whose manual
// time reached the minimum time, or whose iterations reached its cap (kMaxIterations, 1e9);
// every later repetition runs that iteration count once and is reported whatever its time.
inline bool repetition_reported(bool first_repetition_done, double seconds, double min_time, std::int64_t iterations) {
  constexpr std::int64_t kMaxIterations = 1000000000;
  return first_repetition_done || seconds >= min_time || iterations >= kMaxIterations;
}

}  // namespace nnuelab::bench
