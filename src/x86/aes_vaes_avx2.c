/*
 * Placeholder descriptor for the x86-vaes-avx2 backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_x86_vaes_avx2 = {
    .name = "x86-vaes-avx2",
    .requires = "AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ",
    .priority = 40,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41 | AK_CPU_AVX | AK_CPU_AVX2 | AK_CPU_VAES | AK_CPU_VPCLMUL,
    .constant_time = 1,
};
