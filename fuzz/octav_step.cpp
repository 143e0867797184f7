// Differential fuzz target of octav_step: every variant's three OCTAV sums against
// ref::octav_step (double). The contract (kernels/octav_step/octav_step.h) makes the two
// counts exact, since |x| > s and 0 < |x| <= s are exact float comparisons; the sum is
// accumulated in float per 1024-element block, so it may differ from the double reference
// by at most kSumRelTol relative (and must be exactly 0 when nothing is above s).
//
// What the fuzzer picks: n (every tail of every vector width and of the 1024 block, 0, and
// a null tensor), the tensor's misalignment (0..15 floats), the data (Source::fill_float:
// raw bit patterns with NaN/Inf/denormals/huge values, gaussian, sparse, all-zero, and
// values exactly at +-s and one float either side), and s: raw bits, powers of two down to
// the smallest denormal, bad values (0, -0, negative, Inf, NaN), |x[j]| of an element (so
// that element sits exactly on the clip), its float neighbours, a fraction of max|x|, or
// an iterate of the reference OCTAV solver for a bit width 2..16 (the s a real caller
// passes). octav_step has no bit width of its own: bits only steers that last choice.
//
// Outside the domain (n == 0, null tensor, NaN/Inf or |x| > 1e30 element, all-zero tensor,
// s not finite or <= 0) octav_step::run, and the solver that shares its tensor checks,
// must throw std::invalid_argument naming the variant and one of the applicable reasons.
#include <bit>

#include "fuzz/driver.h"
#include "kernels/octav_step/registry.h"
#include "reference/octav.h"

