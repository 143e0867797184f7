// Feature transformer (the first layer, kept as an int16 accumulator).
//
// Contract shared by ft_refresh and ft_update:
//   weights  int16, row-major [num_features][l1]: row f (l1 consecutive values)
//            is the column the trainer's matrix adds when feature f is active.
//   acc/out  int16[l1].
//   Indices  uint32 feature ids; every id must be < num_features. Lists are
//            multisets: a feature listed twice is added (or removed) twice.
//   Integer semantics: every addition and subtraction is int16 two's-complement
//            wrap-around, exactly what paddw/psubw (and vaddq_s16) compute, so a
//            kernel may apply rows in any order, fuse add+sub pairs, or split the
//            accumulator into passes and still be bit-exact: arithmetic mod 2^16
//            is associative and commutative, saturation would not be.
//   Errors   (std::invalid_argument): negative l1/num_features/list length, a null
//            pointer that would be read or written, an id >= num_features. All
//            checks happen before anything is written.
#pragma once

#include <cstdint>

namespace nnuelab::ref {

// acc[i] = bias[i] + sum over f in active[0..n_active) of weights[f][i]   (mod 2^16)
void ft_refresh(const int16_t* bias, const int16_t* weights, int l1, int num_features,
                const uint32_t* active, int n_active, int16_t* acc);

// out[i] = prev[i] - sum over removed of weights[f][i] + sum over added of
// weights[f][i]   (mod 2^16).
// out may be the same pointer as prev (in-place update); it must not otherwise
// overlap prev.
void ft_update(const int16_t* weights, int l1, int num_features, const int16_t* prev,
               const uint32_t* removed, int n_removed, const uint32_t* added, int n_added,
               int16_t* out);

}  // namespace nnuelab::ref
