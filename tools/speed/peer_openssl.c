/*
 * peer_openssl.c - OpenSSL's libcrypto through EVP, the way applications use
 * it: the cipher context keyed once, then per message only the IV is set
 * (EVP_CipherInit_ex with NULL cipher and key), AAD and data updated,
 * Final, tag read or set.  CMAC through EVP_MAC (OpenSSL 3) restarted with
 * EVP_MAC_init(ctx, NULL, 0, NULL), which keeps the expanded key.  RFC 4106
 * has no EVP cipher: the nonce salt || IV is built per message, as an ESP
 * stack on top of EVP does.  CBC-MAC is CBC encryption into the output
 * buffer keeping the last block (EVP has no raw CBC-MAC).  The modes of
 * issue 15 that OpenSSL 3.0 has: OCB like GCM; SIV (the AEAD form: AAD and
 * nonce as two S2V strings); KW/KWP (id-aesN-wrap[-pad], one update);
 * CFB, CFB-8, OFB; CBC-CTS set to CS3.  No GCM-SIV or EAX before 3.2.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif

#include "speed.h"

typedef struct os_state {
    const speed_cell *c;
    EVP_CIPHER_CTX *ctx;
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_CIPHER *cipher;
    EVP_MAC *mac;
    EVP_MAC_CTX *mctx;
#endif
    uint8_t salt[4];
    uint8_t siv_key[64]; /* SIV: set again per message (see one()) */
} os_state;

static const char *os_version(void)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    return OpenSSL_version(OPENSSL_VERSION_STRING);
#else
    return OPENSSL_VERSION_TEXT;
#endif
}

static void os_done(void *st)
{
    os_state *s = st;
    if (!s)
        return;
    OPENSSL_cleanse(s->siv_key, sizeof s->siv_key);
    EVP_CIPHER_CTX_free(s->ctx);
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_CIPHER_free(s->cipher);
    EVP_MAC_CTX_free(s->mctx);
    EVP_MAC_free(s->mac);
#endif
    free(s);
}

static void *os_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
#if OPENSSL_VERSION_NUMBER < 0x30000000L
    speed_why(why, whylen, "needs OpenSSL 3");
    (void)c;
    (void)key;
    return NULL;
