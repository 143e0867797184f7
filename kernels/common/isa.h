// Included first by every kernels/<op>/<isa>.cpp: the intrinsics of the ISA being built.
//
// CMake compiles each ISA file with that ISA's flags and NNUELAB_ISA_NS set to the ISA's
// namespace (avx2, avx512vnni, avx512vnni_emu, ...). Everything in such a file, helpers
// included, lives in nnuelab::NNUELAB_ISA_NS. With NNUELAB_EMULATED the same source is
// compiled without ISA flags against SIMDe's native aliases, so AVX-512 and NEON kernels
// run (slowly, bit-exactly) on any x86-64 machine.
#pragma once

#ifndef NNUELAB_ISA_NS
#error "kernels/<op>/<isa>.cpp files are compiled by cmake/isa.cmake, which sets NNUELAB_ISA_NS"
#endif

#if NNUELAB_EMULATED
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <simde/arm/neon.h>
#include "kernels/common/simde_shim.h"
#elif defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include <cstddef>
#include <cstdint>

// Put before a loop over a kernel's registers (for r < R, k < K with compile-time bounds):
// the loop is unrolled whole early, before GCC's scalar replacement of aggregates, so an
// accumulator array `reg acc[R]` becomes R registers. Left to the late unroller, GCC 12
// kept such arrays half in memory: the x2 slabs stored their accumulators to the stack
// around every tail and heavy-chunk loop and copied registers in the pair loop (the gate
// counted 2-14% more instructions per call for the x2 affine variants). Not a rule: where
// it cost instructions (affine's bitset walk and pipe forms) the loop says so and goes without.
#if defined(__clang__)
#define NNUELAB_UNROLL _Pragma("unroll")
#else
#define NNUELAB_UNROLL _Pragma("GCC unroll 32")
#endif

// On a kernel function: GCC must not merge identical instruction tails of its branches
// (cross-jumping). Where a kernel picks one of several instantiations per call (an
// immediate shift), the merge puts taken jumps on the short path a tiny shape takes.
// Clang has no such pass option; there it is empty.
#if defined(__clang__)
#define NNUELAB_NO_CROSSJUMPING
#else
#define NNUELAB_NO_CROSSJUMPING [[gnu::optimize("no-crossjumping")]]
#endif

// On a lambda (after its parameter list): always inlined, as the loop templates it calls
// are. GCC otherwise weighs it as an ordinary function: when a file gained the inlined
// forms (run_many, a second caller of the same loops), it kept the immediate-shift
// lambdas of crelu32_pair's *_bits kernels out of line, and their registry calls at 32
// elements went from 80 to 113 instructions.
#define NNUELAB_INLINE_LAMBDA __attribute__((always_inline))

namespace nnuelab::NNUELAB_ISA_NS {
// n / D for an n >= 0 (a shape every supports() has checked), divided unsigned: a shift,
// where int division adds a sign fix-up of three instructions to every call. Used where
// the gate showed the saving (activations, pairwise, affine dense_rows4 and dot1).
template <int D>
[[gnu::always_inline]] inline int div_nonneg(int n) {
  static_assert(D > 0, "a positive divisor");
  return int(unsigned(n) / unsigned(D));
}

// Returns p, after which the compiler no longer knows how p was computed: an address
// formed from it is [p + constant], never [base + index * scale]. Why that matters: Intel
// cores (Sandy Bridge through at least Cascade Lake) split a VEX instruction that both
// computes and loads through an indexed address (vpmullw ymm, ymm, [rsi + rax*2]) back into
// two uops at issue ("unlamination"), so a streaming loop of such instructions issues up
// to a third more uops than it has and the 4-wide front end becomes its limit. AMD cores
// keep them fused either way, and so does Intel for the legacy SSE encoding of a
// two-operand op (paddb xmm, [base + index]), so the barrier is there only in VEX builds
// (__AVX__; not the SIMDe-emulated ones). The cost is a pointer increment per stream per
// iteration where one shared index would do. An empty asm statement: no instruction.
template <class T>
[[gnu::always_inline]] inline T* in_register(T* p) {
#if defined(__AVX__) && !NNUELAB_EMULATED
  asm("" : "+r"(p));
#endif
  return p;
}
}  // namespace nnuelab::NNUELAB_ISA_NS
