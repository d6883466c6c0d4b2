/*
 * cmac.c - CMAC (SP 800-38B, RFC 4493), one-shot and streaming.
 * Portable C11; no CPU features needed.
 *
 * The last block is special (XOR K1 if complete, 10* padding and K2 if not),
 * so the streaming context always holds back the last 1..16 bytes seen until
 * finish; every block before it goes straight through the backend's cbcmac.
 */
#include "batch.h"

#define CMAC_MAGIC 0x434d4143u /* "CMAC" */
#define CMAC_OPEN 1u
#define CMAC_DONE 2u

typedef struct mo_cmac_ctx {
    const ak_cmac_key *ck;
    uint32_t magic;
    uint32_t state;  /* CMAC_OPEN or CMAC_DONE */
    uint32_t buflen; /* bytes held back in buf, 0..16 */
    uint32_t pad_;
    uint8_t st[16];  /* CBC-MAC chaining value */
    uint8_t buf[16];
} mo_cmac_ctx;
_Static_assert(sizeof(mo_cmac_ctx) <= sizeof(aeskit_cmac_ctx), "CMAC context fits");
_Static_assert(_Alignof(mo_cmac_ctx) <= _Alignof(aeskit_cmac_ctx), "CMAC context alignment");

/* The last block chained into st, the full MAC left in st. */
static void cmac_last(const ak_cmac_key *c, uint8_t st[16], const uint8_t *last, size_t n)
{
    uint8_t m[16];
    mo_cmac_last_block(c, m, last, n);
    c->aes.be->cbcmac(&c->aes, st, m, 1);
    mo_wipe(m, sizeof m);
}

static void cmac_full(const ak_cmac_key *c, const uint8_t *msg, size_t len, uint8_t mac[16])
{
    /* Every block but the last (which has 1..16 bytes; the empty message has
     * one empty last block). */
    size_t body = len ? (len - 1) / 16 : 0;
    memset(mac, 0, 16);
    if (body)
        c->aes.be->cbcmac(&c->aes, mac, msg, body);
    /* NULL + 0 is undefined in C: an empty message may come with msg NULL. */
    cmac_last(c, mac, body ? msg + body * 16 : msg, len - body * 16);
}

aeskit_status aeskit_cmac(const aeskit_cmac_key *ck, uint8_t *tag, size_t tag_len,
                          const uint8_t *msg, size_t len)
{
    aeskit_status st = mo_cmac_checks(ck, msg, len, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t mac[16];
    cmac_full((const ak_cmac_key *)ck, msg, len, mac);
    mo_copy_tag(tag, mac, tag_len);
    mo_wipe(mac, sizeof mac);
    return AESKIT_OK;
}

aeskit_status aeskit_cmac_verify(const aeskit_cmac_key *ck, const uint8_t *msg, size_t len,
                                 const uint8_t *tag, size_t tag_len)
{
    aeskit_status st = mo_cmac_checks(ck, msg, len, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t mac[16];
    cmac_full((const ak_cmac_key *)ck, msg, len, mac);
    uint32_t eq = ak_ct_eq_mask(mac, tag, tag_len);
    mo_wipe(mac, sizeof mac);
    return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
}

/* ---- streaming ------------------------------------------------------------ */

static int cmac_ctx_open(const mo_cmac_ctx *c)
{
    return c->magic == CMAC_MAGIC && c->state == CMAC_OPEN && c->buflen <= 16 &&
           ak_mo_ready(&c->ck->aes, AK_MAGIC_CMAC); /* not a wiped key */
}

aeskit_status aeskit_cmac_start(aeskit_cmac_ctx *ctx, const aeskit_cmac_key *ck)
{
    if (!ctx || !ck)
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&((const ak_cmac_key *)ck)->aes, AK_MAGIC_CMAC))
        return AESKIT_ERR_STATE;
    mo_cmac_ctx *c = (mo_cmac_ctx *)ctx;
    memset(c, 0, sizeof *c);
    c->ck = (const ak_cmac_key *)ck;
    c->magic = CMAC_MAGIC;
    c->state = CMAC_OPEN;
    return AESKIT_OK;
}

aeskit_status aeskit_cmac_update(aeskit_cmac_ctx *ctx, const uint8_t *in, size_t len)
{
    if (!ctx || (!in && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_cmac_ctx *c = (mo_cmac_ctx *)ctx;
    if (!cmac_ctx_open(c))
        return AESKIT_ERR_STATE;
    if (!len)
        return AESKIT_OK;
    const ak_aes *a = &c->ck->aes;

    /* Block-sized updates (the kernel's tcrypt grid, most record layers):
     * chain the held-back block, hold back the new one, with fixed-size
     * copies instead of the general path's variable ones. */
    if (c->buflen == 16 && len == 16) {
        a->be->cbcmac(a, c->st, c->buf, 1);
        memcpy(c->buf, in, 16);
        return AESKIT_OK;
    }

    /* Top up the held-back block; it is only chained once more data
     * follows it, since until then it may be the last block. */
    size_t take = 16 - c->buflen;
    if (take > len)
        take = len;
    mo_copy_short(c->buf + c->buflen, in, take);
    c->buflen += (uint32_t)take;
    in += take;
    len -= take;
    if (!len)
        return AESKIT_OK;
    a->be->cbcmac(a, c->st, c->buf, 1);

    /* Whole blocks that are certainly not last, then hold back 1..16 bytes. */
    size_t body = (len - 1) / 16;
    if (body)
        a->be->cbcmac(a, c->st, in, body);
    in += body * 16;
    len -= body * 16;
    mo_copy_short(c->buf, in, len);
    c->buflen = (uint32_t)len;
    return AESKIT_OK;
}

/* Common end of finish/verify: the MAC in mac, the context closed and its
 * secrets cleared (it must be started again). */
static void cmac_close(mo_cmac_ctx *c, uint8_t mac[16])
{
    memcpy(mac, c->st, 16);
    cmac_last(c->ck, mac, c->buf, c->buflen);
    mo_wipe(c->st, sizeof c->st);
    mo_wipe(c->buf, sizeof c->buf);
    c->buflen = 0;
    c->state = CMAC_DONE;
}

aeskit_status aeskit_cmac_finish(aeskit_cmac_ctx *ctx, uint8_t *tag, size_t tag_len)
{
    if (!ctx || !tag)
        return AESKIT_ERR_NULL_POINTER;
    mo_cmac_ctx *c = (mo_cmac_ctx *)ctx;
    if (!cmac_ctx_open(c))
        return AESKIT_ERR_STATE;
    if (tag_len < 4 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    uint8_t mac[16];
    cmac_close(c, mac);
    mo_copy_tag(tag, mac, tag_len);
    mo_wipe(mac, sizeof mac);
    return AESKIT_OK;
}

aeskit_status aeskit_cmac_finish_verify(aeskit_cmac_ctx *ctx, const uint8_t *tag, size_t tag_len)
{
    if (!ctx || !tag)
        return AESKIT_ERR_NULL_POINTER;
    mo_cmac_ctx *c = (mo_cmac_ctx *)ctx;
    if (!cmac_ctx_open(c))
        return AESKIT_ERR_STATE;
    if (tag_len < 4 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    uint8_t mac[16];
    cmac_close(c, mac);
    uint32_t eq = ak_ct_eq_mask(mac, tag, tag_len);
    mo_wipe(mac, sizeof mac);
    return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
}

void aeskit_cmac_ctx_wipe(aeskit_cmac_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}
