// Gaps of SIMDe 0.7.4 (Debian 12), filled for the -emu builds only (isa.h includes this
// after SIMDe's headers when NNUELAB_EMULATED). Everything here is static inline or a
// macro: nothing is exported, so the ISA-namespace rule is kept.
#pragma once

// Mask types: SIMDe names them simde__mmaskN but gives them no native alias.
typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;
typedef simde__mmask32 __mmask32;
typedef simde__mmask64 __mmask64;

// SIMDe's native alias of _mm512_madd_epi16 is a broken 4-argument macro.
#undef _mm512_madd_epi16
#define _mm512_madd_epi16(a, b) simde_mm512_madd_epi16(a, b)

// AVX-VNNI's VEX forms (_avx_ suffix) compute exactly what the AVX512-VL forms compute;
// SIMDe only has the latter.
#define _mm256_dpbusd_avx_epi32(src, a, b) simde_mm256_dpbusd_epi32(src, a, b)
#define _mm256_dpbusds_avx_epi32(src, a, b) simde_mm256_dpbusds_epi32(src, a, b)
#define _mm_dpbusd_avx_epi32(src, a, b) simde_mm_dpbusd_epi32(src, a, b)
#define _mm_dpbusds_avx_epi32(src, a, b) simde_mm_dpbusds_epi32(src, a, b)

// Missing: the sum of the 16 int32 lanes (wraps like the real sequence of adds).
static inline int nnuelab_shim_mm512_reduce_add_epi32(simde__m512i a) {
  int32_t lanes[16];
  simde_mm512_storeu_si512(lanes, a);
  uint32_t sum = 0;
  for (int i = 0; i < 16; ++i) sum += uint32_t(lanes[i]);
  return int(int32_t(sum));
}
#define _mm512_reduce_add_epi32(a) nnuelab_shim_mm512_reduce_add_epi32(a)

// Missing (VBMI2): packs the int16 lanes selected by k to the bottom, zeroes the rest.
static inline simde__m512i nnuelab_shim_mm512_maskz_compress_epi16(simde__mmask32 k, simde__m512i a) {
  int16_t in[32], out[32] = {};
  simde_mm512_storeu_si512(in, a);
  int n = 0;
  for (int i = 0; i < 32; ++i)
    if (k >> i & 1) out[n++] = in[i];
  return simde_mm512_loadu_si512(out);
}
#define _mm512_maskz_compress_epi16(k, a) nnuelab_shim_mm512_maskz_compress_epi16(k, a)

// Missing (VBMI2): stores the int16 lanes selected by k contiguously at p.
static inline void nnuelab_shim_mm512_mask_compressstoreu_epi16(void* p, simde__mmask32 k, simde__m512i a) {
  int16_t in[32];
  simde_mm512_storeu_si512(in, a);
  int16_t* out = static_cast<int16_t*>(p);
  for (int i = 0; i < 32; ++i)
    if (k >> i & 1) *out++ = in[i];
}
#define _mm512_mask_compressstoreu_epi16(p, k, a) nnuelab_shim_mm512_mask_compressstoreu_epi16(p, k, a)

// Missing: signed int16 greater-than into a mask (the complement of cmple).
#define _mm512_cmpgt_epi16_mask(a, b) ((simde__mmask32) ~simde_mm512_cmple_epi16_mask(a, b))

// Ops issue 3/4 kernels need may be missing too: add them here, each with its reason.

// Missing (AVX512F, find_nnz compressd): vpmovdw, int32 lanes truncated to int16 (no saturation).
static inline simde__m256i nnuelab_shim_mm512_cvtepi32_epi16(simde__m512i a) {
  int32_t in[16];
  int16_t out[16];
  simde_mm512_storeu_si512(in, a);
  for (int i = 0; i < 16; ++i) out[i] = int16_t(uint16_t(uint32_t(in[i])));
  return simde_mm256_loadu_si256(out);
}
#define _mm512_cvtepi32_epi16(a) nnuelab_shim_mm512_cvtepi32_epi16(a)

