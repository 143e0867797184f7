#include "reference/find_nnz.h"

#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

// Index 65535 is the largest a uint16 can hold, hence at most 65536 entries.
constexpr int kMaxEntries = 65536;

[[noreturn]] void fail(const char* op, const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void check_io(const char* op, const uint8_t* in, int n, const uint16_t* out) {
    if (n > 0 && in == nullptr) fail(op, "in is null");
    if (n > 0 && out == nullptr) fail(op, "out is null");
}

}  // namespace

int find_nnz_bytes(const uint8_t* in, int n, uint16_t* out) {
    const char* op = "find_nnz_bytes";
    if (n < 0 || n > kMaxEntries)
        fail(op, "n = " + std::to_string(n) + " is outside 0..65536");
    check_io(op, in, n, out);

    int count = 0;
    for (int i = 0; i < n; ++i) {
        if (in[i] != 0) out[count++] = static_cast<uint16_t>(i);
    }
    return count;
}

int find_nnz_chunks(const uint8_t* in, int n_bytes, uint16_t* out) {
    const char* op = "find_nnz_chunks";
    if (n_bytes < 0 || n_bytes > 4 * kMaxEntries)
        fail(op, "n_bytes = " + std::to_string(n_bytes) + " is outside 0..262144");
    if (n_bytes % 4 != 0)
        fail(op, "n_bytes = " + std::to_string(n_bytes) + " is not a multiple of 4");
    check_io(op, in, n_bytes, out);

    int count = 0;
    for (int c = 0; c < n_bytes / 4; ++c) {
        const uint8_t* b = in + 4 * c;
        // Byte tests, not a uint32 load: the answer must not depend on
        // endianness or alignment.
        if ((b[0] | b[1] | b[2] | b[3]) != 0) out[count++] = static_cast<uint16_t>(c);
    }
    return count;
}

void nnz_chunk_bitset(const uint8_t* in, int n_bytes, uint64_t* bits) {
    const char* op = "nnz_chunk_bitset";
    if (n_bytes < 0 || n_bytes > 4 * kMaxEntries)
        fail(op, "n_bytes = " + std::to_string(n_bytes) + " is outside 0..262144");
    const int chunks = (n_bytes + 3) / 4;
    if (chunks > 0 && (!in || !bits)) fail(op, "null pointer with n_bytes > 0");
    for (int w = 0; w < (chunks + 63) / 64; ++w) bits[w] = 0;
    for (int c = 0; c < chunks; ++c) {
        uint8_t any = 0;
        for (int i = 4 * c; i < 4 * c + 4 && i < n_bytes; ++i) any |= in[i];
        if (any) bits[c / 64] |= uint64_t(1) << (c % 64);
    }
}

}  // namespace nnuelab::ref
