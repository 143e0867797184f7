// Shared tester of the activation-like ops (one input array -> one uint8 array of the
// same length): runs a variant over a long input stream, call by call, and byte-compares
// every output with the reference.
#pragma once
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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
  using Run = std::function<void(const V&, const Shape&, const In*, Out*)>;

  ElementwiseTester(const V& v, const Shape& s, Ref ref, Run run)
      : v_(v), s_(s), ref_(std::move(ref)), run_(std::move(run)), in_(s.n), got_(s.n), want_(s.n) {}

  // Feeds `stream` through the variant s.n elements per call (the last call padded by
  // repeating the stream from its start); returns the first difference found.
  std::optional<std::string> check(const std::vector<In>& stream, const std::string& what) {
    for (std::size_t start = 0; start < stream.size(); start += s_.n) {
      for (int i = 0; i < s_.n; ++i) in_[i] = stream[(start + i) % stream.size()];
      std::fill_n(got_.data(), s_.n, Out(0xA5));  // poison: every output must be written
      ref_(s_, in_.data(), want_.data());
      run_(v_, s_, in_.data(), got_.data());
      compared += s_.n;
      if (auto diff = compare(got_.data(), want_.data(), s_.n, v_.info.name + " " + what + " at stream offset " + std::to_string(start)))
        return diff;
    }
    return std::nullopt;
  }
  long compared = 0;

 private:
  const V& v_;
  Shape s_;
  Ref ref_;
  Run run_;
  workloads::Buffer<In> in_;
  workloads::Buffer<Out> got_, want_;
};

// Uniform random values in [lo, hi].
template <class In>
std::vector<In> random_stream(std::uint64_t seed, std::size_t n, std::int64_t lo, std::int64_t hi) {
  workloads::Rng rng(seed);
  std::vector<In> out(n);
  for (auto& x : out) x = In(rng.uniform(lo, hi));
  return out;
}

}  // namespace nnuelab::test
