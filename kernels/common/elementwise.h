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

// The checked entry point every elementwise op exposes: refuses (std::invalid_argument
// naming the variant, the shape and the reason) instead of running on a bad shape or
// null buffers. `why` is the op's why_unsupported result for this shape.
template <class V>
void run_checked(const V& v, const typename V::Shape& s, const typename V::Input* input,
                 typename V::Output* output, const std::string& why, const std::string& shape_name) {
  if (!why.empty()) throw std::invalid_argument(v.info.name + " does not support " + shape_name + ": " + why);
  if (!input || !output) throw std::invalid_argument(v.info.name + ": run needs input and output buffers");
  v.run(s, input, output);
}

}  // namespace nnuelab
