// Differential fuzz target of quantize: every variant's int8 and int16 output against
// ref::quantize_sym_i8 / _i16, byte for byte. The contract (kernels/quantize/quantize.h)
// fixes every step in float: one scale float(L) / s, one float multiply, clamp to -L..L,
// round half to even; so any difference, a tie rounded away from even or a lane out of
// place after a pack, is a finding.
//
// What the fuzzer picks: n (every tail of the 8/16/32-element loops, 0, and a null input or
// output), the input's and the output's misalignment (0..15 elements each), bits (2..16,
// and refused ones: 0, 1, 17, negative, huge; 9..16 are refused by run_i8 only), s (raw
// bits; L * 2^-j, whose scale 2^j makes (k + 0.5) / scale an exact tie; NNUE's constants;
// bad values; the edge where float(L) / s overflows, both sides of it; max|x|; any float
// in 2^-20..2^20) and the data (Source::fill_float, whose boundary values here are
// (k + d) / scale for d in {0, +-0.25, +-0.5} and one float either side, k near 0, near
// +-L and anywhere in -L-3..L+3, and +-s).
//
// Outside the domain (n == 0, null buffers, bits outside 2..8 / 2..16, s not finite or
// <= 0, float(L) / s not finite, a NaN or Inf element) the checked entry must throw
// std::invalid_argument naming the variant and one of the applicable reasons, and leave the
// output untouched. The target's own domain predicate is checked against the reference
// (which refuses the same inputs), so a wrong predicate fails loudly too.
#include <bit>

#include "fuzz/driver.h"
#include "kernels/quantize/registry.h"
#include "reference/octav.h"

namespace {
using namespace nnuelab;

// L = 2^(bits-1) - 1, for bits 2..16.
int levels(int bits) { return (1 << (bits - 1)) - 1; }

// Every reason run_i8 (max_bits 8) or run_i16 (16) may give; empty when it must run.
std::vector<std::string> refusal_reasons(const float* x, std::size_t n, bool null_out, float s, int bits,
                                         int max_bits) {
  std::vector<std::string> why;
  if (n == 0) why.push_back("empty tensor");
  if (!x || null_out) why.push_back("buffers");
  const bool bits_ok = bits >= 2 && bits <= max_bits;
  if (!bits_ok) why.push_back("outside 2.." + std::to_string(max_bits));
  if (!(std::isfinite(s) && s > 0.0f)) why.push_back("must be finite and > 0");
  else if (bits_ok && !std::isfinite(float(levels(bits)) / s)) why.push_back("overflows float");
  if (x)
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(x[i])) {
        why.push_back("x[" + std::to_string(i) + "] is " + (std::isnan(x[i]) ? "NaN" : "infinite"));
        break;
      }
  return why;
}

