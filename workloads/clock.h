// The cost a timed interval carries beyond its work: the median time between two
// back-to-back reads of std::chrono::steady_clock (20,001 pairs, measured once per
// process). nnuelab_bench subtracts it from each timed batch, ./lab eval from each layer's
// lap (each lap ends in one clock read).
#pragma once

namespace nnuelab::workloads {

double clock_read_ns();

}  // namespace nnuelab::workloads
