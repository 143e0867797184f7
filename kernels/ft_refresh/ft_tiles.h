// The feature-transformer techniques of both ops (ft_refresh, ft_update), written once
// against a small int16 vector interface V and instantiated per ISA file (Highway's habit,
// as kernels/affine/techniques.h). Everything here lands in the including ISA's namespace
// (nnuelab::<isa>::ft), so no AVX-512 template body can be merged into an AVX2 caller.
//
// V provides: reg, kLanes (int16 lanes per register), kWidthReason (the supports() text
// for an l1 that is not a whole number of registers), load, store, add, sub (int16
// wrap-around: paddw/psubw, exactly the reference's mod-2^16 arithmetic, so rows may be
// applied in any order and the accumulator split into any slices).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/common/isa.h"
#include "kernels/ft_refresh/ft_refresh.h"
#include "kernels/ft_update/ft_update.h"

namespace nnuelab::NNUELAB_ISA_NS::ft {

// ---- vector interfaces ------------------------------------------------------------------

// One int16 per "register": the scalar build runs the same techniques lane by lane.
struct Scalar {
  using reg = std::int16_t;
  static constexpr int kLanes = 1;
  static constexpr const char* kWidthReason = nullptr;  // any l1
  static reg load(const std::int16_t* p) { return *p; }
  static void store(std::int16_t* p, reg v) { *p = v; }
  // Formed in int32 and narrowed: since C++20 that narrowing is reduction mod 2^16.
  static reg add(reg a, reg b) { return reg(std::int32_t(a) + std::int32_t(b)); }
  static reg sub(reg a, reg b) { return reg(std::int32_t(a) - std::int32_t(b)); }
};

#if defined(__SSE2__) || NNUELAB_EMULATED
struct X128 {
  using reg = __m128i;
  static constexpr int kLanes = 8;
  static constexpr const char* kWidthReason = "needs l1 % 8 == 0 (whole xmm registers of 8 int16)";
  static reg load(const std::int16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static void store(std::int16_t* p, reg v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
  static reg add(reg a, reg b) { return _mm_add_epi16(a, b); }
  static reg sub(reg a, reg b) { return _mm_sub_epi16(a, b); }
};
#endif

#if defined(__AVX2__) || NNUELAB_EMULATED
struct X256 {
  using reg = __m256i;
  static constexpr int kLanes = 16;
  static constexpr const char* kWidthReason = "needs l1 % 16 == 0 (whole ymm registers of 16 int16)";
  static reg load(const std::int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(std::int16_t* p, reg v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static reg add(reg a, reg b) { return _mm256_add_epi16(a, b); }
  static reg sub(reg a, reg b) { return _mm256_sub_epi16(a, b); }
};
#endif

#if defined(__AVX512BW__) || NNUELAB_EMULATED
struct X512 {
  using reg = __m512i;
  static constexpr int kLanes = 32;
  static constexpr const char* kWidthReason = "needs l1 % 32 == 0 (whole zmm registers of 32 int16)";
  static reg load(const std::int16_t* p) { return _mm512_loadu_si512(p); }
  static void store(std::int16_t* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg add(reg a, reg b) { return _mm512_add_epi16(a, b); }
  static reg sub(reg a, reg b) { return _mm512_sub_epi16(a, b); }
};
#endif

// ---- shared pieces ----------------------------------------------------------------------

template <class V>
const char* width_check(int l1) {
  return l1 % V::kLanes ? V::kWidthReason : nullptr;
}

// Row f of the [features][l1] weight matrix, offset to lane `off` (size_t: 45056 x 3072
// elements exceed int).
inline const std::int16_t* row(const std::int16_t* w, int l1, std::uint32_t f, int off = 0) {
  return w + std::size_t(f) * std::size_t(l1) + std::size_t(off);
}

// Register tiling: the accumulator is cut into slices of N registers, each slice lives in
// registers while every row is applied to it, then is stored once. The slices cover the
// `regs` registers of l1 as: as many slices of R as fit, then the remainder in power-of-two
// pieces R/2, R/4, ... 1 (each used at most once, as the remainder is < R). So any l1 that
// is a whole number of registers works, and each N is a compile-time constant: the
// N-register array is fully unrolled and kept in registers (never indexed at run time).
template <int N, class Body>
inline void tail_slices(int& r, int regs, Body& body) {
  if (r + N <= regs) {
    body.template operator()<N>(r);
    r += N;
  }
  if constexpr (N > 1) tail_slices<N / 2>(r, regs, body);
}

template <int R, class Body>
inline void for_slices(int regs, Body&& body) {
  static_assert(R > 0 && (R & (R - 1)) == 0, "slice widths must be powers of two");
  int r = 0;
  for (; r + R <= regs; r += R) body.template operator()<R>(r);
  if constexpr (R > 1) tail_slices<R / 2>(r, regs, body);
}

template <class V, int N>
inline void load_n(typename V::reg (&acc)[N], const std::int16_t* p) {
#pragma GCC unroll 32
  for (int i = 0; i < N; ++i) acc[i] = V::load(p + i * V::kLanes);
}

template <class V, int N>
inline void store_n(std::int16_t* p, const typename V::reg (&acc)[N]) {
#pragma GCC unroll 32
  for (int i = 0; i < N; ++i) V::store(p + i * V::kLanes, acc[i]);
}

// tiled_stream's distance in rows for its whole-row prefetch (see RefreshTiled): 8 (2, 4, 8
// and 12 measured on 1024x30, cold rows, avx2, AMD EPYC Zen 4, 2026-11-25: 8 fastest;
// prefetcht0 was slower than t1/t2 there, as a whole 60 KB refresh does not fit the 32 KB
// L1D; prefetching every other line only was slower too).
constexpr int kStreamAhead = 8;

// Every 64-byte line of the l1-lane row at p, towards L2 (locality 2: prefetcht1 on x86,
// prfm pldl2keep on AArch64).
inline void prefetch_row_l2(const std::int16_t* p, int l1) {
  const char* b = reinterpret_cast<const char*>(p);
  const int bytes = l1 * int(sizeof(std::int16_t));
#pragma GCC unroll 8
  for (int i = 0; i < bytes; i += 64) __builtin_prefetch(b + i, 0, 2);
}

// acc (N registers at lane `off`) += (or -=) the rows of ids[0..n).
// kAhead = 0: no software prefetch. The loop stores nothing, so out-of-order execution
// already issues the loads of several rows ahead (the naive form's per-row stores fill the
// store queue and stop that); prefetching the next slice measured slower (1024x30, rows
// from DRAM). kAhead > 0 (the tiled_prefetch variants): while adding row k, prefetch the
// same slice of row k + kAhead, one prefetcht0 per 64-byte line. A slice is only N
// registers of each row (8 lines of a 2 KB row on AVX2), so the hardware prefetchers,
// which follow sequential lines, do not fetch the other rows' slices ahead of the loads.
//
// kStreamRows (tiled_stream's first slice only): instead, while adding row k, prefetch
// the whole of row k + kStreamAhead towards L2 (prefetcht1, one per 64-byte line), so the
// later slices of every row are read from L2, not memory (see RefreshTiled).
template <class V, int N, bool kSub, int kAhead = 0, bool kStreamRows = false>
inline void apply_rows(typename V::reg (&acc)[N], const std::int16_t* w, int l1, const std::uint32_t* ids, int n,
                       int off) {
  if constexpr (kStreamRows)  // the first kStreamAhead rows, which no earlier step prefetches
    for (int k = 0; k < std::min(n, kStreamAhead); ++k) prefetch_row_l2(row(w, l1, ids[k]), l1);
  for (int k = 0; k < n; ++k) {
    const std::int16_t* r = row(w, l1, ids[k], off);
    if constexpr (kStreamRows) {
      if (k + kStreamAhead < n) prefetch_row_l2(row(w, l1, ids[k + kStreamAhead]), l1);
    } else if constexpr (kAhead > 0) {
      if (k + kAhead < n) {
        const char* ahead = reinterpret_cast<const char*>(row(w, l1, ids[k + kAhead], off));
        constexpr int kBytes = N * int(sizeof(typename V::reg));
#pragma GCC unroll 32
        for (int b = 0; b < kBytes; b += 64) __builtin_prefetch(ahead + b, 0, 3);
      }
    }
#pragma GCC unroll 32
    for (int i = 0; i < N; ++i) {
      const typename V::reg x = V::load(r + i * V::kLanes);
      acc[i] = kSub ? V::sub(acc[i], x) : V::add(acc[i], x);
    }
  }
}

// ---- ft_refresh -------------------------------------------------------------------------

// naive: bias copied into acc, then one load-add-store pass over acc per active row.
// acc lives in memory between rows (it may alias the int16 weights as far as the compiler
// knows), so every row costs a load and a store of the whole accumulator.
template <class V>
struct RefreshNaive {
  static const char* supports(const ft_refresh::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_refresh::Shape& s, const ft_refresh::Args& a) {
    const int l1 = s.l1;
    for (int p = 0; p < s.perspectives; ++p) {
      std::int16_t* acc = a.acc[p];
      for (int i = 0; i < l1; i += V::kLanes) V::store(acc + i, V::load(a.bias + i));
      for (int k = 0; k < s.active; ++k) {
        const std::int16_t* r = row(a.weights, l1, a.active[p][k]);
        for (int i = 0; i < l1; i += V::kLanes) V::store(acc + i, V::add(V::load(acc + i), V::load(r + i)));
      }
    }
  }
};

// tiled: per slice of R registers (R = the accumulator registers the ISA's register file
// spares: all 16 ymm, since VEX vpaddw takes the unaligned row straight from memory and needs
// no temporary; all 32 zmm; 8 of 16 xmm for SSE2, whose paddw needs each row register loaded
// into a temporary first), load the bias slice, add every active row's slice in registers,
// store once. l1 = 256 is one pass on AVX2 (16 x 16 lanes); 1024 is 4 passes, 3072 is 12;
// AVX-512 does 1024 lanes per pass. With two perspectives
// both accumulators are built in the same pass over l1: R/2 registers each, the bias slice
// loaded once and copied into both register sets.
// tiled_prefetch's distance: 4 rows ahead (2, 4 and 8 measured alike on 1024x30 with L2-hot
// rows; 1 left most of the latency exposed).
constexpr int kRefreshAhead = 4;

// tiled_stream (kStream): tiled_prefetch whose first slice pass also prefetches each whole
// row kStreamAhead rows ahead into L2 (prefetcht1 per line; apply_rows' kStreamRows). With rows
// cold in memory (a refresh: the king entered a bucket whose rows nobody read lately), the
// first pass then waits on 8 whole rows in flight instead of 8-line slices, and the later
// passes find their slices in L2. The price is l1 / 32 prefetches per row in that pass
// (32 per 2 KB row), which cost when the rows are already cached.
// kAhead: apply_rows' prefetch distance in rows (0: none; tiled_prefetch uses kRefreshAhead).
template <class V, int R, int kAhead = 0, bool kStream = false>
struct RefreshTiled {
  // apply_rows for one slice; tiled_stream's first slice streams whole rows (the branch on
  // `first` exists only in tiled_stream, once per slice).
  template <int N>
  static void add_rows(typename V::reg (&acc)[N], const std::int16_t* w, int l1, const std::uint32_t* ids, int n,
                       int off, bool first) {
    if constexpr (kStream)
      if (first) return apply_rows<V, N, false, kAhead, true>(acc, w, l1, ids, n, off);
    apply_rows<V, N, false, kAhead>(acc, w, l1, ids, n, off);
  }
  static const char* supports(const ft_refresh::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_refresh::Shape& s, const ft_refresh::Args& a) {
    const int l1 = s.l1, n = s.active, regs = l1 / V::kLanes;
    const std::int16_t* w = a.weights;
    if (s.perspectives == 1) {
      for_slices<R>(regs, [&]<int N>(int r) {
        const int off = r * V::kLanes;
        typename V::reg acc[N];
        load_n<V, N>(acc, a.bias + off);
        add_rows<N>(acc, w, l1, a.active[0], n, off, r == 0);
        store_n<V, N>(a.acc[0] + off, acc);
      });
      return;
    }
    for_slices<R / 2>(regs, [&]<int N>(int r) {
      const int off = r * V::kLanes;
      typename V::reg acc0[N], acc1[N];
      load_n<V, N>(acc0, a.bias + off);
#pragma GCC unroll 32
      for (int i = 0; i < N; ++i) acc1[i] = acc0[i];
      add_rows<N>(acc0, w, l1, a.active[0], n, off, r == 0);
      add_rows<N>(acc1, w, l1, a.active[1], n, off, r == 0);
      store_n<V, N>(a.acc[0] + off, acc0);
      store_n<V, N>(a.acc[1] + off, acc1);
    });
  }
};

// grouped: the accumulator stays in memory (L1) and each pass adds a group of whole rows
// to it, read front to back: acc = bias + rows 0..g-1, then acc += the next g, ... Each
// row is one sequential stream of lines, which the hardware prefetchers run ahead of,
// where the tiles read each row in slices of a few lines at a time (kRefreshAhead above);
// the price is a load and a store of the accumulator per pass. The n rows are split into
// ceil(n / kRefreshGroup) passes of nearly equal size (at a group of 12, 30 rows would
// be 10 + 10 + 10, not 12 + 12 + 6), each with its row count a compile-time constant, so
// the row pointers and the loads of a pass are unrolled.
// kRefreshGroup: 10 (8, 10, 12 and 16 measured within 5% of each other on 1024x30 with
// L2-hot rows on the 2026-11-24 Xeon VM, and 30 in one pass 10-15% slower; 10 row
// pointers, the accumulator, the source and the index still fit the 15 usable x86 GPRs).
constexpr int kRefreshGroup = 10;

// acc[0..l1) = src[0..l1) + the A rows of `add` - the S rows of `sub` (A == S == 0: a
// copy). Each register of acc is read from src before it is stored, so acc == src (an
// update in place) is fine.
template <class V, int A, int S>
inline void apply_row_group(std::int16_t* acc, const std::int16_t* src, const std::int16_t* w, int l1,
                            const std::uint32_t* add, const std::uint32_t* sub) {
  const std::int16_t* ra[A > 0 ? A : 1];
  const std::int16_t* rs[S > 0 ? S : 1];
#pragma GCC unroll 32
  for (int q = 0; q < A; ++q) ra[q] = row(w, l1, add[q]);
#pragma GCC unroll 32
  for (int q = 0; q < S; ++q) rs[q] = row(w, l1, sub[q]);
  for (int i = 0; i < l1; i += V::kLanes) {
    typename V::reg x = V::load(src + i);
#pragma GCC unroll 32
    for (int q = 0; q < A; ++q) x = V::add(x, V::load(ra[q] + i));
#pragma GCC unroll 32
    for (int q = 0; q < S; ++q) x = V::sub(x, V::load(rs[q] + i));
    V::store(acc + i, x);
  }
}

// acc[0..l1) = src[0..l1) + the N rows of ids (N == 0: a copy).
template <class V, int N>
inline void add_row_group(std::int16_t* acc, const std::int16_t* src, const std::int16_t* w, int l1,
                          const std::uint32_t* ids) {
  apply_row_group<V, N, 0>(acc, src, w, l1, ids, nullptr);
}

// add_row_group with the row count g (0 <= g <= N) as a compile-time constant.
template <class V, int N>
inline void add_row_group_n(int g, std::int16_t* acc, const std::int16_t* src, const std::int16_t* w, int l1,
                            const std::uint32_t* ids) {
  if constexpr (N > 0)
    if (g != N) return add_row_group_n<V, N - 1>(g, acc, src, w, l1, ids);
  add_row_group<V, N>(acc, src, w, l1, ids);
}

template <class V, int G = kRefreshGroup>
struct RefreshGrouped {
  static const char* supports(const ft_refresh::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_refresh::Shape& s, const ft_refresh::Args& a) {
    const int n = s.active, passes = n > 0 ? (n + G - 1) / G : 1;
    for (int p = 0; p < s.perspectives; ++p) {
      const std::int16_t* src = a.bias;
      for (int k = 0, left = passes; left > 0; --left) {
        const int g = (n - k) / left;  // the rest split as evenly as possible
        add_row_group_n<V, G>(g, a.acc[p], src, a.weights, s.l1, a.active[p] + k);
        k += g;
        src = a.acc[p];
      }
    }
  }
};

// ---- ft_update --------------------------------------------------------------------------

// naive, the copy-then-update form: prev copied to out (skipped in place), then one
// load-sub-store pass over out per removed row and one load-add-store pass per added row.
template <class V>
struct UpdateNaive {
  static const char* supports(const ft_update::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_update::Shape& s, const ft_update::Args& a) {
    const int l1 = s.l1;
    for (int p = 0; p < s.perspectives; ++p) {
      std::int16_t* out = a.out[p];
      if (out != a.prev[p])
        for (int i = 0; i < l1; i += V::kLanes) V::store(out + i, V::load(a.prev[p] + i));
      for (int k = 0; k < s.n_removed; ++k) {
        const std::int16_t* r = row(a.weights, l1, a.removed[p][k]);
        for (int i = 0; i < l1; i += V::kLanes) V::store(out + i, V::sub(V::load(out + i), V::load(r + i)));
      }
      for (int k = 0; k < s.n_added; ++k) {
        const std::int16_t* r = row(a.weights, l1, a.added[p][k]);
        for (int i = 0; i < l1; i += V::kLanes) V::store(out + i, V::add(V::load(out + i), V::load(r + i)));
      }
    }
  }
};

// tiled: per slice of R registers, load prev, apply every removed and added row in
// registers, store to out once. Each slice is read completely before it is written, so
// the same code serves in place (out == prev) and copy (disjoint) updates.
template <class V, int R>
struct UpdateTiled {
  static const char* supports(const ft_update::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_update::Shape& s, const ft_update::Args& a) {
    const int l1 = s.l1, regs = l1 / V::kLanes;
    for (int p = 0; p < s.perspectives; ++p) {
      for_slices<R>(regs, [&]<int N>(int r) {
        const int off = r * V::kLanes;
        typename V::reg acc[N];
        load_n<V, N>(acc, a.prev[p] + off);
        apply_rows<V, N, true>(acc, a.weights, l1, a.removed[p], s.n_removed, off);
        apply_rows<V, N, false>(acc, a.weights, l1, a.added[p], s.n_added, off);
        store_n<V, N>(a.out[p] + off, acc);
      });
    }
  }
};

// grouped: refresh's row groups for any counts. Each pass reads every register of its
// source once (prev, then out), adds up to kUpdateGroup added rows and subtracts up to
// kUpdateGroup removed ones, and stores once: the rows are sequential streams, as in
// RefreshGrouped, and up to 4 added and 4 removed rows cost one pass over the accumulator
// (naive makes one per row). The counts
// are split into max(ceil(added / 4), ceil(removed / 4)) passes of nearly equal shares,
// each pass's (added, removed) a compile-time pair (25 instantiations), so +3-3 (three
// quiet moves applied at once, an update from an ancestor entry) is one pass, where the
// fused forms take only their exact counts and `tiled` re-reads rows slice by slice.
// Each register is read before it is written, so it works in place too.
constexpr int kUpdateGroup = 4;

// apply_row_group with the counts (a, s), 0 <= a <= A, 0 <= s <= S, as compile-time constants.
template <class V, int A, int S>
inline void apply_row_group_n(int a, int s, std::int16_t* acc, const std::int16_t* src, const std::int16_t* w, int l1,
                              const std::uint32_t* add, const std::uint32_t* sub) {
  if constexpr (A > 0)
    if (a != A) return apply_row_group_n<V, A - 1, S>(a, s, acc, src, w, l1, add, sub);
  if constexpr (S > 0)
    if (s != S) return apply_row_group_n<V, A, S - 1>(a, s, acc, src, w, l1, add, sub);
  apply_row_group<V, A, S>(acc, src, w, l1, add, sub);
}

template <class V, int G = kUpdateGroup>
struct UpdateGrouped {
  static const char* supports(const ft_update::Shape& s) { return width_check<V>(s.l1); }
  static void run(const ft_update::Shape& s, const ft_update::Args& a) {
    const int na = s.n_added, nr = s.n_removed;
    // Spelled out: std::max of an initializer_list is std::max_element, a template clang
    // keeps out of line (compiled with this ISA's flags, outside its namespace).
    int passes = (na + G - 1) / G;
    if ((nr + G - 1) / G > passes) passes = (nr + G - 1) / G;
    if (passes < 1) passes = 1;
    for (int p = 0; p < s.perspectives; ++p) {
      const std::int16_t* src = a.prev[p];
      for (int ka = 0, kr = 0, left = passes; left > 0; --left) {
        const int ga = (na - ka) / left, gr = (nr - kr) / left;  // the rest split as evenly as possible
        apply_row_group_n<V, G, G>(ga, gr, a.out[p], src, a.weights, s.l1, a.added[p] + ka, a.removed[p] + kr);
        ka += ga, kr += gr;
        src = a.out[p];
      }
    }
  }
};

constexpr const char* fused_reason(int added, int removed) {
  return added == 1 && removed == 1   ? "needs exactly 1 added and 1 removed feature (the quiet-move form +1-1)"
         : added == 1 && removed == 2 ? "needs exactly 1 added and 2 removed features (the capture form +1-2)"
         : added == 2 && removed == 2 ? "needs exactly 2 added and 2 removed features (the castling form +2-2)"
                                      : "needs its exact feature counts";
}

// fused: the counts are compile-time constants, so each register of out is one expression
// prev + a0 (+ a1) - s0 (- s1) over registers loaded straight from the rows; there is no
// accumulator to tile (each register is finished before the next), and it works in place.
template <class V, int kAdded, int kRemoved>
struct UpdateFused {
  static const char* supports(const ft_update::Shape& s) {
    if (s.n_added != kAdded || s.n_removed != kRemoved) return fused_reason(kAdded, kRemoved);
    return width_check<V>(s.l1);
  }
  static void run(const ft_update::Shape& s, const ft_update::Args& a) {
    const int l1 = s.l1;
    for (int p = 0; p < s.perspectives; ++p) {
      const std::int16_t* add[kAdded];
      const std::int16_t* sub[kRemoved];
      for (int j = 0; j < kAdded; ++j) add[j] = row(a.weights, l1, a.added[p][j]);
      for (int j = 0; j < kRemoved; ++j) sub[j] = row(a.weights, l1, a.removed[p][j]);
      const std::int16_t* prev = a.prev[p];
      std::int16_t* out = a.out[p];
      for (int i = 0; i < l1; i += V::kLanes) {
        typename V::reg x = V::load(prev + i);
#pragma GCC unroll 4
        for (int j = 0; j < kAdded; ++j) x = V::add(x, V::load(add[j] + i));
#pragma GCC unroll 4
        for (int j = 0; j < kRemoved; ++j) x = V::sub(x, V::load(sub[j] + i));
        V::store(out + i, x);
      }
    }
  }
};

// ---- the rows-read floors (yardsticks, not variants; kernels/ft_refresh/floor.inc) -------

// What a refresh's rows cost to read with nothing else done, folded by wrapping int16 adds
// into kFloorLanes lanes held in kFloorLanes / kLanes independent registers (8 xmm, 4 ymm,
// 2 zmm: enough chains that the adds never wait on each other, so the loads set the pace).
// Per perspective p, whatever the order of the reads:
//   acc[p][i] = sum over active rows f, over k < l1 with k % kFloorLanes == i, of w[f][k]
// (mod 2^16) for i < kFloorLanes; the rest of acc[p] and the bias are not touched. The
// fold is there so the loads cannot be dropped and the result can be checked; it is the
// same on every ISA and in both orders:
// - rows_read (kSliced false): every active row read whole, front to back, in the call's
//   order: one sequential stream per row, the access the hardware prefetchers follow best
//   and the naive and grouped forms' order.
// - rows_read_sliced (kSliced true): the rows read kFloorSlice lanes at a time, that slice
//   of every active row before the next slice, as AVX2's `tiled` reads them (a 512-byte
//   slice of all 30 rows at a time), so the misses of many rows are in flight together.
// On the model 207 Xeon every register-tiled form ran within a few percent of the floor
// of its own order, cold rows or L2-hot (docs/findings/emerald-rapids.md, "The refresh
// against its rows read alone"); with cold rows the sliced order was 1.27x faster than front to back (more
// misses in flight), with L2-hot rows front to back was the faster by 7%.
using ::nnuelab::ft_refresh::kFloorLanes;
constexpr int kFloorSlice = 4 * kFloorLanes;  // 256 lanes: AVX2 tiled's slice of 16 ymm

template <class V, bool kSliced>
struct RefreshRowsRead {
  static_assert(kFloorLanes % V::kLanes == 0, "the fold is a whole number of registers");
  static constexpr int kRegs = kFloorLanes / V::kLanes;
  static const char* supports(const ft_refresh::Shape& s) {
    return s.l1 % kFloorLanes ? "needs l1 % 64 == 0 (each row is folded into 64 int16 lanes)" : nullptr;
  }
  // fold += lanes [from, to) of row r, kFloorLanes at a time.
  static void add_lanes(typename V::reg (&fold)[kRegs], const std::int16_t* r, int from, int to) {
#pragma GCC unroll 2  // two folds' worth of loads per loop step: the loop's own uops stay few
    for (int i = from; i < to; i += kFloorLanes) {
#pragma GCC unroll 8
      for (int j = 0; j < kRegs; ++j) fold[j] = V::add(fold[j], V::load(r + i + j * V::kLanes));
    }
  }
  static void run(const ft_refresh::Shape& s, const ft_refresh::Args& a) {
    alignas(64) static constexpr std::int16_t kZeros[kFloorLanes] = {};
    for (int p = 0; p < s.perspectives; ++p) {
      typename V::reg fold[kRegs];
      load_n<V, kRegs>(fold, kZeros);
      if constexpr (kSliced) {
        for (int from = 0; from < s.l1; from += kFloorSlice)
          for (int k = 0; k < s.active; ++k)
            add_lanes(fold, row(a.weights, s.l1, a.active[p][k]), from, std::min(s.l1, from + kFloorSlice));
      } else {
        for (int k = 0; k < s.active; ++k) add_lanes(fold, row(a.weights, s.l1, a.active[p][k]), 0, s.l1);
      }
      store_n<V, kRegs>(a.acc[p], fold);
    }
  }
};

}  // namespace nnuelab::NNUELAB_ISA_NS::ft

// An ISA file defines its registry functions from an implementation type.
#define NNUELAB_FT_REFRESH_DEFINE(tech, ...)                                                           \
  const char* tech##_supports(const ::nnuelab::ft_refresh::Shape& s) { return __VA_ARGS__::supports(s); } \
  void tech##_run(const ::nnuelab::ft_refresh::Shape& s, const ::nnuelab::ft_refresh::Args& a) { __VA_ARGS__::run(s, a); }
#define NNUELAB_FT_UPDATE_DEFINE(tech, ...)                                                           \
  const char* tech##_supports(const ::nnuelab::ft_update::Shape& s) { return __VA_ARGS__::supports(s); } \
  void tech##_run(const ::nnuelab::ft_update::Shape& s, const ::nnuelab::ft_update::Args& a) { __VA_ARGS__::run(s, a); }

// Every technique of one ISA with vector interface V and R tile registers.
#define NNUELAB_FT_REFRESH_TECHNIQUES(V, R)              \
  NNUELAB_FT_REFRESH_DEFINE(naive, ::nnuelab::NNUELAB_ISA_NS::ft::RefreshNaive<V>) \
  NNUELAB_FT_REFRESH_DEFINE(tiled, ::nnuelab::NNUELAB_ISA_NS::ft::RefreshTiled<V, R>)
// The rows-read floors of an ISA file listed in kernels/ft_refresh/floor.inc.
#define NNUELAB_FT_REFRESH_FLOOR_ONE(tech, V, kSliced)                                                 \
  const char* floor_##tech##_supports(const ::nnuelab::ft_refresh::Shape& s) {                        \
    return ::nnuelab::NNUELAB_ISA_NS::ft::RefreshRowsRead<V, kSliced>::supports(s);                   \
  }                                                                                                    \
  void floor_##tech##_run(const ::nnuelab::ft_refresh::Shape& s, const ::nnuelab::ft_refresh::Args& a) { \
    ::nnuelab::NNUELAB_ISA_NS::ft::RefreshRowsRead<V, kSliced>::run(s, a);                            \
  }
#define NNUELAB_FT_REFRESH_FLOOR_DEFINE(V)          \
  NNUELAB_FT_REFRESH_FLOOR_ONE(rows_read, V, false) \
  NNUELAB_FT_REFRESH_FLOOR_ONE(rows_read_sliced, V, true)
// The row-group form, for the ISA files that register it (not scalar; xsimd too).
#define NNUELAB_FT_REFRESH_GROUPED_TECHNIQUE(V) \
  NNUELAB_FT_REFRESH_DEFINE(grouped, ::nnuelab::NNUELAB_ISA_NS::ft::RefreshGrouped<V>)
// The prefetching tiled form, for the ISA files that register it (not scalar, not xsimd).
#define NNUELAB_FT_REFRESH_PREFETCH_TECHNIQUE(V, R) \
  NNUELAB_FT_REFRESH_DEFINE(tiled_prefetch,         \
                            ::nnuelab::NNUELAB_ISA_NS::ft::RefreshTiled<V, R, ::nnuelab::NNUELAB_ISA_NS::ft::kRefreshAhead>)
// The whole-row streaming tiled form (first pass prefetches whole rows into L2).
#define NNUELAB_FT_REFRESH_STREAM_TECHNIQUE(V, R)                                                         \
  NNUELAB_FT_REFRESH_DEFINE(tiled_stream, ::nnuelab::NNUELAB_ISA_NS::ft::RefreshTiled<                    \
                                              V, R, ::nnuelab::NNUELAB_ISA_NS::ft::kRefreshAhead, true>)
// The row-group update, for the ISA files that register it (not scalar; xsimd too).
#define NNUELAB_FT_UPDATE_GROUPED_TECHNIQUE(V) \
  NNUELAB_FT_UPDATE_DEFINE(grouped, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateGrouped<V>)
#define NNUELAB_FT_UPDATE_TECHNIQUES(V, R)                                                      \
  NNUELAB_FT_UPDATE_DEFINE(naive, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateNaive<V>)                \
  NNUELAB_FT_UPDATE_DEFINE(tiled, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateTiled<V, R>)             \
  NNUELAB_FT_UPDATE_DEFINE(fused_add1_sub1, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateFused<V, 1, 1>) \
  NNUELAB_FT_UPDATE_DEFINE(fused_add1_sub2, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateFused<V, 1, 2>) \
  NNUELAB_FT_UPDATE_DEFINE(fused_add2_sub2, ::nnuelab::NNUELAB_ISA_NS::ft::UpdateFused<V, 2, 2>)
