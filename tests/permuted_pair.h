// End-to-end check of a permuted pair: a producer variant that leaves its bytes in a
// declared lane order (ft_output's *_interleaved, crelu32's *_lanes) and the next layer,
// whose canonical int8 weights W[out][in] get their columns permuted by that order at
// prepare time (permute_next_layer_columns) and are prepared by a real affine variant.
// The affine kernel is fed the produced bytes and the produced bitset unchanged; its result
// must equal ref::affine(W, the reference output in canonical order). For a permuted
// producer, the same bytes against the unpermuted W must differ at least once (so the
// check sees the permutation and cannot pass by the order being ignored).
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/affine/registry.h"
#include "kernels/common/elementwise.h"
#include "kernels/common/lane_order.h"
#include "reference/affine.h"
#include "reference/find_nnz.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {

struct PermutedPairCheck {
  std::string producer;    // the producer variant's name (messages)
  std::vector<int> order;  // its declared order over `in` bytes (identity when canonical)
  bool canonical = true;
  affine::Shape next;      // the next layer; next.in = the producer's output bytes
  // Call k: the reference output (canonical, next.in bytes) and the producer's bytes as
  // produced with their nnz bitset (nnz_bitset_words(next.in) words).
  std::function<void(int k, std::uint8_t* canonical, std::uint8_t* produced, std::uint64_t* bits)> produce;
  // Which affine variants to pair with (available and supporting `next` is checked here).
  std::function<bool(const affine::Variant&)> pick;
  long outputs_per_pair = 3200;
};

// Runs the check for every picked affine variant; returns the number of pairs checked and
// adds the outputs compared to `total`.
inline int check_permuted_pairs(const PermutedPairCheck& c, workloads::Rng& rng, long& total) {
  const affine::Shape& as = c.next;
  const int in = as.in;
  std::vector<std::int8_t> w(std::size_t(in) * as.out);
  std::vector<std::int32_t> bias(as.out);
  for (auto& x : w) x = std::int8_t(rng.uniform(-128, 127));
  for (auto& x : bias) x = std::int32_t(rng.uniform(-(1 << 20), 1 << 20));
  const auto w_perm = permute_next_layer_columns(w.data(), in, as.out, c.order);
  int pairs = 0;
  for (const affine::Variant& av : affine::variants()) {
    if (!av.info.available() || !affine::why_unsupported(av, as).empty() || !c.pick(av)) continue;
    const affine::Packed packed = affine::prepare(av, affine::Canonical{as, w_perm.data(), bias.data()});
    const affine::Packed packed_unpermuted = affine::prepare(av, affine::Canonical{as, w.data(), bias.data()});
    long compared = 0;
    bool unpermuted_differs = false;
    std::vector<std::uint8_t> canonical(in), produced(in);
    std::vector<std::uint64_t> bits(nnz_bitset_words(in));
    std::vector<std::int32_t> want(as.out), got(as.out);
    for (int k = 0; compared < c.outputs_per_pair; ++k) {
      c.produce(k, canonical.data(), produced.data(), bits.data());
      ref::affine(w.data(), bias.data(), in, as.out, canonical.data(), want.data());
      const std::string what = c.producer + " -> " + av.info.name + " input " + std::to_string(k);
      if (av.run_bits)
        affine::run_with_bits(av, packed, produced.data(), bits.data(), got.data());
      else
        affine::run(av, packed, produced.data(), got.data());
      auto diff = compare(got.data(), want.data(), as.out, what);
      EXPECT_FALSE(diff) << *diff;
      if (diff) return pairs;
      compared += as.out;
      if (!c.canonical) {
        affine::run(av, packed_unpermuted, produced.data(), got.data());
        unpermuted_differs |= bool(first_mismatch(got.data(), want.data(), as.out));
      }
    }
    if (!c.canonical) {
      EXPECT_TRUE(unpermuted_differs) << c.producer << " -> " << av.info.name
                                      << ": the producer's output order made no difference to the next layer";
    }
    ++pairs;
    total += compared;
  }
  return pairs;
}

}  // namespace nnuelab::test
