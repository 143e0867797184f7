// ft_refresh and ft_update: every registered variant x accumulator widths x counts, plus
// the scalar reference (technique "reference").
//
// Weights are a HalfKAv2_hm-sized matrix, 45056 features (64 king buckets x 704 piece
// features) x L1 int16: 92 MB at L1 = 1024, so it is built once per L1 (lazily, when a
// benchmark of that L1 first runs) and shared by every variant. The feature ids of each call
// come from a pool of kPoolInputs calls: each call picks a king bucket (any of the 64 for a
// refresh, one of the game's few for an update: see kGameBuckets) and distinct random piece
// features inside it, as an engine does (one position's features all share its king's
// bucket). So rows are neither always L1-hot nor always the same ones, and naive and tiled
// forms read exactly the same rows. Refresh shapes are also timed with L2-hot rows (density
// kind "l2hot"), where memory latency is not the limit, and every refresh shape also times
// each ISA's rows-read floor (floor/<isa>/ft_rows_read) on the same rows.
#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <tuple>

#include "bench/harness.h"
#include "bench/placement.h"
#include "bench/register.h"
#include "kernels/ft_refresh/registry.h"
#include "kernels/ft_update/registry.h"
#include "reference/ft.h"

namespace nnuelab::bench {
namespace {

constexpr int kFeatures = 45056;
constexpr int kBucket = 704;  // features per king bucket: 45056 = 64 x 704
// The king buckets one game visits: a king moves among a few squares, so the rows an
// update reads come from a few 704-row blocks (4 x 704 rows x 2 KB = 5.6 MB at L1 = 1024:
// L3-sized, not L1-sized), spread over the matrix. A refresh is what an engine does when its
// king enters another bucket, whose rows are then mostly cold: refresh pools draw from all 64.
constexpr int kGameBuckets[] = {0, 9, 27, 60};

// The [kFeatures][l1] weight matrix for one L1, uniform over all int16 (speed does not
// depend on the values; wrap-around is free in paddw).
// With --huge-pages the matrix asks for transparent huge pages (bench/harness.h).
workloads::Buffer<std::int16_t>& weight_buffer(int l1) {
  static std::map<int, std::unique_ptr<workloads::Buffer<std::int16_t>>> cache;
  auto& slot = cache[l1];
  if (!slot) {
    slot = std::make_unique<workloads::Buffer<std::int16_t>>(std::size_t(kFeatures) * l1,
                                                             huge_pages() ? workloads::Pages::kHuge : workloads::Pages::kSmall);
    workloads::Rng rng(0xf7 + l1);
    std::int16_t* w = slot->data();
    for (std::size_t i = 0; i < slot->size(); i += 4) {
      std::uint64_t x = rng.next();
      for (std::size_t j = i; j < std::min(slot->size(), i + 4); ++j, x >>= 16) w[j] = std::int16_t(std::uint16_t(x));
    }
  }
  return *slot;
}
const std::int16_t* weights_for(int l1) { return weight_buffer(l1).data(); }

// With --huge-pages: the counter huge_page_pct, the share of the L1's weight matrix in
// huge pages (what the kernel granted, read once the matrix is filled).
void count_huge_pages(benchmark::State& state, int l1) {
  if (!huge_pages()) return;
  const workloads::Buffer<std::int16_t>& w = weight_buffer(l1);
  state.counters["huge_page_pct"] = 100.0 * double(workloads::huge_page_bytes(w.data(), w.bytes())) / double(w.bytes());
}

// kPoolInputs calls x `lists` id lists of `n` ids each (lists of one call share a bucket
// per perspective; distinct ids inside a list).
struct IdPool {
  int per_call;  // ids of one call, all lists back to back
  std::vector<std::uint32_t> ids;
  const std::uint32_t* call(int i) const { return ids.data() + std::size_t(i % kPoolInputs) * per_call; }
};

// Where a pool's rows come from.
enum class Rows {
  kAnyBucket,    // any of the 64 buckets: mostly cold rows (a refresh), density kind "dense"
  kGameBuckets,  // kGameBuckets: L3-sized (an update), density kind "dense"
  kHot,          // the first kHotRows features of bucket 0 (192 KB at L1 = 1024): L2-hot rows,
                 // the compute-bound case, density kind "l2hot"
};
constexpr int kHotRows = 96;

// lists[k] ids per list k; each perspective (group of lists) draws one bucket.
const IdPool& id_pool(const std::vector<int>& lists, int perspectives, Rows rows) {
  static std::map<std::tuple<std::vector<int>, int, Rows>, std::unique_ptr<IdPool>> cache;
  auto& slot = cache[{lists, perspectives, rows}];
  if (!slot) {
    int per_persp = 0;
    for (int n : lists) per_persp += n;
    slot = std::make_unique<IdPool>(IdPool{per_persp * perspectives, {}});
    slot->ids.resize(std::size_t(slot->per_call) * kPoolInputs);
    workloads::Rng rng(0x1d + per_persp * 17 + perspectives);
    std::uint32_t* out = slot->ids.data();
    std::vector<std::uint32_t> piece(kBucket);
    for (int c = 0; c < kPoolInputs; ++c)
      for (int p = 0; p < perspectives; ++p) {
        const int bucket = rows == Rows::kAnyBucket   ? int(rng.uniform(0, kFeatures / kBucket - 1))
                           : rows == Rows::kGameBuckets ? kGameBuckets[rng.uniform(0, std::size(kGameBuckets) - 1)]
                                                        : 0;
        const int span = rows == Rows::kHot ? kHotRows : kBucket;
        const std::uint32_t base = std::uint32_t(bucket) * kBucket;
        for (int i = 0; i < span; ++i) piece[i] = base + i;
        for (int k = 0; k < per_persp; ++k) std::swap(piece[k], piece[rng.uniform(k, span - 1)]);  // partial shuffle
        out = std::copy_n(piece.begin(), per_persp, out);
      }
  }
  return *slot;
}

// ---- ft_refresh -----------------------------------------------------------------------

// kernel(ids of one call, acc[2]). Outputs rotate through a batch of accumulators, like the
// accumulator stack of an engine.
template <class Kernel>
void time_refresh(benchmark::State& state, const ft_refresh::Shape& s, Rows rows, Kernel&& kernel) {
  const IdPool& pool = id_pool({s.active}, s.perspectives, rows);
  const int batch = batch_size(std::size_t(s.l1) * 2 * s.perspectives);
  workloads::Buffer<std::int16_t> acc(std::size_t(s.l1) * 2 * batch);
  int first = 0;
  run_batched(
      state, batch, [&](int f) { first = f; },
      [&](int j) {
        std::int16_t* a = acc.data() + std::size_t(j) * 2 * s.l1;
        kernel(pool.call(first + j), a, a + s.l1);
      });
  // int16 additions per call (rows x L1, both perspectives).
  state.counters["adds"] = benchmark::Counter(double(s.active) * s.l1 * s.perspectives, benchmark::Counter::kIsIterationInvariantRate);
  count_huge_pages(state, s.l1);
}

// Both perspectives' accumulators of one call, as two kernels (an original and its placed
// copy) wrote them from the same start: byte for byte the same? Every byte is set first,
// so what a kernel leaves alone compares equal.
class SameAccumulators {
 public:
  explicit SameAccumulators(int l1) : l1_(std::size_t(l1)), a_(2 * l1_), b_(2 * l1_) {}
  std::int16_t* a(int p) { return a_.data() + std::size_t(p) * l1_; }
  std::int16_t* b(int p) { return b_.data() + std::size_t(p) * l1_; }
  void reset() {
    std::memset(a_.data(), 0x5a, a_.bytes());
    std::memset(b_.data(), 0x5a, b_.bytes());
  }
  bool same() const { return std::memcmp(a_.data(), b_.data(), a_.bytes()) == 0; }

