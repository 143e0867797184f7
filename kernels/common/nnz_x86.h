// Non-zero 4-byte chunk lists for the sparse affine techniques, on any x86 vector width V
// (V::nonzero_chunks gives one bit per chunk of a register: a signed compare, exact on
// the activation domain 0..127; the 256- and 512-bit table lists test equality with zero, exact
// on every byte value). Lists are ascending uint16 chunk indices; the caller's
// buffer needs 64 entries of slack (the table form stores 8 entries at a time).
#pragma once
#include "kernels/common/isa.h"
#include "kernels/common/nnz_tables.h"
#include "kernels/common/nnz_walk.h"

namespace nnuelab::NNUELAB_ISA_NS::nnz {

// Up to 64 chunks' bits in one word: chunks [first, first + 64) of a row of `chunks`.
// Always inlined: it sits in the hot loop of every bitset walk, and with enough callers
// in one ISA file GCC 12 stops inlining it (+11% instructions per affine call).
template <class V>
[[gnu::always_inline]] inline std::uint64_t chunk_mask64(const std::uint8_t* in, int first, int chunks) {
  constexpr int L = V::kBytes / 4;
  const int n = chunks - first < 64 ? chunks - first : 64;
  std::uint64_t m = 0;
  int done = 0;
  if constexpr (requires { V::nonzero_chunks32(in); }) {  // 32 chunks per movemask where possible
    for (; done + 32 <= n; done += 32) m |= std::uint64_t(V::nonzero_chunks32(in + (first + done) * 4)) << done;
  }
  for (; done + L <= n; done += L) m |= std::uint64_t(V::nonzero_chunks(in + (first + done) * 4)) << done;
  return m;
}

// One table row: the positions of b's set bits plus `base` (every u16 lane), all 8 slots
// stored at out; the caller advances by b's bit count.
inline void store_lut_row(std::uint16_t* out, unsigned b, __m128i base) {
  const __m128i pos = _mm_load_si128(reinterpret_cast<const __m128i*>(kNnzLut[b]));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_add_epi16(pos, base));
}

// Appends the set bits of the low `bytes` bytes of m, 8 at a time: the table's 8
// positions plus `first` (+8 per byte) as one 128-bit store, advanced by the table's count.
inline int emit_lut(std::uint64_t m, int bytes, int first, std::uint16_t* out) {
  const __m128i step = _mm_set1_epi16(8);
  __m128i base = _mm_set1_epi16(std::int16_t(first));
  int count = 0;
  for (int i = 0; i < bytes; ++i) {
    const unsigned b = unsigned(m >> (8 * i)) & 0xff;
    store_lut_row(out + count, b, base);
    count += kNnzCount[b];
    base = _mm_add_epi16(base, step);
  }
  return count;
}

// lsb: walk the mask's set bits with tzcnt + blsr (one branch per non-zero chunk; the
// branch predictor decides its speed on real data).
struct Lsb {
  // Chunks [first, first + 64) of a row of `chunks`; returns how many were listed.
  template <class V>
  static int block(const std::uint8_t* in, int first, int chunks, std::uint16_t* out) {
    return emit_lsb(chunk_mask64<V>(in, first, chunks), first, out);
  }
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    int count = 0;
    for (int first = 0; first < n / 4; first += 64) count += block<V>(in, first, n / 4, out + count);
    return count;
  }
};

// Byte form of the lsb walk: the ascending indices of the non-zero bytes of in[0..n),
// n a multiple of V::kBytes (64-bit masks are filled one register at a time).
template <class V>
inline int lsb_bytes(const std::uint8_t* in, int n, std::uint16_t* out) {
  constexpr int kPer = V::kBytes;  // mask bits per register
  int count = 0;
  for (int first = 0; first < n; first += 64) {
    std::uint64_t m = 0;
    for (int r = 0; r < 64 / kPer && first + r * kPer < n; ++r) m |= V::nonzero_bytes(in + first + r * kPer) << (r * kPer);
    count += emit_lsb(m, first, out + count);
  }
  return count;
}

