// Shared tester of the activation-like ops (one input array -> one uint8 array of the
// same length): runs a variant over a long input stream, call by call, and byte-compares
// every output with the reference.
#pragma once
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/common/elementwise.h"
#include "reference/find_nnz.h"
#include "tests/support.h"
#include "workloads/synthetic.h"

namespace nnuelab::test {

template <class V>
struct ElementwiseCase {
  const V* variant;
  typename V::Shape shape;
};
template <class V>
void PrintTo(const ElementwiseCase<V>& c, std::ostream* os) {
  *os << c.variant->info.name << " n=" << c.shape.n;
}

template <class V>
class ElementwiseTester {
 public:
  using Shape = typename V::Shape;
  using In = typename V::Input;
  using Out = typename V::Output;
  // ref(shape, in, out): the reference for one call of shape.n elements.
  // run(variant, shape, in, out): the op's checked entry point.
  using Ref = std::function<void(const Shape&, const In*, Out*)>;
  // run(variant, shape, in, out, bits): bits is nullptr unless variant.writes_bits.
  using Run = std::function<void(const V&, const Shape&, const In*, Out*, std::uint64_t*)>;

  // out_n: outputs per call (s.n unless the op shrinks, as 2 -> 1 pooling does).
  ElementwiseTester(const V& v, const Shape& s, Ref ref, Run run, int out_n = -1)
      : v_(v), s_(s), ref_(std::move(ref)), run_(std::move(run)), out_n_(out_n < 0 ? s.n : out_n), in_(s.n),
        got_(out_n_), want_(out_n_), got_bits_(nnz_bitset_words(out_n_ * int(sizeof(Out))) + 1),
        want_bits_(got_bits_.size()) {
    poison_tail(got_);
    poison_tail(in_);  // non-zero bytes after the input: a variant may load them, never use them
  }

  // A variant that leaves its output in a declared lane order: order[p] is the canonical
  // index held by produced position p (out_n entries). Its output is un-permuted through
  // this order before the byte compare; its bitset describes the produced bytes, so the
  // expected bits come from the reference output put in the produced order.
  void set_output_order(std::vector<int> order) { order_ = std::move(order); }

  // Feeds `stream` through the variant s.n elements per call (the last call padded by
  // repeating the stream from its start); returns the first difference found.
  std::optional<std::string> check(const std::vector<In>& stream, const std::string& what) {
    for (std::size_t start = 0; start < stream.size(); start += s_.n) {
      for (int i = 0; i < s_.n; ++i) in_[i] = stream[(start + i) % stream.size()];
      std::fill_n(got_.data(), out_n_, Out(0xA5));  // poison: every output must be written
      std::fill(got_bits_.begin(), got_bits_.end(), 0xA5A5A5A5A5A5A5A5ull);
      ref_(s_, in_.data(), want_.data());
      run_(v_, s_, in_.data(), got_.data(), v_.writes_bits ? got_bits_.data() : nullptr);
      compared += out_n_;
      const std::string where = v_.info.name + " " + what + " at stream offset " + std::to_string(start);
      const Out* got = got_.data();
      std::vector<Out> got_canonical, want_produced;
      if (!order_.empty()) {  // positions reported below are canonical indices
        got_canonical.assign(out_n_, Out(0));
        want_produced.assign(out_n_, Out(0));
        for (int p = 0; p < out_n_; ++p) {
          got_canonical[order_[p]] = got_[p];
          want_produced[p] = want_[order_[p]];
        }
        got = got_canonical.data();
      }
      if (auto diff = compare(got, want_.data(), out_n_, where)) return diff;
      if (auto diff = tail_written(got_, where)) return diff;
      if (v_.writes_bits) {
        // The bitset of the reference output (in the produced order), word for word; the
        // guard word past the end must still hold its poison (a producer writes exactly
        // its words).
        const int words = nnz_bitset_words(out_n_ * int(sizeof(Out)));
        const Out* want = order_.empty() ? want_.data() : want_produced.data();
        ref::nnz_chunk_bitset(reinterpret_cast<const std::uint8_t*>(want), out_n_ * int(sizeof(Out)), want_bits_.data());
        want_bits_[words] = 0xA5A5A5A5A5A5A5A5ull;
        if (auto diff = compare(got_bits_.data(), want_bits_.data(), words + 1, where + " (nnz bitset words)")) return diff;
        bits_compared += words;
      }
    }
    return std::nullopt;
  }
  long compared = 0;
  long bits_compared = 0;  // bitset words checked (writes_bits variants)