// Wrap-arounds that SIMDe makes UB (dot_u8i8 wraps int16 and int32 lanes on purpose, the
// feature transformer's paddw/psubw wrap by contract): its add/sub_epi16/epi32 (256, 512)
// and its vpdpbusd accumulate (128..512, the _avx_ forms
// too) use signed lane arithmetic, which the asan-ubsan preset aborts on. The same
// operations on unsigned lanes, which wrap as the instructions do:
#define NNUELAB_SHIM_WRAPPING_DPBUSD(prefix, vec)                                                      \
  static inline simde__##vec nnuelab_shim##prefix##_dpbusd_epi32(simde__##vec src, simde__##vec a,     \
                                                                 simde__##vec b) {                      \
    simde__##vec##_private r = simde__##vec##_to_private(src), u = simde__##vec##_to_private(a),       \
                           w = simde__##vec##_to_private(b);                                            \
    for (size_t i = 0; i < sizeof(r.u32) / sizeof(r.u32[0]); ++i) {                                   \
      int32_t sum = 0; /* at most 4 * 255 * 128 in magnitude: exact */                                \
      for (size_t j = 0; j < 4; ++j) sum += (int32_t)u.u8[4 * i + j] * (int32_t)w.i8[4 * i + j];      \
      r.u32[i] += (uint32_t)sum;                                                                        \
    }                                                                                                   \
    return simde__##vec##_from_private(r);                                                             \
  }
#define NNUELAB_SHIM_WRAPPING_ADDS(prefix, vec)                                                        \
  static inline simde__##vec nnuelab_shim##prefix##_add_epi16(simde__##vec a, simde__##vec b) {        \
    simde__##vec##_private x = simde__##vec##_to_private(a), y = simde__##vec##_to_private(b);         \
    for (size_t i = 0; i < sizeof(x.u16) / sizeof(x.u16[0]); ++i) x.u16[i] = (uint16_t)(x.u16[i] + y.u16[i]); \
    return simde__##vec##_from_private(x);                                                             \
  }                                                                                                     \
  static inline simde__##vec nnuelab_shim##prefix##_add_epi32(simde__##vec a, simde__##vec b) {        \
    simde__##vec##_private x = simde__##vec##_to_private(a), y = simde__##vec##_to_private(b);         \
    for (size_t i = 0; i < sizeof(x.u32) / sizeof(x.u32[0]); ++i) x.u32[i] += y.u32[i];               \
    return simde__##vec##_from_private(x);                                                             \
  }                                                                                                     \
  static inline simde__##vec nnuelab_shim##prefix##_sub_epi16(simde__##vec a, simde__##vec b) {        \
    simde__##vec##_private x = simde__##vec##_to_private(a), y = simde__##vec##_to_private(b);         \
    for (size_t i = 0; i < sizeof(x.u16) / sizeof(x.u16[0]); ++i) x.u16[i] = (uint16_t)(x.u16[i] - y.u16[i]); \
    return simde__##vec##_from_private(x);                                                             \
  }                                                                                                     \
  static inline simde__##vec nnuelab_shim##prefix##_sub_epi32(simde__##vec a, simde__##vec b) {        \
    simde__##vec##_private x = simde__##vec##_to_private(a), y = simde__##vec##_to_private(b);         \
    for (size_t i = 0; i < sizeof(x.u32) / sizeof(x.u32[0]); ++i) x.u32[i] -= y.u32[i];               \
    return simde__##vec##_from_private(x);                                                             \
  }
NNUELAB_SHIM_WRAPPING_ADDS(_mm512, m512i)
NNUELAB_SHIM_WRAPPING_ADDS(_mm256, m256i)
NNUELAB_SHIM_WRAPPING_DPBUSD(_mm512, m512i)
NNUELAB_SHIM_WRAPPING_DPBUSD(_mm256, m256i)
NNUELAB_SHIM_WRAPPING_DPBUSD(_mm, m128i)
#undef _mm512_add_epi16
#define _mm512_add_epi16(a, b) nnuelab_shim_mm512_add_epi16(a, b)
#undef _mm256_add_epi16
#define _mm256_add_epi16(a, b) nnuelab_shim_mm256_add_epi16(a, b)
#undef _mm512_add_epi32
#define _mm512_add_epi32(a, b) nnuelab_shim_mm512_add_epi32(a, b)
#undef _mm256_add_epi32
#define _mm256_add_epi32(a, b) nnuelab_shim_mm256_add_epi32(a, b)
#undef _mm512_sub_epi16
#define _mm512_sub_epi16(a, b) nnuelab_shim_mm512_sub_epi16(a, b)
#undef _mm256_sub_epi16
#define _mm256_sub_epi16(a, b) nnuelab_shim_mm256_sub_epi16(a, b)
#undef _mm512_sub_epi32
#define _mm512_sub_epi32(a, b) nnuelab_shim_mm512_sub_epi32(a, b)
#undef _mm256_sub_epi32
#define _mm256_sub_epi32(a, b) nnuelab_shim_mm256_sub_epi32(a, b)
#undef _mm512_dpbusd_epi32
#define _mm512_dpbusd_epi32(src, a, b) nnuelab_shim_mm512_dpbusd_epi32(src, a, b)
#undef _mm256_dpbusd_epi32
#define _mm256_dpbusd_epi32(src, a, b) nnuelab_shim_mm256_dpbusd_epi32(src, a, b)
#undef _mm_dpbusd_epi32
#define _mm_dpbusd_epi32(src, a, b) nnuelab_shim_mm_dpbusd_epi32(src, a, b)
#undef _mm256_dpbusd_avx_epi32
#define _mm256_dpbusd_avx_epi32(src, a, b) nnuelab_shim_mm256_dpbusd_epi32(src, a, b)
#undef _mm_dpbusd_avx_epi32
#define _mm_dpbusd_avx_epi32(src, a, b) nnuelab_shim_mm_dpbusd_epi32(src, a, b)

