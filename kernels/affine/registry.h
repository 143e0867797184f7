// The affine registry: every variant of kernels/affine/affine.inc, plus checked entry
// points that turn bad shapes and null buffers into clear errors.
#pragma once
#include <span>
#include <string>

#include "kernels/affine/affine.h"
#include "kernels/common/variant.h"

namespace nnuelab::affine {

struct Variant {
  VariantInfo info;
  const char* (*supports)(const Shape&);
  void (*prepare)(const Canonical&, Packed&);
  void (*unpack)(const Packed&, std::int8_t*, std::int32_t*);
  void (*run)(const Packed&, const std::uint8_t*, std::int32_t*);
  // Takes the producer's nnz bitset instead of scanning the input (nullptr when the
  // technique cannot: only NNUELAB_VARIANT_BITS rows have it).
  void (*run_bits)(const Packed&, const std::uint8_t*, const std::uint64_t*, std::int32_t*) = nullptr;
  // The list walk given the list of non-zero chunks (nullptr unless the technique walks
  // one: the table-list forms, x86 and NEON). The same kernel for every way of building
  // the list, so it times the dots of a call without its nnz extraction.
  RunList run_list = nullptr;
};

std::span<const Variant> variants();

std::string shape_name(const Shape& s);  // "1024x32"
// "<op>/<isa>/<technique>_from_bits": how the benchmarks and the regression gate name a
// variant's run_bits path (given a producer's nnz bitset); not a registry name.
std::string from_bits_name(const Variant& v);
// "<op>/<isa>/<technique>_from_list": the same for run_list (given the chunk list).
std::string from_list_name(const Variant& v);

// Empty when the variant supports the shape, else why not (the op's own limits
// 1 <= in <= 65536, 1 <= out <= 65536 included). A variant this CPU cannot run is
// refused before any of its functions is called: supports() is ISA code as well, and
// may use instructions (BMI2 shifts, VEX moves) the CPU lacks.
std::string why_unsupported(const Variant& v, const Shape& s);

// Validates, then prepares. Throws std::invalid_argument naming the variant and reason.
Packed prepare(const Variant& v, const Canonical& canonical);

// Validates buffers and that `packed` was prepared for this shape, then runs.
void run(const Variant& v, const Packed& packed, const std::uint8_t* input, std::int32_t* output);
// The same with the input's nnz bitset from its producer (bit c of bits[c / 64] set for
// every non-zero 4-byte chunk c; ceil(in / 4 / 64) words). A set bit for a zero chunk
// costs a wasted dot, a missing bit for a non-zero chunk drops it: the producer's tests
// prove its bitset exact. Throws for variants without run_bits.
void run_with_bits(const Variant& v, const Packed& packed, const std::uint8_t* input, const std::uint64_t* bits,
                   std::int32_t* output);
// The same given the list of the input's non-zero 4-byte chunks: list[0..count) strictly
// ascending chunk indices below in / 4 (as find_nnz's chunk form writes them; checked
// here, not in the kernel). A listed zero chunk costs a wasted dot, an unlisted non-zero
// one is dropped. Throws for variants without run_list and for a list out of order or
// range.
void run_with_list(const Variant& v, const Packed& packed, const std::uint8_t* input, const std::uint16_t* list,
                   int count, std::int32_t* output);

}  // namespace nnuelab::affine
