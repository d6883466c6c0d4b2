/*
 * Placeholder descriptor for the x86-aesni backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_x86_aesni = {
    .name = "x86-aesni",
    .requires = "AES-NI, PCLMULQDQ, SSE4.1",
    .priority = 30,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41,
    .constant_time = 1,
};
