/*
 * ecb.c - ECB (SP 800-38A 6.1) over whole blocks.
 * Portable C11; no CPU features needed.
 */
#include "modes.h"

static aeskit_status ecb_checks(const aeskit_aes_key *k, const uint8_t *out,
                                const uint8_t *in, size_t len)
{
    if (!k || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (len % 16)
        return AESKIT_ERR_LENGTH;
    if (mo_bad_overlap(out, len, in, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_ecb_encrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                 size_t len)
{
    aeskit_status st = ecb_checks(k, out, in, len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    if (len)
        a->be->ecb_encrypt(a, out, in, len / 16);
    return AESKIT_OK;
}

aeskit_status aeskit_ecb_decrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                 size_t len)
{
    aeskit_status st = ecb_checks(k, out, in, len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    if (len)
        a->be->ecb_decrypt(a, out, in, len / 16);
    return AESKIT_OK;
}
