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
// The argument checks of run, in the messages' order: the first fault, thrown (see
// ft_checks::run_checked).
[[noreturn, gnu::cold, gnu::noinline]] void refuse_args(const std::string& who, const Shape& s, const Args& a) {
  if (s.n_removed > 0 || s.n_added > 0) ft_checks::need(who, a.weights, "weights");
  for (int p = 0; p < s.perspectives; ++p) {
    ft_checks::need(who, a.prev[p], "prev", p);
    ft_checks::need(who, a.out[p], "out", p);
    if (s.n_removed > 0) ft_checks::need(who, a.removed[p], "removed", p);
    if (s.n_added > 0) ft_checks::need(who, a.added[p], "added", p);
    ft_checks::check_ids(who, a.removed[p], s.n_removed, s.features, "removed", p);
    ft_checks::check_ids(who, a.added[p], s.n_added, s.features, "added", p);
    using ft_checks::arg_name;
    if (s.in_place && a.out[p] != a.prev[p])
      ft_checks::fail(who, "an in-place update needs " + arg_name("out", p) + " == " + arg_name("prev", p));
    // A copy update that overlapped would read rows of prev it already wrote.
    if (!s.in_place && ft_checks::overlap(a.out[p], a.prev[p], s.l1))
      ft_checks::fail(who, arg_name("out", p) + " overlaps " + arg_name("prev", p) + " (use in_place with out == prev)");
  }
  if (s.perspectives == 2 && ft_checks::overlap(a.out[0], a.out[1], s.l1))
    ft_checks::fail(who, "out[0] and out[1] overlap");
  throw std::logic_error(who + ": args_ok and refuse_args disagree");
}

// refuse_args' checks as one test (a pointer is tested before its ids are read).
bool args_ok(const Shape& s, const Args& a) {
  using ft_checks::ids_below, ft_checks::overlap, ft_checks::usable;
  if ((s.n_removed > 0 || s.n_added > 0) && !usable(a.weights)) return false;
  for (int p = 0; p < s.perspectives; ++p) {
    if (!usable(a.prev[p]) || !usable(a.out[p])) return false;
    if (s.n_removed > 0 && !(usable(a.removed[p]) && ids_below(a.removed[p], s.n_removed, s.features))) return false;
    if (s.n_added > 0 && !(usable(a.added[p]) && ids_below(a.added[p], s.n_added, s.features))) return false;
    if (s.in_place ? a.out[p] != a.prev[p] : overlap(a.out[p], a.prev[p], s.l1)) return false;
  }
  return s.perspectives != 2 || !overlap(a.out[0], a.out[1], s.l1);
}
}  // namespace

void run(const Variant& v, const Shape& s, const Args& a) {
  ft_checks::run_checked(v, s, a, refusal(v, s), shape_name, args_ok, refuse_args);
}

const Variant& run_active(const Shape& s, const Args& a) {
  return ft_checks::run_active(variants(), "ft_update", s, a, refusal, shape_name, run);
}

}  // namespace nnuelab::ft_update
