#include "workloads/nnue.h"

#include "workloads/data.h"
#include "workloads/synthetic.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>

#ifndef NNUELAB_DEFAULT_NETS_DIR
#define NNUELAB_DEFAULT_NETS_DIR "results/nets"
#endif

namespace nnuelab::workloads {
namespace {

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// A cursor over the file image that knows which section it is in, so every error says
// where it happened and what was expected.
class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}

  void section(std::string s) { section_ = std::move(s); }
  std::size_t offset() const { return pos_; }
  std::size_t left() const { return bytes_.size() - pos_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw NetError(name_ + ": " + section_ + " at byte offset " + std::to_string(pos_) + ": " + what);
  }

  void need(std::size_t n, const char* what) const {
    if (left() < n)
      fail(std::string("truncated file: expected ") + what + " (" + std::to_string(n) + " bytes), only " +
           std::to_string(left()) + " bytes left");
  }

  std::uint32_t u32(const char* what) {
    need(4, what);
    std::uint32_t v = std::uint32_t(bytes_[pos_]) | std::uint32_t(bytes_[pos_ + 1]) << 8 |
                      std::uint32_t(bytes_[pos_ + 2]) << 16 | std::uint32_t(bytes_[pos_ + 3]) << 24;
    pos_ += 4;
    return v;
  }

  std::string text(std::size_t n, const char* what) {
    need(n, what);
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }

  bool peek_is(std::string_view magic) const {
    return left() >= magic.size() && std::memcmp(bytes_.data() + pos_, magic.data(), magic.size()) == 0;
  }

