#include "workloads/engine.h"

#include <array>
#include <functional>
#include <stdexcept>

#include "kernels/affine/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/ft_output/registry.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/sqr_crelu32/registry.h"
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
  if (layer == "ft_out") return {"ft_output", {}, l1};  // per perspective: l1 int16 -> l1/2 bytes
  if (layer == "fc0") return {"affine", {l1, kFc0Out}, 0};
  if (layer == "fc1") return {"affine", {kFc1In, kFc1Out}, 0};
  if (layer == "fc2") return {"affine", {kFc1Out, 1}, 0};
  // sqr0 and crelu0: a variant runs over all 16 of fc_0's outputs (the vector forms take
  // n % 16 == 0, none takes the 15 that fc_1 reads; Engine::evaluate drops the 16th).
  if (layer == "sqr0") return {"sqr_crelu32", {}, kFc0Out};
  if (layer == "crelu0") return {"crelu32", {}, kFc0Out};
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
  // Best first. The engine's affine inputs are 0..127 (clamped activations), where the
  // NEON sdot forms (u read as int8) are exact too.
  static const char* kIsas[] = {"avx512vnni", "avx512bw", "avxvnni", "avx2", "ssse3",
                                "neon-i8mm", "neon-dotprod", "neon", "scalar"};
  for (const char* isa : kIsas)
    for (const char* tech : techniques)
      if (const auto* v = find_named(affine::variants(), std::string("affine/") + isa + "/" + tech))
        if (!v->info.emulated && affine::why_unsupported(*v, s).empty()) return v;
  return nullptr;
}

// The best native variant of an elementwise op at a shape: the last one in registry
// order (baseline first) that this CPU runs on it, with or without the nnz bitset.
// lanes_ok: the layer after it can take a declared lane order (crelu1 -> fc_2); crelu0's
// and sqr0's bytes share fc_1's input row, so they stay canonical.
template <class V, class Shape, class Why>
const V* best_elementwise(std::span<const V> all, const Shape& s, Why why, bool want_bits, bool lanes_ok = true) {
  const V* best = nullptr;
  for (const V& v : all)
    if (!v.info.emulated && !v.info.portable && v.writes_bits == want_bits && (lanes_ok || v.canonical_order()) &&
        why(v, s).empty())
      best = &v;
  return best;
}

// Picks `name` ("best", a variant name) of an elementwise op for a layer, or nullptr for
// "reference"; clear errors for anything else. lanes_ok: as best_elementwise's (a named
// lane-ordered form is refused by the caller, which says why).
template <class V, class Shape, class Why, class Name>
const V* choose_elementwise(std::span<const V> all, const std::string& layer, const std::string& name, const Shape& s,
                            Why why, Name shape_name, bool want_bits, bool lanes_ok = true) {
  if (name == "reference") return nullptr;
  if (name == "best") {
    const V* v = best_elementwise(all, s, why, want_bits, lanes_ok);
    if (!v) v = best_elementwise(all, s, why, false, lanes_ok);
    return v;
  }
  const V* v = find_named(all, name);
  if (!v) throw std::invalid_argument(layer + ": \"" + name + "\" is not a registered variant of this layer's op");
  const std::string w = why(*v, s);
  if (!w.empty()) throw std::invalid_argument(layer + ": " + name + " cannot run " + shape_name(s) + ": " + w);
  return v;
}

}  // namespace

LayerChoice layer_preset(const std::string& preset) {
  LayerChoice c;
  for (const auto& l : layer_names()) c[l] = "reference";
  if (preset == "reference") return c;
  if (preset != "fast") throw std::invalid_argument("unknown preset \"" + preset + "\" (reference, fast)");
  // fc0's shape depends on the net; "best" is resolved per net by the Engine.
  for (const char* l : {"ft", "ft_out", "fc0", "sqr0", "crelu0", "fc1", "crelu1", "fc2"}) c[l] = "best";
  return c;
}

