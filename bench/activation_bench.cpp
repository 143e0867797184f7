// crelu16 and crelu32: every registered variant x sizes, plus the scalar references.
#include <cstring>

#include "bench/elementwise_bench.h"
#include "bench/harness.h"
#include "bench/register.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "reference/crelu16.h"
#include "reference/crelu32.h"

namespace nnuelab::bench {
namespace {

}  // namespace

void register_activations() {
  // crelu16 reads feature-transformer accumulators: mostly within a few hundred of 0.
  for (int n : {32, 1024, 2048}) {
    auto pool = std::make_shared<Pool<std::int16_t>>(n, -600, 600, 16 + n);
    register_elementwise<crelu16::Variant>(
        "crelu16", crelu16::variants(), crelu16::Shape{n}, crelu16::shape_name(crelu16::Shape{n}), pool,
        [](const crelu16::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::crelu16(in, s.n, out); },
        &crelu16::why_unsupported);
  }
  // crelu32 reads affine outputs at weight scale 64 (shift 6).
  for (int n : {32, 1024, 2048}) {
    const crelu32::Shape s{n, 6};
    auto pool = std::make_shared<Pool<std::int32_t>>(n, -(1 << 14), 1 << 14, 32 + n);
    register_elementwise<crelu32::Variant>(
        "crelu32", crelu32::variants(), s, crelu32::shape_name(s), pool,
        [](const crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32(in, sh.n, sh.shift, out); },
        &crelu32::why_unsupported);
  }
}

}  // namespace nnuelab::bench
