#include "bench/register.h"
namespace nnuelab::bench {
void register_dot_u8i8() {}  // placeholder until the dot_u8i8 variants land
}
