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

template <bool kExact>
void run_groups(const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                const std::uint8_t* u2, const std::int8_t* w2) {
  constexpr int G = int(A32::size);  // groups per batch
  for (int g = 0; g < s.groups; g += G) {
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

const char* maddubs_widen_supports(const Shape& s) { return xops::need_multiple(s.groups, A32::size); }
const char* dpbusd_widen_supports(const Shape& s) { return xops::need_multiple(s.groups, A32::size); }

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
