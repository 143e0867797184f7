#include "reference/ft.h"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace nnuelab::ref {
namespace {

[[noreturn]] void fail(const char* op, const std::string& what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void check_count(const char* op, const char* name, int n) {
    if (n < 0) fail(op, std::string(name) + " is negative (" + std::to_string(n) + ")");
}

void check_ptr(const char* op, const char* name, const void* p, int n) {
    if (p == nullptr && n > 0) fail(op, std::string(name) + " is null");
}

void check_ids(const char* op, const char* name, const uint32_t* ids, int n, int num_features) {
    for (int k = 0; k < n; ++k) {
        if (ids[k] >= static_cast<uint32_t>(num_features)) {
            fail(op, std::string(name) + "[" + std::to_string(k) + "] = " +
                         std::to_string(ids[k]) + " >= num_features " +
                         std::to_string(num_features));
        }
    }
}

// The sum is formed in int32 (no overflow for two int16 terms) and converted
// back; since C++20 that conversion is defined as reduction mod 2^16, which is
// precisely paddw/psubw.
int16_t wrap_add(int16_t a, int16_t b) { return static_cast<int16_t>(int32_t{a} + int32_t{b}); }
int16_t wrap_sub(int16_t a, int16_t b) { return static_cast<int16_t>(int32_t{a} - int32_t{b}); }

const int16_t* row(const int16_t* weights, int l1, uint32_t f) {
    return weights + static_cast<size_t>(f) * static_cast<size_t>(l1);
}

}  // namespace

void ft_refresh(const int16_t* bias, const int16_t* weights, int l1, int num_features,
                const uint32_t* active, int n_active, int16_t* acc) {
    const char* op = "ft_refresh";
    check_count(op, "l1", l1);
    check_count(op, "num_features", num_features);
    check_count(op, "n_active", n_active);
    check_ptr(op, "bias", bias, l1);
    check_ptr(op, "acc", acc, l1);
    check_ptr(op, "active", active, n_active);
    check_ids(op, "active", active, n_active, num_features);
    // Any id passed the check only if num_features > 0, so rows are read only then.
    check_ptr(op, "weights", weights, n_active > 0 ? l1 : 0);

    for (int i = 0; i < l1; ++i) acc[i] = bias[i];
    for (int k = 0; k < n_active; ++k) {
        const int16_t* r = row(weights, l1, active[k]);
        for (int i = 0; i < l1; ++i) acc[i] = wrap_add(acc[i], r[i]);
    }
}

void ft_update(const int16_t* weights, int l1, int num_features, const int16_t* prev,
               const uint32_t* removed, int n_removed, const uint32_t* added, int n_added,
               int16_t* out) {
    const char* op = "ft_update";
    check_count(op, "l1", l1);
    check_count(op, "num_features", num_features);
    check_count(op, "n_removed", n_removed);
    check_count(op, "n_added", n_added);
    check_ptr(op, "prev", prev, l1);
    check_ptr(op, "out", out, l1);
    check_ptr(op, "removed", removed, n_removed);
    check_ptr(op, "added", added, n_added);
    check_ids(op, "removed", removed, n_removed, num_features);
    check_ids(op, "added", added, n_added, num_features);
    check_ptr(op, "weights", weights, (n_removed > 0 || n_added > 0) ? l1 : 0);

    // Copy first, then work only on out: this is what makes out == prev safe.
    if (out != prev) {
        for (int i = 0; i < l1; ++i) out[i] = prev[i];
    }
    for (int k = 0; k < n_removed; ++k) {
        const int16_t* r = row(weights, l1, removed[k]);
        for (int i = 0; i < l1; ++i) out[i] = wrap_sub(out[i], r[i]);
    }
    for (int k = 0; k < n_added; ++k) {
        const int16_t* r = row(weights, l1, added[k]);
        for (int i = 0; i < l1; ++i) out[i] = wrap_add(out[i], r[i]);
    }
}

}  // namespace nnuelab::ref
