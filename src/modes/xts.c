/*
 * xts.c - XTS-AES (IEEE 1619-2018, NIST SP 800-38E) with ciphertext
 * stealing.  Portable C11; no CPU features needed.
 *
 * T = E_K2(tweak); block j is C_j = E_K1(P_j ^ T*a^j) ^ T*a^j, the tweak
 * doubling being the backend's (xts_encrypt/xts_decrypt on whole blocks
 * advance T).  For a data unit of m full blocks and r (1..15) more bytes,
 * IEEE 1619 5.3.2 steals: CC = E_{T_{m-1}}(P_{m-1}); C_m = the first r bytes
 * of CC; C_{m-1} = E_{T_m}(P_m || the last 16-r bytes of CC).  Decryption
 * (5.4.2) therefore undoes block m-1 with T_m first and block m with
 * T_{m-1}: the last two tweaks in swapped order.
 */
#include "modes.h"

static inline aeskit_status xts_checks(const aeskit_xts_key *xk, const uint8_t *out,
                                       const uint8_t *in, size_t len, const uint8_t *tweak)
{
    if (!xk || !tweak || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    const ak_xts_key *x = (const ak_xts_key *)xk;
    if (!ak_mo_ready(&x->data_key, AK_MAGIC_XTS) || !ak_mo_ready(&x->tweak_key, AK_MAGIC_XTS))
        return AESKIT_ERR_STATE;
    if (len < 16)
        return AESKIT_ERR_LENGTH;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tweak, 16, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_xts_encrypt(const aeskit_xts_key *xk, uint8_t *out, const uint8_t *in,
                                 size_t len, const uint8_t tweak[16])
{
    aeskit_status st = xts_checks(xk, out, in, len, tweak);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_xts_key *x = (const ak_xts_key *)xk;
    const ak_aes *k1 = &x->data_key, *k2 = &x->tweak_key;
    uint8_t T[16];
    k2->be->ecb_encrypt(k2, T, tweak, 1);

    size_t m = len / 16, r = len % 16;
    if (!r) {
        k1->be->xts_encrypt(k1, out, in, m, T);
        mo_wipe(T, sizeof T);
        return AESKIT_OK;
    }
    /* The m full blocks in one call (CC = E_{T_{m-1}}(P_{m-1}) lands at
     * out + (m-1)*16; T becomes T_m), then the stolen block alone: it
     * waits for CC. */
    uint8_t pp[16];
    uint8_t *cc = out + (m - 1) * 16;
    memcpy(pp, in + m * 16, r); /* P_m, read before out is written */
    k1->be->xts_encrypt(k1, out, in, m, T);
    memcpy(pp + r, cc + r, 16 - r);
    memcpy(out + m * 16, cc, r);
    k1->be->xts_encrypt(k1, cc, pp, 1, T);
    mo_wipe(T, sizeof T);
    mo_wipe(pp, sizeof pp);
    return AESKIT_OK;
}

aeskit_status aeskit_xts_decrypt(const aeskit_xts_key *xk, uint8_t *out, const uint8_t *in,
                                 size_t len, const uint8_t tweak[16])
{
    aeskit_status st = xts_checks(xk, out, in, len, tweak);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_xts_key *x = (const ak_xts_key *)xk;
    const ak_aes *k1 = &x->data_key, *k2 = &x->tweak_key;
    uint8_t T[16];
    k2->be->ecb_encrypt(k2, T, tweak, 1);

    size_t m = len / 16, r = len % 16;
    if (!r) {
        k1->be->xts_decrypt(k1, out, in, m, T);
        mo_wipe(T, sizeof T);
        return AESKIT_OK;
    }
    uint8_t Tm[16], pp[16], cc[16];
    if (m > 1)
        k1->be->xts_decrypt(k1, out, in, m - 1, T); /* T is now T_{m-1} */
    memcpy(Tm, T, 16);
    ak_xts_double(Tm);
    memcpy(cc, in + m * 16, r); /* C_m, read before out is written there */
    k1->be->xts_decrypt(k1, pp, in + (m - 1) * 16, 1, Tm);
    memcpy(cc + r, pp + r, 16 - r);
    memcpy(out + m * 16, pp, r);
    k1->be->xts_decrypt(k1, out + (m - 1) * 16, cc, 1, T);
    mo_wipe(T, sizeof T);
    mo_wipe(Tm, sizeof Tm);
    mo_wipe(pp, sizeof pp);
    mo_wipe(cc, sizeof cc);
    return AESKIT_OK;
}
