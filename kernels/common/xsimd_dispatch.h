// The `xsimd` front end: <op>/xsimd/<technique> variants whose run goes through
// xsimd::dispatch over the xsimd architectures built into this binary (x86: avx2, then
// sse4_1; aarch64: neon64). Included by kernels/<op>/xsimd.cpp when it is compiled for the
// `xsimd` row (no ISA flags, NNUELAB_ISA_NS = xsimd, NNUELAB_XSIMD_DISPATCH set).
//
// How it fits the namespace rule. xsimd's documented pattern declares one functor whose
// operator()<Arch> is explicitly instantiated in per-arch objects. Here the per-arch code
// is instead the plain kernel functions of nnuelab::xsimd_<arch>::<op> (the same ones the
// xsimd-<arch> variants register), and the dispatched functor, instantiated only in this
// flag-free object, just calls one of them through a table. The dispatcher (CPUID, arch
// walk, xsimd inline code) is thereby compiled without ISA flags, and every ISA object still
// defines nothing outside its own namespace. xsimd::dispatch picks the arch from its own
// CPUID check, once per process (a function-local static per kernel signature).
#pragma once
#include <type_traits>
#include <utility>

#include "kernels/common/xsimd_arch.h"
#include "nnuelab_config.h"

#if !NNUELAB_XSIMD_DISPATCH
#error "kernels/common/xsimd_dispatch.h is for the xsimd (dispatch) row only"
#endif

// NNUELAB_XSIMD_EACH(M, ...): M(ns, ...) for each xsimd arch build, in dispatch order.
#if defined(__aarch64__)
#if !NNUELAB_HAS_xsimd_neon
#error "the xsimd front end needs the xsimd-neon build"
#endif
#define NNUELAB_XSIMD_EACH(M, ...) M(xsimd_neon, __VA_ARGS__)
#elif defined(__x86_64__)
#if !NNUELAB_HAS_xsimd_avx2 || !NNUELAB_HAS_xsimd_sse41
#error "the xsimd front end needs the xsimd-avx2 and xsimd-sse41 builds"
#endif
#define NNUELAB_XSIMD_EACH(M, ...) M(xsimd_avx2, __VA_ARGS__) M(xsimd_sse41, __VA_ARGS__)
#else
#error "xsimd front end: no xsimd arch list for this target"
#endif

namespace nnuelab::xsimd {

#if defined(__aarch64__)
using Archs = xs::arch_list<xs::neon64>;
template <class A>
constexpr int kArchIndex = std::is_same_v<A, xs::neon64> ? 0 : -1;
#else
using Archs = xs::arch_list<xs::avx2, xs::sse4_1>;
template <class A>
constexpr int kArchIndex = std::is_same_v<A, xs::avx2> ? 0 : std::is_same_v<A, xs::sse4_1> ? 1 : -1;
#endif

// The dispatched functor: xsimd::dispatch calls it with the chosen arch's tag; it calls
// that arch's kernel from `fns` (one pointer per arch, NNUELAB_XSIMD_EACH order). The
// return type does not depend on the arch, so only the listed archs are instantiated.
struct Forward {
  template <class A, class Fn, class... Args>
  auto operator()(A, const Fn* fns, Args&&... args) const -> decltype(fns[0](std::forward<Args>(args)...)) {
    static_assert(kArchIndex<A> >= 0, "arch not in the dispatch list");
    return fns[kArchIndex<A>](std::forward<Args>(args)...);
  }
};

template <class Fn, class... Args>
auto dispatch_call(const Fn* fns, Args&&... args) {
  static auto dispatcher = xs::dispatch<Archs>(Forward{});  // CPUID once
  return dispatcher(fns, std::forward<Args>(args)...);
}

}  // namespace nnuelab::xsimd

#define NNUELAB_XSIMD_DECLARE_IN(ns, op, ...) \
  namespace nnuelab::ns::op {                 \
  __VA_ARGS__                                 \
  }
// Declares an op's kernel functions (its NNUELAB_<OP>_KERNEL(tech) line) in every xsimd
// arch namespace.
#define NNUELAB_XSIMD_DECLARE(op, ...) NNUELAB_XSIMD_EACH(NNUELAB_XSIMD_DECLARE_IN, op, __VA_ARGS__)

#define NNUELAB_XSIMD_FN(ns, op, fn) &::nnuelab::ns::op::fn,
// Inside nnuelab::xsimd::<op>::fn (same signature as the arch kernels): calls the chosen
// arch's fn with the arguments.
#define NNUELAB_XSIMD_CALL(op, fn, ...)                                                          \
  ::nnuelab::xsimd::dispatch_call(                                                               \
      [] {                                                                                       \
        static constexpr decltype(&fn) kFns[] = {NNUELAB_XSIMD_EACH(NNUELAB_XSIMD_FN, op, fn)};  \
        return kFns;                                                                             \
      }(),                                                                                       \
      __VA_ARGS__)

// The two functions of an element-wise op's technique (supports, run(shape, in, out, bits)),
// forwarded through xsimd::dispatch. Used inside nnuelab::xsimd::<op>.
// The inlined form of an op with NNUELAB_REGISTRY_MANY (run_many(shape, in, out, bits,
// count)): the arch is picked once, then its own run_many runs every call.
#define NNUELAB_XSIMD_FORWARD_MANY(op, tech, In, Out)                                                      \
  void tech##_run_many(const Shape& s, const In* in, Out* out, std::uint64_t* bits, int count) {         \
    NNUELAB_XSIMD_CALL(op, tech##_run_many, s, in, out, bits, count);                                    \
  }
#define NNUELAB_XSIMD_FORWARD_ELEMENTWISE(op, tech, In, Out)                                            \
  const char* tech##_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(op, tech##_supports, s); }   \
  void tech##_run(const Shape& s, const In* in, Out* out, std::uint64_t* bits) {                      \
    NNUELAB_XSIMD_CALL(op, tech##_run, s, in, out, bits);                                             \
  }
