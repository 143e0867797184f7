// The command-line tools' strict number arguments (tools/args.h): the whole text a number
// in range, or an error that names the argument, the range and the text.
#include "tools/args.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace nnuelab::tools {
namespace {

std::string refusal_of_whole(const std::string& text, long long lo, long long hi) {
  try {
    whole_number("--n", text, lo, hi);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string refusal_of_real(const std::string& text, double lo, double hi) {
  try {
    real_number("SECONDS", text, lo, hi);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ToolsArgs, WholeNumberTakesTheRangeEndsAndASign) {
  EXPECT_EQ(whole_number("--n", "0", 0, 7), 0);
  EXPECT_EQ(whole_number("--n", "7", 0, 7), 7);
  EXPECT_EQ(whole_number("--n", "+3", 0, 7), 3);
  EXPECT_EQ(whole_number("--n", "-5", -5, 5), -5);
  EXPECT_EQ(whole_number("--n", "1073741824", 1, 1LL << 30), 1LL << 30);
  const long long max = std::numeric_limits<long long>::max();
  EXPECT_EQ(whole_number("--n", std::to_string(max), 0, max), max);
}

TEST(ToolsArgs, WholeNumberRefusesWhatStoiAndAtoiTake) {
  // Each of these std::stoi, std::stoul or std::atoi reads as some number.
  for (const char* text : {"1536x", "1e3", "3.5", " 4", "4 ", "", "-", "x", "0x10", "99999999999999999999"})
    EXPECT_EQ(refusal_of_whole(text, 0, 1 << 20), std::string("--n takes a whole number 0..1048576, not '") + text + "'")
        << text;
  // Out of range by one at either end; "-1" (std::stoul's 2^64 - 1).
  EXPECT_EQ(refusal_of_whole("8", 0, 7), "--n takes a whole number 0..7, not '8'");
  EXPECT_EQ(refusal_of_whole("-1", 0, 7), "--n takes a whole number 0..7, not '-1'");
  EXPECT_EQ(refusal_of_whole("0", 1, 7), "--n takes a whole number 1..7, not '0'");
}

TEST(ToolsArgs, RealNumberTakesTheOpenLowAndClosedHighEnd) {
  EXPECT_DOUBLE_EQ(real_number("SECONDS", "3600", 0, 3600), 3600);
  EXPECT_DOUBLE_EQ(real_number("SECONDS", "0.25", 0, 3600), 0.25);
  EXPECT_DOUBLE_EQ(real_number("SECONDS", "1e-3", 0, 3600), 1e-3);
  EXPECT_DOUBLE_EQ(real_number("SECONDS", "5e-324", 0, 1), 5e-324);  // a denormal: in range, ERANGE or not
}

TEST(ToolsArgs, RealNumberRefusesNaNInfinityAndTrailingText) {
  for (const char* text : {"nan", "NaN", "inf", "-inf", "0", "-1", "3600.5", "0.1x", "", " 1", "1e999"})
    EXPECT_EQ(refusal_of_real(text, 0, 3600), std::string("SECONDS takes a number > 0 and <= 3600, not '") + text + "'")
        << text;
}

TEST(ToolsArgs, RealNumberWithTheLowEndIncluded) {
  EXPECT_DOUBLE_EQ(real_number("--noise", "0", 0, 600, true), 0);
  EXPECT_DOUBLE_EQ(real_number("--noise", "600", 0, 600, true), 600);
  for (const char* text : {"-0.5", "nan", "600.5", "-inf", "1s"}) {
    std::string got;
    try {
      real_number("--noise", text, 0, 600, true);
    } catch (const std::invalid_argument& e) {
      got = e.what();
    }
    EXPECT_EQ(got, std::string("--noise takes a number >= 0 and <= 600, not '") + text + "'") << text;
  }
}

}  // namespace
}  // namespace nnuelab::tools
