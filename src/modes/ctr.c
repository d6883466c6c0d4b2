/*
 * ctr.c - CTR (SP 800-38A 6.5) with a 16-byte initial counter block and a
 * 128-bit big-endian increment modulo 2^128 (OpenSSL's convention).
 * Portable C11; no CPU features needed.
 *
 * Partial blocks: one keystream block E(ctr) comes from ecb_encrypt and the
 * counter is advanced here; the unused bytes are kept in the streaming
 * context for the next update.
 */
#include "batch.h"

#define CTR_MAGIC 0x43545231u /* "CTR1" */

typedef struct mo_ctr_ctx {
    const ak_aes *k;
    uint32_t magic;
    uint32_t used;   /* keystream bytes of ks already consumed, 16 = none left */
    uint8_t ctr[16]; /* next counter block */
    uint8_t ks[16];
} mo_ctr_ctx;
_Static_assert(sizeof(mo_ctr_ctx) <= sizeof(aeskit_ctr_ctx), "CTR context fits");
_Static_assert(_Alignof(mo_ctr_ctx) <= _Alignof(aeskit_ctr_ctx), "CTR context alignment");

/* Whole blocks straight through the backend, then a tail of rem < 16 bytes
 * whose keystream block is left in ks (its first rem bytes used). */
static void ctr_body(const ak_aes *a, uint8_t ctr[16], uint8_t ks[16], uint8_t *out,
                     const uint8_t *in, size_t len)
{
    size_t nb = len / 16, rem = len % 16;
    if (nb == 1) {
        /* One block: ecb_encrypt is the cheapest one-block call (see
         * mo_ks32). */
        uint8_t k1[16];
        mo_ks128(a, k1, ctr);
        ak_xor16(out, in, k1);
        mo_wipe(k1, sizeof k1);
    } else if (nb) {
        a->be->ctr128(a, out, in, nb, ctr);
    }
    if (rem) {
        mo_ks128(a, ks, ctr);
        in += nb * 16;
        out += nb * 16;
        for (size_t i = 0; i < rem; i++)
            out[i] = in[i] ^ ks[i];
    }
}

/* A checked one-shot CTR message. */
void ak_mo_ctr_crypt(const ak_aes *a, uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t iv[16])
{
    uint8_t ctr[16], ks[16];
    memcpy(ctr, iv, 16);
    ctr_body(a, ctr, ks, out, in, len);
    if (len % 16)
        mo_wipe(ks, sizeof ks);
}

aeskit_status aeskit_ctr_crypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                               size_t len, const uint8_t iv[16])
{
    aeskit_status st = mo_ctr_checks(k, out, in, len, iv);
    if (st != AESKIT_OK)
        return st;
    ak_mo_ctr_crypt((const ak_aes *)k, out, in, len, iv);
    return AESKIT_OK;
}

aeskit_status aeskit_ctr_start(aeskit_ctr_ctx *ctx, const aeskit_aes_key *k, const uint8_t iv[16])
{
    if (!ctx || !k || !iv)
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    mo_ctr_ctx *c = (mo_ctr_ctx *)ctx;
    uint8_t ctr[16];
    memcpy(ctr, iv, 16); /* iv may point into the context itself */
    memset(c, 0, sizeof *c);
    c->k = a;
    c->used = 16;
    memcpy(c->ctr, ctr, 16);
    c->magic = CTR_MAGIC;
    return AESKIT_OK;
}

aeskit_status aeskit_ctr_update(aeskit_ctr_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    if (!ctx || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_ctr_ctx *c = (mo_ctr_ctx *)ctx;
    if (c->magic != CTR_MAGIC || c->used > 16 || !ak_mo_ready(c->k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE; /* never started, or its key wiped */
    if (mo_bad_overlap(out, len, in, len))
        return AESKIT_ERR_OVERLAP;
    if (!len)
        return AESKIT_OK; /* out and in may be NULL: no pointer arithmetic on them */

    /* Leftover keystream from the previous partial block first. */
    size_t n = 16 - c->used;
    if (n > len)
        n = len;
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] ^ c->ks[c->used + i];
    c->used += (uint32_t)n;
    in += n;
    out += n;
    len -= n;
    if (len) {
        ctr_body(c->k, c->ctr, c->ks, out, in, len);
        c->used = len % 16 ? (uint32_t)(len % 16) : 16;
    }
    return AESKIT_OK;
}

void aeskit_ctr_ctx_wipe(aeskit_ctr_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}