// Calls emit(first_chunk, bits) for every 8 chunks of in[0 .. 4 * chunks) in order, bits
// taken from the register compares directly: two 4-chunk movemasks of 128-bit registers
// per byte, the last byte maybe 4 chunks. chunks is a multiple of 4. (Wider registers list
// through zero_rows256/512 below; the mutation run found this walk's 256/512-bit branch
// compiled but never run, and it is gone.)
template <class V, class Emit>
inline void for_each_mask_byte(const std::uint8_t* in, int chunks, Emit&& emit) {
  static_assert(V::kBytes == 16, "128-bit registers only");
  int c = 0;
  for (; c + 8 <= chunks; c += 8) emit(c, V::nonzero_chunks(in + 4 * c) | V::nonzero_chunks(in + 4 * c + 16) << 4);
  if (c < chunks) emit(c, V::nonzero_chunks(in + 4 * c));
}

inline int count8(unsigned b) {
#ifdef __POPCNT__
  return __builtin_popcount(b);
#else
  return kNnzCount[b];
#endif
}

// lut: 8 mask bits at a time, store the table's 8 positions plus the running base as
// one 128-bit store and advance by the bit count (branch-free: no mispredictions).
struct Lut {
  // Appends table rows, 8 chunks each, from chunk 0 on: the positions of b's set bits plus
  // the running base, one 128-bit store, then the output pointer advances by b's bit count
  // (a pointer, not an int count: an int count cost a sign extension per row).
  struct Rows {
    explicit Rows(std::uint16_t* out) : o(out) {}
    void push(unsigned b) {
      store_lut_row(o, b, base);
      o += count8(b);
      base = _mm_add_epi16(base, _mm_set1_epi16(8));
    }
    int count(const std::uint16_t* out) const { return int(o - out); }
    std::uint16_t* o;
    __m128i base = _mm_setzero_si128();
  };

  // Chunks [first, first + 64) of a row of `chunks`; returns how many were listed.
  template <class V>
  static int block(const std::uint8_t* in, int first, int chunks, std::uint16_t* out) {
    const int bytes = (chunks - first < 64 ? chunks - first + 7 : 64) / 8;
    return emit_lut(chunk_mask64<V>(in, first, chunks), bytes, first, out);
  }
  // The whole row, each table row straight from its 8 compare bits: no 64-bit words in
  // between. On the 2026-11-24 Xeon VM this listed 1536 bytes in about 155 core cycles
  // against 235 for words built through packs and cut into bytes (emit_lut), though it
  // runs a few more instructions.
  // The output is a pointer advanced by each row's count (Rows): an int count cost a sign
  // extension per row (1-4% faster on most AVX2 target shapes, A/B 2026-11-25). Four
  // registers per step, as find_nnz's AVX2 tables take them (12-30% faster there), made
  // this list no faster at 1024x32 and the real-trace calls 5-11% slower. 256- and 512-bit
  // registers take zero_rows below instead (fewer uops per row, not more rows per step).
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    if constexpr (V::kBytes == 16) {
      Rows rows(out);
      for_each_mask_byte<V>(in, n / 4, [&](int, unsigned b) { rows.push(b); });
      return rows.count(out);
#if defined(__AVX2__) || NNUELAB_EMULATED
    } else if constexpr (V::kBytes == 32) {
      return zero_rows256(in, n / 4, out);
#endif
#if defined(__AVX512F__) || NNUELAB_EMULATED
    } else if constexpr (V::kBytes == 64) {
      return zero_rows512(in, n / 4, out);
#endif
    }
  }

