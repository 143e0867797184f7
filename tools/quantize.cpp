// nnuelab_quantize (./lab quantize): how far the clipping scalars NNUE uses and naive
// max-scaling are from the MSE-optimal one, found by OCTAV's fixed point, and from a
// brute-force sweep. For each tensor and bit width B:
//   max     s = max|x|
//   nnue    the NNUE constant (127/64 for fc_0/fc_1 and synthetic tensors, 127^2/9600 for fc_2,
//           32767/127 for the transformer) at this B
//   octav   s* of the fixed point matched to the quantizer (noise 1/(12 L^2)), and its
//           iterations from s0 = max|x|
//   written s* of the formula as written (noise 4^-B/3), measured on the same quantizer
//   sweep   the best s of ref::quantize_sym_sweep over (0, 1.25 max|x|]: --coarse points (500),
//           then --fine points (500) over the two coarse intervals around the best
// Every MSE is the actual MSE of the `quantize` op's quantizer (symmetric, L = 2^(B-1) - 1
// levels a side, step s / L, ties to even; ref::quantize_sym_mse), mean over all elements.
//   nnuelab_quantize [--net L1 ...] [--layers fc0,fc1,ft] [--bucket K] [--synthetic LIST]
//                    [--n N] [--bits 4,6,8] [--ft-max N] [--coarse K] [--fine K] [--csv DIR]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/octav_step/registry.h"
#include "reference/octav.h"
#include "reference/octav_tensors.h"
#include "tools/args.h"
#include "workloads/nnue.h"

using namespace nnuelab;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "nnuelab_quantize: %s\n", what.c_str());
  std::exit(2);
}

struct Row {
  std::string tensor;
  std::size_t n;
  int bits;
  double max_s, max_mse, nnue_s, nnue_mse, octav_s, octav_mse, written_s, written_mse, sweep_s, sweep_mse;
  int iterations;
  double t_octav, t_sweep;
  int sweep_evals;
};

struct Options {
  std::vector<int> nets = {128, 1024};
  std::vector<std::string> layers = {"fc0", "fc1", "ft"}, synth = {"gaussian", "laplace", "uniform", "sparse"};
  std::vector<int> bits_list = {4, 6, 8};
  int bucket = 7, coarse = 500, fine = 500;
  std::size_t n_synth = 1 << 20, ft_max = 1 << 20;
  std::string csv_dir;
};

// The command line; a bad argument ends the program here (exit 2, the reason), --help too.
Options parse(int argc, char** argv) {
  Options o;
  bool nets_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    try {
      using tools::whole_number;
      if (a == "--net") {
        if (!nets_given) o.nets.clear();
        nets_given = true, o.nets.push_back(int(whole_number(a, val(), 1, 1 << 20)));
      } else if (a == "--no-nets") nets_given = true, o.nets.clear();
      else if (a == "--layers") o.layers = split(val());
      else if (a == "--bucket") o.bucket = int(whole_number(a, val(), 0, 7));
      else if (a == "--synthetic") o.synth = split(val());
      else if (a == "--no-synthetic") o.synth.clear();
      else if (a == "--n") o.n_synth = std::size_t(whole_number(a, val(), 1, 1LL << 30));
      else if (a == "--bits") {
        o.bits_list.clear();
        for (auto& b : split(val())) o.bits_list.push_back(int(whole_number("--bits (each)", b, 2, 16)));
        if (o.bits_list.empty()) usage_error("--bits needs at least one bit width");
      } else if (a == "--ft-max") o.ft_max = std::size_t(whole_number(a, val(), 0, 1LL << 40));
      else if (a == "--coarse") o.coarse = int(whole_number(a, val(), 1, 10'000'000));
      else if (a == "--fine") o.fine = int(whole_number(a, val(), 1, 10'000'000));
      else if (a == "--csv") o.csv_dir = val();
      else if (a == "-h" || a == "--help") {
        std::puts("nnuelab_quantize [--net L1 ...|--no-nets] [--layers fc0,fc1,fc2,ft] [--bucket 0..7]\n"
                  "                 [--synthetic gaussian,laplace,uniform,sparse|--no-synthetic] [--n N]\n"
                  "                 [--bits 4,6,8] [--ft-max N (0: all)] [--coarse K] [--fine K] [--csv DIR]");
        std::exit(0);
      } else usage_error("unknown argument " + a + " (--help)");
    } catch (const std::invalid_argument& e) {
      usage_error(e.what());
    }
  }
  if (o.nets.empty() && o.synth.empty()) usage_error("nothing to quantize: --no-nets and --no-synthetic");
  // Refused before the minutes of work, not after them.
  if (!o.csv_dir.empty() && (!std::filesystem::is_directory(o.csv_dir) || access(o.csv_dir.c_str(), W_OK) != 0))
    usage_error("--csv " + o.csv_dir + ": not a folder this user can write to");
  return o;
}

