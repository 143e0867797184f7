// The dot_u8i8 registry: every variant of kernels/dot_u8i8/dot_u8i8.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/dot_u8i8/dot_u8i8.h"

namespace nnuelab::dot_u8i8 {

struct Variant {
  VariantInfo info;
  Semantics semantics;  // from the technique's name prefix
  const char* (*supports)(const Shape&);
  void (*run)(const Shape&, std::int32_t*, const std::uint8_t*, const std::int8_t*, const std::uint8_t*,
              const std::int8_t*);
};

std::span<const Variant> variants();
std::string shape_name(const Shape& s);  // "<groups>"
// The semantics a technique name declares (prefix dpbusds, dpbusd, maddubs_x2, maddubs);
// throws std::logic_error for a name with none of them.
Semantics semantics_of(const std::string& technique);
std::string why_unsupported(const Variant& v, const Shape& s);
void run(const Variant& v, const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
         const std::uint8_t* u2, const std::int8_t* w2);

// A peak kernel of kernels/dot_u8i8/peak.inc: not a variant of the op (no contract, no
// semantics), the yardstick of the machine's int8 MAC rate per ISA. bench/peak.h times them.
struct PeakKernel {
  VariantInfo info;  // name "peak/<isa>/<instruction>"; needs, available(), emulated as for variants
  int chains;        // independent accumulator chains
  // Runs `rounds` rounds (every chain advanced once per round); returns the int8 MACs done.
  // Call only when info.available(); an emulated kernel runs, but its time means nothing.
  std::int64_t (*run)(std::int64_t rounds);
};
std::span<const PeakKernel> peak_kernels();

}  // namespace nnuelab::dot_u8i8
