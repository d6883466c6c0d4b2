/*
 * peer_nettle.c - GNU Nettle.  The AES-specific entry points where Nettle
 * has them (gcm_aesNNN_*, ccm_aesNNN_*, cbc_aesNNN_encrypt, aesNNN_encrypt
 * for ECB), since those are what applications call and where Nettle puts
 * its optimised paths; the generic mode functions with aesNNN_encrypt for
 * CMAC, CTR, CBC decryption and XTS (Nettle's own AES wrappers for those
 * are thin shims over the same generic code).  Keys set once; per message
 * set_iv / set_nonce, update, encrypt or decrypt, digest.  Tags are
 * compared in constant time when verifying (Nettle leaves that to callers).
 * CBC-MAC is CBC encryption into the output buffer keeping the last block.
 */
#include <stdlib.h>
#include <string.h>

#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/ccm.h>
#include <nettle/cmac.h>
#include <nettle/ctr.h>
#include <nettle/gcm.h>
#include <nettle/version.h>
#include <nettle/xts.h>

#include "speed.h"

typedef struct nt_state {
    const speed_cell *c;
    uint8_t salt[4];
    union {
        struct gcm_aes128_ctx g128;
        struct gcm_aes192_ctx g192;
        struct gcm_aes256_ctx g256;
        struct ccm_aes128_ctx c128;
        struct ccm_aes192_ctx c192;
        struct ccm_aes256_ctx c256;
        struct aes128_ctx a128;
        struct aes192_ctx a192;
        struct aes256_ctx a256;
    } u;
    union { /* second key: decryption schedule, XTS tweak key */
        struct aes128_ctx a128;
        struct aes192_ctx a192;
        struct aes256_ctx a256;
    } v;
    struct cmac128_key ck;
    struct cmac128_ctx cc;
} nt_state;

static const char *nt_version(void)
{
    static char v[16];
    snprintf(v, sizeof v, "%d.%d", nettle_version_major(), nettle_version_minor());
    return v;
}

static void nt_done(void *st)
{
    free(st);
}

