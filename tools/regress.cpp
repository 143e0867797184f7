// nnuelab_regress: the instruction-count regression gate's workload (./lab regress).
//
//   nnuelab_regress --list [--filter REGEX]      the case names, one a line
//   nnuelab_regress --run  [--filter REGEX] [--iterations N]
//
// --run, for every case: setup (weights, packing and inputs from fixed seeds) and one
// warm-up call, then CALLGRIND_TOGGLE_COLLECT, N calls cycling over kInputs fixed inputs,
// CALLGRIND_TOGGLE_COLLECT, CALLGRIND_DUMP_STATS_AT(case name). Under
// `valgrind --tool=callgrind --collect-atstart=no` each dump then holds the instructions
// of the N kernel calls alone; tools/regress.py divides by N. Outside valgrind the client
// requests are no-ops: --run is then a quick native self-check.
//
// A case is `<variant name>/<shape>/<density>`, the names nnuelab_bench uses, plus each
// op's scalar reference as `<op>/scalar/reference/<shape>/<density>`. The variants valgrind
// can run: needing nothing beyond AVX2/BMI/FMA/POPCNT/SSE*, and available() (under valgrind,
// CPUID reports what valgrind supports). That includes the SIMDe-emulated ones (<isa>-emu:
// the AVX-512, AVX-VNNI and NEON kernels compiled against SIMDe for plain x86-64, no -m
// flags, so the same code on every x86 CPU). Their counts are SIMDe's emulation, not the
// kernel's speed: they stand for its structure (a loop's trips, a path taken, work done
// twice), which is the kernel's own; a change of intrinsic can move them either way, and
// is then recorded with its reason.
//
// Adding an op = one add_<op>() function below and one line in all_cases().
//
// Built a second time as nnuelab_regress_planted with NNUELAB_REGRESS_PLANT: the case
// crelu16/scalar/clamp/1024/dense:100 then runs a copy of that kernel with extra work in
// its loop, which the gate must catch (tests/CMakeLists.txt, regress.*).
#ifdef NNUELAB_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else  // no valgrind headers: nothing to talk to (the gate then skips: tools/regress.py)
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) (void)(name)
#define RUNNING_ON_VALGRIND 0
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "kernels/affine/registry.h"
#include "kernels/common/elementwise.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/dot_u8i8/registry.h"
#include "kernels/find_nnz/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/ft_output/registry.h"
#include "kernels/octav_step/registry.h"
#include "kernels/pool_avg2/registry.h"
#include "kernels/pool_max2/registry.h"
#include "kernels/pool_product2/registry.h"
#include "kernels/quantize/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/affine.h"
#include "reference/crelu16.h"
#include "reference/crelu32.h"
#include "reference/dot_u8i8.h"
#include "reference/find_nnz.h"
#include "reference/ft.h"
#include "reference/octav.h"
#include "reference/octav_tensors.h"
#include "reference/crelu32_pair.h"
#include "reference/pool.h"
#include "reference/quantmoid4.h"
#include "reference/sqr_crelu32.h"
#include "tools/args.h"
#include "workloads/synthetic.h"

