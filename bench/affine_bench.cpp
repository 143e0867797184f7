// affine: every registered variant x real shapes x densities, plus the scalar reference.
#include <cstring>
#include <map>
#include <memory>

#include "bench/harness.h"
#include "bench/register.h"
#include "kernels/affine/registry.h"
#include "reference/affine.h"

namespace nnuelab::bench {
namespace {

using affine::Shape;
using workloads::Density;
using workloads::DensityKind;

// Input layers of real nets (sparse inputs: the density grid applies) ...
const std::vector<Shape> kInputLayers = {{1024, 32}, {1536, 16}, {3072, 16}};
// ... and the small dense layers behind them.
const std::vector<Shape> kDenseLayers = {{512, 32}, {64, 32}, {32, 32}, {32, 1}, {128, 1}};

std::vector<Density> density_grid() {
  std::vector<Density> out = {{DensityKind::kDense, 100}};
  const std::vector<double> quick = {5, 15, 30}, full = {0.5, 1, 2, 5, 10, 15, 20, 30, 50, 75, 100};
  if (grid() == Grid::kQuick) {
    for (double p : quick) out.push_back({DensityKind::kChunk, p});
    out.push_back({DensityKind::kByte, 15});
  } else {
    for (double p : full) out.push_back({DensityKind::kByte, p});
    for (double p : full) out.push_back({DensityKind::kChunk, p});
  }
  return out;
}

struct Weights {
  std::vector<std::int8_t> w;
  std::vector<std::int32_t> b;
};

const Weights& weights_for(const Shape& s) {
  static std::map<std::pair<int, int>, std::unique_ptr<Weights>> cache;
  auto& slot = cache[{s.in, s.out}];
  if (!slot) {
    workloads::Rng rng(0x5eed + s.in * 131 + s.out);
    slot = std::make_unique<Weights>();
    slot->w.resize(std::size_t(s.in) * s.out);
    slot->b.resize(s.out);
    for (auto& v : slot->w) v = std::int8_t(rng.uniform(-128, 127));
    for (auto& v : slot->b) v = std::int32_t(rng.uniform(-(1 << 16), 1 << 16));
  }
  return *slot;
}

// Times `kernel(input, output)` over the pool of (shape, density), with the counters every
// affine result carries.
void time_affine(benchmark::State& state, const Shape& s, const Density& d,
                 const std::function<void(const std::uint8_t*, std::int32_t*)>& kernel) {
  const workloads::InputPool& pool = activation_pool(s.in, d);
  const int batch = batch_size(s.in);
  workloads::Buffer<std::uint8_t> hot(pool.stride * batch);
  workloads::Buffer<std::int32_t> out(std::size_t(s.out) * batch);
  run_batched(
      state, batch,
      [&](int first) {
        for (int j = 0; j < batch; ++j)
          std::memcpy(hot.data() + j * pool.stride, pool.get((first + j) % pool.count), s.in);
      },
      [&](int j) { kernel(hot.data() + j * pool.stride, out.data() + j * s.out); });
  const double macs = double(s.in) * s.out;
  state.counters["macs"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["nnz"] = pool.mean.nnz_bytes;
  state.counters["nnz_chunks"] = pool.mean.nnz_chunks;
  state.counters["byte_density"] = pool.mean.byte_density;
  state.counters["chunk_density"] = pool.mean.chunk_density;
}

// Dense techniques do the same work at any density: timed once, at dense:100.
bool density_sensitive(const affine::Variant& v) { return v.info.technique.rfind("sparse", 0) == 0; }

}  // namespace

void register_affine() {
  std::vector<Shape> shapes = kInputLayers;
  shapes.insert(shapes.end(), kDenseLayers.begin(), kDenseLayers.end());
  const auto selected = selected_variants(affine::variants());
  for (const Shape& s : shapes) {
    const bool input_layer = s.in >= 1024;
    for (const Density& d : input_layer ? density_grid() : std::vector<Density>{{}}) {
      std::string suffix = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain here
      suffix += affine::shape_name(s) + "/" + d.name();
      if (!forced_variant() && d.kind == DensityKind::kDense)
        register_variant_benchmark("affine/scalar/reference" + suffix, nullptr, s.in, [s, d](benchmark::State& st) {
          const Weights& w = weights_for(s);
          time_affine(st, s, d, [&](const std::uint8_t* x, std::int32_t* y) {
            ref::affine(w.w.data(), w.b.data(), s.in, s.out, x, y);
          });
        });
      for (const affine::Variant* v : selected) {
        if (d.kind != DensityKind::kDense && !density_sensitive(*v)) continue;
        if (v->info.available() && !affine::why_unsupported(*v, s).empty()) continue;
        register_variant_benchmark(v->info.name + suffix, &v->info, s.in, [v, s, d](benchmark::State& st) {
          const Weights& w = weights_for(s);
          const affine::Packed packed = affine::prepare(*v, {s, w.w.data(), w.b.data()});  // untimed
          time_affine(st, s, d, [&](const std::uint8_t* x, std::int32_t* y) { v->run(packed, x, y); });
        });
      }
    }
  }
}

}  // namespace nnuelab::bench
