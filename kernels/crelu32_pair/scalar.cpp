// crelu32_pair, no ISA flags.
#include "kernels/common/isa.h"
#include "kernels/common/run_many.h"
#include "kernels/crelu32_pair/crelu32_pair.h"

namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair {
using namespace ::nnuelab::crelu32_pair;

const char* two_pass_supports(const Shape&) { return nullptr; }

// One plain loop per half (int64 square; shift-and-clamp). Two simple loops are what the
// compiler vectorises; one loop storing to both halves (which may alias the input) is not,
// and measured slower here.
void two_pass_run(const Shape& s, const std::int32_t* input, std::uint8_t* output, std::uint64_t*) {
  const int n = s.n, shift = s.shift, total = 2 * s.shift + 7;  // locals: uint8 stores may alias
  for (int i = 0; i < n; ++i) {
    const std::int64_t x = input[i];
    const std::int64_t sq = (x * x) >> total;  // exact: x*x <= 2^62, total <= 63
    output[i] = std::uint8_t(sq > 127 ? 127 : sq);
  }
  std::uint8_t* clipped = output + n;
  for (int i = 0; i < n; ++i) {
    const std::int32_t c = input[i] >> shift;
    clipped[i] = std::uint8_t(c < 0 ? 0 : c > 127 ? 127 : c);
  }
}

NNUELAB_CRELU32_PAIR_RUN_MANY(two_pass)

}  // namespace nnuelab::NNUELAB_ISA_NS::crelu32_pair
