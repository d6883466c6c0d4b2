/*
 * generic.h - private declarations shared by the files of src/generic/.
 */
#ifndef AK_GENERIC_H
#define AK_GENERIC_H

#include "../internal.h"

/* Layout of ak_aes.data for the generic backend. */
#define AK_GEN_RK_OFF 0        /* FIPS-197 encryption schedule, 240 bytes */
#define AK_GEN_VARIANT_OFF 240 /* uint32_t: which vector width serves this key */

/* One vector width of the bitsliced AES (aes_generic_core.h). */
typedef struct ak_gen_aes_impl {
    const char *name;
    void (*ecb_encrypt)(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks);
    void (*ecb_decrypt)(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks);
} ak_gen_aes_impl;

extern const ak_gen_aes_impl ak_gen_aes_w16;

#endif