#if defined(__AVX2__) || NNUELAB_EMULATED
  // One row of a byte table (kernels/common/nnz_tables.h): b's 8 positions widened, plus
  // base, stored; returns the output advanced by b's count.
  [[gnu::always_inline]] static std::uint16_t* byte_row(std::uint16_t* o, const ByteLut8& t, unsigned b, __m128i base) {
    const __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(t.row[b])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm_add_epi16(pos, base));
    return o + t.count[b];
  }
  // R rows of a byte table at once: row r (byte b[r]) gets base + 8r in every lane and is
  // stored at o plus the counts of the rows before it; returns o advanced by all R counts.
  // The offsets are sums of the group's own counts, so the loop carries one add per group
  // of rows: advancing the pointer row by row (byte_row) made each store address wait for
  // the previous row's, a chain of one scaled add per 8 chunks through the whole list.
  // Stores stay in ascending order: a row's 8-slot store may run past its own entries,
  // and the next row's store overwrites them.
  template <int R>
  [[gnu::always_inline]] static std::uint16_t* byte_rows(std::uint16_t* o, const ByteLut8& t, const unsigned (&b)[R], __m128i base) {
    unsigned at[R + 1];
    at[0] = 0;
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) at[r + 1] = at[r] + t.count[b[r]];
    NNUELAB_UNROLL
    for (int r = 0; r < R; ++r) {
      const __m128i pos = _mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(t.row[b[r]])));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + at[r]), _mm_add_epi16(pos, _mm_add_epi16(base, _mm_set1_epi16(std::int16_t(8 * r)))));
    }
    return o + at[R];
  }
  // The zero-mask list, registers of kChunks chunks (8: 256-bit, 16: 512-bit), fewer uops
  // per 8 chunks than Rows: zero_mask(p) is an equality compare with zero, which takes its
  // load as an operand (cmpgt cannot: its register operand must be the input), and its
  // mask (bit set for a zero chunk) indexes kZeroLut8 directly, 8 bits per row: a byte row
  // widened by pmovzxbw (scale-8 address, no shift), the count from a byte table (no
  // popcnt, no register copy). The input walks as a pointer of its own (in_register,
  // isa.h), four registers per iteration, whose rows are stored as one group (byte_rows).
  // Against the pointer advanced row by row, both in one process (20 interleaved
  // repetitions, fastest, Zen 3 VM, 2026-11-27): find_nnz lut8_zero 1024, 1536 and 3072
  // chunks at 0.5% and 15% density -3.5 to -13.8%; affine sparse_blocked4_lut_acc1 and
  // lut_x2 at 1024x32, 1536x16 and 3072x16, chunk 0.5% and 15%, -8.3 to +1.8% (10 of 12
  // faster; two runs of 8 and 15 repetitions leaned the same way). The bitset's list
  // (set_rows_bytes) grouped by 8 rows the same way measured -0.9 to +7.3%: it keeps
  // byte_row. An equality test is exact for every byte value (the signed test missed
  // chunks whose byte 3 is >= 128, outside the activation domain).
  // chunks: a multiple of kChunks (supports: in % V::kBytes == 0).
  template <int kChunks, class ZeroMask>
  [[gnu::always_inline]] static int zero_rows(const std::uint8_t* in, int chunks, std::uint16_t* out, ZeroMask zero_mask) {
    constexpr int kStep = 4 * kChunks;  // chunks per iteration
    constexpr int kRegRows = kChunks / 8;  // table rows per register
    std::uint16_t* o = out;
    __m128i base = _mm_setzero_si128();
    // The mask bytes (table rows) of the register at p, into b[0..kRegRows).
    const auto rows_of = [&](const std::uint8_t* p, unsigned* b) {
      const unsigned z = zero_mask(p);
      if (z >> kChunks) __builtin_unreachable();  // kChunks mask bits: the last byte needs no masking
      NNUELAB_UNROLL
      for (int h = 0; h < kRegRows; ++h) b[h] = h + 1 == kRegRows ? z >> (8 * h) : (z >> (8 * h)) & 0xFF;
    };
    const std::uint8_t* p = in;
    for (int groups = int(unsigned(chunks) / kStep); groups > 0; --groups, p += 4 * kStep) {
      p = in_register(p);
      unsigned b[4 * kRegRows];  // the iteration's rows, stored as one group (byte_rows)
      NNUELAB_UNROLL
      for (int k = 0; k < 4; ++k) rows_of(p + 4 * kChunks * k, b + kRegRows * k);
      o = byte_rows(o, kZeroLut8, b, base);
      base = _mm_add_epi16(base, _mm_set1_epi16(kStep));
    }
    for (int left = int(unsigned(chunks) % kStep) / kChunks; left > 0; --left, p += 4 * kChunks) {
      unsigned b[kRegRows];
      rows_of(p, b);
      o = byte_rows(o, kZeroLut8, b, base);
      base = _mm_add_epi16(base, _mm_set1_epi16(kChunks));
    }
    return int(o - out);
  }
  // The 256-bit list (AVX2, AVX-VNNI): vpcmpeqd + vmovmskps, one row per register.
  // Throwaway rdtsc probe on the Cascade Lake VM (15% of the chunks non-zero, pinned): 1024
  // inputs 186 -> 147 TSC ticks per list against Rows, 1536 inputs 281 -> 215. In the lab,
  // both lists side by side in one process (sparse_blocked4_lut_acc1 at 1024x32, 1536x16
  // and 3072x16 at 15% and on the real traces, 8 interleaved repetitions on a busy host,
  // fastest repetition): -2.0 to -7.0% per call.
  static int zero_rows256(const std::uint8_t* in, int chunks, std::uint16_t* out) {
    return zero_rows<8>(in, chunks, out, [](const std::uint8_t* p) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      return unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256()))));
    });
  }
