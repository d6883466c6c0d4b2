/*
 * Placeholder descriptor for the x86-vaes-avx512 backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_x86_vaes_avx512 = {
    .name = "x86-vaes-avx512",
    .requires = "AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ, AVX-512 F/BW/VL",
    .priority = 50,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41 | AK_CPU_AVX | AK_CPU_AVX2 | AK_CPU_VAES | AK_CPU_VPCLMUL | AK_CPU_AVX512F | AK_CPU_AVX512BW | AK_CPU_AVX512VL,
    .constant_time = 1,
};
