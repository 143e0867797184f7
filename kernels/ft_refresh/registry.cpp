#include "kernels/ft_refresh/registry.h"

#include <stdexcept>
#include <vector>

#include "kernels/ft_refresh/checks.h"

#define NNUELAB_REGISTRY_OP ft_refresh
#define NNUELAB_REGISTRY_LIST "kernels/ft_refresh/ft_refresh.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_FT_REFRESH_KERNEL
#define NNUELAB_REGISTRY_NO_BITS
#include "kernels/common/registry_table.inc"

// floor.inc's lines expand through their own row macro (registry_macros.h's NNUELAB_EACH_<isa>).
#define NNUELAB_FT_FLOOR(isa, tech, note) NNUELAB_EACH_##isa(NNUELAB_FT_FLOOR_ROW, tech, note)
#define NNUELAB_FT_FLOOR_ROW(ns, tech, note) \
  namespace nnuelab::ns::ft_refresh {        \
  NNUELAB_FT_REFRESH_FLOOR(tech)             \
  }
#include "kernels/ft_refresh/floor.inc"
#undef NNUELAB_FT_FLOOR_ROW

namespace nnuelab::ft_refresh {

std::string shape_name(const Shape& s) {
  return std::to_string(s.l1) + "x" + std::to_string(s.active) + (s.perspectives == 2 ? "x2p" : "");
}

namespace {
// The op's own count limits (their order is the messages'), then the variant's supports().
Refusal refusal(const Variant& v, const Shape& s) {
  return refusal_of(v, s, count_limits_of(CountLimit{"l1", s.l1, 1, 4096},
                                          CountLimit{"features", s.features, 1, 65536},
                                          CountLimit{"active", s.active, 0, 64},
                                          CountLimit{"perspectives", s.perspectives, 1, 2}));
}
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

namespace {
// The argument checks of run, in the messages' order: the first fault, thrown (see
// ft_checks::run_checked).
[[noreturn, gnu::cold, gnu::noinline]] void refuse_args(const std::string& who, const Shape& s, const Args& a) {
  ft_checks::need(who, a.bias, "bias");
  if (s.active > 0) ft_checks::need(who, a.weights, "weights");
  for (int p = 0; p < s.perspectives; ++p) {
    ft_checks::need(who, a.acc[p], "acc", p);
    if (s.active > 0) ft_checks::need(who, a.active[p], "active", p);
    ft_checks::check_ids(who, a.active[p], s.active, s.features, "active", p);
  }
  // The two-perspective pass interleaves stores to both accumulators.
  if (s.perspectives == 2 && ft_checks::overlap(a.acc[0], a.acc[1], s.l1))
    ft_checks::fail(who, "acc[0] and acc[1] overlap");
  throw std::logic_error(who + ": args_ok and refuse_args disagree");
}

// refuse_args' checks as one test (a pointer is tested before its ids are read).
bool args_ok(const Shape& s, const Args& a) {
  using ft_checks::usable;
  if (!usable(a.bias) || (s.active > 0 && !usable(a.weights))) return false;
  for (int p = 0; p < s.perspectives; ++p) {
    if (!usable(a.acc[p])) return false;
    if (s.active > 0 && !(usable(a.active[p]) && ft_checks::ids_below(a.active[p], s.active, s.features))) return false;
  }
  return s.perspectives != 2 || !ft_checks::overlap(a.acc[0], a.acc[1], s.l1);
}
}  // namespace

void run(const Variant& v, const Shape& s, const Args& a) {
  ft_checks::run_checked(v, s, a, refusal(v, s), shape_name, args_ok, refuse_args);
}

std::span<const FloorKernel> floor_kernels() {
#define NNUELAB_FT_FLOOR_ROW(ns, tech, note) \
  FloorKernel{make_variant_info("floor", #ns, "ft_" #tech, note), &ns::ft_refresh::floor_##tech##_supports, &ns::ft_refresh::floor_##tech##_run},
  static const std::vector<FloorKernel> table = {
#include "kernels/ft_refresh/floor.inc"
  };
#undef NNUELAB_FT_FLOOR_ROW
  return table;
}

const Variant& run_active(const Shape& s, const Args& a) {
  return ft_checks::run_active(variants(), "ft_refresh", s, a, refusal, shape_name, run);
}

}  // namespace nnuelab::ft_refresh
