// The machine's int8 MAC peak per ISA (DESIGN.md section 4): an independent chain of each
// ISA's best dot instruction over register-resident data (kernels/dot_u8i8/peak.inc), so a
// kernel's MAC rate can be given as a fraction of what the CPU can do at all, and numbers
// from different machines compare.
#pragma once
#include <string_view>

namespace nnuelab::bench {

// int8 MACs per ns of <isa>'s best dot instruction chain on this CPU, measured once per process (~50 ms, cached); 0 when the ISA is unavailable or has no peak kernel.
double peak_macs_per_ns(std::string_view isa);

// Registers peak/<isa>/<instruction>/chains<k>/dense:100 for every native peak kernel, with
// counters `macs` (MAC/s) and `macs_per_ns`; an ISA this CPU lacks gets a skipped entry
// saying so; emulated builds get none (never a speed claim). Called by register_dot_u8i8().
void register_peak_benchmarks();

}  // namespace nnuelab::bench
