// CPU feature detection. Compiled without ISA flags: safe to call on any CPU.
#pragma once
#include <cstdint>
#include <string>

namespace nnuelab {

// One bit per CPU feature a variant can require.
enum Feature : std::uint64_t {
  kSSE2 = 1ull << 0,
  kSSSE3 = 1ull << 1,
  kSSE41 = 1ull << 2,
  kSSE42 = 1ull << 3,
  kPOPCNT = 1ull << 4,
  kAVX = 1ull << 5,
  kAVX2 = 1ull << 6,
  kBMI1 = 1ull << 7,
  kBMI2 = 1ull << 8,
  kFMA = 1ull << 9,
  kAVX512F = 1ull << 10,
  kAVX512BW = 1ull << 11,
  kAVX512VL = 1ull << 12,
  kAVX512DQ = 1ull << 13,
  kAVX512VNNI = 1ull << 14,
  kAVX512VBMI2 = 1ull << 15,
  kAVXVNNI = 1ull << 16,
  kNEON = 1ull << 32,
  kNEON_DOTPROD = 1ull << 33,
  kNEON_I8MM = 1ull << 34,
};
using Features = std::uint64_t;

// Features of this CPU that the OS also enabled (XGETBV for the AVX and AVX-512 register
// state), minus any named in NNUELAB_DISABLE_FEATURES (comma-separated names, e.g.
// "avx512f,avx2"): a way to see what a user on an older CPU sees. Inline, so a checked
// entry point's CPU test (VariantInfo::available) is a load and a compare, not two calls.
Features cpu_features_once();  // computes it (may throw on a bad NNUELAB_DISABLE_FEATURES)
inline Features cpu_features() {
  static const Features f = cpu_features_once();
  return f;
}
// Features detected before NNUELAB_DISABLE_FEATURES is applied.
Features cpu_features_detected();
// "avx2,bmi2" style list; empty string for 0.
std::string feature_names(Features f);
// Parses one name as printed by feature_names; 0 when unknown.
Features feature_from_name(const std::string& name);
// The CPU's brand string (x86 CPUID leaves 0x80000002..4, /proc/cpuinfo elsewhere).
std::string cpu_model();
// Which core this is, beyond the brand string (a VM often reports only "AMD EPYC" or
// "Intel Xeon", the same for every generation): x86 "<vendor> family F model M stepping S"
// from CPUID leaf 1 (display family and model, as /proc/cpuinfo prints them: the extended
// fields added for family 15 and, for the model, families 6 and 15); Linux on ARM
// "implementer 0xII part 0xPPP variant 0xV revision R" from /proc/cpuinfo. Empty when not
// known (another OS, an emulator that hides it).
std::string cpu_signature();

}  // namespace nnuelab
