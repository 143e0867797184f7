// Op `ft_refresh`: the feature transformer's accumulator built from scratch.
//   acc[p][i] = bias[i] + sum over f in active[p][0..active) of weights[f][i]   (mod 2^16)
// for each perspective p < perspectives, int16 two's-complement wrap-around (paddw), the
// contract of reference/ft.h. Included by ISA-compiled files: plain data and declarations.
#pragma once
#include <cstdint>

namespace nnuelab::ft_refresh {

struct Shape {
  int l1 = 0;            // accumulator width (int16 lanes)
  int features = 0;      // rows of the weight matrix; every active id must be < features
  int active = 0;        // active features per perspective
  int perspectives = 1;  // 1, or 2: both accumulators (white, black) in one call

  friend bool operator==(const Shape&, const Shape&) = default;
};

// Plain pointers, one list and one accumulator per perspective ([1] unused when
// perspectives == 1). weights: int16 [features][l1] row-major; bias: int16 [l1].
struct Args {
  const std::int16_t* weights = nullptr;
  const std::int16_t* bias = nullptr;
  const std::uint32_t* active[2] = {nullptr, nullptr};
  std::int16_t* acc[2] = {nullptr, nullptr};
};

// The lanes of a floor kernel's fold (floor.inc): it writes acc[p][0..kFloorLanes) only.
constexpr int kFloorLanes = 64;

}  // namespace nnuelab::ft_refresh

#define NNUELAB_FT_REFRESH_KERNEL(tech)                                \
  const char* tech##_supports(const ::nnuelab::ft_refresh::Shape& shape); \
  void tech##_run(const ::nnuelab::ft_refresh::Shape& shape, const ::nnuelab::ft_refresh::Args& args);

// A floor kernel of kernels/ft_refresh/floor.inc (not a variant: the yardstick of what the
// call's rows cost to read; ft_tiles.h's RefreshRowsRead says what it computes).
#define NNUELAB_FT_REFRESH_FLOOR(tech)                                           \
  const char* floor_##tech##_supports(const ::nnuelab::ft_refresh::Shape& shape); \
  void floor_##tech##_run(const ::nnuelab::ft_refresh::Shape& shape, const ::nnuelab::ft_refresh::Args& args);
