// The activations (crelu16, crelu32, sqr_crelu32, crelu32_pair, quantmoid4): every
// registered variant x sizes, plus the scalar references.
#include <cstring>

#include "bench/elementwise_bench.h"
#include "bench/harness.h"
#include "bench/register.h"
#include "kernels/crelu16/registry.h"
#include "kernels/crelu32/registry.h"
#include "kernels/crelu32_pair/registry.h"
#include "kernels/quantmoid4/registry.h"
#include "kernels/sqr_crelu32/registry.h"
#include "reference/crelu16.h"
#include "reference/crelu32.h"
#include "reference/crelu32_pair.h"
#include "reference/quantmoid4.h"
#include "reference/sqr_crelu32.h"

namespace nnuelab::bench {

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
    // At 32 elements the call itself is a good part of the plain figure: the inlined
    // forms time the same kernels without it (register_elementwise_inlined).
    if (n == 32)
      register_elementwise_inlined<crelu32::Variant>(crelu32::variants(), s, crelu32::shape_name(s), pool, &crelu32::why_unsupported);
    // floor/scalar/empty_call: the same timed loop and call path with nothing to do (the
    // scalar baseline's entry with an empty kernel, crelu32's signature; reached through a
    // pointer, as every variant is through its registry entry). A variant's time minus this
    // is what its own work costs per call (plots and the winners tables leave it out, as
    // they do the peak benchmarks). floor/scalar/checked_call: the same loop calling it
    // through crelu32::run (the shape, buffer and alignment checks every elementwise op's
    // run makes before the call); its time minus empty_call's is what those checks cost.
    if (n == 32)
      register_checked_floors("call", crelu32::shape_name(s), n * sizeof(std::int32_t),
                              [s, pool](benchmark::State& st, bool checked) {
                                const crelu32::Variant v = with_empty_kernel(crelu32::variants().front());
                                time_elementwise<std::int32_t>(
                                    st, *pool, s.n, [&](const std::int32_t* in, std::uint8_t* out, std::uint64_t* bits) {
                                      if (checked) crelu32::run(v, s, in, out);
                                      else v.run(s, in, out, bits);
                                    });
                              });
    // What dispatch costs a call, at the shape where it weighs most: the same loop running
    // the variant crelu32::run_active picks (a real kernel, so these two are not floors of
    // nothing; the ISA part "scalar" is the harness's), through crelu32::run on the
    // variant chosen once (run_chosen) and through run_active on each call (run_active).
    // The label names the variant.
    if (n == 32)
      register_floor_pair("run_chosen", "run_active", crelu32::shape_name(s), n * sizeof(std::int32_t),
                          [s, pool](benchmark::State& st, bool active) {
                            std::vector<std::uint8_t> probe(s.n);
                            const crelu32::Variant& chosen = crelu32::run_active(s, pool->get(0), probe.data());
                            // Two loops, not one with a branch on `active` in it: each times
                            // its own call path alone.
                            if (active)
                              time_elementwise<std::int32_t>(
                                  st, *pool, s.n,
                                  [&](const std::int32_t* in, std::uint8_t* out, std::uint64_t*) { crelu32::run_active(s, in, out); });
                            else
                              time_elementwise<std::int32_t>(
                                  st, *pool, s.n,
                                  [&](const std::int32_t* in, std::uint8_t* out, std::uint64_t*) { crelu32::run(chosen, s, in, out); });
                            st.SetLabel(chosen.info.name);
                          });
  }
  // sqr_crelu32 and the fused pair read the same affine outputs (shift 6). The pair writes
  // 2n bytes per call; n = 16 is Stockfish's first hidden layer (15 + 1 outputs), which
  // only the 128-bit and scalar forms take.
  for (int n : {16, 32, 1024}) {
    const sqr_crelu32::Shape s{n, 6};
    auto pool = std::make_shared<Pool<std::int32_t>>(n, -(1 << 14), 1 << 14, 64 + n);
    register_elementwise<sqr_crelu32::Variant>(
        "sqr_crelu32", sqr_crelu32::variants(), s, sqr_crelu32::shape_name(s), pool,
        [](const sqr_crelu32::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::sqr_crelu32(in, sh.n, sh.shift, out); },
        &sqr_crelu32::why_unsupported);
    const crelu32_pair::Shape p{n, 6};
    register_elementwise<crelu32_pair::Variant>(
        "crelu32_pair", crelu32_pair::variants(), p, crelu32_pair::shape_name(p), pool,
        [](const crelu32_pair::Shape& sh, const std::int32_t* in, std::uint8_t* out) { ref::crelu32_pair(in, sh.n, sh.shift, out); },
        &crelu32_pair::why_unsupported, 2 * n);
    // The hidden layers' widths: their inlined forms too (register_elementwise_inlined).
    if (n <= 32) {
      register_elementwise_inlined<sqr_crelu32::Variant>(sqr_crelu32::variants(), s, sqr_crelu32::shape_name(s), pool,
                                                         &sqr_crelu32::why_unsupported);
      register_elementwise_inlined<crelu32_pair::Variant>(crelu32_pair::variants(), p, crelu32_pair::shape_name(p), pool,
                                                          &crelu32_pair::why_unsupported, 2 * n);
    }
  }
  // quantmoid4 reads int16 pre-activations; most of them on the curved part (|x| < 127).
  for (int n : {32, 1024}) {
    auto pool = std::make_shared<Pool<std::int16_t>>(n, -300, 300, 96 + n);
    register_elementwise<quantmoid4::Variant>(
        "quantmoid4", quantmoid4::variants(), quantmoid4::Shape{n}, quantmoid4::shape_name(quantmoid4::Shape{n}), pool,
        [](const quantmoid4::Shape& sh, const std::int16_t* in, std::uint8_t* out) { ref::quantmoid4(in, sh.n, out); },
        &quantmoid4::why_unsupported);
  }
}

}  // namespace nnuelab::bench
