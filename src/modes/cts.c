/*
 * cts.c - CBC with ciphertext stealing, the three variants CS1, CS2, CS3
 * of the SP 800-38A addendum ("Three Variants of Ciphertext Stealing for
 * CBC Mode", NIST, October 2010).  Portable C11; no CPU features needed.
 *
 * A message of len = 16 (m - 1) + d bytes (m >= 2, 1 <= d <= 16): the first
 * m - 1 blocks are plain CBC (the backend's cbc_encrypt / cbc_decrypt); the
 * last, partial block P*_m is zero-padded and chained,
 *     C_m = CIPH_K(C_{m-1} ^ (P*_m || 0^(128-8d))),
 * and only the first d bytes C*_{m-1} of C_{m-1} are kept.  Decryption
 * inverts it from the last two ciphertext pieces: D = CIPH^-1_K(C_m) =
 * C_{m-1} ^ (P*_m || 0), so C_{m-1} = C*_{m-1} || D[d..16) and
 * P*_m = D[0..d) ^ C*_{m-1}; then P_{m-1} = CIPH^-1_K(C_{m-1}) ^ C_{m-2}.
 * The variants differ only in where C*_{m-1} and C_m are stored.
 */
#include "modes.h"

/* 1 if the variant stores C_m before C*_{m-1} (CS3 always, CS2 when the
 * last block is partial). */
static int cts_swapped(aeskit_cts_variant v, size_t d)
{
    return v == AESKIT_CTS_CS3 || (v == AESKIT_CTS_CS2 && d != 16);
}

static aeskit_status cts_checks(const aeskit_aes_key *k, const uint8_t *out, const uint8_t *in,
                                size_t len, const uint8_t *iv, aeskit_cts_variant v)
{
    if (!k || !iv || !out || !in)
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (len < 16)
        return AESKIT_ERR_LENGTH;
    if (v != AESKIT_CTS_CS1 && v != AESKIT_CTS_CS2 && v != AESKIT_CTS_CS3)
        return AESKIT_ERR_ARGUMENT;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(iv, 16, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_cbc_cts_encrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                     size_t len, const uint8_t iv[16], aeskit_cts_variant variant)
{
    aeskit_status st = cts_checks(k, out, in, len, iv, variant);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    uint8_t chain[16], last[16], cm[16];
    memcpy(chain, iv, 16);
    if (len == 16) {
        a->be->cbc_encrypt(a, out, in, 1, chain);
        return AESKIT_OK;
    }
    size_t m = (len + 15) / 16, d = len - 16 * (m - 1);
    /* The tail is read before the head is written (in place). */
    memset(last, 0, 16);
    memcpy(last, in + 16 * (m - 1), d);
    a->be->cbc_encrypt(a, out, in, m - 1, chain); /* chain = C_{m-1} */
    a->be->cbc_encrypt(a, cm, last, 1, chain);     /* cm = C_m */
    uint8_t *tail = out + 16 * (m - 2);
    /* C_{m-1} is the last block written above: kept before it is moved. */
    uint8_t cprev[16];
    memcpy(cprev, tail, 16);
    if (cts_swapped(variant, d)) {
        memcpy(tail, cm, 16);
        memcpy(tail + 16, cprev, d);
    } else {
        memcpy(tail, cprev, d);
        memcpy(tail + d, cm, 16);
    }
    mo_wipe(last, sizeof last);
    mo_wipe(cprev, sizeof cprev);
    return AESKIT_OK;
}

aeskit_status aeskit_cbc_cts_decrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                     size_t len, const uint8_t iv[16], aeskit_cts_variant variant)
{
    aeskit_status st = cts_checks(k, out, in, len, iv, variant);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    uint8_t chain[16];
    memcpy(chain, iv, 16);
    if (len == 16) {
        a->be->cbc_decrypt(a, out, in, 1, chain);
        return AESKIT_OK;
    }
    size_t m = (len + 15) / 16, d = len - 16 * (m - 1);
    const uint8_t *tin = in + 16 * (m - 2);
    uint8_t cstar[16], cm[16], D[16], cprev[16];
    /* Both last pieces are read before anything is written (in place). */
    if (cts_swapped(variant, d)) {
        memcpy(cm, tin, 16);
        memcpy(cstar, tin + 16, d);
    } else {
        memcpy(cstar, tin, d);
        memcpy(cm, tin + d, 16);
    }
    if (m > 2)
        a->be->cbc_decrypt(a, out, in, m - 2, chain); /* chain = C_{m-2} */
    a->be->ecb_decrypt(a, D, cm, 1);
    memcpy(cprev, cstar, d);
    memcpy(cprev + d, D + d, 16 - d);           /* C_{m-1} */
    uint8_t *tail = out + 16 * (m - 2);
    for (size_t i = 0; i < d; i++)
        tail[16 + i] = D[i] ^ cstar[i];          /* P*_m */
    a->be->cbc_decrypt(a, tail, cprev, 1, chain); /* P_{m-1} */
    mo_wipe(D, sizeof D);
    mo_wipe(cstar, sizeof cstar);
    mo_wipe(cprev, sizeof cprev);
    return AESKIT_OK;
}
