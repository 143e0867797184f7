// Tensors for OCTAV (tools/quantize.cpp, tests/octav_test.cpp, bench/octav_bench.cpp):
// synthetic distributions and a real net's dequantized weight layers. Header-only, so the
// reference library stays free of the net loader.
//
// Dequantization scales (Stockfish's trainer, nnue-pytorch, serializes these):
//   feature transformer weights int16 = round(w * 127)            -> w = q / 127
//   fc_0, fc_1 weights int8 = round(w * 64), w clipped to +-127/64 -> w = q / 64
//   fc_2 weights int8 = round(w * 600 * 16 / 127)                  -> w = q * 127 / 9600
// The NNUE clipping constant of each (the s whose symmetric quantizer at the native bit
// width is exactly Stockfish's): 32767/127 at 16 bits (FT), 127/64 at 8 bits (fc_0, fc_1),
// 127 * 127 / 9600 at 8 bits (fc_2).
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/nnue.h"

namespace nnuelab::octav_tensors {

struct Tensor {
  std::string name;
  std::vector<float> x;
  double nnue_s = 0;    // the NNUE clipping constant (0: none)
  int nnue_bits = 8;    // the bit width it belongs to
};

// Synthetic tensors of standard deviation `sigma` (the NNUE constant of a hidden layer,
// 127/64, is given to them so the table can place it): gaussian, laplace, uniform, and
// sparse (90% exact zeros, the rest gaussian). Box-Muller / inverse CDF on mt19937_64 bits:
// the same numbers on every standard library.
inline Tensor synthetic(const std::string& kind, std::size_t n, std::uint64_t seed, double sigma = 0.25) {
  std::mt19937_64 rng(seed);
  auto u01 = [&] { return (double((rng() >> 11)) + 0.5) * 0x1p-53; };  // (0, 1)
  auto gauss = [&] { return std::sqrt(-2.0 * std::log(u01())) * std::cos(2.0 * std::numbers::pi * u01()); };
  Tensor t{kind, std::vector<float>(n), 127.0 / 64.0, 8};
  for (auto& v : t.x) {
    if (kind == "gaussian") v = float(sigma * gauss());
    else if (kind == "laplace") {  // b = sigma / sqrt(2)
      const double u = u01() - 0.5;
      v = float(-sigma / std::numbers::sqrt2 * (u < 0 ? -1.0 : 1.0) * std::log(1.0 - 2.0 * std::fabs(u)));
    } else if (kind == "uniform") v = float(sigma * std::sqrt(3.0) * (2.0 * u01() - 1.0));
    else if (kind == "sparse") v = u01() < 0.9 ? 0.0f : float(sigma * gauss());
    else throw std::invalid_argument("unknown synthetic tensor '" + kind + "' (gaussian, laplace, uniform, sparse)");
  }
  return t;
}

// A real layer: "ft" (all 22528 x L1 weights, or every k-th so at most max_elements),
// "fc0", "fc1" (its 30 real input columns; 30, 31 are padding), "fc2", of layer stack `bucket`.
inline Tensor real_layer(const workloads::Network& net, const std::string& layer, int bucket,
                         std::size_t max_elements = 0) {
  if (bucket < 0 || bucket >= workloads::kLayerStacks) throw std::invalid_argument("bucket must be 0..7");
  const auto& st = net.stacks[std::size_t(bucket)];
  Tensor t;
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on the one-line form.
  t.name = "L1-";
  t.name += std::to_string(net.l1);
  t.name += "/";
  t.name += layer;
  if (layer != "ft") {
    t.name += "[";
    t.name += std::to_string(bucket);
    t.name += "]";
  }
  if (layer == "ft") {
    const std::size_t n = net.ft_weights.size();
    const std::size_t stride = max_elements && n > max_elements ? (n + max_elements - 1) / max_elements : 1;
    for (std::size_t i = 0; i < n; i += stride) t.x.push_back(float(net.ft_weights[i]) / 127.0f);
    if (stride > 1) t.name += "(1/" + std::to_string(stride) + ")";
    t.nnue_s = 32767.0 / 127.0;
    t.nnue_bits = 16;
  } else if (layer == "fc0") {
    for (auto w : st.w0) t.x.push_back(float(w) / 64.0f);
    t.nnue_s = 127.0 / 64.0;
  } else if (layer == "fc1") {
    for (int r = 0; r < workloads::kFc1Out; ++r)
      for (int c = 0; c < 30; ++c) t.x.push_back(float(st.w1[std::size_t(r * workloads::kFc1In + c)]) / 64.0f);
    t.nnue_s = 127.0 / 64.0;
  } else if (layer == "fc2") {
    for (int c = 0; c < 30; ++c) t.x.push_back(float(double(st.w2[std::size_t(c)]) * 127.0 / 9600.0));
    t.nnue_s = 127.0 * 127.0 / 9600.0;
  } else {
    throw std::invalid_argument("unknown layer '" + layer + "' (ft, fc0, fc1, fc2)");
  }
  return t;
}

}  // namespace nnuelab::octav_tensors
