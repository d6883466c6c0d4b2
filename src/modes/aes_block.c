/*
 * aes_block.c - single-block AES (FIPS-197) through the key's backend.
 * Portable C11; no CPU features needed.
 */
#include "modes.h"

static aeskit_status block_checks(const aeskit_aes_key *k, const uint8_t *out,
                                  const uint8_t *in)
{
    if (!k || !out || !in)
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (mo_bad_overlap(out, 16, in, 16))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_aes_encrypt_block(const aeskit_aes_key *k, uint8_t out[16],
                                       const uint8_t in[16])
{
    aeskit_status st = block_checks(k, out, in);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    a->be->ecb_encrypt(a, out, in, 1);
    return AESKIT_OK;
}

aeskit_status aeskit_aes_decrypt_block(const aeskit_aes_key *k, uint8_t out[16],
                                       const uint8_t in[16])
{
    aeskit_status st = block_checks(k, out, in);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    a->be->ecb_decrypt(a, out, in, 1);
    return AESKIT_OK;
}
