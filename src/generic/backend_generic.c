/*
 * Placeholder descriptor for the generic backend: listed by `aeskit list`, never
 * chosen, until its primitives are written (ecb_encrypt == NULL marks it).
 */
#include "../internal.h"

const ak_backend ak_backend_generic = {
    .name = "generic",
    .requires = "nothing (portable C11)",
    .priority = 0,
    .required_features = 0,
    .constant_time = 1,
};
