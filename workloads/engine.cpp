#include "workloads/engine.h"

#include <array>
#include <functional>
#include <stdexcept>

#include "kernels/affine/registry.h"
#include "kernels/crelu32/registry.h"
#include "reference/affine.h"
#include "reference/crelu32.h"
#include "reference/ft.h"
#include "reference/pool.h"
#include "reference/sqr_crelu32.h"

namespace nnuelab::workloads {
namespace {

using Clock = std::chrono::steady_clock;

// Each layer's op and shape, for validating choices.
struct LayerSpec {
  std::string op;
  affine::Shape affine_shape;  // fc layers
  int n = 0;                   // activations: elements
};

LayerSpec layer_spec(const std::string& layer, int l1) {
  if (layer == "ft") return {"ft_refresh", {}, l1};
  if (layer == "ft_out") return {"ft_output", {}, l1};
  if (layer == "fc0") return {"affine", {l1, kFc0Out}, 0};
  if (layer == "fc1") return {"affine", {kFc1In, kFc1Out}, 0};
  if (layer == "fc2") return {"affine", {kFc1Out, 1}, 0};
  if (layer == "sqr0") return {"sqr_crelu32", {}, kFc0Out - 1};
  if (layer == "crelu0") return {"crelu32", {}, kFc0Out - 1};
  if (layer == "crelu1") return {"crelu32", {}, kFc1Out};
  throw std::invalid_argument("unknown layer \"" + layer + "\" (layers: ft, ft_out, fc0, sqr0, crelu0, fc1, crelu1, fc2)");
}

template <class V>
const V* find_named(std::span<const V> all, const std::string& name) {
  for (const V& v : all)
    if (v.info.name == name) return &v;
  return nullptr;
}

// The best native variant of an affine layer: techniques in preference order, ISAs from
// widest to narrowest; the first one this CPU runs on this shape.
const affine::Variant* best_affine(const affine::Shape& s, std::initializer_list<const char*> techniques) {
  static const char* kIsas[] = {"avx512vnni", "avx512bw", "avxvnni", "avx2", "ssse3", "scalar"};
  for (const char* isa : kIsas)
    for (const char* tech : techniques)
      if (const auto* v = find_named(affine::variants(), std::string("affine/") + isa + "/" + tech))
        if (!v->info.emulated && affine::why_unsupported(*v, s).empty()) return v;
  return nullptr;
}

const crelu32::Variant* best_crelu32(const crelu32::Shape& s) {
  const crelu32::Variant* best = nullptr;  // registry order: baseline first
  for (const auto& v : crelu32::variants())
    if (!v.info.emulated && !v.writes_bits && crelu32::why_unsupported(v, s).empty()) best = &v;
  return best;
}

}  // namespace

LayerChoice layer_preset(const std::string& preset) {
  LayerChoice c;
  for (const auto& l : layer_names()) c[l] = "reference";
  if (preset == "reference") return c;
  if (preset != "fast") throw std::invalid_argument("unknown preset \"" + preset + "\" (reference, fast)");
  // fc0's shape depends on the net; "best" is resolved per net by the Engine.
  for (const char* l : {"fc0", "fc1", "fc2", "crelu0", "crelu1"}) c[l] = "best";
  return c;
}

struct Engine::Impl {
  // Per layer stack, the packed weights of each fc layer (nullptr: reference).
  const affine::Variant* fc[3] = {nullptr, nullptr, nullptr};
  std::array<std::array<affine::Packed, kLayerStacks>, 3> packed;
  const crelu32::Variant* crelu0 = nullptr;
  const crelu32::Variant* crelu1 = nullptr;
};

Engine::Engine(const Network& net, const LayerChoice& choice) : impl_(std::make_unique<Impl>()), net_(net) {
  for (const auto& l : layer_names()) choice_[l] = "reference";
  for (const auto& [layer, name] : choice) {
    const LayerSpec spec = layer_spec(layer, net.l1);
    std::string chosen = name;
    if (spec.op == "affine") {
      const int k = layer == "fc0" ? 0 : layer == "fc1" ? 1 : 2;
      const affine::Variant* v = nullptr;
      if (name == "best") {
        v = k == 0 ? best_affine(spec.affine_shape, {"sparse_blocked4_bitset_acc1", "sparse_blocked4_lut_acc1", "dense_blocked4"})
            : k == 1 ? best_affine(spec.affine_shape, {"dense_blocked4", "dense_rows4"})
                     : best_affine(spec.affine_shape, {"dot1"});
        if (!v) throw std::invalid_argument("no native affine variant runs " + layer + " (" + affine::shape_name(spec.affine_shape) + ") here");
      } else if (name != "reference") {
        v = find_named(affine::variants(), name);
        if (!v) throw std::invalid_argument(layer + ": \"" + name + "\" is not a registered affine variant");
        const std::string why = affine::why_unsupported(*v, spec.affine_shape);
        if (!why.empty()) throw std::invalid_argument(layer + ": " + name + " cannot run " + affine::shape_name(spec.affine_shape) + ": " + why);
      }
      impl_->fc[k] = v;
      if (v) {
        chosen = v->info.name;
        for (int s = 0; s < kLayerStacks; ++s) {
          const LayerStack& st = net.stacks[s];
          const affine::Canonical c = k == 0   ? affine::Canonical{spec.affine_shape, st.w0.data(), st.b0.data()}
                                      : k == 1 ? affine::Canonical{spec.affine_shape, st.w1.data(), st.b1.data()}
                                               : affine::Canonical{spec.affine_shape, st.w2.data(), st.b2.data()};
          impl_->packed[k][s] = affine::prepare(*v, c);
        }
      }
    } else if (spec.op == "crelu32") {
      const crelu32::Shape s{spec.n, 6};
      const crelu32::Variant* v = nullptr;
      if (name == "best") {
        v = best_crelu32(s);
      } else if (name != "reference") {
        v = find_named(crelu32::variants(), name);
        if (!v) throw std::invalid_argument(layer + ": \"" + name + "\" is not a registered crelu32 variant");
        const std::string why = crelu32::why_unsupported(*v, s);
        if (!why.empty()) throw std::invalid_argument(layer + ": " + name + " cannot run " + crelu32::shape_name(s) + ": " + why);
        if (v->writes_bits) throw std::invalid_argument(layer + ": " + name + " writes an nnz bitset nothing here reads");
      }
      (layer == "crelu0" ? impl_->crelu0 : impl_->crelu1) = v;
      if (v) chosen = v->info.name;
    } else if (name != "reference") {
      throw std::invalid_argument(layer + " (" + spec.op + ") runs the reference only so far; \"" + name + "\" cannot be plugged in");
    }
    choice_[layer] = chosen;
  }
}

Engine::~Engine() = default;

Evaluation Engine::evaluate(const Position& pos, LayerTimes* times) const {
  const Network& net = net_;
  Evaluation e;
  const int l1 = net.l1;
  e.bucket = layer_bucket(pos);
  e.ft_out.assign(l1, 0);
  auto t = Clock::now();
  auto lap = [&](const char* layer) {
    if (!times) return;
    const auto now = Clock::now();
    times->ns[layer] += std::chrono::duration<double, std::nano>(now - t).count();
    t = now;
  };

  const Color order[2] = {pos.side_to_move, Color(1 - pos.side_to_move)};
  std::int32_t psqt[2] = {0, 0};
  std::vector<std::int16_t> acc[2] = {std::vector<std::int16_t>(l1), std::vector<std::int16_t>(l1)};
  for (int half = 0; half < 2; ++half) {
    std::uint32_t active[kMaxActiveFeatures];
    const int n = halfka_v2_hm_features(pos, order[half], active);
    ref::ft_refresh(net.ft_bias.data(), net.ft_weights.data(), l1, kHalfKAv2Features, active, n, acc[half].data());
    for (int i = 0; i < n; ++i) psqt[half] += net.psqt_weights[std::size_t(active[i]) * kPsqtBuckets + e.bucket];
  }
  e.psqt = (psqt[0] - psqt[1]) / 2;
  lap("ft");
  for (int half = 0; half < 2; ++half) ref::ft_output_clamp127(acc[half].data(), l1, e.ft_out.data() + half * (l1 / 2));
  lap("ft_out");

  const LayerStack& st = net.stacks[e.bucket];
  auto fc = [&](int k, const std::int8_t* w, const std::int32_t* b, int in, int out, const std::uint8_t* x, std::int32_t* y) {
    if (const affine::Variant* v = impl_->fc[k]) affine::run(*v, impl_->packed[k][e.bucket], x, y);
    else ref::affine(w, b, in, out, x, y);
  };
  fc(0, st.w0.data(), st.b0.data(), l1, kFc0Out, e.ft_out.data(), e.fc0.data());
  lap("fc0");
  ref::sqr_crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data());
  lap("sqr0");
  if (impl_->crelu0) crelu32::run(*impl_->crelu0, {kFc0Out - 1, 6}, e.fc0.data(), e.ac0.data() + (kFc0Out - 1));
  else ref::crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data() + (kFc0Out - 1));
  lap("crelu0");
  fc(1, st.w1.data(), st.b1.data(), kFc1In, kFc1Out, e.ac0.data(), e.fc1.data());
  lap("fc1");
  if (impl_->crelu1) crelu32::run(*impl_->crelu1, {kFc1Out, 6}, e.fc1.data(), e.ac1.data());
  else ref::crelu32(e.fc1.data(), kFc1Out, 6, e.ac1.data());
  lap("crelu1");
  fc(2, st.w2.data(), st.b2.data(), kFc1Out, 1, e.ac1.data(), &e.fc2);
  lap("fc2");
  const std::int32_t passed = e.fc0[kFc0Out - 1] * (600 * 16) / (127 * (1 << 6));
  e.positional = e.fc2 + passed;
  e.value = (e.psqt + e.positional) / 16;
  if (times) ++times->evaluations;
  return e;
}

}  // namespace nnuelab::workloads
