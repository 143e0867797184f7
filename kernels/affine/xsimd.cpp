// affine over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h). Both techniques use the blocked 4-byte tile
// layout (pack_tiles4: tiles[c][o][j] = W[o][4c + j]): one broadcast input chunk meets a
// batch of consecutive outputs' chunk weights, so no horizontal sums are needed. xsimd 8.1
// has no maddubs/madd/dpbusd: each dot is the even/odd int16 split of
// xops::dot4_maddubs_split, bit-exact with maddubs+madd (so it saturates above input 128
// like every maddubs variant; the op's domain is 0..127, where all dots agree).
#include "kernels/common/xsimd_arch.h"
#include "kernels/common/packed.h"
#include "kernels/affine/affine.h"

#define NNUELAB_XSIMD_AFFINE_EACH(M) M(dense_blocked4) M(sparse_blocked4_any)

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(affine, NNUELAB_XSIMD_AFFINE_EACH(NNUELAB_AFFINE_KERNEL))
namespace nnuelab::xsimd::affine {
using namespace ::nnuelab::affine;
#define NNUELAB_XSIMD_AFFINE_FORWARD(tech)                                                                   \
  const char* tech##_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(affine, tech##_supports, s); }    \
  void tech##_prepare(const Canonical& c, Packed& p) { NNUELAB_XSIMD_CALL(affine, tech##_prepare, c, p); } \
  void tech##_unpack(const Packed& p, std::int8_t* w, std::int32_t* b) {                                   \
    NNUELAB_XSIMD_CALL(affine, tech##_unpack, p, w, b);                                                    \
  }                                                                                                        \
  void tech##_run(const Packed& p, const std::uint8_t* in, std::int32_t* out) {                            \
    NNUELAB_XSIMD_CALL(affine, tech##_run, p, in, out);                                                    \
  }
NNUELAB_XSIMD_AFFINE_EACH(NNUELAB_XSIMD_AFFINE_FORWARD)
#undef NNUELAB_XSIMD_AFFINE_FORWARD
}  // namespace nnuelab::xsimd::affine
#else
#include <cstring>

#include "kernels/common/index_list.h"
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::affine {
using namespace ::nnuelab::affine;
NNUELAB_XSIMD_AFFINE_EACH(NNUELAB_AFFINE_KERNEL)

using A32 = B<std::int32_t>;
using I8 = B<std::int8_t>;
using U8 = B<std::uint8_t>;
constexpr int L = int(A32::size);  // outputs per batch

// R output batches in registers over the listed chunks (idx == nullptr: every chunk).
template <int R>
void slab(const std::int8_t* tiles, int out, int first, const std::int32_t* bias, const std::uint8_t* input,
          const std::uint16_t* idx, int count, std::int32_t* output) {
  A32 acc[R];
  for (int r = 0; r < R; ++r) acc[r] = A32::load_unaligned(bias + first + r * L);
  for (int k = 0; k < count; ++k) {
    const int c = idx ? idx[k] : k;
    std::uint32_t chunk;
    std::memcpy(&chunk, input + 4 * c, 4);
    // The chunk's even and odd bytes widened once, reused by every output batch.
    const U8 x = xs::bitwise_cast<U8>(B<std::uint32_t>(chunk));
    const auto xe = xops::even_u8(x), xo = xops::odd_u8(x);
    const std::int8_t* t = tiles + (std::size_t(c) * out + first) * 4;
    for (int r = 0; r < R; ++r) acc[r] += xops::dot4_maddubs_split(xe, xo, I8::load_unaligned(t + r * 4 * L));
  }
  for (int r = 0; r < R; ++r) acc[r].store_unaligned(output + first + r * L);
}

void blocked(const Packed& p, const std::uint8_t* input, const std::uint16_t* idx, int count,
             std::int32_t* output) {
  const auto* tiles = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
  const auto* bias = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
  const int out = p.shape.out;
  for (int first = 0; first < out;) {
    const int regs = (out - first) / L;
    if (regs >= 8) {
      slab<8>(tiles, out, first, bias, input, idx, count, output);
      first += 8 * L;
    } else if (regs >= 4) {
      slab<4>(tiles, out, first, bias, input, idx, count, output);
      first += 4 * L;
    } else if (regs >= 2) {
      slab<2>(tiles, out, first, bias, input, idx, count, output);
      first += 2 * L;
    } else {
      slab<1>(tiles, out, first, bias, input, idx, count, output);
      first += L;
    }
  }
}

const char* dense_blocked4_supports(const Shape& s) {
  if (s.in % 4) return "needs in % 4 == 0 (whole 4-byte chunks)";
  if (s.out % L) return L == 4 ? "needs out % 4 == 0 (4 int32 outputs per batch)" : "needs out % 8 == 0 (8 int32 outputs per batch)";
  return nullptr;
}
const char* sparse_blocked4_any_supports(const Shape& s) {
  if (const char* why = dense_blocked4_supports(s)) return why;
  if (s.in % (4 * L)) return L == 4 ? "needs in % 16 == 0 (one uint32 batch of chunks per any() test)"
                                    : "needs in % 32 == 0 (one uint32 batch of chunks per any() test)";
  return nullptr;
}

void dense_blocked4_prepare(const Canonical& c, Packed& p) { pack_tiles4(c, p); }
void sparse_blocked4_any_prepare(const Canonical& c, Packed& p) { pack_tiles4(c, p); }
void dense_blocked4_unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_tiles4(p, w, b); }
void sparse_blocked4_any_unpack(const Packed& p, std::int8_t* w, std::int32_t* b) { unpack_tiles4(p, w, b); }

void dense_blocked4_run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
  blocked(p, input, nullptr, p.shape.in / 4, output);
}

// The non-zero chunks listed first (any() per batch of chunks, no bitmask), then only
// those accumulated.
void sparse_blocked4_any_run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
  nnz::ChunkList list(p.shape.in);
  std::uint16_t* const idx = list.data();
  const int chunks = p.shape.in / 4;
  const int count = xops::list_nonzero(reinterpret_cast<const std::uint32_t*>(input), chunks, idx);
  blocked(p, input, idx, count, output);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::affine
#endif
