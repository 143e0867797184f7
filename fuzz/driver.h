// The differential fuzzing driver shared by every fuzz/<target>.cpp (libFuzzer, clang's
// -fsanitize=fuzzer,address,undefined: see the asan-ubsan preset and ./lab fuzz).
//
// The fuzzer's bytes choose the shape, the data pattern (raw fuzzer bytes, a byte- or
// chunk-density sparse pattern, or one of the boundary generators of
// workloads/boundary.h; for float tensors Source::fill_float) and the data. Each target
// then runs every variant of its op's registry that this CPU runs (native and -emu) and
// whose why_unsupported() accepts the shape, and compares every output byte with the
// scalar reference; a difference aborts with the variant, the shape and the first
// differing index. A variant that refuses the shape must refuse it through the checked
// entry point too (std::invalid_argument naming the reason), before touching any buffer.
// Registry-driven: a new variant or ISA file needs no edit here.
#pragma once
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/common/elementwise.h"
#include "kernels/common/variant.h"
#include "reference/find_nnz.h"
#include "workloads/boundary.h"
#include "workloads/synthetic.h"

namespace nnuelab::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "\nFUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Reads the fuzzer's bytes as decisions. When they run out every decision is its lowest
// value (FuzzedDataProvider's rule), so short inputs are still valid cases.
class Source {
 public:
  Source(const std::uint8_t* data, std::size_t size) : fdp_(data, size) {}

  std::int64_t range(std::int64_t lo, std::int64_t hi) { return fdp_.ConsumeIntegralInRange<std::int64_t>(lo, hi); }
  bool flag() { return fdp_.ConsumeBool(); }
  auto picker() {
    return [this](std::int64_t lo, std::int64_t hi) { return range(lo, hi); };
  }

  // A length for a vector kernel: usually blocks of a power-of-two unit plus any tail (so
  // every tail size of every register width comes up), sometimes a refused one (0, -1,
  // over the op's limit) to prove the refusal path.
  int length(int max_blocks = 64, int over_limit = 1 << 20) {
    switch (range(0, 15)) {
      case 0: return int(range(-1, 0));
      case 1: return over_limit + 1;
      default: {
        const int unit = 1 << range(0, 7);  // 1..128
        const int n = unit * int(range(0, max_blocks / std::max(1, unit / 8))) + (flag() ? 0 : int(range(0, unit - 1)));
        return std::max(n, 1);
      }
    }
  }

  // Fills n values in [lo, hi]: the pattern is chosen by the fuzzer. Raw fuzzer bytes
  // (repeated when short) let it steer single values; the other patterns come from a
  // seeded generator, so a few bytes make a long, structured input.
  template <class T>
  void fill(T* out, std::size_t n, std::int64_t lo, std::int64_t hi) {
    const int pattern = int(range(0, 6));
    workloads::Rng rng(std::uint64_t(range(0, INT64_MAX)));
    auto rnd = [&](std::int64_t a, std::int64_t b) { return rng.uniform(a, b); };
    auto clamp = [&](std::int64_t v) { return T(std::clamp(v, lo, hi)); };
    switch (pattern) {
      case 0: {  // raw bytes, little-endian, folded into [lo, hi]
        std::vector<std::uint8_t> raw = fdp_.ConsumeBytes<std::uint8_t>(std::min<std::size_t>(n * sizeof(T), 1 << 16));
        if (raw.empty()) raw.push_back(0);
        const std::uint64_t span = std::uint64_t(hi - lo) + 1;
        for (std::size_t i = 0; i < n; ++i) {
          std::uint64_t v = 0;
          for (std::size_t b = 0; b < sizeof(T); ++b) v |= std::uint64_t(raw[(i * sizeof(T) + b) % raw.size()]) << (8 * b);
          out[i] = T(lo + std::int64_t(span ? v % span : v));
        }
        break;
      }
      case 1:    // byte density: each value non-zero with probability p
      case 2: {  // chunk density: each 4-byte chunk of the array non-zero with probability p
        const int p = int(range(0, 100));
        const std::size_t per_chunk = pattern == 2 ? std::max<std::size_t>(1, 4 / sizeof(T)) : 1;
        for (std::size_t i = 0; i < n; i += per_chunk) {
          const bool on = rnd(1, 100) <= p;
          for (std::size_t j = i; j < std::min(n, i + per_chunk); ++j) out[j] = on ? clamp(rnd(lo, hi)) : clamp(0);
        }
        break;
      }
      case 3: {
        workloads::boundary::fill_edges(out, n, rnd);
        for (std::size_t i = 0; i < n; ++i) out[i] = clamp(out[i]);
        break;
      }
      case 4: {  // int16 accumulator near overflow (other types: their edges scaled down)
        std::vector<std::int16_t> v(n);
        workloads::boundary::fill_near_overflow16(v.data(), n, rnd, int(range(1, 512)));
        for (std::size_t i = 0; i < n; ++i) out[i] = clamp(v[i]);
        break;
      }
      case 5: {  // maddubs pair saturation: the activation half for uint8, the weight half else
        std::vector<std::uint8_t> u(n);
        std::vector<std::int8_t> w(n);
        workloads::boundary::fill_maddubs_pairs(u.data(), w.data(), n, rnd);
        for (std::size_t i = 0; i < n; ++i) out[i] = clamp(std::is_unsigned_v<T> ? std::int64_t(u[i]) : std::int64_t(w[i]));
        break;
      }
      default: {
        workloads::boundary::fill_all_ones(out, n);
        for (std::size_t i = 0; i < n; ++i) out[i] = clamp(std::int64_t(out[i]));
        break;
      }
    }
  }

