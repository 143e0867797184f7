// nnuelab_eval: evaluate positions with a real Stockfish net through the lab's kernels.
//   nnuelab_eval --net FILE|L1 --fen FEN [--layers] [--preset fast|reference] [--layer L=VARIANT ...]
//   nnuelab_eval --net FILE|L1 --epd FILE [--trace OUT.u8] [...]
// --trace writes the first affine layer's input (L1 bytes per position, side to move half
// first) of every EPD line, in order: the real-data series of the benchmarks. A --trace
// ending in '/' is a folder: the file is <folder><net>.L1-<L1>.u8 (printed on stderr).
// --permute-from TRACE regroups the transformer's neurons by co-activation in
// TRACE (a trace of this net, see neurons_by_activity) before evaluating: same values, fewer non-zero chunks;
// traced files are then named <net>-perm.L1-<L1>.u8.
// --net 1536 means the L1 = 1536 net of ../shared/data. Prints the side-to-move value
// ((psqt + positional) / 16, truncated, as Stockfish 15.1 and 16 compute it), the bucket,
// and on request every layer's output; the time per layer goes to stderr.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/args.h"
#include "workloads/clock.h"
#include "workloads/data.h"
#include "workloads/engine.h"

using namespace nnuelab::workloads;

namespace {

int usage(const char* why) {
  if (why) std::fprintf(stderr, "nnuelab_eval: %s\n", why);
  std::fprintf(stderr,
               "usage: nnuelab_eval --net FILE|L1 (--fen FEN | --epd FILE) [--layers] [--preset fast|reference]\n"
               "                    [--layer LAYER=VARIANT ...]   layers: ft ft_out fc0 sqr0 crelu0 fc1 crelu1 fc2\n");
  return 2;
}

template <class T, std::size_t N>
void print_row(const char* name, const std::array<T, N>& a, int n = int(N)) {
  std::printf("  %-7s", name);
  for (int i = 0; i < n; ++i) std::printf(" %d", int(a[i]));
  std::printf("\n");
}

void print_times(const LayerTimes& t, const Engine& engine) {
  // Each layer's lap ends in one clock read, which costs about as much as the smallest
  // layers' work (tens of ns on a VM): its median cost is taken off each layer's mean.
  const double clock = clock_read_ns();
  std::vector<double> ns;  // in layer_names() order
  double total = 0;
  for (const auto& l : layer_names()) total += ns.emplace_back(std::max(0.0, t.ns.at(l) / t.evaluations - clock));
  std::fprintf(stderr, "time per layer (mean of %ld evaluations, one clock read of %.1f ns taken off each):\n",
               t.evaluations, clock);
  for (std::size_t i = 0; i < ns.size(); ++i)
    std::fprintf(stderr, "  %-7s %9.1f ns  %5.1f%%  %s\n", layer_names()[i].c_str(), ns[i],
                 total > 0 ? 100 * ns[i] / total : 0.0, engine.choice().at(layer_names()[i]).c_str());
  std::fprintf(stderr, "  total   %9.1f ns  (%.0f positions/s)\n", total, total > 0 ? 1e9 / total : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string net_arg, fen, epd, trace, permute_from, preset = "fast";
  bool layers = false;
  LayerChoice extra;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--net") net_arg = value();
      else if (a == "--fen") fen = value();
      else if (a == "--epd") epd = value();
      else if (a == "--preset") preset = value();
      else if (a == "--trace") trace = value();
      else if (a == "--permute-from") permute_from = value();
      else if (a == "--layers") layers = true;
      else if (a == "--layer") {
        const std::string v = value();
        const auto eq = v.find('=');
        if (eq == std::string::npos) return usage("--layer wants LAYER=VARIANT");
        extra[v.substr(0, eq)] = v.substr(eq + 1);
      } else if (a == "-h" || a == "--help") return usage(nullptr), 0;
      else return usage(("unknown argument " + a).c_str());
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  if (net_arg.empty() || (fen.empty() == epd.empty())) return usage("give --net and exactly one of --fen / --epd");
  if (!trace.empty() && epd.empty()) return usage("--trace goes with --epd");
  try {
    std::string path = net_arg;
    if (!net_arg.empty() && std::all_of(net_arg.begin(), net_arg.end(), ::isdigit)) {
      std::string why;
      const auto found = find_net(int(nnuelab::tools::whole_number("--net", net_arg, 1, 1 << 20)), &why);
      if (!found) throw std::runtime_error("--net " + net_arg + ": " + why);
      path = *found;
    }
    Network net = load_network(path);
    if (!permute_from.empty()) {
      const std::vector<std::uint8_t> rows = read_file_bytes(permute_from, "trace");
      permute_ft_neurons(net, neurons_by_activity(rows, net.l1));
      net.name = (net.name.ends_with(".nnue") ? net.name.substr(0, net.name.size() - 5) : net.name) + "-perm.nnue";
    }
    LayerChoice choice = layer_preset(preset);
    for (const auto& [l, v] : extra) choice[l] = v;
    const Engine engine(net, choice);
    LayerTimes times;
    if (!fen.empty()) {
      const Position pos = parse_fen(fen);
      Evaluation e = engine.evaluate(pos);
      for (int i = 0; i < 999; ++i) engine.evaluate(pos, &times);  // timing: the same position, warm
      std::printf("net %s (L1 = %d)\nbucket %d\npsqt %d\npositional %d\nvalue %d (side to move, internal units; /208 ~ pawns)\n",
                  net.name.c_str(), net.l1, e.bucket, e.psqt, e.positional, e.value);
      if (layers) {
        std::printf("layers:\n  ft_out  %zu bytes, %ld non-zero\n", e.ft_out.size(),
                    long(std::count_if(e.ft_out.begin(), e.ft_out.end(), [](auto b) { return b != 0; })));
        print_row("fc0", e.fc0);
        print_row("ac0", e.ac0, 2 * (kFc0Out - 1));
        print_row("fc1", e.fc1);
        print_row("ac1", e.ac1);
        std::printf("  fc2     %d\n", e.fc2);
      }
      print_times(times, engine);
      return 0;
    }
    if (std::filesystem::is_directory(epd)) throw std::runtime_error("--epd " + epd + ": is a folder, not a file");
    std::ifstream f(epd);
    if (!f) throw std::runtime_error("cannot read " + epd);
    std::ofstream out;
    if (!trace.empty()) {
      if (trace.back() == '/') {
        const std::string stem = net.name.ends_with(".nnue") ? net.name.substr(0, net.name.size() - 5) : net.name;
        trace += stem + ".L1-" + std::to_string(net.l1) + ".u8";
      }
      std::fprintf(stderr, "trace: %s\n", trace.c_str());
      out.open(trace, std::ios::binary);
      if (!out) throw std::runtime_error("cannot write " + trace);
    }
    std::string line;
    long lineno = 0, positions = 0;
    while (std::getline(f, line)) {
      ++lineno;
      if (line.empty() || line[0] == '#') continue;
      ++positions;
      Position pos;
      try {
        pos = parse_fen(line);
      } catch (const FenError& e) {
        throw std::runtime_error(epd + ":" + std::to_string(lineno) + ": " + e.what());
      }
      const Evaluation e = engine.evaluate(pos, &times);
      if (out.is_open()) out.write(reinterpret_cast<const char*>(e.ft_out.data()), std::streamsize(e.ft_out.size()));
      // The line as given (an EPD line's operations, if any, included); the header before
      // the first one, so a file of no position prints only its error.
      if (positions == 1) std::printf("fen\tbucket\tpsqt\tpositional\tvalue\n");
      std::printf("%s\t%d\t%d\t%d\t%d\n", line.c_str(), e.bucket, e.psqt, e.positional, e.value);
    }
    // A file of no position is no evaluation (and would leave an empty trace): refused.
    if (f.bad()) throw std::runtime_error("read error on " + epd);
    if (positions == 0) throw std::runtime_error(epd + ": no position (empty, or only blank and # lines)");
    if (out.is_open() && !out.flush()) throw std::runtime_error("write error on " + trace);
    if (times.evaluations) print_times(times, engine);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnuelab_eval: %s\n", e.what());
    return 1;
  }
  return 0;
}
