// Differential fuzz target of affine: canonical weights through every variant's prepare,
// then run and (for variants that take them) run_with_bits and run_with_list, byte-compared with
// ref::affine. Inputs stay in the op's domain 0..127 (see reference/affine.h).
#include "fuzz/driver.h"
#include "kernels/affine/registry.h"
#include "reference/affine.h"
#include "reference/find_nnz.h"

namespace {
using namespace nnuelab;

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  const affine::Shape s{src.length(32, 65536), int(src.range(0, 3)) == 0 ? int(src.range(-1, 0)) : int(src.range(1, 72))};
  const std::string shape = affine::shape_name(s);
  const bool valid = s.in >= 1 && s.in <= 65536 && s.out >= 1;
  const std::size_t in = valid ? std::size_t(s.in) : 1, out = valid ? std::size_t(s.out) : 1;
  const int offset = int(src.range(0, 15));
  const int scale = int(src.range(0, 2));  // the weights' scale, below (drawn first: fill may use up the input)
  fuzz::Buf<std::int8_t> w(in * out, offset, 0);
  fuzz::Buf<std::int32_t> b(out, offset, 0);
  fuzz::Buf<std::uint8_t> x(in, offset, 0);
  src.fill(w.data(), in * out, -128, 127);
  // Weight scale: as drawn (almost every chunk "heavy" for the two-chunk *_x2 kernels, which
  // then take the one-chunk dot), all small (every chunk pairs), or small with every 37th
  // weight as drawn (a few heavy chunks among light ones, as in a real net).
  if (scale > 0)
    for (std::size_t i = 0; i < in * out; ++i)
      if (scale == 1 || i % 37) w.data()[i] = std::int8_t(w.data()[i] / 4);
  src.fill(b.data(), out, -(1 << 24), 1 << 24);
  src.fill(x.data(), in, 0, 127);
  std::vector<std::int32_t> want(out);
  std::vector<std::uint64_t> bits((in / 4 + 1 + 63) / 64 + 1);
  ref::nnz_chunk_bitset(x.data(), int(in), bits.data());
  // The chunk list of the whole chunks (a variant with run_list refuses a partial one).
  std::vector<std::uint16_t> list(in / 4 + 1);
  const int count = valid && s.in % 4 == 0 ? ref::find_nnz_chunks(x.data(), s.in, list.data()) : 0;
  if (valid) ref::affine(w.data(), b.data(), s.in, s.out, x.data(), want.data());
  for (const affine::Variant& v : affine::variants()) {
    if (!v.info.available()) continue;
    const std::string why = affine::why_unsupported(v, s);
    if (!why.empty()) {
      fuzz::expect_refusal(v.info.name, shape, why, [&] { affine::prepare(v, {s, w.data(), b.data()}); });
      continue;
    }
    if (!valid) fuzz::fail(v.info.name + " accepts " + shape + ", outside the op's limits");
    const affine::Packed packed = affine::prepare(v, {s, w.data(), b.data()});
    const std::string where = v.info.name + " " + shape + " (offset " + std::to_string(offset) + ")";
    fuzz::Buf<std::int32_t> got(out, offset, 0x5A5A5A5A);
    affine::run(v, packed, x.data(), got.data());
    fuzz::expect_same(got.data(), want.data(), out, where);
    if (!got.guard_intact()) fuzz::fail(where + ": wrote outside its output");
    if (v.run_bits) {
      got.poison();
      affine::run_with_bits(v, packed, x.data(), bits.data(), got.data());
      fuzz::expect_same(got.data(), want.data(), out, where + " run_with_bits");
      if (!got.guard_intact()) fuzz::fail(where + " run_with_bits: wrote outside its output");
    }
    if (v.run_list) {
      got.poison();
      affine::run_with_list(v, packed, x.data(), list.data(), count, got.data());
      fuzz::expect_same(got.data(), want.data(), out, where + " run_with_list");
      if (!got.guard_intact()) fuzz::fail(where + " run_with_list: wrote outside its output");
    }
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