  // A little-endian integer array, raw or LEB128-compressed.
  // Every declared size is checked against the bytes left in the file before anything is
  // allocated: a few-byte file declaring L1 = 8192 (a 369 MB transformer) fails here at
  // once instead of allocating first and finding the file short afterwards.
  template <class T>
  void array(std::vector<T>& out, std::size_t count, const char* what, bool allow_leb128, bool* was_leb128 = nullptr) {
    static constexpr std::string_view kMagic = "COMPRESSED_LEB128";
    if (allow_leb128 && peek_is(kMagic)) {
      if (was_leb128) *was_leb128 = true;
      pos_ += kMagic.size();
      const std::uint32_t n = u32("the LEB128 byte count");
      need(n, "the LEB128-compressed values");
      // A LEB128 value takes at least one byte.
      if (n < count)
        fail(std::string("LEB128 byte count ") + std::to_string(n) + " is too small for the " + std::to_string(count) +
             " values of " + what + " (at least one byte each)");
      out.resize(count);
      const std::size_t end = pos_ + n;
      for (std::size_t i = 0; i < count; ++i) {
        std::int64_t v = 0;
        int shift = 0;
        std::uint8_t byte;
        do {
          if (pos_ >= end)
            fail(std::string("LEB128 data of ") + what + " ends after " + std::to_string(i) + " of " +
                 std::to_string(count) + " values");
          if (shift >= 35) fail(std::string("LEB128 value ") + std::to_string(i) + " of " + what + " is longer than 5 bytes");
          byte = bytes_[pos_++];
          v |= std::int64_t(byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
        if (shift < 64 && (byte & 0x40)) v |= -(std::int64_t(1) << shift);  // sign-extend
        if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
          fail(std::string("LEB128 value ") + std::to_string(i) + " of " + what + " = " + std::to_string(v) +
               " does not fit its type");
        out[i] = T(v);
      }
      if (pos_ != end)
        fail(std::string("LEB128 data of ") + what + " has " + std::to_string(end - pos_) +
             " bytes left over after its " + std::to_string(count) + " values");
      return;
    }
    if (was_leb128) *was_leb128 = false;
    need(count * sizeof(T), what);
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t v = 0;
      for (std::size_t b = 0; b < sizeof(T); ++b) v |= std::uint64_t(bytes_[pos_ + b]) << (8 * b);
      std::make_unsigned_t<T> u = static_cast<std::make_unsigned_t<T>>(v);
      std::memcpy(&out[i], &u, sizeof(T));
      pos_ += sizeof(T);
    }
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::string name_;
  std::string section_ = "header";
  std::size_t pos_ = 0;
};

}  // namespace

Network parse_network(std::span<const std::uint8_t> bytes, const std::string& name) {
  Reader r(bytes, name);
  Network net;
  net.name = name;

  r.section("header");
  const std::uint32_t version = r.u32("the version");
  if (version != kNnueVersion)
    r.fail("version " + hex(version) + " is not " + hex(kNnueVersion) + " (not a Stockfish .nnue file of this format)");
  net.header_hash = r.u32("the header hash");
  const std::uint32_t desc = r.u32("the description length");
  if (desc > r.left()) r.fail("description length " + std::to_string(desc) + " exceeds the file");
  net.description = r.text(desc, "the description");

  r.section("feature transformer");
  net.ft_hash = r.u32("the feature transformer hash");
  const std::uint32_t l1x2 = net.ft_hash ^ kHalfKAv2HmHash;
  if (l1x2 == 0 || l1x2 % 32 != 0 || l1x2 > 2 * 8192)
    r.fail("hash " + hex(net.ft_hash) + " is not a HalfKAv2_hm feature transformer (expected " + hex(kHalfKAv2HmHash) +
           " ^ (2 * L1) with L1 a multiple of 16 up to 8192)");
  net.l1 = int(l1x2 / 2);
  const std::size_t l1 = std::size_t(net.l1);
  bool leb_b = false, leb_w = false, leb_p = false;
  r.array(net.ft_bias, l1, "the feature transformer biases", true, &leb_b);
  r.array(net.ft_weights, l1 * kHalfKAv2Features, "the feature transformer weights", true, &leb_w);
  r.array(net.psqt_weights, std::size_t(kPsqtBuckets) * kHalfKAv2Features, "the PSQT weights", true, &leb_p);
  net.compressed = leb_b || leb_w || leb_p;

  for (int s = 0; s < kLayerStacks; ++s) {
    r.section("layer stack " + std::to_string(s));
    const std::uint32_t h = r.u32("the layer stack hash");
    if (s == 0) {
      net.stack_hash = h;
      if ((net.ft_hash ^ h) != net.header_hash)
        r.fail("header hash " + hex(net.header_hash) + " is not feature transformer hash " + hex(net.ft_hash) +
               " ^ layer stack hash " + hex(h) + " (corrupt header or stack)");
    } else if (h != net.stack_hash) {
      r.fail("hash " + hex(h) + " differs from layer stack 0's " + hex(net.stack_hash));
    }
    LayerStack& st = net.stacks[s];
    r.array(st.b0, kFc0Out, "fc_0 biases", false);
    r.array(st.w0, kFc0Out * l1, "fc_0 weights", false);
    r.array(st.b1, kFc1Out, "fc_1 biases", false);
    r.array(st.w1, std::size_t(kFc1Out) * kFc1In, "fc_1 weights", false);
    r.array(st.b2, 1, "fc_2 bias", false);
    r.array(st.w2, kFc1Out, "fc_2 weights", false);
  }
  r.section("end of file");
  if (r.left() != 0) r.fail(std::to_string(r.left()) + " unexpected bytes after the last layer stack");
  return net;
}

void check_network(const Network& net) {
  auto bad = [&](const std::string& what) { throw NetError(net.name + ": not a loaded net: " + what); };
  if (net.l1 < 16 || net.l1 > 8192 || net.l1 % 16) bad("L1 = " + std::to_string(net.l1) + " (a multiple of 16 in 16..8192)");
  const std::size_t l1 = std::size_t(net.l1);
  if (net.ft_bias.size() != l1 || net.ft_weights.size() != l1 * kHalfKAv2Features ||
      net.psqt_weights.size() != std::size_t(kPsqtBuckets) * kHalfKAv2Features)
    bad("feature transformer arrays of the wrong size for L1 = " + std::to_string(net.l1));
  for (const LayerStack& st : net.stacks)
    if (st.b0.size() != kFc0Out || st.w0.size() != kFc0Out * l1 || st.b1.size() != kFc1Out ||
        st.w1.size() != std::size_t(kFc1Out) * kFc1In || st.b2.size() != 1 || st.w2.size() != kFc1Out)
      bad("a layer stack of the wrong size for L1 = " + std::to_string(net.l1));
}

Network load_network(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = read_file_bytes(path, "net");
  } catch (const std::runtime_error& e) {
    throw NetError(e.what());
  }
  const auto slash = path.find_last_of('/');
  return parse_network(bytes, slash == std::string::npos ? path : path.substr(slash + 1));
}

