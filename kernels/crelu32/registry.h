// The crelu32 registry: every variant of kernels/crelu32/crelu32.inc, plus checked entry points
// (kernels/common/shifted32_registry_api.inc declares them for the three int32 activations).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/crelu32/crelu32.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::crelu32 {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines, the *_lanes forms): 1 = canonical
// output order; L > 1 = the packs' order over L 128-bit lanes (packs32x2_lane_order).
using Variant = ElementwiseVariant<Shape, std::int32_t, std::uint8_t>;

// A call writes n output bytes (n int32 inputs, one byte each).
#include "kernels/common/shifted32_registry_api.inc"

}  // namespace nnuelab::crelu32
