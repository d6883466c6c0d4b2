/*
 * Placeholder descriptor for the ppc64-p8 backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_ppc64_p8 = {
    .name = "ppc64-p8",
    .requires = "POWER8 vector crypto (vcipher, vpmsumd)",
    .priority = 30,
    .required_features = AK_CPU_PPC_VCRYPTO,
    .constant_time = 1,
};
