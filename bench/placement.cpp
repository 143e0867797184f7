// The copies behind NNUELAB_PLACE (placement.h).
#include "bench/placement.h"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace nnuelab::bench {
namespace {

constexpr int kLine = 64;

// One function to copy: where the link put it, its bytes' hash and its outward fields.
struct Piece {
  std::uintptr_t address = 0;  // link address, as nm and objdump print it
  std::size_t size = 0;
  std::uint64_t hash = 0;
  std::vector<std::size_t> fields;
  // A switch's jump table: the lea's field that loads its address, where it is, and its
  // entries (int32, each a target's distance from the table).
  struct Table {
    std::size_t field = 0;
    std::uintptr_t address = 0;
    std::size_t entries = 0;
  };
  std::vector<Table> tables;
  // Bytes written over the copy once it is made (tests: a copy made wrong on purpose).
  struct Patch {
    std::size_t offset = 0;
    std::vector<unsigned char> bytes;
  };
  std::vector<Patch> patches;
};

struct Spec {
  Piece kernel;
  std::size_t offset = 0;  // where the copy starts in its page
  std::optional<Piece> entry;  // the function the benchmark calls, when it tail-jumps to the kernel
  std::size_t tail = 0;        // the entry's field of that jump
};

[[noreturn]] void bad(const std::string& why) { throw std::runtime_error("NNUELAB_PLACE: " + why); }

constexpr const char* kForm =
    " (\"<address> <size> <offset> <hash> [<field>...]\", then optionally \"; <entry address> <size> <hash> "
    "<tail field> [<field>...]\")";

std::uint64_t read_number(std::istringstream& in, const char* what, int base) {
  std::string token;
  if (!(in >> token)) bad(std::string("missing its ") + what + kForm);
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(token.c_str(), &end, base);
  if (errno || end == token.c_str() || *end || token[0] == '-') bad(std::string("bad ") + what + " '" + token + "'");
  return v;
}

void read_fields(std::istringstream& in, Piece& p, const char* what) {
  std::string token;
  while (in >> token) {
    if (token[0] == 't') {  // t<field>:<table address, hex>:<entries>
      std::replace(token.begin(), token.end(), ':', ' ');
      std::istringstream one(token.substr(1));
      Piece::Table t;
      t.field = read_number(one, "table's field", 10);
      t.address = read_number(one, "table's address", 16);
      t.entries = read_number(one, "table's entries", 10);
      if (t.entries == 0 || t.entries > 4096) bad("a jump table of " + std::to_string(t.entries) + " entries");
      p.tables.push_back(t);
      p.fields.push_back(t.field);  // checked with the fields; re-aimed at the table's copy
      continue;
    }
    if (token[0] == 'p') {  // p<offset>:<bytes, hex>
      const std::size_t colon = token.find(':');
      std::istringstream one(token.substr(1, colon == std::string::npos ? std::string::npos : colon - 1));
      Piece::Patch patch;
      patch.offset = read_number(one, "patch's offset", 10);
      const std::string hex = colon == std::string::npos ? "" : token.substr(colon + 1);
      if (hex.empty() || hex.size() % 2 || hex.size() > 32 ||
          hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        bad("patch '" + token + "': not p<offset>:<1 to 16 bytes in hex>");
      for (std::size_t i = 0; i < hex.size(); i += 2)
        patch.bytes.push_back(static_cast<unsigned char>(std::stoul(hex.substr(i, 2), nullptr, 16)));
      if (patch.offset + patch.bytes.size() > p.size)
        bad("patch '" + token + "' is not inside the " + what);
      p.patches.push_back(std::move(patch));
      continue;
    }
    std::istringstream one(token);
    p.fields.push_back(read_number(one, "field", 10));
  }
  std::sort(p.fields.begin(), p.fields.end());
  for (std::size_t i = 0; i < p.fields.size(); ++i) {
    if (p.fields[i] + 4 > p.size)
      bad("field " + std::to_string(p.fields[i]) + " is not 4 bytes inside the " + what);
    if (i && p.fields[i] < p.fields[i - 1] + 4)
      bad("fields " + std::to_string(p.fields[i - 1]) + " and " + std::to_string(p.fields[i]) + " overlap");
  }
  for (const Piece::Patch& patch : p.patches)
    for (const std::size_t f : p.fields)
      if (patch.offset < f + 4 && f < patch.offset + patch.bytes.size())
        bad("the patch at " + std::to_string(patch.offset) + " overlaps field " + std::to_string(f));
}

std::size_t read_size(std::istringstream& in) {
  const std::uint64_t size = read_number(in, "size", 10);
  if (size == 0 || size > (1u << 20)) bad("size " + std::to_string(size) + " is not in 1..1048576 bytes");
  return size;
}

std::optional<Spec> parse() {
  const char* env = std::getenv("NNUELAB_PLACE");
  if (!env || !*env) return std::nullopt;
  const std::string text = env;
  const std::size_t semi = text.find(';');
  std::istringstream in(text.substr(0, semi));
  Spec s;
  s.kernel.address = read_number(in, "address", 16);
  s.kernel.size = read_size(in);
  s.offset = read_number(in, "offset", 10);
  if (s.offset >= std::size_t(sysconf(_SC_PAGESIZE)))
    bad("offset " + std::to_string(s.offset) + " is not in 0.." + std::to_string(sysconf(_SC_PAGESIZE) - 1) +
        " (a byte of a page)");
  s.kernel.hash = read_number(in, "hash", 16);
  read_fields(in, s.kernel, "function");
  if (semi != std::string::npos) {
    std::istringstream rest(text.substr(semi + 1));
    Piece e;
    e.address = read_number(rest, "entry address", 16);
    e.size = read_size(rest);
    e.hash = read_number(rest, "entry hash", 16);
    s.tail = read_number(rest, "tail field", 10);
    read_fields(rest, e, "entry");
    if (!e.tables.empty()) bad("an entry with a jump table");
    if (std::find(e.fields.begin(), e.fields.end(), s.tail) == e.fields.end())
      bad("the tail field " + std::to_string(s.tail) + " is not one of the entry's fields");
    s.entry = std::move(e);
  }
  return s;
}

const std::optional<Spec>& spec() {
  static const std::optional<Spec> s = parse();
  return s;
}

// Where the program was loaded relative to its link addresses (a PIE's base).
std::uintptr_t load_bias() {
  std::uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
        return 1;  // the first object is the program itself
      },
      &bias);
  return bias;
}

