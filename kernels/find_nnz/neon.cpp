// find_nnz on armv8 NEON. Masks come from vtst(x, x) ("any bit set"), so every variant is
// exact on bytes 0..255, unlike x86's signed pcmpgt. NEON has no movemask: the mask bytes
// become bits either by vshrn (4 bits per element, 16 elements per 64-bit word) or by
// keeping one bit per byte and folding with three vpaddq_u8 (64 elements per word); chunks
// are first narrowed to one byte each with saturating vqmovn (kernels/common/neon_dot.h).
#include "kernels/common/neon_dot.h"
#include "kernels/find_nnz/blocks.h"

namespace nnuelab::NNUELAB_ISA_NS::find_nnz {

namespace {

using namespace ::nnuelab::NNUELAB_ISA_NS::neon_dot;

// A 64-element block's mask, one bit per element (W = 64 for blocks.h).
constexpr auto bytes64 = [](const std::uint8_t* in, int e) { return byte_mask64(in + e); };
constexpr auto chunks64 = [](const std::uint8_t* in, int e) { return chunk_mask64(in, e, e + 64); };

template <Form F>
NNUELAB_FIND_NNZ_INLINE int tst_lsb(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  int count = 0;
  auto extract = [&](std::uint64_t m, int first, int) { count += nnz::emit_lsb(m, first, out + count); };
  if constexpr (F == Form::kBytes)
    for_each_block<F, Test::kUnsigned, 64>(in, n_elements, bytes64, extract);
  else
    for_each_block<F, Test::kUnsigned, 64>(in, n_elements, chunks64, extract);
  return count;
}

// 16 elements per vshrn word: 4 identical bits per element, of which the top one (bit
// 4e + 3) is kept, so ctz / 4 is the element and m &= m - 1 clears it.
template <Form F>
NNUELAB_FIND_NNZ_INLINE int tst_nibble_lsb(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  int count = 0, e = 0;
  for (; e + 16 <= n_elements; e += 16) {
    const uint8x16_t m = F == Form::kBytes ? byte_bytes16(in + e) : chunk_bytes16(in + 4 * e);
    std::uint64_t bits = nibble_mask(m) & 0x8888888888888888ull;
    while (bits) {
      out[count++] = std::uint16_t(e + (__builtin_ctzll(bits) >> 2));
      bits &= bits - 1;
    }
  }
  for (; e < n_elements; ++e)
    if (nonzero<F, Test::kUnsigned>(in, e)) out[count++] = std::uint16_t(e);
  return count;
}

template <Form F>
NNUELAB_FIND_NNZ_INLINE int tst_lut16(const std::uint8_t* in, int n_elements, std::uint16_t* out) {
  int count = 0;
  auto extract = [&](std::uint64_t m, int first, int len) { count = emit_lut(m, len, first, out, count); };
  if constexpr (F == Form::kBytes)
    for_each_block<F, Test::kUnsigned, 64>(in, n_elements, bytes64, extract);
  else
    for_each_block<F, Test::kUnsigned, 64>(in, n_elements, chunks64, extract);
  return count;
}

}  // namespace

NNUELAB_FIND_NNZ_KERNEL(tst_lsb)
NNUELAB_FIND_NNZ_KERNEL(tst_nibble_lsb)
NNUELAB_FIND_NNZ_KERNEL(tst_lut16)
NNUELAB_FIND_NNZ_KERNEL(bitset_lsb)

const char* tst_lsb_supports(const Shape&) { return nullptr; }
int tst_lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? tst_lsb<Form::kBytes>(in, elements(s), out) : tst_lsb<Form::kChunks>(in, elements(s), out);
}

const char* tst_nibble_lsb_supports(const Shape&) { return nullptr; }
int tst_nibble_lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? tst_nibble_lsb<Form::kBytes>(in, elements(s), out)
                                : tst_nibble_lsb<Form::kChunks>(in, elements(s), out);
}

const char* tst_lut16_supports(const Shape&) { return nullptr; }
int tst_lut16_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  return s.form == Form::kBytes ? tst_lut16<Form::kBytes>(in, elements(s), out)
                                : tst_lut16<Form::kChunks>(in, elements(s), out);
}

// Pass 1 the whole bitset (what a producer could write as it stores), pass 2 the lsb walk.
const char* bitset_lsb_supports(const Shape& s) {
  return s.form == Form::kChunks ? nullptr : "chunks form only: the bitset holds one bit per 4-byte chunk";
}
int bitset_lsb_run(const Shape& s, const std::uint8_t* in, std::uint16_t* out) {
  std::uint64_t bits[65536 / 4 / 64];  // the op's largest input: 16384 chunks
  const int chunks = elements(s);
  for (int b = 0; b < chunks; b += 64) bits[b / 64] = chunk_mask64(in, b, chunks);
  int count = 0;
  for (int w = 0; w * 64 < chunks; ++w) count += nnz::emit_lsb(bits[w], w * 64, out + count);
  return count;
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
