// Stockfish .nnue files of the HalfKAv2_hm family (any L1): loading and the canonical
// weights the lab's kernels are fed with.
//
// File layout (little-endian; the public format of Stockfish 15.1 to 17.1):
//   u32 version 0x7AF32F20, u32 header hash, u32 description length, description
//   feature transformer: u32 hash, then three arrays: bias int16[L1],
//     weights int16[22528][L1], PSQT weights int32[22528][8]. Each array is either raw
//     or "COMPRESSED_LEB128": the 17-byte magic, u32 byte count, signed LEB128 values.
//   8 layer stacks, each: u32 hash, then
//     fc_0 (L1 -> 16): bias int32[16], weights int8[16][L1]
//     fc_1 (30 -> 32, input padded to 32): bias int32[32], weights int8[32][32]
//     fc_2 (32 -> 1): bias int32[1], weights int8[1][32]
//   and the file ends exactly there.
// The feature transformer hash is 0x7f234cb8 ^ (2 * L1), which is how any L1 is
// recognised; the header hash is the feature transformer hash XOR the layer stack hash.
#pragma once
#include <array>
#include <optional>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nnuelab::workloads {

constexpr int kHalfKAv2Features = 22528;  // 32 king buckets x 704 piece-squares
constexpr int kPsqtBuckets = 8;
constexpr int kLayerStacks = 8;
constexpr int kFc0Out = 16;   // 15 + 1 passed straight to the output
constexpr int kFc1In = 32;    // 2 x 15 activations, padded to 32
constexpr int kFc1Out = 32;
constexpr std::uint32_t kNnueVersion = 0x7AF32F20u;
constexpr std::uint32_t kHalfKAv2HmHash = 0x7f234cb8u;

// A malformed or unsupported file: what() names the file, the section, the byte offset and
// what was expected there.
struct NetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LayerStack {
  std::vector<std::int32_t> b0;  // [16]
  std::vector<std::int8_t> w0;   // [16][L1]
  std::vector<std::int32_t> b1;  // [32]
  std::vector<std::int8_t> w1;   // [32][32]; columns 30, 31 are padding (zero in real nets)
  std::vector<std::int32_t> b2;  // [1]
  std::vector<std::int8_t> w2;   // [1][32]
};

struct Network {
  std::string name;  // file name
  std::string description;
  std::uint32_t header_hash = 0, ft_hash = 0, stack_hash = 0;
  int l1 = 0;
  bool compressed = false;  // the feature transformer arrays were LEB128
  std::vector<std::int16_t> ft_bias;       // [L1]
  std::vector<std::int16_t> ft_weights;    // [22528][L1]
  std::vector<std::int32_t> psqt_weights;  // [22528][8]
  std::array<LayerStack, kLayerStacks> stacks;
};

// Parses a whole file image; throws NetError on anything but a complete, valid net.
Network parse_network(std::span<const std::uint8_t> bytes, const std::string& name);
// Throws NetError unless `net` has the shape parse_network gives (L1 a multiple of 16 in
// 16..8192, every array its full size): a hand-built or moved-from Network reaching an
// evaluation would otherwise read past its arrays. Both evaluations call it.
void check_network(const Network& net);
// Reads and parses a file (NetError also when it cannot be read).
Network load_network(const std::string& path);

// A valid file image of this format with random weights (L1 a multiple of 16, 16..8192;
// the feature transformer arrays raw or LEB128), for the tests and the loader's fuzzer:
// real nets are never committed.
std::vector<std::uint8_t> synthetic_network_image(int l1, bool leb128, std::uint64_t seed);

// The file name of the net of ../shared/data with this L1 (128, 1024, 1536, 3072).
std::string net_file_for_l1(int l1);
// Its path: <data>/nets/<file>, else <source tree>/results/nets/<file> (where `./lab nets`
// puts the L1 = 1024 net it exports from Debian's stockfish package); nullopt, with what
// to do in *why, when neither exists.
std::optional<std::string> find_net(int l1, std::string* why = nullptr);

}  // namespace nnuelab::workloads

namespace nnuelab::workloads {

// "Helping the odds": a load-time permutation of the feature transformer's neurons that
// changes which first-layer inputs share a 4-byte chunk, never the evaluation. order[k] is
// the old index of new neuron k, for k < L1/2; neuron k feeds output byte k of each half
// (it pairs accumulator columns k and k + L1/2), so the pair moves together: columns k and
// k + L1/2 of the transformer (bias, weight rows), and fc_0's input columns k and
// L1/2 + k of every layer stack.
void permute_ft_neurons(Network& net, const std::vector<int>& order);

// The order that groups co-active neurons into the same 4-byte chunks, from `trace` (rows
// of L1 bytes, both halves as samples): greedily, each chunk starts with the most active
// neuron left and takes the 3 that add the fewest new non-zero samples to its union.
std::vector<int> neurons_by_activity(const std::vector<std::uint8_t>& trace, int l1);

}  // namespace nnuelab::workloads
