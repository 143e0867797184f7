// Synthetic inputs for tests and benchmarks: deterministic random numbers, sparse
// activations with byte- or chunk-independent density, and rotating input pools.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace nnuelab::workloads {

// xoshiro256** seeded through splitmix64: the same stream on every platform and standard
// library, so a seed printed by a failing test reproduces the input anywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  // Uniform integer in [lo, hi] (inclusive).
  std::int64_t uniform(std::int64_t lo, std::int64_t hi);
  // True with probability p.
  bool chance(double p);

 private:
  std::uint64_t s_[4];
};

// How sparse an activation vector is.
//  byte:P   each byte independently non-zero with probability P%
//  chunk:P  each 4-byte chunk independently non-zero with probability P% (what blocked
//           sparse kernels skip by); inside a non-zero chunk bytes are uniform 0..max with
//           at least one non-zero. Byte density d gives chunk density 1 - (1 - d)^4.
//  dense    every byte uniform 0..max (zeros only by chance)
enum class DensityKind { kDense, kByte, kChunk };

struct Density {
  DensityKind kind = DensityKind::kDense;
  double percent = 100.0;
  std::string name() const;  // "dense:100", "byte:15", "chunk:2.5"
};

// Parses the form printed by Density::name(); throws std::invalid_argument otherwise.
Density parse_density(const std::string& text);

// Fills n bytes with values in 0..max_value following the density.
void fill_activations(Rng& rng, std::uint8_t* out, int n, const Density& d, int max_value = 127);

// Fills n int8 weights shaped like a trained NNUE hidden layer: most small (a sum of four
// uniforms, rms about 10), one in 128 an outlier anywhere in -128..127. The Stockfish nets
// of ../shared/data have an fc_0 rms of 7-15 and a few weights at +-127; like them, these
// weights leave a few chunks the two-chunk affine techniques cannot pair (affine.h), where
// uniform int8 weights leave almost none they can.
void fill_net_like_weights(Rng& rng, std::int8_t* out, std::size_t n);

struct Measured {
  int nnz_bytes = 0;
  int nnz_chunks = 0;
  double byte_density = 0;   // fraction of non-zero bytes
  double chunk_density = 0;  // fraction of non-zero 4-byte chunks (a partial tail counts)
};
Measured measure(const std::uint8_t* data, int n);

// 64-byte aligned, zero-initialised array of trivially copyable T.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : n_(n) {
    const std::size_t bytes = ((n * sizeof(T) + 63) / 64 + 1) * 64;
    p_.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!p_) throw std::bad_alloc();
    std::fill_n(reinterpret_cast<unsigned char*>(p_.get()), bytes, 0);
  }
  T* data() { return p_.get(); }
  const T* data() const { return p_.get(); }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return p_.get()[i]; }
  const T& operator[](std::size_t i) const { return p_.get()[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> p_;
  std::size_t n_ = 0;
};

// `count` distinct activation vectors of `n` bytes each, stored back to back with a
// 64-byte aligned stride. Benchmarks rotate through at least 1,000 of them so the branch
// predictor cannot learn the inputs of a branchy sparse kernel.
struct InputPool {
  int n = 0;
  int count = 0;
  std::size_t stride = 0;
  Buffer<std::uint8_t> bytes;
  Measured mean;  // averaged over the pool (nnz as the rounded mean)
  const std::uint8_t* get(int i) const { return bytes.data() + std::size_t(i) * stride; }
};
InputPool make_input_pool(int n, const Density& d, int count, std::uint64_t seed, int max_value = 127);

}  // namespace nnuelab::workloads
