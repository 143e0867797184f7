// Differential fuzz target of find_nnz: the count and the ascending index list of every
// variant against reference/find_nnz.h, both forms (bytes, 4-byte chunks).
#include "fuzz/driver.h"
#include "kernels/find_nnz/registry.h"

namespace {
using namespace nnuelab;

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  const find_nnz::Shape s{src.length(64, 65536), src.flag() ? find_nnz::Form::kChunks : find_nnz::Form::kBytes};
  const std::string shape = find_nnz::shape_name(s);
  const bool valid = s.n >= 1 && s.n <= 65536;
  const std::size_t n = valid ? std::size_t(s.n) : 1;
  const int offset = int(src.range(0, 15));
  fuzz::Buf<std::uint8_t> in(n, offset, 0);
  src.fill(in.data(), n, 0, 127);  // the op's domain: signed compares read 128..255 as negative
  // Output capacity as the op defines it (whole registers may be stored past the count);
  // Buf's guard after it catches a store beyond.
  const std::size_t capacity = n + std::size_t(find_nnz::kOutputSlack);
  std::vector<std::uint16_t> want(capacity);
  int want_count = -1;
  for (const find_nnz::Variant& v : find_nnz::variants()) {
    if (!v.info.available()) continue;
    const std::string why = find_nnz::why_unsupported(v, s);
    fuzz::Buf<std::uint16_t> got(capacity, 0, 0xA5A5);
    if (!why.empty()) {
      fuzz::expect_refusal(v.info.name, shape, why, [&] { find_nnz::run(v, s, in.data(), got.data()); });
      continue;
    }
    if (!valid) fuzz::fail(v.info.name + " accepts " + shape + ", outside the op's limits");
    if (want_count < 0)
      want_count = s.form == find_nnz::Form::kChunks ? ref::find_nnz_chunks(in.data(), s.n, want.data())
                                                     : ref::find_nnz_bytes(in.data(), s.n, want.data());
    const std::string where = v.info.name + " " + shape + " (offset " + std::to_string(offset) + ")";
    const int count = find_nnz::run(v, s, in.data(), got.data());
    if (count != want_count)
      fuzz::fail(where + ": count " + std::to_string(count) + ", reference " + std::to_string(want_count));
    fuzz::expect_same(got.data(), want.data(), std::size_t(count), where + " index");
    if (!got.guard_intact()) fuzz::fail(where + ": wrote past its output capacity");
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
