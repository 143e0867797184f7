#include "kernels/common/variant.h"

#include <cstdlib>

#include "nnuelab_config.h"

namespace nnuelab {
namespace {

constexpr Features kAvx2Set = kSSE2 | kSSSE3 | kSSE41 | kSSE42 | kPOPCNT | kAVX | kAVX2 |
                              kBMI1 | kBMI2 | kFMA;
constexpr Features kAvx512Set = kAvx2Set | kAVX512F | kAVX512BW | kAVX512VL | kAVX512DQ;

struct IsaRow {
  const char* name;
  Features needs;
};
// Mirrors the ISA table of cmake/isa.cmake (its flags are in nnuelab_config.h).
constexpr IsaRow kIsas[] = {
    {"scalar", 0},
    {"sse2", kSSE2},
    {"ssse3", kSSE2 | kSSSE3},
    {"sse41", kSSE2 | kSSSE3 | kSSE41},
    {"avx2", kAvx2Set},
    {"avx512bw", kAvx512Set},
    {"avx512vnni", kAvx512Set | kAVX512VNNI},
    {"avx512vbmi2", kAvx512Set | kAVX512VNNI | kAVX512VBMI2},
    {"avxvnni", kAvx2Set | kAVXVNNI},
    {"neon", kNEON},
    {"neon-dotprod", kNEON | kNEON_DOTPROD},
    {"neon-i8mm", kNEON | kNEON_DOTPROD | kNEON_I8MM},
    // xsimd builds (kernels/<op>/xsimd.cpp): the same CPU features as the intrinsic ISA
    // with the same flags. The `xsimd` front end dispatches over the xsimd builds of this
    // target, so it needs the least of them (on x86 xsimd-sse41; on arm xsimd-neon).
    {"xsimd-sse41", kSSE2 | kSSSE3 | kSSE41},
    {"xsimd-avx2", kAvx2Set},
    {"xsimd-neon", kNEON},
#if defined(__aarch64__)
    {"xsimd", kNEON},
#else
    {"xsimd", kSSE2 | kSSSE3 | kSSE41},
#endif
};

struct FlagRow {
  const char* isa;
  const char* flags;
};
constexpr FlagRow kFlags[] = {NNUELAB_ISA_FLAG_ROWS};

}  // namespace

std::string VariantInfo::missing() const { return feature_names(needs & ~cpu_features()); }

Features isa_features(std::string_view isa) {
  if (isa.ends_with("-emu")) return 0;
  for (const IsaRow& r : kIsas)
    if (isa == r.name) return r.needs;
  throw std::logic_error("isa_features: ISA '" + std::string(isa) + "' is not in the table");
}

std::string isa_flags(std::string_view isa) {
  if (isa.ends_with("-emu")) return "(none: SIMDe emulation)";
  for (const FlagRow& r : kFlags)
    if (isa == r.isa) return r.flags;
  return "";
}

std::vector<std::string> isa_names() {
  std::vector<std::string> out;
  for (const IsaRow& r : kIsas) out.emplace_back(r.name);
  return out;
}

VariantInfo make_variant_info(std::string_view op, std::string_view ns,
                              std::string_view technique, std::string_view note) {
  VariantInfo v;
  v.op = op;
  v.isa = ns;
  for (char& c : v.isa)
    if (c == '_') c = '-';
  v.technique = technique;
  v.note = note;
  v.name = v.op + "/" + v.isa + "/" + v.technique;
  v.emulated = v.isa.ends_with("-emu");
  v.portable = v.isa == "xsimd" || v.isa.starts_with("xsimd-");
  v.needs = isa_features(v.isa);
  return v;
}

// Both are read once per process: dispatch (run_active) consults them on every call.
std::optional<std::string> forced_variant() {
  static const std::optional<std::string> forced = []() -> std::optional<std::string> {
    const char* env = std::getenv("NNUELAB_FORCE_VARIANT");
    if (!env || !*env) return std::nullopt;
    return std::string(env);
  }();
  return forced;
}

void check_forced_variant() {
  static const std::string error = [] {
    const auto forced = forced_variant();
    if (!forced) return std::string();
    for (const VariantInfo* v : all_variants()) {
      if (v->name != *forced) continue;
      if (!v->available())
        return "NNUELAB_FORCE_VARIANT=" + *forced + " cannot run on this CPU: it needs " + v->missing();
      return std::string();
    }
    return "NNUELAB_FORCE_VARIANT=" + *forced + " is not a registered variant (./lab list shows them)";
  }();
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace nnuelab