int run(const Options& o) {
  const auto& [nets, layers, synth, bits_list, bucket, coarse, fine, n_synth, ft_max, csv_dir] = o;
  std::vector<octav_tensors::Tensor> tensors;
  for (const auto& k : synth) {
    try {
      tensors.push_back(octav_tensors::synthetic(k, n_synth, 0x0c7a5eed + tensors.size()));
    } catch (const std::exception& e) {
      usage_error(e.what());
    }
  }
  for (int l1 : nets) {
    std::string why;
    const auto path = workloads::find_net(l1, &why);
    if (!path) {
      std::fprintf(stderr, "nnuelab_quantize: no L1 = %d net (%s): its layers are left out\n", l1, why.c_str());
      continue;
    }
    const workloads::Network net = workloads::load_network(*path);
    for (const auto& layer : layers) {
      try {
        tensors.push_back(octav_tensors::real_layer(net, layer, bucket, ft_max));
      } catch (const std::exception& e) {
        usage_error(e.what());
      }
    }
  }

  const auto& step = octav_step::active();
  std::printf("octav_step variant: %s; MSE: the symmetric quantizer (L = 2^(B-1)-1, step s/L, ties to even)\n",
              step.info.name.c_str());
  std::printf("%-22s %8s %2s | %9s %9s | %8s %9s | %8s %9s %3s | %8s %9s | %8s %9s %7s | %8s %8s\n", "tensor", "n", "B",
              "max s", "max MSE", "nnue s", "nnue MSE", "octav s*", "octav MSE", "it", "4^-B/3 s", "MSE",
              "sweep s", "sweep MSE", "gap %", "t_octav", "t_sweep");
  std::vector<Row> rows;
  for (const auto& t : tensors) {
    const float* x = t.x.data();
    const std::size_t n = t.x.size();
    double max_abs = 0;
    for (float v : t.x) max_abs = std::max(max_abs, double(std::fabs(v)));
    if (!(max_abs > 0)) {
      // Every scalar quantizes zeros exactly: nothing to choose (and s = 0 is no quantizer).
      std::printf("%-22s %8zu    all zeros: no clipping scalar to choose, left out\n", t.name.c_str(), n);
      continue;
    }
    std::vector<int> bl = bits_list;
    if (std::find(bl.begin(), bl.end(), t.nnue_bits) == bl.end() && t.nnue_bits == 16) bl.push_back(16);
    for (int bits : bl) {
      Row r{};
      r.tensor = t.name, r.n = n, r.bits = bits;
      r.max_s = max_abs;
      r.max_mse = ref::quantize_sym_mse(x, n, float(max_abs), bits);
      r.nnue_s = t.nnue_s;
      r.nnue_mse = ref::quantize_sym_mse(x, n, float(t.nnue_s), bits);
      const double noise = ref::octav_noise(bits, ref::OctavNoise::kSymmetric);
      // Median of 5 timings (the solve includes its one validation pass over the tensor).
      std::vector<double> times;
      octav_step::Solution sol;
      for (int rep = 0; rep < 5; ++rep) {
        const double t0 = now_s();
        sol = octav_step::solve(step, x, n, noise, max_abs);
        times.push_back(now_s() - t0);
      }
      std::sort(times.begin(), times.end());
      r.t_octav = times[2];
      r.octav_s = sol.s, r.iterations = sol.iterations;
      r.octav_mse = ref::quantize_sym_mse(x, n, float(sol.s), bits);
      const auto w = octav_step::solve(step, x, n, ref::octav_noise(bits, ref::OctavNoise::kWritten), max_abs);
      r.written_s = w.s;
      r.written_mse = ref::quantize_sym_mse(x, n, float(w.s), bits);
      const double t0 = now_s();
      const auto sw = ref::quantize_sym_sweep(x, n, bits, 1.25 * max_abs, coarse, fine);
      r.t_sweep = now_s() - t0;
      r.sweep_s = sw.s, r.sweep_mse = sw.mse, r.sweep_evals = sw.evaluations;
      const double gap = r.sweep_mse > 0 ? 100.0 * (r.octav_mse / r.sweep_mse - 1.0) : INFINITY;
      std::printf("%-22s %8zu %2d | %9.4g %9.3e | %8.4g %9.3e | %8.4g %9.3e %3d | %8.4g %9.3e | %8.4g %9.3e %7.3f | %7.2fms %7.0fms\n",
                  r.tensor.c_str(), n, bits, r.max_s, r.max_mse, r.nnue_s, r.nnue_mse, r.octav_s, r.octav_mse,
                  r.iterations, r.written_s, r.written_mse, r.sweep_s, r.sweep_mse, gap, 1e3 * r.t_octav,
                  1e3 * r.t_sweep);
      if (!sol.converged) std::printf("  (OCTAV did not converge in 100 iterations)\n");
      std::fflush(stdout);
      rows.push_back(r);
    }
  }
  std::printf("gap %%: OCTAV's MSE over the sweep's best, minus 1 (negative: OCTAV beat the sweep grid)\n");

  if (!csv_dir.empty()) {
    std::ofstream f(csv_dir + "/octav_table.csv");
    if (!f) usage_error("cannot write " + csv_dir + "/octav_table.csv");
    f << "tensor,n,bits,max_s,max_mse,nnue_s,nnue_mse,octav_s,octav_mse,iterations,written_s,written_mse,"
         "sweep_s,sweep_mse,sweep_evals,t_octav_s,t_sweep_s\n";
    f.precision(9);
    for (const auto& r : rows)
      f << r.tensor << ',' << r.n << ',' << r.bits << ',' << r.max_s << ',' << r.max_mse << ',' << r.nnue_s << ','
        << r.nnue_mse << ',' << r.octav_s << ',' << r.octav_mse << ',' << r.iterations << ',' << r.written_s << ','
        << r.written_mse << ',' << r.sweep_s << ',' << r.sweep_mse << ',' << r.sweep_evals << ',' << r.t_octav << ','
        << r.t_sweep << '\n';
    // MSE vs s curves (400 points over (0, 1.25 max|x|], extended to 1.1x the NNUE constant
    // when that is within 3 max|x|) of every tensor at every B.
    std::ofstream c(csv_dir + "/octav_curves.csv");
    c << "tensor,bits,s,mse\n";
    c.precision(9);
    for (const auto& t : tensors) {
      double max_abs = 0;
      for (float v : t.x) max_abs = std::max(max_abs, double(std::fabs(v)));
      if (!(max_abs > 0)) continue;  // all zeros: no curve either
      const double hi = t.nnue_s < 3 * max_abs ? std::max(1.25 * max_abs, 1.1 * t.nnue_s) : 1.25 * max_abs;
      for (int bits : bits_list)
        for (int k = 1; k <= 400; ++k) {
          const double s = hi * k / 400;
          c << t.name << ',' << bits << ',' << s << ',' << ref::quantize_sym_mse(t.x.data(), t.x.size(), float(s), bits)
            << '\n';
        }
    }
    std::fprintf(stderr, "wrote %s/octav_table.csv and octav_curves.csv\n", csv_dir.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    // A corrupt net file, an L1 with no net, memory: said, not an abort.
    std::fprintf(stderr, "nnuelab_quantize: %s\n", e.what());
    return 1;
  }
}