  // Fills n floats for an op on float tensors and returns the pattern's name (for the
  // finding's message). The patterns:
  //   raw          the fuzzer's bytes as float bit patterns: NaN, Inf, denormals, huge
  //   raw-folded   the same, with every value outside the op's domain (non-finite or
  //                |v| > max_abs) pulled inside, so the kernels run on arbitrary bits
  //                and not only the refusal path
  //   gaussian     N(0, sigma^2), sigma = unit * 2^(-8..8) (unit: the op's typical
  //                magnitude, e.g. its clip s)
  //   sparse       the same with each element non-zero with probability p
  //   zero         all zeros of either sign
  //   boundary     values of `boundary` (the op's own edges: elements exactly at +-s,
  //                rounding ties) and of the float edges (signed zeros, denormals,
  //                FLT_MIN, 1e30, FLT_MAX), either sign
  //   mixed        gaussian with 1..16 elements, at positions the fuzzer picks (so any
  //                lane of any tail), replaced by boundary values
  // The boundary patterns include NaN/Inf and values over max_abs only when the fuzzer
  // asks, so most of their inputs stay in the domain.
  const char* fill_float(float* out, std::size_t n, float unit, const std::vector<float>& boundary,
                         float max_abs = std::numeric_limits<float>::max()) {
    const int pattern = int(range(0, 6));
    workloads::Rng rng(std::uint64_t(range(0, INT64_MAX)));
    auto gauss = [&] {
      const double u1 = (double(rng.uniform(0, (std::int64_t(1) << 53) - 1)) + 0.5) * 0x1p-53;
      const double u2 = double(rng.uniform(0, (std::int64_t(1) << 53) - 1)) * 0x1p-53;
      return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    };
    const double sigma = double(unit) * std::ldexp(1.0, int(range(-8, 8)));
    switch (pattern) {
      case 0:
      case 1: {
        std::vector<std::uint8_t> raw = fdp_.ConsumeBytes<std::uint8_t>(std::min<std::size_t>(n * 4, 1 << 16));
        if (raw.empty()) raw.push_back(0);
        for (std::size_t i = 0; i < n; ++i) {
          std::uint32_t bits = 0;
          for (std::size_t b = 0; b < 4; ++b) bits |= std::uint32_t(raw[(i * 4 + b) % raw.size()]) << (8 * b);
          float v;
          std::memcpy(&v, &bits, 4);
          if (pattern == 1 && !(std::fabs(v) <= max_abs)) {
            bits &= ~(std::uint32_t(1) << 30);  // top exponent bit off: |v| < 2, sign and mantissa kept
            std::memcpy(&v, &bits, 4);
            if (!(std::fabs(v) <= max_abs)) v = std::copysign(max_abs, v);
          }
          out[i] = v;
        }
        return pattern == 0 ? "raw" : "raw-folded";
      }
      case 2:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(sigma * gauss());
        return "gaussian";
      case 3: {
        const int p = int(range(0, 100));
        for (std::size_t i = 0; i < n; ++i) out[i] = rng.uniform(1, 100) <= p ? float(sigma * gauss()) : 0.0f;
        return "sparse";
      }
      case 4:
        for (std::size_t i = 0; i < n; ++i) out[i] = rng.uniform(0, 1) ? -0.0f : 0.0f;
        return "zero";
      default: {
        const bool wild = range(0, 7) == 0;  // NaN, Inf and values over max_abs too
        std::vector<float> set = boundary;
        constexpr float kMax = std::numeric_limits<float>::max();
        for (float e : {0.0f, std::numeric_limits<float>::denorm_min(), std::nextafter(std::numeric_limits<float>::min(), 0.0f),
                        std::numeric_limits<float>::min(), 1.0f, 1e30f, std::nextafter(1e30f, kMax), kMax,
                        std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
          set.push_back(e);
        std::erase_if(set, [&](float e) { return !wild && !(std::fabs(e) <= max_abs); });
        if (set.empty()) set.push_back(0.0f);
        auto pick = [&] {
          const float e = set[std::size_t(rng.uniform(0, std::int64_t(set.size()) - 1))];
          return rng.uniform(0, 1) ? -e : e;
        };
        if (pattern == 5) {
          for (std::size_t i = 0; i < n; ++i) out[i] = pick();
          return "boundary";
        }
        for (std::size_t i = 0; i < n; ++i) out[i] = float(sigma * gauss());
        for (int k = int(range(1, 16)); k > 0; --k) out[std::size_t(range(0, std::int64_t(n) - 1))] = pick();
        return "mixed";
      }
    }
  }

  // A float scalar (a clip s, a scale) that a checked entry point must refuse or treat at
  // its edge: zeros of both signs, negative, Inf, NaN, the smallest denormal and normal,
  // the largest finite float.
  float special_scalar() {
    constexpr float kSpecial[] = {0.0f, -0.0f, -1.0f, std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(),
                                  std::numeric_limits<float>::min(), std::numeric_limits<float>::max()};
    return kSpecial[range(0, std::size(kSpecial) - 1)];
  }

  FuzzedDataProvider& provider() { return fdp_; }

 private:
  FuzzedDataProvider fdp_;
};

// A buffer of n elements that starts `offset` elements into its allocation (so vector
// loads meet every misalignment a caller can hand over) and ends in guard elements that
// hold a poison: a kernel writing past n is a finding even when ASan cannot see it.
template <class T>
class Buf {
 public:
  static constexpr int kGuard = 16;
  Buf(std::size_t n, int offset, T poison = T(0x5A)) : n_(n), off_(offset), poison_(poison), v_(n + offset + kGuard, poison) {}
  T* data() { return v_.data() + off_; }
  const T* data() const { return v_.data() + off_; }
  std::size_t size() const { return n_; }
  void poison() { std::fill(v_.begin(), v_.end(), poison_); }
  // Every element, the n in the middle too, still holds the poison: nothing was written.
  bool untouched() const {
    return std::all_of(v_.begin(), v_.end(), [&](T x) { return std::memcmp(&x, &poison_, sizeof(T)) == 0; });
  }
  bool guard_intact() const {
    return std::all_of(v_.begin() + off_ + n_, v_.end(), [&](T x) { return x == poison_; }) &&
           std::all_of(v_.begin(), v_.begin() + off_, [&](T x) { return x == poison_; });
  }

 private:
  std::size_t n_;
  int off_;
  T poison_;
  std::vector<T> v_;
};

template <class T>
void expect_same(const T* got, const T* want, std::size_t n, const std::string& where) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
      fail(where + ": first difference at index " + std::to_string(i) + " of " + std::to_string(n) + ": got " +
           std::to_string(+got[i]) + ", reference " + std::to_string(+want[i]));
}

// Runs `call` for a variant that refuses the shape: it must throw std::invalid_argument
// whose message holds the reason.
template <class Call>
void expect_refusal(const std::string& variant, const std::string& shape, const std::string& why, Call call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(why) == std::string::npos)
      fail(variant + " refused " + shape + " with \"" + e.what() + "\", not the reason \"" + why + "\"");
    return;
  }
  fail(variant + " ran shape " + shape + " although why_unsupported says: " + why);
}

