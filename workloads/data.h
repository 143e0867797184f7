// Real data from ../shared/data (Stockfish nets, positions, recorded traces).
#pragma once
#include <optional>
#include <string>

#include "workloads/synthetic.h"

namespace nnuelab::workloads {

// The data folder: $NNUELAB_DATA if set, else <source tree>/../shared/data; nullopt (with
// the reason in *why) when it does not exist. Tests that need it skip with that reason.
std::optional<std::string> data_dir(std::string* why = nullptr);

// The first-affine-layer inputs recorded for a net: <data>/traces/<net>.u8, raw rows of
// `width` bytes (one per position of positions.epd), replayed in file order.
// Throws std::runtime_error naming the file when it is missing or not a whole number of rows.
InputPool load_trace_pool(const std::string& net, int width);

}  // namespace nnuelab::workloads
