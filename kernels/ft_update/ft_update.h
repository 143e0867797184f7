// Op `ft_update`: the incremental feature-transformer update.
//   out[p][i] = prev[p][i] - sum over removed[p] of weights[f][i] + sum over added[p] of
//               weights[f][i]   (mod 2^16)
// for each perspective p, int16 wrap-around (psubw/paddw), the contract of reference/ft.h.
// in_place: out[p] == prev[p] (the engine updates its accumulator where it lies); else
// out[p] must not overlap prev[p] (copy-then-update into the next stack entry).
// Included by ISA-compiled files: plain data and declarations only.
#pragma once
#include <cstdint>

namespace nnuelab::ft_update {

struct Shape {
  int l1 = 0;             // accumulator width (int16 lanes)
  int features = 0;       // rows of the weight matrix; every id must be < features
  int n_removed = 0;      // removed features per perspective
  int n_added = 0;        // added features per perspective
  int perspectives = 1;   // 1 or 2
  bool in_place = false;  // out[p] == prev[p]

  friend bool operator==(const Shape&, const Shape&) = default;
};

// One set of pointers per perspective ([1] unused when perspectives == 1).
// weights: int16 [features][l1] row-major.
struct Args {
  const std::int16_t* weights = nullptr;
  const std::int16_t* prev[2] = {nullptr, nullptr};
  std::int16_t* out[2] = {nullptr, nullptr};
  const std::uint32_t* removed[2] = {nullptr, nullptr};
  const std::uint32_t* added[2] = {nullptr, nullptr};
};

}  // namespace nnuelab::ft_update

#define NNUELAB_FT_UPDATE_KERNEL(tech)                                   \
  const char* tech##_supports(const ::nnuelab::ft_update::Shape& shape); \
  void tech##_run(const ::nnuelab::ft_update::Shape& shape, const ::nnuelab::ft_update::Args& args);
