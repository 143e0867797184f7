// Op `dot_u8i8`: the 4-byte group dot primitive under every int8 affine layer. Per int32
// lane g (g < groups), two input sets are accumulated, as an affine kernel does:
//   acc[g] += dot(u[4g..4g+3], w[4g..4g+3]) + dot(u2[4g..4g+3], w2[4g..4g+3])
// with u, u2 uint8 and w, w2 int8. How the dot saturates or wraps is the technique's
// semantics (reference/dot_u8i8.h): dpbusd (exact, int32 wrap), dpbusds (int32
// saturation), maddubs (int16 saturation of each pair sum: the pre-VNNI fallback), and
// maddubs_x2 (the two inputs' maddubs results added in int16 before one widening madd).
// A variant's technique name starts with its semantics; all four agree for u in 0..64,
// maddubs and dpbusd for u in 0..128 (README's semantics table).
//
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::dot_u8i8 {

struct Shape {
  int groups = 0;  // int32 lanes; each input holds 4 * groups bytes

  friend bool operator==(const Shape&, const Shape&) = default;
};

// kSdot: u read as int8 (NEON vdotq_s32, vmull_s8): equals dpbusd for u in 0..127 only.
enum class Semantics : int { kDpbusd, kDpbusds, kMaddubs, kMaddubsX2, kSdot };

}  // namespace nnuelab::dot_u8i8

#define NNUELAB_DOT_U8I8_KERNEL(tech)                                                       \
  const char* tech##_supports(const ::nnuelab::dot_u8i8::Shape& shape);                     \
  void tech##_run(const ::nnuelab::dot_u8i8::Shape& shape, std::int32_t* acc,               \
                  const std::uint8_t* u, const std::int8_t* w, const std::uint8_t* u2,      \
                  const std::int8_t* w2);

// A peak kernel (kernels/dot_u8i8/peak.inc; not a variant of the op): `chains` independent
// accumulator chains of the ISA's best dot sequence over register-resident data, run for
// `rounds` rounds; returns the int8 MACs done. bench/peak.h turns it into MAC/ns.
#define NNUELAB_DOT_U8I8_PEAK(instruction, chains) \
  std::int64_t peak_##instruction##_chains##chains(std::int64_t rounds);
