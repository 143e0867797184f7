// The forward pass composed of registered variants: each layer of the net runs through a
// variant of its op chosen by name (or the preset's choice), so any kernel of the lab can
// be plugged into a real evaluation and checked end to end against Stockfish's values.
#pragma once
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "workloads/eval.h"

namespace nnuelab::workloads {

// The layers, in forward order. "ft" builds both accumulators, "ft_out" is the fused
// clamp + pairwise product, fc0/fc1/fc2 the affine layers, sqr0/crelu0 the two activations
// after fc0, crelu1 the one after fc1.
inline const std::vector<std::string>& layer_names() {
  static const std::vector<std::string> names = {"ft", "ft_out", "fc0", "sqr0", "crelu0", "fc1", "crelu1", "fc2"};
  return names;
}

// Which variant runs each layer: a full variant name ("affine/avx2/dense_blocked4") or
// "reference" (the scalar function in reference/).
using LayerChoice = std::map<std::string, std::string>;
// preset "reference": every layer through reference/; "fast": for each layer the best
// native variant this CPU runs (a fixed preference list per layer, see engine.cpp).
LayerChoice layer_preset(const std::string& preset);

struct LayerTimes {
  std::map<std::string, double> ns;  // summed over evaluations
  long evaluations = 0;
};

class Engine {
 public:
  // Validates every choice (unknown name, wrong op for the layer, a variant this CPU
  // lacks or one that refuses the layer's shape: std::invalid_argument saying which)
  // and prepares the weights of all 8 layer stacks for the chosen affine variants.
  Engine(const Network& net, const LayerChoice& choice);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // The evaluation, with the same fields as evaluate_reference; adds each layer's time to
  // *times when given (steady_clock around each layer: meaningful over many positions).
  Evaluation evaluate(const Position& pos, LayerTimes* times = nullptr) const;
  // The variant name (or "reference") that runs each layer.
  const LayerChoice& choice() const { return choice_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  const Network& net_;
  LayerChoice choice_;
};

}  // namespace nnuelab::workloads
