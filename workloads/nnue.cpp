#include "workloads/nnue.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

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
  template <class T>
  void array(std::vector<T>& out, std::size_t count, const char* what, bool allow_leb128, bool* was_leb128 = nullptr) {
    out.resize(count);
    static constexpr std::string_view kMagic = "COMPRESSED_LEB128";
    if (allow_leb128 && peek_is(kMagic)) {
      if (was_leb128) *was_leb128 = true;
      pos_ += kMagic.size();
      const std::uint32_t n = u32("the LEB128 byte count");
      need(n, "the LEB128-compressed values");
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

Network load_network(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw NetError(path + ": cannot open the file");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw NetError(path + ": read error");
  const auto slash = path.find_last_of('/');
  return parse_network(bytes, slash == std::string::npos ? path : path.substr(slash + 1));
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
