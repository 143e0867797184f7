#include "kernels/find_nnz/registry.h"

#include <stdexcept>
#include <vector>

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
  static const std::vector<Variant> table = {
#include "kernels/find_nnz/find_nnz.inc"
  };
#undef NNUELAB_ROW
  return table;
}

std::string shape_name(const Shape& s) {
  return std::to_string(s.n) + (s.form == Form::kChunks ? "/chunks" : "/bytes");
}

std::string why_unsupported(const Variant& v, const Shape& s) {
  if (!v.info.available()) return "this CPU lacks " + v.info.missing();
  if (s.n < 1 || s.n > 65536) return "n must be 1..65536, got " + std::to_string(s.n);
  if (s.form == Form::kChunks && s.n % 4) return "the chunks form needs n % 4 == 0";
  const char* reason = v.supports(s);
  return reason ? std::string(reason) : std::string();
}

int run(const Variant& v, const Shape& s, const std::uint8_t* input, std::uint16_t* indices) {
  const std::string why = why_unsupported(v, s);
  if (!why.empty()) throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + why);
  if (!input || !indices) throw std::invalid_argument(v.info.name + ": run needs input and output buffers");
  check_element_aligned(v.info.name, indices, "indices");
  return v.run(s, input, indices);
}

int run_active(const Shape& s, const std::uint8_t* input, std::uint16_t* indices, const Variant** ran) {
  const Variant& v = active_variant(variants(), [&](const Variant& c) { return why_unsupported(c, s).empty(); });
  if (ran) *ran = &v;
  return run(v, s, input, indices);
}

}  // namespace nnuelab::find_nnz