std::vector<std::uint8_t> synthetic_network_image(int l1, bool leb128, std::uint64_t seed) {
  if (l1 < 16 || l1 > 8192 || l1 % 16) throw std::invalid_argument("synthetic_network_image: L1 must be a multiple of 16 in 16..8192");
  Rng rng(seed);
  std::vector<std::uint8_t> f;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) f.push_back(std::uint8_t(v >> (8 * i)));
  };
  auto raw = [&](std::size_t count, int bytes) {  // 8 bytes per draw: the fuzzer builds one per input
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < count * std::size_t(bytes); ++i, x >>= 8) {
      if (i % 8 == 0) x = rng.next();
      f.push_back(std::uint8_t(x));
    }
  };
  auto leb = [&](std::size_t count) {  // small signed values, 1-2 bytes each
    std::vector<std::uint8_t> body;
    for (std::size_t i = 0; i < count; ++i) {
      int v = int(rng.uniform(-100, 100));
      while (true) {
        const std::uint8_t b = v & 0x7f;
        v >>= 7;  // arithmetic: the sign stays until the last byte says it
        if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
          body.push_back(b);
          break;
        }
        body.push_back(b | 0x80);
      }
    }
    for (char c : std::string_view("COMPRESSED_LEB128")) f.push_back(std::uint8_t(c));
    u32(std::uint32_t(body.size()));
    f.insert(f.end(), body.begin(), body.end());
  };
  const std::uint32_t ft = kHalfKAv2HmHash ^ std::uint32_t(2 * l1), stack = 0x12345678;
  u32(kNnueVersion);
  u32(ft ^ stack);
  const std::string desc = "synthetic test net";
  u32(std::uint32_t(desc.size()));
  f.insert(f.end(), desc.begin(), desc.end());
  u32(ft);
  const std::size_t n = std::size_t(l1);
  if (leb128) leb(n), leb(n * kHalfKAv2Features), leb(std::size_t(kPsqtBuckets) * kHalfKAv2Features);
  else raw(n, 2), raw(n * kHalfKAv2Features, 2), raw(std::size_t(kPsqtBuckets) * kHalfKAv2Features, 4);
  for (int s = 0; s < kLayerStacks; ++s) {
    u32(stack);
    raw(kFc0Out, 4), raw(kFc0Out * n, 1), raw(kFc1Out, 4), raw(std::size_t(kFc1Out) * kFc1In, 1), raw(1, 4), raw(kFc1Out, 1);
  }
  return f;
}

std::optional<std::string> find_net(int l1, std::string* why) {
  const std::string file = net_file_for_l1(l1);
  if (const auto dir = data_dir(); dir && std::filesystem::exists(*dir + "/nets/" + file)) return *dir + "/nets/" + file;
  const std::string mine = std::string(NNUELAB_DEFAULT_NETS_DIR) + "/" + file;
  if (std::filesystem::exists(mine)) return mine;
  if (why)
    *why = file + " is neither in the data folder (../shared/data/nets, or $NNUELAB_DATA) nor in " +
           NNUELAB_DEFAULT_NETS_DIR + (l1 == 1024 ? " (run ./lab nets: it exports it from Debian's stockfish package)" : "");
  return std::nullopt;
}

std::string net_file_for_l1(int l1) {
  switch (l1) {
    case 128: return "nn-37f18f62d772.nnue";
    case 1024: return "nn-ad9b42354671.nnue";
    case 1536: return "nn-5af11540bbfe.nnue";
    case 3072: return "nn-1c0000000000.nnue";
  }
  throw std::invalid_argument("no net of L1 = " + std::to_string(l1) + " in the data folder (128, 1024, 1536, 3072)");
}

}  // namespace nnuelab::workloads

