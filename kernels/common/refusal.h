// Why a variant refuses a shape, for the checked entry points (scalar side: never included
// by ISA-compiled files). The checks run before every checked call, so a reason is kept as
// the numbers that say it and formatted only when a call is refused: built as a
// std::string at each level of the checks, the empty reasons of accepted calls cost about
// 100 of the 200 instructions of a checked elementwise call (callgrind,
// floor/scalar/checked_call).
#pragma once
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "kernels/common/variant.h"

namespace nnuelab {

// Empty (false) when the shape is taken; else `say` turns the fields into the message.
struct Refusal {
  std::string (*say)(const Refusal&) = nullptr;  // null: the shape is taken
  const void* what = nullptr;                    // a text, a name, or the variant's info
  const char* note = "";
  int a = 0, b = 0, c = 0;
  explicit operator bool() const { return say != nullptr; }
  std::string message() const { return say ? say(*this) : std::string(); }
};

// A fixed reason (a variant's supports(), a note of the op's).
inline Refusal refuse_text(const char* reason) {
  return {[](const Refusal& r) { return std::string(static_cast<const char*>(r.what)); }, reason};
}

// A count outside its bounds: "<name> must be lo..hi<note>, got value"; empty within them.
inline Refusal count_limit(const char* name, int value, int lo, int hi, const char* note = "") {
  if (value >= lo && value <= hi) return {};
  return {[](const Refusal& r) {
            return static_cast<const char*>(r.what) + std::string(" must be ") + std::to_string(r.b) + ".." +
                   std::to_string(r.c) + r.note + ", got " + std::to_string(r.a);
          },
          name, note, value, lo, hi};
}

// An op's limits on its counts as plain numbers: count_limits_of(CountLimit{...}, ...)
// gives the first one broken, in their order, else empty. A chain of comparisons once
// inlined (a std::initializer_list was built in memory on every call: 100 instructions of
// ft_update's checks for five limits).
struct CountLimit {
  const char* name;
  int value, lo, hi;
};
inline Refusal count_limits_of() { return {}; }
template <class... More>
Refusal count_limits_of(const CountLimit& l, const More&... more) {
  if (l.value < l.lo || l.value > l.hi) return count_limit(l.name, l.value, l.lo, l.hi);
  return count_limits_of(more...);
}

// The order of every op's checks: the CPU first (never call code it cannot run), then the
// op's own limits (`op_limits`, empty when the shape is within them), then the variant's
// supports().
template <class V, class Shape>
Refusal refusal_of(const V& v, const Shape& s, const Refusal& op_limits) {
  if (!v.info.available())
    return {[](const Refusal& r) { return "this CPU lacks " + static_cast<const VariantInfo*>(r.what)->missing(); },
            &v.info};
  if (op_limits) return op_limits;
  const char* reason = v.supports(s);
  return reason ? refuse_text(reason) : Refusal{};
}

// A checked call refused directly, not through a shape's Refusal (the argument checks of
// ft_refresh / ft_update, the float-tensor entry points of quantize and octav_step):
// std::invalid_argument "<who>: <why>", who being the variant's name. Cold: an accepted
// call formats nothing. require_available: the CPU first, as refusal_of checks it.
[[noreturn, gnu::cold]] inline void refuse_call(const std::string& who, const std::string& why) {
  throw std::invalid_argument(who + ": " + why);
}
inline void require_available(const VariantInfo& info) {
  if (!info.available()) [[unlikely]]
    refuse_call(info.name, "this CPU lacks " + info.missing());
}
// A checked entry called with a shape its variant refuses: std::invalid_argument
// "<variant> does not support <shape>: <why>", `why` a Refusal or its message. Cold and out
// of line: the checked runs call it only after their test of the Refusal, so an accepted
// run formats neither shape_name(s) nor the reason (affine's prepare and the elementwise
// output_order take the reason as a string, built empty when accepted: not hot paths).
[[noreturn, gnu::cold]] inline void refuse_unsupported(const std::string& variant, const std::string& shape,
                                                       const std::string& why) {
  throw std::invalid_argument(variant + " does not support " + shape + ": " + why);
}
[[noreturn, gnu::cold]] inline void refuse_unsupported(const std::string& variant, const std::string& shape,
                                                       const Refusal& why) {
  refuse_unsupported(variant, shape, why.message());
}

// A checked entry's shape check: the op's refusal(v, s) (inline) tested only for being
// empty on every call, and, when it is not, asked again in a cold, out-of-line function
// that throws refuse_unsupported's message. Kept inline beside the formatting call, the
// Refusal's fields (the numbers its message prints) were built on every accepted call and
// held registers across the variant's supports() call; tested alone, only the tests are
// left. `refusal` and `shape_name` are the op's functions (or lambdas calling them); the
// refusal depends only on (v, s) and the CPU, so the second ask refuses too
// (Errors.*RefuseWhatWhyUnsupportedSays check every op's entries against why_unsupported).
template <class V, class Shape, class Why, class Name>
[[noreturn, gnu::cold, gnu::noinline]] void refuse_shape_of(const V& v, const Shape& s, Why refusal,
                                                            Name shape_name) {
  if (const Refusal why = refusal(v, s)) refuse_unsupported(v.info.name, shape_name(s), why);
  throw std::logic_error(v.info.name + ": the shape's refusal was not empty as a test but empty when asked again");
}
template <class V, class Shape, class Why, class Name>
[[gnu::always_inline]] inline void check_shape(const V& v, const Shape& s, Why refusal, Name shape_name) {
  if (refusal(v, s)) [[unlikely]]
    refuse_shape_of(v, s, refusal, shape_name);
}

// A dispatcher (run_active) asked for a shape its op refuses (active_variant_for, below):
// refuse_call's std::invalid_argument "<op>: no variant supports <shape>: <why>".
[[noreturn, gnu::cold]] inline void refuse_shape(const std::string& op, const std::string& shape, const Refusal& why) {
  refuse_call(op, "no variant supports " + shape + ": " + why.message());
}

// The variant a dispatcher (run_active) runs for shape s: active_variant over the variants
// of `table()` (the op's variants(), its static registry table) that `refusal(v, s)`
// accepts (empty meaning accepted), remembered per thread for the last four (op, shape)
// pairs asked of this variant type (in practice one op's: each op has its own Shape). The
// choice depends only on the shape, the CPU's features and NNUELAB_FORCE_VARIANT, the last
// two fixed for the process, so a shape seen before skips the scan of every variant's
// refusal (on Zen 5 the scan cost crelu32's run_active about 60 ns a call against 5 for
// its checked run). The key holds the op's variants function, not its table (two ops may
// share a variant type), and the table is asked for only on a miss: the hit path is the
// memo's compares (calling variants() on every call cost crelu32's run_active about 0.5 ns
// on Zen 5, `./lab ab` 12 turns). A shape the first registered variant refuses throws
// refuse_shape's "<op>: no variant supports <shape_name(s)>: <why>" (that variant, the
// scalar baseline, refuses only what the op refuses, so its reason is the op's). A choice
// that throws (that, or a bad forced name) is not remembered, so it throws again next call.
// The scan itself, out of line: inlined into active_variant_for, GCC 12 built the scan's
// lambda on every call, before the memo's compares (about 0.3 ns a crelu32 run_active on
// Zen 5, `./lab ab` 8 turns). The miss path still makes run_active save six registers on
// every call; a form that moved the miss and all that follows it out of line (one register
// saved; 891d5e0, reverted) changed nothing: 7.4 ns both (`./lab ab`, 10 turns, Zen 5).
template <class V, class Shape, class Why, class Name>
[[gnu::noinline]] const V& scan_variants_for(std::span<const V> all, const Shape& s, Why refusal, Name shape_name) {
  if (const Refusal why = refusal(all.front(), s)) refuse_shape(all.front().info.op, shape_name(s), why);
  // The first variant has just accepted s: the scan asks only the others.
  const V* const first = all.data();
  return active_variant(all, [first, &s, &refusal](const V& c) { return &c == first || !refusal(c, s); });
}

template <class V, class Shape, class Why, class Name>
const V& active_variant_for(std::span<const V> (*table)(), const Shape& s, Why refusal, Name shape_name) {
  struct Entry {
    std::span<const V> (*table)() = nullptr;
    Shape shape{};
    const V* chosen = nullptr;
  };
  static thread_local Entry memo[4]{};
  static thread_local unsigned next = 0;
  for (const Entry& e : memo)
    if (e.table == table && e.shape == s) return *e.chosen;
  const V& v = scan_variants_for(table(), s, refusal, shape_name);
  memo[next++ % 4] = {table, s, &v};
  return v;
}

// Why x[i], not finite, is refused: "x[i] is NaN" or "x[i] is infinite".
inline std::string non_finite_element(const float* x, std::size_t i) {
  return "x[" + std::to_string(i) + "] is " + (std::isnan(x[i]) ? "NaN" : "infinite");
}

}  // namespace nnuelab
