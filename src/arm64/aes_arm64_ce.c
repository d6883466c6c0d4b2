/*
 * Placeholder descriptor for the arm64-ce backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_arm64_ce = {
    .name = "arm64-ce",
    .requires = "ARMv8 AES, PMULL",
    .priority = 30,
    .required_features = AK_CPU_ARM_AES | AK_CPU_ARM_PMULL,
    .constant_time = 1,
};
