// The find_nnz registry: every variant of kernels/find_nnz/find_nnz.inc, plus checked entry points.
#pragma once
#include <span>
#include <string>

#include "kernels/common/variant.h"
#include "kernels/find_nnz/find_nnz.h"

namespace nnuelab::find_nnz {

struct Variant {
  VariantInfo info;
  const char* (*supports)(const Shape&);
  int (*run)(const Shape&, const std::uint8_t*, std::uint16_t*);
};

std::span<const Variant> variants();
std::string shape_name(const Shape& s);  // "1024/bytes", "1024/chunks"
// Empty when supported (op limits: n 1..65536, chunks form needs n % 4 == 0), else why not.
std::string why_unsupported(const Variant& v, const Shape& s);
// Validates (std::invalid_argument with the reason), then runs; returns the count.
int run(const Variant& v, const Shape& s, const std::uint8_t* input, std::uint16_t* indices);
// Runs the forced or best available native variant; reports which one ran.
int run_active(const Shape& s, const std::uint8_t* input, std::uint16_t* indices, const Variant** ran = nullptr);

}  // namespace nnuelab::find_nnz