#else
    const speed_alg *a = c->alg;
    static const char *const mode[SK_NKINDS] = {
        [SK_GCM] = "GCM", [SK_GMAC] = "GCM", [SK_RFC4106] = "GCM", [SK_CCM] = "CCM",
        [SK_CMAC] = "CBC", [SK_CBCMAC] = "CBC", [SK_CTR] = "CTR", [SK_CBC] = "CBC",
        [SK_XTS] = "XTS", [SK_ECB] = "ECB", [SK_OCB] = "OCB", [SK_SIV] = "SIV",
        [SK_CFB] = "CFB", [SK_CFB8] = "CFB8", [SK_OFB] = "OFB", [SK_CTS] = "CBC-CTS"};
    char name[32];
    if (a->kind == SK_KW || a->kind == SK_KWP)
        snprintf(name, sizeof name, "id-aes%d-wrap%s", a->bits, a->kind == SK_KWP ? "-pad" : "");
    else if (mode[a->kind])
        snprintf(name, sizeof name, "AES-%d-%s", a->bits, mode[a->kind]);
    else {
        speed_why(why, whylen, "not in OpenSSL 3.0");
        return NULL;
    }
    os_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    int enc = !c->decrypt || a->kind == SK_CBCMAC;
    size_t klen = a->key_len;
    if (a->kind == SK_RFC4106) {
        klen -= 4;
        memcpy(s->salt, key + klen, 4);
    }
    if (a->kind == SK_SIV)
        memcpy(s->siv_key, key, klen);
    if (a->kind == SK_CMAC) {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, name, 0),
                           OSSL_PARAM_construct_end()};
        s->mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
        s->mctx = s->mac ? EVP_MAC_CTX_new(s->mac) : NULL;
        if (!s->mctx || EVP_MAC_init(s->mctx, key, klen, p) != 1) {
            speed_why(why, whylen, "CMAC with %s unavailable", name);
            os_done(s);
            return NULL;
        }
        return s;
    }
    s->cipher = EVP_CIPHER_fetch(NULL, name, NULL);
    s->ctx = EVP_CIPHER_CTX_new();
    if (!s->cipher || !s->ctx || EVP_CipherInit_ex(s->ctx, s->cipher, NULL, NULL, NULL, enc) != 1) {
        speed_why(why, whylen, "%s unavailable", name);
        os_done(s);
        return NULL;
    }
    int ok = 1;
    if (a->kind == SK_CCM) {
        /* the tag length is part of CCM's first block: set it before the key,
         * for decryption too (else OpenSSL formats B0 for its default M) */
        ok &= EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) == 1;
        ok &= EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_TAG, 16, NULL) == 1;
    }
    if (a->kind == SK_CBC || a->kind == SK_ECB || a->kind == SK_CBCMAC)
        ok &= EVP_CIPHER_CTX_set_padding(s->ctx, 0) == 1;
    if (a->kind == SK_OCB) {
        /* 12 bytes is OpenSSL's default OCB nonce; the tag length (16) too */
        ok &= EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) == 1;
    }
    if (a->kind == SK_CTS) {
        /* aeskit's row is CS3 (RFC 3962); OpenSSL's default is CS1 */
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, "CS3", 0),
                           OSSL_PARAM_construct_end()};
        ok &= EVP_CIPHER_CTX_set_params(s->ctx, p) == 1;
    }
    if (a->kind == SK_KW || a->kind == SK_KWP)
        EVP_CIPHER_CTX_set_flags(s->ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    ok &= EVP_CipherInit_ex(s->ctx, NULL, NULL, key, NULL, enc) == 1;
    if (!ok) {
        speed_why(why, whylen, "%s setup failed", name);
        os_done(s);
        return NULL;
    }
    return s;
#endif
}

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
static inline int one(os_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    EVP_CIPHER_CTX *x = s->ctx;
    int dec = c->decrypt, l, bad = 0;
    size_t off, n;
    uint8_t scratch[32];
    switch (c->alg->kind) {
    case SK_GCM:
    case SK_GMAC:
    case SK_RFC4106: {
        uint8_t nonce[12];
        const uint8_t *iv =
            c->alg->kind == SK_RFC4106 ? speed_rfc4106_nonce(nonce, s->salt, m->iv) : m->iv;
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, iv, -1) != 1;
        if (c->alg->kind == SK_GMAC) {
            for (off = 0; off < m->len; off += n) {
                n = speed_piece(m->len - off, m->update);
                bad |= EVP_CipherUpdate(x, NULL, &l, m->in + off, (int)n) != 1;
            }
        } else {
            if (m->aad_len)
                bad |= EVP_CipherUpdate(x, NULL, &l, m->aad, (int)m->aad_len) != 1;
            for (off = 0; off < m->len; off += n) {
                n = speed_piece(m->len - off, m->update);
                bad |= EVP_CipherUpdate(x, m->out + off, &l, m->in + off, (int)n) != 1;
            }
        }
        if (dec) {
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, m->tag) != 1;
            bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
        } else {
            bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, m->tag) != 1;
        }
        return bad;
    }
    case SK_CCM:
        if (dec)
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, m->tag) != 1;
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, m->iv, -1) != 1;
        bad |= EVP_CipherUpdate(x, NULL, &l, NULL, (int)m->len) != 1;
        if (m->aad_len)
            bad |= EVP_CipherUpdate(x, NULL, &l, m->aad, (int)m->aad_len) != 1;
        bad |= EVP_CipherUpdate(x, m->out, &l, m->in, (int)m->len) != 1;
        if (!dec) {
            bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, m->tag) != 1;
        }
        return bad;
    case SK_CMAC: {
        uint8_t t[16];
        size_t tl;
        bad |= EVP_MAC_init(s->mctx, NULL, 0, NULL) != 1;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            bad |= EVP_MAC_update(s->mctx, m->in + off, n) != 1;
        }
        bad |= EVP_MAC_final(s->mctx, dec ? t : m->tag, &tl, 16) != 1;
        if (dec)
            bad |= speed_ct_differ(t, m->tag, 16);
        return bad;
    }
    case SK_CBCMAC: {
        static const uint8_t zero[16];
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, zero, -1) != 1;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            bad |= EVP_CipherUpdate(x, m->out + off, &l, m->in + off, (int)n) != 1;
        }
        const uint8_t *last = m->out + m->len - 16;
        if (dec)
            return bad | speed_ct_differ(last, m->tag, 16);
        memcpy(m->tag, last, 16);
        return bad;
    }
    case SK_OCB: {
        /* OpenSSL's OCB holds a partial block back until Final, which
         * writes it after what Update wrote */
        int l2 = 0;
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, m->iv, -1) != 1;
        if (m->aad_len)
            bad |= EVP_CipherUpdate(x, NULL, &l, m->aad, (int)m->aad_len) != 1;
        l = 0;
        bad |= EVP_CipherUpdate(x, m->out, &l, m->in, (int)m->len) != 1;
        if (dec)
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, m->tag) != 1;
        bad |= EVP_CipherFinal_ex(x, m->out + l, &l2) != 1;
        bad |= (size_t)l + (size_t)l2 != m->len;
        if (!dec)
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, m->tag) != 1;
        return bad;
    }
    case SK_SIV:
        /* RFC 5297 6: each AAD update is one S2V string: the AAD, then the
         * nonce; the tag (V) is needed before decrypting.  OpenSSL 3.0's
         * SIV restarts S2V only when the key is set: an Init without it
         * refuses a second message (or, with its "speed" parameter,
         * carries S2V's state over into it), so the key is set per message
         * and its set-up is part of OpenSSL's figure. */
        bad |= EVP_CipherInit_ex(x, NULL, NULL, s->siv_key, NULL, -1) != 1;
        if (dec)
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, m->tag) != 1;
        bad |= EVP_CipherUpdate(x, NULL, &l, m->aad, (int)m->aad_len) != 1;
        bad |= EVP_CipherUpdate(x, NULL, &l, m->iv, 12) != 1;
        bad |= EVP_CipherUpdate(x, m->out, &l, m->in, (int)m->len) != 1;
        bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
        if (!dec)
            bad |= EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, m->tag) != 1;
        return bad;
    case SK_KW:
    case SK_KWP: {
        /* the default IV (NULL); the whole key in one update */
        size_t wl = speed_out_len(c->alg, 0, m->len);
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, NULL, -1) != 1;
        bad |= EVP_CipherUpdate(x, m->out, &l, m->in, (int)(dec ? wl : m->len)) != 1;
        bad |= (size_t)l != (dec ? m->len : wl);
        bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
        return bad;
    }
    default: /* CTR, CBC, XTS, ECB, CFB, CFB-8, OFB, CBC-CTS */
        bad |= EVP_CipherInit_ex(x, NULL, NULL, NULL, c->alg->iv_len ? m->iv : NULL, -1) != 1;
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            bad |= EVP_CipherUpdate(x, m->out + off, &l, m->in + off, (int)n) != 1;
        }
        bad |= EVP_CipherFinal_ex(x, scratch, &l) != 1;
        return bad;
    }
}
#endif

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
SPEED_RUN_LOOP(os_run, one)
#else
static int os_run(void *st, const speed_buf *b, size_t first, size_t n)
{
    (void)st, (void)b, (void)first, (void)n;
    return 1;
}
#endif

const speed_peer speed_peer_openssl = {"openssl", os_version, os_setup, os_run, os_done, 0};
