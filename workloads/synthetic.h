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

#include <sys/mman.h>

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

// Where a Buffer's memory comes from. kHuge: 2 MiB aligned, whole 2 MiB pages, advised to
// the kernel as transparent huge pages (madvise MADV_HUGEPAGE) before its first touch, as
// engines allocate their feature-transformer weights (Stockfish asks for large pages
// there): a random row then costs no page walk (a 92 MB matrix in 4 KiB pages is 23,000
// pages, ten times what the second-level TLB of a Zen 3 core maps). Whether the kernel
// grants them depends on the system (transparent_hugepage "always" or "madvise", free
// contiguous memory); huge_page_bytes() says how much it did. Elsewhere than Linux, kHuge
// is only the alignment.
enum class Pages { kSmall, kHuge };
inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

// Bytes of [p, p + bytes) that the kernel backs with transparent huge pages, from
// /proc/self/smaps (the AnonHugePages of every mapping the range overlaps, at most
// `bytes`: a mapping shared with other memory counts whole); 0 where that file is missing.
// `smaps`: another file of that format (the tests').
std::size_t huge_page_bytes(const void* p, std::size_t bytes, const char* smaps = "/proc/self/smaps");

// 64-byte aligned (pages kHuge: 2 MiB), zero-initialised array of trivially copyable T.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n, Pages pages = Pages::kSmall) : n_(n) {
    const std::size_t align = pages == Pages::kHuge ? kHugePageBytes : 64;
    // One spare 64-byte line past the end (kernels may load a little past it).
    bytes_ = (n * sizeof(T) + 64 + align - 1) / align * align;
    p_.reset(static_cast<T*>(std::aligned_alloc(align, bytes_)));
    if (!p_) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (pages == Pages::kHuge) madvise(p_.get(), bytes_, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
#endif
    std::fill_n(reinterpret_cast<unsigned char*>(p_.get()), bytes_, 0);  // first touch: the pages are faulted in here
  }
  // Bytes allocated (n elements, rounded up with the spare line to the alignment).
  std::size_t bytes() const { return bytes_; }
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
  std::size_t bytes_ = 0;
};

// Copies `bytes` bytes from src to dst (not overlapping) with plain 16-byte loads and
// stores, as the benchmarks stage each batch's inputs before the clock starts: a producer
// that just wrote the activations leaves them in L1, and ordinary stores do the same.
// std::memcpy does not always: glibc's memcpy copies 2,112 bytes and more with `rep movsb`
// on CPUs that have ERMS/FSRM, and on the AMD Zen 5 guest of docs/findings/zen5.md a kernel
// reading what it wrote ran as if from a further cache level (pool_product2 of 2 x 1024:
// 36.5 ns after a memcpy staging, 20.4 after vector stores or with GLIBC_TUNABLES moving
// the rep movsb threshold past the copy). An empty asm in the loop keeps the compiler from
// turning the loop back into a memcpy call; tests/expected_instructions.txt checks the
// built function (vector moves, no call, no rep movs).
void stage_copy(void* dst, const void* src, std::size_t bytes);

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

// What a caller of the sparse kernels has at hand besides the inputs, made by the scalar
// reference for every input of a pool (nnuelab_bench's `_from_bits`/`_from_list`
// benchmarks and the instruction gate's cases of the same names both use these):
// - the nnz bitsets, one bit per 4-byte chunk (as a fused producer writes them):
//   nnz_bitset_words(pool.n) words per input, input i's at i * that;
// - the lists of non-zero chunks: pool_list_stride(pool) entries per input, the count
//   first, then the chunk indices in increasing order.
std::vector<std::uint64_t> pool_nnz_bitsets(const InputPool& pool);
inline std::size_t pool_list_stride(const InputPool& pool) { return std::size_t(pool.n / 4) + 1; }
std::vector<std::uint16_t> pool_nnz_lists(const InputPool& pool);

}  // namespace nnuelab::workloads
