// Registry entry shape shared by the activation-like ops (crelu16, crelu32, and later
// sqr_crelu32, quantmoid4, pooling): no weights, so no prepare; supports + run only.
// Producers of the fused nnz bitset are elementwise variants with writes_bits.
// Scalar-side header.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

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

// `op_limits` is the op's own shape check (empty string when the shape is valid).
template <class V>
std::string why_unsupported_elementwise(const V& v, const typename V::Shape& s,
                                        const std::string& op_limits) {
  if (!v.info.available()) return "this CPU lacks " + v.info.missing();  // never call its code
  if (!op_limits.empty()) return op_limits;
  const char* reason = v.supports(s);
  return reason ? std::string(reason) : std::string();
}

// The op-level limits the elementwise ops share; each returns "" when the shape is within
// them, else the reason. n: elements per call (note: what the bound stands for).
inline std::string count_limits(int n, int lo, int hi, const char* note = "") {
  if (n >= lo && n <= hi) return {};
  return "n must be " + std::to_string(lo) + ".." + std::to_string(hi) + note + ", got " + std::to_string(n);
}
// The int32 activations: n in 1..max_n, then the right shift in 0..max_shift.
inline std::string shifted_limits(int n, int shift, int max_n, int max_shift, const char* note = "") {
  if (std::string w = count_limits(n, 1, max_n, note); !w.empty()) return w;
  if (shift < 0 || shift > max_shift)
    return "shift must be 0.." + std::to_string(max_shift) + ", got " + std::to_string(shift);
  return {};
}
// The pairing ops (pooling, the fused feature-transformer output): input i meets i + n/2.
inline std::string paired_limits(int n) {
  if (std::string w = count_limits(n, 2, 1 << 20); !w.empty()) return w;
  if (n % 2) return "n = " + std::to_string(n) + " is odd (inputs are paired i with i + n/2)";
  return {};
}

// The checked half of an op's output_order(v, s): throws std::invalid_argument (naming the
// variant, the shape and the reason) for a shape the variant refuses, else returns
// order(v.order_lanes), the op's own order over its output bytes (lane_order.h).
template <class V, class Why, class Name, class Order>
std::vector<int> checked_output_order(const V& v, const typename V::Shape& s, Why why, Name shape_name, Order order) {
  if (const std::string w = why(v, s); !w.empty())
    throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + w);
  return order(v.order_lanes);
}

// The buffer checks of the checked entry points (`entry`: "run" or "run_many", named in
// the message): input and output given and element-aligned, a bits buffer exactly when the
// variant writes the nnz bitset.
template <class V>
void check_call_buffers(const V& v, const typename V::Input* input, const typename V::Output* output,
                        const std::uint64_t* bits, const char* entry) {
  if (!input || !output) throw std::invalid_argument(v.info.name + ": " + entry + " needs input and output buffers");
  check_element_aligned(v.info.name, input, "input");
  check_element_aligned(v.info.name, output, "output");
  if (bits) check_element_aligned(v.info.name, bits, "bits");
  if (v.writes_bits && !bits)
    throw std::invalid_argument(v.info.name + " writes the nnz bitset of its output: " + entry + " needs a bits buffer");
  if (!v.writes_bits && bits)
    throw std::invalid_argument(v.info.name + " does not write an nnz bitset (only *_bits variants do): pass no bits buffer");
}

// The checked entry point every elementwise op exposes: refuses (std::invalid_argument
// naming the variant, the shape and the reason) instead of running on a bad shape or
// null buffers. `why` is the op's why_unsupported result for this shape (empty, so no
// allocation, when supported); shape_name(s) is the op's, called only for a refusal:
// these checks run before every call, and formatting the name each time cost about 13 ns
// of their 21 (floor/scalar/checked_call against empty_call).
template <class V, class Name>
void run_checked(const V& v, const typename V::Shape& s, const typename V::Input* input,
                 typename V::Output* output, std::uint64_t* bits, const std::string& why, Name shape_name) {
  if (!why.empty()) throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + why);
  check_call_buffers(v, input, output, bits, "run");
  v.run(s, input, output, bits);
}

// The checked entry point of the inlined form (V::run_many): run_checked's checks, plus a
// variant that has the form and a count >= 0; count = 0 writes nothing.
template <class V, class Name>
void run_many_checked(const V& v, const typename V::Shape& s, const typename V::Input* input,
                      typename V::Output* output, std::uint64_t* bits, int count, const std::string& why,
                      Name shape_name) {
  if (!why.empty()) throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + why);
  if (!v.run_many) throw std::invalid_argument(v.info.name + " has no inlined (run_many) form");
  if (count < 0) throw std::invalid_argument(v.info.name + ": run_many needs count >= 0, got " + std::to_string(count));
  if (count == 0) return;
  check_call_buffers(v, input, output, bits, "run_many");
  v.run_many(s, input, output, bits, count);
}

// run_active of an elementwise op: the variant active_variant picks for this shape (the
// forced one, or the last available that accepts it), run through the op's checked `run`
// on one input; a forced *_bits variant gets a scratch bitset for its `out_bytes` output
// bytes. `why(v, s)` and `run(v, s, in, out, bits)` are the op's own entry points.
template <class V, class Why, class Run>
const V& run_active_elementwise(std::span<const V> all, const typename V::Shape& s, int out_bytes,
                                const typename V::Input* input, typename V::Output* output, Why why, Run run) {
  const V& v = active_variant(all, [&](const V& c) { return why(c, s).empty(); });
  std::vector<std::uint64_t> bits(v.writes_bits ? nnz_bitset_words(out_bytes) : 0);
  run(v, s, input, output, v.writes_bits ? bits.data() : nullptr);
  return v;
}

}  // namespace nnuelab
