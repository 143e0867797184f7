#include "kernels/dot_u8i8/registry.h"

#include <stdexcept>
#include <vector>

#include "kernels/common/arg_checks.h"
#include "kernels/common/refusal.h"
#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::dot_u8i8 { \
  NNUELAB_DOT_U8I8_KERNEL(tech)     \
  }
#include "kernels/dot_u8i8/dot_u8i8.inc"
#undef NNUELAB_ROW

// peak.inc lines carry a chain count, so they expand through their own row macro.
#define NNUELAB_PEAK(isa, instruction, chains, note) NNUELAB_EACH_##isa(NNUELAB_PEAK_ROW, instruction, chains, note)
#define NNUELAB_PEAK_ROW(ns, instruction, chains, note) \
  namespace nnuelab::ns::dot_u8i8 {                     \
  NNUELAB_DOT_U8I8_PEAK(instruction, chains)            \
  }
#include "kernels/dot_u8i8/peak.inc"
#undef NNUELAB_PEAK_ROW

namespace nnuelab::dot_u8i8 {

Semantics semantics_of(const std::string& t) {
  if (t.starts_with("dpbusds")) return Semantics::kDpbusds;
  if (t.starts_with("dpbusd")) return Semantics::kDpbusd;
  if (t.starts_with("maddubs_x2")) return Semantics::kMaddubsX2;
  if (t.starts_with("maddubs")) return Semantics::kMaddubs;
  if (t.starts_with("sdot")) return Semantics::kSdot;
  throw std::logic_error("dot_u8i8 technique '" + t + "' does not start with its semantics");
}

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note)                                                            \
  Variant{make_variant_info("dot_u8i8", #ns, #tech, note), semantics_of(#tech), &ns::dot_u8i8::tech##_supports, \
          &ns::dot_u8i8::tech##_run},
  static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
    return std::vector<Variant>{
#include "kernels/dot_u8i8/dot_u8i8.inc"
    };
  }();
#undef NNUELAB_ROW
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.groups); }

namespace {
Refusal refusal(const Variant& v, const Shape& s) {
  return refusal_of(v, s, count_limit("groups", s.groups, 1, 1 << 20));
}
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

// The buffers of a checked call (arg_checks.h: one test inline, the refusal cold).
constexpr auto buffer_checks = [](const auto& c, const std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
                                  const std::uint8_t* u2, const std::int8_t* w2) {
  return c.require(acc && u && w && u2 && w2, [] { return std::string("run needs all five buffers"); }) &&
         c.aligned(acc, "acc");
};

void run(const Variant& v, const Shape& s, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
         const std::uint8_t* u2, const std::int8_t* w2) {
  check_shape(v, s, refusal, shape_name);
  arg_checks::check(v.info.name, buffer_checks, acc, u, w, u2, w2);
  v.run(s, acc, u, w, u2, w2);
}

std::span<const PeakKernel> peak_kernels() {
#define NNUELAB_PEAK_ROW(ns, instruction, chains, note)                              \
  PeakKernel{make_variant_info("peak", #ns, #instruction, note), chains,             \
             &ns::dot_u8i8::peak_##instruction##_chains##chains},
  static const std::vector<PeakKernel> table = {
#include "kernels/dot_u8i8/peak.inc"
  };
#undef NNUELAB_PEAK_ROW
  return table;
}

}  // namespace nnuelab::dot_u8i8
