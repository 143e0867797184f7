#include "workloads/data.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#ifndef NNUELAB_DEFAULT_TRACES_DIR
#define NNUELAB_DEFAULT_TRACES_DIR "results/traces"
#endif
#ifndef NNUELAB_DEFAULT_DATA_DIR
#define NNUELAB_DEFAULT_DATA_DIR "../shared/data"
#endif

namespace nnuelab::workloads {

std::optional<std::string> data_dir(std::string* why) {
  const char* env = std::getenv("NNUELAB_DATA");
  const std::string dir = env && *env ? env : NNUELAB_DEFAULT_DATA_DIR;
  if (std::filesystem::is_directory(dir)) return dir;
  if (why)
    *why = "data folder " + dir + " is missing (set NNUELAB_DATA, or place ../shared/data beside the checkout)";
  return std::nullopt;
}

InputPool load_trace_pool(const std::string& net, int width) {
  std::string why;
  const auto dir = data_dir(&why);
  if (!dir) throw std::runtime_error(why);
  return load_trace_file(*dir + "/traces/" + net + ".u8", width);
}

std::string traces_dir() {
  const char* env = std::getenv("NNUELAB_TRACES");
  return env && *env ? env : NNUELAB_DEFAULT_TRACES_DIR;
}

std::vector<TraceFile> find_traces() {
  namespace fs = std::filesystem;
  std::vector<TraceFile> out;
  auto seen = [&](const std::string& net) {
    for (const auto& t : out)
      if (t.net == net) return true;
    return false;
  };
  // Stockfish's own recordings: the two nets named in the data README.
  if (const auto dir = data_dir())
    for (const auto& [net, width] : {std::pair<const char*, int>{"nn-5af11540bbfe", 1536}, {"nn-1c0000000000", 3072}})
      if (fs::exists(*dir + "/traces/" + net + ".u8")) out.push_back({net, std::string(net).substr(3), *dir + "/traces/" + net + ".u8", width});
  // ./lab trace's recordings: <net>.L1-<width>.u8
  std::error_code ec;
  std::vector<TraceFile> mine;
  for (const auto& e : fs::directory_iterator(traces_dir(), ec)) {
    const std::string name = e.path().filename().string();
    const auto l1 = name.find(".L1-");
    if (l1 == std::string::npos || !name.ends_with(".u8")) continue;
    const std::string net = name.substr(0, l1);
    // The width is the whole text between ".L1-" and ".u8" (from_chars: no overflow UB).
    int width = 0;
    const char* const digits_end = name.data() + name.size() - 3;
    const auto [stop, err] = std::from_chars(name.data() + l1 + 4, digits_end, width);
    if (err != std::errc() || stop != digits_end) continue;
    if (width > 0 && !seen(net)) mine.push_back({net, net.starts_with("nn-") ? net.substr(3) : net, e.path().string(), width});
  }
  std::sort(mine.begin(), mine.end(), [](const TraceFile& a, const TraceFile& b) { return a.width < b.width; });
  out.insert(out.end(), mine.begin(), mine.end());
  return out;
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path, const std::string& what) {
  const auto fail = [&](const std::string& why) { throw std::runtime_error(what + " " + path + ": " + why); };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("is a folder, not a file");
  std::ifstream f(path, std::ios::binary);
  if (!f) fail(std::filesystem::exists(path, ec) ? "cannot open the file" : "no such file");
  std::vector<std::uint8_t> bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure& e) {  // libstdc++'s filebuf throws on a failed read
    fail(std::string("read error (") + e.what() + ")");
  }
  if (f.bad()) fail("read error");
  return bytes;
}

InputPool load_trace_file(const std::string& path, int width) {
  const std::vector<std::uint8_t> raw = read_file_bytes(path, "trace");
  if (width < 1 || raw.empty() || raw.size() % width)
    throw std::runtime_error("trace " + path + " holds " + std::to_string(raw.size()) +
                             " bytes, not a whole number of " + std::to_string(width) + "-byte rows");
  InputPool pool;
  pool.n = width;
  pool.count = int(raw.size() / width);
  pool.stride = (std::size_t(width) + 63) / 64 * 64;
  pool.bytes = Buffer<std::uint8_t>(pool.stride * pool.count);
  double bytes = 0, chunks = 0, nnz = 0, nnzc = 0;
  for (int i = 0; i < pool.count; ++i) {
    std::uint8_t* row = pool.bytes.data() + std::size_t(i) * pool.stride;
    std::memcpy(row, raw.data() + std::size_t(i) * width, width);
    const Measured m = measure(row, width);
    bytes += m.byte_density;
    chunks += m.chunk_density;
    nnz += m.nnz_bytes;
    nnzc += m.nnz_chunks;
  }
  pool.mean.byte_density = bytes / pool.count;
  pool.mean.chunk_density = chunks / pool.count;
  pool.mean.nnz_bytes = int(nnz / pool.count + 0.5);
  pool.mean.nnz_chunks = int(nnzc / pool.count + 0.5);
  return pool;
}

}  // namespace nnuelab::workloads