#if defined(__AVX512F__) || NNUELAB_EMULATED
  // The 512-bit list (AVX-512): vpcmpeqd into a 16-bit mask register, two rows per register.
  // Against Rows, both in one process (avx512bw sparse_blocked4_lut_acc1/acc2 at 1024x32,
  // 1536x16, 3072x16 at 15%, real 1536x16 and 3072x32; Cascade Lake VM, 8 interleaved
  // repetitions, fastest): -1.4 to -7.0% per call.
  static int zero_rows512(const std::uint8_t* in, int chunks, std::uint16_t* out) {
    return zero_rows<16>(in, chunks, out, [](const std::uint8_t* p) {
      return unsigned(_mm512_cmpeq_epi32_mask(_mm512_loadu_si512(p), _mm512_setzero_si512()));
    });
  }
#endif
  // The byte form of zero_rows256: a vpcmpeqb with zero per 32 bytes, its 32-bit zero
  // mask cut into four kZeroLut8 rows. n: a multiple of 32.
  static int zero_bytes256(const std::uint8_t* in, int n, std::uint16_t* out) {
    std::uint16_t* o = out;
    __m128i base = _mm_setzero_si128();
    for (const std::uint8_t* p = in; p != in + n; p += 32) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      const unsigned z = unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())));
      NNUELAB_UNROLL
      for (int k = 0; k < 4; ++k) {
        o = byte_row(o, kZeroLut8, (z >> (8 * k)) & 0xFF, base);
        base = _mm_add_epi16(base, _mm_set1_epi16(8));
      }
    }
    return int(o - out);
  }
  // From a producer's bitset, read as bytes (x86 is little-endian: byte i of a word holds
  // its bits 8i..8i+7): one byte load per row, its kSetLut8 row and count, where the word
  // form shifts and masks each byte out of a register and copies it for popcnt. Both
  // forms side by side in one process (sparse_blocked4_lut_acc1_from_bits, the shapes
  // above, fastest of 8 interleaved repetitions, Cascade Lake VM): -0.6 to -6.9% per call.
  static int set_rows_bytes(const std::uint64_t* words, int chunks, std::uint16_t* out) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words);
    std::uint16_t* o = out;
    __m128i base = _mm_setzero_si128();
    const std::uint8_t* p = bytes;
    for (int groups = int(unsigned(chunks) / 64); groups > 0; --groups, p += 8) {
      p = in_register(p);
      NNUELAB_UNROLL
      for (int k = 0; k < 8; ++k) o = byte_row(o, kSetLut8, p[k], _mm_add_epi16(base, _mm_set1_epi16(std::int16_t(8 * k))));
      base = _mm_add_epi16(base, _mm_set1_epi16(64));
    }
    const int left = int(unsigned(chunks) % 64);
    for (int k = 0; k < left / 8; ++k, ++p) {
      o = byte_row(o, kSetLut8, *p, base);
      base = _mm_add_epi16(base, _mm_set1_epi16(8));
    }
    if (left % 8) o = byte_row(o, kSetLut8, *p & ((1u << (left % 8)) - 1), base);  // bits past `chunks` ignored
    return int(o - out);
  }
