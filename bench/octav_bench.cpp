// octav_step and quantize (OCTAV, issue 9): every variant on 1M-element float tensors,
// plus the scalar references. A 4 MB tensor does not fit L1/L2, so these are timed one call
// per iteration on the same tensor (L3-resident after the first call, as in a solver's
// passes), not through the L1-staged batches of the activation ops.
//   octav_step/<isa>/<technique>/1048576/dense:100   gaussian tensor, s = 2 sigma
//   octav_step/<isa>/<technique>/1048576/byte:10     90% exact zeros
//   quantize/<isa>/<technique>/1048576xi8b8/dense:100   int8 output, B = 8, s = 4 sigma
// Counters: elements (element/s; elements/ns = elements * 1e-9).
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "bench/harness.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "kernels/octav_step/registry.h"
#include "kernels/quantize/registry.h"
#include "reference/octav.h"
#include "reference/octav_tensors.h"

namespace nnuelab::bench {

namespace {

constexpr std::size_t kN = 1 << 20;

template <class Call>
void time_calls(benchmark::State& state, Call&& call) {
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    call();
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    set_iteration_time(state, std::chrono::duration<double>(t1 - t0).count());
  }
  state.counters["elements"] = benchmark::Counter(double(kN), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void register_octav() {
  for (const std::string& kind : {std::string("gaussian"), std::string("sparse")}) {
    auto t = std::make_shared<octav_tensors::Tensor>(octav_tensors::synthetic(kind, kN, 0xbe7c4));
    const std::string shape = std::to_string(kN) + (kind == "gaussian" ? "/dense:100" : "/byte:10");
    const float s = 0.5f;  // 2 sigma (sigma 0.25)
    register_variant_benchmark("octav_step/scalar/reference/" + shape, nullptr, kN * 4, [t, s](benchmark::State& st) {
      time_calls(st, [&] { benchmark::DoNotOptimize(ref::octav_step(t->x.data(), kN, s)); });
    });
    for (const auto& v : octav_step::variants()) {
      const auto* vp = &v;
      register_variant_benchmark(v.info.name + "/" + shape, &v.info, kN * 4, [t, s, vp](benchmark::State& st) {
        // A placed copy (bench/placement.h) must give the original's sums, bit for bit, on
        // this tensor.
        const auto run = placed_checked(vp->run, vp->info.name, [&](auto a, auto b) {
          octav_step::Sums sa, sb;
          a(t->x.data(), kN, s, &sa);
          b(t->x.data(), kN, s, &sb);
          return std::memcmp(&sa.sum_abs_above, &sb.sum_abs_above, sizeof sa.sum_abs_above) == 0 &&
                 sa.count_small == sb.count_small && sa.count_above == sb.count_above;
        });
        octav_step::Sums out;
        time_calls(st, [&] {
          run(t->x.data(), kN, s, &out);
          benchmark::DoNotOptimize(out);
        });
      });
    }
    if (kind != "gaussian") continue;
    auto q = std::make_shared<std::vector<std::int8_t>>(kN);
    const std::string qshape = std::to_string(kN) + "xi8b8/dense:100";
    register_variant_benchmark("quantize/scalar/reference/" + qshape, nullptr, kN * 4, [t, q](benchmark::State& st) {
      time_calls(st, [&] { ref::quantize_sym_i8(t->x.data(), kN, 1.0f, 8, q->data()); });
    });
    for (const auto& v : quantize::variants()) {
      const auto* vp = &v;
      register_variant_benchmark(v.info.name + "/" + qshape, &v.info, kN * 4, [t, q, vp](benchmark::State& st) {
        const auto p = quantize::params(1.0f, 8, 8);
        // A placed copy must write the original's bytes for this tensor.
        const auto run = placed_checked(vp->run_i8, vp->info.name, [&](auto a, auto b) {
          std::vector<std::int8_t> qa(kN), qb(kN);
          a(t->x.data(), kN, p, qa.data());
          b(t->x.data(), kN, p, qb.data());
          return qa == qb;
        });
        time_calls(st, [&] { run(t->x.data(), kN, p, q->data()); });
      });
    }
  }
}

}  // namespace nnuelab::bench
