// find_nnz over xsimd::batch, compiled once per xsimd arch and once as the xsimd::dispatch
// front end (kernels/common/xsimd_arch.h). xsimd 8.1 has no bitmask (movemask): see
// xops::list_nonzero.
#include "kernels/common/xsimd_arch.h"
#include "kernels/find_nnz/find_nnz.h"

#if NNUELAB_XSIMD_DISPATCH
#include "kernels/common/xsimd_dispatch.h"
NNUELAB_XSIMD_DECLARE(find_nnz, NNUELAB_FIND_NNZ_KERNEL(any_scan))
namespace nnuelab::xsimd::find_nnz {
using namespace ::nnuelab::find_nnz;
const char* any_scan_supports(const Shape& s) { return NNUELAB_XSIMD_CALL(find_nnz, any_scan_supports, s); }
int any_scan_run(const Shape& s, const std::uint8_t* in, std::uint16_t* idx) {
  return NNUELAB_XSIMD_CALL(find_nnz, any_scan_run, s, in, idx);
}
}  // namespace nnuelab::xsimd::find_nnz
#else
#include "kernels/common/xsimd_ops.h"
namespace nnuelab::NNUELAB_ISA_NS::find_nnz {
using namespace ::nnuelab::find_nnz;
NNUELAB_FIND_NNZ_KERNEL(any_scan)

const char* any_scan_supports(const Shape& s) {
  return s.form == Form::kBytes ? xops::need_multiple(s.n, B<std::uint8_t>::size)
                                : xops::need_multiple(s.n / 4, B<std::uint32_t>::size);
}

// The chunks form reads 4-byte chunks as uint32 lanes: a chunk is non-zero iff its lane is.
int any_scan_run(const Shape& s, const std::uint8_t* in, std::uint16_t* idx) {
  if (s.form == Form::kBytes) return xops::list_nonzero(in, s.n, idx);
  return xops::list_nonzero(reinterpret_cast<const std::uint32_t*>(in), s.n / 4, idx);
}

}  // namespace nnuelab::NNUELAB_ISA_NS::find_nnz
#endif
