// One registration function per op family; main() calls them all. A new op adds one here.
#pragma once

namespace nnuelab::bench {
void register_affine();
void register_activations();
void register_find_nnz();   // bench/find_nnz_bench.cpp
void register_dot_u8i8();   // bench/dot_u8i8_bench.cpp (also the per-ISA peak benchmarks)
void register_pool();       // bench/pool_bench.cpp (pooling and ft_output)
void register_ft();         // bench/ft_bench.cpp (ft_refresh, ft_update)
void register_octav();      // bench/octav_bench.cpp (octav_step, quantize)
}  // namespace nnuelab::bench
