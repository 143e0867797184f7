#include "bench/register.h"
namespace nnuelab::bench {
void register_find_nnz() {}  // placeholder until the find_nnz variants land
}
