// The forward pass of a HalfKAv2_hm net on one position, as Stockfish 15.1-17.1 compute it
// (integers throughout; see ../shared/data/README.md for the arithmetic):
//   per perspective: accumulator = bias + rows of the active features (int16, wrapping),
//     PSQT = sum of the features' int32 PSQT rows;
//   feature-transformer output: per side (side to move first) clamp(a[j], 0, 127) *
//     clamp(a[j + L1/2], 0, 127) >> 7, j < L1/2: L1 bytes;
//   layer stack `bucket` = (pieces - 1) / 4: fc_0 (L1 -> 16); 15 squared-ClippedReLU and
//     15 ClippedReLU bytes (shift 6) into fc_1 (32 -> 32); ClippedReLU; fc_2 (32 -> 1);
//   positional = fc_2 + fc_0[15] * 9600 / 8128 (the 16th output passed straight through,
//     rescaled from 127 * 64 to 600 * 16 per unit), psqt = (PSQT[stm] - PSQT[other]) / 2.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "workloads/chess.h"
#include "workloads/nnue.h"

namespace nnuelab::workloads {

struct Evaluation {
  int bucket = 0;
  std::int32_t psqt = 0;        // before any division by 16
  std::int32_t positional = 0;  // before any division by 16
  std::int32_t value = 0;       // (psqt + positional) / 16, truncated (Stockfish 15.1 / 16)
  std::vector<std::uint8_t> ft_out;          // [L1], side to move half first
  std::array<std::int32_t, kFc0Out> fc0{};   // fc_0 outputs
  std::array<std::uint8_t, kFc1In> ac0{};    // fc_1 input: 15 squared, 15 clipped, 2 zero
  std::array<std::int32_t, kFc1Out> fc1{};
  std::array<std::uint8_t, kFc1Out> ac1{};
  std::int32_t fc2 = 0;
};

// Every layer through the scalar references in reference/ (the specification path).
Evaluation evaluate_reference(const Network& net, const Position& pos);

}  // namespace nnuelab::workloads
