// Op `affine`: the int8 linear layer. Contract (reference/affine.h is the specification):
//   out[o] = bias[o] + sum_i W[o][i] * x[i]      (int32, o < out, i < in)
// Canonical layout: W row-major int8 [out][in] as a trainer writes it, bias int32[out].
// Input domain: x uint8 in 0..127, where maddubs+madd and dpbusd agree.
// Every variant: supports(shape) -> nullptr or the reason it refuses the shape;
// prepare (load time, untimed): canonical -> packed layout; unpack: packed -> canonical
// (proves the layout round trip); run: packed + input -> output.
//
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

#include "kernels/common/packed.h"

namespace nnuelab::affine {

struct Shape {
  int in = 0;   // K: input bytes
  int out = 0;  // N: outputs

  friend bool operator==(const Shape&, const Shape&) = default;
};

struct Canonical {
  Shape shape;
  const std::int8_t* weights = nullptr;  // [out][in]
  const std::int32_t* bias = nullptr;    // [out]
};

struct Packed {
  Shape shape;
  PackedBlocks blocks;
};

// Layout helpers shared by variants (compiled without ISA flags, in layout.cpp).
// Row-major: slot 0 holds W[out][in] as given, slot 1 the bias.
void pack_row_major(const Canonical& canonical, Packed& packed);
void unpack_row_major(const Packed& packed, std::int8_t* weights, std::int32_t* bias);
// 4-byte tiles: slot 0 holds tiles[c][o][j] = W[o][4c + j] (c < in/4, j < 4), so one
// broadcast input chunk meets the chunk's weights of consecutive outputs in one register;
// slot 1 the bias. Needs in % 4 == 0.
void pack_tiles4(const Canonical& canonical, Packed& packed);
void unpack_tiles4(const Packed& packed, std::int8_t* weights, std::int32_t* bias);
// The two-chunk (x2) techniques add two chunks' maddubs pair sums in int16 before the
// widening madd: half the madds of the plain dot. For inputs in 0..127 that int16 sum is
// exact for output o and half h (bytes 2h, 2h+1 of a chunk) when the two chunks' positive
// weight pair sums P = max(w, 0) + max(w', 0) add up to <= 258 (127 * 258 = 32766 <=
// 32767) and their negative ones N to >= -258 (-32766 >= -32768). Chunks that cannot be
// paired are "heavy": per lane, the chunks with the largest P (most negative N) while the
// two largest left exceed the bound; any two chunks left unmarked are then safe in every
// lane, and heavy chunks get the plain one-chunk dot. The Stockfish nets of ../shared/data
// mark 0 to 5 of 32-768 chunks per layer stack; uniform random int8 weights mark nearly all.
// The four-chunk (x4) techniques add four chunks' pair sums before the madd: the same
// bound for the four largest (group 4); the 3072-input net then marks 1 to 41 of its 768
// chunks per layer stack.
// pack_tiles4_x2: pack_tiles4 plus slot 2, the heavy chunks as a bitset (bit c of word
// c / 64, ceil(in / 4 / 64) + 1 words), and meta[0] = n, how many there are. Their tiles
// move to slot 3 (n tiles of out x 4 bytes in chunk order, then their n chunk indices as
// uint32) and are zero in slot 0: a zero tile adds nothing to a pair's int16 sum, so the
// kernels pair every listed chunk with no test and add the heavy chunks' one-chunk dots
// in a pass of their own. unpack_tiles4_x2 puts them back.
// group: how many chunks share one int16 sum (2 or 4; std::invalid_argument otherwise).
void pack_tiles4_x2(const Canonical& canonical, Packed& packed, int group = 2);
// Where slot 3 keeps the heavy chunks' indices: after their n tiles of out x 4 bytes.
constexpr std::size_t heavy_index_offset(std::int64_t n, int out) { return std::size_t(n) * std::size_t(out) * 4; }
// The heavy chunks of a pack_tiles4_x2 layout: n, their tiles (k-th tile at k * out * 4)
// and their chunk indices in chunk order.
struct HeavyChunks {
  std::int64_t n;
  const std::int8_t* tiles;
  const std::uint32_t* index;
};
// Always inlined: ISA objects call it, and an out-of-line copy (clang under ASan keeps one)
// would be compiled with their flags and could become every caller's copy.
[[gnu::always_inline]] inline HeavyChunks heavy_chunks(const Packed& p) {
  const std::int64_t n = p.blocks.meta[0];
  const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[3].data);
  return {n, tiles, reinterpret_cast<const std::uint32_t*>(tiles + heavy_index_offset(n, p.shape.out))};
}
void unpack_tiles4_x2(const Packed& packed, std::int8_t* weights, std::int32_t* bias);
// Thrown (std::invalid_argument) by block-sparse-output variants when an input chunk
// feeds more than 4 blocks of 16 outputs.
[[noreturn]] void throw_too_many_blocks(int chunk);

