// The repetition journal: what a run killed outright keeps of its interleaved repetitions.
//
// Google Benchmark reports a benchmark only after its last repetition, so with the
// repetitions interleaved at random (./lab targets, ./lab bench --repetitions N) the
// --benchmark_out file of a run killed outright (SIGKILL: the out-of-memory killer, a CI
// timeout) holds only the few benchmarks whose every repetition was done. With
// --benchmark_out=FILE, nnuelab_bench also appends one JSON line per finished repetition to
// FILE.reps as it goes (flushed each time, so a killed process leaves every line it wrote),
// in the form of a Google Benchmark result entry (base name, iterations, real_time in ns,
// the counters finished as Google Benchmark finishes them, the label); the run removes the
// file when it ends, having written FILE whole. plots/results.py reads FILE.reps beside a
// cut-off FILE for the benchmarks FILE lacks.
#pragma once
#include <benchmark/benchmark.h>

#include <string>

namespace nnuelab::bench {

// Opens (truncates) the journal; empty path: no journal. Throws std::runtime_error when the
// file cannot be created.
void open_journal(const std::string& path);
// Closes the journal and, with `remove`, deletes its file (the run ended; its
// --benchmark_out file is whole).
void close_journal(bool remove = true);

// Every manual time of the harness goes through here: Google Benchmark's SetIterationTime,
// plus the repetition's own sum of the same values in the same order (Google Benchmark's
// decision below compares that sum with the minimum time).
void set_iteration_time(benchmark::State& state, double seconds);

// Around one run of a benchmark's body: begin resets the sums; end writes the journal line
// when this run is one Google Benchmark reports, and no error was set. Its first repetition
// runs the body with growing iteration counts until the manual time reaches min_time (or
// the iterations its cap) and reports that last run; every later repetition runs that
// iteration count once. `name`: the registered name (one benchmark); `label`: the
// result's label ("" for none).
void journal_begin();
void journal_end(const std::string& name, const benchmark::State& state, double min_time, const char* label);

}  // namespace nnuelab::bench