const unsigned char* loaded(std::uintptr_t link_address) {
  return reinterpret_cast<const unsigned char*>(load_bias() + link_address);
}

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Pages within 1 GiB of `near` (so that every re-aimed 32-bit displacement still reaches
// its target, which lies within 2 GiB of the original), or null.
unsigned char* map_near(std::uintptr_t near, std::size_t bytes) {
  const long page = sysconf(_SC_PAGESIZE);
  const std::uintptr_t base = near & ~std::uintptr_t(page - 1);
  for (std::intptr_t k = 1; k <= 64; ++k)
    for (const std::intptr_t sign : {1, -1}) {
      const std::uintptr_t hint = base + std::uintptr_t(sign * k * (std::intptr_t(1) << 24));  // 16 MiB steps
      void* p = mmap(reinterpret_cast<void*>(hint), bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (p == MAP_FAILED) continue;
      if (reinterpret_cast<std::uintptr_t>(p) == hint) return static_cast<unsigned char*>(p);
      munmap(p, bytes);  // a kernel before 4.17 takes the flag as a hint only
    }
  return nullptr;
}

std::int64_t distance(const void* from, const void* to) {
  return std::int64_t(reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from));
}

// Copies p's bytes from `from` to `to`, each field re-aimed at its old target.
void copy_piece(const Piece& p, const unsigned char* from, unsigned char* to, const char* what) {
  if (fnv1a(from, p.size) != p.hash)
    bad(std::string("the ") + std::to_string(p.size) + " bytes at the " + what + "'s address are not the ones "
        "described (hash): a different build of nnuelab_bench than the one tools/placement.py read?");
  std::memcpy(to, from, p.size);
  // A displacement is relative to the end of its instruction, which moves with the copy by
  // (to - from): subtracting that keeps the target.
  const std::int64_t moved = distance(from, to);
  for (const std::size_t f : p.fields) {
    std::int32_t d;
    std::memcpy(&d, to + f, 4);
    const std::int64_t aimed = std::int64_t(d) - moved;
    if (aimed < std::numeric_limits<std::int32_t>::min() || aimed > std::numeric_limits<std::int32_t>::max())
      bad(std::string("field ") + std::to_string(f) + " of the " + what + " cannot reach its target from the copy");
    d = std::int32_t(aimed);
    std::memcpy(to + f, &d, 4);
  }
  for (const Piece::Patch& patch : p.patches) std::memcpy(to + patch.offset, patch.bytes.data(), patch.bytes.size());
}

struct Copy {
  const void* called = nullptr;  // what the benchmark calls: the entry's copy, else the kernel's
  std::string summary;
};

Copy make_copy(const Spec& s) {
  const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  const unsigned char* kernel = loaded(s.kernel.address);
  std::size_t table_bytes = 0;
  for (const Piece::Table& t : s.kernel.tables) table_bytes += 4 * t.entries;
  // The kernel's pages, then its jump tables', then the entry's. map_near's pages are a
  // multiple of 16 MiB from the kernel's, so the copy's address differs from the
  // original's in bits 0-11 only by the offset asked for, and not at all in bits 12-23:
  // what indexes caches and predictors by the low bits sees the line asked for.
  const std::size_t entry_offset = s.entry ? (s.entry->address + load_bias()) % page : 0;
  const std::size_t kernel_pages = (s.offset + s.kernel.size + page - 1) / page * page;
  const std::size_t table_pages = (table_bytes + page - 1) / page * page;
  const std::size_t bytes =
      kernel_pages + table_pages + (s.entry ? (entry_offset + s.entry->size + page - 1) / page * page : 0);
  unsigned char* mem = map_near(reinterpret_cast<std::uintptr_t>(kernel), bytes);
  if (!mem) bad("no free pages within 1 GiB of the function for its copy");
  unsigned char* to = mem + s.offset;
  copy_piece(s.kernel, kernel, to, "function");
  // Each jump table is copied with its entries measured from the copy (they led into the
  // original), and the lea that loads it aimed at the copy.
  unsigned char* table_to = mem + kernel_pages;
  for (const Piece::Table& t : s.kernel.tables) {
    const unsigned char* table = loaded(t.address);
    std::int32_t d;
    std::memcpy(&d, kernel + t.field, 4);
    if (distance(kernel + t.field + 4, table) != d) bad("a table's field does not load the table's address");
    for (std::size_t i = 0; i < t.entries; ++i) {
      std::int32_t e;
      std::memcpy(&e, table + 4 * i, 4);
      const std::int64_t offset = distance(kernel, table + e);  // the target in the function
      if (offset < 0 || offset >= std::int64_t(s.kernel.size)) bad("a jump table's entry leads out of the function");
      e = std::int32_t(distance(table_to, to + offset));
      std::memcpy(table_to + 4 * i, &e, 4);
    }
    d = std::int32_t(distance(to + t.field + 4, table_to));
    std::memcpy(to + t.field, &d, 4);
    table_to += 4 * t.entries;
  }
  const void* called = to;
  if (s.entry) {
    // The entry goes to the pages after the kernel's, at its own offset in a page, its tail
    // jump aimed at the kernel's copy: it was aimed at the kernel itself, or the
    // description is wrong.
    const unsigned char* entry = loaded(s.entry->address);
    unsigned char* entry_to = mem + kernel_pages + table_pages + entry_offset;
    std::int32_t d;
    std::memcpy(&d, entry + s.tail, 4);
    if (distance(entry + s.tail + 4, kernel) != d) bad("the entry's tail field does not jump to the function");
    copy_piece(*s.entry, entry, entry_to, "entry");
    d = std::int32_t(distance(entry_to + s.tail + 4, to));  // both in one mapping: fits
    std::memcpy(entry_to + s.tail, &d, 4);
    called = entry_to;
  }
  if (mprotect(mem, bytes, PROT_READ | PROT_EXEC) != 0) bad(std::string("mprotect: ") + std::strerror(errno));
  std::size_t patched = 0;
  for (const Piece::Patch& patch : s.kernel.patches) patched += patch.bytes.size();
  if (s.entry)
    for (const Piece::Patch& patch : s.entry->patches) patched += patch.bytes.size();
  char text[240];
  std::snprintf(text, sizeof text, "%#llx (byte %d of line %d of its page; the original at %#llx, byte %d of line %d)%s",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(to)), int(s.offset % kLine),
                int(s.offset / kLine),
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(kernel)),
                int(reinterpret_cast<std::uintptr_t>(kernel) % kLine),
                int(reinterpret_cast<std::uintptr_t>(kernel) % page / kLine), s.entry ? ", through its entry's copy" : "");
  if (patched) std::snprintf(text + std::strlen(text), sizeof text - std::strlen(text), ", %zu bytes patched", patched);
  return {called, text};
}

std::mutex g_mutex;
std::optional<Copy> g_copy;

}  // namespace

void check_placement() {
#if !defined(__x86_64__)
  // The fields tools/placement.py finds are x86-64 encodings (rel32 displacements).
  if (std::getenv("NNUELAB_PLACE") && *std::getenv("NNUELAB_PLACE")) bad("copies are made on x86-64 only");
#endif
  (void)spec();
}

const void* placed_code(const void* function) {
  const auto& s = spec();
  if (!s || function != loaded(s->entry ? s->entry->address : s->kernel.address)) return function;
  std::lock_guard lock(g_mutex);
  if (!g_copy) {
    g_copy = make_copy(*s);
    std::fprintf(stderr, "nnuelab_place: copied to %s\n", g_copy->summary.c_str());
  }
  return g_copy->called;
}

}  // namespace nnuelab::bench
