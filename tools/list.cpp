// ./lab list: every registered variant, whether this CPU runs it, and what it is for; then
// the yardsticks the benchmarks time beside them (peak and floor kernels, not variants).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "kernels/common/variant.h"
#include "kernels/dot_u8i8/registry.h"
#include "kernels/ft_refresh/registry.h"

namespace {

using namespace nnuelab;

const char kUsage[] =
    "usage: nnuelab_list [-v] [--variants-only] [OP ...]\n"
    "  every variant (of the named ops only, when given) and whether this CPU runs it;\n"
    "  -v adds each one's note. The ops 'peak' and 'floor' name the yardsticks: the\n"
    "  per-ISA MAC peak kernels and the refresh's rows-read floors (listed after the\n"
    "  variants when no op is named; 'peak floor' lists them alone). --variants-only\n"
    "  leaves the yardsticks out.\n";

std::string status_of(const VariantInfo& v) {
  if (!v.available()) return "unavailable: needs " + v.missing();
  return v.emulated ? "emulated (SIMDe): tested, not timed as speed" : "available";
}

void print(const VariantInfo& v, bool verbose) {
  std::printf("%-44s %s\n", v.name.c_str(), status_of(v).c_str());
  if (verbose) std::printf("    %s\n", v.note.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false, variants_only = false;
  const std::set<std::string> yardstick_ops = {"peak", "floor"};
  std::set<std::string> ops;
  std::set<std::string> known = yardstick_ops;
  for (const VariantInfo* v : all_variants()) known.insert(v->op);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-v") {
      verbose = true;
    } else if (a == "--variants-only") {
      variants_only = true;
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (!a.empty() && a[0] != '-' && known.count(a)) {
      ops.insert(a);
    } else {
      std::string names;
      for (const std::string& k : known) names += (names.empty() ? "" : " ") + k;
      std::fprintf(stderr, "nnuelab_list: %s '%s' (ops: %s)\n%s", a[0] == '-' ? "unknown option" : "no op named",
                   a.c_str(), names.c_str(), kUsage);
      return 2;
    }
  }
  const auto is_yardstick = [&](const std::string& op) { return yardstick_ops.count(op) > 0; };
  if (variants_only && std::any_of(ops.begin(), ops.end(), is_yardstick)) {
    std::fprintf(stderr, "nnuelab_list: --variants-only leaves out the yardsticks 'peak' and 'floor' named with it\n%s", kUsage);
    return 2;
  }
  const auto wanted = [&](const std::string& op) {
    if (variants_only && is_yardstick(op)) return false;
    return ops.empty() || ops.count(op) > 0;
  };
  try {
    const std::string signature = cpu_signature();
    std::printf("CPU: %s%s%s%s\nfeatures: %s\n", cpu_model().c_str(), signature.empty() ? "" : " (",
                signature.c_str(), signature.empty() ? "" : ")", feature_names(cpu_features()).c_str());
    const Features off = cpu_features_detected() & ~cpu_features();
    if (off) std::printf("disabled by NNUELAB_DISABLE_FEATURES: %s\n", feature_names(off).c_str());
    if (auto forced = forced_variant()) std::printf("NNUELAB_FORCE_VARIANT=%s\n", forced->c_str());
    check_forced_variant();
    int runnable = 0, total = 0;
    for (const VariantInfo* v : all_variants()) {
      if (!wanted(v->op)) continue;
      if (total++ == 0) std::printf("\n");
      runnable += v->available();
      print(*v, verbose);
    }
    if (total) std::printf("\n%d of %d variants runnable here\n", runnable, total);
    // The yardsticks: timed by ./lab bench beside the variants, never winners (README,
    // "pct_peak" and the refresh's floors).
    std::vector<const VariantInfo*> sticks;
    if (wanted("peak"))
      for (const dot_u8i8::PeakKernel& k : dot_u8i8::peak_kernels()) sticks.push_back(&k.info);
    if (wanted("floor"))
      for (const ft_refresh::FloorKernel& k : ft_refresh::floor_kernels()) sticks.push_back(&k.info);
    if (!sticks.empty()) {
      std::printf("\nyardsticks (timed by ./lab bench beside the variants; not variants):\n");
      for (const VariantInfo* v : sticks) print(*v, verbose);
      const auto n = std::count_if(sticks.begin(), sticks.end(), [](const VariantInfo* v) { return v->available(); });
      std::printf("\n%ld of %zu yardsticks runnable here\n", long(n), sticks.size());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_list: %s\n", e.what());
    return 1;
  }
  return 0;
}