namespace {
using namespace nnuelab;

// Every reason the checked entry may give for (x, n, s); empty when it must run. The
// element scan names the first element outside the domain, as why_invalid_tensor does.
std::vector<std::string> refusal_reasons(const float* x, std::size_t n, float s) {
  std::vector<std::string> why;
  if (n == 0) why.push_back("empty tensor");
  else if (!x) why.push_back("null");
  else {
    bool any_nonzero = false, bad = false;
    for (std::size_t i = 0; i < n && !bad; ++i) {
      const std::string at = "x[" + std::to_string(i) + "]";
      if (std::isnan(x[i])) why.push_back(at + " is NaN"), bad = true;
      else if (std::isinf(x[i])) why.push_back(at + " is infinite"), bad = true;
      else if (std::fabs(x[i]) > octav_step::kMaxAbs) why.push_back("|" + at + "|"), bad = true;
      any_nonzero |= x[i] != 0.0f;
    }
    if (!bad && !any_nonzero) why.push_back("every element is zero");
  }
  if (!(std::isfinite(s) && s > 0.0f)) why.push_back("must be finite and > 0");
  return why;
}

// Whether a variant's sums match the reference's: counts exactly, the sum within
// kSumRelTol (written so that a NaN sum fails, and a reference sum of 0 demands 0).
bool sums_match(const octav_step::Sums& got, const ref::OctavSums& want) {
  return got.count_small == want.count_small && got.count_above == want.count_above &&
         std::fabs(got.sum_abs_above - want.sum_abs_above) <= octav_step::kSumRelTol * want.sum_abs_above;
}

// After a mismatch: the first index i such that the variant and the reference already
// disagree on x[0..i] followed by zeros up to n. Zeros add nothing to any of the three
// sums, and the padding keeps n, the misalignment and every element's lane and block as
// they were, so this names the element whose lane goes wrong (a kernel that counts zeros
// shows up at the first non-zero element, the first tensor the domain accepts).
// Quadratic, but only on the way to a finding.
long first_differing_index(const octav_step::Variant& v, const float* x, std::size_t n, float s, int offset) {
  fuzz::Buf<float> y(n, offset, 0.0f);
  std::fill_n(y.data(), n, 0.0f);
  bool any_nonzero = false;
  for (std::size_t i = 0; i < n; ++i) {
    y.data()[i] = x[i];
    any_nonzero |= x[i] != 0.0f;
    if (any_nonzero && !sums_match(octav_step::run(v, y.data(), n, s), ref::octav_step(y.data(), n, double(s))))
      return long(i);
  }
  return long(n) - 1;  // not reached: the whole tensor disagrees
}

int one_input(const std::uint8_t* data, std::size_t size) {
  fuzz::Source src(data, size);
  // No upper limit on n: the "over the limit" draw of length() is just a third block.
  const int len = src.length(512, 2 * int(octav_step::kBlock) + 8);
  const bool null_x = len < 0;  // -1 stands for a null tensor pointer with n = 3
  const std::size_t n = null_x ? 3 : std::size_t(len);
  const int offset = int(src.range(0, 15));
  // Guard floats of 90.0: a kernel reading past x[n - 1] counts them and the sums differ.
  fuzz::Buf<float> x(std::max<std::size_t>(n, 1), offset, 90.0f);

  // s. The first four choices do not look at the data, so the data can put elements on
  // +-s and its neighbours; the others derive s from the data.
  const int s_mode = int(src.range(0, 8));
  float s = 1.0f;
  switch (s_mode) {
    case 0: s = std::bit_cast<float>(std::uint32_t(src.range(0, UINT32_MAX))); break;
    case 1: s = std::ldexp(1.0f, int(src.range(-149, 127))); break;
    case 2: s = src.special_scalar(); break;
    case 3: s = 0.75f; break;
    default: s = std::ldexp(1.0f, int(src.range(-20, 20))); break;  // a scale for the data; s follows below
  }
  const bool s_from_data = s_mode >= 4;
  // The data's scale: s itself when it is a usable magnitude (denormal s included).
  const float unit = s > 0.0f && s <= 1e20f ? s : 1.0f;
  const std::vector<float> at_s = {unit, std::nextafter(unit, 0.0f), std::nextafter(unit, INFINITY), 2 * unit, unit / 2};
  const char* pattern = null_x || n == 0 ? "none" : src.fill_float(x.data(), n, unit, at_s, octav_step::kMaxAbs);

  int bits = 0;  // > 0 only when s is an OCTAV iterate
  if (s_from_data && !null_x && n > 0) {
    float max_abs = 0;
    for (std::size_t i = 0; i < n; ++i) max_abs = std::max(max_abs, std::fabs(x.data()[i]));
    const float xj = std::fabs(x.data()[std::size_t(src.range(0, std::int64_t(n) - 1))]);
    switch (s_mode) {
      case 4: s = xj; break;  // that element (and every equal one) exactly at +-s
      case 5: s = std::nextafter(xj, src.flag() ? 0.0f : INFINITY); break;
      case 6: {
        constexpr float kFrac[] = {1e-3f, 0.1f, 0.5f, 0.9f, 0.999f, 1.0f, 2.0f};
        s = max_abs * kFrac[src.range(0, std::size(kFrac) - 1)];
        break;
      }
      default: {
        bits = int(src.range(2, 16));
        const auto noise = src.flag() ? ref::OctavNoise::kSymmetric : ref::OctavNoise::kWritten;
        try {  // the reference refuses what octav_step refuses (bar |x| > 1e30): then keep s
          s = float(ref::octav_solve_with(x.data(), n, ref::octav_noise(bits, noise), double(max_abs),
                                          int(src.range(1, 8)))
                        .s);
        } catch (const std::invalid_argument&) {
        }
        break;
      }
    }
  }

  const float* xp = null_x ? nullptr : x.data();
  const std::vector<std::string> why = refusal_reasons(xp, n, s);
  const std::string shape = "n=" + std::to_string(n) + (null_x ? " (null x)" : "") + " s=" + fuzz::show(s) +
                            (bits ? " (OCTAV iterate, bits " + std::to_string(bits) + ")" : "") + " pattern " +
                            pattern + " offset " + std::to_string(offset);
  ref::OctavSums want{};
  if (why.empty()) want = ref::octav_step(xp, n, double(s));
  const std::vector<float> before(x.data(), x.data() + n);

  for (const octav_step::Variant& v : octav_step::variants()) {
    if (!v.info.available()) continue;
    const std::string where = v.info.name + " " + shape;
    if (!why.empty()) {
      fuzz::expect_refusal_any(v.info.name, shape, why, [&] { octav_step::run(v, xp, n, s); });
      // The solver checks the same tensor before its first pass (s0 = 1 is valid).
      std::vector<std::string> tensor_why = refusal_reasons(xp, n, 1.0f);
      if (!tensor_why.empty())
        fuzz::expect_refusal_any(v.info.name, shape + " (solve)", tensor_why,
                                 [&] { octav_step::solve(v, xp, n, 1e-3, 1.0); });
      continue;
    }
    const octav_step::Sums got = octav_step::run(v, xp, n, s);
    if (!std::equal(before.begin(), before.end(), x.data()) || !x.guard_intact()) fuzz::fail(where + ": wrote to its input");
    if (sums_match(got, want)) continue;
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  ": count_small %lld (reference %lld), count_above %lld (reference %lld), sum_abs_above %.17g "
                  "(reference %.17g, tolerance %.1e relative)",
                  (long long)got.count_small, (long long)want.count_small, (long long)got.count_above,
                  (long long)want.count_above, got.sum_abs_above, want.sum_abs_above, octav_step::kSumRelTol);
    const long i = first_differing_index(v, xp, n, s, offset);
    fuzz::fail(where + detail + "; first differing index " + std::to_string(i) + " (x = " + fuzz::show(x.data()[i]) +
               ", the variant already disagrees on x[0.." + std::to_string(i) + "] padded with zeros)");
  }
  return 0;
}
}  // namespace

NNUELAB_FUZZ_ENTRY(one_input)
