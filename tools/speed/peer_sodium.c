/*
 * peer_sodium.c - libsodium's AES-256-GCM: the only AES it offers, and only
 * where the CPU has AES-NI and PCLMULQDQ (crypto_aead_aes256gcm_is_available;
 * elsewhere the peer is named as unable to run).  The key is expanded once
 * with crypto_aead_aes256gcm_beforenm; per message the detached _afternm
 * calls.  GMAC is the same call with no plaintext and the message as AAD;
 * RFC 4106 builds the nonce salt || IV per message.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "speed.h"

typedef struct na_state {
    crypto_aead_aes256gcm_state st; /* 16-byte aligned by its type */
    const speed_cell *c;
    uint8_t salt[4];
} na_state;

static const char *na_version(void)
{
    if (sodium_init() < 0 || !crypto_aead_aes256gcm_is_available())
        return NULL;
    return sodium_version_string();
}

static void na_done(void *st)
{
    free(st);
}

static void *na_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    if (a->bits != 256 || !(a->kind == SK_GCM || a->kind == SK_GMAC || a->kind == SK_RFC4106)) {
        speed_why(why, whylen, "libsodium has AES-256-GCM only");
        return NULL;
    }
    if (c->update && c->update < c->size) {
        speed_why(why, whylen, "libsodium has no streaming AES-GCM");
        return NULL;
    }
    na_state *s = aligned_alloc(64, (sizeof(na_state) + 63) & ~(size_t)63);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->c = c;
    if (a->kind == SK_RFC4106)
        memcpy(s->salt, key + 32, 4);
    crypto_aead_aes256gcm_beforenm(&s->st, key);
    return s;
}

static inline int one(na_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    const uint8_t *iv = m->iv;
    uint8_t nonce[12];
    unsigned long long tl;
    if (c->alg->kind == SK_RFC4106)
        iv = speed_rfc4106_nonce(nonce, s->salt, m->iv);
    /* GMAC: no plaintext (the pointers must still be non-NULL) */
    if (c->alg->kind == SK_GMAC)
        return c->decrypt ? crypto_aead_aes256gcm_decrypt_detached_afternm(
                                m->out, NULL, m->in, 0, m->tag, m->in, m->len, iv, &s->st) != 0
                          : crypto_aead_aes256gcm_encrypt_detached_afternm(
                                m->out, m->tag, &tl, m->in, 0, m->in, m->len, NULL, iv,
                                &s->st) != 0;
    return c->decrypt ? crypto_aead_aes256gcm_decrypt_detached_afternm(
                            m->out, NULL, m->in, m->len, m->tag, m->aad, m->aad_len, iv, &s->st) != 0
                      : crypto_aead_aes256gcm_encrypt_detached_afternm(
                            m->out, m->tag, &tl, m->in, m->len, m->aad, m->aad_len, NULL, iv,
                            &s->st) != 0;
}

SPEED_RUN_LOOP(na_run, one)

const speed_peer speed_peer_sodium = {"libsodium", na_version, na_setup, na_run, na_done, 0};
