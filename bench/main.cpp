// nnuelab_bench [--grid=quick|full] [--budget=SECONDS] [--scrub=BRANCHES] [--noise=SECONDS]
//               [--huge-pages] [--keep-journal] [Google Benchmark flags]
// Registers every op x variant x shape x density at run time from the registries, and
// prints progress to stderr: [bench] done/total  elapsed  remaining. Before the run, the
// slow-spell probe (bench/noise_probe.h) runs for --noise seconds (default 1, 0 = off) and
// its one-line summary goes into the result's context as nnuelab_noise.
// SIGINT or SIGTERM during the run: the rest of the benchmarks are skipped, the results so
// far written (--benchmark_out), and the exit status is 128 + the signal (130, 143). The
// file is written as the run goes too: a run killed outright leaves what it timed, and
// every repetition it finished in <file>.reps (bench/journal.h), which a run that ends
// removes (--keep-journal: keeps it, to compare with the file).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cli.h"
#include "bench/harness.h"
#include "bench/noise_probe.h"
#include "bench/peak.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "tools/args.h"

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
                 nnuelab::bench::interrupt_signal()   ? "  (interrupted: skipping the rest)"
                 : nnuelab::bench::budget_exhausted() ? "  (budget exhausted: skipping the rest)"
                                                      : "",
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

// Each ISA's final peak for pct_peak (bench/pct_peak.h) with its windows: "avx2 87.1984
// MAC/ns (691 windows, 44.08-92.45); ..."; empty when no affine or dot benchmark ran.
std::string final_peak_basis() {
  std::string basis;
  for (const nnuelab::bench::PeakWindows& w : nnuelab::bench::peak_windows()) {
    const auto [lo, hi] = std::minmax_element(w.bests.begin(), w.bests.end());
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s%s %.6g MAC/ns (%zu windows, %.4g-%.4g)", basis.empty() ? "" : "; ",
                  w.isa.c_str(), nnuelab::bench::peak_of_windows(w.bests), w.bests.size(), *lo, *hi);
    basis += buf;
  }
  return basis;
}

// The listing discarded: for the pass that counts the benchmarks. Its error stream stays
// stderr, where Google Benchmark says why a filter selects nothing (no name matches, or the
// pattern does not compile).
class NullReporter : public benchmark::ConsoleReporter {
 public:
  NullReporter() { SetOutputStream(&sink_); }
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}

 private:
  std::ostringstream sink_;
};

// The file reporter (--benchmark_out): Google Benchmark's own for the chosen format, run
// twice. As the run goes, a first one writes each result to the file as it comes (flushed
// per group, pct_peak against the peak so far): a run killed outright (SIGKILL, a second
// Ctrl-C) leaves those, cut off after the last complete entry (plots/results.py reads such
// a file and says it was cut). At the end of the run, when every ISA's peak windows are in
// (bench/pct_peak.h), a second one gets the context and the runs again, each pct_peak given
// again from its rate counter and the final peak, the peaks in the context as
// nnuelab_pct_peak_basis; that text replaces the file (written beside it, then renamed
// over it, so the file is never half of either). An interrupted run (SIGINT, SIGTERM:
// bench/harness.h) still gets there, with the benchmarks it did not time skipped, and says
// so in the context (nnuelab_interrupted).
class FinalPeakReporter : public benchmark::BenchmarkReporter {
 public:
  FinalPeakReporter(const std::string& format, bool tabular, std::string path)
      : path_(std::move(path)), inner_(make(format, tabular)), as_it_goes_(make(format, tabular)) {}
  bool ReportContext(const Context& context) override {
    context_.emplace(context);
    as_it_goes_->SetOutputStream(&GetOutputStream());
    as_it_goes_->SetErrorStream(&GetOutputStream());
    as_it_goes_->ReportContext(context);
    GetOutputStream().flush();
    return true;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    groups_.push_back(runs);
    as_it_goes_->ReportRuns(runs);
    GetOutputStream().flush();
  }
  void Finalize() override {
    std::map<std::string, double, std::less<>> peak;
    for (const nnuelab::bench::PeakWindows& w : nnuelab::bench::peak_windows())
      peak[w.isa] = nnuelab::bench::peak_of_windows(w.bests);
    if (const std::string basis = final_peak_basis(); !basis.empty())
      benchmark::AddCustomContext("nnuelab_pct_peak_basis", basis);
    if (nnuelab::bench::interrupt_signal()) benchmark::AddCustomContext("nnuelab_interrupted", interrupted_summary());
    for (std::vector<Run>& runs : groups_)
      for (Run& r : runs) rescale(r, peak);
    std::ostringstream text;
    inner_->SetOutputStream(&text);
    inner_->SetErrorStream(&text);
    if (context_ && inner_->ReportContext(*context_))
      for (const std::vector<Run>& runs : groups_) inner_->ReportRuns(runs);
    inner_->Finalize();
    if (const std::string why = replace_file(text.str()); !why.empty()) {
      // The file keeps what was written as the run went, closed so that it reads whole.
      as_it_goes_->Finalize();
      std::fprintf(stderr, "[bench] could not rewrite %s with the final pct_peak (%s): it holds the results as timed, "
                   "pct_peak against the peak so far\n", path_.c_str(), why.c_str());
    }
  }

