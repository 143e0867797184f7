// What every registered variant declares, and how consumers pick variants.
// Scalar-side header: never included by ISA-compiled files.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/common/cpu.h"

namespace nnuelab {

struct VariantInfo {
  std::string name;       // "<op>/<isa>/<technique>", e.g. "affine/avx2/dense_rows4"
  std::string op;         // "affine"
  std::string isa;        // "avx2", "avx512vnni-emu", "scalar"
  std::string technique;  // "dense_rows4"
  std::string note;       // what the variant is for, what it could not do
  Features needs = 0;  // CPU features needed to run it (0 for -emu builds)
  bool emulated = false;  // built against SIMDe: tested, never quoted as speed
  // An xsimd build (xsimd-<arch>, xsimd): the portable comparison column. Registered after
  // the intrinsic variants, so "last available in registry order" pickers skip it; it runs
  // in programs only when named or forced.
  bool portable = false;

  // This CPU has every required feature (inline: every checked call asks first).
  bool available() const { return (cpu_features() & needs) == needs; }
  std::string missing() const;   // names of the required features this CPU lacks
};

// Builds the info of a registry line: `ns` is the ISA namespace (avx512vnni_emu), whose
// display form replaces '_' by '-' (avx512vnni-emu).
VariantInfo make_variant_info(std::string_view op, std::string_view ns,
                              std::string_view technique, std::string_view note);

// CPU features an ISA build needs ("avx2" -> avx,avx2,bmi1,bmi2,fma,...); 0 for "-emu".
Features isa_features(std::string_view isa);
// Compiler flags of an ISA build as configured by cmake/isa.cmake.
std::string isa_flags(std::string_view isa);
// Every ISA in the table, in table order.
std::vector<std::string> isa_names();

// NNUELAB_FORCE_VARIANT, when set and non-empty (read once per process).
std::optional<std::string> forced_variant();

// Every registered variant of every op (for ./lab list and for checking a forced name).
std::vector<const VariantInfo*> all_variants();

// Throws std::runtime_error with a clear message when NNUELAB_FORCE_VARIANT names no
// registered variant, or one this CPU cannot run.
void check_forced_variant();

// The variants consumers (tests, benchmarks) should use for one op: all of them, or when
// NNUELAB_FORCE_VARIANT is set, only the forced one (none for the other ops).
template <class V>
std::vector<const V*> selected_variants(std::span<const V> all) {
  check_forced_variant();
  std::vector<const V*> out;
  const auto forced = forced_variant();
  for (const V& v : all)
    if (!forced || v.info.name == *forced) out.push_back(&v);
  return out;
}

// The variant a program should run for an op: the forced one, or else the last available
// native variant in registry order (registries list techniques from baseline to best).
// `accepts(v)`: the caller's shape check (why_unsupported(v, shape).empty()), so that a
// variant refusing this shape (an AVX-512 kernel needing n % 64 == 0 for n = 32) is never
// the choice; a forced variant is returned as is and refuses through the checked entry.
template <class V, class Accepts>
const V& active_variant(std::span<const V> all, Accepts accepts) {
  check_forced_variant();
  const auto forced = forced_variant();
  // A *_bits producer needs a bitset buffer its caller may not have, and a lane-ordered
  // one a next layer prepared for its order: either is chosen only when forced.
  auto eligible = [&](const V& v) {
    if constexpr (requires { v.writes_bits; })
      if (v.writes_bits) return false;
    if constexpr (requires { v.order_lanes; })
      if (v.order_lanes != 1) return false;
    return v.info.available() && !v.info.emulated && !v.info.portable && accepts(v);
  };
  const V* best = nullptr;
  for (const V& v : all) {
    if (forced && v.info.name == *forced) return v;
    // Without a forced name, or when it belongs to another op: this op's best variant.
    if (eligible(v)) best = &v;
  }
  if (!best) throw std::runtime_error("no runnable variant registered accepts this shape");
  return *best;
}

template <class V>
const V& active_variant(std::span<const V> all) {
  return active_variant(all, [](const V&) { return true; });
}

// Whether p sits on a multiple of its element's alignment (null does).
template <class T>
bool element_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0;
}

// Pointer arguments of the checked entry points: no variant needs more than the element's
// own alignment (every vector load and store of a caller's buffer is unaligned; aligned
// loads touch only the lab's own 64-byte aligned tables and packed weights), but the
// scalar forms and tails dereference T* directly, where a misaligned T* is undefined.
// Throws std::invalid_argument "<who>: <name> is not aligned to its N-byte elements
// (address ending in A mod 64)".
template <class T>
void check_element_aligned(const std::string& who, const T* p, const char* name) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (!element_aligned(p))
    throw std::invalid_argument(who + ": " + name + " is not aligned to its " + std::to_string(alignof(T)) +
                                "-byte elements (address ending in " + std::to_string(at % 64) + " mod 64)");
}

template <class V>
const V* find_variant(std::span<const V> all, std::string_view name) {
  for (const V& v : all)
    if (v.info.name == name) return &v;
  return nullptr;
}

}  // namespace nnuelab
