// nnuelab_bench [--grid=quick|full] [--budget=SECONDS] [--scrub=BRANCHES] [--noise=SECONDS]
//               [--huge-pages] [Google Benchmark flags]
// Registers every op x variant x shape x density at run time from the registries, and
// prints progress to stderr: [bench] done/total  elapsed  remaining. Before the run, the
// slow-spell probe (bench/noise_probe.h) runs for --noise seconds (default 1, 0 = off) and
// its one-line summary goes into the result's context as nnuelab_noise.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "bench/cli.h"
#include "bench/harness.h"
#include "bench/noise_probe.h"
#include "bench/register.h"

namespace {

std::string hms(double seconds) {
  const long s = long(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

// The console table as usual (stdout), plus one progress line on stderr per finished
// benchmark: overwritten in place on a terminal; in a log (not a tty) at most one line per
// 10 seconds, and always the last one. Google Benchmark calls ReportRuns once per
// benchmark after all its repetitions (plus once for their aggregates), so the count is of
// benchmarks, not runs; the remaining time comes from the share of runs done (above).
class ProgressReporter : public benchmark::ConsoleReporter {
 public:
  ProgressReporter(std::size_t total, bool interleaved)
      : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular),
        total_(total),
        interleaved_(interleaved),
        tty_(isatty(STDERR_FILENO) != 0) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    // With repetitions the aggregates (mean, median, ...) come as a second report of the
    // same benchmark: not another benchmark done.
    if (!runs.empty() && runs.front().run_type == Run::RT_Aggregate) return;
    ++done_;
    const double elapsed = nnuelab::bench::run_elapsed_seconds();
    const bool last = done_ >= total_;
    if (!tty_ && !last && elapsed - last_print_ < 10) return;
    last_print_ = elapsed;
    // Remaining: elapsed time scaled by the share of runs left, capped by the budget.
    const double share = nnuelab::bench::share_of_runs_done(done_, total_, runs.front().repetitions, interleaved_);
    const double remaining = nnuelab::bench::remaining_seconds(elapsed, share, nnuelab::bench::budget());
    std::fprintf(stderr, "%s[bench] %zu/%zu  elapsed %s  remaining ~%s%s%s", tty_ ? "\r" : "", done_, total_,
                 hms(elapsed).c_str(), hms(remaining).c_str(),
                 nnuelab::bench::budget_exhausted() ? "  (budget exhausted: skipping the rest)" : "",
                 tty_ && !last ? "   " : "\n");
    std::fflush(stderr);
  }

 private:
  std::size_t total_;
  std::size_t done_ = 0;
  bool interleaved_;
  bool tty_;
  double last_print_ = -1e9;
};

// Output discarded: for the listing pass that counts the benchmarks.
class NullReporter : public benchmark::ConsoleReporter {
 public:
  NullReporter() { SetOutputStream(&sink_); SetErrorStream(&sink_); }
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}

 private:
  std::ostringstream sink_;
};

// Initialize() with an extra flag appended to the program's own arguments; false when
// arguments are left that neither we nor Google Benchmark know (reported on stderr).
bool initialize(std::vector<char*> args, const char* extra) {
  if (extra) args.push_back(const_cast<char*>(extra));
  int argc = int(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&argc, args.data());
  return !benchmark::ReportUnrecognizedArguments(argc, args.data());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nnuelab;
  // Our own flags first; everything else goes to Google Benchmark.
  int kept = 1;
  bool list_only = false;
  bool interleaved = false;  // --benchmark_enable_random_interleaving: for the progress line
  double noise_seconds = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--grid=full") == 0) {
      bench::set_grid(bench::Grid::kFull);
    } else if (std::strcmp(argv[i], "--grid=quick") == 0) {
      bench::set_grid(bench::Grid::kQuick);
    } else if (std::strncmp(argv[i], "--grid", 6) == 0) {
      std::fprintf(stderr, "nnuelab_bench: unknown %s (use --grid=quick or --grid=full)\n", argv[i]);
      return 2;
    } else if (std::strncmp(argv[i], "--scrub=", 8) == 0) {
      char* end = nullptr;
      const long n = std::strtol(argv[i] + 8, &end, 10);
      if (end == argv[i] + 8 || *end != '\0' || n < 0 || n > 10000000) {
        std::fprintf(stderr, "nnuelab_bench: bad %s (use --scrub=BRANCHES, 0..10000000)\n", argv[i]);
        return 2;
      }
      bench::set_scrub_branches(int(n));
    } else if (bool on = false; bench::read_bool_flag(argv[i], "--huge-pages", &on)) {
      bench::set_huge_pages(on);
    } else if (std::strncmp(argv[i], "--noise=", 8) == 0) {
      char* end = nullptr;
      noise_seconds = std::strtod(argv[i] + 8, &end);
      if (end == argv[i] + 8 || *end != '\0' || !(noise_seconds >= 0 && noise_seconds <= 600)) {
        std::fprintf(stderr, "nnuelab_bench: bad %s (use --noise=SECONDS, 0..600; 0 = no probe)\n", argv[i]);
        return 2;
      }
    } else if (std::strncmp(argv[i], "--budget=", 9) == 0) {
      char* end = nullptr;
      const double b = std::strtod(argv[i] + 9, &end);
      if (end == argv[i] + 9 || *end != '\0' || b < 0) {
        std::fprintf(stderr, "nnuelab_bench: bad %s (use --budget=SECONDS)\n", argv[i]);
        return 2;
      }
      bench::set_budget(b);
    } else {
      // Peek at the minimum time: the harness scales it per benchmark (see harness.h).
      if (std::strncmp(argv[i], "--benchmark_min_time=", 21) == 0) bench::set_min_time(std::atof(argv[i] + 21));
      // Read as Google Benchmark reads them (--benchmark_list_tests=0 is false there too).
      bench::read_bool_flag(argv[i], "--benchmark_list_tests", &list_only);
      bench::read_bool_flag(argv[i], "--benchmark_enable_random_interleaving", &interleaved);
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  try {
    check_forced_variant();
    const std::vector<char*> args(argv, argv + argc);
    // First pass in listing mode: the number of benchmarks the filter selects, the progress
    // line's total. (Google Benchmark keeps its flags internal; Initialize sets them.)
    if (!initialize(args, list_only ? nullptr : "--benchmark_list_tests=true")) return 2;
    bench::add_context();
    if (!list_only && noise_seconds > 0) {
      // How noisy the machine is right now (README, "Slow spells"): one line in the context.
      if (const auto noise = bench::probe_noise(noise_seconds))
        benchmark::AddCustomContext("nnuelab_noise", bench::noise_summary(*noise));
    }
    bench::register_affine();
    bench::register_activations();
    bench::register_find_nnz();
    bench::register_dot_u8i8();
    bench::register_ft();
    bench::register_pool();
    bench::register_octav();
    if (list_only) {
      benchmark::RunSpecifiedBenchmarks();
    } else {
      NullReporter counter;
      const std::size_t total = benchmark::RunSpecifiedBenchmarks(&counter);
      initialize(args, "--benchmark_list_tests=false");
      ProgressReporter progress(total, interleaved);
      bench::start_run_clock();
      benchmark::RunSpecifiedBenchmarks(&progress);
    }
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
