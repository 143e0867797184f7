// ./lab list: every registered variant, whether this CPU runs it, and what it is for.
#include <cstdio>
#include <exception>
#include <string>

#include "kernels/common/variant.h"

int main(int argc, char** argv) {
  using namespace nnuelab;
  const bool verbose = argc > 1 && std::string(argv[1]) == "-v";
  try {
    std::printf("CPU: %s\nfeatures: %s\n", cpu_model().c_str(), feature_names(cpu_features()).c_str());
    const Features off = cpu_features_detected() & ~cpu_features();
    if (off) std::printf("disabled by NNUELAB_DISABLE_FEATURES: %s\n", feature_names(off).c_str());
    if (auto forced = forced_variant()) std::printf("NNUELAB_FORCE_VARIANT=%s\n", forced->c_str());
    check_forced_variant();
    std::printf("\n");
    int runnable = 0, total = 0;
    for (const VariantInfo* v : all_variants()) {
      ++total;
      std::string status;
      if (v->available()) {
        ++runnable;
        status = v->emulated ? "emulated (SIMDe): tested, not timed as speed" : "available";
      } else {
        status = "unavailable: needs " + v->missing();
      }
      std::printf("%-44s %s\n", v->name.c_str(), status.c_str());
      if (verbose) std::printf("    %s\n", v->note.c_str());
    }
    std::printf("\n%d of %d variants runnable here\n", runnable, total);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_list: %s\n", e.what());
    return 1;
  }
  return 0;
}
