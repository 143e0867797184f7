// Argument checks shared by the ft_refresh and ft_update checked entry points (scalar
// side: never included by ISA-compiled files). Each throws std::invalid_argument whose
// message starts with the variant name and says what is wrong.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>

#include "kernels/common/refusal.h"
#include "kernels/common/variant.h"

namespace nnuelab::ft_checks {

// An argument's name as the messages print it: "bias", or per perspective "acc[1]"
// (p >= 0). Built only when a check fails: the checks themselves format nothing, as they
// run before every call.
inline std::string arg_name(const char* name, int p = -1) {
  return p < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(p) + "]";
}

// Non-null and aligned to its elements (see check_element_aligned in variant.h); p: the
// perspective of a per-perspective argument (arg_name).
template <class T>
void need(const std::string& who, const T* ptr, const char* name, int p = -1) {
  if (!ptr) refuse_call(who, arg_name(name, p) + " is null");
  if (!element_aligned(ptr))
    refuse_call(who, arg_name(name, p) + " is not aligned to its " + std::to_string(alignof(T)) + "-byte elements");
}

// Every id of list[0..n) must be < features: a kernel reads row id unchecked.
inline void check_ids(const std::string& who, const std::uint32_t* ids, int n, int features, const char* name, int p) {
  for (int k = 0; k < n; ++k)
    if (ids[k] >= std::uint32_t(features))
      refuse_call(who, arg_name(name, p) + "[" + std::to_string(k) + "] = " + std::to_string(ids[k]) + " >= features " +
                    std::to_string(features));
}

// need() and check_ids() as tests: no string is built on the way.
template <class T>
bool usable(const T* ptr) {
  return ptr && element_aligned(ptr);
}
inline bool ids_below(const std::uint32_t* ids, int n, int features) {
  bool ok = true;  // no early exit: a short list's loop, no branch per id
  for (int k = 0; k < n; ++k) ok &= ids[k] < std::uint32_t(features);
  return ok;
}

// Whether the int16 ranges [a, a + n) and [b, b + n) share an element.
inline bool overlap(const std::int16_t* a, const std::int16_t* b, int n) {
  const std::less<const std::int16_t*> lt;  // total order even across unrelated arrays
  return lt(a, b + n) && lt(b, a + n);
}

// An op's argument checks are written once, as a function of a checker c, in the
// messages' order, each check one of
//   c.need(ptr, name[, p])                 non-null and aligned (need)
//   c.ids(list, n, features, name, p)      every id < features (check_ids); after the
//                                          list's need, so a pointer is tested before its
//                                          ids are read
//   c.require(ok, say)                     any other condition; say() is its message
// each returning false to stop at a fault. Run with Test (on every call) they are one test
// that formats nothing; with Refuse (cold, only after Test said no) the first fault throws
// its message. One description, two readings: they cannot disagree on what is refused.
struct Test {
  template <class T>
  bool need(const T* ptr, const char*, int = -1) const { return usable(ptr); }
  bool ids(const std::uint32_t* list, int n, int features, const char*, int) const {
    return ids_below(list, n, features);
  }
  template <class Say>
  bool require(bool ok, Say&&) const { return ok; }
};
struct Refuse {
  const std::string& who;
  template <class T>
  bool need(const T* ptr, const char* name, int p = -1) const {
    ft_checks::need(who, ptr, name, p);
    return true;
  }
  bool ids(const std::uint32_t* list, int n, int features, const char* name, int p) const {
    check_ids(who, list, n, features, name, p);
    return true;
  }
  template <class Say>
  bool require(bool ok, Say&& say) const {
    if (!ok) refuse_call(who, say());
    return true;
  }
};

// The cold half of run_checked: the checks read by Refuse, which throws the first fault.
template <class Shape, class Args, class Checks>
[[noreturn, gnu::cold, gnu::noinline]] void refuse_args(const std::string& who, const Shape& s, const Args& a,
                                                         Checks checks) {
  checks(Refuse{who}, s, a);
  throw std::logic_error(who + ": the argument checks failed as a test but found no fault to report");
}

// The checked run of a feature-transformer op: the shape's refusal `why` (refusal.h), then
// the arguments: checks(c, s, a), the op's argument checks (above), read as one Test on
// every call and, only when it fails, by the cold refuse_args.
template <class V, class Shape, class Args, class Name, class Checks>
void run_checked(const V& v, const Shape& s, const Args& a, const Refusal& why, Name shape_name, Checks checks) {
  if (why) throw std::invalid_argument(v.info.name + " does not support " + shape_name(s) + ": " + why.message());
  if (!checks(Test{}, s, a)) [[unlikely]]
    refuse_args(v.info.name, s, a, checks);
  v.run(s, a);
}

// run_active of a feature-transformer op: the scalar baseline (first) refuses only what
// the op refuses, so its reason is the op's; otherwise the forced variant, or the last
// native one that accepts s (active_variant, as every op), through the op's checked run.
template <class V, class Shape, class Args, class Why, class Name, class Run>
const V& run_active(std::span<const V> all, const char* op, const Shape& s, const Args& a, Why refusal,
                    Name shape_name, Run run) {
  if (const Refusal why = refusal(all.front(), s))
    throw std::invalid_argument(std::string(op) + ": no variant supports " + shape_name(s) + ": " + why.message());
  const V& v = active_variant(all, [&](const V& c) { return !refusal(c, s); });
  run(v, s, a);
  return v;
}

}  // namespace nnuelab::ft_checks