// Like expect_refusal, for an entry point that checks several things in an order its
// contract does not fix: when more than one check fails, any of their reasons may be the
// one given. The message must also name the variant (every checked entry's promise).
template <class Call>
void expect_refusal_any(const std::string& variant, const std::string& shape, const std::vector<std::string>& whys,
                        Call call) {
  std::string all;
  for (const std::string& w : whys) all += (all.empty() ? "\"" : " | \"") + w + "\"";
  try {
    call();
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    if (what.find(variant) == std::string::npos) fail(variant + " refused " + shape + " with \"" + what + "\", not naming the variant");
    for (const std::string& w : whys)
      if (what.find(w) != std::string::npos) return;
    fail(variant + " refused " + shape + " with \"" + what + "\", none of the reasons " + all);
  }
  fail(variant + " ran " + shape + " although it must refuse: " + all);
}

// A float as a finding prints it: shortest round-trip decimal and the exact hex form.
inline std::string show(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g (%a)", double(f), double(f));
  return buf;
}

// ---- activation-like ops (one array in, one uint8 array out) -------------------------
//
// An Op names its registry (NNUELAB_FUZZ_REGISTRY) and gives:
//   static Shape shape(Source&);               the shape to try
//   static int outputs(const Shape&);          output elements per call
//   static constexpr std::int64_t lo, hi;      the input domain the contract defines
//   static void reference(const Shape&, const In*, Out*);
//   static void run(const V&, const Shape&, const In*, Out*, std::uint64_t* bits);
// and optionally order(v, s) (declared output lane order: ft_output, pool_product2 and the
// activations with *_lanes forms).
#define NNUELAB_FUZZ_REGISTRY(op)                                                               \
  using V = ::nnuelab::op::Variant;                                                             \
  using Shape = ::nnuelab::op::Shape;                                                           \
  static auto variants() { return ::nnuelab::op::variants(); }                                  \
  static std::string why(const V& v, const Shape& s) { return ::nnuelab::op::why_unsupported(v, s); } \
  static std::string name(const Shape& s) { return ::nnuelab::op::shape_name(s); }