namespace nnuelab::regress {
namespace {

using workloads::Buffer;
using workloads::Density;
using workloads::DensityKind;
using workloads::Rng;

constexpr int kInputs = 8;              // fixed inputs each case cycles over
constexpr int kDefaultIterations = 32;  // calls counted per case

// One call of the kernel on input j (0 <= j < kInputs); the state it needs is captured.
using Call = std::function<void(int j)>;

struct Case {
  std::string name;
  std::function<Call()> setup;  // runs outside collection: weights, packing, inputs
};
using Cases = std::vector<Case>;

// What valgrind 3.19 executes natively: SSE*, AVX, AVX2, BMI1/2, FMA, POPCNT.
constexpr Features kValgrindRuns =
    kSSE2 | kSSSE3 | kSSE41 | kSSE42 | kPOPCNT | kAVX | kAVX2 | kBMI1 | kBMI2 | kFMA;

bool gate_runs(const VariantInfo& info) {
  return (info.needs & ~kValgrindRuns) == 0 && info.available();
}

std::string case_name(const std::string& variant, const std::string& shape, const std::string& density) {
  std::string s = variant;
  s.append("/").append(shape).append("/").append(density);
  return s;
}

// Deterministic seed per case name (FNV-1a), so every case has its own fixed inputs.
std::uint64_t seed_of(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// kInputs vectors of n elements, uniform in [lo, hi], back to back.
template <class T>
std::shared_ptr<Buffer<T>> uniform_inputs(int n, std::int64_t lo, std::int64_t hi, std::uint64_t seed) {
  auto b = std::make_shared<Buffer<T>>(std::size_t(n) * kInputs);
  Rng rng(seed);
  for (std::size_t i = 0; i < b->size(); ++i) (*b)[i] = T(rng.uniform(lo, hi));
  return b;
}

// ---- affine ---------------------------------------------------------------------------
struct AffineShape {
  affine::Shape shape;
  Density density;
};

void add_affine(Cases& out) {
  const std::vector<AffineShape> shapes = {
      {{1024, 32}, {DensityKind::kChunk, 15}},
      {{1536, 16}, {DensityKind::kChunk, 15}},
      // 64 outputs: the widest tiles (AVX2 sparse_lut_i8_tile64's two-register tile, 64
      // outputs) and the multi-tile loops of every kernel run only at 64 outputs or more.
      {{1024, 64}, {DensityKind::kChunk, 15}},
      // 128 outputs: the AVX-512 pipelined blocked forms' 8-register body (run_r<8> at 512
      // bits; the emulated cases count it) and AVX2's slabs of a 16-register shape.
      {{512, 128}, {DensityKind::kChunk, 15}},
      {{32, 32}, {}},
      {{32, 1}, {}},
  };
  for (const AffineShape& as : shapes) {
    const affine::Shape s = as.shape;
    const std::string shape = affine::shape_name(s), density = as.density.name();
    // Weights and inputs depend on the shape and density only: every variant sees the same.
    auto weights = std::make_shared<std::vector<std::int8_t>>();
    auto bias = std::make_shared<std::vector<std::int32_t>>();
    auto pool = std::make_shared<workloads::InputPool>();
    auto data = [=] {
      if (weights->empty()) {
        Rng rng(seed_of("affine/" + shape));
        weights->resize(std::size_t(s.in) * s.out);
        bias->resize(s.out);
        // Net-like weights: the two-chunk (x2) kernels pair chunks where a real net lets
        // them (no other kernel's instruction count depends on weight values).
        workloads::fill_net_like_weights(rng, weights->data(), weights->size());
        for (auto& b : *bias) b = std::int32_t(rng.uniform(-(1 << 16), 1 << 16));
        *pool = workloads::make_input_pool(s.in, as.density, kInputs, seed_of("affine/" + shape + "/" + density));
      }
    };
    auto output = std::make_shared<Buffer<std::int32_t>>(std::size_t(s.out));
    out.push_back({case_name("affine/scalar/reference", shape, density), [=]() -> Call {
                     data();
                     return [=](int j) {
                       ref::affine(weights->data(), bias->data(), s.in, s.out, pool->get(j), output->data());
                     };
                   }});
    for (const affine::Variant& v : affine::variants()) {
      if (!gate_runs(v.info) || !affine::why_unsupported(v, s).empty()) continue;
      // Block-sparse-output kernels accept at most 4 blocks of 16 outputs per input chunk.
      if (v.info.technique.starts_with("sparse_bso") && s.out > 64) continue;
      const affine::Variant* vp = &v;
      // At a case's setup: the data, and the weights packed for this variant.
      auto pack = [=] {
        data();
        return std::make_shared<affine::Packed>(affine::prepare(*vp, {s, weights->data(), bias->data()}));
      };
      out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                       const auto packed = pack();
                       return [=](int j) { vp->run(*packed, pool->get(j), output->data()); };
                     }});
      // The same kernel given a fused producer's nnz bitset (nnuelab_bench's
      // <technique>_from_bits), at sparse inputs; the bitsets are written at setup.
      if (!vp->run_bits || as.density.kind == DensityKind::kDense) continue;
      out.push_back({case_name(affine::from_bits_name(v), shape, density),
                     [=]() -> Call {
                       const auto packed = pack();
                       const std::size_t words = std::size_t(nnz_bitset_words(s.in));
                       auto bits = std::make_shared<std::vector<std::uint64_t>>(workloads::pool_nnz_bitsets(*pool));
                       return [=](int j) { vp->run_bits(*packed, pool->get(j), bits->data() + j * words, output->data()); };
                     }});
      // Its walk given the list (<technique>_from_list: the dots without the nnz
      // extraction), the table-list rows only; the lists are the reference's, made at setup
      // (workloads::pool_nnz_lists: per input the count, then the entries).
      if (!vp->run_list) continue;
      out.push_back({case_name(affine::from_list_name(v), shape, density),
                     [=]() -> Call {
                       const auto packed = pack();
                       const std::size_t stride = workloads::pool_list_stride(*pool);
                       auto lists = std::make_shared<std::vector<std::uint16_t>>(workloads::pool_nnz_lists(*pool));
                       return [=](int j) {
                         const std::uint16_t* row = lists->data() + j * stride;
                         vp->run_list(*packed, pool->get(j), row + 1, row[0], output->data());
                       };
                     }});
    }
  }
}

