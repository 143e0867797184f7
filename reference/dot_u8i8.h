// dot_u8i8: the 4-byte group dot product under every int8 affine layer.
//
// Layout: u uint8[4 * groups] (activations), w int8[4 * groups] (weights),
// acc int32[groups]. Group g is u[4g..4g+3] . w[4g..4g+3] and accumulates into
// acc[g], which is one int32 lane of a vector kernel. groups >= 0.
// Products u * w lie in -32640..32385 and are always exact; the forms differ
// only in where they saturate or wrap.
//
// Where the forms agree (inputs with every u in the stated range, any w in
// -128..127, and no int32 overflow of acc):
//   dpbusd == dpbusds      unless acc + group sum leaves int32.
//   dpbusd == maddubs      for u in 0..128: a pair sum u0*w0 + u1*w1 then lies in
//                          -32768..32512 and pmaddubsw never saturates. NNUE
//                          activations are 0..127, inside this domain. u = 129
//                          with w = -128 on both bytes already saturates.
//   dpbusd == maddubs_x2   for u in 0..64 only: the int16 sum of two pair sums
//                          holds 4 products, -4*64*128 = -32768 and 4*64*127 =
//                          32512 just fit; at u = 65 (e.g. all w = 127,
//                          4*65*127 = 33020) the int16 add wraps.
//   dpbusd == sdot         for u in 0..127: sdot reads u as int8 (NEON vdotq_s32 and
//                          the vmull_s8 form are int8 x int8), so u = 128 becomes -128.
//
// Errors (std::invalid_argument): groups < 0, null pointer with groups > 0.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

// vpdpbusd: acc[g] = wrap32(acc[g] + sum_{j<4} u[4g+j] * w[4g+j]). The group sum
// is exact (|sum| <= 130560); only the final add wraps mod 2^32.
void dot_u8i8_dpbusd(int32_t* acc, const uint8_t* u, const int8_t* w, int groups);

// vpdpbusds: as dpbusd, but the final add saturates to -2^31..2^31-1.
void dot_u8i8_dpbusds(int32_t* acc, const uint8_t* u, const int8_t* w, int groups);

// pmaddubsw + pmaddwd(ones) + paddd, the pre-VNNI fallback:
//   p0 = sat16(u0*w0 + u1*w1), p1 = sat16(u2*w2 + u3*w3)     (pmaddubsw)
//   acc[g] = wrap32(acc[g] + p0 + p1)       (madd with ones is exact, paddd wraps)
// with uj = u[4g+j], wj = w[4g+j].
void dot_u8i8_maddubs(int32_t* acc, const uint8_t* u, const int8_t* w, int groups);

// Two maddubs results summed in int16 before one widening madd (saves a madd and
// an add per pair of input registers). Two independent inputs A = (u, w) and
// B = (u2, w2), same layout, feed the same lane:
//   for k in {0, 1}:
//     s_k = wrap16(sat16(uA[2k]*wA[2k] + uA[2k+1]*wA[2k+1])
//                + sat16(uB[2k]*wB[2k] + uB[2k+1]*wB[2k+1]))     (paddw)
//   acc[g] = wrap32(acc[g] + s_0 + s_1)
// where uA[j] = u[4g+j], wA[j] = w[4g+j], uB[j] = u2[4g+j], wB[j] = w2[4g+j].
// Inside its domain (u, u2 in 0..64) this equals dpbusd(A) followed by dpbusd(B).
void dot_u8i8_maddubs_x2(int32_t* acc, const uint8_t* u, const int8_t* w, const uint8_t* u2,
                         const int8_t* w2, int groups);

// NEON vdotq_s32 (and vmull_s8 + vpadalq_s16) with u reinterpreted as int8:
//   acc[g] = wrap32(acc[g] + sum_{j<4} int8(u[4g+j]) * w[4g+j])
// The group sum is exact (|sum| <= 4*128*128 = 65536); only the final add wraps.
void dot_u8i8_sdot(int32_t* acc, const uint8_t* u, const int8_t* w, int groups);

}  // namespace nnuelab::ref
