// Op `crelu32_pair`: the fused pair of activations Stockfish feeds its second layer from
// one int32 affine output (see reference/crelu32_pair.h):
//   out[0 .. n)   = sqr_crelu32(in, n, shift)
//   out[n .. 2n)  = crelu32(in, n, shift)
// int32[n] -> uint8[2n], shift 0..28. Included by ISA-compiled files: plain data and
// declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::crelu32_pair {

struct Shape {
  int n = 0;      // input elements (outputs: 2n)
  int shift = 0;  // shared by both halves (0..28; Stockfish: 6)

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::crelu32_pair

// tech_run_many: the inlined form, `count` calls back to back (call c: input + c * n,
// output + c * 2n, bits + c * nnz_bitset_words(2n)); every crelu32_pair kernel has one.
// NNUELAB_CRELU32_PAIR_RUN_MANY(tech) writes it from tech_run (kernels/common/run_many.h).
#define NNUELAB_CRELU32_PAIR_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::crelu32_pair::Shape& shape);         \
  void tech##_run(const ::nnuelab::crelu32_pair::Shape& shape, const std::int32_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);                  \
  void tech##_run_many(const ::nnuelab::crelu32_pair::Shape& shape, const std::int32_t* input, \
                       std::uint8_t* output, std::uint64_t* bits, int count);
#define NNUELAB_CRELU32_PAIR_RUN_MANY(tech) \
  NNUELAB_RUN_MANY(tech, std::int32_t, std::uint8_t, s.n, 2 * s.n, bitset_words_of(2 * s.n))