// ---- find_nnz -------------------------------------------------------------------------
void add_find_nnz(Cases& out) {
  const Density density{DensityKind::kChunk, 15};
  for (find_nnz::Form form : {find_nnz::Form::kChunks, find_nnz::Form::kBytes}) {
    const find_nnz::Shape s{1024, form};
    // nnuelab_bench's tag ("1024c", "1024b"): a case name is a benchmark name.
    const std::string shape = std::to_string(s.n) + (form == find_nnz::Form::kBytes ? "b" : "c");
    auto pool = std::make_shared<workloads::InputPool>(
        workloads::make_input_pool(s.n, density, kInputs, seed_of("find_nnz/" + density.name())));
    auto indices = std::make_shared<Buffer<std::uint16_t>>(std::size_t(s.n) + find_nnz::kOutputSlack);
    out.push_back({case_name("find_nnz/scalar/reference", shape, density.name()), [=]() -> Call {
                     return [=](int j) {
                       if (s.form == find_nnz::Form::kBytes)
                         ref::find_nnz_bytes(pool->get(j), s.n, indices->data());
                       else
                         ref::find_nnz_chunks(pool->get(j), s.n, indices->data());
                     };
                   }});
    for (const find_nnz::Variant& v : find_nnz::variants()) {
      if (!gate_runs(v.info) || !find_nnz::why_unsupported(v, s).empty()) continue;
      const find_nnz::Variant* vp = &v;
      out.push_back({case_name(v.info.name, shape, density.name()), [=]() -> Call {
                       return [=](int j) { vp->run(s, pool->get(j), indices->data()); };
                     }});
    }
  }
}

