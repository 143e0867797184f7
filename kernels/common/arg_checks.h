// Argument checks written once and read two ways (scalar side: never included by
// ISA-compiled files). A checked entry point's checks are a function of a checker c, in
// the order of their messages, each check one of
//   c.need(ptr, name[, p])                 non-null and aligned to its elements
//   c.aligned(ptr, name)                   aligned to its elements, or null
//   c.ids(list, n, features, name, p)      every id < features; after the list's need,
//                                          so a pointer is tested before its ids are read
//   c.require(ok, say)                     any other condition; say() is its message
// each returning false to stop at a fault, and the function returning whether all passed.
// Read with Test, on every call, they are one test that formats nothing; read with
// Refuse, cold and only after Test said no (refuse, below), the first fault throws
// std::invalid_argument "<who>: <message>". One description, two readings: the test and
// the refusal cannot disagree on what is refused. Used by the elementwise ops' buffer
// checks (elementwise.h), ft_refresh / ft_update (kernels/ft_refresh/checks.h), find_nnz
// and dot_u8i8 (their registry.cpp), and affine's run, run_with_bits and run_with_list
// (its registry.cpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/common/refusal.h"
#include "kernels/common/variant.h"

namespace nnuelab::arg_checks {

// An argument's name as the messages print it: "bias", or per perspective "acc[1]"
// (p >= 0). Built only when a check fails.
inline std::string arg_name(const char* name, int p = -1) {
  return p < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(p) + "]";
}

// Whether every id of ids[0..n) is below `features` (a kernel reads row id unchecked).
inline bool ids_below(const std::uint32_t* ids, int n, int features) {
  bool ok = true;  // no early exit: a short list's loop, no branch per id
  for (int k = 0; k < n; ++k) ok &= ids[k] < std::uint32_t(features);
  return ok;
}

// The test of every call: no string is built on the way.
struct Test {
  template <class T>
  bool need(const T* ptr, const char*, int = -1) const {
    return ptr && element_aligned(ptr);
  }
  template <class T>
  bool aligned(const T* ptr, const char*) const {
    return element_aligned(ptr);
  }
  bool ids(const std::uint32_t* list, int n, int features, const char*, int) const {
    return ids_below(list, n, features);
  }
  template <class Say>
  bool require(bool ok, Say&&) const {
    return ok;
  }
};

// The refusal: throws the first fault's message (who: the variant's name).
struct Refuse {
  const std::string& who;
  template <class T>
  bool need(const T* ptr, const char* name, int p = -1) const {
    if (!ptr) refuse_call(who, arg_name(name, p) + " is null");
    return aligned(ptr, arg_name(name, p).c_str());
  }
  template <class T>
  bool aligned(const T* ptr, const char* name) const {
    check_element_aligned(who, ptr, name);
    return true;
  }
  bool ids(const std::uint32_t* list, int n, int features, const char* name, int p) const {
    for (int k = 0; k < n; ++k)
      if (list[k] >= std::uint32_t(features))
        refuse_call(who, arg_name(name, p) + "[" + std::to_string(k) + "] = " + std::to_string(list[k]) +
                             " >= features " + std::to_string(features));
    return true;
  }
  template <class Say>
  bool require(bool ok, Say&& say) const {
    if (!ok) refuse_call(who, say());
    return true;
  }
};

// The cold half of a checked call: checks(Refuse{who}, args...) throws the first fault.
// Called only when checks(Test{}, args...) was false, so it must find one. The arguments
// go by value (a struct or a variant as std::cref): a lambda holding the call's pointers,
// by reference or by value, made GCC 12 build it in memory on every accepted call
// (callgrind: 92-101 instructions per checked crelu32 call against 84).
template <class Checks, class... Args>
[[noreturn, gnu::cold, gnu::noinline]] void refuse(const std::string& who, Checks checks, Args... args) {
  checks(Refuse{who}, args...);
  throw std::logic_error(who + ": the argument checks failed as a test but found no fault to report");
}

// The whole of a checked call's argument checks: the test inline, the refusal cold.
template <class Checks, class... Args>
[[gnu::always_inline]] inline void check(const std::string& who, Checks checks, Args... args) {
  if (!checks(Test{}, args...)) [[unlikely]]
    refuse(who, checks, args...);
}

}  // namespace nnuelab::arg_checks
