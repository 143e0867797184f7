// Where a list that is written with vector stores should start in its buffer: nowhere
// that makes the stores straddle a 4 KiB page boundary.
//
// A store that straddles a page boundary is slow: on the Zen 5 guest of 2026-12-07 a
// 16-byte store straddling one took 22.6 cycles a store in a loop of them, against 1.0 for
// the same store 8 bytes lower (a page-split load cost nothing extra). The table lists of
// the sparse kernels advance their 16-byte row stores by 2 bytes per listed chunk, so at
// 15% chunk density about 7 row stores in a row straddle the boundary when the list runs
// over one: `sparse_blocked4_lut_x2` at 1536x16, chunk 15%, took 114-143 ns with its list
// starting at 0xF80-0xFC0 of a page against about 95 elsewhere (docs/findings/zen5.md,
// 2026-12-07). Where a stack buffer falls changes from process to process (the stack's
// start is randomised) and from caller to caller, so a list that can straddle a page was
// a slowdown of some processes and not others. The kernels' own lists start on a page
// boundary (nnz::IndexList); a buffer that someone else allocated, such as the one the
// find_nnz benchmarks hand to the kernels, is used from within_a_page.
//
// Scalar code: included by kernels of every ISA and by the benchmarks.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nnuelab {

inline constexpr std::size_t kPageBytes = 4096;

// The first element at or after p from which `bytes` bytes lie within one page when they
// fit in one, else the first page boundary at or after p (the fewest boundaries crossed).
// The buffer at p needs kPageBytes - alignof(T) bytes of spare room past `bytes`: the most
// this moves p.
template <class T>
T* within_a_page(T* p, std::size_t bytes) {
  static_assert(kPageBytes % sizeof(T) == 0);
  const std::size_t in_page = reinterpret_cast<std::uintptr_t>(p) % kPageBytes;
  if (in_page == 0 || in_page + bytes <= kPageBytes) return p;
  return p + (kPageBytes - in_page) / sizeof(T);
}

}  // namespace nnuelab
