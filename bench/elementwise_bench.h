// Benchmark helpers shared by the elementwise ops (activations, pooling, fused
// feature-transformer outputs): input pools, the timed loop, and registration of the
// reference plus every selected variant of an op at one shape.
#pragma once
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bench/harness.h"
#include "bench/placement.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::bench {

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
// out_n: output bytes per call. kernel(in, out, bits): bits has room for the output's
// nnz bitset (used by *_bits variants only). A template (not std::function), so the timed
// loop reaches a variant through its one registry function pointer and nothing else: at
// 32 elements a kernel takes 2-3 ns, and the std::function hop was about a third of it
// (crelu32 of 32 on avx2: 3.3 ns through it, 2.15 ns without, on the Xeon of
// docs/findings/xeon-2026-11-24.md).
template <class In, class Kernel>
inline void time_elementwise(benchmark::State& state, const Pool<In>& pool, int out_n, Kernel&& kernel) {
  const int n = pool.n;
  const int batch = batch_size(n * sizeof(In));
  const int words = nnz_bitset_words(out_n);
  workloads::Buffer<In> hot(std::size_t(n) * batch);
  workloads::Buffer<std::uint8_t> out(std::size_t(out_n) * batch + 64);
  std::vector<std::uint64_t> bits(std::size_t(words) * batch);
  run_batched(
      state, batch,
      [&](int first) {
        for (int j = 0; j < batch; ++j) workloads::stage_copy(hot.data() + std::size_t(j) * n, pool.get(first + j), n * sizeof(In));
      },
      [&](int j) { kernel(hot.data() + std::size_t(j) * n, out.data() + std::size_t(j) * out_n, bits.data() + std::size_t(j) * words); });
  state.counters["elements"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
}

// The inlined form's timing (ElementwiseVariant::run_many): the same pool, staging and
// clock as time_elementwise, but the whole batch is one many(in, out, bits, batch) call,
// so no call per element vector is timed. Consecutive calls' inputs and outputs are
// back to back (n elements in, out_n bytes out, nnz_bitset_words(out_n) words per call).
template <class In, class Many>
inline void time_elementwise_many(benchmark::State& state, const Pool<In>& pool, int out_n, Many&& many) {
  const int n = pool.n;
  const int batch = batch_size(n * sizeof(In));
  workloads::Buffer<In> hot(std::size_t(n) * batch);
  workloads::Buffer<std::uint8_t> out(std::size_t(out_n) * batch + 64);
  std::vector<std::uint64_t> bits(std::size_t(nnz_bitset_words(out_n)) * batch);
  run_batched_whole(
      state, batch,
      [&](int first) {
        for (int j = 0; j < batch; ++j) workloads::stage_copy(hot.data() + std::size_t(j) * n, pool.get(first + j), n * sizeof(In));
      },
      [&] { many(hot.data(), out.data(), bits.data(), batch); });
  state.counters["elements"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
}

// Whether kernels a and b, called as call(kernel, in, out, bits), write the same output
// bytes and nnz bitset words for the pool's first 16 inputs (a placed copy's check).
template <class In, class K, class Call>
bool same_elementwise(const Pool<In>& pool, int out_n, K a, K b, Call call) {
  const std::size_t words = std::size_t(nnz_bitset_words(out_n));
  for (int i = 0; i < 16; ++i) {
    workloads::Buffer<std::uint8_t> out_a(std::size_t(out_n) + 64), out_b(std::size_t(out_n) + 64);
    std::vector<std::uint64_t> bits_a(words + 1, 0), bits_b(words + 1, 0);
    std::memset(out_b.data(), 0x5a, out_b.size());
    std::memset(out_a.data(), 0x5a, out_a.size());
    call(a, pool.get(i), out_a.data(), bits_a.data());
    call(b, pool.get(i), out_b.data(), bits_b.data());
    if (std::memcmp(out_a.data(), out_b.data(), out_a.size()) != 0 || bits_a != bits_b) return false;
  }
  return true;
}

// Registers the reference and every selected variant of one elementwise op at one shape.
// out_n: output bytes per call (-1: one per input element). ref(shape, in, out).
template <class V, class Ref>
void register_elementwise(const char* op, std::span<const V> all, const typename V::Shape& s,
                          const std::string& shape_name, std::shared_ptr<Pool<typename V::Input>> pool, Ref ref,
                          std::string (*why)(const V&, const typename V::Shape&), int out_n = -1) {
  if (out_n < 0) out_n = pool->n;
  using In = typename V::Input;
  const std::string suffix = "/" + shape_name + "/dense:100";
  if (!forced_variant())
    register_variant_benchmark(std::string(op) + "/scalar/reference" + suffix, nullptr, pool->n * sizeof(In), [=](benchmark::State& st) {
      time_elementwise<In>(st, *pool, out_n, [&](const In* in, std::uint8_t* out, std::uint64_t*) { ref(s, in, out); });
    });
  for (const V* v : selected_variants(all)) {
    if (v->info.available() && !why(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, pool->n * sizeof(In), [=](benchmark::State& st) {
      const auto call = [&](auto kernel, const In* in, std::uint8_t* out, std::uint64_t* bits) {
        kernel(s, in, out, v->writes_bits ? bits : nullptr);
      };
      const auto run = placed_checked(v->run, v->info.name, [&](auto a, auto b) {
        return same_elementwise(*pool, out_n, a, b, call);
      });
      time_elementwise<In>(st, *pool, out_n, [&](const In* in, std::uint8_t* out, std::uint64_t* bits) {
        call(run, in, out, bits);
      });
    });
  }
}

// The inlined forms (run_many) of every selected variant that has one, at one shape, named
// <variant>/<shape>+inlined/dense:100: the op's cost per call where it is inlined into its
// caller with a fixed shape, without the function-pointer call and per-call shape decoding
// that the plain benchmark of the same variant includes (its floor/scalar/empty_call).
template <class V>
void register_elementwise_inlined(std::span<const V> all, const typename V::Shape& s, const std::string& shape_name,
                                  std::shared_ptr<Pool<typename V::Input>> pool,
                                  std::string (*why)(const V&, const typename V::Shape&), int out_n = -1) {
  if (out_n < 0) out_n = pool->n;
  using In = typename V::Input;
  for (const V* v : selected_variants(all)) {
    if (!v->run_many || (v->info.available() && !why(*v, s).empty())) continue;
    register_variant_benchmark(v->info.name + "/" + shape_name + "+inlined/dense:100", &v->info, pool->n * sizeof(In),
                               [=](benchmark::State& st) {
                                 const auto many = placed_checked(v->run_many, v->info.name, [&](auto a, auto b) {
                                   return same_elementwise(*pool, out_n, a, b, [&](auto k, const In* in, std::uint8_t* out,
                                                                                   std::uint64_t* bits) {
                                     k(s, in, out, v->writes_bits ? bits : nullptr, 1);
                                   });
                                 });
                                 time_elementwise_many<In>(st, *pool, out_n, [&](const In* in, std::uint8_t* out, std::uint64_t* bits, int count) {
                                   many(s, in, out, v->writes_bits ? bits : nullptr, count);
                                 });
                               });
  }
}

}  // namespace nnuelab::bench
