// Differential fuzz target of dot_u8i8: every variant against the reference of the
// semantics its technique declares (dpbusd, dpbusds, maddubs, maddubs_x2, sdot), over the
// whole uint8 x int8 range: saturation and wrap-around are part of each contract (sdot reads
// the activation bytes as int8, which is its contract too).
#include "fuzz/driver.h"
#include "kernels/dot_u8i8/registry.h"
#include "reference/dot_u8i8.h"

namespace {
using namespace nnuelab;

void reference(dot_u8i8::Semantics sem, std::int32_t* acc, const std::uint8_t* u, const std::int8_t* w,
               const std::uint8_t* u2, const std::int8_t* w2, int groups) {
  switch (sem) {  // a variant's call is two dots into the same lanes: A then B
    case dot_u8i8::Semantics::kDpbusd: ref::dot_u8i8_dpbusd(acc, u, w, groups), ref::dot_u8i8_dpbusd(acc, u2, w2, groups); break;
    case dot_u8i8::Semantics::kDpbusds: ref::dot_u8i8_dpbusds(acc, u, w, groups), ref::dot_u8i8_dpbusds(acc, u2, w2, groups); break;
    case dot_u8i8::Semantics::kMaddubs: ref::dot_u8i8_maddubs(acc, u, w, groups), ref::dot_u8i8_maddubs(acc, u2, w2, groups); break;
    case dot_u8i8::Semantics::kMaddubsX2: ref::dot_u8i8_maddubs_x2(acc, u, w, u2, w2, groups); break;
    case dot_u8i8::Semantics::kSdot: ref::dot_u8i8_sdot(acc, u, w, groups), ref::dot_u8i8_sdot(acc, u2, w2, groups); break;
    default:  // a semantics added without a reference here must not compare against garbage
      fuzz::fail("fuzz/dot_u8i8.cpp has no reference for semantics " + std::to_string(int(sem)));
  }
}

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  const dot_u8i8::Shape s{src.length(64)};
  const std::string shape = dot_u8i8::shape_name(s);
  const bool valid = s.groups >= 1 && s.groups <= (1 << 20);
  const std::size_t g = valid ? std::size_t(s.groups) : 1;
  const int offset = int(src.range(0, 15));
  fuzz::Buf<std::uint8_t> u(4 * g, offset, 0), u2(4 * g, offset, 0);
  fuzz::Buf<std::int8_t> w(4 * g, offset, 0), w2(4 * g, offset, 0);
  fuzz::Buf<std::int32_t> acc0(g, offset, 0);
  if (src.flag()) {  // both halves from the maddubs pair-saturation generator
    auto pick = src.picker();
    workloads::boundary::fill_maddubs_pairs(u.data(), w.data(), 4 * g, pick);
    workloads::boundary::fill_maddubs_pairs(u2.data(), w2.data(), 4 * g, pick);
  } else {
    src.fill(u.data(), 4 * g, 0, 255), src.fill(w.data(), 4 * g, -128, 127);
    src.fill(u2.data(), 4 * g, 0, 255), src.fill(w2.data(), 4 * g, -128, 127);
  }
  src.fill(acc0.data(), g, INT32_MIN, INT32_MAX);
  for (const dot_u8i8::Variant& v : dot_u8i8::variants()) {
    if (!v.info.available()) continue;
    const std::string why = dot_u8i8::why_unsupported(v, s);
    fuzz::Buf<std::int32_t> got(g, offset, 0x5A5A5A5A);
    std::copy_n(acc0.data(), g, got.data());
    if (!why.empty()) {
      fuzz::expect_refusal(v.info.name, shape, why, [&] { dot_u8i8::run(v, s, got.data(), u.data(), w.data(), u2.data(), w2.data()); });
      continue;
    }
    if (!valid) fuzz::fail(v.info.name + " accepts " + shape + ", outside the op's limits");
    std::vector<std::int32_t> want(acc0.data(), acc0.data() + g);
    reference(v.semantics, want.data(), u.data(), w.data(), u2.data(), w2.data(), s.groups);
    const std::string where = v.info.name + " " + shape + " (offset " + std::to_string(offset) + ")";
    dot_u8i8::run(v, s, got.data(), u.data(), w.data(), u2.data(), w2.data());
    fuzz::expect_same(got.data(), want.data(), g, where);
    if (!got.guard_intact()) fuzz::fail(where + ": wrote outside its accumulators");
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