 private:
  const V& v_;
  Shape s_;
  Ref ref_;
  Run run_;
  int out_n_;
  workloads::Buffer<In> in_;
  workloads::Buffer<Out> got_, want_;
  std::vector<std::uint64_t> got_bits_, want_bits_;
  std::vector<int> order_;  // empty: canonical order
};

// The inlined form (V::run_many, benchmarked as <shape>+inlined) of one variant at one
// shape. For each count in {0, 1, 2, 7} and each value source (used cyclically to fill
// count x n inputs), one many(in, out, bits, count) call; then each call's out_n bytes are
// compared with ref(shape, its own n inputs, want) put in the variant's produced order
// (order[p] = canonical index at produced position p; identity when empty), and each
// call's bitset words with the bitset of those bytes. The byte and the bitset word after
// the last call must keep their poison. Returns the first difference; adds the compared
// outputs to *compared. many is the op's checked run_many entry point.
template <class V, class Ref, class Many>
std::optional<std::string> check_run_many(const V& v, const typename V::Shape& s, int out_n, const std::vector<int>& order,
                                          Ref ref, Many many, const std::vector<std::vector<typename V::Input>>& sources,
                                          long* compared) {
  using In = typename V::Input;
  using Out = typename V::Output;
  const int words = nnz_bitset_words(out_n * int(sizeof(Out)));
  for (int count : {0, 1, 2, 7}) {
    for (std::size_t k = 0; k < sources.size(); ++k) {
      const std::vector<In>& src = sources[k];
      const std::size_t total_in = std::size_t(count) * s.n, total_out = std::size_t(count) * out_n;
      workloads::Buffer<In> in(total_in + 1);
      for (std::size_t i = 0; i < total_in; ++i) in[i] = src[i % src.size()];
      workloads::Buffer<Out> got(total_out + 1);
      std::fill_n(got.data(), total_out + 1, Out(0xA5));
      std::vector<std::uint64_t> bits(std::size_t(count) * words + 1, 0xA5A5A5A5A5A5A5A5ull);
      many(in.data(), got.data(), v.writes_bits ? bits.data() : nullptr, count);
      const std::string where = v.info.name + " run_many count " + std::to_string(count) + ", source " + std::to_string(k);
      std::vector<Out> want(out_n), produced(out_n);
      std::vector<std::uint64_t> want_bits(words);
      for (int c = 0; c < count; ++c) {
        const std::string call = where + ", call " + std::to_string(c);
        ref(s, in.data() + std::size_t(c) * s.n, want.data());
        for (int p = 0; p < out_n; ++p) produced[p] = order.empty() ? want[p] : want[order[p]];
        if (auto diff = compare(got.data() + std::size_t(c) * out_n, produced.data(), out_n, call)) return diff;
        *compared += out_n;
        if (v.writes_bits) {
          ref::nnz_chunk_bitset(reinterpret_cast<const std::uint8_t*>(produced.data()), out_n * int(sizeof(Out)), want_bits.data());
          if (auto diff = compare(bits.data() + std::size_t(c) * words, want_bits.data(), words, call + " (nnz bitset words)"))
            return diff;
        }
      }
      if (got[total_out] != Out(0xA5)) return where + ": wrote past the last call's output";
      if (v.writes_bits && bits[std::size_t(count) * words] != 0xA5A5A5A5A5A5A5A5ull)
        return where + ": wrote a bitset word past the last call's";
    }
  }
  return std::nullopt;
}

// Uniform random values in [lo, hi].
template <class In>
std::vector<In> random_stream(std::uint64_t seed, std::size_t n, std::int64_t lo, std::int64_t hi) {
  workloads::Rng rng(seed);
  std::vector<In> out(n);
  for (auto& x : out) x = In(rng.uniform(lo, hi));
  return out;
}

// Cases over a registry: every supported shape of every available variant, and a single
// skip case for a variant this CPU cannot run (none of its code may be called).
template <class V, class Shapes, class Why>
inline std::vector<ElementwiseCase<V>> make_cases(std::span<const V> all, const Shapes& shapes, Why why) {
  std::vector<ElementwiseCase<V>> out;
  for (const V* v : variants_under_test(all)) {
    if (!v->info.available()) {
      out.push_back({v, {}});
      continue;
    }
    for (const auto& s : shapes)
      if (why(*v, s).empty()) out.push_back({v, s});
  }
  if (!all.empty()) check_every_variant_has_a_case(all.front().info.op, all, out);
  return out;
}

template <class V, class ShapeName>
inline std::string case_name(const ElementwiseCase<V>& c, ShapeName shape_name) {
  return param_name(c.variant->info.name + "/" + (c.variant->info.available() ? shape_name(c.shape) : "unavailable"));
}

}  // namespace nnuelab::test
