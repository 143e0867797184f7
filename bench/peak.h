// The machine's int8 MAC peak per ISA (DESIGN.md section 4): an independent chain of each
// ISA's best dot instruction over register-resident data (kernels/dot_u8i8/peak.inc), so a
// kernel's MAC rate can be given as a fraction of what the CPU can do at all, and numbers
// from different machines compare.
#pragma once
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>
#include <vector>

#include "bench/pct_peak.h"

namespace nnuelab::bench {

// int8 MACs per ns of <isa>'s best dot instruction chain on this CPU so far in this
// process; 0 when the ISA is unavailable or has no peak kernel. Measured in windows: the
// first call of an ISA takes one of 50 ms, and a call at least 0.5 s after that ISA's last
// window takes another of 4 ms (the affine and dot benchmarks call it as each run ends, so
// the windows sample the whole run). The peak is peak_of_windows() of their best rates
// (bench/pct_peak.h).
double peak_macs_per_ns(std::string_view isa);

// Sets `state`'s pct_peak counter: `macs_per_call` (the rate counter's per-call MACs:
// useful_macs for affine, macs for dot_u8i8, the counters the JSON's figure is given again
// from) as % of the peak of <isa> (peak_isa_of) so far; none when that ISA has no peak
// here (scalar references, emulated builds). Provisional, as above.
void set_pct_peak(benchmark::State& state, std::string_view isa, double macs_per_call);

// Every ISA's windows so far: what the JSON's pct_peak is finally given against.
struct PeakWindows {
  std::string isa;
  std::vector<double> bests;  // MAC/ns, one per window, in order
};
std::vector<PeakWindows> peak_windows();

// Registers peak/<isa>/<instruction>/chains<k>/dense:100 for every native peak kernel, with
// counters `macs` (MAC/s) and `macs_per_ns`; an ISA this CPU lacks gets a skipped entry
// saying so; emulated builds get none (never a speed claim). Called by register_dot_u8i8().
void register_peak_benchmarks();

}  // namespace nnuelab::bench
