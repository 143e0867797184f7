#include "bench/harness.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "nnuelab_config.h"

namespace nnuelab::bench {
namespace {
Grid g_grid = Grid::kQuick;
double g_min_time = 0.5;
using Clock = std::chrono::steady_clock;

// The cost of one now()/now() pair, measured once: the median of many back-to-back reads.
double clock_overhead_ns() {
  static const double overhead = [] {
    std::vector<double> v;
    for (int i = 0; i < 20001; ++i) {
      const auto a = Clock::now();
      const auto b = Clock::now();
      v.push_back(std::chrono::duration<double, std::nano>(b - a).count());
    }
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }();
  return overhead;
}
}  // namespace

Grid grid() { return g_grid; }
void set_grid(Grid g) { g_grid = g; }
void set_min_time(double seconds) { g_min_time = seconds; }

const workloads::InputPool& activation_pool(int n, const workloads::Density& d) {
  static std::map<std::string, std::unique_ptr<workloads::InputPool>> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  const std::string key = std::to_string(n) + "/" + d.name();
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<workloads::InputPool>(workloads::make_input_pool(n, d, kPoolInputs, 0xbe9c4 + n));
  return *slot;
}

int batch_size(std::size_t input_bytes) {
  const std::size_t budget = 16 * 1024;  // a third of a 48 KiB L1D, leaving room for weights
  return int(std::clamp<std::size_t>(budget / std::max<std::size_t>(input_bytes, 1), 4, 256));
}

void run_batched(benchmark::State& state, int batch, const std::function<void(int)>& stage,
                 const std::function<void(int)>& call, int pool_count) {
  const double overhead = clock_overhead_ns();
  int next = 0;
  for (auto _ : state) {
    stage(next);
    next = (next + batch) % pool_count;
    const auto t0 = Clock::now();
    for (int j = 0; j < batch; ++j) call(j);
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() - overhead;
    state.SetIterationTime(std::max(ns, 0.0) / batch * 1e-9);  // one iteration = one call
  }
}

void register_variant_benchmark(const std::string& name, const VariantInfo* info, std::size_t input_bytes,
                                const std::function<void(benchmark::State&)>& body) {
  if (info && info->emulated && grid() != Grid::kFull) return;
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
    b = benchmark::RegisterBenchmark(name.c_str(), [body, emulated](benchmark::State& st) {
      if (emulated) st.SetLabel("emulated");
      body(st);
    });
  }
  b->UseManualTime();
  b->MinTime(g_min_time / batch_size(input_bytes));
}

void add_context() {
  benchmark::AddCustomContext("nnuelab_cpu_model", cpu_model());
  benchmark::AddCustomContext("nnuelab_cpu_features", feature_names(cpu_features()));
  benchmark::AddCustomContext("nnuelab_compiler", NNUELAB_COMPILER);
  benchmark::AddCustomContext("nnuelab_build_type", NNUELAB_BUILD_TYPE);
  benchmark::AddCustomContext("nnuelab_cxx_flags", NNUELAB_CXX_FLAGS);
  for (const std::string& isa : isa_names()) {
    const std::string flags = isa_flags(isa);
    if (!flags.empty()) benchmark::AddCustomContext("nnuelab_isa_flags_" + isa, flags);
  }
  benchmark::AddCustomContext("nnuelab_grid", grid() == Grid::kFull ? "full" : "quick");
  benchmark::AddCustomContext("nnuelab_pool_inputs", std::to_string(kPoolInputs));
  benchmark::AddCustomContext("nnuelab_timing", "manual: batches of L1-hot inputs, clock overhead " +
                                                    std::to_string(clock_overhead_ns()) + " ns subtracted");
  if (auto forced = forced_variant()) benchmark::AddCustomContext("nnuelab_forced_variant", *forced);
}

}  // namespace nnuelab::bench