/* Nettle 3.8 added AES-specific CBC encryption (its assembly path);
 * older versions have only the generic loop. */
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 8)
#define NT_CBC_ENC(N, ctx, iv, n, dst, src) cbc_aes##N##_encrypt(ctx, iv, n, dst, src)
#else
#define NT_CBC_ENC(N, ctx, iv, n, dst, src)                                                       \
    cbc_encrypt(ctx, (nettle_cipher_func *)aes##N##_encrypt, 16, iv, n, dst, src)
#endif

/* Everything whose name depends on the key size, written once. */
#define NT_SIZE(N)                                                                                \
    static void setup_##N(nt_state *s, const uint8_t *key)                                       \
    {                                                                                             \
        const speed_cell *c = s->c;                                                               \
        switch (c->alg->kind) {                                                                   \
        case SK_GCM:                                                                              \
        case SK_GMAC:                                                                             \
        case SK_RFC4106:                                                                          \
            gcm_aes##N##_set_key(&s->u.g##N, key);                                                \
            break;                                                                                \
        case SK_CCM:                                                                              \
            ccm_aes##N##_set_key(&s->u.c##N, key);                                                \
            break;                                                                                \
        case SK_CMAC:                                                                             \
            aes##N##_set_encrypt_key(&s->u.a##N, key);                                            \
            cmac128_set_key(&s->ck, &s->u.a##N, (nettle_cipher_func *)aes##N##_encrypt);          \
            cmac128_init(&s->cc);                                                                 \
            break;                                                                                \
        case SK_XTS:                                                                              \
            if (c->decrypt)                                                                       \
                aes##N##_set_decrypt_key(&s->u.a##N, key);                                        \
            else                                                                                  \
                aes##N##_set_encrypt_key(&s->u.a##N, key);                                        \
            aes##N##_set_encrypt_key(&s->v.a##N, key + N / 8);                                    \
            break;                                                                                \
        default:                                                                                  \
            aes##N##_set_encrypt_key(&s->u.a##N, key);                                            \
            aes##N##_set_decrypt_key(&s->v.a##N, key);                                            \
            break;                                                                                \
        }                                                                                         \
    }                                                                                             \
    static inline int one_##N(nt_state *s, const speed_msg *m)                                    \
    {                                                                                             \
        const speed_cell *c = s->c;                                                               \
        int dec = c->decrypt;                                                                     \
        size_t off, n;                                                                            \
        uint8_t t[16];                                                                            \
        switch (c->alg->kind) {                                                                   \
        case SK_GCM:                                                                              \
        case SK_GMAC:                                                                             \
        case SK_RFC4106: {                                                                        \
            struct gcm_aes##N##_ctx *g = &s->u.g##N;                                              \
            uint8_t nonce[12];                                                                    \
            gcm_aes##N##_set_iv(g, 12, c->alg->kind == SK_RFC4106                                 \
                                           ? speed_rfc4106_nonce(nonce, s->salt, m->iv)           \
                                           : m->iv);                                              \
            if (c->alg->kind == SK_GMAC) {                                                        \
                for (off = 0; off < m->len; off += n) {                                           \
                    n = speed_piece(m->len - off, m->update);                                     \
                    gcm_aes##N##_update(g, n, m->in + off);                                       \
                }                                                                                 \
            } else {                                                                              \
                gcm_aes##N##_update(g, m->aad_len, m->aad);                                       \
                for (off = 0; off < m->len; off += n) {                                           \
                    n = speed_piece(m->len - off, m->update);                                     \
                    if (dec)                                                                      \
                        gcm_aes##N##_decrypt(g, n, m->out + off, m->in + off);                    \
                    else                                                                          \
                        gcm_aes##N##_encrypt(g, n, m->out + off, m->in + off);                    \
                }                                                                                 \
            }                                                                                     \
            gcm_aes##N##_digest(g, 16, dec ? t : m->tag);                                         \
            return dec ? speed_ct_differ(t, m->tag, 16) : 0;                                      \
        }                                                                                         \
        case SK_CCM: {                                                                            \
            struct ccm_aes##N##_ctx *cc = &s->u.c##N;                                             \
            ccm_aes##N##_set_nonce(cc, 12, m->iv, m->aad_len, m->len, 16);                        \
            ccm_aes##N##_update(cc, m->aad_len, m->aad);                                          \
            if (dec)                                                                              \
                ccm_aes##N##_decrypt(cc, m->len, m->out, m->in);                                  \
            else                                                                                  \
                ccm_aes##N##_encrypt(cc, m->len, m->out, m->in);                                  \
            ccm_aes##N##_digest(cc, 16, dec ? t : m->tag);                                        \
            return dec ? speed_ct_differ(t, m->tag, 16) : 0;                                      \
        }                                                                                         \
        case SK_CMAC:                                                                             \
            for (off = 0; off < m->len; off += n) {                                               \
                n = speed_piece(m->len - off, m->update);                                         \
                cmac128_update(&s->cc, &s->u.a##N, (nettle_cipher_func *)aes##N##_encrypt, n,     \
                               m->in + off);                                                      \
            }                                                                                     \
            /* digest also resets the context for the next message */                            \
            cmac128_digest(&s->cc, &s->ck, &s->u.a##N, (nettle_cipher_func *)aes##N##_encrypt,   \
                           16, dec ? t : m->tag);                                                 \
            return dec ? speed_ct_differ(t, m->tag, 16) : 0;                                      \
        case SK_CBCMAC: {                                                                         \
            uint8_t iv[16] = {0};                                                                 \
            for (off = 0; off < m->len; off += n) {                                               \
                n = speed_piece(m->len - off, m->update);                                         \
                NT_CBC_ENC(N, &s->u.a##N, iv, n, m->out + off, m->in + off);               \
            }                                                                                     \
            if (dec)                                                                              \
                return speed_ct_differ(iv, m->tag, 16);                                           \
            memcpy(m->tag, iv, 16);                                                               \
            return 0;                                                                             \
        }                                                                                         \
        case SK_CTR: {                                                                            \
            uint8_t ctr[16];                                                                      \
            memcpy(ctr, m->iv, 16);                                                               \
            for (off = 0; off < m->len; off += n) {                                               \
                n = speed_piece(m->len - off, m->update);                                         \
                ctr_crypt(&s->u.a##N, (nettle_cipher_func *)aes##N##_encrypt, 16, ctr, n,         \
                          m->out + off, m->in + off);                                             \
            }                                                                                     \
            return 0;                                                                             \
        }                                                                                         \
        case SK_CBC: {                                                                            \
            uint8_t iv[16];                                                                       \
            memcpy(iv, m->iv, 16);                                                                \
            for (off = 0; off < m->len; off += n) {                                               \
                n = speed_piece(m->len - off, m->update);                                         \
                if (dec)                                                                          \
                    cbc_decrypt(&s->v.a##N, (nettle_cipher_func *)aes##N##_decrypt, 16, iv, n,    \
                                m->out + off, m->in + off);                                       \
                else                                                                              \
                    NT_CBC_ENC(N, &s->u.a##N, iv, n, m->out + off, m->in + off);           \
            }                                                                                     \
            return 0;                                                                             \
        }                                                                                         \
        case SK_XTS:                                                                              \
            if (dec)                                                                              \
                xts_decrypt_message(&s->u.a##N, &s->v.a##N, (nettle_cipher_func *)aes##N##_decrypt, \
                                    (nettle_cipher_func *)aes##N##_encrypt, m->iv, m->len,        \
                                    m->out, m->in);                                               \
            else                                                                                  \
                xts_encrypt_message(&s->u.a##N, &s->v.a##N, (nettle_cipher_func *)aes##N##_encrypt, \
                                    m->iv, m->len, m->out, m->in);                                \
            return 0;                                                                             \
        default: /* ECB */                                                                        \
            for (off = 0; off < m->len; off += n) {                                               \
                n = speed_piece(m->len - off, m->update);                                         \
                if (dec)                                                                          \
                    aes##N##_decrypt(&s->v.a##N, n, m->out + off, m->in + off);                   \
                else                                                                              \
                    aes##N##_encrypt(&s->u.a##N, n, m->out + off, m->in + off);                   \
            }                                                                                     \
            return 0;                                                                             \
        }                                                                                         \
    }                                                                                             \
    SPEED_RUN_LOOP(run_##N, one_##N)

NT_SIZE(128)
NT_SIZE(192)
NT_SIZE(256)

static void *nt_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    if (speed_kind_is_modes15(a->kind)) {
        speed_why(why, whylen, "not measured with Nettle");
        return NULL;
    }
    if (a->kind == SK_GCM || a->kind == SK_GMAC || a->kind == SK_RFC4106) {
        /* Nettle's GCM wants whole blocks in every call but the last */
        if (c->update % 16) {
            speed_why(why, whylen, "Nettle's GCM takes pieces of whole blocks only");
            return NULL;
        }
    }
    nt_state *s = aligned_alloc(64, (sizeof(nt_state) + 63) & ~(size_t)63);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->c = c;
    if (a->kind == SK_RFC4106)
        memcpy(s->salt, key + a->key_len - 4, 4);
    if (a->kind == SK_CTR && c->update % 16) {
        /* ctr_crypt keeps no partial-block state between calls */
        speed_why(why, whylen, "Nettle's ctr_crypt takes pieces of whole blocks only");
        free(s);
        return NULL;
    }
    if (a->bits == 128)
        setup_128(s, key);
    else if (a->bits == 192)
        setup_192(s, key);
    else
        setup_256(s, key);
    return s;
}

static int nt_run(void *st, const speed_buf *b, size_t first, size_t n)
{
    nt_state *s = st;
    switch (s->c->alg->bits) {
    case 128:
        return run_128(s, b, first, n);
    case 192:
        return run_192(s, b, first, n);
    default:
        return run_256(s, b, first, n);
    }
}

const speed_peer speed_peer_nettle = {"nettle", nt_version, nt_setup, nt_run, nt_done, 0};
