// Op `crelu32`: ClippedReLU of an int32 affine output, scaled down by a power of two.
//   out[i] = clamp(in[i] >> shift, 0, 127)   int32 -> uint8, arithmetic (floor) shift,
// valid for every int32 input and shift 0..31. Stockfish uses shift 6 (weights x64).
// Output order: canonical, unless the registry line declares lanes > 1 (the *_lanes
// forms): then each output vector stays in the packs' per-128-bit-lane order
// (crelu32::output_order) and the next layer's prepare absorbs it.
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::crelu32 {

struct Shape {
  int n = 0;      // elements
  int shift = 0;  // arithmetic right shift applied before clamping (0..31)

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::crelu32

// tech_run_many: the inlined form, `count` calls back to back (call c: input + c * n,
// output + c * n, bits + c * nnz_bitset_words(n)); every crelu32 kernel has one.
// NNUELAB_CRELU32_RUN_MANY(tech) writes it from tech_run (kernels/common/run_many.h).
#define NNUELAB_CRELU32_RUN_MANY(tech) \
  NNUELAB_RUN_MANY(tech, std::int32_t, std::uint8_t, s.n, s.n, bitset_words_of(s.n))
#define NNUELAB_CRELU32_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::crelu32::Shape& shape);         \
  void tech##_run(const ::nnuelab::crelu32::Shape& shape, const std::int32_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);                  \
  void tech##_run_many(const ::nnuelab::crelu32::Shape& shape, const std::int32_t* input, \
                       std::uint8_t* output, std::uint64_t* bits, int count);