struct Engine::Impl {
  // Per layer stack, the packed weights of each fc layer (nullptr: reference).
  const affine::Variant* fc[3] = {nullptr, nullptr, nullptr};
  std::array<std::array<affine::Packed, kLayerStacks>, 3> packed;
  const crelu32::Variant* crelu0 = nullptr;
  const crelu32::Variant* crelu1 = nullptr;
  const sqr_crelu32::Variant* sqr0 = nullptr;
  const ft_refresh::Variant* ft = nullptr;  // both perspectives in one call
  // ft_out: its variant; when it leaves bytes in a lane order, fc_0's columns were
  // permuted to match at prepare time (order: produced position -> canonical index over
  // both halves); bits: it writes the nnz bitset and fc_0 reads it (run_with_bits).
  const ft_output::Variant* ft_out = nullptr;
  std::vector<int> ft_order;
  bool bits = false;
  // crelu1 in a declared lane order (a *_lanes variant): produced position -> canonical
  // index over fc_1's 32 outputs; fc_2's columns are permuted to match, in its packed
  // weights or, for the reference fc_2, in w2_produced (per layer stack).
  std::vector<int> crelu1_order;
  std::array<std::vector<std::int8_t>, kLayerStacks> w2_produced;
};

Engine::Engine(const Network& net, const LayerChoice& choice) : impl_(std::make_unique<Impl>()), net_(net) {
  check_network(net);
  for (const auto& l : layer_names()) choice_[l] = "reference";
  for (const auto& [layer, name] : choice) layer_spec(layer, net.l1);  // unknown layers first
  // In forward order: fc_0's prepare depends on ft_out's declared order and bitset.
  std::vector<std::pair<std::string, std::string>> ordered;
  for (const auto& l : layer_names())
    if (auto it = choice.find(l); it != choice.end()) ordered.emplace_back(l, it->second);
  for (const auto& [layer, name] : ordered) {
    const LayerSpec spec = layer_spec(layer, net.l1);
    std::string chosen = name;
    if (spec.op == "affine") {
      const int k = layer == "fc0" ? 0 : layer == "fc1" ? 1 : 2;
      const affine::Variant* v = nullptr;
      if (name == "best") {
        v = k == 0 ? best_affine(spec.affine_shape, {"sparse_blocked4_bitset_acc1", "sparse_blocked4_lut_acc1", "dense_blocked4"})
            : k == 1 ? best_affine(spec.affine_shape, {"dense_blocked4_x2", "dense_blocked4", "dense_rows4"})
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
          std::vector<std::int8_t> w0;  // fc_0's columns in ft_out's produced order, when it has one
          if (k == 0 && !impl_->ft_order.empty())
            w0 = permute_next_layer_columns(st.w0.data(), net.l1, kFc0Out, impl_->ft_order);
          const std::int8_t* w2 = impl_->crelu1_order.empty() ? st.w2.data() : impl_->w2_produced[s].data();
          const affine::Canonical c = k == 0   ? affine::Canonical{spec.affine_shape, w0.empty() ? st.w0.data() : w0.data(), st.b0.data()}
                                      : k == 1 ? affine::Canonical{spec.affine_shape, st.w1.data(), st.b1.data()}
                                               : affine::Canonical{spec.affine_shape, w2, st.b2.data()};
          impl_->packed[k][s] = affine::prepare(*v, c);
        }
      }
      if (k == 0) impl_->bits = impl_->ft_out && impl_->ft_out->writes_bits && v && v->run_bits;
    } else if (spec.op == "crelu32") {
      const crelu32::Shape s{spec.n, 6};
      const crelu32::Variant* v = nullptr;
      if (name == "best") {
        v = best_elementwise(crelu32::variants(), s, &crelu32::why_unsupported, false, layer == "crelu1");
      } else if (name != "reference") {
        v = find_named(crelu32::variants(), name);
        if (!v) throw std::invalid_argument(layer + ": \"" + name + "\" is not a registered crelu32 variant");
        const std::string why = crelu32::why_unsupported(*v, s);
        if (!why.empty()) throw std::invalid_argument(layer + ": " + name + " cannot run " + crelu32::shape_name(s) + ": " + why);
        if (v->writes_bits) throw std::invalid_argument(layer + ": " + name + " writes an nnz bitset nothing here reads");
        if (layer == "crelu0" && !v->canonical_order())
          throw std::invalid_argument(layer + ": " + name + " leaves a lane order, and crelu0's bytes share fc_1's row with sqr0's");
      }
      (layer == "crelu0" ? impl_->crelu0 : impl_->crelu1) = v;
      if (layer == "crelu1" && v && !v->canonical_order()) {
        // fc_2 comes later in forward order: its prepare (or the reference) reads w2_produced.
        impl_->crelu1_order = crelu32::output_order(*v, s);
        for (int k = 0; k < kLayerStacks; ++k)
          impl_->w2_produced[k] = permute_next_layer_columns(net.stacks[k].w2.data(), kFc1Out, 1, impl_->crelu1_order);
      }
      if (v) chosen = v->info.name;
    } else if (spec.op == "ft_output") {
      const ft_output::Shape s{net.l1, ft_output::Form::kClamp127};
      // "best" wants the bitset when fc_0 will be a bitset consumer (the fast preset's is).
      const bool want_bits = choice.count("fc0") && choice.at("fc0") == "best";
      const ft_output::Variant* v = choose_elementwise(ft_output::variants(), layer, name, s, &ft_output::why_unsupported,
                                                       &ft_output::shape_name, want_bits);
      impl_->ft_out = v;
      if (v && !v->canonical_order()) {
        const std::vector<int> half = ft_output::output_order(*v, s);  // over l1/2 bytes
        const int h = net.l1 / 2;
        impl_->ft_order.resize(net.l1);
        for (int p = 0; p < h; ++p) impl_->ft_order[p] = half[p], impl_->ft_order[h + p] = h + half[p];
      }
      if (v) chosen = v->info.name;
    } else if (spec.op == "ft_refresh") {
      // Validated at the most pieces a position has; every call is checked again.
      const ft_refresh::Shape s{net.l1, kHalfKAv2Features, kMaxActiveFeatures, 2};
      const ft_refresh::Variant* v = nullptr;
      if (name == "best") {
        for (const auto& c : ft_refresh::variants())
          if (!c.info.emulated && !c.info.portable && ft_refresh::why_unsupported(c, s).empty()) v = &c;  // registry order: best last
      } else if (name != "reference") {
        v = find_named(ft_refresh::variants(), name);
        if (!v) throw std::invalid_argument(layer + ": \"" + name + "\" is not a registered ft_refresh variant");
        const std::string why = ft_refresh::why_unsupported(*v, s);
        if (!why.empty()) throw std::invalid_argument(layer + ": " + name + " cannot run " + ft_refresh::shape_name(s) + ": " + why);
      }
      impl_->ft = v;
      if (v) chosen = v->info.name;
    } else if (spec.op == "sqr_crelu32") {
      const sqr_crelu32::Shape s{spec.n, 6};
      // Canonical order only: sqr0's bytes share fc_1's row with crelu0's.
      impl_->sqr0 = choose_elementwise(sqr_crelu32::variants(), layer, name, s, &sqr_crelu32::why_unsupported,
                                       &sqr_crelu32::shape_name, false, false);
      if (impl_->sqr0 && impl_->sqr0->writes_bits) throw std::invalid_argument(layer + ": " + name + " writes an nnz bitset nothing here reads");
      if (impl_->sqr0 && !impl_->sqr0->canonical_order())
        throw std::invalid_argument(layer + ": " + name + " leaves a lane order, and sqr0's bytes share fc_1's row with crelu0's");
      if (impl_->sqr0) chosen = impl_->sqr0->info.name;
    } else if (name != "reference") {
      throw std::invalid_argument(layer + " (" + spec.op + ") runs the reference only so far; \"" + name + "\" cannot be plugged in");
    }
    choice_[layer] = chosen;
  }
  // A bitset producer whose bitset nothing reads (fc_0 the reference, a variant without
  // run_bits, or not chosen): its plain sibling runs instead, in the same byte order.
  if (impl_->ft_out && impl_->ft_out->writes_bits && !impl_->bits) {
    const std::string& name = impl_->ft_out->info.name;  // "<plain>_bits"
    const ft_output::Variant* plain = find_named(ft_output::variants(), name.substr(0, name.size() - 5));
    if (!plain || plain->writes_bits || plain->order_lanes != impl_->ft_out->order_lanes)
      throw std::logic_error(name + " has no plain sibling in its byte order to run without fc_0's bitset");
    impl_->ft_out = plain;
    choice_["ft_out"] = plain->info.name;
  }
}

