// affine, no ISA flags: the portable baseline.
#include "kernels/common/isa.h"
#include "kernels/affine/affine.h"

namespace nnuelab::NNUELAB_ISA_NS::affine {
using namespace ::nnuelab::affine;

const char* dense_rows_supports(const Shape&) { return nullptr; }

void dense_rows_prepare(const Canonical& c, Packed& p) { pack_row_major(c, p); }

void dense_rows_unpack(const Packed& p, std::int8_t* weights, std::int32_t* bias) {
  unpack_row_major(p, weights, bias);
}

void dense_rows_run(const Packed& p, const std::uint8_t* input, std::int32_t* output) {
  const auto* w = static_cast<const std::int8_t*>(p.blocks.slot[0].data);
  const auto* b = static_cast<const std::int32_t*>(p.blocks.slot[1].data);
  const int in = p.shape.in, out = p.shape.out;  // locals: int32 stores may alias the shape
  for (int o = 0; o < out; ++o) {
    const std::int8_t* row = w + std::size_t(o) * in;
    std::int32_t sum = b[o];
    for (int i = 0; i < in; ++i) sum += std::int32_t(row[i]) * input[i];
    output[o] = sum;
  }
}

}  // namespace nnuelab::NNUELAB_ISA_NS::affine