 private:
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // CSVReporter: Google Benchmark still offers it
  static std::unique_ptr<benchmark::BenchmarkReporter> make(const std::string& format, bool tabular) {
    if (format == "console")
      return std::make_unique<benchmark::ConsoleReporter>(tabular ? benchmark::ConsoleReporter::OO_Tabular
                                                                  : benchmark::ConsoleReporter::OO_None);
    if (format == "csv") return std::make_unique<benchmark::CSVReporter>();
    return std::make_unique<benchmark::JSONReporter>();
  }
#pragma GCC diagnostic pop

  // The final text in place of the file: written to <file>.tmp, then renamed over it
  // (Google Benchmark's own stream on the file then writes to the replaced one: nothing
  // more goes to it). "" when done, else why not (a .tmp written in part is removed).
  std::string replace_file(const std::string& text) const {
    const std::string tmp = path_ + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out.is_open()) return "cannot create " + tmp;
      out << text;
      out.flush();
      if (!out) {
        std::remove(tmp.c_str());
        return "cannot write " + tmp;
      }
    }
    if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      std::remove(tmp.c_str());
      return "cannot rename " + tmp + ": " + why;
    }
    return "";
  }

  // pct_peak against the ISA's final peak, from the counter it was made from.
  static void rescale(Run& r, const std::map<std::string, double, std::less<>>& peak) {
    const auto pct = r.counters.find("pct_peak");
    if (pct == r.counters.end()) return;
    const auto isa = peak.find(nnuelab::bench::peak_isa_of(nnuelab::bench::isa_of_benchmark(r.run_name.function_name)));
    auto rate = r.counters.find("useful_macs");  // affine
    if (rate == r.counters.end()) rate = r.counters.find("macs");  // dot_u8i8
    if (isa == peak.end() || !(isa->second > 0) || rate == r.counters.end()) return;
    const bool cv = r.run_type == Run::RT_Aggregate && r.aggregate_unit == benchmark::kPercentage;
    pct->second.value = nnuelab::bench::final_pct_peak(rate->second.value, isa->second, cv);
  }

  // "interrupted by SIGINT: 12 of 40 runs skipped" (a run: one repetition of a benchmark).
  std::string interrupted_summary() const {
    const std::string why = nnuelab::bench::interrupt_message();
    std::size_t runs = 0, skipped = 0;
    for (const std::vector<Run>& group : groups_)
      for (const Run& r : group) {
        if (r.run_type != Run::RT_Iteration) continue;
        ++runs;
        skipped += r.error_occurred && r.error_message == why;
      }
    return why + ": " + std::to_string(skipped) + " of " + std::to_string(runs) + " runs skipped";
  }

  std::string path_;
  std::unique_ptr<benchmark::BenchmarkReporter> inner_, as_it_goes_;
  std::optional<Context> context_;
  std::vector<std::vector<Run>> groups_;
};

