// Real data from ../shared/data (Stockfish nets, positions, recorded traces).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workloads/synthetic.h"

namespace nnuelab::workloads {

// A whole file's bytes. Throws std::runtime_error "<what> <path>: <why>" (`what`: "net",
// "trace", ...) when it does not exist or cannot be opened, is a folder (which opens as a
// stream on Linux and fails on the first read), or a read fails part way.
std::vector<std::uint8_t> read_file_bytes(const std::string& path, const std::string& what);

// The data folder: $NNUELAB_DATA if set, else <source tree>/../shared/data; nullopt (with
// the reason in *why) when it does not exist. Tests that need it skip with that reason.
std::optional<std::string> data_dir(std::string* why = nullptr);

// The first-affine-layer inputs recorded for a net: <data>/traces/<net>.u8, raw rows of
// `width` bytes (one per position of positions.epd), replayed in file order.
// Throws std::runtime_error naming the file when it is missing or not a whole number of rows.
InputPool load_trace_pool(const std::string& net, int width);
InputPool load_trace_file(const std::string& path, int width);

// Where `./lab trace` writes the traces it records: $NNUELAB_TRACES, else
// <source tree>/results/traces. Files are named <net>.L1-<width>.u8.
std::string traces_dir();

struct TraceFile {
  std::string net;   // "nn-5af11540bbfe"
  std::string tag;   // "5af11540bbfe": the benchmarks' density kind is real-<tag>
  std::string path;
  int width = 0;     // L1
};
// Every trace to replay: the ones Stockfish recorded in <data>/traces (preferred), then
// the ones `./lab trace` wrote for other nets. Empty when there are none.
std::vector<TraceFile> find_traces();

}  // namespace nnuelab::workloads
