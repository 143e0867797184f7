// Included first by every kernels/<op>/xsimd.cpp: xsimd 8.1 inside the ISA namespace, and
// the xsimd architecture of this build.
//
// cmake/isa.cmake compiles each op's xsimd.cpp once per xsimd row of the ISA table:
// xsimd-sse41 (-msse4.1), xsimd-avx2 (the avx2 flags), xsimd-neon (aarch64), each with
// NNUELAB_ISA_NS = xsimd_sse41 / xsimd_avx2 / xsimd_neon, and once more without ISA flags as
// the `xsimd` row (NNUELAB_ISA_NS = xsimd): the xsimd::dispatch front end, see
// kernels/common/xsimd_dispatch.h.
//
// Why xsimd is included through a macro. xsimd is header-only: every function of it that
// the compiler does not inline is emitted as a weak (COMDAT) symbol. Arch-independent ones
// (xsimd::available_architectures(), detail helpers, anything templated only on a scalar
// type) would get the same name in the AVX2 object and in the SSE4.1 or flag-free one, and
// the linker keeps one copy for every caller: an AVX2 copy run by the dispatch code on an
// SSE4.1 CPU is a SIGILL. Renaming the token `xsimd` while its headers are read puts all of
// xsimd into nnuelab::<isa>::xs (Highway's habit: one copy of the library per target), so
// every symbol an xsimd object defines is inside its own ISA namespace, which
// tests/check_isa_symbols.sh verifies like for every other ISA object. The headers write
// `::xsimd::...` in places, which becomes `::nnuelab::<isa>::xs::...`: still valid. Only
// the token is renamed: include paths, include guards and XSIMD_* macros are untouched.
// After the include, code refers to xsimd as `xs` (never through XSIMD_* macros that
// expand to `xsimd::`, which would name the real, absent, global namespace).
#pragma once
#include "kernels/common/isa.h"

#define xsimd nnuelab::NNUELAB_ISA_NS::xs
#include <xsimd/xsimd.hpp>
#undef xsimd

namespace nnuelab::NNUELAB_ISA_NS {

#if defined(NNUELAB_ISA_xsimd_avx2)
using Arch = xs::avx2;
#elif defined(NNUELAB_ISA_xsimd_sse41)
using Arch = xs::sse4_1;
#elif defined(NNUELAB_ISA_xsimd_neon)
using Arch = xs::neon64;
#elif defined(NNUELAB_ISA_xsimd)
#define NNUELAB_XSIMD_DISPATCH 1
#else
#error "kernels/common/xsimd_arch.h is for kernels/<op>/xsimd.cpp, compiled by the xsimd rows of cmake/isa.cmake"
#endif

#if !NNUELAB_XSIMD_DISPATCH
// The flags of the ISA row must enable the arch (else xsimd silently lacks its kernels).
static_assert(Arch::supported(), "this xsimd arch is not enabled by the row's compiler flags");
template <class T>
using B = xs::batch<T, Arch>;
#endif

}  // namespace nnuelab::NNUELAB_ISA_NS
