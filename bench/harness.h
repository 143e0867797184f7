// Shared pieces of the benchmark harness: the grid, input pools, batched timing.
//
// Benchmark names follow one grammar, which plots parse and users filter by regex:
//   <op>/<isa>/<technique>/<shape>/<density-kind>:<percent>
// e.g. affine/avx2/dense_rows4/64x32/dense:100. The scalar reference of each op is timed
// as technique "reference" under isa "scalar" (the baseline of every speedup). Google
// Benchmark appends "/manual_time" because the harness times kernel calls itself.
#pragma once
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/journal.h"
#include "kernels/common/variant.h"
#include "workloads/clock.h"
#include "workloads/data.h"
#include "workloads/synthetic.h"

namespace nnuelab::bench {

enum class Grid { kQuick, kFull };
Grid grid();
void set_grid(Grid g);

// Densities of sparse inputs for the current grid: quick = dense:100, chunk:15 and byte:15;
// full = dense plus byte and chunk at 0.5, 1, 2, 5, 10, 15, 20, 30, 50, 75, 100%.
std::vector<workloads::Density> density_grid();

// Inputs rotate through at least this many distinct vectors, so a branchy kernel cannot
// have its branches learned (with 64 inputs a sparse kernel looked 30-40% faster). The
// elementwise ops and the ft_* id lists use this count; their loops do not branch on data.
constexpr int kPoolInputs = 1024;

// The sparse activation pools (affine, find_nnz, dot_u8i8 inputs: activation_pool) are
// larger: the branch predictor of an AMD Zen 4 learned a good part of 1,024 inputs' walks.
// On 2026-11-25 (avx2, chunk density 15%, 2 runs of 5 repetitions each) a pool of 16,384
// made the branchy walks 13-97% slower than 1,024 did (sparse_blocked4_bitset_x2_from_bits
// 1536x16 47.9 -> 94.3 ns, lsb_acc1 1024x32 81.0 -> 124.4), 4,096 still left about half of
// that hidden, and 65,536 measured as 16,384 (within 2%); the table kernels moved 0-11%.
constexpr int kSparsePoolInputs = 16384;

// A cached pool of kSparsePoolInputs activation vectors of n bytes at a density.
const workloads::InputPool& activation_pool(int n, const workloads::Density& d);

// Real first-layer inputs recorded on a net (../shared/data/traces, and those ./lab trace
// wrote to results/traces), replayed in order.
using RealTrace = workloads::TraceFile;
const std::vector<RealTrace>& real_traces();
// The trace's rows as a pool (cached); throws std::runtime_error when the data is missing.
const workloads::InputPool& trace_pool(const RealTrace& t);
// "real-<tag>:<mean chunk density %>", the density field of its benchmark names.
std::string real_density_name(const RealTrace& t);

// Calls per timed batch: inputs of one batch are copied into an L1-resident buffer before
// the clock starts (activations are L1-hot in an engine: the producer just wrote them),
// and the batch is long enough that the clock's own cost is small and subtracted.
// call_bytes: the input and output bytes of one call, which the whole batch keeps in L1.
int batch_size(std::size_t call_bytes);

// Times `whole()`, which makes the `batch` calls of one batch, after `stage(first)` copied
// the batch's inputs, and reports the per-call time (the batch's time / batch) to Google
// Benchmark as manual time (one iteration = one call). `stage` receives the index of the
// first pool input of the batch (cycling through [0, pool_count)) and is not timed.
// Templates, so the timed loop calls the kernel directly rather than through std::function.
template <class Stage, class Whole>
void run_batched_whole(benchmark::State& state, int batch, Stage&& stage, Whole&& whole, int pool_count = kPoolInputs) {
  using Clock = std::chrono::steady_clock;
  const double overhead = workloads::clock_read_ns();  // one clock-read pair, subtracted per batch
  int next = 0;
  for (auto _ : state) {
    stage(next);
    next = (next + batch) % pool_count;
    const auto t0 = Clock::now();
    whole();
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() - overhead;
    set_iteration_time(state, (ns > 0 ? ns : 0.0) / batch * 1e-9);
  }
}

// The usual form: the batch is `call(j)` for j < batch.
template <class Stage, class Call>
void run_batched(benchmark::State& state, int batch, Stage&& stage, Call&& call, int pool_count = kPoolInputs) {
  run_batched_whole(
      state, batch, stage, [&] {
        for (int j = 0; j < batch; ++j) call(j);
      },
      pool_count);
}

// The branch-predictor scrub (--scrub=N, 0 = off, the default): before each batch of the
// sparse benchmarks (affine, find_nnz: their walks branch on the data), outside the clock,
// N conditional branches on fresh pseudo-random bits, spread over 16 branch sites. The
// real traces replay the same 3,048 positions in order pass after pass, and the predictor
// of a Zen 4 learned part of them (docs/findings/zen4.md); an engine evaluates a position once,
// between searches that run other code. The scrub overwrites what the predictor kept from
// earlier passes; it touches no memory besides its own registers.
void set_scrub_branches(int n);
int scrub_branches();
void scrub_branch_predictor();  // N branches, or nothing when N = 0

// The feature-transformer weight matrix's pages (--huge-pages; off by default): 4 KiB, or
// transparent huge pages requested as engines request large pages for these weights
// (workloads::Pages::kHuge). Recorded in the context (nnuelab_ft_weight_pages); with huge
// pages on, every ft_refresh / ft_update result also carries the share of its matrix the
// kernel granted (counter huge_page_pct).
void set_huge_pages(bool on);
bool huge_pages();

// Registers a benchmark, or for a variant this CPU lacks a skipped entry saying why.
// Emulated variants are labelled "emulated" (plots leave them out) and only run in the
// full grid. `input_bytes` (one call's input) sets the batch size; the benchmark's minimum
// time is divided by it, because Google Benchmark sees one call per iteration while each
// iteration runs a whole batch.
void register_variant_benchmark(const std::string& name, const VariantInfo* info, std::size_t input_bytes,
                                const std::function<void(benchmark::State&)>& body);

// A kernel of registry signature F that does nothing: out of line and reached through a
// volatile pointer, so no call to it is elided or inlined. The floors time the harness's
// loops, and the checked entry points' own cost, around it.
template <class F>
struct EmptyKernel;
template <class R, class... A>
struct EmptyKernel<R (*)(A...)> {
  [[gnu::noinline]] static R run(A...) {
    asm volatile("");
    return R();
  }
  static inline R (*volatile pointer)(A...) = &run;
};

// A copy of a registry entry (of any op) whose kernel is the empty one of its signature:
// what the floors call directly and through the op's checked entry point.
template <class V>
V with_empty_kernel(V entry) {
  entry.run = EmptyKernel<decltype(entry.run)>::pointer;
  return entry;
}

// A pair of harness rows timing one call path two ways, floor/scalar/<plain>/<shape>/dense:100
// and floor/scalar/<other>/... (nothing when a variant is forced: they time no registered
// variant): body(state, false) and body(state, true).
template <class Body>
void register_floor_pair(const std::string& plain, const std::string& other, const std::string& shape,
                         std::size_t input_bytes, Body body) {
  if (forced_variant()) return;
  for (const bool second : {false, true})
    register_variant_benchmark("floor/scalar/" + (second ? other : plain) + "/" + shape + "/dense:100", nullptr,
                               input_bytes, [body, second](benchmark::State& st) { body(st, second); });
}

// floor/scalar/empty_<what> and floor/scalar/checked_<what> at one shape (register_floor_pair):
// body(state, checked) times the op's loop calling a with_empty_kernel entry directly
// through its pointer (checked false, as the variants are timed) or through the op's checked
// entry point (true). checked's time minus empty's is what that entry point's checks cost
// per call.
template <class Body>
void register_checked_floors(const std::string& what, const std::string& shape, std::size_t input_bytes, Body body) {
  register_floor_pair("empty_" + what, "checked_" + what, shape, input_bytes, body);
}

// --benchmark_min_time as given on the command line (Google Benchmark's 0.5 s otherwise).
void set_min_time(double seconds);
double min_time();

// The time budget of a run (--budget=SECONDS; 0 = none). The clock starts at
// start_run_clock(); once the budget is spent every benchmark still to run skips at once
// with the error "time budget exhausted", so the JSON output stays complete and valid.
void set_budget(double seconds);
double budget();
void start_run_clock();
double run_elapsed_seconds();
bool budget_exhausted();

// An interrupted run (SIGINT or SIGTERM during the timed pass; nnuelab_bench installs the
// handler): the benchmark being timed finishes, every one still to run skips at once with
// the error "interrupted by SIGINT" (or SIGTERM), and the run ends as with a spent budget,
// its --benchmark_out file written. The handler only records the signal (async-signal-safe)
// and restores the default action, so a second signal ends the process at once.
void install_interrupt_handler();
int interrupt_signal();  // the signal received, 0 if none
// "interrupted by SIGINT" (the skip message), "" when not interrupted.
std::string interrupt_message();

// Adds the machine context (CPU, features, compiler, ISA flags) to the JSON output.
void add_context();

}  // namespace nnuelab::bench
