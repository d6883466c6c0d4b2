/*
 * ccm.c - CCM (NIST SP 800-38C, RFC 3610): CBC-MAC then CTR.
 * Portable C11; no CPU features needed.
 *
 * SP 800-38C Appendix A.2 formats the input to the CBC-MAC:
 *   B0 = flags || N || Q, flags = 64*Adata + 8*((t-2)/2) + (q-1), where
 *        q = 15 - n is the size of the length field Q = [len(P)]_8q;
 *   then, if there is AAD, its length encoded in 2 bytes (a < 2^16-2^8),
 *        0xff 0xfe + 4 bytes (a < 2^32) or 0xff 0xff + 8 bytes, followed by
 *        the AAD, zero padded to a block boundary;
 *   then the payload, zero padded.
 * Counter blocks are Ctr_i = (q-1) || N || [i]_8q; S0 = E(Ctr0) masks the
 * tag and Ctr1, Ctr2, ... encrypt the payload.  Since the payload has fewer
 * than 2^8q bytes, i never leaves its q-byte field, so the backend's 128-bit
 * big-endian ctr128 counts exactly like CCM's counter.
 */
#include "batch.h"

/* CBC-MAC is one serial chain of AES latencies with the AES units mostly
 * idle, while CTR is parallel.  Alternating short steps of the two lets an
 * out-of-order core run the CTR blocks in the shadow of the CBC-MAC chain.
 * The step is the backend's mac_ctr_step (internal.h). */
static inline size_t ccm_step(const ak_aes *k)
{
    return k->be->mac_ctr_step ? k->be->mac_ctr_step : AK_MAC_CTR_STEP_DEFAULT;
}

/* Messages up to this many bytes run S0 and the payload keystream through
 * one ctr128 call (a bitsliced backend pays per call, not per block). */
#define CCM_SMALL_MAX 112