Engine::~Engine() = default;

Evaluation Engine::evaluate(const Position& pos, LayerTimes* times) const {
  check_position(pos);
  const Network& net = net_;
  Evaluation e;
  const int l1 = net.l1;
  e.bucket = layer_bucket(pos);
  e.ft_out.assign(l1, 0);
  // Each layer's time: one clock read and a store into `spent` per lap (the laps come in
  // layer_names() order), added to the named totals after the pass, so the laps cost a
  // clock read each and no map lookup (./lab eval takes one clock read off each layer).
  auto t = Clock::now();
  std::array<double, 8> spent{};
  std::size_t laps = 0;
  auto lap = [&](const char* /* the layer, as layer_names() has it */) {
    if (!times) return;
    const auto now = Clock::now();
    spent[laps++] = std::chrono::duration<double, std::nano>(now - t).count();
    t = now;
  };

  const Color order[2] = {pos.side_to_move, Color(1 - pos.side_to_move)};
  std::int32_t psqt[2] = {0, 0};
  std::vector<std::int16_t> acc[2] = {std::vector<std::int16_t>(l1), std::vector<std::int16_t>(l1)};
  std::uint32_t active[2][kMaxActiveFeatures];
  int n = 0;
  for (int half = 0; half < 2; ++half) {
    n = halfka_v2_hm_features(pos, order[half], active[half]);  // the same count from both sides
    if (!impl_->ft)
      ref::ft_refresh(net.ft_bias.data(), net.ft_weights.data(), l1, kHalfKAv2Features, active[half], n, acc[half].data());
    for (int i = 0; i < n; ++i) psqt[half] += net.psqt_weights[std::size_t(active[half][i]) * kPsqtBuckets + e.bucket];
  }
  // The layers after ft call their variants through the registry pointers, as the bench
  // times them: the constructor validated each variant against its layer's fixed shape, and
  // the buffers are the engine's own (element-aligned, the right sizes). ft keeps its
  // checked entry: its active count changes per position (validated at the most pieces a
  // position has), and its check costs about 1% of a refresh.
  if (impl_->ft) {
    ft_refresh::Args a;
    a.weights = net.ft_weights.data();
    a.bias = net.ft_bias.data();
    for (int half = 0; half < 2; ++half) a.active[half] = active[half], a.acc[half] = acc[half].data();
    ft_refresh::run(*impl_->ft, {l1, kHalfKAv2Features, n, 2}, a);
  }
  e.psqt = (psqt[0] - psqt[1]) / 2;
  lap("ft");
  // fc_0's input as produced: canonical, or in ft_out's declared lane order (fc_0's
  // columns were permuted to match); bits: its nnz bitset, both halves in one row.
  std::vector<std::uint8_t> produced_store;
  std::uint8_t* produced = e.ft_out.data();
  std::vector<std::uint64_t> bits;
  if (const ft_output::Variant* v = impl_->ft_out) {
    if (!impl_->ft_order.empty()) produced = (produced_store.assign(l1, 0), produced_store.data());
    const ft_output::Shape s{l1, ft_output::Form::kClamp127};
    if (impl_->bits) {
      const int h = l1 / 2, words = nnz_bitset_words(h), first = h / 4;  // half 1 starts at chunk l1/8
      std::vector<std::uint64_t> half_bits(words);
      bits.assign(nnz_bitset_words(l1), 0);
      for (int half = 0; half < 2; ++half) {
        v->run(s, acc[half].data(), produced + half * h, half_bits.data());
        const int off = half * first;  // chunk offset of this half in fc_0's row
        for (int w = 0; w < words; ++w) {
          bits[(off + 64 * w) / 64] |= half_bits[w] << (off % 64);
          if (off % 64 && (off + 64 * w) / 64 + 1 < int(bits.size())) bits[(off + 64 * w) / 64 + 1] |= half_bits[w] >> (64 - off % 64);
        }
      }
    } else {
      for (int half = 0; half < 2; ++half) v->run(s, acc[half].data(), produced + half * (l1 / 2), nullptr);
    }
  } else {
    for (int half = 0; half < 2; ++half) ref::ft_output_clamp127(acc[half].data(), l1, e.ft_out.data() + half * (l1 / 2));
  }
  lap("ft_out");

  const LayerStack& st = net.stacks[e.bucket];
  auto fc = [&](int k, const std::int8_t* w, const std::int32_t* b, int in, int out, const std::uint8_t* x, std::int32_t* y) {
    if (const affine::Variant* v = impl_->fc[k]) v->run(impl_->packed[k][e.bucket], x, y);
    else ref::affine(w, b, in, out, x, y);
  };
  if (impl_->bits) impl_->fc[0]->run_bits(impl_->packed[0][e.bucket], produced, bits.data(), e.fc0.data());
  else fc(0, st.w0.data(), st.b0.data(), l1, kFc0Out, produced, e.fc0.data());
  lap("fc0");
  if (!impl_->ft_order.empty()) {  // report the canonical bytes (outside the timed layers)
    for (int p = 0; p < l1; ++p) e.ft_out[impl_->ft_order[p]] = produced[p];
    if (times) t = Clock::now();
  }
  // fc_1 reads 15 squared then 15 clipped bytes. A variant writes 16 (the 16th of fc_0's
  // outputs, the direct output, included): sqr0's 16th byte lands where crelu0's first goes
  // and is overwritten by it, and crelu0's 16th, at ac0[30], is put back to fc_1's zero
  // padding.
  if (impl_->sqr0) impl_->sqr0->run({kFc0Out, 6}, e.fc0.data(), e.ac0.data(), nullptr);
  else ref::sqr_crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data());
  lap("sqr0");
  if (impl_->crelu0) {
    impl_->crelu0->run({kFc0Out, 6}, e.fc0.data(), e.ac0.data() + (kFc0Out - 1), nullptr);
    e.ac0[2 * (kFc0Out - 1)] = 0;
  } else {
    ref::crelu32(e.fc0.data(), kFc0Out - 1, 6, e.ac0.data() + (kFc0Out - 1));
  }
  lap("crelu0");
  fc(1, st.w1.data(), st.b1.data(), kFc1In, kFc1Out, e.ac0.data(), e.fc1.data());
  lap("fc1");
  // crelu1 -> fc_2: canonical, or in crelu1's declared lane order (fc_2's columns were
  // permuted to match); ac1 is reported canonical, outside the timed layers.
  std::array<std::uint8_t, kFc1Out> ac1_produced{};
  const bool lanes1 = !impl_->crelu1_order.empty();
  std::uint8_t* ac1 = lanes1 ? ac1_produced.data() : e.ac1.data();
  if (impl_->crelu1) impl_->crelu1->run({kFc1Out, 6}, e.fc1.data(), ac1, nullptr);
  else ref::crelu32(e.fc1.data(), kFc1Out, 6, ac1);
  lap("crelu1");
  fc(2, lanes1 ? impl_->w2_produced[e.bucket].data() : st.w2.data(), st.b2.data(), kFc1Out, 1, ac1, &e.fc2);
  lap("fc2");
  if (lanes1) {
    for (int p = 0; p < kFc1Out; ++p) e.ac1[impl_->crelu1_order[p]] = ac1[p];
    if (times) t = Clock::now();
  }
  const std::int32_t passed = e.fc0[kFc0Out - 1] * (600 * 16) / (127 * (1 << 6));
  e.positional = e.fc2 + passed;
  e.value = (e.psqt + e.positional) / 16;
  if (times) {
    for (std::size_t i = 0; i < laps; ++i) times->ns[layer_names()[i]] += spent[i];
    ++times->evaluations;
  }
  return e;
}

}  // namespace nnuelab::workloads
