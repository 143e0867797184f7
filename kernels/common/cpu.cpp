#include "kernels/common/cpu.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace nnuelab {
namespace {

struct Named {
  Features bit;
  const char* name;
};
constexpr Named kNames[] = {
    {kSSE2, "sse2"},         {kSSSE3, "ssse3"},           {kSSE41, "sse4.1"},
    {kSSE42, "sse4.2"},      {kPOPCNT, "popcnt"},         {kAVX, "avx"},
    {kAVX2, "avx2"},         {kBMI1, "bmi1"},             {kBMI2, "bmi2"},
    {kFMA, "fma"},           {kAVX512F, "avx512f"},       {kAVX512BW, "avx512bw"},
    {kAVX512VL, "avx512vl"}, {kAVX512DQ, "avx512dq"},     {kAVX512VNNI, "avx512vnni"},
    {kAVX512VBMI2, "avx512vbmi2"}, {kAVXVNNI, "avxvnni"}, {kNEON, "neon"},
    {kNEON_DOTPROD, "dotprod"}, {kNEON_I8MM, "i8mm"},
};

#if defined(__x86_64__) || defined(__i386__)
// XGETBV is written as raw bytes so this file needs no -mxsave; it is only executed
// after CPUID reports OSXSAVE.
std::uint64_t xgetbv0() {
  std::uint32_t eax, edx;
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
  return (std::uint64_t(edx) << 32) | eax;
}

Features detect() {
  unsigned a, b, c, d;
  Features f = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  if (d & (1u << 26)) f |= kSSE2;
  if (c & (1u << 9)) f |= kSSSE3;
  if (c & (1u << 19)) f |= kSSE41;
  if (c & (1u << 20)) f |= kSSE42;
  if (c & (1u << 23)) f |= kPOPCNT;
  const bool osxsave = c & (1u << 27);
  const bool avx_cpu = c & (1u << 28);
  const bool fma_cpu = c & (1u << 12);
  // The OS must save the YMM state (XCR0 bits 1, 2) before any VEX instruction is safe,
  // and the opmask/ZMM state (bits 5, 6, 7) before any EVEX instruction.
  const std::uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  const bool os_avx = (xcr0 & 0x6) == 0x6;
  const bool os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
  if (avx_cpu && os_avx) f |= kAVX;
  if (fma_cpu && os_avx) f |= kFMA;
  unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 3)) f |= kBMI1;
    if (b & (1u << 8)) f |= kBMI2;
    if (os_avx && (b & (1u << 5))) f |= kAVX2;
    if (os_avx512) {
      if (b & (1u << 16)) f |= kAVX512F;
      if (b & (1u << 17)) f |= kAVX512DQ;
      if (b & (1u << 30)) f |= kAVX512BW;
      if (b & (1u << 31)) f |= kAVX512VL;
      if (c & (1u << 6)) f |= kAVX512VBMI2;
      if (c & (1u << 11)) f |= kAVX512VNNI;
    }
    unsigned subleaves = a;
    if (subleaves >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      if (os_avx && (a & (1u << 4))) f |= kAVXVNNI;
    }
  }
  return f;
}
#elif defined(__aarch64__)
Features detect() {
  Features f = kNEON;  // Advanced SIMD is mandatory in AArch64
#if defined(__linux__)
  const unsigned long hw = getauxval(AT_HWCAP);
  const unsigned long hw2 = getauxval(AT_HWCAP2);
  if (hw & (1ul << 20)) f |= kNEON_DOTPROD;  // HWCAP_ASIMDDP
  if (hw2 & (1ul << 13)) f |= kNEON_I8MM;    // HWCAP2_I8MM
#endif
  return f;
}
#else
Features detect() { return 0; }
#endif

