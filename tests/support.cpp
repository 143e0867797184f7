#include "tests/support.h"

#include <algorithm>
#include <cctype>

namespace nnuelab::test {

int isa_vector_bytes(std::string isa) {
  if (isa.ends_with("-emu")) isa.resize(isa.size() - 4);
  if (isa == "sse2" || isa == "ssse3" || isa == "sse41") return 16;
  if (isa == "avx2" || isa == "avxvnni") return 32;
  if (isa == "avx512bw" || isa == "avx512vnni" || isa == "avx512vbmi2") return 64;
  if (isa == "neon" || isa == "neon-dotprod" || isa == "neon-i8mm") return 16;
  return 0;
}

std::string param_name(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

namespace {
std::vector<std::string>& without_cases() {
  static std::vector<std::string> list;
  return list;
}
}  // namespace

void report_variants_without_cases(const std::string& suite, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    const std::string entry = suite + ": " + n;
    auto& list = without_cases();
    if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(entry);
  }
}

const std::vector<std::string>& variants_without_cases() { return without_cases(); }

TEST(Coverage, EveryAvailableVariantHasACase) {
  std::string names;
  for (const std::string& n : variants_without_cases()) names += "\n  " + n;
  EXPECT_TRUE(variants_without_cases().empty())
      << "registered variants that no shape of their suite reaches (add a shape they support):" << names;
}

}  // namespace nnuelab::test
