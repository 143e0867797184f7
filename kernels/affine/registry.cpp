#include "kernels/affine/registry.h"

#include <stdexcept>
#include <vector>

#include "kernels/common/arg_checks.h"
#include "kernels/common/refusal.h"
#include "kernels/common/registry_macros.h"

#define NNUELAB_ROW(ns, tech, note) \
  namespace nnuelab::ns::affine {   \
  NNUELAB_AFFINE_KERNEL(tech)       \
  }
#define NNUELAB_ROW_BITS(ns, tech, note) \
  namespace nnuelab::ns::affine {        \
  NNUELAB_AFFINE_KERNEL_BITS(tech)       \
  }
#include "kernels/affine/affine.inc"
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS

namespace nnuelab::affine {

std::span<const Variant> variants() {
#define NNUELAB_ROW(ns, tech, note)                                              \
  Variant{make_variant_info("affine", #ns, #tech, note), &ns::affine::tech##_supports, \
          &ns::affine::tech##_prepare, &ns::affine::tech##_unpack, &ns::affine::tech##_run},
#define NNUELAB_ROW_BITS(ns, tech, note)                                                       \
  Variant{make_variant_info("affine", #ns, #tech, note), &ns::affine::tech##_supports,         \
          &ns::affine::tech##_prepare, &ns::affine::tech##_unpack, &ns::affine::tech##_run,    \
          &ns::affine::tech##_run_bits, ns::affine::tech##_run_list},
  static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
    return std::vector<Variant>{
#include "kernels/affine/affine.inc"
    };
  }();
#undef NNUELAB_ROW
#undef NNUELAB_ROW_BITS
  return table;
}

std::string shape_name(const Shape& s) { return std::to_string(s.in) + "x" + std::to_string(s.out); }
std::string from_bits_name(const Variant& v) { return v.info.name + "_from_bits"; }
std::string from_list_name(const Variant& v) { return v.info.name + "_from_list"; }

std::string why_unsupported(const Variant& v, const Shape& s) {
  Refusal limits;
  if (s.in < 1 || s.in > 65536 || s.out < 1 || s.out > 65536)
    limits = {[](const Refusal& r) {
                return "shape " + shape_name({r.a, r.b}) + " is outside the op's limits (1..65536 each way)";
              },
              nullptr, "", s.in, s.out};
  return refusal_of(v, s, limits).message();
}

Packed prepare(const Variant& v, const Canonical& c) {
  const std::string why = why_unsupported(v, c.shape);
  if (!why.empty())
    refuse_unsupported(v.info.name, shape_name(c.shape), why);
  if (!c.weights || !c.bias)
    throw std::invalid_argument(v.info.name + ": prepare needs weights and bias (got null)");
  check_element_aligned(v.info.name, c.bias, "bias");
  Packed p;
  p.shape = c.shape;
  v.prepare(c, p);
  p.blocks.prepared_by = &v;
  return p;
}

namespace {

// The checks of the run entry points, in their messages' order (arg_checks.h: one
// description, its test inline on every call, its refusal cold). run_with_bits and
// run_with_list first ask whether the variant has that entry at all; each entry then asks
// for its buffers by name, then for what they all check: the output's alignment and
// weights packed by this same variant (another variant's layout would be read as this
// one's).
template <class C>
bool call_checks(const C& c, const Variant& v, const Packed& p, const std::int32_t* output) {
  return c.aligned(output, "output") && c.require(p.blocks.prepared_by == &v, [] {
    return std::string("run needs weights prepared by this same variant");
  });
}

constexpr auto run_checks = [](const auto& c, const Variant& v, const Packed& p, const std::uint8_t* input,
                               const std::int32_t* output) {
  return c.require(input && output, [] { return std::string("run needs input and output buffers"); }) &&
         call_checks(c, v, p, output);
};

constexpr auto bits_checks = [](const auto& c, const Variant& v, const Packed& p, const std::uint8_t* input,
                                const std::uint64_t* bits, const std::int32_t* output) {
  return c.require(v.run_bits != nullptr,
                   [] { return std::string("cannot take an nnz bitset (it scans its input itself)"); }) &&
         c.require(input && output && bits,
                   [] { return std::string("run_with_bits needs input, bits and output buffers"); }) &&
         call_checks(c, v, p, output) && c.aligned(bits, "bits");
};

// Whether list[0..count) rises strictly and stays below `chunks` (a kernel reads the
// input's chunk list[k] unchecked). No early exit: a short list's loop, no branch per
// entry; the refusal looks for the first bad entry only when this said no.
bool list_in_order(const std::uint16_t* list, int count, int chunks) {
  bool ok = true;
  int before = -1;
  for (int k = 0; k < count; ++k) {
    ok &= list[k] > before && list[k] < chunks;
    before = list[k];
  }
  return ok;
}

std::string list_fault(const std::uint16_t* list, int count, int chunks) {
  for (int k = 0; k < count; ++k)
    if (list[k] >= chunks || (k > 0 && list[k] <= list[k - 1]))
      return "chunk list entry " + std::to_string(k) + " (" + std::to_string(list[k]) + ") is " +
             (list[k] >= chunks ? "past the last chunk, " + std::to_string(chunks - 1)
                                : std::string("not above the one before it"));
  return "chunk list in order";  // not reached: asked only when list_in_order said no
}

constexpr auto list_checks = [](const auto& c, const Variant& v, const Packed& p, const std::uint8_t* input,
                                const std::uint16_t* list, int count, const std::int32_t* output) {
  const int chunks = p.shape.in / 4;
  return c.require(v.run_list != nullptr, [] { return std::string("cannot take a chunk list (it walks no list)"); }) &&
         c.require(input && output && (count <= 0 || list),
                   [] { return std::string("run_with_list needs input, list and output buffers"); }) &&
         call_checks(c, v, p, output) && c.aligned(list, "list") &&
         c.require(count >= 0 && count <= chunks,
                   [=] {
                     return "a chunk list of " + std::to_string(count) + " entries for " + std::to_string(chunks) +
                            " chunks";
                   }) &&
         c.require(list_in_order(list, count, chunks), [=] { return list_fault(list, count, chunks); });
};

}  // namespace

void run(const Variant& v, const Packed& p, const std::uint8_t* input, std::int32_t* output) {
  arg_checks::check(v.info.name, run_checks, std::cref(v), std::cref(p), input, output);
  v.run(p, input, output);
}

void run_with_bits(const Variant& v, const Packed& p, const std::uint8_t* input, const std::uint64_t* bits,
                   std::int32_t* output) {
  arg_checks::check(v.info.name, bits_checks, std::cref(v), std::cref(p), input, bits, output);
  v.run_bits(p, input, bits, output);
}

void run_with_list(const Variant& v, const Packed& p, const std::uint8_t* input, const std::uint16_t* list, int count,
                   std::int32_t* output) {
  arg_checks::check(v.info.name, list_checks, std::cref(v), std::cref(p), input, list, count, output);
  v.run_list(p, input, list, count, output);
}

}  // namespace nnuelab::affine
