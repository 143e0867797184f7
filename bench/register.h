// One registration function per op family; main() calls them all. A new op adds one here.
#pragma once

namespace nnuelab::bench {
void register_affine();
void register_activations();
}  // namespace nnuelab::bench
