#include "reference/crelu32_pair.h"

#include <stdexcept>
#include <string>

#include "reference/crelu32.h"
#include "reference/sqr_crelu32.h"

namespace nnuelab::ref {

void crelu32_pair(const std::int32_t* in, int n, int shift, std::uint8_t* out) {
  if (n < 0) throw std::invalid_argument("crelu32_pair: n is negative (" + std::to_string(n) + ")");
  if (shift < 0 || shift > 28) throw std::invalid_argument("crelu32_pair: shift = " + std::to_string(shift) + " is outside 0..28");
  if (n > 0 && (in == nullptr || out == nullptr)) throw std::invalid_argument("crelu32_pair: null pointer with n > 0");
  sqr_crelu32(in, n, shift, out);  // the squared half first
  crelu32(in, n, shift, out + n);  // then the clipped half
}

}  // namespace nnuelab::ref
