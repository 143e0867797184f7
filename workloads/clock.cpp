#include "workloads/clock.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace nnuelab::workloads {

double clock_read_ns() {
  using Clock = std::chrono::steady_clock;
  static const double cost = [] {
    std::vector<double> v;
    for (int i = 0; i < 20001; ++i) {
      const auto a = Clock::now();
      const auto b = Clock::now();
      v.push_back(std::chrono::duration<double, std::nano>(b - a).count());
    }
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }();
  return cost;
}

}  // namespace nnuelab::workloads
