#include "kernels/ft_output/registry.h"

#include <stdexcept>

#include "kernels/common/lane_order.h"
#include "kernels/common/registry_macros.h"

// This op's extra registry lines: a declared packus lane count (see ft_output.inc).
#define NNUELAB_VARIANT_LANES(isa, technique, lanes, note) \
  NNUELAB_EACH_##isa(NNUELAB_ROW_LANES, technique, lanes, note)
#define NNUELAB_VARIANT_LANES_BITS(isa, technique, lanes, note) \
  NNUELAB_EACH_##isa(NNUELAB_ROW_LANES_BITS, technique, lanes, note)

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::ft_output { \
  NNUELAB_FT_OUTPUT_KERNEL(tech)     \
  }
#define NNUELAB_ROW_BITS NNUELAB_ROW
#define NNUELAB_ROW_LANES(ns, tech, lanes, note) NNUELAB_ROW(ns, tech, note)
#define NNUELAB_ROW_LANES_BITS NNUELAB_ROW_LANES
#include "kernels/ft_output/ft_output.inc"
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
#undef NNUELAB_ROW_LANES
#undef NNUELAB_ROW_LANES_BITS

namespace nnuelab::ft_output {

std::span<const Variant> variants() {
#define NNUELAB_ROW_LANES_B(ns, tech, lanes, note, bits)                                                      \
  Variant{{make_variant_info("ft_output", #ns, #tech, note), &ns::ft_output::tech##_supports, &ns::ft_output::tech##_run, \
           bits},                                                                                             \
          lanes},
#define NNUELAB_ROW(ns, tech, note) NNUELAB_ROW_LANES_B(ns, tech, 1, note, false)
#define NNUELAB_ROW_BITS(ns, tech, note) NNUELAB_ROW_LANES_B(ns, tech, 1, note, true)
#define NNUELAB_ROW_LANES(ns, tech, lanes, note) NNUELAB_ROW_LANES_B(ns, tech, lanes, note, false)
#define NNUELAB_ROW_LANES_BITS(ns, tech, lanes, note) NNUELAB_ROW_LANES_B(ns, tech, lanes, note, true)
  static const std::vector<Variant> table = {
#include "kernels/ft_output/ft_output.inc"
  };
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
#undef NNUELAB_ROW_LANES
#undef NNUELAB_ROW_LANES_BITS
#undef NNUELAB_ROW_LANES_B
  return table;
}

const char* form_name(Form f) {
  switch (f) {
    case Form::kClamp127: return "clamp127";
    case Form::kClamp255: return "clamp255";
  }
  return "unknown_form";
}

std::string shape_name(const Shape& s) { return std::string(form_name(s.form)) + "_" + std::to_string(s.n); }

std::string why_unsupported(const Variant& v, const Shape& s) {
  std::string limits;
  if (s.form != Form::kClamp127 && s.form != Form::kClamp255)
    limits = "unknown form " + std::to_string(int(s.form)) + " (clamp127 = 0, clamp255 = 1)";
  else if (s.n < 2 || s.n > (1 << 20)) limits = "n must be 2..1048576, got " + std::to_string(s.n);
  else if (s.n % 2) limits = "n = " + std::to_string(s.n) + " is odd (inputs are paired i with i + n/2)";
  return why_unsupported_elementwise(v, s, limits);
}

void run(const Variant& v, const Shape& s, const std::int16_t* input, std::uint8_t* output, std::uint64_t* bits) {
  run_checked(v, s, input, output, bits, why_unsupported(v, s), shape_name(s));
}

bool is_canonical_order(const Variant& v) { return v.packus_lanes == 1; }

std::vector<int> output_order(const Variant& v, const Shape& s) {
  if (const std::string why = why_unsupported(v, s); !why.empty())
    throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + why);
  // A supported shape is a whole number of steps, and a step is one lane block.
  return packus_lane_order(v.packus_lanes, s.n / 2);
}

std::vector<std::int8_t> permute_next_layer_columns(const std::int8_t* weights, int in, int out,
                                                    const std::vector<int>& order) {
  if (int(order.size()) != in)
    throw std::invalid_argument("permute_next_layer_columns: the order has " + std::to_string(order.size()) +
                                " positions, the layer " + std::to_string(in) + " inputs");
  std::vector<std::int8_t> w(std::size_t(in) * out);
  for (int o = 0; o < out; ++o)
    for (int p = 0; p < in; ++p) w[std::size_t(o) * in + p] = weights[std::size_t(o) * in + order[p]];
  return w;
}

}  // namespace nnuelab::ft_output
