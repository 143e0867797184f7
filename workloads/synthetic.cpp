#include "workloads/synthetic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "kernels/common/elementwise.h"
#include "reference/find_nnz.h"

namespace nnuelab::workloads {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::size_t huge_page_bytes(const void* p, std::size_t bytes, const char* smaps) {
  std::FILE* f = std::fopen(smaps, "r");
  if (!f) return 0;
  const auto lo = reinterpret_cast<std::uintptr_t>(p), hi = lo + bytes;
  std::size_t total = 0;
  bool overlaps = false;
  char line[512];
  while (std::fgets(line, sizeof line, f)) {
    unsigned long long start = 0, end = 0, kb = 0;
    int used = 0;
    // A mapping's header: "start-end perms offset dev inode [path]" (hex addresses). Its
    // field lines ("Size:", "AnonHugePages:", ...) cannot match: none has a '-' after hex.
    if (std::sscanf(line, "%llx-%llx %n", &start, &end, &used) == 2 && used > 0) {
      overlaps = start < hi && end > lo;
    } else if (overlaps && std::sscanf(line, "AnonHugePages: %llu kB", &kb) == 1) {
      total += std::size_t(kb) * 1024;
    }
  }
  std::fclose(f);
  return std::min(total, bytes);
}

Rng::Rng(std::uint64_t seed) {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::int64_t Rng::uniform(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t range = std::uint64_t(hi - lo) + 1;
  if (range == 0) return std::int64_t(next());  // the full 64-bit range
  // Rejection keeps it exactly uniform.
  const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % range);
  std::uint64_t r;
  do r = next(); while (r >= limit);
  return lo + std::int64_t(r % range);
}

bool Rng::chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }

std::string Density::name() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", percent);
  switch (kind) {
    case DensityKind::kDense: return "dense:100";
    case DensityKind::kByte: return std::string("byte:") + buf;
    case DensityKind::kChunk: return std::string("chunk:") + buf;
  }
  return "?";
}

Density parse_density(const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  Density d;
  if (kind == "dense") return d;
  if (colon == std::string::npos || (kind != "byte" && kind != "chunk"))
    throw std::invalid_argument("density '" + text + "': expected dense, byte:<percent> or chunk:<percent>");
  char* end = nullptr;
  const std::string num = text.substr(colon + 1);
  d.percent = std::strtod(num.c_str(), &end);
  if (num.empty() || *end || !(d.percent >= 0 && d.percent <= 100))
    throw std::invalid_argument("density '" + text + "': percent must be a number in 0..100");
  d.kind = kind == "byte" ? DensityKind::kByte : DensityKind::kChunk;
  return d;
}

void fill_net_like_weights(Rng& rng, std::int8_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (rng.uniform(0, 127) == 0) {
      out[i] = std::int8_t(rng.uniform(-128, 127));
      continue;
    }
    std::int64_t v = 0;
    for (int k = 0; k < 4; ++k) v += rng.uniform(-9, 9);  // variance 4 * 30 = 120
    out[i] = std::int8_t(v);
  }
}

void fill_activations(Rng& rng, std::uint8_t* out, int n, const Density& d, int max_value) {
  if (max_value < 1 || max_value > 255) throw std::invalid_argument("fill_activations: max_value must be 1..255");
  const double p = d.percent / 100.0;
  switch (d.kind) {
    case DensityKind::kDense:
      for (int i = 0; i < n; ++i) out[i] = std::uint8_t(rng.uniform(0, max_value));
      break;
    case DensityKind::kByte:
      for (int i = 0; i < n; ++i) out[i] = rng.chance(p) ? std::uint8_t(rng.uniform(1, max_value)) : 0;
      break;
    case DensityKind::kChunk:
      for (int c = 0; c < n; c += 4) {
        const int len = std::min(4, n - c);
        std::fill_n(out + c, len, 0);
        if (!rng.chance(p)) continue;
        for (int j = 0; j < len; ++j) out[c + j] = std::uint8_t(rng.uniform(0, max_value));
        out[c + rng.uniform(0, len - 1)] = std::uint8_t(rng.uniform(1, max_value));
      }
      break;
  }
}

