// End-to-end check of a permuted pair: a producer variant that leaves its bytes in a
// declared lane order (ft_output's *_interleaved, crelu32's *_lanes) and the next layer,
// whose canonical int8 weights W[out][in] get their columns permuted by that order at
// prepare time (permute_next_layer_columns) and are prepared by a real affine variant.
// The affine kernel is fed the produced bytes and the produced bitset unchanged; its result
// must equal ref::affine(W, the reference output in canonical order). For a permuted
// producer, the same bytes against the unpermuted W must differ at least once (so the
// check sees the permutation and cannot pass by the order being ignored).
// expect_declared_orders and expect_permuted_layouts run both kinds of check over a whole
// activation registry (crelu16, crelu32, sqr_crelu32, crelu32_pair); expect_lane_orders is
// the order check itself, shared with the pairwise ops.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "kernels/affine/registry.h"
#include "kernels/common/elementwise.h"
#include "kernels/common/lane_order.h"
#include "nnuelab_config.h"
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

// ---- the activations' *_lanes forms ------------------------------------------------------

// Every supported shape's declared order (out_bytes(s) positions) is a permutation that
// moves whole `group`-byte groups, each kept contiguous and aligned (so the bitset of the
// produced 4-byte chunks stays meaningful), and keeps each of its `blocks` equal blocks in
// place (crelu32_pair: its two halves); the identity exactly for in-order variants. A
// runnable variant with a declared order really permutes, and wherever AVX2 is built the
// registry declares one. Used for the activations (4-byte chunks of halves x n bytes) and
// the pairwise ops (8-byte groups of n / 2 bytes, tests/pool_test.cpp).
template <class V, class Shapes, class Why, class Order, class OutBytes>
void expect_lane_orders(std::span<const V> all, const Shapes& shapes, Why why, Order order, OutBytes out_bytes,
                        int group, int blocks) {
  int permuted = 0;
  for (const V& v : all) {
    for (const auto& s : shapes) {
      if (!why(v, s).empty()) continue;
      const std::vector<int> o = order(v, s);
      const int bytes = out_bytes(s), block = bytes / blocks;
      ASSERT_EQ(int(o.size()), bytes) << v.info.name;
      std::vector<int> sorted = o;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < bytes; ++i) ASSERT_EQ(sorted[i], i) << v.info.name << " is not a permutation";
      bool identity = true;
      for (int p = 0; p < bytes; ++p) {
        identity &= o[p] == p;
        ASSERT_EQ(o[p] % group, p % group) << v.info.name << " splits a " << group << "-byte group";
        ASSERT_EQ(o[p] - o[p - p % group], p % group) << v.info.name << " splits a " << group << "-byte group";
        ASSERT_EQ(o[p] / block, p / block) << v.info.name << " moves a byte across its " << blocks << " blocks";
      }
      EXPECT_EQ(identity, v.canonical_order()) << v.info.name << " " << bytes << " bytes";
      permuted += !identity;
    }
  }
  const bool runnable = std::any_of(all.begin(), all.end(), [&](const V& v) { return v.info.available() && !v.canonical_order(); });
  EXPECT_EQ(permuted > 0, runnable) << "a runnable variant with a declared lane order must produce a non-identity order";
  if (NNUELAB_HAS_avx2) {
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const V& v) { return !v.canonical_order(); }))
        << "no variant declares a lane order where AVX2 is built";
  }
}

// The int32/int16 activations: halves x n output bytes, in whole 4-byte chunks (group 4;
// crelu16's qword permutes pass 8), each half kept in place.
template <class V, class Shapes, class Why, class Order>
void expect_declared_orders(std::span<const V> all, const Shapes& shapes, Why why, Order order, int halves,
                            int group = 4) {
  expect_lane_orders(all, shapes, why, order, [halves](const auto& s) { return halves * s.n; }, group, halves);
}

// End to end: (activation variant, next layer's prepare) is exact through every affine
// variant that takes each `next` shape (check_permuted_pairs). The activation runs
// make_shape(next.in / halves) on inputs gen(call, rng); `min_outputs` is the test's floor.
template <class V, class MakeShape, class Gen, class Why, class Order, class Run, class Ref>
void expect_permuted_layouts(std::span<const V> all, std::initializer_list<affine::Shape> nexts, int halves,
                             MakeShape make_shape, Gen gen, Why why, Order order, Run run, Ref ref,
                             long min_outputs = 10000) {
  workloads::Rng rng(11);
  int pairs = 0, permuted_pairs = 0;
  long total = 0;
  for (const V& v : all) {
    if (!v.info.available()) continue;
    for (const affine::Shape next : nexts) {
      const typename V::Shape s = make_shape(next.in / halves);
      if (!why(v, s).empty()) continue;
      std::vector<typename V::Input> x(s.n);
      PermutedPairCheck c;
      c.producer = v.info.name + " n=" + std::to_string(s.n);
      c.order = order(v, s);
      c.canonical = v.canonical_order();
      c.next = next;
      c.outputs_per_pair = std::max(3200 / next.out, 64) * next.out;
      c.produce = [&](int k, std::uint8_t* want, std::uint8_t* produced, std::uint64_t* bits) {
        for (auto& e : x) e = gen(k, rng);
        ref(s, x.data(), want);
        run(v, s, x.data(), produced, v.writes_bits ? bits : nullptr);
        if (!v.writes_bits) ref::nnz_chunk_bitset(produced, next.in, bits);
      };
      c.pick = [](const affine::Variant&) { return true; };
      const int n = check_permuted_pairs(c, rng, total);
      pairs += n;
      if (!c.canonical) permuted_pairs += n;
    }
  }
  EXPECT_GT(pairs, 0);
  if (std::any_of(all.begin(), all.end(), [&](const V& v) { return v.info.available() && !v.canonical_order(); })) {
    EXPECT_GT(permuted_pairs, 0);
  }
  EXPECT_GE(total, min_outputs);
}

// fc-like int32 inputs for the int32 activations at shift 6 (values near the clamp), with
// every third call sparse (mostly negative).
inline std::int32_t fc_like_int32(int call, workloads::Rng& rng) {
  return std::int32_t(call % 3 == 2 ? rng.uniform(-20000, 3000) : rng.uniform(-9000, 9000));
}

}  // namespace nnuelab::test