// Missing (VBMI2, find_nnz compressw): the merge-masked compress; lanes past the selected
// ones keep src (the merge form avoids the zero-masked form's false output dependency).
static inline simde__m512i nnuelab_shim_mm512_mask_compress_epi16(simde__m512i src, simde__mmask32 k, simde__m512i a) {
  int16_t in[32], out[32];
  simde_mm512_storeu_si512(in, a);
  simde_mm512_storeu_si512(out, src);
  int n = 0;
  for (int i = 0; i < 32; ++i)
    if (k >> i & 1) out[n++] = in[i];
  return simde_mm512_loadu_si512(out);
}
#define _mm512_mask_compress_epi16(src, k, a) nnuelab_shim_mm512_mask_compress_epi16(src, k, a)

// ---- NEON (the neon-dotprod-emu / neon-i8mm-emu builds) ----------------------------------
// Missing (FEAT_I8MM): vusdotq_s32, acc[i] += sum_j u[4i+j] * w[4i+j] with u uint8, w int8,
// the add wrapping mod 2^32 as the instruction does (unsigned lanes: no signed-overflow UB).
static inline simde_int32x4_t nnuelab_shim_vusdotq_s32(simde_int32x4_t r, simde_uint8x16_t a, simde_int8x16_t b) {
  simde_int32x4_private r_ = simde_int32x4_to_private(r);
  simde_uint8x16_private a_ = simde_uint8x16_to_private(a);
  simde_int8x16_private b_ = simde_int8x16_to_private(b);
  for (int i = 0; i < 4; ++i) {
    int32_t sum = 0; /* at most 4 * 255 * 128 in magnitude: exact */
    for (int j = 0; j < 4; ++j) sum += (int32_t)a_.values[4 * i + j] * (int32_t)b_.values[4 * i + j];
    r_.values[i] = (int32_t)((uint32_t)r_.values[i] + (uint32_t)sum);
  }
  return simde_int32x4_from_private(r_);
}
#define vusdotq_s32(r, a, b) nnuelab_shim_vusdotq_s32(r, a, b)
// SIMDe's vdotq_s32 adds the lane sums with a signed vector add; the same wrapping
// form as above on int8 x int8 (dot_u8i8 wraps int32 lanes on purpose).
static inline simde_int32x4_t nnuelab_shim_vdotq_s32(simde_int32x4_t r, simde_int8x16_t a, simde_int8x16_t b) {
  simde_int32x4_private r_ = simde_int32x4_to_private(r);
  simde_int8x16_private a_ = simde_int8x16_to_private(a), b_ = simde_int8x16_to_private(b);
  for (int i = 0; i < 4; ++i) {
    int32_t sum = 0; /* at most 4 * 128 * 128: exact */
    for (int j = 0; j < 4; ++j) sum += (int32_t)a_.values[4 * i + j] * (int32_t)b_.values[4 * i + j];
    r_.values[i] = (int32_t)((uint32_t)r_.values[i] + (uint32_t)sum);
  }
  return simde_int32x4_from_private(r_);
}
#undef vdotq_s32
#define vdotq_s32(r, a, b) nnuelab_shim_vdotq_s32(r, a, b)