namespace nnuelab::workloads {

void permute_ft_neurons(Network& net, const std::vector<int>& order) {
  const int l1 = net.l1, half = l1 / 2;
  if (int(order.size()) != half) throw std::invalid_argument("permute_ft_neurons: order has " + std::to_string(order.size()) + " entries, not L1/2 = " + std::to_string(half));
  std::vector<bool> seen(half, false);
  for (int o : order) {
    if (o < 0 || o >= half || seen[o]) throw std::invalid_argument("permute_ft_neurons: order is not a permutation of 0..L1/2-1");
    seen[o] = true;
  }
  // Column map over the accumulator: new column c reads old column col(c).
  auto col = [&](int c) { return c < half ? order[c] : half + order[c - half]; };
  const std::vector<std::int16_t> bias = net.ft_bias;
  for (int c = 0; c < l1; ++c) net.ft_bias[c] = bias[col(c)];
  std::vector<std::int16_t> row(l1);
  for (std::size_t f = 0; f < std::size_t(kHalfKAv2Features); ++f) {
    std::int16_t* w = net.ft_weights.data() + f * l1;
    std::copy(w, w + l1, row.begin());
    for (int c = 0; c < l1; ++c) w[c] = row[col(c)];
  }
  // fc_0 reads the transformer output: side to move bytes 0..half, the other side half..L1,
  // each half in neuron order.
  std::vector<std::int8_t> in(l1);
  for (LayerStack& st : net.stacks)
    for (int o = 0; o < kFc0Out; ++o) {
      std::int8_t* w = st.w0.data() + std::size_t(o) * l1;
      std::copy(w, w + l1, in.begin());
      for (int k = 0; k < half; ++k) {
        w[k] = in[order[k]];
        w[half + k] = in[half + order[k]];
      }
    }
}

std::vector<int> neurons_by_activity(const std::vector<std::uint8_t>& trace, int l1) {
  const int half = l1 / 2;
  if (l1 <= 0 || trace.size() % l1) throw std::invalid_argument("neurons_by_activity: trace is not whole rows of L1 bytes");
  // Each neuron's activity as a bitset over (row, half): bit set when its output byte is
  // non-zero there.
  const std::size_t samples = trace.size() / l1 * 2, words = (samples + 63) / 64;
  std::vector<std::uint64_t> act(std::size_t(half) * words, 0);
  std::size_t sample = 0;
  for (std::size_t r = 0; r < trace.size(); r += l1)
    for (int h = 0; h < 2; ++h, ++sample)
      for (int k = 0; k < half; ++k)
        if (trace[r + h * half + k]) act[std::size_t(k) * words + sample / 64] |= std::uint64_t(1) << (sample % 64);
  auto ones = [&](const std::uint64_t* a) {
    long n = 0;
    for (std::size_t w = 0; w < words; ++w) n += __builtin_popcountll(a[w]);
    return n;
  };
  // Greedy chunks of 4: seed with the most active neuron left, then add the one whose
  // activity adds fewest new non-zero samples to the chunk's union (co-active neurons end
  // up together, so the chunk is zero as often as possible).
  std::vector<int> left(half);
  for (int k = 0; k < half; ++k) left[k] = k;
  std::stable_sort(left.begin(), left.end(), [&](int a, int b) { return ones(&act[std::size_t(a) * words]) > ones(&act[std::size_t(b) * words]); });
  std::vector<int> order;
  std::vector<std::uint64_t> uni(words);
  while (!left.empty()) {
    const int seed = left.front();
    left.erase(left.begin());
    order.push_back(seed);
    std::copy_n(&act[std::size_t(seed) * words], words, uni.begin());
    for (int j = 1; j < 4 && !left.empty(); ++j) {
      std::size_t best = 0;
      long best_cost = 0;
      bool found = false;
      for (std::size_t i = 0; i < left.size(); ++i) {
        const std::uint64_t* a = &act[std::size_t(left[i]) * words];
        long cost = 0;
        for (std::size_t w = 0; w < words; ++w) cost += __builtin_popcountll(a[w] & ~uni[w]) - __builtin_popcountll(a[w] & uni[w]);
        if (!found || cost < best_cost) best_cost = cost, best = i, found = true;
      }
      const int k = left[best];
      left.erase(left.begin() + long(best));
      order.push_back(k);
      for (std::size_t w = 0; w < words; ++w) uni[w] |= act[std::size_t(k) * words + w];
    }
  }
  return order;
}

}  // namespace nnuelab::workloads
