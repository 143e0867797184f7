// dot_u8i8 over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h). xsimd 8.1 has no maddubs, madd or dpbusd: the
// dots are built from even/odd 16-bit splits (kernels/common/xsimd_ops.h).
#include "kernels/common/xsimd_arch.h"
#include "kernels/dot_u8i8/dot_u8i8.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(dot_u8i8, NNUELAB_DOT_U8I8_KERNEL(maddubs_widen) NNUELAB_DOT_U8I8_KERNEL(dpbusd_widen))
namespace nnuelab::xsimd::dot_u8i8 {
using namespace ::nnuelab::dot_u8i8;
#define NNUELAB_XSIMD_DOT_FORWARD(tech)                                                                    \
  const char* tech##_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(dot_u8i8, tech##_supports, s); } \
  void tech##_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,          \
                  const std::uint8_t* u2, const std::int8_t* w2) {                                         \
    NNUELAB_XSIMD_CALL(dot_u8i8, tech##_run, s, acc, u, w, u2, w2);                                        \
  }
NNUELAB_XSIMD_DOT_FORWARD(maddubs_widen)
NNUELAB_XSIMD_DOT_FORWARD(dpbusd_widen)
#undef NNUELAB_XSIMD_DOT_FORWARD
}  // namespace nnuelab::xsimd::dot_u8i8
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8 {
using namespace ::nnuelab::dot_u8i8;
NNUELAB_DOT_U8I8_KERNEL(maddubs_widen)
NNUELAB_DOT_U8I8_KERNEL(dpbusd_widen)

using A32 = B<std::int32_t>;
using U8 = B<std::uint8_t>;
using I8 = B<std::int8_t>;

// One group in scalar code (the tail below a whole batch): maddubs saturates each pair sum
// to int16, the exact form does not.
template <bool kExact>
std::int32_t group_dot(const std::uint8_t* u, const std::int8_t* w) {
  std::int32_t sum = 0;
  for (int j = 0; j < 4; j += 2) {
    std::int32_t pair = std::int32_t(u[j]) * w[j] + std::int32_t(u[j + 1]) * w[j + 1];
    if (!kExact) pair = pair > 32767 ? 32767 : pair < -32768 ? -32768 : pair;
    sum += pair;
  }
  return sum;
}

template <bool kExact>
void run_groups(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                const std::uint8_t* u2, const std::int8_t* w2) {
  constexpr int G = int(A32::size);  // groups per batch
  const int whole = s.groups - s.groups % G;
  for (int g = whole; g < s.groups; ++g)  // int32 wrap-around, as paddd / vpdpbusd
    acc[g] = std::int32_t(std::uint32_t(acc[g]) + std::uint32_t(group_dot<kExact>(u + 4 * g, w + 4 * g)) +
                          std::uint32_t(group_dot<kExact>(u2 + 4 * g, w2 + 4 * g)));
  for (int g = 0; g < whole; g += G) {
    const U8 a = U8::load_unaligned(u + 4 * g), a2 = U8::load_unaligned(u2 + 4 * g);
    const I8 b = I8::load_unaligned(w + 4 * g), b2 = I8::load_unaligned(w2 + 4 * g);
    A32 sum = A32::load_unaligned(acc + g);
    if constexpr (kExact)
      sum += xops::dot4_exact(a, b) + xops::dot4_exact(a2, b2);
    else
      sum += xops::dot4_maddubs(a, b) + xops::dot4_maddubs(a2, b2);
    sum.store_unaligned(acc + g);
  }
}

const char* maddubs_widen_supports(const Shape&) { return nullptr; }
const char* dpbusd_widen_supports(const Shape&) { return nullptr; }

void maddubs_widen_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                       const std::uint8_t* u2, const std::int8_t* w2) {
  run_groups<false>(s, acc, u, w, u2, w2);
}
void dpbusd_widen_run(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                      const std::uint8_t* u2, const std::int8_t* w2) {
  run_groups<true>(s, acc, u, w, u2, w2);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::dot_u8i8
#endif
