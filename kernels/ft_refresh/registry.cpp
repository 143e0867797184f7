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
// The argument checks of run, in the messages' order (arg_checks.h: one description, read as
// a test on every call and as the refusal's messages).
constexpr auto check_args = [](const auto& c, const Shape& s, const Args& a) {
  if (!c.need(a.bias, "bias")) return false;
  if (s.active > 0 && !c.need(a.weights, "weights")) return false;
  for (int p = 0; p < s.perspectives; ++p) {
    if (!c.need(a.acc[p], "acc", p)) return false;
    if (s.active > 0 && !c.need(a.active[p], "active", p)) return false;
    if (!c.ids(a.active[p], s.active, s.features, "active", p)) return false;
  }
  // The two-perspective pass interleaves stores to both accumulators.
  return c.require(s.perspectives != 2 || !ft_checks::overlap(a.acc[0], a.acc[1], s.l1),
                   [] { return std::string("acc[0] and acc[1] overlap"); });
};
}  // namespace

void run(const Variant& v, const Shape& s, const Args& a) {
  ft_checks::run_checked(v, s, a, refusal, shape_name, check_args);
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
  return ft_checks::run_active(variants, s, a, refusal, shape_name, run);
}

}  // namespace nnuelab::ft_refresh
