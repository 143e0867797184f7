// affine: every registered variant x real shapes x densities, plus the scalar reference.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "bench/harness.h"
#include "bench/peak.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "kernels/affine/registry.h"
#include "kernels/common/elementwise.h"
#include "reference/affine.h"
#include "workloads/data.h"

namespace nnuelab::bench {
namespace {

using affine::Shape;
using workloads::Density;
using workloads::DensityKind;

// Input layers of real nets (sparse inputs: the density grid applies) ...
const std::vector<Shape> kInputLayers = {{1024, 32}, {1536, 16}, {3072, 16}};
// ... and the small dense layers behind them.
const std::vector<Shape> kDenseLayers = {{512, 32}, {64, 32}, {32, 32}, {32, 1}, {128, 1}};


struct Weights {
  std::vector<std::int8_t> w;
  std::vector<std::int32_t> b;
};

// Random net-like weights per shape (workloads::fill_net_like_weights: the two-chunk
// variants pair chunks as far as a real net lets them; no other kernel's speed depends on
// weight values). Block-sparse-output variants get weights where each input chunk feeds 4
// random blocks of 16 outputs (the most they accept), the rest zero.
const Weights& weights_for(const Shape& s, bool block_sparse = false) {
  static std::map<std::tuple<int, int, bool>, std::unique_ptr<Weights>> cache;
  auto& slot = cache[{s.in, s.out, block_sparse}];
  if (!slot) {
    workloads::Rng rng(0x5eed + s.in * 131 + s.out);
    slot = std::make_unique<Weights>();
    slot->w.resize(std::size_t(s.in) * s.out);
    slot->b.resize(s.out);
    workloads::fill_net_like_weights(rng, slot->w.data(), slot->w.size());
    for (auto& v : slot->b) v = std::int32_t(rng.uniform(-(1 << 16), 1 << 16));
    const int blocks = s.out / 16;
    if (block_sparse && blocks > 4) {
      for (int c = 0; c < s.in / 4; ++c) {
        std::vector<bool> keep(blocks, false);
        for (int k = 0; k < 4; ++k) keep[rng.uniform(0, blocks - 1)] = true;
        for (int o = 0; o < s.out; ++o)
          if (!keep[o / 16])
            for (int j = 0; j < 4; ++j) slot->w[std::size_t(o) * s.in + 4 * c + j] = 0;
      }
    }
  }
  return *slot;
}

// What one call keeps in L1 besides the weights: its input bytes and its int32 outputs.
// Until 2026-11-24 the batch was sized by the input alone; a small layer with wide
// outputs then overflowed L1 (64x32: 256 calls, 16 KiB of inputs and 32 KiB of outputs).
std::size_t call_bytes(const Shape& s) { return std::size_t(s.in) + std::size_t(s.out) * 4; }

// Each pool input's nnz bitset and list of non-zero chunks (workloads::pool_nnz_bitsets,
// pool_nnz_lists), made once per pool: made per batch before the clock, the bitsets took
// 4-6 times the wall time of the timed calls, so the `_from_bits` benchmarks ran several
// times longer than their twins. Pools live as long as the process (harness.h), so their
// addresses are stable keys.
template <class T, std::vector<T> (*make)(const workloads::InputPool&)>
const std::vector<T>& per_pool(const workloads::InputPool& pool) {
  static std::map<const workloads::InputPool*, std::vector<T>> cache;
  std::vector<T>& made = cache[&pool];
  if (made.empty()) made = make(pool);
  return made;
}
const std::vector<std::uint64_t>& pool_bitsets(const workloads::InputPool& pool) {
  return per_pool<std::uint64_t, workloads::pool_nnz_bitsets>(pool);
}
const std::vector<std::uint16_t>& pool_lists(const workloads::InputPool& pool) {
  return per_pool<std::uint16_t, workloads::pool_nnz_lists>(pool);
}

// Times `kernel(input, output)` over a pool of inputs, with the counters every affine
// result carries. `useful` is the MACs a call really has to do: in x out for a dense
// technique, non-zero chunks x 4 x out for a sparse one; pct_peak compares its rate with
// the peak of the variant's ISA measured in this process.
// side (pool_bitsets, pool_lists): the kernel also takes each input's row of it, copied
// with the batch's inputs before the clock starts, as a fused producer (the bitset) or a
// caller that listed the chunks (the list) would have left it: kernel(input, row, output).
template <class Side = std::uint64_t, class Kernel>
void time_affine(benchmark::State& state, const Shape& s, const workloads::InputPool& pool, bool sparse,
                 const std::string& isa, Kernel&& kernel, const std::vector<Side>* side = nullptr) {
  const int batch = batch_size(call_bytes(s));
  const std::size_t stride = side ? side->size() / std::size_t(pool.count) : 0;  // a row per pool input
  workloads::Buffer<std::uint8_t> hot(pool.stride * batch);
  workloads::Buffer<std::int32_t> out(std::size_t(s.out) * batch);
  workloads::Buffer<Side> rows(side ? stride * batch : 1);
  run_batched(
      state, batch,
      [&](int first) {
        scrub_branch_predictor();  // --scrub=N (before the copies: they leave the inputs in L1)
        for (int j = 0; j < batch; ++j) {
          const int k = (first + j) % pool.count;
          workloads::stage_copy(hot.data() + j * pool.stride, pool.get(k), s.in);
          if (side) workloads::stage_copy(rows.data() + j * stride, side->data() + std::size_t(k) * stride, stride * sizeof(Side));
        }
      },
      [&](int j) {
        if constexpr (std::is_invocable_v<Kernel&, const std::uint8_t*, std::int32_t*>)
          kernel(hot.data() + j * pool.stride, out.data() + j * s.out);
        else
          kernel(hot.data() + j * pool.stride, rows.data() + j * stride, out.data() + j * s.out);
      },
      pool.count);
  const double macs = double(s.in) * s.out;
  const double useful = sparse ? double(pool.mean.nnz_chunks) * 4 * s.out : macs;
  state.counters["macs"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["useful_macs"] = benchmark::Counter(useful, benchmark::Counter::kIsIterationInvariantRate);
  set_pct_peak(state, isa, useful);  // provisional: given again from useful_macs at the end of the run
  state.counters["nnz"] = pool.mean.nnz_bytes;
  state.counters["nnz_chunks"] = pool.mean.nnz_chunks;
  state.counters["byte_density"] = pool.mean.byte_density;
  state.counters["chunk_density"] = pool.mean.chunk_density;
}

// The variant as timed: its kernels from NNUELAB_PLACE's copy when that names one of them
// (bench/placement.h, ./lab placement), once the copy wrote the original's outputs byte for
// byte on the pool's first 64 inputs (a copy re-aimed wrongly must not time as a kernel);
// else the variant itself. call(variant, packed, input, row of side or null, output).
template <class Side, class Call>
affine::Variant as_placed(const affine::Variant& v, const Shape& s, const affine::Packed& packed,
                          const workloads::InputPool& p, const std::vector<Side>* side, Call call) {
  affine::Variant u = v;
  u.run = placed(v.run);
  u.run_bits = placed(v.run_bits);
  u.run_list = placed(v.run_list);
  if (u.run == v.run && u.run_bits == v.run_bits && u.run_list == v.run_list) return u;
  const std::size_t stride = side ? side->size() / std::size_t(p.count) : 0;
  workloads::Buffer<std::int32_t> original(s.out), copy(s.out);
  for (int i = 0; i < std::min(p.count, 64); ++i) {
    const Side* row = side ? side->data() + std::size_t(i) * stride : nullptr;
    std::memset(copy.data(), 0x5a, std::size_t(s.out) * 4);
    call(v, packed, p.get(i), row, original.data());
    call(u, packed, p.get(i), row, copy.data());
    if (std::memcmp(original.data(), copy.data(), std::size_t(s.out) * 4) != 0)
      refuse_copy(v.info.name, " for input " + std::to_string(i));
  }
  return u;
}

// A sparse variant's path given data made from each input outside the clock (`side`:
// pool_bitsets, pool_lists), under `name`: call(variant, packed, input, row, output).
template <class Side, class Call>
void register_given(const std::string& name, const affine::Variant* v, const Shape& s,
                    const std::function<const workloads::InputPool*()>& pool,
                    const std::vector<Side>& (*side)(const workloads::InputPool&), Call call) {
  register_variant_benchmark(name, &v->info, call_bytes(s), [=](benchmark::State& st) {
    const Weights& w = weights_for(s);
    const affine::Packed packed = affine::prepare(*v, {s, w.w.data(), w.b.data()});  // untimed
    const workloads::InputPool& p = *pool();
    const affine::Variant u = as_placed(*v, s, packed, p, &side(p), call);
    time_affine(
        st, s, p, true, v->info.isa,
        [&](const std::uint8_t* x, const Side* row, std::int32_t* y) { call(u, packed, x, row, y); }, &side(p));
  });
}

// Dense techniques do the same work at any density: timed once, at dense:100.
bool density_sensitive(const affine::Variant& v) { return v.info.technique.rfind("sparse", 0) == 0; }

// Registers the reference (at dense inputs) and every selected variant that suits the
// pool's kind at one shape; `pool` is called inside the benchmark (pools are built lazily).
void register_shape(const Shape& s, const std::string& density_name, bool dense_input,
                    std::function<const workloads::InputPool*()> pool) {
  std::string suffix = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain here
  suffix += affine::shape_name(s) + "/" + density_name;
  if (!forced_variant() && dense_input)
    register_variant_benchmark("affine/scalar/reference" + suffix, nullptr, call_bytes(s), [s, pool](benchmark::State& st) {
      const Weights& w = weights_for(s);
      time_affine(st, s, *pool(), false, "scalar", [&](const std::uint8_t* x, std::int32_t* y) {
        ref::affine(w.w.data(), w.b.data(), s.in, s.out, x, y);
      });
    });
  for (const affine::Variant* v : selected_variants(affine::variants())) {
    if (!dense_input && !density_sensitive(*v)) continue;
    if (v->info.available() && !affine::why_unsupported(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, call_bytes(s), [v, s, pool](benchmark::State& st) {
      const Weights& w = weights_for(s, v->info.technique.starts_with("sparse_bso"));
      const affine::Packed packed = affine::prepare(*v, {s, w.w.data(), w.b.data()});  // untimed
      const workloads::InputPool& p = *pool();
      const auto run = as_placed<std::uint64_t>(
          *v, s, packed, p, nullptr,
          [](const affine::Variant& u, const affine::Packed& k, const std::uint8_t* x, const std::uint64_t*,
             std::int32_t* y) { u.run(k, x, y); }).run;
      time_affine(st, s, p, density_sensitive(*v), v->info.isa,
                  [&](const std::uint8_t* x, std::int32_t* y) { run(packed, x, y); });
    });
    // Variants that can take a fused producer's nnz bitset, given it: the technique name
    // with _from_bits (not a registry name). The producer's cost of writing the bitset is
    // its own benchmark (the activations' *_bits variants).
    // The quick grid times them at chunk:15 and on the real traces only (not byte:15).
    if (!v->run_bits || dense_input || (grid() == Grid::kQuick && density_name.starts_with("byte"))) continue;
    register_given(affine::from_bits_name(*v) + suffix, v, s, pool, pool_bitsets,
                   [](const affine::Variant& u, const affine::Packed& packed, const std::uint8_t* x,
                      const std::uint64_t* bits, std::int32_t* y) { u.run_bits(packed, x, bits, y); });
    // The list walks given the list (_from_list): the dots of a call without its nnz
    // extraction (the find_nnz benchmarks time that alone). Only the table-list rows have
    // one: the lsb and compress forms walk their lists with the same dots.
    if (!v->run_list) continue;
    register_given(affine::from_list_name(*v) + suffix, v, s, pool, pool_lists,
                   [](const affine::Variant& u, const affine::Packed& packed, const std::uint8_t* x,
                      const std::uint16_t* row, std::int32_t* y) { u.run_list(packed, x, row + 1, row[0], y); });
  }
}

// floor/scalar/empty_affine and floor/scalar/checked_affine (register_checked_floors):
// time_affine's loop around the scalar baseline's entry with an empty kernel, its weights
// prepared by that copy; checked through affine::run (null buffers, the output's alignment,
// weights prepared by this same variant).
void register_affine_floors(const Shape& s) {
  register_checked_floors("affine", affine::shape_name(s), call_bytes(s), [s](benchmark::State& st, bool checked) {
    const affine::Variant v = with_empty_kernel(affine::variants().front());
    const Weights& w = weights_for(s);
    const affine::Packed packed = affine::prepare(v, {s, w.w.data(), w.b.data()});
    time_affine(st, s, activation_pool(s.in, Density{}), false, "scalar", [&](const std::uint8_t* x, std::int32_t* y) {
      if (checked) affine::run(v, packed, x, y);
      else v.run(packed, x, y);
    });
    for (const char* c : {"macs", "useful_macs", "pct_peak"}) st.counters.erase(c);
  });
}

}  // namespace

void register_affine() {
  std::vector<Shape> shapes = kInputLayers;
  shapes.insert(shapes.end(), kDenseLayers.begin(), kDenseLayers.end());
  for (const Shape& s : shapes) {
    const bool input_layer = s.in >= 1024;
    for (const Density& d : input_layer ? density_grid() : std::vector<Density>{{}})
      register_shape(s, d.name(), d.kind == DensityKind::kDense, [s, d] { return &activation_pool(s.in, d); });
  }
  register_affine_floors({32, 32});  // the checks do not depend on the shape
  // Real inputs: the first layer of each traced net, at 16 and 32 outputs.
  std::string why;
  if (!workloads::data_dir(&why)) {
    std::fprintf(stderr, "nnuelab_bench: no real-<net> affine benchmarks: %s\n", why.c_str());
    return;
  }
  for (const RealTrace& t : real_traces()) {
    std::string name;
    try {
      name = real_density_name(t);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nnuelab_bench: no real-%s benchmarks: %s\n", t.tag.c_str(), e.what());
      continue;
    }
    const workloads::InputPool* pool = &trace_pool(t);
    for (int out : {16, 32}) register_shape({t.width, out}, name, false, [pool] { return pool; });
  }
}

}  // namespace nnuelab::bench