// One output width: the reference once, then every available variant.
template <class T>
void check(const float* x, std::size_t n, bool null_out, float s, int bits, int out_offset, const std::string& shape) {
  constexpr int kMaxBits = sizeof(T) == 1 ? 8 : 16;
  constexpr T kPoison = std::numeric_limits<T>::min();  // -128 / -32768: never produced (q >= -L)
  const std::string kind = sizeof(T) == 1 ? " i8" : " i16";
  const std::vector<std::string> why = refusal_reasons(x, n, null_out, s, bits, kMaxBits);

  const std::size_t alloc = std::max<std::size_t>(n, 1);
  std::vector<T> want(alloc);
  bool ref_refused = false;
  try {
    if constexpr (sizeof(T) == 1) ref::quantize_sym_i8(x, n, s, bits, null_out ? nullptr : want.data());
    else ref::quantize_sym_i16(x, n, s, bits, null_out ? nullptr : want.data());
  } catch (const std::invalid_argument&) {
    ref_refused = true;
  }
  if (ref_refused != !why.empty())
    fuzz::fail("quantize target" + kind + " " + shape + ": the reference " + (ref_refused ? "refuses" : "accepts") +
               " what the target's domain predicate " + (ref_refused ? "accepts" : "refuses"));

  for (const quantize::Variant& v : quantize::variants()) {
    if (!v.info.available()) continue;
    fuzz::Buf<T> out(alloc, out_offset, kPoison);
    T* op = null_out ? nullptr : out.data();
    auto call = [&] {
      if constexpr (sizeof(T) == 1) quantize::run_i8(v, x, n, s, bits, op);
      else quantize::run_i16(v, x, n, s, bits, op);
    };
    const std::string where = v.info.name + kind + " " + shape;
    if (!why.empty()) {
      fuzz::expect_refusal_any(v.info.name, shape + kind, why, call);
      if (!out.untouched()) fuzz::fail(where + ": wrote output while refusing");
      continue;
    }
    call();
    fuzz::expect_same(out.data(), want.data(), n, where);
    if (!out.guard_intact()) fuzz::fail(where + ": wrote outside its output");
  }
}

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  // No upper limit on n: the "over the limit" draw of length() is just a longer tensor.
  const int len = src.length(512, 4099);
  const bool null_buffer = len < 0;  // -1 stands for n = 3 with a null input or output
  const bool null_x = null_buffer && src.flag(), null_out = null_buffer && !null_x;
  const std::size_t n = null_buffer ? 3 : std::size_t(len);
  const int in_offset = int(src.range(0, 15)), out_offset = int(src.range(0, 15));

  int bits = int(src.flag() ? src.range(2, 8) : src.range(2, 16));  // half of them valid for int8 too
  if (src.range(0, 7) == 0) {
    constexpr int kBadBits[] = {INT32_MIN, -1, 0, 1, 17, 31, 32, INT32_MAX};
    bits = kBadBits[src.range(0, std::size(kBadBits) - 1)];
  }
  const bool bits_ok = bits >= 2 && bits <= 16;
  const int L = bits_ok ? levels(bits) : 127;  // for choosing s and data only

  float s = 1.0f;
  const int s_mode = int(src.range(0, 7));
  switch (s_mode) {
    case 0: s = std::bit_cast<float>(std::uint32_t(src.range(0, UINT32_MAX))); break;
    case 1: s = std::ldexp(float(L), -int(src.range(-30, 160))); break;  // scale 2^j: exact ties
    case 2: {
      constexpr float kNnue[] = {127.0f / 64.0f, 32767.0f / 127.0f, 127.0f * 127.0f / 9600.0f};
      s = kNnue[src.range(0, std::size(kNnue) - 1)];
      break;
    }
    case 3: s = src.special_scalar(); break;
    case 4: {  // where float(L) / s stops being finite: the float nearest L / FLT_MAX, one either side
      const float edge = float(double(L) / double(std::numeric_limits<float>::max()));
      const float near[] = {std::nextafter(edge, 0.0f), edge, std::nextafter(edge, INFINITY)};
      s = near[src.range(0, 2)];
      break;
    }
    case 5: break;  // max|x|, below
    default: {  // any float in 2^-20 .. 2^20
      const std::uint32_t exp = std::uint32_t(127 + src.range(-20, 20)), mant = std::uint32_t(src.range(0, (1 << 23) - 1));
      s = std::bit_cast<float>(exp << 23 | mant);
      break;
    }
  }

  // Boundary values for the data: rounding ties and their neighbours at the scale of this
  // s (when it has one), and +-s.
  std::vector<float> edges;
  const float scale = bits_ok && s > 0.0f ? float(L) / s : 1.0f;
  const float unit = std::isfinite(scale) && scale > 0.0f ? float(L) / scale : 1.0f;
  if (std::isfinite(scale) && scale > 0.0f) {
    constexpr float kFrac[] = {-0.5f, -0.25f, 0.0f, 0.25f, 0.5f};
    for (int i = 0; i < 12; ++i) {
      std::int64_t k;
      switch (src.range(0, 2)) {
        case 0: k = src.range(-3, 3); break;
        case 1: k = (src.flag() ? -1 : 1) * (L + src.range(-3, 3)); break;
        default: k = src.range(-L - 3, L + 3); break;
      }
      const float y = (float(k) + kFrac[src.range(0, 4)]) / scale;
      edges.insert(edges.end(), {y, std::nextafter(y, INFINITY), std::nextafter(y, -INFINITY)});
    }
    edges.insert(edges.end(), {s, std::nextafter(s, 0.0f), std::nextafter(s, INFINITY)});
  }

  fuzz::Buf<float> x(std::max<std::size_t>(n, 1), in_offset, 90.0f);
  const char* pattern = null_x || n == 0 ? "none" : src.fill_float(x.data(), n, unit, edges);
  if (s_mode == 5 && !null_x && n > 0) {
    s = 0.0f;
    for (std::size_t i = 0; i < n; ++i) s = std::max(s, std::fabs(x.data()[i]));
  }

  const float* xp = null_x ? nullptr : x.data();
  const std::string shape = "n=" + std::to_string(n) + (null_x ? " (null x)" : "") + (null_out ? " (null out)" : "") +
                            " s=" + fuzz::show(s) + " bits=" + std::to_string(bits) + " pattern " + pattern +
                            " offsets in " + std::to_string(in_offset) + " out " + std::to_string(out_offset);
  check<std::int8_t>(xp, n, null_out, s, bits, out_offset, shape);
  check<std::int16_t>(xp, n, null_out, s, bits, out_offset, shape);
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
