// Shared by every kernels/<op>/registry.cpp. A registry line in <op>.inc reads
//
//   NNUELAB_VARIANT(isa, technique, "what the variant is for")
//
// and expands, through NNUELAB_EACH_<isa> from the generated nnuelab_config.h, into one
// NNUELAB_ROW(ns, technique, note) per build of that ISA in this configuration: the native
// one (ns = avx512vnni) and/or the SIMDe one (ns = avx512vnni_emu). Each registry.cpp
// includes its .inc twice: once with NNUELAB_ROW declaring the kernel functions, once
// building the table. No static initialisers, no self-registration.
#pragma once
#include "nnuelab_config.h"

// After the parameter list of the lambda that builds a registry's static table:
//   static const std::vector<Variant> table = []() NNUELAB_TABLE_BUILDER {
//     return std::vector<Variant>{
//   #include "kernels/<op>/<op>.inc"
//     };
//   }();
// Out of line and cold. Built in variants() itself, the table's construction (every line's
// names and pointers: a stack frame of kilobytes) made GCC save six registers and move the
// stack around the two loads that every later call needs. run_active called variants() on
// every call then (e2f672f, 9.0 -> 7.7 ns); since a5d095d its memo asks for the table only
// on a miss, so this now keeps short the calls of the other callers (the tests, the bench,
// a program choosing by name).
#define NNUELAB_TABLE_BUILDER __attribute__((noinline, cold))

#define NNUELAB_VARIANT(isa, technique, note) NNUELAB_EACH_##isa(NNUELAB_ROW, technique, note)

// A variant with the fused nnz bitset: producers (activations, pooling) that also write
// the 1-bit-per-4-byte-chunk bitset of their output, and affine kernels that can take it
// instead of scanning their input. Each registry.cpp defines NNUELAB_ROW_BITS; ops
// without such variants never use this line.
#define NNUELAB_VARIANT_BITS(isa, technique, note) NNUELAB_EACH_##isa(NNUELAB_ROW_BITS, technique, note)

// A variant that leaves its output lane-interleaved on purpose (no fix-up permute; the
// next layer's prepare absorbs the order): `lanes` is the number of 128-bit lanes its
// narrowing packs work over, plain data that the op's output_order turns into a byte
// order (kernels/common/lane_order.h). Only ops whose registry.cpp defines
// NNUELAB_REGISTRY_LANES (an ElementwiseVariant's order_lanes) use these lines.
#define NNUELAB_VARIANT_LANES(isa, technique, lanes, note) NNUELAB_EACH_##isa(NNUELAB_ROW_LANES, technique, lanes, note)
#define NNUELAB_VARIANT_LANES_BITS(isa, technique, lanes, note) \
  NNUELAB_EACH_##isa(NNUELAB_ROW_LANES_BITS, technique, lanes, note)
