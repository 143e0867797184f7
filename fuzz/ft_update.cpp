// Differential fuzz target of ft_update: every variant (tiled and fused forms) against
// ref::ft_update, copy and in place, one or two perspectives, with int16 wrap-around and
// duplicate ids; a bad id must be refused before anything is written.
#include "fuzz/driver.h"
#include "kernels/ft_update/registry.h"
#include "reference/ft.h"

namespace {
using namespace nnuelab;

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  ft_update::Shape s;
  s.l1 = src.length(64, 4096);
  s.features = int(src.range(1, 300));
  // The fused forms take exact small counts: favour them.
  s.n_removed = src.flag() ? int(src.range(0, 2)) : int(src.range(0, 65));
  s.n_added = src.flag() ? int(src.range(0, 2)) : int(src.range(0, 65));
  s.perspectives = int(src.range(0, 15)) == 0 ? int(src.range(0, 3)) : int(src.range(1, 2));
  s.in_place = src.flag();
  const std::string shape = ft_update::shape_name(s);
  const bool valid = s.l1 >= 1 && s.l1 <= 4096;
  const std::size_t l1 = valid ? std::size_t(s.l1) : 1, rows = std::size_t(s.features);
  const int offset = int(src.range(0, 15));
  fuzz::Buf<std::int16_t> w(rows * l1, offset, 0), prev[2] = {{l1, offset, 0}, {l1, offset, 0}};
  src.fill(w.data(), rows * l1, INT16_MIN, INT16_MAX);
  for (auto& p : prev) src.fill(p.data(), l1, INT16_MIN, INT16_MAX);
  auto ids = [&](int n) {
    std::vector<std::uint32_t> v(std::max(n, 1));
    for (auto& id : v) id = std::uint32_t(src.range(0, s.features - 1));
    return v;
  };
  std::vector<std::uint32_t> rem[2] = {ids(s.n_removed), ids(s.n_removed)}, add[2] = {ids(s.n_added), ids(s.n_added)};
  const bool bad_id = s.n_added > 0 && src.range(0, 31) == 0;  // one added id == features: must be refused
  if (bad_id) add[s.perspectives > 1][std::size_t(src.range(0, s.n_added - 1))] = std::uint32_t(s.features);
  for (const ft_update::Variant& v : ft_update::variants()) {
    if (!v.info.available()) continue;
    const std::string why = ft_update::why_unsupported(v, s);
    fuzz::Buf<std::int16_t> out[2] = {{l1, offset, 0x5AA5}, {l1, offset, 0x5AA5}};
    if (s.in_place)
      for (int p = 0; p < 2; ++p) std::copy_n(prev[p].data(), l1, out[p].data());
    ft_update::Args a;
    a.weights = w.data();
    for (int p = 0; p < 2; ++p) {
      a.prev[p] = s.in_place ? out[p].data() : prev[p].data();
      a.out[p] = out[p].data(), a.removed[p] = rem[p].data(), a.added[p] = add[p].data();
    }
    const std::string where = v.info.name + " " + shape + " features " + std::to_string(s.features);
    // Unchanged (prev when in place, the poison otherwise) is what a refusal leaves.
    auto untouched = [&](int p) {
      std::vector<std::int16_t> u(l1, std::int16_t(0x5AA5));
      if (s.in_place) std::copy_n(prev[p].data(), l1, u.begin());
      return u;
    };
    if (!why.empty() || bad_id) {
      fuzz::expect_refusal(v.info.name, shape, why.empty() ? ">= features" : why, [&] { ft_update::run(v, s, a); });
      for (int p = 0; p < 2; ++p) fuzz::expect_same(out[p].data(), untouched(p).data(), l1, where + ": refused, yet wrote");
      continue;
    }
    if (!valid) fuzz::fail(v.info.name + " accepts " + shape + ", outside the op's limits");
    ft_update::run(v, s, a);
    for (int p = 0; p < 2; ++p) {
      std::vector<std::int16_t> want = untouched(p);
      if (p < s.perspectives)
        ref::ft_update(w.data(), s.l1, s.features, prev[p].data(), rem[p].data(), s.n_removed, add[p].data(), s.n_added, want.data());
      fuzz::expect_same(out[p].data(), want.data(), l1, where + " perspective " + std::to_string(p));
      if (!out[p].guard_intact()) fuzz::fail(where + ": wrote outside out[" + std::to_string(p) + "]");
    }
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
