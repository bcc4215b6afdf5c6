/* unit_lower_avx2.c — unit_lower.c compiled with -mavx2 -mfma
 * (CMakeLists.txt), for the AVX2 kernel's panels of 6 lanes. */
#define UNIT_LOWER_SUFFIX avx2
#include "unit_lower.c" /* NOLINT(bugprone-suspicious-include): one source, two builds */