// ---- elementwise ops (crelu16, crelu32, ..., the pooling ops) -----------------------------
// One case per runnable variant of an ElementwiseVariant registry at one shape, plus the
// reference. `inputs` holds kInputs vectors of s.n elements.
template <class V, class Ref, class Why>
void add_elementwise(Cases& out, const std::string& op, std::span<const V> variants, const typename V::Shape& s,
                     const std::string& shape, std::shared_ptr<Buffer<typename V::Input>> inputs, Ref ref,
                     Why why_unsupported, int out_n = -1, bool inlined = false) {
  using In = typename V::Input;
  using Out = typename V::Output;
  const int n = s.n;
  if (out_n < 0) out_n = n;  // outputs per call (2n for crelu32_pair, n/2 for pooling)
  auto output = std::make_shared<Buffer<Out>>(std::size_t(out_n) + 64);
  auto bits = std::make_shared<Buffer<std::uint64_t>>(std::size_t(nnz_bitset_words(out_n)) + 1);
  const std::string density = "dense:100";
  out.push_back({case_name(op + "/scalar/reference", shape, density), [=]() -> Call {
                   return [=](int j) { ref(s, inputs->data() + std::size_t(j) * n, output->data()); };
                 }});
  for (const V& v : variants) {
    if (!gate_runs(v.info) || !why_unsupported(v, s).empty()) continue;
    const V* vp = &v;
    out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                     std::uint64_t* b = vp->writes_bits ? bits->data() : nullptr;
                     return [=](int j) {
                       const In* x = inputs->data() + std::size_t(j) * n;
                       vp->run(s, x, output->data(), b);
                     };
                   }});
    // The inlined form (ElementwiseVariant::run_many, nnuelab_bench's <shape>+inlined):
    // one call of this case is run_many over all kInputs inputs at once, so its count is
    // kInputs calls' worth of work. Only where nnuelab_bench times it (`inlined`).
    if (!inlined || !vp->run_many) continue;
    out.push_back({case_name(v.info.name, shape + "+inlined", density), [=]() -> Call {
                     auto many_out = std::make_shared<Buffer<Out>>(std::size_t(out_n) * kInputs + 64);
                     auto many_bits = std::make_shared<Buffer<std::uint64_t>>(std::size_t(nnz_bitset_words(out_n)) * kInputs);
                     return [=](int) {
                       vp->run_many(s, inputs->data(), many_out->data(), vp->writes_bits ? many_bits->data() : nullptr, kInputs);
                     };
                   }});
  }
}

void add_crelu16(Cases& out) {
  const crelu16::Shape s{1024};
  add_elementwise<crelu16::Variant>(
      out, "crelu16", crelu16::variants(), s, crelu16::shape_name(s),
      uniform_inputs<std::int16_t>(s.n, -600, 600, seed_of("crelu16/1024")),
      [](const crelu16::Shape& sh, const std::int16_t* in, std::uint8_t* o) { ref::crelu16(in, sh.n, o); },
      &crelu16::why_unsupported);
}

void add_crelu32(Cases& out) {
  for (int n : {32, 1024}) {
    const crelu32::Shape s{n, 6};
    add_elementwise<crelu32::Variant>(
        out, "crelu32", crelu32::variants(), s, crelu32::shape_name(s),
        uniform_inputs<std::int32_t>(n, -(1 << 14), 1 << 14, seed_of("crelu32/" + std::to_string(n))),
        [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* o) { ref::crelu32(in, sh.n, sh.shift, o); },
        &crelu32::why_unsupported, -1, n == 32);  // the inlined forms at 32, as nnuelab_bench
  }
}

void add_sqr_crelu32(Cases& out) {
  for (int n : {32, 1024}) {  // 32: Stockfish's hidden layer, where a call's fixed part shows
    const sqr_crelu32::Shape s{n, 6};
    add_elementwise<sqr_crelu32::Variant>(
        out, "sqr_crelu32", sqr_crelu32::variants(), s, sqr_crelu32::shape_name(s),
        uniform_inputs<std::int32_t>(n, -(1 << 14), 1 << 14, seed_of("sqr_crelu32/" + std::to_string(n))),
        [](const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* o) { ref::sqr_crelu32(in, sh.n, sh.shift, o); },
        &sqr_crelu32::why_unsupported, -1, n == 32);
  }
}

void add_crelu32_pair(Cases& out) {
  const crelu32_pair::Shape s{32, 6};
  add_elementwise<crelu32_pair::Variant>(
      out, "crelu32_pair", crelu32_pair::variants(), s, crelu32_pair::shape_name(s),
      uniform_inputs<std::int32_t>(s.n, -(1 << 14), 1 << 14, seed_of("crelu32_pair/32")),
      [](const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* o) { ref::crelu32_pair(in, sh.n, sh.shift, o); },
      &crelu32_pair::why_unsupported, 2 * s.n, true);
}