Measured measure(const std::uint8_t* data, int n) {
  Measured m;
  for (int c = 0; c < n; c += 4) {
    bool any = false;
    for (int j = c; j < std::min(n, c + 4); ++j) {
      if (data[j]) {
        ++m.nnz_bytes;
        any = true;
      }
    }
    m.nnz_chunks += any;
  }
  if (n > 0) {
    m.byte_density = double(m.nnz_bytes) / n;
    m.chunk_density = double(m.nnz_chunks) / ((n + 3) / 4);
  }
  return m;
}

InputPool make_input_pool(int n, const Density& d, int count, std::uint64_t seed, int max_value) {
  if (n < 1 || count < 1) throw std::invalid_argument("make_input_pool: n and count must be >= 1");
  InputPool pool;
  pool.n = n;
  pool.count = count;
  pool.stride = (std::size_t(n) + 63) / 64 * 64;
  pool.bytes = Buffer<std::uint8_t>(pool.stride * count);
  Rng rng(seed);
  double bytes = 0, chunks = 0, nnz = 0, nnzc = 0;
  for (int i = 0; i < count; ++i) {
    std::uint8_t* row = pool.bytes.data() + std::size_t(i) * pool.stride;
    fill_activations(rng, row, n, d, max_value);
    const Measured m = measure(row, n);
    bytes += m.byte_density;
    chunks += m.chunk_density;
    nnz += m.nnz_bytes;
    nnzc += m.nnz_chunks;
  }
  pool.mean.byte_density = bytes / count;
  pool.mean.chunk_density = chunks / count;
  pool.mean.nnz_bytes = int(std::lround(nnz / count));
  pool.mean.nnz_chunks = int(std::lround(nnzc / count));
  return pool;
}

std::vector<std::uint64_t> pool_nnz_bitsets(const InputPool& pool) {
  const std::size_t words = std::size_t(nnz_bitset_words(pool.n));
  std::vector<std::uint64_t> bits(words * std::size_t(pool.count));
  for (int i = 0; i < pool.count; ++i) ref::nnz_chunk_bitset(pool.get(i), pool.n, bits.data() + i * words);
  return bits;
}

std::vector<std::uint16_t> pool_nnz_lists(const InputPool& pool) {
  // ref::find_nnz_chunks takes whole chunks only (a pool of n % 4 != 0 has no list form).
  if (pool.n % 4 != 0) throw std::invalid_argument("pool_nnz_lists: n must be a multiple of 4");
  const std::size_t stride = pool_list_stride(pool);
  std::vector<std::uint16_t> lists(stride * std::size_t(pool.count));
  for (int i = 0; i < pool.count; ++i) {
    std::uint16_t* row = lists.data() + i * stride;
    row[0] = std::uint16_t(ref::find_nnz_chunks(pool.get(i), pool.n, row + 1));
  }
  return lists;
}

void stage_copy(void* dst, const void* src, std::size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // 16 bytes a block: SSE2 on x86-64's baseline, one q register on aarch64.
  typedef unsigned char Block __attribute__((vector_size(16)));
  std::size_t i = 0;
  const auto load = [](const unsigned char* p) {
    Block b;
    std::memcpy(&b, p, 16);  // one unaligned 16-byte load (a fixed-size memcpy is inlined)
    return b;
  };
  for (; i + 64 <= bytes; i += 64) {
    const Block b0 = load(s + i), b1 = load(s + i + 16), b2 = load(s + i + 32), b3 = load(s + i + 48);
    std::memcpy(d + i, &b0, 16);
    std::memcpy(d + i + 16, &b1, 16);
    std::memcpy(d + i + 32, &b2, 16);
    std::memcpy(d + i + 48, &b3, 16);
    asm volatile("" ::: "memory");  // not one memcpy call for the whole loop
  }
  for (; i < bytes; ++i) {
    d[i] = s[i];
    asm volatile("" ::: "memory");
  }
}

}  // namespace nnuelab::workloads
