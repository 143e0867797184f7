#include "bench/harness.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

#include "bench/pct_peak.h"
#include "nnuelab_config.h"
#include "workloads/clock.h"
#include "workloads/data.h"

namespace nnuelab::bench {
namespace {
Grid g_grid = Grid::kQuick;
double g_min_time = 0.5;
double g_budget = 0;
using Clock = std::chrono::steady_clock;
Clock::time_point g_run_start = Clock::now();
}  // namespace

Grid grid() { return g_grid; }
void set_grid(Grid g) { g_grid = g; }
void set_min_time(double seconds) { g_min_time = seconds; }
double min_time() { return g_min_time; }

namespace {
int g_scrub_branches = 0;
std::uint64_t g_scrub_state = 0x9e3779b97f4a7c15ull;
}  // namespace
void set_scrub_branches(int n) { g_scrub_branches = n < 0 ? 0 : n; }
int scrub_branches() { return g_scrub_branches; }

namespace {
bool g_huge_pages = false;
}  // namespace
void set_huge_pages(bool on) { g_huge_pages = on; }
bool huge_pages() { return g_huge_pages; }

// 16 branches per xorshift64 draw, each on its own bit and at its own site (the asm
// statement in each arm keeps GCC from turning them into conditional moves). The state
// carries over between calls, so no two scrubs are alike.
[[gnu::noinline]] void scrub_branch_predictor() {
  std::uint64_t x = g_scrub_state;
  for (int done = 0; done < g_scrub_branches; done += 16) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
#define NNUELAB_SCRUB_SITE(k) \
  if (x >> (k) & 1) asm volatile("" ::: "memory");
    NNUELAB_SCRUB_SITE(0) NNUELAB_SCRUB_SITE(4) NNUELAB_SCRUB_SITE(8) NNUELAB_SCRUB_SITE(12)
    NNUELAB_SCRUB_SITE(16) NNUELAB_SCRUB_SITE(20) NNUELAB_SCRUB_SITE(24) NNUELAB_SCRUB_SITE(28)
    NNUELAB_SCRUB_SITE(32) NNUELAB_SCRUB_SITE(36) NNUELAB_SCRUB_SITE(40) NNUELAB_SCRUB_SITE(44)
    NNUELAB_SCRUB_SITE(48) NNUELAB_SCRUB_SITE(52) NNUELAB_SCRUB_SITE(56) NNUELAB_SCRUB_SITE(60)
#undef NNUELAB_SCRUB_SITE
  }
  g_scrub_state = x;
}

void set_budget(double seconds) { g_budget = seconds; }
double budget() { return g_budget; }
void start_run_clock() { g_run_start = Clock::now(); }
double run_elapsed_seconds() { return std::chrono::duration<double>(Clock::now() - g_run_start).count(); }
bool budget_exhausted() { return g_budget > 0 && run_elapsed_seconds() > g_budget; }

namespace {
volatile std::sig_atomic_t g_interrupt = 0;

extern "C" void on_interrupt(int sig) {
  g_interrupt = sig;
  // write(2) is async-signal-safe; stdio is not. The handler was installed with
  // SA_RESETHAND, so the next signal takes the default action (the process ends).
  static const char msg[] =
      "\n[bench] interrupted: the benchmark being timed finishes, the rest are skipped and the results "
      "written (signal again to stop at once)\n";
  const ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
}
}  // namespace

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    // A signal the shell set to be ignored (a background job's SIGINT) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

int interrupt_signal() { return g_interrupt; }

std::string interrupt_message() {
  switch (g_interrupt) {
    case 0: return "";
    case SIGINT: return "interrupted by SIGINT";
    case SIGTERM: return "interrupted by SIGTERM";
    default: return "interrupted by signal " + std::to_string(int(g_interrupt));
  }
}

std::vector<workloads::Density> density_grid() {
  using workloads::DensityKind;
  std::vector<workloads::Density> out = {{DensityKind::kDense, 100}};
  if (grid() == Grid::kQuick) {
    out.push_back({DensityKind::kChunk, 15});
    out.push_back({DensityKind::kByte, 15});
  } else {
    // 10, 15, 20 and 25 span issue 3's target range (./lab targets times them).
    for (double p : {0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 50.0, 75.0, 100.0}) {
      out.push_back({DensityKind::kByte, p});
      out.push_back({DensityKind::kChunk, p});
    }
  }
  return out;
}

const workloads::InputPool& activation_pool(int n, const workloads::Density& d) {
  static std::map<std::string, std::unique_ptr<workloads::InputPool>> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  const std::string key = std::to_string(n) + "/" + d.name();
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<workloads::InputPool>(workloads::make_input_pool(n, d, kSparsePoolInputs, 0xbe9c4 + n));
  return *slot;
}

const std::vector<RealTrace>& real_traces() {
  static const std::vector<RealTrace> traces = workloads::find_traces();
  return traces;
}

