#include "tests/support.h"

#include <cctype>

namespace nnuelab::test {

std::string param_name(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

}  // namespace nnuelab::test
