// nnuelab_bench [--grid=quick|full] [Google Benchmark flags]
// Registers every op x variant x shape x density at run time from the registries.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "bench/harness.h"
#include "bench/register.h"

int main(int argc, char** argv) {
  using namespace nnuelab;
  // Our own flag first; everything else goes to Google Benchmark.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--grid=full") == 0) {
      bench::set_grid(bench::Grid::kFull);
    } else if (std::strcmp(argv[i], "--grid=quick") == 0) {
      bench::set_grid(bench::Grid::kQuick);
    } else if (std::strncmp(argv[i], "--grid", 6) == 0) {
      std::fprintf(stderr, "nnuelab_bench: unknown %s (use --grid=quick or --grid=full)\n", argv[i]);
      return 2;
    } else {
      // Peek at the minimum time: the harness scales it per benchmark (see harness.h).
      if (std::strncmp(argv[i], "--benchmark_min_time=", 21) == 0) bench::set_min_time(std::atof(argv[i] + 21));
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  try {
    check_forced_variant();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    bench::add_context();
    bench::register_affine();
    bench::register_activations();
    bench::register_find_nnz();
    bench::register_dot_u8i8();
    bench::register_ft();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
