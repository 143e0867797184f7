// Registry entry shape shared by the activation-like ops (crelu16, crelu32, and later
// sqr_crelu32, quantmoid4, pooling): no weights, so no prepare; supports + run only.
// Scalar-side header.
#pragma once
#include <stdexcept>
#include <string>

#include "kernels/common/variant.h"

namespace nnuelab {

template <class ShapeT, class In, class Out>
struct ElementwiseVariant {
  using Shape = ShapeT;
  using Input = In;
  using Output = Out;
  VariantInfo info;
  const char* (*supports)(const ShapeT&);
  void (*run)(const ShapeT&, const In*, Out*);
};

// `op_limits` is the op's own shape check (empty string when the shape is valid).
template <class V>
std::string why_unsupported_elementwise(const V& v, const typename V::Shape& s,
                                        const std::string& op_limits) {
  if (!v.info.available()) return "this CPU lacks " + v.info.missing();  // never call its code
  if (!op_limits.empty()) return op_limits;
  const char* reason = v.supports(s);
  return reason ? std::string(reason) : std::string();
}

}  // namespace nnuelab
