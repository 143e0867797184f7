// crelu16 and crelu32: every registered variant x sizes, plus the scalar references.
#include <cstring>

#include "bench/harness.h"
#include "bench/register.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "reference/crelu16.h"
#include "reference/crelu32.h"

namespace nnuelab::bench {
namespace {

// kPoolInputs input vectors of n elements uniform in [lo, hi], back to back.
template <class T>
struct Pool {
  int n;
  workloads::Buffer<T> data;
  Pool(int n_, std::int64_t lo, std::int64_t hi, std::uint64_t seed) : n(n_), data(std::size_t(n_) * kPoolInputs) {
    workloads::Rng rng(seed);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = T(rng.uniform(lo, hi));
  }
  const T* get(int i) const { return data.data() + std::size_t(i % kPoolInputs) * n; }
};

// Times kernel(in, out) on n elements per call, inputs rotating through the pool.
template <class In>
void time_elementwise(benchmark::State& state, const Pool<In>& pool,
                      const std::function<void(const In*, std::uint8_t*)>& kernel) {
  const int n = pool.n;
  const int batch = batch_size(n * sizeof(In));
  workloads::Buffer<In> hot(std::size_t(n) * batch);
  workloads::Buffer<std::uint8_t> out(std::size_t(n) * batch + 64);
  run_batched(
      state, batch,
      [&](int first) {
        for (int j = 0; j < batch; ++j) std::memcpy(hot.data() + std::size_t(j) * n, pool.get(first + j), n * sizeof(In));
      },
      [&](int j) { kernel(hot.data() + std::size_t(j) * n, out.data() + std::size_t(j) * n); });
  state.counters["elements"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
}

// Registers the reference and every selected variant of one elementwise op at one shape.
template <class V, class Ref>
void register_elementwise(const char* op, std::span<const V> all, const typename V::Shape& s,
                          const std::string& shape_name, std::shared_ptr<Pool<typename V::Input>> pool, Ref ref,
                          std::string (*why)(const V&, const typename V::Shape&)) {
  using In = typename V::Input;
  const std::string suffix = "/" + shape_name + "/dense:100";
  if (!forced_variant())
    register_variant_benchmark(std::string(op) + "/scalar/reference" + suffix, nullptr, s.n * sizeof(In), [=](benchmark::State& st) {
      time_elementwise<In>(st, *pool, [&](const In* in, std::uint8_t* out) { ref(s, in, out); });
    });
  for (const V* v : selected_variants(all)) {
    if (v->info.available() && !why(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, s.n * sizeof(In), [=](benchmark::State& st) {
      time_elementwise<In>(st, *pool, [&](const In* in, std::uint8_t* out) { v->run(s, in, out); });
    });
  }
}

}  // namespace

void register_activations() {
  // crelu16 reads feature-transformer accumulators: mostly within a few hundred of 0.
  for (int n : {32, 1024, 2048}) {
    auto pool = std::make_shared<Pool<std::int16_t>>(n, -600, 600, 16 + n);
    register_elementwise<crelu16::Variant>(
        "crelu16", crelu16::variants(), crelu16::Shape{n}, crelu16::shape_name(crelu16::Shape{n}), pool,
        [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
        &crelu16::why_unsupported);
  }
  // crelu32 reads affine outputs at weight scale 64 (shift 6).
  for (int n : {32, 1024, 2048}) {
    const crelu32::Shape s{n, 6};
    auto pool = std::make_shared<Pool<std::int32_t>>(n, -(1 << 14), 1 << 14, 32 + n);
    register_elementwise<crelu32::Variant>(
        "crelu32", crelu32::variants(), s, crelu32::shape_name(s), pool,
        [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, sh.n, sh.shift, out); },
        &crelu32::why_unsupported);
  }
}

}  // namespace nnuelab::bench
