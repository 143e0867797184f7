#include "kernels/ft_update/registry.h"

#include <stdexcept>
#include <vector>

#include "kernels/ft_refresh/checks.h"

#define NNUELAB_REGISTRY_OP ft_update
#define NNUELAB_REGISTRY_LIST "kernels/ft_update/ft_update.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_FT_UPDATE_KERNEL
#define NNUELAB_REGISTRY_NO_BITS
#include "kernels/common/registry_table.inc"

namespace nnuelab::ft_update {

std::string shape_name(const Shape& s) {
  return std::to_string(s.l1) + "+" + std::to_string(s.n_added) + "-" + std::to_string(s.n_removed) +
         (s.perspectives == 2 ? "x2p" : "") + (s.in_place ? ".inplace" : "");
}

namespace {
// The op's own count limits (their order is the messages'), then the variant's supports().
Refusal refusal(const Variant& v, const Shape& s) {
  return refusal_of(v, s, count_limits_of(CountLimit{"l1", s.l1, 1, 4096},
                                          CountLimit{"features", s.features, 1, 65536},
                                          CountLimit{"n_removed", s.n_removed, 0, 64},
                                          CountLimit{"n_added", s.n_added, 0, 64},
                                          CountLimit{"perspectives", s.perspectives, 1, 2}));
}
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

namespace {
// The argument checks of run, in the messages' order (arg_checks.h: one description, read as
// a test on every call and as the refusal's messages).
constexpr auto check_args = [](const auto& c, const Shape& s, const Args& a) {
  using ft_checks::arg_name, ft_checks::overlap;
  if ((s.n_removed > 0 || s.n_added > 0) && !c.need(a.weights, "weights")) return false;
  for (int p = 0; p < s.perspectives; ++p) {
    if (!c.need(a.prev[p], "prev", p) || !c.need(a.out[p], "out", p)) return false;
    if (s.n_removed > 0 && !(c.need(a.removed[p], "removed", p) &&
                             c.ids(a.removed[p], s.n_removed, s.features, "removed", p)))
      return false;
    if (s.n_added > 0 && !(c.need(a.added[p], "added", p) && c.ids(a.added[p], s.n_added, s.features, "added", p)))
      return false;
    if (!c.require(!s.in_place || a.out[p] == a.prev[p], [&] {
          return "an in-place update needs " + arg_name("out", p) + " == " + arg_name("prev", p);
        }))
      return false;
    // A copy update that overlapped would read rows of prev it already wrote.
    if (!c.require(s.in_place || !overlap(a.out[p], a.prev[p], s.l1), [&] {
          return arg_name("out", p) + " overlaps " + arg_name("prev", p) + " (use in_place with out == prev)";
        }))
      return false;
  }
  return c.require(s.perspectives != 2 || !overlap(a.out[0], a.out[1], s.l1),
                   [] { return std::string("out[0] and out[1] overlap"); });
};
}  // namespace

void run(const Variant& v, const Shape& s, const Args& a) {
  ft_checks::run_checked(v, s, a, refusal, shape_name, check_args);
}

const Variant& run_active(const Shape& s, const Args& a) {
  return ft_checks::run_active(variants, s, a, refusal, shape_name, run);
}

}  // namespace nnuelab::ft_update