const workloads::InputPool& trace_pool(const RealTrace& t) {
  static std::map<std::string, std::unique_ptr<workloads::InputPool>> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[t.net];
  if (!slot) slot = std::make_unique<workloads::InputPool>(workloads::load_trace_file(t.path, t.width));
  return *slot;
}

std::string real_density_name(const RealTrace& t) {
  char name[64];
  std::snprintf(name, sizeof name, "real-%s:%.1f", t.tag.c_str(), trace_pool(t).mean.chunk_density * 100);
  return name;
}

int batch_size(std::size_t call_bytes) {
  // A third of a 48 KiB L1D, half of AMD's 32 KiB, leaving room for weights. On the Zen 3 VM
  // (32 KiB L1D, 2026-11-26) budgets of 2, 4 and 16 KiB gave the same affine medians within
  // that VM's noise (1536x16 and 1024x32 at chunk 15%, table and bitset forms), so the
  // one budget serves both.
  const std::size_t budget = 16 * 1024;
  return int(std::clamp<std::size_t>(budget / std::max<std::size_t>(call_bytes, 1), 4, 256));
}

void register_variant_benchmark(const std::string& name, const VariantInfo* info, std::size_t input_bytes,
                                const std::function<void(benchmark::State&)>& body) {
  if (info && info->emulated && grid() != Grid::kFull) return;
  // Google Benchmark sees one call per iteration while each iteration runs a whole batch.
  const double min_time = g_min_time / batch_size(input_bytes);
  benchmark::internal::Benchmark* b;
  if (info && !info->available()) {
    const std::string why = "unavailable: this CPU lacks " + info->missing();
    b = benchmark::RegisterBenchmark(name.c_str(), [why](benchmark::State& st) {
      st.SkipWithError(why.c_str());
      for (auto _ : st) {
      }
    });
  } else {
    const bool emulated = info && info->emulated;
    b = benchmark::RegisterBenchmark(name.c_str(), [body, emulated, name, min_time](benchmark::State& st) {
      if (budget_exhausted() || interrupt_signal()) {  // skipped, not timed: the loop below exits at once
        st.SkipWithError(interrupt_signal() ? interrupt_message().c_str() : "time budget exhausted");
        for (auto _ : st) {
        }
        return;
      }
      if (emulated) st.SetLabel("emulated");
      journal_begin();
      body(st);
      journal_end(name, st, min_time, emulated ? "emulated" : "");
    });
  }
  b->UseManualTime();
  b->MinTime(min_time);
}

void add_context() {
  benchmark::AddCustomContext("nnuelab_cpu_model", cpu_model());
  // Which core, where the brand string is a VM's generic "AMD EPYC" (plots name the
  // generation from it, and plots/targets.py whether it is the issues' Zen 3).
  if (const std::string sig = cpu_signature(); !sig.empty()) benchmark::AddCustomContext("nnuelab_cpu_signature", sig);
  benchmark::AddCustomContext("nnuelab_cpu_features", feature_names(cpu_features()));
  benchmark::AddCustomContext("nnuelab_compiler", NNUELAB_COMPILER);
  benchmark::AddCustomContext("nnuelab_build_type", NNUELAB_BUILD_TYPE);
  benchmark::AddCustomContext("nnuelab_cxx_flags", NNUELAB_CXX_FLAGS);
  if (NNUELAB_ANY_EMULATED) {
    const std::string emu_opt = NNUELAB_EMU_OPT_FLAGS;
    benchmark::AddCustomContext("nnuelab_emu_opt",
                                emu_opt.empty() ? "the build type's (NNUELAB_EMU_OPT empty)" : emu_opt);
  }
  for (const std::string& isa : isa_names()) {
    const std::string flags = isa_flags(isa);
    if (!flags.empty()) benchmark::AddCustomContext("nnuelab_isa_flags_" + isa, flags);
  }
  benchmark::AddCustomContext("nnuelab_grid", grid() == Grid::kFull ? "full" : "quick");
  // A run whose kernel ran from a copy placed elsewhere (bench/placement.h) says so.
  if (const char* place = std::getenv("NNUELAB_PLACE"); place && *place)
    benchmark::AddCustomContext("nnuelab_place", place);
  benchmark::AddCustomContext("nnuelab_peak_isa_of", peak_isa_of_context());
  benchmark::AddCustomContext("nnuelab_pool_inputs", std::to_string(kPoolInputs));
  benchmark::AddCustomContext("nnuelab_sparse_pool_inputs", std::to_string(kSparsePoolInputs));
  benchmark::AddCustomContext("nnuelab_scrub_branches", std::to_string(g_scrub_branches));
  benchmark::AddCustomContext("nnuelab_ft_weight_pages",
                              g_huge_pages ? "2 MiB transparent huge pages requested (madvise)" : "4 KiB");
  benchmark::AddCustomContext("nnuelab_timing", "manual: batches of L1-hot inputs, clock overhead " +
                                                    std::to_string(workloads::clock_read_ns()) + " ns subtracted");
  if (auto forced = forced_variant()) benchmark::AddCustomContext("nnuelab_forced_variant", *forced);
}

}  // namespace nnuelab::bench
