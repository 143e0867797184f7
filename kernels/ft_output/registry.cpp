#include "kernels/ft_output/registry.h"

#include <stdexcept>

#include "kernels/common/lane_order.h"

#define NNUELAB_REGISTRY_OP ft_output
#define NNUELAB_REGISTRY_LIST "kernels/ft_output/ft_output.inc"
#define NNUELAB_REGISTRY_KERNEL NNUELAB_FT_OUTPUT_KERNEL
#define NNUELAB_REGISTRY_LANES  // NNUELAB_VARIANT_LANES lines: packus lane counts
#include "kernels/common/registry_table.inc"

namespace nnuelab::ft_output {

const char* form_name(Form f) {
  switch (f) {
    case Form::kClamp127: return "clamp127";
    case Form::kClamp255: return "clamp255";
  }
  return "unknown_form";
}

std::string shape_name(const Shape& s) { return std::string(form_name(s.form)) + "_" + std::to_string(s.n); }

namespace {
Refusal refusal(const Variant& v, const Shape& s) {
  if (s.form != Form::kClamp127 && s.form != Form::kClamp255)
    return refusal_of(
        v, s,
        {[](const Refusal& r) { return "unknown form " + std::to_string(r.a) + " (clamp127 = 0, clamp255 = 1)"; },
         nullptr, "", int(s.form)});
  return refusal_of(v, s, paired_limits(s.n));
}
}  // namespace

std::string why_unsupported(const Variant& v, const Shape& s) { return refusal(v, s).message(); }

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, refusal, shape_name);
}


std::vector<int> output_order(const Variant& v, const Shape& s) {
  // A supported shape is a whole number of steps, and a step is one lane block.
  return checked_output_order(v, s, why_unsupported, shape_name, [&](int lanes) { return packus_lane_order(lanes, s.n / 2); });
}

}  // namespace nnuelab::ft_output
