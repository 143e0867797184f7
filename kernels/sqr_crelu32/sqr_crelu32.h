// Op `sqr_crelu32`: squared clipped ReLU of an int32 affine output (Stockfish's
// SqrClippedReLU), see reference/sqr_crelu32.h:
//   out[i] = min(127, (x * x) >> (2 * shift + 7))   x = in[i] as int64; shift 0..28
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::sqr_crelu32 {

struct Shape {
  int n = 0;      // elements
  int shift = 0;  // the layer's weight-scale shift (0..28; Stockfish: 6)

  friend bool operator==(const Shape&, const Shape&) = default;
};

}  // namespace nnuelab::sqr_crelu32

// tech_run_many: the inlined form, `count` calls back to back (call c: input + c * n,
// output + c * n, bits + c * nnz_bitset_words(n)); every sqr_crelu32 kernel has one.
// NNUELAB_SQR_CRELU32_RUN_MANY(tech) writes it from tech_run (kernels/common/run_many.h).
#define NNUELAB_SQR_CRELU32_KERNEL(tech)                                          \
  const char* tech##_supports(const ::nnuelab::sqr_crelu32::Shape& shape);         \
  void tech##_run(const ::nnuelab::sqr_crelu32::Shape& shape, const std::int32_t* input, \
                  std::uint8_t* output, std::uint64_t* bits);                  \
  void tech##_run_many(const ::nnuelab::sqr_crelu32::Shape& shape, const std::int32_t* input, \
                       std::uint8_t* output, std::uint64_t* bits, int count);
#define NNUELAB_SQR_CRELU32_RUN_MANY(tech) \
  NNUELAB_RUN_MANY(tech, std::int32_t, std::uint8_t, s.n, s.n, bitset_words_of(s.n))