 private:
  std::size_t l1_;
  workloads::Buffer<std::int16_t> a_, b_;
};

// The timed body of a refresh kernel (a variant's run or a floor kernel's) on the pool's
// rows; the bias is any l1 int16. A placed copy (bench/placement.h) must write the
// original's accumulators for the pool's first 16 calls.
using RefreshFn = void (*)(const ft_refresh::Shape&, const ft_refresh::Args&);
std::function<void(benchmark::State&)> refresh_body(RefreshFn kernel, const std::string& name,
                                                    const ft_refresh::Shape& s, Rows rows) {
  return [kernel, name, s, rows](benchmark::State& st) {
    ft_refresh::Args a;
    a.weights = weights_for(s.l1);
    a.bias = a.weights;
    const auto run = placed_checked(kernel, name, [&](auto x, auto y) {
      const IdPool& pool = id_pool({s.active}, s.perspectives, rows);
      SameAccumulators acc(s.l1);
      for (int i = 0; i < 16; ++i) {
        acc.reset();
        ft_refresh::Args b = a;
        a.active[0] = b.active[0] = pool.call(i), a.active[1] = b.active[1] = pool.call(i) + s.active;
        a.acc[0] = acc.a(0), a.acc[1] = acc.a(1), b.acc[0] = acc.b(0), b.acc[1] = acc.b(1);
        x(s, a);
        y(s, b);
        if (!acc.same()) return false;
      }
      return true;
    });
    time_refresh(st, s, rows, [&](const std::uint32_t* ids, std::int16_t* a0, std::int16_t* a1) {
      a.active[0] = ids, a.active[1] = ids + s.active, a.acc[0] = a0, a.acc[1] = a1;
      run(s, a);  // unchecked: the pool's ids are valid by construction
    });
  };
}

void register_refresh(const ft_refresh::Shape& s, Rows rows = Rows::kAnyBucket) {
  std::string suffix = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain here
  suffix += ft_refresh::shape_name(s);
  suffix += rows == Rows::kHot ? "/l2hot:100" : "/dense:100";
  const std::size_t bytes = std::size_t(s.l1) * 2 * s.perspectives;
  if (!forced_variant())
    register_variant_benchmark("ft_refresh/scalar/reference" + suffix, nullptr, bytes, [s, rows](benchmark::State& st) {
      const std::int16_t* w = weights_for(s.l1);
      const std::int16_t* bias = w;  // any l1 int16 will do
      time_refresh(st, s, rows, [&](const std::uint32_t* ids, std::int16_t* a0, std::int16_t* a1) {
        ref::ft_refresh(bias, w, s.l1, s.features, ids, s.active, a0);
        if (s.perspectives == 2) ref::ft_refresh(bias, w, s.l1, s.features, ids + s.active, s.active, a1);
      });
    });
  for (const ft_refresh::Variant* v : selected_variants(ft_refresh::variants())) {
    if (v->info.available() && !ft_refresh::why_unsupported(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, bytes, refresh_body(v->run, v->info.name, s, rows));
  }
  // The rows-read floor of each ISA (kernels/ft_refresh/floor.inc) on the same pool of rows:
  // what reading them costs with nothing else done. Native only (an emulated floor is
  // tested, never timed), and not under a forced variant.
  if (forced_variant()) return;
  for (const ft_refresh::FloorKernel& k : ft_refresh::floor_kernels()) {
    if (k.info.emulated || (k.info.available() && k.supports(s))) continue;
    register_variant_benchmark(k.info.name + suffix, &k.info, bytes, refresh_body(k.run, k.info.name, s, rows));
  }
}

// ---- ft_update ------------------------------------------------------------------------

// kernel(ids of one call, prev[2], out[2]). Copy form: prev is a pool accumulator staged
// L1-hot (the previous stack entry), out the next entry. In place: out == prev.
template <class Kernel>
void time_update(benchmark::State& state, const ft_update::Shape& s, Kernel&& kernel) {
  const IdPool& pool = id_pool({s.n_removed, s.n_added}, s.perspectives, Rows::kGameBuckets);
  const std::size_t acc = std::size_t(s.l1) * 2;  // both perspectives' accumulators
  const int batch = batch_size(acc * 2 * (s.in_place ? 1 : 2));
  workloads::Buffer<std::int16_t> prev(acc * batch), out(acc * batch);
  workloads::Buffer<std::int16_t> source(acc * 16);  // staged into prev before each batch
  workloads::Rng rng(5);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = std::int16_t(rng.uniform(-2000, 2000));
  int first = 0;
  run_batched(
      state, batch,
      [&](int f) {
        first = f;
        for (int j = 0; j < batch; ++j) workloads::stage_copy(prev.data() + j * acc, source.data() + (j % 16) * acc, acc * 2);
      },
      [&](int j) {
        std::int16_t* p = prev.data() + j * acc;
        std::int16_t* o = s.in_place ? p : out.data() + j * acc;
        kernel(pool.call(first + j), p, o);
      });
  state.counters["adds"] = benchmark::Counter(double(s.n_added + s.n_removed) * s.l1 * s.perspectives,
                                              benchmark::Counter::kIsIterationInvariantRate);
  count_huge_pages(state, s.l1);
}

// Points a's per-perspective pointers at one call's ids (time_update's pool: each
// perspective's removed ids, then its added ones) and accumulators.
void point_update_args(ft_update::Args& a, const ft_update::Shape& s, const std::uint32_t* ids, std::int16_t* prev,
                       std::int16_t* out) {
  for (int p = 0; p < s.perspectives; ++p) {
    a.removed[p] = ids + p * (s.n_removed + s.n_added), a.added[p] = a.removed[p] + s.n_removed;
    a.prev[p] = prev + p * s.l1, a.out[p] = out + p * s.l1;
  }
}

void register_update(const ft_update::Shape& s) {
  std::string suffix = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain here
  suffix += ft_update::shape_name(s);
  suffix += "/dense:100";
  const std::size_t bytes = std::size_t(s.l1) * 2 * s.perspectives;
  const int per_persp = s.n_removed + s.n_added;
  if (!forced_variant())
    register_variant_benchmark("ft_update/scalar/reference" + suffix, nullptr, bytes, [s, per_persp](benchmark::State& st) {
      const std::int16_t* w = weights_for(s.l1);
      time_update(st, s, [&](const std::uint32_t* ids, std::int16_t* prev, std::int16_t* out) {
        for (int p = 0; p < s.perspectives; ++p) {
          const std::uint32_t* rem = ids + p * per_persp;
          ref::ft_update(w, s.l1, s.features, prev + p * s.l1, rem, s.n_removed, rem + s.n_removed, s.n_added, out + p * s.l1);
        }
      });
    });
  for (const ft_update::Variant* v : selected_variants(ft_update::variants())) {
    if (v->info.available() && !ft_update::why_unsupported(*v, s).empty()) continue;
    register_variant_benchmark(v->info.name + suffix, &v->info, bytes, [v, s](benchmark::State& st) {
      ft_update::Args a;
      a.weights = weights_for(s.l1);
      // A placed copy (bench/placement.h) must write the original's accumulators for the
      // pool's first 16 calls, each from the same previous ones (random int16; in place,
      // the outputs are those).
      const auto run = placed_checked(v->run, v->info.name, [&](auto x, auto y) {
        const IdPool& pool = id_pool({s.n_removed, s.n_added}, s.perspectives, Rows::kGameBuckets);
        SameAccumulators out(s.l1);
        workloads::Buffer<std::int16_t> prev(2 * std::size_t(s.l1));
        workloads::Rng rng(11);
        for (int i = 0; i < 16; ++i) {
          out.reset();
          for (std::size_t k = 0; k < prev.size(); ++k) prev[k] = std::int16_t(rng.uniform(-2000, 2000));
          if (s.in_place) {
            std::memcpy(out.a(0), prev.data(), prev.bytes());
            std::memcpy(out.b(0), prev.data(), prev.bytes());
          }
          ft_update::Args b = a;
          point_update_args(a, s, pool.call(i), s.in_place ? out.a(0) : prev.data(), out.a(0));
          point_update_args(b, s, pool.call(i), s.in_place ? out.b(0) : prev.data(), out.b(0));
          x(s, a);
          y(s, b);
          if (!out.same()) return false;
        }
        return true;
      });
      time_update(st, s, [&](const std::uint32_t* ids, std::int16_t* prev, std::int16_t* out) {
        point_update_args(a, s, ids, prev, out);
        run(s, a);  // unchecked: the pool's ids are valid by construction
      });
    });
  }
}

// floor/scalar/empty_update and floor/scalar/checked_update (register_checked_floors):
// time_update's loop around the scalar baseline's entry with an empty kernel; checked
// through ft_update::run (shape, pointers, every id < features, overlaps).
void register_update_floors(const ft_update::Shape& s) {
  const std::size_t bytes = std::size_t(s.l1) * 2 * s.perspectives;
  register_checked_floors("update", ft_update::shape_name(s), bytes, [s](benchmark::State& st, bool checked) {
    const ft_update::Variant v = with_empty_kernel(ft_update::variants().front());
    ft_update::Args a;
    a.weights = weights_for(s.l1);
    time_update(st, s, [&](const std::uint32_t* ids, std::int16_t* prev, std::int16_t* out) {
      point_update_args(a, s, ids, prev, out);
      if (checked) ft_update::run(v, s, a);
      else v.run(s, a);
    });
    st.counters.erase("adds");  // nothing is added
  });
}

}  // namespace

void register_ft() {
  const bool full = grid() == Grid::kFull;
  // Refresh: 30 active features (a middlegame position) at the widths of real nets.
  const std::vector<int> widths = full ? std::vector<int>{128, 256, 512, 768, 1024, 1536, 2048, 3072}
                                       : std::vector<int>{256, 1024, 3072};
  for (int l1 : widths) register_refresh({l1, kFeatures, 30, 1});
  // The same with L2-hot rows: what register tiling saves when memory is not the limit.
  register_refresh({1024, kFeatures, 30, 1}, Rows::kHot);
  if (full) {
    for (int l1 : widths) register_refresh({l1, kFeatures, 30, 2});
    for (int l1 : widths)
      if (l1 != 1024) register_refresh({l1, kFeatures, 30, 1}, Rows::kHot);
    for (int active : {1, 7, 32}) register_refresh({1024, kFeatures, active, 1});
  }
  // Update: quiet move, capture, castling (+added-removed), copy-then-update form.
  const std::vector<std::pair<int, int>> counts = {{1, 1}, {1, 2}, {2, 2}};
  for (auto [add, rem] : counts) register_update({1024, kFeatures, rem, add, 1, false});
  register_update_floors({1024, kFeatures, 1, 1, 1, false});
  if (full) {
    for (int l1 : widths)
      for (auto [add, rem] : counts)
        for (bool in_place : {false, true})
          if (l1 != 1024 || in_place) register_update({l1, kFeatures, rem, add, 1, in_place});
    for (auto [add, rem] : counts) register_update({1024, kFeatures, rem, add, 2, false});
    register_update({1024, kFeatures, 6, 6, 1, false});  // two grouped passes of +3-3
  }
  // General counts (no fused form): +3-3, three quiet moves applied at once, as an update
  // from an ancestor entry does; naive, tiled and grouped only.
  register_update({1024, kFeatures, 3, 3, 1, false});
}

}  // namespace nnuelab::bench
