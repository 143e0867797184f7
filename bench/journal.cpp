#include "bench/journal.h"

#include <cstdio>
#include <stdexcept>
#include <unordered_set>

#include "bench/cli.h"

namespace nnuelab::bench {
namespace {

std::FILE* g_journal = nullptr;
std::string g_journal_path;
double g_seconds = 0;  // the manual time of the current run of a body, summed as Google Benchmark sums it
std::unordered_set<std::string> g_reported;  // benchmarks whose first repetition is done

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", unsigned(static_cast<unsigned char>(ch)));
      out += esc;
    } else {
      out += ch;
    }
  }
  out += '"';
}

void append_number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // JSON has no inf or nan: such a value (a rate over zero time) is written as null.
  out += (v == v && v - v == 0) ? buf : "null";
}

// A counter's value as Google Benchmark reports it for `iterations` iterations taking
// `seconds` of (manual) time, one thread.
double finish(const benchmark::Counter& c, std::int64_t iterations, double seconds) {
  double v = c.value;
  if (c.flags & benchmark::Counter::kIsRate) v /= seconds;
  if (c.flags & benchmark::Counter::kIsIterationInvariant) v *= double(iterations);
  if (c.flags & benchmark::Counter::kAvgIterations) v /= double(iterations);
  if (c.flags & benchmark::Counter::kInvert) v = 1.0 / v;
  return v;
}

// The journal line of one repetition: a Google Benchmark result entry's JSON text.
std::string journal_line(const std::string& name, std::int64_t iterations, double seconds,
                         const benchmark::UserCounters& counters, const char* label) {
  std::string out = "{\"name\": ";
  append_json_string(out, name);
  out += ", \"run_type\": \"iteration\", \"iterations\": " + std::to_string(iterations) + ", \"real_time\": ";
  append_number(out, iterations > 0 ? seconds / double(iterations) * 1e9 : 0.0);
  out += ", \"time_unit\": \"ns\"";
  if (label && *label) {
    out += ", \"label\": ";
    append_json_string(out, label);
  }
  for (const auto& [key, counter] : counters) {
    out += ", ";
    append_json_string(out, key);
    out += ": ";
    append_number(out, finish(counter, iterations, seconds));
  }
  out += "}\n";
  return out;
}

}  // namespace

void open_journal(const std::string& path) {
  close_journal();
  if (path.empty()) return;
  g_journal = std::fopen(path.c_str(), "w");
  if (!g_journal) throw std::runtime_error("cannot create the repetition journal " + path);
  g_journal_path = path;
}

void close_journal(bool remove) {
  if (!g_journal) return;
  std::fclose(g_journal);
  g_journal = nullptr;
  if (remove) std::remove(g_journal_path.c_str());
  g_journal_path.clear();
}

void set_iteration_time(benchmark::State& state, double seconds) {
  state.SetIterationTime(seconds);
  g_seconds += seconds;
}

void journal_begin() { g_seconds = 0; }

void journal_end(const std::string& name, const benchmark::State& state, double min_time, const char* label) {
  if (!g_journal || state.error_occurred()) return;
  const std::int64_t iterations = std::int64_t(state.iterations());
  const bool first_done = g_reported.count(name) > 0;
  if (!repetition_reported(first_done, g_seconds, min_time, iterations)) return;
  if (!first_done) g_reported.insert(name);
  const std::string line = journal_line(name, iterations, g_seconds, state.counters, label);
  std::fwrite(line.data(), 1, line.size(), g_journal);
  std::fflush(g_journal);  // one write per line: a process killed after it leaves the line whole
}

}  // namespace nnuelab::bench
