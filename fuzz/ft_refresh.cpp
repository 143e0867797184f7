// Differential fuzz target of ft_refresh: every variant against ref::ft_refresh, per
// perspective, with int16 wrap-around (the near-overflow generator) and duplicate ids
// (few features); a bad id must be refused before anything is written.
#include "fuzz/driver.h"
#include "kernels/ft_refresh/registry.h"
#include "reference/ft.h"

namespace {
using namespace nnuelab;

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  ft_refresh::Shape s;
  s.l1 = src.length(64, 4096);
  s.features = int(src.range(1, 300));
  s.active = int(src.range(0, 65));
  s.perspectives = int(src.range(0, 15)) == 0 ? int(src.range(0, 3)) : int(src.range(1, 2));
  const std::string shape = ft_refresh::shape_name(s);
  const bool valid = s.l1 >= 1 && s.l1 <= 4096;
  const std::size_t l1 = valid ? std::size_t(s.l1) : 1, rows = std::size_t(s.features);
  const int offset = int(src.range(0, 15));
  fuzz::Buf<std::int16_t> w(rows * l1, offset, 0), bias(l1, offset, 0);
  src.fill(w.data(), rows * l1, INT16_MIN, INT16_MAX);
  src.fill(bias.data(), l1, INT16_MIN, INT16_MAX);
  const bool bad_id = s.active > 0 && src.range(0, 31) == 0;  // one id == features: must be refused
  std::vector<std::uint32_t> ids[2];
  for (auto& list : ids) {
    list.resize(std::max(s.active, 1));
    for (auto& id : list) id = std::uint32_t(src.range(0, s.features - 1));
  }
  if (bad_id) ids[s.perspectives > 1][std::size_t(src.range(0, s.active - 1))] = std::uint32_t(s.features);
  for (const ft_refresh::Variant& v : ft_refresh::variants()) {
    if (!v.info.available()) continue;
    const std::string why = ft_refresh::why_unsupported(v, s);
    fuzz::Buf<std::int16_t> acc[2] = {{l1, offset, 0x5AA5}, {l1, offset, 0x5AA5}};
    ft_refresh::Args a;
    a.weights = w.data(), a.bias = bias.data();
    for (int p = 0; p < 2; ++p) a.active[p] = ids[p].data(), a.acc[p] = acc[p].data();
    const std::string where = v.info.name + " " + shape + " features " + std::to_string(s.features);
    if (!why.empty() || bad_id) {
      fuzz::expect_refusal(v.info.name, shape, why.empty() ? ">= features" : why, [&] { ft_refresh::run(v, s, a); });
      for (auto& b : acc)
        if (!b.guard_intact() || b.data()[0] != 0x5AA5) fuzz::fail(where + ": wrote while refusing");
      continue;
    }
    if (!valid) fuzz::fail(v.info.name + " accepts " + shape + ", outside the op's limits");
    ft_refresh::run(v, s, a);
    for (int p = 0; p < 2; ++p) {
      std::vector<std::int16_t> want(l1, std::int16_t(0x5AA5));
      if (p < s.perspectives) ref::ft_refresh(bias.data(), w.data(), s.l1, s.features, ids[p].data(), s.active, want.data());
      fuzz::expect_same(acc[p].data(), want.data(), l1, where + " perspective " + std::to_string(p));
      if (!acc[p].guard_intact()) fuzz::fail(where + ": wrote outside acc[" + std::to_string(p) + "]");
    }
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