template <class Op>
int fuzz_elementwise(const std::uint8_t* data, std::size_t size) {
  using V = typename Op::V;
  using In = typename V::Input;
  using Out = typename V::Output;
  Source src(data, size);
  const typename Op::Shape s = Op::shape(src);
  const std::string shape = Op::name(s);
  const int offset = int(src.range(0, 15));
  const bool valid = s.n >= 1 && s.n <= (1 << 20) && Op::outputs(s) >= 1;
  const std::size_t n = valid ? std::size_t(s.n) : 1, out_n = valid ? std::size_t(Op::outputs(s)) : 1;
  Buf<In> in(n, offset, In(0));
  src.fill(in.data(), n, Op::lo, Op::hi);
  std::vector<Out> want(out_n);
  bool have_reference = false;
  const int words = nnz_bitset_words(int(out_n * sizeof(Out)));
  for (const V& v : Op::variants()) {
    if (!v.info.available()) continue;
    const std::string why = Op::why(v, s);
    Buf<Out> got(out_n, offset, Out(0xA5));
    Buf<std::uint64_t> bits(std::size_t(words), 0, 0xA5A5A5A5A5A5A5A5ull);
    std::uint64_t* b = v.writes_bits ? bits.data() : nullptr;
    if (!why.empty()) {
      expect_refusal(v.info.name, shape, why, [&] { Op::run(v, s, in.data(), got.data(), b); });
      if (!got.guard_intact() || got.data()[0] != Out(0xA5)) fail(v.info.name + " wrote output while refusing " + shape);
      continue;
    }
    if (!valid) fail(v.info.name + " accepts shape " + shape + ", outside the op's limits");
    if (!have_reference) {
      Op::reference(s, in.data(), want.data());
      have_reference = true;
    }
    Op::run(v, s, in.data(), got.data(), b);
    const std::string where = v.info.name + " " + shape + " (input offset " + std::to_string(offset) + ")";
    if (!got.guard_intact()) fail(where + ": wrote outside its output");
    // Canonical order of the produced bytes (ft_output and the int32 activations declare lane orders).
    std::vector<Out> canonical(got.data(), got.data() + out_n), want_produced = want;
    if constexpr (requires { Op::order(v, s); }) {
      const std::vector<int> order = Op::order(v, s);
      for (std::size_t p = 0; p < out_n; ++p) canonical[order[p]] = got.data()[p], want_produced[p] = want[order[p]];
    }
    expect_same(canonical.data(), want.data(), out_n, where);
    if (v.writes_bits) {
      std::vector<std::uint64_t> want_bits(static_cast<std::size_t>(words));
      ref::nnz_chunk_bitset(reinterpret_cast<const std::uint8_t*>(want_produced.data()), int(out_n * sizeof(Out)),
                            want_bits.data());
      expect_same(bits.data(), want_bits.data(), std::size_t(words), where + " nnz bitset word");
      if (!bits.guard_intact()) fail(where + ": wrote past its nnz bitset");
    }
  }
  return 0;
}

}  // namespace nnuelab::fuzz

// The libFuzzer entry point of a target.
#define NNUELAB_FUZZ_ENTRY(body)                                                       \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return body(data, size);                                                           \
  }
