#include "kernels/find_nnz/registry.h"

#include <vector>

#include "kernels/common/arg_checks.h"
#include "kernels/common/refusal.h"
#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::find_nnz { \
  NNUELAB_FIND_NNZ_KERNEL(tech)     \
  }
#include "kernels/find_nnz/find_nnz.inc"
#undef NNUELAB_ROW

namespace nnuelab::find_nnz {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note) \
  Variant{make_variant_info("find_nnz", #ns, #tech, note), &ns::find_nnz::tech##_supports, &ns::find_nnz::tech##_run},
  static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
    return std::vector<Variant>{
#include "kernels/find_nnz/find_nnz.inc"
    };
  }();
#undef NNUELAB_ROW
  return table;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.n) + (s.form == Form::kChunks ? "/chunks" : "/bytes");
}

namespace {
Refusal refusal(const Variant& v, const Shape& s) {
  Refusal limits = count_limit("n", s.n, 1, 65536);
  if (!limits && s.form == Form::kChunks && s.n % 4) limits = refuse_text("the chunks form needs n % 4 == 0");
  return refusal_of(v, s, limits);
}
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

// The buffers of a checked call (arg_checks.h: one test inline, the refusal cold).
constexpr auto buffer_checks = [](const auto& c, const std::uint8_t* input, const std::uint16_t* indices) {
  return c.require(input && indices, [] { return std::string("run needs input and output buffers"); }) &&
         c.aligned(indices, "indices");
};

int run(const Variant& v, const Shape& s, const std::uint8_t* input, std::uint16_t* indices) {
  check_shape(v, s, refusal, shape_name);
  arg_checks::check(v.info.name, buffer_checks, input, indices);
  return v.run(s, input, indices);
}

int run_active(const Shape& s, const std::uint8_t* input, std::uint16_t* indices, const Variant** ran) {
  const Variant& v = active_variant_for(variants, s, refusal, shape_name);
  if (ran) *ran = &v;
  return run(v, s, input, indices);
}

}  // namespace nnuelab::find_nnz