void add_quantmoid4(Cases& out) {
  const quantmoid4::Shape s{1024};
  add_elementwise<quantmoid4::Variant>(
      out, "quantmoid4", quantmoid4::variants(), s, quantmoid4::shape_name(s),
      uniform_inputs<std::int16_t>(s.n, -300, 300, seed_of("quantmoid4/1024")),
      [](const quantmoid4::Shape& sh, const std::int16_t* in, std::uint8_t* o) { ref::quantmoid4(in, sh.n, o); },
      &quantmoid4::why_unsupported);
}

void add_pooling(Cases& out) {
  // uint8 activations (a ClippedReLU's 0..127), as nnuelab_bench's; one set for both ops.
  const pool_avg2::Shape a{2048};
  auto bytes = uniform_inputs<std::uint8_t>(a.n, 0, 127, seed_of("pool_u8/2048"));
  add_elementwise<pool_avg2::Variant>(
      out, "pool_avg2", pool_avg2::variants(), a, pool_avg2::shape_name(a), bytes,
      [](const pool_avg2::Shape& sh, const std::uint8_t* in, std::uint8_t* o) { ref::pool_avg2(in, sh.n, o); },
      &pool_avg2::why_unsupported, a.n / 2);
  const pool_max2::Shape m{2048};
  add_elementwise<pool_max2::Variant>(
      out, "pool_max2", pool_max2::variants(), m, pool_max2::shape_name(m), bytes,
      [](const pool_max2::Shape& sh, const std::uint8_t* in, std::uint8_t* o) { ref::pool_max2(in, sh.n, o); },
      &pool_max2::why_unsupported, m.n / 2);
  const pool_product2::Shape p{2048};
  add_elementwise<pool_product2::Variant>(
      out, "pool_product2", pool_product2::variants(), p, pool_product2::shape_name(p),
      uniform_inputs<std::int16_t>(p.n, 0, 127, seed_of("pool_product2/2048")),
      [](const pool_product2::Shape& sh, const std::int16_t* in, std::uint8_t* o) { ref::pool_product2(in, sh.n, o); },
      &pool_product2::why_unsupported, p.n / 2);
  const ft_output::Shape f{2048, ft_output::Form::kClamp127};
  add_elementwise<ft_output::Variant>(
      out, "ft_output", ft_output::variants(), f, ft_output::shape_name(f),
      uniform_inputs<std::int16_t>(f.n, -200, 300, seed_of("ft_output/2048")),
      [](const ft_output::Shape& sh, const std::int16_t* in, std::uint8_t* o) { ref::ft_output_clamp127(in, sh.n, o); },
      &ft_output::why_unsupported, f.n / 2);
}

// ---- OCTAV (octav_step, quantize) --------------------------------------------------------
// nnuelab_bench's tensors at 4,096 floats per input instead of 2^20 (a whole number of every
// vector loop's blocks, as there: a block moved to a narrower loop or the scalar tail shows):
// octav_step on the gaussian (s = 2 sigma) and the sparse tensor (90% exact zeros), quantize
// of the gaussian to int8 (B = 8) and int16 (B = 16) at s = 1 (4 sigma).
constexpr std::size_t kOctavN = 4096;

