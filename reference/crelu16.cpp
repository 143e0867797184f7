#include "reference/crelu16.h"

#include <algorithm>
#include <stdexcept>

namespace nnuelab::ref {

void crelu16(const std::int16_t* in, int n, std::uint8_t* out) {
  if (n < 0) throw std::invalid_argument("ref::crelu16: n must be >= 0");
  for (int i = 0; i < n; ++i) out[i] = std::uint8_t(std::clamp<int>(in[i], 0, 127));
}

}  // namespace nnuelab::ref