static inline aeskit_status ccm_checks(const ak_aes *k, const uint8_t *nonce, size_t nonce_len,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                       size_t len, const uint8_t *out, const uint8_t *tag,
                                       size_t tag_len)
{
    if (!k || (!nonce && nonce_len) || (!aad && aad_len) || ((!in || !out) && len) ||
        (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (nonce_len < 7 || nonce_len > 13)
        return AESKIT_ERR_NONCE_LENGTH;
    if (!MO_TAG_OK(MO_CCM_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    size_t q = 15 - nonce_len; /* 2..8 */
    if (q < 8 && ((uint64_t)len >> (8 * q)) != 0)
        return AESKIT_ERR_MESSAGE_TOO_LONG;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, tag_len, out, len) ||
        mo_any_overlap(aad, aad_len, out, len) || mo_any_overlap(nonce, nonce_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

/* The block  first || nonce || the last q = 15 - nonce_len bytes of t's
 * 8-byte big-endian form  (7 <= nonce_len <= 13, t < 2^(8q), as
 * ccm_checks makes it), in one store (mo_store_block): the kernels read
 * B0 and Ctr0 as whole blocks at the head of the CBC-MAC and CTR chains.
 * In little-endian values: bytes 0-7 are first and nonce[0..6], bytes
 * 8-15 the rest of the nonce (nonce_len - 7 bytes) and then t's
 * big-endian tail, whose value is bswap64(t) (its low 8 - q bytes are
 * zero). */
static inline void ccm_block(uint8_t out[16], uint8_t first, const uint8_t *nonce, size_t nonce_len,
                             uint64_t t)
{
    mo_store_block(out, first | mo_le_bytes7(nonce, 7) << 8,
                   mo_le_bytes7(nonce + 7, nonce_len - 7) | __builtin_bswap64(t));
}

/* B0 into b[0..15] and, with AAD, the first AAD block (the length
 * encoding and the first AAD bytes, zero padded) into b[16..31]; returns
 * the number of AAD bytes that block took (0 without AAD).  len fits the
 * q = 15 - nonce_len bytes of B0's length field (ccm_checks). */
size_t ak_mo_ccm_head(uint8_t b[32], const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                      size_t aad_len, size_t len, size_t tag_len)
{
    size_t q = 15 - nonce_len;
    ccm_block(b, (uint8_t)((aad_len ? 0x40 : 0) | (((tag_len - 2) / 2) << 3) | (q - 1)), nonce, nonce_len,
              (uint64_t)len);
    if (!aad_len)
        return 0;
    uint8_t *p = b + 16;
    memset(p, 0, 16);
    uint64_t al = (uint64_t)aad_len;
    size_t h;
    if (al < 0xff00) {
        p[0] = (uint8_t)(al >> 8);
        p[1] = (uint8_t)al;
        h = 2;
    } else if (al <= 0xffffffffu) {
        p[0] = 0xff;
        p[1] = 0xfe;
        ak_store_be32(p + 2, (uint32_t)al);
        h = 6;
    } else {
        p[0] = 0xff;
        p[1] = 0xff;
        ak_store_be64(p + 2, al);
        h = 10;
    }
    size_t take = aad_len < 16 - h ? aad_len : 16 - h;
    mo_copy_short(p + h, aad, take);
    return take;
}

/* CBC-MAC of B0 and the formatted AAD into X (X starts at 0). */
static void ccm_mac_head(const ak_aes *a, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, size_t len, size_t tag_len,
                         uint8_t X[16])
{
    uint8_t b[32];
    size_t take = ak_mo_ccm_head(b, nonce, nonce_len, aad, aad_len, len, tag_len);
    memset(X, 0, 16);
    if (!aad_len) {
        a->be->cbcmac(a, X, b, 1);
        return;
    }
    uint8_t *p = b + 16;
    a->be->cbcmac(a, X, b, 2);
    aad += take;
    aad_len -= take;
    size_t nb = aad_len / 16, rem = aad_len % 16;
    if (nb)
        a->be->cbcmac(a, X, aad, nb);
    if (rem) {
        memset(p, 0, 16);
        memcpy(p, aad + nb * 16, rem);
        a->be->cbcmac(a, X, p, 1);
    }
}

/* CBC-MAC over the payload, zero padded. */
static void ccm_mac_payload(const ak_aes *a, uint8_t X[16], const uint8_t *p, size_t len)
{
    size_t nb = len / 16, rem = len % 16;
    if (nb)
        a->be->cbcmac(a, X, p, nb);
    if (rem) {
        uint8_t blk[16] = {0};
        memcpy(blk, p + nb * 16, rem);
        a->be->cbcmac(a, X, blk, 1);
        mo_wipe(blk, sizeof blk);
    }
}

/* Ctr0 = (q-1) || N || 0^8q. */
static inline void ccm_ctr0(const uint8_t *nonce, size_t nonce_len, uint8_t ctr[16])
{
    ccm_block(ctr, (uint8_t)(14 - nonce_len), nonce, nonce_len, 0); /* q - 1 */
}

/* Ctr0 into ctr, then S0 = E(Ctr0) into s0 and ctr advanced to Ctr1. */
static inline void ccm_s0(const ak_aes *a, const uint8_t *nonce, size_t nonce_len,
                          uint8_t ctr[16], uint8_t s0[16])
{
    ccm_ctr0(nonce, nonce_len, ctr);
    mo_ks128(a, s0, ctr);
}

/* out = in XOR keystream from ctr (ctr128), any len. */
static void ccm_ctr_xor(const ak_aes *a, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                        size_t len)
{
    size_t nb = len / 16, rem = len % 16;
    if (nb)
        a->be->ctr128(a, out, in, nb, ctr);
    if (rem) {
        uint8_t ks[16];
        mo_ks128(a, ks, ctr);
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = in[nb * 16 + i] ^ ks[i];
        mo_wipe(ks, sizeof ks);
    }
}

/* Short messages (len <= CCM_SMALL_MAX): b = [0][in, zero padded], then one
 * ctr128 call from Ctr0 turns it into [S0][in XOR keystream].  Returns the
 * number of padded data blocks. */
static size_t ccm_small_crypt(const ak_aes *k, const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *in, size_t len, uint8_t *b)
{
    uint8_t ctr[16];
    size_t nbp = (len + 15) / 16;
    ccm_ctr0(nonce, nonce_len, ctr);
    memset(b, 0, 16 + nbp * 16);
    if (len)
        memcpy(b + 16, in, len);
    k->be->ctr128(k, b, b, 1 + nbp, ctr);
    return nbp;
}

/* ---- for the batch front end (src/modes/batch_ccm.c) ---------------------- */

aeskit_status ak_mo_ccm_checks(const ak_aes *k, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                               const uint8_t *out, const uint8_t *tag, size_t tag_len)
{
    return ccm_checks(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}

void ak_mo_ccm_ctr0(const uint8_t *nonce, size_t nonce_len, uint8_t ctr[16])
{
    ccm_ctr0(nonce, nonce_len, ctr);
}

void ak_mo_ccm_s0(const ak_aes *a, const uint8_t *nonce, size_t nonce_len, uint8_t ctr[16],
                  uint8_t s0[16])
{
    ccm_s0(a, nonce, nonce_len, ctr, s0);
}

void ak_mo_ccm_ctr_xor(const ak_aes *a, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                       size_t len)
{
    ccm_ctr_xor(a, ctr, out, in, len);
}

aeskit_status ak_mo_ccm_seal(const ak_aes *k, uint8_t *out, uint8_t *tag, size_t tag_len,
                             const uint8_t *in, size_t len, const uint8_t *nonce,
                             size_t nonce_len, const uint8_t *aad, size_t aad_len)
{
    aeskit_status st = ccm_checks(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t X[16], ctr[16], s0[16];
    /* MAC the plaintext before it is overwritten (in-place). */
    ccm_mac_head(k, nonce, nonce_len, aad, aad_len, len, tag_len, X);
    if (len <= CCM_SMALL_MAX) {
        ccm_mac_payload(k, X, in, len);
        /* One ctr128 call from Ctr0 over [0][P]: S0 and the ciphertext. */
        uint8_t b[16 + CCM_SMALL_MAX];
        size_t nbp = ccm_small_crypt(k, nonce, nonce_len, in, len, b);
        if (len)
            memcpy(out, b + 16, len);
        for (size_t i = 0; i < tag_len; i++)
            tag[i] = X[i] ^ b[i];
        mo_wipe(b, 16 + nbp * 16);
        mo_wipe(X, sizeof X);
        return AESKIT_OK;
    }
    ccm_s0(k, nonce, nonce_len, ctr, s0);
    /* Whole blocks: MAC each step of plaintext before encrypting it (the
     * buffer may be in-place); the partial tail after. */
    size_t nb = len / 16, rem = len % 16, step = ccm_step(k);
    for (size_t o = 0; o < nb; o += step) {
        size_t n = nb - o < step ? nb - o : step;
        k->be->cbcmac(k, X, in + o * 16, n);
        k->be->ctr128(k, out + o * 16, in + o * 16, n, ctr);
    }
    if (rem) {
        ccm_mac_payload(k, X, in + nb * 16, rem);
        ccm_ctr_xor(k, ctr, out + nb * 16, in + nb * 16, rem);
    }
    for (size_t i = 0; i < tag_len; i++)
        tag[i] = X[i] ^ s0[i];
    mo_wipe(X, sizeof X);
    mo_wipe(s0, sizeof s0);
    return AESKIT_OK;
}

aeskit_status ak_mo_ccm_open(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t *tag, size_t tag_len, const uint8_t *nonce,
                             size_t nonce_len, const uint8_t *aad, size_t aad_len)
{
    aeskit_status st = ccm_checks(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t X[16], ctr[16], ctr1[16], s0[16];
    uint32_t eq;
    ccm_mac_head(k, nonce, nonce_len, aad, aad_len, len, tag_len, X);
    if (len <= CCM_SMALL_MAX) {
        /* One ctr128 call from Ctr0 over [0][C] gives S0 and the plaintext,
         * which stays on the stack until the tag has matched: an in-place
         * buffer then needs no restoring. */
        uint8_t b[16 + CCM_SMALL_MAX];
        size_t nbp = ccm_small_crypt(k, nonce, nonce_len, in, len, b);
        memset(b + 16 + len, 0, nbp * 16 - len); /* P || 0^pad for the MAC */
        if (nbp)
            k->be->cbcmac(k, X, b + 16, nbp);
        for (size_t i = 0; i < 16; i++)
            X[i] ^= b[i];
        eq = ak_ct_eq_mask(X, tag, tag_len);
        if (MO_LIKELY(eq)) {
            if (len)
                memcpy(out, b + 16, len);
        } else if (out != in) {
            aeskit_memzero(out, len);
        }
        mo_wipe(b, 16 + nbp * 16);
        mo_wipe(X, sizeof X);
        return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
    }
    ccm_s0(k, nonce, nonce_len, ctr, s0);
    memcpy(ctr1, ctr, 16);
    size_t nb = len / 16, rem = len % 16, step = ccm_step(k);
    for (size_t o = 0; o < nb; o += step) {
        size_t n = nb - o < step ? nb - o : step;
        k->be->ctr128(k, out + o * 16, in + o * 16, n, ctr);
        k->be->cbcmac(k, X, out + o * 16, n);
    }
    if (rem) {
        ccm_ctr_xor(k, ctr, out + nb * 16, in + nb * 16, rem);
        ccm_mac_payload(k, X, out + nb * 16, rem);
    }
    for (size_t i = 0; i < 16; i++)
        X[i] ^= s0[i];
    eq = ak_ct_eq_mask(X, tag, tag_len);
    mo_wipe(X, sizeof X);
    mo_wipe(s0, sizeof s0);
    if (MO_LIKELY(eq))
        return AESKIT_OK;
    if (out == in)
        ccm_ctr_xor(k, ctr1, out, out, len); /* CTR is its own inverse */
    else
        aeskit_memzero(out, len);
    return AESKIT_ERR_AUTH;
}

aeskit_status aeskit_ccm_seal(const aeskit_aes_key *k, uint8_t *out, uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    return ak_mo_ccm_seal((const ak_aes *)k, out, tag, tag_len, in, len, nonce, nonce_len, aad,
                          aad_len);
}

aeskit_status aeskit_ccm_open(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                              size_t len, const uint8_t *tag, size_t tag_len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    return ak_mo_ccm_open((const ak_aes *)k, out, in, len, tag, tag_len, nonce, nonce_len, aad,
                          aad_len);
}