void add_octav(Cases& out) {
  constexpr float kStepS = 0.5f;
  for (const std::string kind : {"gaussian", "sparse"}) {
    auto t = std::make_shared<octav_tensors::Tensor>(
        octav_tensors::synthetic(kind, kOctavN * kInputs, seed_of("octav/" + kind)));
    const auto x = [t](int j) { return t->x.data() + std::size_t(j) * kOctavN; };  // input j
    const std::string shape = std::to_string(kOctavN), density = kind == "gaussian" ? "dense:100" : "byte:10";
    auto sums = std::make_shared<octav_step::Sums>();
    out.push_back({case_name("octav_step/scalar/reference", shape, density), [=]() -> Call {
                     return [=](int j) {
                       const auto r = ref::octav_step(x(j), kOctavN, kStepS);
                       sums->count_above += r.count_above;  // kept, so the call is not dropped
                     };
                   }});
    for (const auto& v : octav_step::variants()) {
      if (!gate_runs(v.info)) continue;
      const auto* vp = &v;
      out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                       return [=](int j) { vp->run(x(j), kOctavN, kStepS, sums.get()); };
                     }});
    }
    if (kind != "gaussian") continue;
    auto q8 = std::make_shared<Buffer<std::int8_t>>(kOctavN);
    auto q16 = std::make_shared<Buffer<std::int16_t>>(kOctavN);
    const std::string s8 = shape + "xi8b8", s16 = shape + "xi16b16";
    out.push_back({case_name("quantize/scalar/reference", s8, density), [=]() -> Call {
                     return [=](int j) { ref::quantize_sym_i8(x(j), kOctavN, 1.0f, 8, q8->data()); };
                   }});
    out.push_back({case_name("quantize/scalar/reference", s16, density), [=]() -> Call {
                     return [=](int j) { ref::quantize_sym_i16(x(j), kOctavN, 1.0f, 16, q16->data()); };
                   }});
    for (const auto& v : quantize::variants()) {
      if (!gate_runs(v.info)) continue;
      const auto* vp = &v;
      out.push_back({case_name(v.info.name, s8, density), [=]() -> Call {
                       const auto p = quantize::params(1.0f, 8, 8);
                       return [=](int j) { vp->run_i8(x(j), kOctavN, p, q8->data()); };
                     }});
      out.push_back({case_name(v.info.name, s16, density), [=]() -> Call {
                       const auto p = quantize::params(1.0f, 16, 16);
                       return [=](int j) { vp->run_i16(x(j), kOctavN, p, q16->data()); };
                     }});
    }
  }
}

// ---- feature transformer (ft_refresh, ft_update) -----------------------------------------
// A refresh of 30 active features and the three fused update forms, at L1 = 1024 (several
// register passes on AVX2) over a 2,048-row weight matrix; ids fixed per input j.
constexpr int kFtL1 = 1024, kFtFeatures = 2048;

std::shared_ptr<Buffer<std::uint32_t>> feature_ids(int per_input, const std::string& what) {
  auto ids = std::make_shared<Buffer<std::uint32_t>>(std::size_t(per_input) * kInputs);
  Rng rng(seed_of(what));
  for (std::size_t i = 0; i < ids->size(); ++i) (*ids)[i] = std::uint32_t(rng.uniform(0, kFtFeatures - 1));
  return ids;
}

void add_ft(Cases& out) {
  auto weights = uniform_inputs<std::int16_t>(kFtL1 * kFtFeatures / kInputs, -300, 300, seed_of("ft/weights"));
  auto bias = uniform_inputs<std::int16_t>(kFtL1 / kInputs, -300, 300, seed_of("ft/bias"));
  auto acc = std::make_shared<Buffer<std::int16_t>>(std::size_t(kFtL1) * 2);
  const std::string density = "dense:100";
  {
    const ft_refresh::Shape s{kFtL1, kFtFeatures, 30, 1};
    const std::string shape = ft_refresh::shape_name(s);
    auto ids = feature_ids(s.active, "ft_refresh/ids");
    out.push_back({case_name("ft_refresh/scalar/reference", shape, density), [=]() -> Call {
                     return [=](int j) {
                       ref::ft_refresh(bias->data(), weights->data(), s.l1, s.features, ids->data() + j * s.active,
                                       s.active, acc->data());
                     };
                   }});
    for (const ft_refresh::Variant& v : ft_refresh::variants()) {
      if (!gate_runs(v.info) || !ft_refresh::why_unsupported(v, s).empty()) continue;
      const ft_refresh::Variant* vp = &v;
      out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                       return [=](int j) {
                         ft_refresh::Args a;
                         a.weights = weights->data(), a.bias = bias->data();
                         a.active[0] = ids->data() + j * s.active, a.acc[0] = acc->data();
                         vp->run(s, a);
                       };
                     }});
    }
  }
  // +3-3: a general count (no fused form), where grouped and tiled differ.
  for (const auto& counts : {std::pair{1, 1}, std::pair{1, 2}, std::pair{2, 2}, std::pair{3, 3}}) {
    // Plain copies, not structured bindings: the lambdas below capture them (clang 14, which
    // the fuzz preset uses, cannot capture a structured binding).
    const int added = counts.first, removed = counts.second;
    const ft_update::Shape s{kFtL1, kFtFeatures, removed, added, 1, false};
    const std::string shape = ft_update::shape_name(s);
    auto add_ids = feature_ids(added, "ft_update/added/" + shape);
    auto rem_ids = feature_ids(removed, "ft_update/removed/" + shape);
    auto prev = uniform_inputs<std::int16_t>(kFtL1, -2000, 2000, seed_of("ft_update/prev/" + shape));
    out.push_back({case_name("ft_update/scalar/reference", shape, density), [=]() -> Call {
                     return [=](int j) {
                       ref::ft_update(weights->data(), s.l1, s.features, prev->data() + j * kFtL1,
                                      rem_ids->data() + j * removed, removed, add_ids->data() + j * added, added,
                                      acc->data());
                     };
                   }});
    for (const ft_update::Variant& v : ft_update::variants()) {
      if (!gate_runs(v.info) || !ft_update::why_unsupported(v, s).empty()) continue;
      const ft_update::Variant* vp = &v;
      out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                       return [=](int j) {
                         ft_update::Args a;
                         a.weights = weights->data(), a.prev[0] = prev->data() + j * kFtL1, a.out[0] = acc->data();
                         a.removed[0] = rem_ids->data() + j * removed, a.added[0] = add_ids->data() + j * added;
                         vp->run(s, a);
                       };
                     }});
    }
  }
}