// The walk of a list technique given its list: list[0..count) the non-zero 4-byte chunks
// of the input (as find_nnz's chunk form writes them), so only the dots are left. What a
// caller that already holds the list (or the benchmarks, to time the walk alone) runs.
using RunList = void (*)(const Packed& packed, const std::uint8_t* input, const std::uint16_t* list, int count,
                         std::int32_t* output);
// Impl::run_list where the technique walks a chunk list (the table-list forms), else null.
template <class Impl>
constexpr RunList list_walk() {
  if constexpr (requires { &Impl::run_list; })
    return &Impl::run_list;
  else
    return nullptr;
}

}  // namespace nnuelab::affine

// Declares one technique's kernel functions inside an ISA namespace.
#define NNUELAB_AFFINE_KERNEL(tech)                                                       \
  const char* tech##_supports(const ::nnuelab::affine::Shape& shape);                     \
  void tech##_prepare(const ::nnuelab::affine::Canonical& canonical,                      \
                      ::nnuelab::affine::Packed& packed);                                 \
  void tech##_unpack(const ::nnuelab::affine::Packed& packed, std::int8_t* weights,       \
                     std::int32_t* bias);                                                 \
  void tech##_run(const ::nnuelab::affine::Packed& packed, const std::uint8_t* input,     \
                  std::int32_t* output);

// ... and for techniques that can take the producer's nnz bitset (NNUELAB_VARIANT_BITS
// rows): run_bits reads bits (one bit per 4-byte input chunk, as nnz_chunk_bitset writes
// it) instead of scanning the input for non-zero chunks; run_list, their list walk given
// the list (null for the techniques that walk no list: the bitset forms). A
// constant, not a function: the registry table reads it without running ISA code.
#define NNUELAB_AFFINE_KERNEL_BITS(tech)                                                 \
  NNUELAB_AFFINE_KERNEL(tech)                                                            \
  void tech##_run_bits(const ::nnuelab::affine::Packed& packed, const std::uint8_t* input, \
                       const std::uint64_t* bits, std::int32_t* output);                  \
  extern const ::nnuelab::affine::RunList tech##_run_list;

// Defines the four registry functions of `tech` from an Impl with static supports,
// prepare, unpack and run.
#define NNUELAB_AFFINE_DEFINE(tech, ...)                                                    \
  const char* tech##_supports(const Shape& s) { return __VA_ARGS__::supports(s); }         \
  void tech##_prepare(const Canonical& c, Packed& p) { __VA_ARGS__::prepare(c, p); }       \
  void tech##_unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { __VA_ARGS__::unpack(p, w, b); } \
  void tech##_run(const Packed& p, const std::uint8_t* in, std::int32_t* out) { __VA_ARGS__::run(p, in, out); }
// ... plus run_bits and run_list, for the techniques registered with NNUELAB_VARIANT_BITS.
#define NNUELAB_AFFINE_DEFINE_BITS(tech, ...)                                                 \
  NNUELAB_AFFINE_DEFINE(tech, __VA_ARGS__)                                                   \
  void tech##_run_bits(const Packed& p, const std::uint8_t* in, const std::uint64_t* bits, std::int32_t* out) { \
    __VA_ARGS__::run_bits(p, in, bits, out);                                                 \
  }                                                                                          \
  extern constinit const ::nnuelab::affine::RunList tech##_run_list = ::nnuelab::affine::list_walk<__VA_ARGS__>();
