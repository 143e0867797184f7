// The checked entry points of ft_refresh and ft_update (scalar side: never included by
// ISA-compiled files): the shape's refusal, then the op's argument checks, written once as
// calls on a checker (kernels/common/arg_checks.h) in each op's registry.cpp. Each refusal
// throws std::invalid_argument whose message starts with the variant name and says what
// is wrong.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>

#include "kernels/common/arg_checks.h"
#include "kernels/common/refusal.h"
#include "kernels/common/variant.h"

namespace nnuelab::ft_checks {

using arg_checks::arg_name;

// Whether the int16 ranges [a, a + n) and [b, b + n) share an element.
inline bool overlap(const std::int16_t* a, const std::int16_t* b, int n) {
  const std::less<const std::int16_t*> lt;  // total order even across unrelated arrays
  return lt(a, b + n) && lt(b, a + n);
}

// The checked run of a feature-transformer op: the shape's refusal (the op's `refusal`
// function, tested inline and formatted only when it refuses: check_shape, refusal.h),
// then the arguments: checks(c, s, a), the op's argument checks, read as one test on every
// call and, only when it fails, by the cold refusal (arg_checks::check).
template <class V, class Shape, class Args, class Why, class Name, class Checks>
void run_checked(const V& v, const Shape& s, const Args& a, Why refusal, Name shape_name, Checks checks) {
  check_shape(v, s, refusal, shape_name);
  arg_checks::check(v.info.name, checks, std::cref(s), std::cref(a));
  v.run(s, a);
}

// run_active of a feature-transformer op: the scalar baseline (first) refuses only what
// the op refuses, so its reason is the op's; otherwise the forced variant, or the last
// native one that accepts s (active_variant, as every op), through the op's checked run.
template <class V, class Shape, class Args, class Why, class Name, class Run>
const V& run_active(std::span<const V> (*table)(), const Shape& s, const Args& a, Why refusal, Name shape_name,
                    Run run) {
  const V& v = active_variant_for(table, s, refusal, shape_name);
  run(v, s, a);
  return v;
}

}  // namespace nnuelab::ft_checks