Features disabled_by_env() {
  const char* env = std::getenv("NNUELAB_DISABLE_FEATURES");
  if (!env || !*env) return 0;
  Features off = 0;
  std::string list = env;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(pos, end - pos);
    if (!name.empty()) {
      Features bit = feature_from_name(name);
      if (!bit)
        throw std::runtime_error("NNUELAB_DISABLE_FEATURES: unknown feature '" + name +
                                 "' (known: " + feature_names(~Features(0)) + ")");
      off |= bit;
    }
    pos = end + 1;
  }
  return off;
}

}  // namespace

Features cpu_features_detected() {
  static const Features f = detect();
  return f;
}

Features cpu_features_once() { return cpu_features_detected() & ~disabled_by_env(); }

std::string feature_names(Features f) {
  std::string out;
  for (const Named& n : kNames) {
    if (f & n.bit) {
      if (!out.empty()) out += ',';
      out += n.name;
    }
  }
  return out;
}

Features feature_from_name(const std::string& name) {
  for (const Named& n : kNames)
    if (name == n.name) return n.bit;
  return 0;
}

namespace {

// The value of a /proc/cpuinfo line "key<tabs> : value" into *value, when the line starts
// with `key` and has one (true); else false, *value untouched.
bool cpuinfo_value(const std::string& line, const char* key, std::string* value) {
  if (line.rfind(key, 0) != 0) return false;
  const auto colon = line.find(':');
  if (colon == std::string::npos) return false;
  const auto from = line.find_first_not_of(" \t", colon + 1);
  if (from == std::string::npos) return false;
  *value = line.substr(from);
  return true;
}

}  // namespace

std::string cpu_model() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[12];
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000, nullptr)) >= 0x80000004u) {
    for (unsigned i = 0; i < 3; ++i)
      __get_cpuid(0x80000002 + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2],
                  &regs[4 * i + 3]);
    char brand[49];
    std::memcpy(brand, regs, 48);
    brand[48] = 0;
    std::string s = brand;
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    if (first != std::string::npos) return s.substr(first, last - first + 1);
  }
#endif
  std::ifstream in("/proc/cpuinfo");
  std::string line, value;
  while (std::getline(in, line))
    for (const char* key : {"model name", "Model", "CPU part"})
      if (cpuinfo_value(line, key, &value)) return value;
  return "unknown CPU";
}

std::string cpu_signature() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d) || a < 1) return "";
  char vendor[13];
  std::memcpy(vendor, &b, 4);  // the vendor string is EBX, EDX, ECX
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  vendor[12] = 0;
  __get_cpuid(1, &a, &b, &c, &d);
  const unsigned stepping = a & 0xf, base_model = (a >> 4) & 0xf, base_family = (a >> 8) & 0xf;
  const unsigned ext_model = (a >> 16) & 0xf, ext_family = (a >> 20) & 0xff;
  const unsigned family = base_family == 0xf ? base_family + ext_family : base_family;
  const unsigned model = base_family == 0x6 || base_family == 0xf ? (ext_model << 4) + base_model : base_model;
  char out[96];
  std::snprintf(out, sizeof out, "%s family %u model %u stepping %u", vendor, family, model, stepping);
  return out;
#else
  // The first core's identification lines of /proc/cpuinfo ("CPU implementer : 0x41", ...).
  std::ifstream in("/proc/cpuinfo");
  std::string line, implementer, part, variant, revision;
  while (std::getline(in, line)) {
    if (implementer.empty()) cpuinfo_value(line, "CPU implementer", &implementer);
    if (part.empty()) cpuinfo_value(line, "CPU part", &part);
    if (variant.empty()) cpuinfo_value(line, "CPU variant", &variant);
    if (revision.empty()) cpuinfo_value(line, "CPU revision", &revision);
  }
  if (implementer.empty() || part.empty()) return "";
  std::string s = "implementer " + implementer + " part " + part;
  if (!variant.empty()) s += " variant " + variant;
  if (!revision.empty()) s += " revision " + revision;
  return s;
#endif
}

}  // namespace nnuelab
