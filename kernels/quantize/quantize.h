// Op `quantize`: float -> int8 / int16 with a clipping scalar s, B bits, symmetric:
//   L = 2^(B-1) - 1,  scale = float(L) / s  (one float division, done once by the checked
//   entry so every variant multiplies by the same float),
//   q[i] = clamp(roundeven(x[i] * scale), -L, L)   float multiply, ties to even,
//   saturating at +-L (the clip s on both sides; -2^(B-1) is never produced).
// At B = 8, s = 127/64 it is Stockfish's hidden-layer quantizer round(w * 64) in -127..127.
// Bit-exact across variants. Executable spec: ref::quantize_sym_i8 / _i16 (reference/octav.h).
// Domain (checked entry, quantize::run_i8 / run_i16): n >= 1, finite x, s finite > 0 with
// float(L) / s finite, bits 2..8 (int8) or 2..16 (int16).
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nnuelab::quantize {

struct Params {
  float scale = 1;  // float(L) / s
  int levels = 127; // L
};

}  // namespace nnuelab::quantize

#define NNUELAB_QUANTIZE_KERNEL(tech)                                                              \
  void tech##_run_i8(const float* x, std::size_t n, const ::nnuelab::quantize::Params& p, std::int8_t* out); \
  void tech##_run_i16(const float* x, std::size_t n, const ::nnuelab::quantize::Params& p, std::int16_t* out);
