// The crelu32_pair registry: every variant of kernels/crelu32_pair/crelu32_pair.inc, plus checked entry points
// (kernels/common/shifted32_registry_api.inc declares them for the three int32 activations).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "kernels/crelu32_pair/crelu32_pair.h"
#include "kernels/common/elementwise.h"

namespace nnuelab::crelu32_pair {

// order_lanes (declared by NNUELAB_VARIANT_LANES lines, the *_lanes forms): 1 = canonical
// output order; L > 1 = each half in the packs' order over L 128-bit lanes.
using Variant = ElementwiseVariant<Shape, std::int32_t, std::uint8_t>;

// A call writes 2n output bytes: the squared half, then the clipped half; for *_lanes
// forms each half in its packs order, the halves in place.
#include "kernels/common/shifted32_registry_api.inc"

}  // namespace nnuelab::crelu32_pair
