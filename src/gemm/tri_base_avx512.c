/* tri_base_avx512.c — tri_base.c compiled with -mavx512f -mfma (CMakeLists.txt):
 * one zmm per vector of eight lanes. Chosen at run time with the GEMM kernel. */
#define TRI_BASE_SUFFIX avx512
#include "tri_base.c" /* NOLINT(bugprone-suspicious-include): one source, two builds */
