#include "reference/crelu32.h"

#include <algorithm>
#include <stdexcept>

namespace nnuelab::ref {

void crelu32(const std::int32_t* in, int n, int shift, std::uint8_t* out) {
  if (n < 0) throw std::invalid_argument("ref::crelu32: n must be >= 0");
  if (shift < 0 || shift > 31) throw std::invalid_argument("ref::crelu32: shift must be 0..31");
  for (int i = 0; i < n; ++i) out[i] = std::uint8_t(std::clamp(in[i] >> shift, 0, 127));
}

}  // namespace nnuelab::ref
