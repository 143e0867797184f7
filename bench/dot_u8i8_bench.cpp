// dot_u8i8: every selected variant x group counts, the scalar references of the four
// semantics, and the per-ISA peak benchmarks (bench/peak.h).
#include <algorithm>
#include <cstring>

#include "bench/harness.h"
#include "bench/peak.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "kernels/dot_u8i8/registry.h"
#include "reference/dot_u8i8.h"

namespace nnuelab::bench {
namespace {

using dot_u8i8::Shape;
using RunFn = void (*)(const Shape&, std::int32_t*, const std::uint8_t*, const std::int8_t*, const std::uint8_t*,
                       const std::int8_t*);

// The references in the variants' calling form: input A then input B into the same lanes.
template <void (*Ref)(std::int32_t*, const std::uint8_t*, const std::int8_t*, int)>
void twice(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w, const std::uint8_t* u2,
           const std::int8_t* w2) {
  Ref(acc, u, w, s.groups);
  Ref(acc, u2, w2, s.groups);
}

void reference_maddubs_x2(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                          const std::uint8_t* u2, const std::int8_t* w2) {
  ref::dot_u8i8_maddubs_x2(acc, u, w, u2, w2, s.groups);
}

struct Reference {
  const char* technique;
  RunFn run;
};
// "reference" (dpbusd, the exact semantics) is the op's baseline for every speedup.
constexpr Reference kReferences[] = {
    {"reference", &twice<ref::dot_u8i8_dpbusd>},
    {"reference_dpbusds", &twice<ref::dot_u8i8_dpbusds>},
    {"reference_maddubs", &twice<ref::dot_u8i8_maddubs>},
    {"reference_maddubs_x2", &reference_maddubs_x2},
};

// Times one call over `groups` lanes. The activations u and u2 (two different inputs per
// call) rotate through activation_pool's 16,384-input dense pool (0..127) and are L1-hot; the weights w,
// w2 are fixed, as a layer's are. Calls write their own accumulator rows while those fit in
// 8 KiB, so consecutive short calls do not queue behind each other's stores (throughput,
// not a store-forwarding chain); long calls share a few rows, where that cannot happen.
template <class Run>
void time_dot(benchmark::State& state, int groups, Run run, const std::string& isa) {
  const Shape s{groups};
  const int bytes = 4 * groups;
  const workloads::InputPool& pool = activation_pool(bytes, workloads::Density{});
  const int batch = batch_size(2 * std::size_t(bytes));
  const int rows = std::clamp(2048 / groups, 1, batch);
  workloads::Buffer<std::uint8_t> hot_u(std::size_t(bytes) * batch), hot_u2(std::size_t(bytes) * batch);
  workloads::Buffer<std::int8_t> w(bytes), w2(bytes);
  workloads::Buffer<std::int32_t> acc(std::size_t(groups) * rows);
  workloads::Rng rng(0xd07 + groups);
  for (int i = 0; i < bytes; ++i) {
    w[i] = std::int8_t(rng.uniform(-128, 127));
    w2[i] = std::int8_t(rng.uniform(-128, 127));
  }
  run_batched(
      state, batch,
      [&](int first) {
        for (int j = 0; j < batch; ++j) {
          workloads::stage_copy(hot_u.data() + std::size_t(j) * bytes, pool.get((first + j) % pool.count), bytes);
          workloads::stage_copy(hot_u2.data() + std::size_t(j) * bytes, pool.get((first + j + pool.count / 2) % pool.count), bytes);
        }
      },
      [&](int j) {
        run(s, acc.data() + std::size_t(j % rows) * groups, hot_u.data() + std::size_t(j) * bytes, w.data(),
            hot_u2.data() + std::size_t(j) * bytes, w2.data());
      });
  // Two inputs of 4 bytes per group: 8 MACs per group per call.
  state.counters["macs"] = benchmark::Counter(8.0 * groups, benchmark::Counter::kIsIterationInvariantRate);
  set_pct_peak(state, isa, 8.0 * groups);  // as for affine; given again from `macs` at the end of the run
}

// Whether kernels a and b leave the same accumulators for 16 pairs of pool inputs (a placed
// copy's check, bench/placement.h), each from zero, with random weights.
bool same_dot(int groups, RunFn a, RunFn b) {
  const Shape s{groups};
  const int bytes = 4 * groups;
  const workloads::InputPool& pool = activation_pool(bytes, workloads::Density{});
  workloads::Buffer<std::int8_t> w(bytes), w2(bytes);
  workloads::Rng rng(0x91ace + groups);
  for (int i = 0; i < bytes; ++i) {
    w[i] = std::int8_t(rng.uniform(-128, 127));
    w2[i] = std::int8_t(rng.uniform(-128, 127));
  }
  workloads::Buffer<std::int32_t> acc_a(groups), acc_b(groups);
  for (int i = 0; i < 16; ++i) {
    std::memset(acc_a.data(), 0, std::size_t(groups) * 4);
    std::memset(acc_b.data(), 0, std::size_t(groups) * 4);
    a(s, acc_a.data(), pool.get(i), w.data(), pool.get(i + 16), w2.data());
    b(s, acc_b.data(), pool.get(i), w.data(), pool.get(i + 16), w2.data());
    if (std::memcmp(acc_a.data(), acc_b.data(), std::size_t(groups) * 4) != 0) return false;
  }
  return true;
}

// floor/scalar/empty_dot and floor/scalar/checked_dot (register_checked_floors): time_dot's
// loop around the first registered variant's entry with an empty kernel; checked through
// dot_u8i8::run (the shape's refusal, null buffers, the accumulators' alignment).
void register_dot_floors(int groups) {
  const Shape s{groups};
  register_checked_floors("dot", dot_u8i8::shape_name(s), 8 * std::size_t(groups), [s](benchmark::State& st, bool checked) {
    const dot_u8i8::Variant v = with_empty_kernel(dot_u8i8::variants().front());
    time_dot(
        st, s.groups,
        [&](const Shape& shape, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w, const std::uint8_t* u2,
            const std::int8_t* w2) {
          if (checked) dot_u8i8::run(v, shape, acc, u, w, u2, w2);
          else v.run(shape, acc, u, w, u2, w2);
        },
        "scalar");
    for (const char* c : {"macs", "pct_peak"}) st.counters.erase(c);
  });
}

}  // namespace

void register_dot_u8i8() {
  const bool forced = forced_variant().has_value();
  for (int groups : {8, 64, 1024}) {
    const Shape s{groups};
    const std::string suffix = std::string("/").append(dot_u8i8::shape_name(s)).append("/dense:100");
    const std::size_t input_bytes = 8 * std::size_t(groups);  // u and u2
    if (!forced)
      for (const Reference& r : kReferences)
        register_variant_benchmark(std::string("dot_u8i8/scalar/") + r.technique + suffix, nullptr, input_bytes,
                                   [=](benchmark::State& st) { time_dot(st, groups, r.run, "scalar"); });
    for (const dot_u8i8::Variant* v : selected_variants(dot_u8i8::variants())) {
      if (v->info.available() && !dot_u8i8::why_unsupported(*v, s).empty()) continue;
      register_variant_benchmark(v->info.name + suffix, &v->info, input_bytes,
                                 [=](benchmark::State& st) {
                                   const RunFn run = placed_checked(v->run, v->info.name, [&](RunFn a, RunFn b) {
                                     return same_dot(groups, a, b);
                                   });
                                   time_dot(st, groups, run, v->info.isa);
                                 });
    }
  }
  // The peaks are machine facts, not variants: only when no variant is forced.
  if (!forced) register_peak_benchmarks();
  register_dot_floors(64);
}

}  // namespace nnuelab::bench
