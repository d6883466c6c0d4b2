/*
 * impl_aeskit.c - aeskit as a column of the comparison, one per backend:
 * key objects set up once with *_init_backend, then the one-shot calls, or
 * the streaming calls when --update asks for pieces.
 */
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "speed.h"

/* Every mode is in the library; a port that lacks one would say so here. */
int speed_aeskit_missing(const speed_alg *a)
{
    return a->kind >= SK_NKINDS;
}

typedef struct ak_state {
    union {
        aeskit_gcm_key gcm;
        aeskit_rfc4106_key rfc;
        aeskit_aes_key aes;
        aeskit_cmac_key cmac;
        aeskit_xts_key xts;
        aeskit_gcmsiv_key gcmsiv;
        aeskit_ocb_key ocb;
        aeskit_eax_key eax;
        aeskit_siv_key siv;
    } k;
    union {
        aeskit_gcm_ctx gcm;
        aeskit_cmac_ctx cmac;
        aeskit_ctr_ctx ctr;
        aeskit_cfb_ctx cfb;
        aeskit_ofb_ctx ofb;
    } ctx;
    const speed_cell *cell;
    int single; /* one message per call even under --batch */
} ak_state;

void *speed_aeskit_setup(const speed_cell *c, const uint8_t *key, const char *backend,
                         char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    if (speed_aeskit_missing(a)) {
        speed_why(why, whylen, "%s is not in this library build", a->name);
        return NULL;
    }
    ak_state *s = aligned_alloc(64, (sizeof(ak_state) + 63) & ~(size_t)63);
    if (!s) {
        speed_why(why, whylen, "out of memory");
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->cell = c;
    aeskit_status st;
    switch (a->kind) {
    case SK_GCM:
    case SK_GMAC:
        st = aeskit_gcm_init_backend(&s->k.gcm, key, a->key_len, backend);
        break;
    case SK_RFC4106:
        st = aeskit_rfc4106_init_backend(&s->k.rfc, key, a->key_len, backend);
        break;
    case SK_CMAC:
        st = aeskit_cmac_init_backend(&s->k.cmac, key, a->key_len, backend);
        break;
    case SK_XTS:
        st = aeskit_xts_init_backend(&s->k.xts, key, a->key_len, backend);
        break;
    case SK_GCMSIV:
        st = aeskit_gcmsiv_init_backend(&s->k.gcmsiv, key, a->key_len, backend);
        break;
    case SK_OCB:
        st = aeskit_ocb_init_backend(&s->k.ocb, key, a->key_len, backend);
        break;
    case SK_EAX:
        st = aeskit_eax_init_backend(&s->k.eax, key, a->key_len, backend);
        break;
    case SK_SIV:
        st = aeskit_siv_init_backend(&s->k.siv, key, a->key_len, backend);
        break;
    default:
        st = aeskit_aes_init_backend(&s->k.aes, key, a->key_len, backend);
        break;
    }
    if (st != AESKIT_OK) {
        speed_why(why, whylen, "init: %s", aeskit_strerror(st));
        free(s);
        return NULL;
    }
    return s;
}

void *speed_aeskit_setup_single(const speed_cell *c, const uint8_t *key, const char *backend,
                                char *why, size_t whylen)
{
    ak_state *s = speed_aeskit_setup(c, key, backend, why, whylen);
    if (s)
        s->single = 1;
    return s;
}

void speed_aeskit_done(void *state)
{
    if (state) {
        aeskit_memzero(state, sizeof(ak_state));
        free(state);
    }
}

/* One message.  Returns non-zero on any failure (wrong tag included). */
static inline int one(ak_state *s, const speed_msg *m, int dec)
{
    const speed_cell *c = s->cell;
    const size_t u = m->update;
    int r = 0;
    size_t off, n;
    switch (c->alg->kind) {
    case SK_GCM:
        if (!u)
            return dec ? aeskit_gcm_open(&s->k.gcm, m->out, m->in, m->len, m->tag, 16, m->iv,
                                         12, m->aad, m->aad_len)
                       : aeskit_gcm_seal(&s->k.gcm, m->out, m->tag, 16, m->in, m->len, m->iv,
                                         12, m->aad, m->aad_len);
        r |= aeskit_gcm_start(&s->ctx.gcm, &s->k.gcm, dec ? AESKIT_OPEN : AESKIT_SEAL, m->iv, 12);
        r |= aeskit_gcm_update_aad(&s->ctx.gcm, m->aad, m->aad_len);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_gcm_update(&s->ctx.gcm, m->out + off, m->in + off, n);
        }
        r |= dec ? aeskit_gcm_finish_verify(&s->ctx.gcm, m->tag, 16)
                 : aeskit_gcm_finish(&s->ctx.gcm, m->tag, 16);
        return r;
    case SK_GMAC:
        if (!u)
            return dec ? aeskit_gmac_verify(&s->k.gcm, m->tag, 16, m->iv, 12, m->in, m->len)
                       : aeskit_gmac(&s->k.gcm, m->tag, 16, m->iv, 12, m->in, m->len);
        r |= aeskit_gcm_start(&s->ctx.gcm, &s->k.gcm, dec ? AESKIT_OPEN : AESKIT_SEAL, m->iv, 12);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_gcm_update_aad(&s->ctx.gcm, m->in + off, n);
        }
        r |= dec ? aeskit_gcm_finish_verify(&s->ctx.gcm, m->tag, 16)
                 : aeskit_gcm_finish(&s->ctx.gcm, m->tag, 16);
        return r;
    case SK_RFC4106:
        return dec ? aeskit_rfc4106_open(&s->k.rfc, m->out, m->in, m->len, m->tag, 16,
                                         m->iv, m->aad, m->aad_len)
                   : aeskit_rfc4106_seal(&s->k.rfc, m->out, m->tag, 16, m->in, m->len,
                                         m->iv, m->aad, m->aad_len);
    case SK_CCM:
        return dec ? aeskit_ccm_open(&s->k.aes, m->out, m->in, m->len, m->tag, 16, m->iv,
                                     12, m->aad, m->aad_len)
                   : aeskit_ccm_seal(&s->k.aes, m->out, m->tag, 16, m->in, m->len, m->iv,
                                     12, m->aad, m->aad_len);
    case SK_CMAC:
        if (!u)
            return dec ? aeskit_cmac_verify(&s->k.cmac, m->in, m->len, m->tag, 16)
                       : aeskit_cmac(&s->k.cmac, m->tag, 16, m->in, m->len);
        r |= aeskit_cmac_start(&s->ctx.cmac, &s->k.cmac);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_cmac_update(&s->ctx.cmac, m->in + off, n);
        }
        r |= dec ? aeskit_cmac_finish_verify(&s->ctx.cmac, m->tag, 16)
                 : aeskit_cmac_finish(&s->ctx.cmac, m->tag, 16);
        return r;
    case SK_CBCMAC: {
        uint8_t st[16] = {0};
        size_t step = u ? u : m->len;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, step);
            r |= aeskit_cbcmac_blocks(&s->k.aes, st, m->in + off, n);
        }
        if (dec)
            return r | speed_ct_differ(st, m->tag, 16);
        memcpy(m->tag, st, 16);
        return r;
    }
    case SK_CTR:
        if (!u)
            return aeskit_ctr_crypt(&s->k.aes, m->out, m->in, m->len, m->iv);
        r |= aeskit_ctr_start(&s->ctx.ctr, &s->k.aes, m->iv);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_ctr_update(&s->ctx.ctr, m->out + off, m->in + off, n);
        }
        return r;
    case SK_CBC: {
        uint8_t iv[16];
        memcpy(iv, m->iv, 16);
        size_t step = u ? u : m->len;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, step);
            r |= dec ? aeskit_cbc_decrypt(&s->k.aes, m->out + off, m->in + off, n, iv)
                     : aeskit_cbc_encrypt(&s->k.aes, m->out + off, m->in + off, n, iv);
        }
        return r;
    }
    case SK_XTS:
        return dec ? aeskit_xts_decrypt(&s->k.xts, m->out, m->in, m->len, m->iv)
                   : aeskit_xts_encrypt(&s->k.xts, m->out, m->in, m->len, m->iv);
    case SK_ECB: {
        size_t step = u ? u : m->len;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, step);
            r |= dec ? aeskit_ecb_decrypt(&s->k.aes, m->out + off, m->in + off, n)
                     : aeskit_ecb_encrypt(&s->k.aes, m->out + off, m->in + off, n);
        }
        return r;
    }
    case SK_GCMSIV:
        return dec ? aeskit_gcmsiv_open(&s->k.gcmsiv, m->out, m->in, m->len, m->tag, 16, m->iv,
                                        12, m->aad, m->aad_len)
                   : aeskit_gcmsiv_seal(&s->k.gcmsiv, m->out, m->tag, 16, m->in, m->len, m->iv,
                                        12, m->aad, m->aad_len);
    case SK_OCB:
        return dec ? aeskit_ocb_open(&s->k.ocb, m->out, m->in, m->len, m->tag, 16, m->iv, 12,
                                     m->aad, m->aad_len)
                   : aeskit_ocb_seal(&s->k.ocb, m->out, m->tag, 16, m->in, m->len, m->iv, 12,
                                     m->aad, m->aad_len);
    case SK_EAX:
        return dec ? aeskit_eax_open(&s->k.eax, m->out, m->in, m->len, m->tag, 16, m->iv, 12,
                                     m->aad, m->aad_len)
                   : aeskit_eax_seal(&s->k.eax, m->out, m->tag, 16, m->in, m->len, m->iv, 12,
                                     m->aad, m->aad_len);
    case SK_SIV:
        return dec ? aeskit_siv_aead_open(&s->k.siv, m->out, m->in, m->len, m->tag, m->iv, 12,
                                          m->aad, m->aad_len)
                   : aeskit_siv_aead_seal(&s->k.siv, m->out, m->tag, m->in, m->len, m->iv, 12,
                                          m->aad, m->aad_len);
    case SK_KW:
    case SK_KWP: {
        /* m->len is the key data; the wrapped key is speed_out_len bytes */
        size_t wl = speed_out_len(c->alg, 0, m->len), got = 0;
        int pad = c->alg->kind == SK_KWP;
        if (dec)
            return pad ? aeskit_kwp_unwrap(&s->k.aes, m->out, wl - 8, &got, m->in, wl)
                       : aeskit_kw_unwrap(&s->k.aes, m->out, wl - 8, &got, m->in, wl);
        return pad ? aeskit_kwp_wrap(&s->k.aes, m->out, wl, &got, m->in, m->len)
                   : aeskit_kw_wrap(&s->k.aes, m->out, wl, &got, m->in, m->len);
    }
    case SK_CFB:
    case SK_CFB8: {
        int eight = c->alg->kind == SK_CFB8;
        if (!u) {
            if (eight)
                return dec ? aeskit_cfb8_decrypt(&s->k.aes, m->out, m->in, m->len, m->iv)
                           : aeskit_cfb8_encrypt(&s->k.aes, m->out, m->in, m->len, m->iv);
            return dec ? aeskit_cfb128_decrypt(&s->k.aes, m->out, m->in, m->len, m->iv)
                       : aeskit_cfb128_encrypt(&s->k.aes, m->out, m->in, m->len, m->iv);
        }
        aeskit_direction d = dec ? AESKIT_OPEN : AESKIT_SEAL;
        r |= eight ? aeskit_cfb8_start(&s->ctx.cfb, &s->k.aes, d, m->iv)
                   : aeskit_cfb128_start(&s->ctx.cfb, &s->k.aes, d, m->iv);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_cfb_update(&s->ctx.cfb, m->out + off, m->in + off, n);
        }
        return r;
    }
    case SK_OFB:
        if (!u)
            return aeskit_ofb_crypt(&s->k.aes, m->out, m->in, m->len, m->iv);
        r |= aeskit_ofb_start(&s->ctx.ofb, &s->k.aes, m->iv);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, u);
            r |= aeskit_ofb_update(&s->ctx.ofb, m->out + off, m->in + off, n);
        }
        return r;
    case SK_CTS:
        return dec ? aeskit_cbc_cts_decrypt(&s->k.aes, m->out, m->in, m->len, m->iv,
                                            AESKIT_CTS_CS3)
                   : aeskit_cbc_cts_encrypt(&s->k.aes, m->out, m->in, m->len, m->iv,
                                            AESKIT_CTS_CS3);
    default:
        return 1;
    }
}

