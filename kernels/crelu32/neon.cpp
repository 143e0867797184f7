// crelu32 with NEON (native aarch64, and as neon-emu against SIMDe).
#include <array>
#include <utility>

#include "kernels/common/isa.h"
#include "kernels/common/neon.h"
#include "kernels/crelu32/techniques.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32 {

// The x86 production form on act::N128 (sqxtn to int16, sshl right, sqxtn to int8, smax
// 0): int16 saturation precedes the shift, so shift <= 8 as on x86 (packs_domain).
NNUELAB_CRELU32_DEFINE(qmovn_shift_max, act::N128, PacksMax, packs_domain, false)

// NEON can shift before it narrows at no extra narrowing cost. Two forms, both exact for
// every int32 input because the shift comes first and every later saturation is monotone
// and keeps 0 and 127 (so clamp(sat(y), 0, 127) = clamp(y, 0, 127)):
//   sshl_qmovn_min    sshl int32 by -shift (a register count), sqxtn to int16, sqxtun to
//                     0..255, umin 127: every shift 0..31.
//   qshrn_qmovun_min  sqshrn #shift does shift + saturate + narrow in one instruction, but
//                     its shift is an immediate 1..16: one instantiation per shift picked
//                     from a table (shift 0: a plain sqxtn), so shift 0..16.
const char* sshl_qmovn_min_supports(const Shape& s) { return whole_vectors<act::N128>(s); }
void sshl_qmovn_min_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const int32x4_t right = vdupq_n_s32(-s.shift);
  const uint8x16_t k127 = vdupq_n_u8(127);
  neon::store_vectors<false>(s.n / 16, out, bits, [&](int k) {
    const std::int32_t* p = in + 16 * k;
    const int16x8_t lo = neon::qmovn2(vshlq_s32(vld1q_s32(p), right), vshlq_s32(vld1q_s32(p + 4), right));
    const int16x8_t hi = neon::qmovn2(vshlq_s32(vld1q_s32(p + 8), right), vshlq_s32(vld1q_s32(p + 12), right));
    return vminq_u8(neon::qmovun2(lo, hi), k127);
  });
}
NNUELAB_CRELU32_RUN_MANY(sshl_qmovn_min)

template <int S>
inline int16x4_t qshrn(int32x4_t x) {
  if constexpr (S == 0) return vqmovn_s32(x);
  else return vqshrn_n_s32(x, S);
}

template <int S, bool kBits>
void qshrn_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
  const uint8x16_t k127 = vdupq_n_u8(127);
  neon::store_vectors<kBits>(s.n / 16, out, bits, [&](int k) {
    const std::int32_t* p = in + 16 * k;
    const int16x8_t lo = vcombine_s16(qshrn<S>(vld1q_s32(p)), qshrn<S>(vld1q_s32(p + 4)));
    const int16x8_t hi = vcombine_s16(qshrn<S>(vld1q_s32(p + 8)), qshrn<S>(vld1q_s32(p + 12)));
    return vminq_u8(neon::qmovun2(lo, hi), k127);
  });
}

// The inlined form of one immediate shift: the table below picks it once for all calls.
template <int S, bool kBits>
void qshrn_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits, int count) {
  run_calls<&qshrn_run<S, kBits>>(s, in, out, bits, count, std::size_t(s.n), std::size_t(s.n), bitset_words_of(s.n));
}

using Run = void (*)(const Shape&, const std::int32_t*, std::uint8_t*, std::uint64_t*);
using RunMany = void (*)(const Shape&, const std::int32_t*, std::uint8_t*, std::uint64_t*, int);
template <bool kBits, int... S>
constexpr std::array<Run, sizeof...(S)> qshrn_table(std::integer_sequence<int, S...>) {
  return {&qshrn_run<S, kBits>...};
}
template <bool kBits, int... S>
constexpr std::array<RunMany, sizeof...(S)> qshrn_many_table(std::integer_sequence<int, S...>) {
  return {&qshrn_run_many<S, kBits>...};
}
constexpr auto kQshrn = qshrn_table<false>(std::make_integer_sequence<int, 17>());
constexpr auto kQshrnBits = qshrn_table<true>(std::make_integer_sequence<int, 17>());
constexpr auto kQshrnMany = qshrn_many_table<false>(std::make_integer_sequence<int, 17>());
constexpr auto kQshrnBitsMany = qshrn_many_table<true>(std::make_integer_sequence<int, 17>());

static const char* qshrn_domain(const Shape& s) {
  if (const char* r = whole_vectors<act::N128>(s)) return r;
  return s.shift > 16 ? "needs shift <= 16 (sqshrn takes an immediate shift 1..16)" : nullptr;
}
const char* qshrn_qmovun_min_supports(const Shape& s) { return qshrn_domain(s); }
void qshrn_qmovun_min_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  kQshrn[s.shift](s, in, out, b);
}
void qshrn_qmovun_min_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b, int count) {
  kQshrnMany[s.shift](s, in, out, b, count);
}
const char* qshrn_qmovun_min_bits_supports(const Shape& s) { return qshrn_domain(s); }
void qshrn_qmovun_min_bits_run(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b) {
  kQshrnBits[s.shift](s, in, out, b);
}
void qshrn_qmovun_min_bits_run_many(const Shape& s, const std::int32_t* in, std::uint8_t* out, std::uint64_t* b, int count) {
  kQshrnBitsMany[s.shift](s, in, out, b, count);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32