// Initialize() with extra flags appended to the program's own arguments (a later flag
// overrides an earlier one); false when arguments are left that neither we nor Google
// Benchmark know (reported on stderr).
bool initialize(std::vector<char*> args, std::initializer_list<const char*> extra) {
  for (const char* flag : extra) args.push_back(const_cast<char*>(flag));
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
  std::string out_file, out_format = "json";  // --benchmark_out, --benchmark_out_format
  bool tabular = false;                        // --benchmark_counters_tabular
  bool keep_journal = false;                   // --keep-journal: <out>.reps stays after the run
  // A number argument read through tools/args.h; false (the reason said) when refused.
  auto number = [](auto read) { return tools::read_or_say("nnuelab_bench", read); };
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--grid=full") == 0) {
      bench::set_grid(bench::Grid::kFull);
    } else if (std::strcmp(argv[i], "--grid=quick") == 0) {
      bench::set_grid(bench::Grid::kQuick);
    } else if (std::strncmp(argv[i], "--grid", 6) == 0) {
      std::fprintf(stderr, "nnuelab_bench: unknown %s (use --grid=quick or --grid=full)\n", argv[i]);
      return 2;
    } else if (std::strncmp(argv[i], "--scrub=", 8) == 0) {
      if (!number([&] { bench::set_scrub_branches(int(tools::whole_number("--scrub", argv[i] + 8, 0, 10'000'000))); }))
        return 2;
    } else if (bench::read_bool_flag(argv[i], "--keep-journal", &keep_journal)) {
      // read into keep_journal
    } else if (bool on = false; bench::read_bool_flag(argv[i], "--huge-pages", &on)) {
      bench::set_huge_pages(on);
    } else if (std::strncmp(argv[i], "--noise=", 8) == 0) {  // 0: no probe
      if (!number([&] { noise_seconds = tools::real_number("--noise", argv[i] + 8, 0, 600, true); })) return 2;
    } else if (std::strncmp(argv[i], "--budget=", 9) == 0) {  // seconds, 0: no budget
      if (!number([&] { bench::set_budget(tools::real_number("--budget", argv[i] + 9, 0, 1e7, true)); })) return 2;
    } else {
      // Peek at the minimum time: the harness scales it per benchmark (see harness.h).
      if (std::strncmp(argv[i], "--benchmark_min_time=", 21) == 0) {
        // Google Benchmark aborts on a time <= 0 (a failed CHECK): refused here with the reason.
        if (!number([&] { bench::set_min_time(tools::real_number("--benchmark_min_time", argv[i] + 21, 0, 1e6)); }))
          return 2;
      }
      if (std::strncmp(argv[i], "--benchmark_repetitions=", 24) == 0) {
        // Google Benchmark times nothing at 0 and exits 0; a negative count failed inside
        // it with "vector::reserve".
        if (!number([&] { tools::whole_number("--benchmark_repetitions", argv[i] + 24, 1, 1'000'000); })) return 2;
      }
      if (std::strncmp(argv[i], "--benchmark_filter=", 19) == 0) {
        // Google Benchmark compiles the filter as a POSIX extended std::regex (a leading '-'
        // negates it) and, when it does not compile, says so and selects nothing, which
        // then read as "no benchmark selected" below: refused here with the reason instead.
        const char* spec = argv[i] + 19;
        try {
          std::regex(spec + (*spec == '-'), std::regex::extended | std::regex::nosubs);
        } catch (const std::regex_error& e) {
          std::fprintf(stderr, "nnuelab_bench: --benchmark_filter '%s' is not a regular expression (POSIX extended, "
                               "as Google Benchmark reads it): %s\n", spec, e.what());
          return 2;
        }
      }
      // Read as Google Benchmark reads them (--benchmark_list_tests=0 is false there too).
      bench::read_bool_flag(argv[i], "--benchmark_list_tests", &list_only);
      bench::read_bool_flag(argv[i], "--benchmark_enable_random_interleaving", &interleaved);
      bench::read_bool_flag(argv[i], "--benchmark_counters_tabular", &tabular);
      if (std::strncmp(argv[i], "--benchmark_out=", 16) == 0) out_file = argv[i] + 16;
      if (std::strncmp(argv[i], "--benchmark_out_format=", 23) == 0) {
        out_format = argv[i] + 23;
        // Google Benchmark checks this only for a file reporter of its own making.
        if (out_format != "json" && out_format != "console" && out_format != "csv") {
          std::fprintf(stderr, "nnuelab_bench: bad %s (use json, console or csv)\n", argv[i]);
          return 2;
        }
      }
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  try {
    check_forced_variant();
    bench::check_placement();
    const std::vector<char*> args(argv, argv + argc);
    // First pass in listing mode: the number of benchmarks the filter selects, the progress
    // line's total. (Google Benchmark keeps its flags internal; Initialize sets them.) It
    // goes without --benchmark_out: Google Benchmark opens (and empties) that file on every
    // call, listing or not, so a filter refused below would leave an empty file, or empty
    // a result already there; the timing pass gets it back with the program's arguments.
    if (!initialize(args, {"--benchmark_list_tests=true", "--benchmark_out="})) return 2;
    bench::register_affine();
    bench::register_activations();
    bench::register_find_nnz();
    bench::register_dot_u8i8();
    bench::register_ft();
    bench::register_pool();
    bench::register_octav();
    // A filter that selects nothing is an error, not an empty run that exits 0 as Google
    // Benchmark's own would (a typo in a script's filter would pass as "nothing slower").
    // Its reason is on stderr already; no probe is run and no file is written.
    NullReporter counter;
    const std::size_t total =
        list_only ? benchmark::RunSpecifiedBenchmarks() : benchmark::RunSpecifiedBenchmarks(&counter);
    if (total == 0) {
      std::fprintf(stderr, "nnuelab_bench: no benchmark selected: nothing to %s (--benchmark_list_tests "
                           "without a filter names them all)\n", list_only ? "list" : "time");
      return 2;
    }
    if (!list_only) {
      bench::add_context();
      if (noise_seconds > 0) {
        // How noisy the machine is right now (docs/findings/zen3.md, "Slow spells"): one
        // line in the context.
        if (const auto noise = bench::probe_noise(noise_seconds))
          benchmark::AddCustomContext("nnuelab_noise", bench::noise_summary(*noise));
      }
      initialize(args, {"--benchmark_list_tests=false"});
      ProgressReporter progress(total, interleaved);
      // From here a SIGINT or SIGTERM ends the run early with its results kept (harness.h).
      bench::install_interrupt_handler();
      std::fprintf(stderr, "[bench] timing %zu benchmarks\n", total);
      std::fflush(stderr);
      bench::start_run_clock();
      if (out_file.empty()) {
        benchmark::RunSpecifiedBenchmarks(&progress);
      } else {
        // Every finished repetition as it goes, for a run killed outright (bench/journal.h;
        // plots read JSON results only); removed once the file reporter has written the file.
        if (out_format == "json") bench::open_journal(out_file + ".reps");
        FinalPeakReporter file(out_format, tabular, out_file);
        benchmark::RunSpecifiedBenchmarks(&progress, &file);
        bench::close_journal(!keep_journal);
      }
    }
    if (const std::string basis = list_only ? "" : final_peak_basis(); !basis.empty()) {
      // The table's pct_peak was made against each ISA's peak so far; say what it ended at.
      std::printf("pct_peak above is provisional (against the peak so far); the final peaks: %s%s\n", basis.c_str(),
                  out_file.empty() ? "" : " (every pct_peak in the --benchmark_out file is against these)");
      std::fflush(stdout);
    }
    benchmark::Shutdown();
    if (const int sig = bench::interrupt_signal()) {
      std::fprintf(stderr, "[bench] %s; the results so far are in %s\n", bench::interrupt_message().c_str(),
                   out_file.empty() ? "the table above" : out_file.c_str());
      return 128 + sig;  // as a shell reports a process ended by the signal
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