/* ---- --batch N: the batch API, N messages per call ----------------------------
 * Message j of a call writes output slot j and tag slot j (the batch API
 * refuses outputs that overlap); a single-message call (the cross-check's)
 * writes b->out and the message's own tag, as the one-shot path does.  The
 * descriptors are built before the call, from the IV ring and the shared
 * input, as an application's packet loop would. */
#define AK_BATCH_MAX 1024

static int batchable(const speed_cell *c)
{
    switch (c->alg->kind) {
    case SK_GCM: case SK_GMAC: case SK_CCM: case SK_CMAC: case SK_CBCMAC: case SK_CTR: case SK_CBC:
        return c->batch > 0 && !c->update;
    default:
        return 0;
    }
}

/* Message j of a call of k: its source fields, output slot and tag slot
 * (see above). */
static inline void batch_msg(const speed_buf *b, size_t first, size_t j, size_t k, speed_msg *m,
                             uint8_t **out, uint8_t **tag)
{
    if (k == 1) {
        speed_msg_at(b, first, m);
        *out = m->out;
        *tag = m->tag;
        return;
    }
    speed_msg_src(b, first + j, m);
    *out = b->out + j * b->out_stride;
    *tag = b->cell->decrypt ? m->tag : b->tag_outs[j];
}

/* One batch call of messages first .. first + k - 1.  Each mode fills its
 * descriptors in a loop of its own, so no switch on the mode runs per
 * message (its indirect jump would be timed with the library). */
