/*
 * ofb.c - OFB (SP 800-38A 6.4), one-shot and streaming.
 * Portable C11; no CPU features needed.
 *
 * O_1 = CIPH_K(IV), O_j = CIPH_K(O_{j-1}), C_j = P_j ^ O_j; the last
 * partial block uses the first bytes of its O_j.  Every O_j depends on the
 * one before it, so the mode is serial: the backend's CBC encryption of
 * zero blocks produces it (see ofb_run).
 */
#include "modes.h"

#define OFB_MAGIC 0x4f464231u /* "OFB1" */
#define OFB_CHUNK 64           /* blocks of keystream per cbc_encrypt call */
#define OFB_FEW 2              /* up to this many blocks, one ECB call per block */

typedef struct mo_ofb_ctx {
    const ak_aes *k;
    uint32_t magic;
    uint32_t used;   /* bytes of o already used, 16 = none left */
    uint8_t o[16];   /* O_j (the IV before the first block) */
} mo_ofb_ctx;
_Static_assert(sizeof(mo_ofb_ctx) <= sizeof(aeskit_ofb_ctx), "OFB context fits");
_Static_assert(_Alignof(mo_ofb_ctx) <= _Alignof(aeskit_ofb_ctx), "OFB context alignment");

static void ofb_run(const ak_aes *a, uint8_t o[16], uint32_t *used, uint8_t *out,
                    const uint8_t *in, size_t len)
{
    while (*used < 16 && len) {
        *out++ = *in++ ^ o[*used];
        (*used)++;
        len--;
    }
    size_t nb = len / 16, rem = len % 16;
    /* O_j = CIPH_K(O_{j-1}) is the CBC encryption of zero blocks chained
     * from O_{j-1}: one call of the backend's serial cbc_encrypt kernel per
     * chunk, then one XOR pass. */
    static const uint8_t zero[16 * OFB_CHUNK];
    uint8_t ks[16 * OFB_CHUNK];
    if (nb <= OFB_FEW) { /* O_j in o itself, no keystream buffer to fill and wipe */
        for (; nb; nb--, in += 16, out += 16) {
            mo_v2u64 x, y;
            a->be->ecb_encrypt(a, o, o, 1);
            memcpy(&x, in, 16);
            memcpy(&y, o, 16);
            x ^= y;
            memcpy(out, &x, 16);
        }
    }
    for (size_t s = 0; s < nb; s += OFB_CHUNK) {
        size_t n = nb - s < OFB_CHUNK ? nb - s : OFB_CHUNK;
        a->be->cbc_encrypt(a, ks, zero, n, o); /* o = the last O_j on return */
        for (size_t i = 0; i < 16 * n; i += 16) {
            mo_v2u64 x, y;
            memcpy(&x, in + 16 * s + i, 16);
            memcpy(&y, ks + i, 16);
            x ^= y;
            memcpy(out + 16 * s + i, &x, 16);
        }
    }
    if (nb) /* the keystream of the chunks used, not the whole buffer */
        mo_wipe(ks, 16 * (nb < OFB_CHUNK ? nb : OFB_CHUNK));
    if (rem) {
        in += 16 * nb;
        out += 16 * nb;
        a->be->ecb_encrypt(a, o, o, 1);
        for (size_t i = 0; i < rem; i++)
            out[i] = in[i] ^ o[i];
        *used = (uint32_t)rem;
    }
}

aeskit_status aeskit_ofb_crypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                               size_t len, const uint8_t iv[16])
{
    if (!k || !iv || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(iv, 16, out, len))
        return AESKIT_ERR_OVERLAP;
    if (!len)
        return AESKIT_OK;
    uint8_t o[16];
    uint32_t used = 16;
    memcpy(o, iv, 16);
    ofb_run(a, o, &used, out, in, len);
    mo_wipe(o, sizeof o);
    return AESKIT_OK;
}

aeskit_status aeskit_ofb_start(aeskit_ofb_ctx *ctx, const aeskit_aes_key *k, const uint8_t iv[16])
{
    if (!ctx || !k || !iv)
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    mo_ofb_ctx *c = (mo_ofb_ctx *)ctx;
    uint8_t o[16];
    memcpy(o, iv, 16); /* iv may point into the context itself */
    memset(c, 0, sizeof *c);
    c->k = a;
    c->used = 16;
    memcpy(c->o, o, 16);
    c->magic = OFB_MAGIC;
    return AESKIT_OK;
}

aeskit_status aeskit_ofb_update(aeskit_ofb_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    if (!ctx || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_ofb_ctx *c = (mo_ofb_ctx *)ctx;
    if (c->magic != OFB_MAGIC || c->used > 16 || !ak_mo_ready(c->k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE; /* never started, or its key wiped */
    if (mo_bad_overlap(out, len, in, len))
        return AESKIT_ERR_OVERLAP;
    if (!len)
        return AESKIT_OK;
    ofb_run(c->k, c->o, &c->used, out, in, len);
    return AESKIT_OK;
}

void aeskit_ofb_ctx_wipe(aeskit_ofb_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}
