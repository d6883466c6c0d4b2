/*
 * cbcmac.c - raw CBC-MAC chaining (the building block of CCM and of the
 * kernel-style cbcmac): state = E(state ^ B) for every 16-byte block B.
 * Portable C11; no CPU features needed.
 */
#include "batch.h"

/* The checks of aeskit_cbcmac_blocks (also the batch's, batch_mac.c). */
aeskit_status ak_mo_cbcmac_checks(const aeskit_aes_key *k, const uint8_t *state,
                                  const uint8_t *in, size_t len)
{
    if (!k || !state || (!in && len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (len % 16)
        return AESKIT_ERR_LENGTH;
    if (mo_any_overlap(state, 16, in, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_cbcmac_blocks(const aeskit_aes_key *k, uint8_t state[16], const uint8_t *in,
                                   size_t len)
{
    aeskit_status rc = ak_mo_cbcmac_checks(k, state, in, len);
    if (rc != AESKIT_OK)
        return rc;
    const ak_aes *a = (const ak_aes *)k;
    if (len) {
        /* A private copy: the backend may store the state before it has read
         * every input block. */
        uint8_t st[16];
        memcpy(st, state, 16);
        a->be->cbcmac(a, st, in, len / 16);
        memcpy(state, st, 16);
        mo_wipe(st, sizeof st);
    }
    return AESKIT_OK;
}