// ---- dot_u8i8 -------------------------------------------------------------------------
void add_dot_u8i8(Cases& out) {
  const dot_u8i8::Shape s{64};
  const std::string shape = dot_u8i8::shape_name(s), density = "dense:100";
  const int bytes = 4 * s.groups;
  // Activations 0..64: where every semantics agrees. Two input sets per call, as in a layer.
  auto u = uniform_inputs<std::uint8_t>(bytes, 0, 64, seed_of("dot_u8i8/u"));
  auto u2 = uniform_inputs<std::uint8_t>(bytes, 0, 64, seed_of("dot_u8i8/u2"));
  auto w = uniform_inputs<std::int8_t>(bytes, -128, 127, seed_of("dot_u8i8/w"));
  auto w2 = uniform_inputs<std::int8_t>(bytes, -128, 127, seed_of("dot_u8i8/w2"));
  auto acc = std::make_shared<Buffer<std::int32_t>>(std::size_t(s.groups));
  auto at = [bytes](const auto& b, int j) { return b->data() + std::size_t(j) * bytes; };
  out.push_back({case_name("dot_u8i8/scalar/reference", shape, density), [=]() -> Call {
                   return [=](int j) {
                     ref::dot_u8i8_dpbusd(acc->data(), at(u, j), w->data(), s.groups);
                     ref::dot_u8i8_dpbusd(acc->data(), at(u2, j), w2->data(), s.groups);
                   };
                 }});
  for (const dot_u8i8::Variant& v : dot_u8i8::variants()) {
    if (!gate_runs(v.info) || !dot_u8i8::why_unsupported(v, s).empty()) continue;
    const dot_u8i8::Variant* vp = &v;
    out.push_back({case_name(v.info.name, shape, density), [=]() -> Call {
                     return [=](int j) { vp->run(s, acc->data(), at(u, j), w->data(), at(u2, j), w2->data()); };
                   }});
  }
}

#ifdef NNUELAB_REGRESS_PLANT
// The planted slowdown: crelu16/scalar/clamp with extra work in its loop, small enough to
// test the threshold rather than a landslide: the original (vectorised) clamp on blocks of
// 64 elements, plus per block a dependent dummy add the compiler must keep (the asm
// statement claims to read and change it).
__attribute__((noinline)) void slowed_clamp_run(const crelu16::Shape& s, const std::int16_t* input,
                                                std::uint8_t* output) {
  const int n = s.n;
  unsigned dummy = 0;
  for (int b = 0; b < n; b += 64) {
    const int end = b + 64 < n ? b + 64 : n;
    for (int i = b; i < end; ++i) {
      const int x = input[i];
      output[i] = std::uint8_t(x < 0 ? 0 : x > 127 ? 127 : x);
    }
    dummy += unsigned(input[b]);
    asm volatile("" : "+r"(dummy));
  }
}

