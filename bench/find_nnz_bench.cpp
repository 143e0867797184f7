// find_nnz: every registered variant x input-layer sizes x both forms x densities, plus the
// scalar reference. Names: find_nnz/<isa>/<technique>/<n><b|c>/<density>, where the shape
// is n input bytes and the form (b: index per byte, c: index per 4-byte chunk), e.g.
// find_nnz/avx2/lsb/1024c/chunk:15.
#include <cstdio>
#include <cstring>
#include <functional>

#include "bench/harness.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "kernels/common/page.h"
#include "kernels/find_nnz/registry.h"
#include "reference/find_nnz.h"

namespace nnuelab::bench {
namespace {

using find_nnz::Form;
using find_nnz::Shape;
using workloads::Density;
using workloads::DensityKind;

// The inputs of real first layers (L1 = 1024, 1536, 3072 bytes after the feature transformer).
const std::vector<int> kSizes = {1024, 1536, 3072};


std::string shape_tag(const Shape& s) { return std::to_string(s.n) + (s.form == Form::kBytes ? "b" : "c"); }

// Times kernel(input, indices) -> count over the pool of (n, density). One index buffer is
// reused by every call, as an engine reuses its stack array, placed as the affine kernels
// place their own lists: where its room does not straddle a page boundary (whether a heap
// buffer did changed with the process, and the list's vector stores across one cost about
// 20 times another: kernels/common/page.h).
template <class Kernel>
void time_find_nnz(benchmark::State& state, const Shape& s, const workloads::InputPool& pool, Kernel kernel) {
  const int batch = batch_size(s.n);
  const int max_count = s.form == Form::kBytes ? s.n : s.n / 4;
  workloads::Buffer<std::uint8_t> hot(pool.stride * batch);
  const std::size_t room = std::size_t(max_count) + find_nnz::kOutputSlack;
  workloads::Buffer<std::uint16_t> list(room + kPageBytes / sizeof(std::uint16_t));
  std::uint16_t* const out = within_a_page(list.data(), room * sizeof(std::uint16_t));
  long total = 0;
  run_batched(
      state, batch,
      [&](int first) {
        scrub_branch_predictor();  // --scrub=N (before the copies: they leave the inputs in L1)
        for (int j = 0; j < batch; ++j)
          workloads::stage_copy(hot.data() + j * pool.stride, pool.get((first + j) % pool.count), s.n);
      },
      [&](int j) { total += kernel(hot.data() + j * pool.stride, out); }, pool.count);
  benchmark::DoNotOptimize(total);
  state.counters["nnz"] = s.form == Form::kBytes ? pool.mean.nnz_bytes : pool.mean.nnz_chunks;
  state.counters["byte_density"] = pool.mean.byte_density;
  state.counters["chunk_density"] = pool.mean.chunk_density;
  // Rate counters divide by the manual (kernel) time; inverted, n/1024 * 1e-9 per call gives
  // nanoseconds per 1024 input bytes.
  state.counters["ns_per_1024_inputs"] =
      benchmark::Counter(s.n / 1024.0 * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The reference and every selected variant at one shape; `pool` is called inside the
// benchmark, so pools are built only for what runs.
void register_shape(const Shape& s, const std::string& density_name, std::function<const workloads::InputPool*()> pool) {
  std::string suffix = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain here
  suffix += shape_tag(s) + "/" + density_name;
  if (!forced_variant())
    register_variant_benchmark("find_nnz/scalar/reference" + suffix, nullptr, s.n, [s, pool](benchmark::State& st) {
      time_find_nnz(st, s, *pool(), [&s](const std::uint8_t* x, std::uint16_t* out) {
        return s.form == Form::kBytes ? ref::find_nnz_bytes(x, s.n, out) : ref::find_nnz_chunks(x, s.n, out);
      });
    });
  for (const find_nnz::Variant* v : selected_variants(find_nnz::variants())) {
    if (v->info.available() && !find_nnz::why_unsupported(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, s.n, [v, s, pool](benchmark::State& st) {
      const workloads::InputPool& p = *pool();
      // A placed copy (bench/placement.h) must find the original's list for 16 inputs.
      const auto run = placed_checked(v->run, v->info.name, [&](auto a, auto b) {
        const std::size_t room = std::size_t(s.n) + find_nnz::kOutputSlack;
        workloads::Buffer<std::uint16_t> list_a(room), list_b(room);
        for (int i = 0; i < 16; ++i) {
          const int count = a(s, p.get(i), list_a.data());
          if (b(s, p.get(i), list_b.data()) != count ||
              std::memcmp(list_a.data(), list_b.data(), std::size_t(count) * 2) != 0)
            return false;
        }
        return true;
      });
      time_find_nnz(st, s, p, [run, &s](const std::uint8_t* x, std::uint16_t* out) { return run(s, x, out); });
    });
  }
}

// floor/scalar/empty_find_nnz and floor/scalar/checked_find_nnz (register_checked_floors):
// time_find_nnz's loop around the scalar baseline's entry with an empty kernel (it finds
// nothing); checked through find_nnz::run (the CPU, the shape's limits and the variant's
// supports, null buffers, the indices' alignment).
void register_find_nnz_floors(const Shape& s) {
  register_checked_floors("find_nnz", shape_tag(s), s.n, [s](benchmark::State& st, bool checked) {
    const find_nnz::Variant v = with_empty_kernel(find_nnz::variants().front());
    time_find_nnz(st, s, activation_pool(s.n, Density{}), [&](const std::uint8_t* x, std::uint16_t* out) {
      return checked ? find_nnz::run(v, s, x, out) : v.run(s, x, out);
    });
    st.counters.erase("nnz");  // nothing is found
  });
}

}  // namespace

void register_find_nnz() {
  register_find_nnz_floors({1024, Form::kChunks});
  for (int n : kSizes)
    for (Form form : {Form::kChunks, Form::kBytes})
      for (const Density& d : density_grid())
        register_shape({n, form}, d.name(), [n, d] { return &activation_pool(n, d); });
  // Real first-layer inputs: where the branchy lsb walk meets unpredictable data.
  for (const RealTrace& t : real_traces()) {
    std::string name;
    try {
      name = real_density_name(t);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nnuelab_bench: no real-%s find_nnz benchmarks: %s\n", t.tag.c_str(), e.what());
      continue;
    }
    const workloads::InputPool* pool = &trace_pool(t);
    for (Form form : {Form::kChunks, Form::kBytes}) register_shape({t.width, form}, name, [pool] { return pool; });
  }
}

}  // namespace nnuelab::bench
