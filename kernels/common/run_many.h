// The inlined form of an elementwise kernel (ElementwiseVariant::run_many): `count`
// back-to-back calls, written once here for kernels that are plain functions of their ISA
// file. Included by ISA-compiled files only (everything in the ISA's namespace).
// Kernels built from always-inline loop templates (crelu32's NNUELAB_CRELU32_DEFINE_LOOP)
// write their own, so they can also take the per-shape decisions once outside the loop.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"

namespace nnuelab::NNUELAB_ISA_NS {

// Call c reads in + c * in_step, writes out + c * out_step and, when bits is not null,
// bits + c * bits_step words: run(s, in, out, bits) for each, with s a local copy of the
// shape (the uint8 stores may alias a shape the caller passed by reference, which would
// make the kernel reload its fields on every call). Always inlined, so `run` (a lambda
// calling an always-inline loop template) is inlined into the loop.
template <class Shape, class In, class Out, class Run>
[[gnu::always_inline]] inline void run_calls_with(const Shape& shape, const In* in, Out* out, std::uint64_t* bits,
                                                  int count, std::size_t in_step, std::size_t out_step,
                                                  std::size_t bits_step, Run&& run) {
  const Shape s = shape;
  for (int c = 0; c < count; ++c)
    run(s, in + std::size_t(c) * in_step, out + std::size_t(c) * out_step, bits ? bits + std::size_t(c) * bits_step : nullptr);
}

// The same over a plain kernel function of the including file. flatten: Run is inlined
// into the loop (an ISA file's kernel is visible there).
template <auto Run, class Shape, class In, class Out>
[[gnu::flatten]] void run_calls(const Shape& shape, const In* in, Out* out, std::uint64_t* bits, int count,
                                std::size_t in_step, std::size_t out_step, std::size_t bits_step) {
  run_calls_with(shape, in, out, bits, count, in_step, out_step, bits_step, Run);
}

// Words of the nnz bitset of `bytes` output bytes (nnz_bitset_words in
// kernels/common/elementwise.h, which is scalar-side).
constexpr std::size_t bitset_words_of(int bytes) { return std::size_t(((bytes + 3) / 4 + 63) / 64); }

}  // namespace nnuelab::NNUELAB_ISA_NS

// Defines tech##_run_many (the registry's inlined form) from the plain kernel tech##_run of
// the same file; the steps are expressions in the shape `s`.
#define NNUELAB_RUN_MANY(tech, In, Out, in_step, out_step, bits_step)                                     \
  void tech##_run_many(const Shape& s, const In* in, Out* out, std::uint64_t* b, int count) {             \
    run_calls<&tech##_run>(s, in, out, b, count, std::size_t(in_step), std::size_t(out_step), bits_step); \
  }