#endif
  // The same list from a producer's bitset (bit c of word c / 64 set when chunk c is
  // non-zero; bits from `chunks` on are ignored): the same table rows, 8 bits at a time,
  // with no input scan (about 2.1 core cycles per 8 chunks on the 2026-11-24 Xeon VM,
  // against 2.7-3.1 from the input).
  // The same Rows writer as chunks(); AVX2 and AVX-512 builds read the bitset's bytes
  // instead (set_rows_bytes above).
  static int from_bits(const std::uint64_t* words, int chunks, std::uint16_t* out) {
#if defined(__AVX2__) || NNUELAB_EMULATED
    return set_rows_bytes(words, chunks, out);
#else
    Rows rows(out);
    const auto row = [&](unsigned b) { rows.push(b); };
    int first = 0;
    // Whole words with a constant byte count, so that GCC unrolls the 8 table steps (with
    // a run-time count it kept the loop: slower than scanning the input).
    for (; first + 64 <= chunks; first += 64) {
      const std::uint64_t m = words[first / 64];
#pragma GCC unroll 8
      for (int i = 0; i < 8; ++i) row(unsigned(m >> (8 * i)) & 0xffu);
    }
    if (const int left = chunks - first; left > 0) {
      const std::uint64_t m = words[first / 64] & ((std::uint64_t(1) << left) - 1);
      for (int i = 0; i < (left + 7) / 8; ++i) row(unsigned(m >> (8 * i)) & 0xffu);
    }
    return rows.count(out);
#endif
  }
};

// Byte form of the table walk: for each 8 mask bits, the table's 8 positions plus the
// running base in one 128-bit store, advance by the count; n a multiple of V::kBytes.
// 256-bit registers take the zero-mask byte table (Lut::zero_bytes256).
template <class V>
inline int lut_bytes(const std::uint8_t* in, int n, std::uint16_t* out) {
#if defined(__AVX2__) || NNUELAB_EMULATED
  if constexpr (V::kBytes == 32) return Lut::zero_bytes256(in, n, out);
#endif
  int count = 0;
  for (int first = 0; first < n; first += V::kBytes)
    count += emit_lut(V::nonzero_bytes(in + first), V::kBytes / 8, first, out + count);
  return count;
}

#if defined(__AVX512F__) || NNUELAB_EMULATED
// compress (AVX-512F): per 16 chunks, vpcompressd packs the indices of the non-zero ones
// to the bottom of a register, vpmovdw narrows them to u16, one 256-bit store. Merge
// masking (lanes past the count keep `ids`, never read): the zero-masking form carries a
// false dependency on its destination on AMD Zen 4/5 and runs 2-4x slower.
struct Compress32 {
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    const int chunks = n / 4;
    __m512i ids = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i step = _mm512_set1_epi32(16);
    int count = 0;
    for (int c = 0; c < chunks; c += 16) {
      const __mmask16 m = _mm512_cmpgt_epi32_mask(_mm512_loadu_si512(in + 4 * c), _mm512_setzero_si512());
      const __m256i packed = _mm512_cvtepi32_epi16(_mm512_mask_compress_epi32(ids, m, ids));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + count), packed);
      count += __builtin_popcount(m);
      ids = _mm512_add_epi32(ids, step);
    }
    return count;
  }
};
#endif

#if defined(__AVX512VBMI2__) || NNUELAB_EMULATED
// compress16 (VBMI2): 32 chunks at a time straight into u16 with vpcompressw (merge
// masking, as above).
struct Compress16 {
  template <class V>
  static int chunks(const std::uint8_t* in, int n, std::uint16_t* out) {
    const int chunks = n / 4;
    __m512i ids = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9,
                                   8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i step = _mm512_set1_epi16(32);
    int count = 0;
    for (int c = 0; c < chunks; c += 32) {
      const __mmask16 lo = _mm512_cmpgt_epi32_mask(_mm512_loadu_si512(in + 4 * c), _mm512_setzero_si512());
      const __mmask16 hi = c + 16 < chunks ? _mm512_cmpgt_epi32_mask(_mm512_loadu_si512(in + 4 * c + 64), _mm512_setzero_si512())
                                           : __mmask16(0);
      const __mmask32 m = __mmask32(lo) | (__mmask32(hi) << 16);
      _mm512_storeu_si512(out + count, _mm512_mask_compress_epi16(ids, m, ids));
      count += __builtin_popcount(m);
      ids = _mm512_add_epi16(ids, step);
    }
    return count;
  }
};
#endif

}  // namespace nnuelab::NNUELAB_ISA_NS::nnz