void plant(Cases& cases) {
  const std::string target = "crelu16/scalar/clamp/1024/dense:100";
  for (Case& c : cases) {
    if (c.name != target) continue;
    const crelu16::Shape s{1024};
    auto inputs = uniform_inputs<std::int16_t>(s.n, -600, 600, seed_of("crelu16/1024"));
    auto output = std::make_shared<Buffer<std::uint8_t>>(std::size_t(s.n));
    c.setup = [=]() -> Call {
      return [=](int j) { slowed_clamp_run(s, inputs->data() + std::size_t(j) * s.n, output->data()); };
    };
    std::fprintf(stderr, "nnuelab_regress: PLANTED slowdown in %s\n", target.c_str());
  }
}
#endif

Cases all_cases() {
  Cases cases;
  add_affine(cases);
  add_crelu16(cases);
  add_crelu32(cases);
  add_dot_u8i8(cases);
  add_find_nnz(cases);
  add_sqr_crelu32(cases);
  add_crelu32_pair(cases);
  add_quantmoid4(cases);
  add_pooling(cases);
  add_ft(cases);
  add_octav(cases);
#ifdef NNUELAB_REGRESS_PLANT
  plant(cases);
#endif
  return cases;
}

int usage() {
  std::fprintf(stderr,
               "usage: nnuelab_regress --list|--run [--filter REGEX] [--iterations N]\n"
               "  run it under valgrind --tool=callgrind --collect-atstart=no (./lab regress does)\n");
  return 2;
}

}  // namespace
}  // namespace nnuelab::regress

int main(int argc, char** argv) {
  using namespace nnuelab::regress;
  bool list = false, run = false;
  std::string filter;
  int iterations = kDefaultIterations;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--list") list = true;
    else if (a == "--run") run = true;
    else if (a == "--filter" && i + 1 < argc) filter = argv[++i];
    else if (a == "--iterations" && i + 1 < argc) {
      const char* text = argv[++i];
      if (!nnuelab::tools::read_or_say(
              "nnuelab_regress", [&] { iterations = int(nnuelab::tools::whole_number(a, text, 1, 1'000'000)); }))
        return 2;
    } else return usage();
  }
  if (list == run || iterations < 1) return usage();
  try {
    std::regex re;
    try {
      re = std::regex(filter.empty() ? std::string(".") : filter);
    } catch (const std::regex_error& e) {
      std::fprintf(stderr, "nnuelab_regress: --filter '%s' is not a regular expression (ECMAScript): %s\n",
                   filter.c_str(), e.what());
      return 2;
    }
    Cases cases = all_cases();
    std::erase_if(cases, [&](const Case& c) { return !std::regex_search(c.name, re); });
    // A filter that selects nothing is an error, not a gate passed over no case.
    if (cases.empty()) {
      std::fprintf(stderr, "nnuelab_regress: no case matches --filter '%s' (--list names them all)\n",
                   filter.c_str());
      return 2;
    }
    int done = 0;
    for (const Case& c : cases) {
      if (list) {
        std::printf("%s\n", c.name.c_str());
        continue;
      }
      const Call call = c.setup();
      call(kInputs - 1);  // warm-up, uncounted: first-touch faults, lazy tables
      CALLGRIND_TOGGLE_COLLECT;
      for (int k = 0; k < iterations; ++k) call(k % kInputs);
      CALLGRIND_TOGGLE_COLLECT;
      CALLGRIND_DUMP_STATS_AT(c.name.c_str());
      std::printf("case %s\n", c.name.c_str());
      ++done;
    }
    if (run) std::printf("iterations %d\ncases %d\nvalgrind %d\n", iterations, done, int(RUNNING_ON_VALGRIND));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_regress: %s\n", e.what());
    return 1;
  }
  return 0;
}
