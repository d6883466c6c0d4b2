/*
 * peer_boringssl.c - Google's BoringSSL, built with its symbols prefixed
 * (BoringSSL's -DBORINGSSL_PREFIX=P), so that it links into the same program
 * as OpenSSL's libcrypto without a clash: every BoringSSL function is
 * P_name in the library, and its headers (with BORINGSSL_PREFIX defined)
 * rename the calls below to match.  This file alone sees BoringSSL's
 * headers (CMake sets them on this source file only).  Compiled when CMake
 * is given -DAESKIT_BORINGSSL_PREFIX=DIR (DIR/include, DIR/lib/libcrypto.a);
 * see docs/peers.md.
 *
 * GCM (and RFC 4106, the nonce salt || IV built per message) through the
 * EVP_AEAD interface that BoringSSL's own TLS and QUIC code uses: the
 * EVP_AEAD_CTX keyed once, then per message EVP_AEAD_CTX_seal_scatter
 * (ciphertext to the separate output, the 16-byte tag to its own buffer) or
 * EVP_AEAD_CTX_open_gather (which checks the tag itself).  EVP_AEAD takes
 * whole messages only, so streamed cells are not measured.  CTR through
 * EVP_CIPHER, keyed once, the IV set per message with
 * EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv), then EVP_EncryptUpdate per
 * piece.  Other modes are not measured here.
 *
 * BoringSSL has no version number; the version shown is its
 * BORINGSSL_API_VERSION ("api 43"), which moves with its API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aead.h>
#include <openssl/base.h>
#include <openssl/cipher.h>

#include "speed.h"

#if !defined(BORINGSSL_PREFIX) || !defined(BORINGSSL_API_VERSION)
#error "peer_boringssl.c needs BoringSSL's headers and its symbol prefix (see CMakeLists.txt)"
#endif

typedef struct bs_state {
    const speed_cell *c;
    EVP_AEAD_CTX aead;
    int aead_ready;
    EVP_CIPHER_CTX *ctx;
    uint8_t salt[4];
} bs_state;

#define BS_STR2(x) #x
#define BS_STR(x) BS_STR2(x)

static const char *bs_version(void)
{
    return "api " BS_STR(BORINGSSL_API_VERSION);
}

static void bs_done(void *st)
{
    bs_state *s = st;
    if (!s)
        return;
    if (s->aead_ready)
        EVP_AEAD_CTX_cleanup(&s->aead);
    EVP_CIPHER_CTX_free(s->ctx);
    free(s);
}

static void *bs_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    int aead = a->kind == SK_GCM || a->kind == SK_RFC4106;
    if (!aead && a->kind != SK_CTR) {
        speed_why(why, whylen, "not measured with BoringSSL here (GCM, RFC 4106, CTR)");
        return NULL;
    }
    if (aead && c->update && c->update < c->size) {
        speed_why(why, whylen, "EVP_AEAD takes whole messages");
        return NULL;
    }
    bs_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    if (aead) {
        size_t klen = a->key_len;
        if (a->kind == SK_RFC4106) {
            klen -= 4;
            memcpy(s->salt, key + klen, 4);
        }
        const EVP_AEAD *alg = a->bits == 128   ? EVP_aead_aes_128_gcm()
                              : a->bits == 192 ? EVP_aead_aes_192_gcm()
                                               : EVP_aead_aes_256_gcm();
        if (!EVP_AEAD_CTX_init(&s->aead, alg, key, klen, 16, NULL)) {
            speed_why(why, whylen, "EVP_AEAD_CTX_init failed");
            free(s);
            return NULL;
        }
        s->aead_ready = 1;
        return s;
    }
    const EVP_CIPHER *ci = a->bits == 128   ? EVP_aes_128_ctr()
                           : a->bits == 192 ? EVP_aes_192_ctr()
                                            : EVP_aes_256_ctr();
    s->ctx = EVP_CIPHER_CTX_new();
    if (!s->ctx || !EVP_EncryptInit_ex(s->ctx, ci, NULL, key, NULL)) {
        speed_why(why, whylen, "EVP_EncryptInit_ex failed");
        bs_done(s);
        return NULL;
    }
    return s;
}

static inline int one(bs_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    const uint8_t *iv = m->iv;
    uint8_t nonce[12];
    size_t tl, off, n;
    int l, bad = 0;
    switch (c->alg->kind) {
    case SK_RFC4106:
        iv = speed_rfc4106_nonce(nonce, s->salt, m->iv);
        /* fall through */
    case SK_GCM:
        if (c->decrypt)
            return !EVP_AEAD_CTX_open_gather(&s->aead, m->out, iv, 12, m->in, m->len, m->tag, 16,
                                             m->aad, m->aad_len);
        return !EVP_AEAD_CTX_seal_scatter(&s->aead, m->out, m->tag, &tl, 16, iv, 12, m->in,
                                          m->len, NULL, 0, m->aad, m->aad_len) ||
               tl != 16;
    case SK_CTR:
        bad |= !EVP_EncryptInit_ex(s->ctx, NULL, NULL, NULL, m->iv);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            bad |= !EVP_EncryptUpdate(s->ctx, m->out + off, &l, m->in + off, (int)n);
        }
        return bad;
    default:
        return 1;
    }
}

SPEED_RUN_LOOP(bs_run, one)

const speed_peer speed_peer_boringssl = {"boringssl", bs_version, bs_setup, bs_run, bs_done, 0};
