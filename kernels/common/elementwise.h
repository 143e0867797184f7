// Registry entry shape shared by the activation-like ops (crelu16, crelu32, and later
// sqr_crelu32, quantmoid4, pooling): no weights, so no prepare; supports + run only.
// Producers of the fused nnz bitset are elementwise variants with writes_bits.
// Scalar-side header.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/common/arg_checks.h"
#include "kernels/common/refusal.h"
#include "kernels/common/variant.h"

namespace nnuelab {

template <class ShapeT, class In, class Out>
struct ElementwiseVariant {
  using Shape = ShapeT;
  using Input = In;
  using Output = Out;
  VariantInfo info;
  const char* (*supports)(const ShapeT&);
  // bits: the fused nnz bitset of the output (see nnz_bitset_words), written only by
  // variants with writes_bits (registered with NNUELAB_VARIANT_BITS, technique *_bits);
  // nullptr for every other variant.
  void (*run)(const ShapeT&, const In*, Out*, std::uint64_t* bits);
  bool writes_bits = false;
  // Declared by the registry line (NNUELAB_VARIANT_LANES, plain data, never computed by
  // ISA code): 1 = canonical output order; L > 1 = the bytes stay in the per-lane order of
  // the narrowing packs over L 128-bit lanes (no fix-up permute), which the op's
  // output_order spells out (kernels/common/lane_order.h) and the next layer's prepare
  // absorbs. Never picked by run_active unless forced: its caller must know the order.
  int order_lanes = 1;
  bool canonical_order() const { return order_lanes == 1; }
  // The inlined form (ops whose registry.cpp defines NNUELAB_REGISTRY_MANY; nullptr
  // elsewhere): `count` back-to-back calls of run in one function of the variant's own ISA
  // file, so the kernel is inlined into the loop and the shape's decisions (an immediate
  // shift's pick, the vector count) are taken once for all calls, as where an engine
  // inlines the op with a fixed layer size. The op fixes the strides (crelu32: call c
  // reads input + c * n, writes output + c * n and bits + c * nnz_bitset_words(n)).
  void (*run_many)(const ShapeT&, const In*, Out*, std::uint64_t* bits, int count) = nullptr;
};

// The fused nnz bitset a producer writes for the next affine layer: bit j of
// bits[j / 64] is set iff output bytes 4j..4j+3 are not all zero (the chunk the
// blocked sparse affine kernels broadcast). Words needed for `out_bytes` bytes; bits past
// the last chunk are zero.
constexpr int nnz_bitset_words(int out_bytes) { return ((out_bytes + 3) / 4 + 63) / 64; }

// The shape names of the elementwise ops (messages, benchmark names): "<n>" for the
// count-shaped ops, "<n>>><shift>" for the int32 activations.
template <class S>
std::string count_shape_name(const S& s) {
  return std::to_string(s.n);
}
template <class S>
std::string shifted_shape_name(const S& s) {
  return std::to_string(s.n) + ">>" + std::to_string(s.shift);
}

// The op-level limits the elementwise ops share (refusal.h); each is empty when the shape
// is within them, else the reason. n: elements per call (note: what the bound stands for).
inline Refusal count_limits(int n, int lo, int hi, const char* note = "") { return count_limit("n", n, lo, hi, note); }
// The int32 activations: n in 1..max_n, then the right shift in 0..max_shift.
inline Refusal shifted_limits(int n, int shift, int max_n, int max_shift, const char* note = "") {
  if (Refusal w = count_limits(n, 1, max_n, note)) return w;
  return count_limit("shift", shift, 0, max_shift);
}
// The pairing ops (pooling, the fused feature-transformer output): input i meets i + n/2.
inline Refusal paired_limits(int n) {
  if (Refusal w = count_limits(n, 2, 1 << 20)) return w;
  if (n % 2)
    return {[](const Refusal& r) {
              return "n = " + std::to_string(r.a) + " is odd (inputs are paired i with i + n/2)";
            },
            nullptr, "", n};
  return {};
}

// The checked half of an op's output_order(v, s): throws std::invalid_argument (naming the
// variant, the shape and the reason) for a shape the variant refuses, else returns
// order(v.order_lanes), the op's own order over its output bytes (lane_order.h).
template <class V, class Why, class Name, class Order>
std::vector<int> checked_output_order(const V& v, const typename V::Shape& s, Why why, Name shape_name, Order order) {
  if (const std::string w = why(v, s); !w.empty())
    refuse_unsupported(v.info.name, shape_name(s), w);
  return order(v.order_lanes);
}

// The buffer checks of the checked entry points (`entry`: "run" or "run_many", named in
// the messages), on a checker c (arg_checks.h: read as the test inlined into every checked
// call, and cold as the refusal of the first fault): input and output given and
// element-aligned, a bits buffer exactly when the variant writes the nnz bitset.
// The variant comes as std::cref(v), a pointer already in a register, and its writes_bits
// is read only in the comparison: passed by value, or read into a local first, it was
// loaded ahead of the tests, and std::cref(v.writes_bits) computed its address on every
// call (callgrind: 85-87 instructions per checked crelu32 call against 84 as written).
constexpr auto buffer_checks = []<class V>(const auto& c, std::reference_wrapper<const V> variant, const auto* input,
                                           const auto* output, const std::uint64_t* bits, const char* entry) {
  return c.require(input && output, [&] { return std::string(entry) + " needs input and output buffers"; }) &&
         c.aligned(input, "input") && c.aligned(output, "output") && c.aligned(bits, "bits") &&
         // One comparison for both ways round (two requires compiled to two more branches).
         c.require(variant.get().writes_bits == (bits != nullptr), [&] {
           return variant.get().writes_bits
                      ? std::string(entry) + " needs a bits buffer: the variant writes the nnz bitset of its output"
                      : std::string("pass no bits buffer: the variant writes no nnz bitset (only *_bits variants do)");
         });
};

// The checked entry point every elementwise op exposes: refuses (std::invalid_argument
// naming the variant, the shape and the reason) instead of running on a bad shape or
// null buffers. `refusal` is the op's refusal function (refusal.h), tested inline and
// formatted, with the op's shape_name(s), only for a refusal (check_shape): these checks
// run before every call, and formatting the name each time cost about 13 ns of their 21
// (floor/scalar/checked_call against empty_call), the reason as strings 3 of the 8 left.
// Always inlined into the op's run: called out of line it took the Refusal from memory
// (callgrind: 120 instructions per checked crelu32 call against 84; 66 since check_shape),
// and an accepted call then runs the tests below and the kernel, nothing else (the
// refusals are cold).
template <class V, class Why, class Name>
[[gnu::always_inline]] inline void run_checked(const V& v, const typename V::Shape& s,
                                               const typename V::Input* input, typename V::Output* output,
                                               std::uint64_t* bits, Why refusal, Name shape_name) {
  check_shape(v, s, refusal, shape_name);
  arg_checks::check(v.info.name, buffer_checks, std::cref(v), input, output, bits, "run");
  v.run(s, input, output, bits);
}

// The checked entry point of the inlined form (V::run_many): run_checked's checks, plus a
// variant that has the form and a count >= 0; count = 0 writes nothing.
template <class V, class Why, class Name>
[[gnu::always_inline]] inline void run_many_checked(const V& v, const typename V::Shape& s,
                                                    const typename V::Input* input, typename V::Output* output,
                                                    std::uint64_t* bits, int count, Why refusal,
                                                    Name shape_name) {
  check_shape(v, s, refusal, shape_name);
  if (!v.run_many) throw std::invalid_argument(v.info.name + " has no inlined (run_many) form");
  if (count < 0) throw std::invalid_argument(v.info.name + ": run_many needs count >= 0, got " + std::to_string(count));
  if (count == 0) return;
  arg_checks::check(v.info.name, buffer_checks, std::cref(v), input, output, bits, "run_many");
  v.run_many(s, input, output, bits, count);
}

// run_active of an elementwise op: the variant active_variant picks for this shape (the
// forced one, or the last available that accepts it; remembered, active_variant_for), run
// through the op's checked `run` on one input; a forced *_bits variant gets a scratch
// bitset for its `out_bytes` output bytes. A shape the op refuses throws "<op>: no variant
// supports <shape>: <why>". `refusal(v, s)`, `shape_name(s)` and `run(v, s, in, out,
// bits)` are the op's own.
template <class V, class Why, class Name, class Run>
const V& run_active_elementwise(std::span<const V> (*table)(), const typename V::Shape& s, int out_bytes,
                                const typename V::Input* input, typename V::Output* output, Why refusal,
                                Name shape_name, Run run) {
  const V& v = active_variant_for(table, s, refusal, shape_name);
  if (!v.writes_bits) {  // every variant run_active picks unforced: no scratch on its path
    run(v, s, input, output, nullptr);
    return v;
  }
  std::vector<std::uint64_t> bits(nnz_bitset_words(out_bytes));
  run(v, s, input, output, bits.data());
  return v;
}

}  // namespace nnuelab