static int batch_call(ak_state *s, const speed_buf *b, size_t first, size_t k)
{
    static _Thread_local union {
        aeskit_gcm_msg gcm[AK_BATCH_MAX];
        aeskit_ccm_msg ccm[AK_BATCH_MAX];
        aeskit_cmac_msg cmac[AK_BATCH_MAX];
        aeskit_cbcmac_msg cbm[AK_BATCH_MAX];
        aeskit_cbc_msg cbc[AK_BATCH_MAX];
        aeskit_ctr_msg ctr[AK_BATCH_MAX];
    } d;
    static _Thread_local uint8_t chain[AK_BATCH_MAX][16];
    const speed_cell *c = s->cell;
    const int dec = c->decrypt;
    speed_msg m;
    uint8_t *out, *tag;
    int bad = 0;
    switch (c->alg->kind) {
    case SK_GCM:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            d.gcm[j] = (aeskit_gcm_msg){&s->k.gcm, out, tag, 16, m.in, m.len, m.iv, 12,
                                        m.aad, m.aad_len, AESKIT_OK};
        }
        return dec ? aeskit_gcm_open_batch(d.gcm, k) : aeskit_gcm_seal_batch(d.gcm, k);
    case SK_GMAC: /* the message is the AAD */
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            d.gcm[j] = (aeskit_gcm_msg){&s->k.gcm, NULL, tag, 16, NULL, 0, m.iv, 12, m.in, m.len,
                                        AESKIT_OK};
        }
        return dec ? aeskit_gmac_verify_batch(d.gcm, k) : aeskit_gmac_batch(d.gcm, k);
    case SK_CCM:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            d.ccm[j] = (aeskit_ccm_msg){&s->k.aes, out, tag, 16, m.in, m.len, m.iv, 12, m.aad,
                                        m.aad_len, AESKIT_OK};
        }
        return dec ? aeskit_ccm_open_batch(d.ccm, k) : aeskit_ccm_seal_batch(d.ccm, k);
    case SK_CMAC:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            d.cmac[j] = (aeskit_cmac_msg){&s->k.cmac, tag, 16, m.in, m.len, AESKIT_OK};
        }
        return dec ? aeskit_cmac_verify_batch(d.cmac, k) : aeskit_cmac_batch(d.cmac, k);
    case SK_CBCMAC:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            memset(chain[j], 0, 16);
            d.cbm[j] = (aeskit_cbcmac_msg){&s->k.aes, chain[j], m.in, m.len, AESKIT_OK};
        }
        bad = aeskit_cbcmac_batch(d.cbm, k);
        for (size_t j = 0; j < k; j++) {
            speed_msg_at(b, first + j, &m);
            if (dec)
                bad |= speed_ct_differ(chain[j], m.tag, 16);
            else if (k == 1)
                memcpy(m.tag, chain[j], 16);
        }
        return bad;
    case SK_CBC:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            memcpy(chain[j], m.iv, 16);
            d.cbc[j] = (aeskit_cbc_msg){&s->k.aes, out, m.in, m.len, chain[j], AESKIT_OK};
        }
        return dec ? aeskit_cbc_decrypt_batch(d.cbc, k) : aeskit_cbc_encrypt_batch(d.cbc, k);
    default:
        for (size_t j = 0; j < k; j++) {
            batch_msg(b, first, j, k, &m, &out, &tag);
            d.ctr[j] = (aeskit_ctr_msg){&s->k.aes, out, m.in, m.len, m.iv, AESKIT_OK};
        }
        return aeskit_ctr_batch(d.ctr, k);
    }
}

int speed_aeskit_run(void *state, const speed_buf *b, size_t first, size_t n)
{
    ak_state *s = state;
    int dec = b->cell->decrypt, bad = 0;
    speed_msg m;
    if (!s->single && batchable(b->cell)) {
        size_t per = b->cell->batch < AK_BATCH_MAX ? b->cell->batch : AK_BATCH_MAX;
        for (size_t i = first; i < first + n; i += per)
            bad |= batch_call(s, b, i, first + n - i < per ? first + n - i : per);
        return bad;
    }
    for (size_t i = first; i < first + n; i++) {
        speed_msg_at(b, i, &m);
        bad |= one(s, &m, dec);
    }
    return bad;
}
