// pool_avg2, pool_max2, pool_product2 and ft_output: every registered variant at the
// production sizes (2 x 1024 -> 1024, and 2 x 1536 -> 1536), plus the scalar references.
#include "bench/elementwise_bench.h"
#include "bench/harness.h"
#include "bench/register.h"
#include "kernels/ft_output/registry.h"
#include "kernels/pool_avg2/registry.h"
#include "kernels/pool_max2/registry.h"
#include "kernels/pool_product2/registry.h"
#include "reference/pool.h"

namespace nnuelab::bench {

void register_pool() {
  for (int n : {2048, 3072}) {
    // uint8 activations (a ClippedReLU's 0..127).
    auto bytes = std::make_shared<Pool<std::uint8_t>>(n, 0, 127, 40 + n);
    register_elementwise<pool_avg2::Variant>(
        "pool_avg2", pool_avg2::variants(), pool_avg2::Shape{n}, pool_avg2::shape_name({n}), bytes,
        [](const pool_avg2::Shape& s, const std::uint8_t* in, std::uint8_t* out) { ref::pool_avg2(in, s.n, out); },
        &pool_avg2::why_unsupported, n / 2);
    register_elementwise<pool_max2::Variant>(
        "pool_max2", pool_max2::variants(), pool_max2::Shape{n}, pool_max2::shape_name({n}), bytes,
        [](const pool_max2::Shape& s, const std::uint8_t* in, std::uint8_t* out) { ref::pool_max2(in, s.n, out); },
        &pool_max2::why_unsupported, n / 2);
    // ClippedReLU outputs kept in int16: in the domain 0..127 (the reference validates it,
    // which is part of what its row costs).
    auto clipped = std::make_shared<Pool<std::int16_t>>(n, 0, 127, 50 + n);
    register_elementwise<pool_product2::Variant>(
        "pool_product2", pool_product2::variants(), pool_product2::Shape{n}, pool_product2::shape_name({n}), clipped,
        [](const pool_product2::Shape& s, const std::int16_t* in, std::uint8_t* out) { ref::pool_product2(in, s.n, out); },
        &pool_product2::why_unsupported, n / 2);
    // Feature-transformer accumulators: mostly within a few hundred of 0.
    auto acc = std::make_shared<Pool<std::int16_t>>(n, -600, 600, 60 + n);
    for (auto form : {ft_output::Form::kClamp127, ft_output::Form::kClamp255}) {
      const ft_output::Shape s{n, form};
      register_elementwise<ft_output::Variant>(
          "ft_output", ft_output::variants(), s, ft_output::shape_name(s), acc,
          [](const ft_output::Shape& sh, const std::int16_t* in, std::uint8_t* out) {
            if (sh.form == ft_output::Form::kClamp127)
              ref::ft_output_clamp127(in, sh.n, out);
            else
              ref::ft_output_clamp255(in, sh.n, out);
          },
          &ft_output::why_unsupported, n / 2);
    }
  }
}

}  // namespace nnuelab::bench
