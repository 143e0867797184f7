// Number arguments of the command-line tools, read strictly: the whole text is a number in
// the range, or std::invalid_argument says which argument, the range and the text. The C
// and C++ readers alone take too much: std::stoi reads "1536x" as 1536 and "1e3" as 1,
// std::stoul reads "-1" as 2^64 - 1, std::atof reads "nan" as a NaN that passes a range
// test written as `v <= 0 || v > max`, and std::atoi's overflow is undefined.
#pragma once
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace nnuelab::tools {

// A whole number in [lo, hi] (decimal; a sign allowed, no space, nothing after it).
inline long long whole_number(const std::string& what, const std::string& text, long long lo, long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || *end != '\0' || errno == ERANGE ||
      v < lo || v > hi)
    throw std::invalid_argument(what + " takes a whole number " + std::to_string(lo) + ".." + std::to_string(hi) +
                                ", not '" + text + "'");
  return v;
}

// A real number in (lo, hi], or [lo, hi] with low_included (hi finite): no NaN, no
// infinity, nothing after it. An overflow reads as an infinity, out of range; an underflow
// as the tiny number it is.
inline double real_number(const std::string& what, const std::string& text, double lo, double hi,
                          bool low_included = false) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const bool above_lo = low_included ? v >= lo : v > lo;  // both false for NaN
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || *end != '\0' || !(above_lo && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "%s %.15g and <= %.15g", low_included ? ">=" : ">", lo, hi);
    throw std::invalid_argument(what + " takes a number " + range + ", not '" + text + "'");
  }
  return v;
}

// Runs `read`, which reads number arguments with the functions above (or throws
// std::invalid_argument itself) and stores them; false, with "<program>: <the reason>" on
// stderr, and " (<usage>)" after it when given, when it refuses one (the caller exits 2).
template <class Read>
bool read_or_say(const char* program, Read read, const char* usage = nullptr) {
  try {
    read();
    return true;
  } catch (const std::invalid_argument& e) {
    if (usage)
      std::fprintf(stderr, "%s: %s (%s)\n", program, e.what(), usage);
    else
      std::fprintf(stderr, "%s: %s\n", program, e.what());
    return false;
  }
}

}  // namespace nnuelab::tools
