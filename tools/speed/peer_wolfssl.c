/*
 * peer_wolfssl.c - wolfSSL's wolfCrypt.  An Aes object keyed once
 * (wc_AesGcmSetKey, wc_AesCcmSetKey, wc_AesSetKey, wc_AesXtsSetKey); per
 * message the one-shot calls with the IV, or wc_AesGcmInit with a NULL key
 * (IV only) then EncryptUpdate / EncryptFinal when streaming.  CMAC keyed
 * once with wc_InitCmac into a pristine Cmac that is copied (1.2 KB) into
 * the working one per message: wc_CmacFinal wipes the key it used, and the
 * copy is cheaper than a fresh wc_InitCmac with its key expansion.  GMAC is
 * GCM with no plaintext; RFC 4106 builds the nonce salt || IV per message.
 * (Which AES code runs depends on how the distribution configured
 * wolfSSL: Debian's build has no AES-NI, so this column is table-based C.)
 * A mode the installed build was configured without is reported as such.
 */
#include <stdlib.h>
#include <string.h>

#include <wolfssl/options.h>
#include <wolfssl/version.h>
#include <wolfssl/wolfcrypt/aes.h>
#ifdef WOLFSSL_CMAC
#include <wolfssl/wolfcrypt/cmac.h>
#endif

#include "speed.h"

/* Which modes this wolfSSL build has (its configure options). */
static int wo_has(enum speed_kind k, size_t update, size_t size)
{
    (void)update, (void)size;
    switch (k) {
    case SK_GCM:
#ifndef WOLFSSL_AESGCM_STREAM
        if (update && update < size)
            return 0;
#endif
        /* fall through */
    case SK_GMAC:
    case SK_RFC4106:
#ifdef HAVE_AESGCM
        return 1;
#else
        return 0;
#endif
    case SK_CCM:
#ifdef HAVE_AESCCM
        return 1;
#else
        return 0;
#endif
    case SK_CMAC:
#ifdef WOLFSSL_CMAC
        return 1;
#else
        return 0;
#endif
    case SK_CTR:
#ifdef WOLFSSL_AES_COUNTER
        return 1;
#else
        return 0;
#endif
    case SK_XTS:
#ifdef WOLFSSL_AES_XTS
        return 1;
#else
        return 0;
#endif
    case SK_ECB:
#ifdef HAVE_AES_ECB
        return 1;
#else
        return 0;
#endif
    case SK_CBC:
#ifndef NO_AES_CBC
        return 1;
#else
        return 0;
#endif
    default:
        return 0;
    }
}

typedef struct wo_state {
    Aes aes;
    Aes aes_dec;
#ifdef WOLFSSL_AES_XTS
    XtsAes xts;
#endif
#ifdef WOLFSSL_CMAC
    Cmac cmac, cmac0;
#endif
    const speed_cell *c;
    int have_aes, have_dec, have_xts;
    uint8_t salt[4];
} wo_state;

static const char *wo_version(void)
{
    return LIBWOLFSSL_VERSION_STRING;
}

static void wo_done(void *st)
{
    wo_state *s = st;
    if (!s)
        return;
    if (s->have_aes)
        wc_AesFree(&s->aes);
    if (s->have_dec)
        wc_AesFree(&s->aes_dec);
#ifdef WOLFSSL_AES_XTS
    if (s->have_xts)
        wc_AesXtsFree(&s->xts);
#endif
    free(s);
}

static void *wo_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    wo_state *s = aligned_alloc(64, (sizeof(wo_state) + 63) & ~(size_t)63);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->c = c;
    word32 klen = (word32)a->key_len;
    int r = 0;
    if (c->update && c->update < c->size && a->kind != SK_GCM && a->kind != SK_CMAC) {
        speed_why(why, whylen, "not measured streamed with wolfSSL");
        free(s);
        return NULL;
    }
    if (speed_kind_is_modes15(a->kind)) {
        speed_why(why, whylen, "not measured with wolfSSL");
        free(s);
        return NULL;
    }
    if (!wo_has(a->kind, c->update, c->size)) {
        speed_why(why, whylen, "%s", a->kind == SK_CBCMAC ? "wolfSSL has no raw CBC-MAC"
                                                          : "not in this wolfSSL build");
        free(s);
        return NULL;
    }
    switch (a->kind) {
#ifdef HAVE_AESGCM
    case SK_RFC4106:
        klen -= 4;
        memcpy(s->salt, key + klen, 4);
        /* fall through */
    case SK_GCM:
    case SK_GMAC:
        r = wc_AesInit(&s->aes, NULL, INVALID_DEVID);
        s->have_aes = !r;
        if (!r)
            r = wc_AesGcmSetKey(&s->aes, key, klen);
        break;
#endif
#ifdef HAVE_AESCCM
    case SK_CCM:
        r = wc_AesInit(&s->aes, NULL, INVALID_DEVID);
        s->have_aes = !r;
        if (!r)
            r = wc_AesCcmSetKey(&s->aes, key, klen);
        break;
#endif
#ifdef WOLFSSL_CMAC
    case SK_CMAC:
        r = wc_InitCmac(&s->cmac0, key, klen, WC_CMAC_AES, NULL);
        break;
#endif
#ifdef WOLFSSL_AES_XTS
    case SK_XTS:
        if (a->bits == 192) {
            speed_why(why, whylen, "wolfSSL has no AES-192 XTS");
            free(s);
            return NULL;
        }
        r = wc_AesXtsSetKey(&s->xts, key, klen, c->decrypt ? AES_DECRYPTION : AES_ENCRYPTION,
                            NULL, INVALID_DEVID);
        s->have_xts = !r;
        break;
#endif
    case SK_CBCMAC:
        speed_why(why, whylen, "wolfSSL has no raw CBC-MAC");
        free(s);
        return NULL;
    default: /* CTR (always the encryption schedule), CBC, ECB */
        r = wc_AesInit(&s->aes, NULL, INVALID_DEVID);
        s->have_aes = !r;
        if (!r)
            r = wc_AesSetKey(&s->aes, key, klen, NULL,
                             c->decrypt && a->kind != SK_CTR ? AES_DECRYPTION : AES_ENCRYPTION);
        break;
    }
    if (r) {
        speed_why(why, whylen, "setup failed (wolfSSL error %d)", r);
        wo_done(s);
        return NULL;
    }
    return s;
}

static inline int one(wo_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    int dec = c->decrypt, r = 0;
    word32 len = (word32)m->len;
    size_t off, n;
    switch (c->alg->kind) {
#ifdef HAVE_AESGCM
    case SK_GCM:
    case SK_RFC4106: {
        uint8_t nonce[12];
        const uint8_t *iv =
            c->alg->kind == SK_RFC4106 ? speed_rfc4106_nonce(nonce, s->salt, m->iv) : m->iv;
        if (!m->update)
            return dec ? wc_AesGcmDecrypt(&s->aes, m->out, m->in, len, iv, 12, m->tag, 16, m->aad,
                                          (word32)m->aad_len) != 0
                       : wc_AesGcmEncrypt(&s->aes, m->out, m->in, len, iv, 12, m->tag, 16, m->aad,
                                          (word32)m->aad_len) != 0;
#ifdef WOLFSSL_AESGCM_STREAM
        r |= wc_AesGcmInit(&s->aes, NULL, 0, iv, 12);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            const uint8_t *aad = off ? NULL : m->aad;
            word32 aadl = off ? 0 : (word32)m->aad_len;
            r |= dec ? wc_AesGcmDecryptUpdate(&s->aes, m->out + off, m->in + off, (word32)n, aad,
                                              aadl)
                     : wc_AesGcmEncryptUpdate(&s->aes, m->out + off, m->in + off, (word32)n, aad,
                                              aadl);
        }
        r |= dec ? wc_AesGcmDecryptFinal(&s->aes, m->tag, 16)
                 : wc_AesGcmEncryptFinal(&s->aes, m->tag, 16);
        return r != 0;
#else
        (void)off, (void)n;
        return 1;
#endif
    }
    case SK_GMAC:
        return dec ? wc_AesGcmDecrypt(&s->aes, NULL, NULL, 0, m->iv, 12, m->tag, 16, m->in, len) != 0
                   : wc_AesGcmEncrypt(&s->aes, NULL, NULL, 0, m->iv, 12, m->tag, 16, m->in, len) != 0;
#endif
#ifdef HAVE_AESCCM
    case SK_CCM:
        return dec ? wc_AesCcmDecrypt(&s->aes, m->out, m->in, len, m->iv, 12, m->tag, 16, m->aad,
                                      (word32)m->aad_len) != 0
                   : wc_AesCcmEncrypt(&s->aes, m->out, m->in, len, m->iv, 12, m->tag, 16, m->aad,
                                      (word32)m->aad_len) != 0;
#endif
#ifdef WOLFSSL_CMAC
    case SK_CMAC: {
        uint8_t t[16];
        word32 tl = 16;
        memcpy(&s->cmac, &s->cmac0, sizeof s->cmac);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            r |= wc_CmacUpdate(&s->cmac, m->in + off, (word32)n);
        }
        r |= wc_CmacFinal(&s->cmac, dec ? t : m->tag, &tl);
        return r != 0 || (dec && speed_ct_differ(t, m->tag, 16));
    }
#endif
#ifdef WOLFSSL_AES_COUNTER
    case SK_CTR:
        r |= wc_AesSetIV(&s->aes, m->iv);
        s->aes.left = 0; /* no keystream left over from the previous message */
        return (r | wc_AesCtrEncrypt(&s->aes, m->out, m->in, len)) != 0;
#endif
#ifndef NO_AES_CBC
    case SK_CBC:
        r |= wc_AesSetIV(&s->aes, m->iv);
        return (r | (dec ? wc_AesCbcDecrypt(&s->aes, m->out, m->in, len)
                         : wc_AesCbcEncrypt(&s->aes, m->out, m->in, len))) != 0;
#endif
#ifdef WOLFSSL_AES_XTS
    case SK_XTS:
        return (dec ? wc_AesXtsDecrypt(&s->xts, m->out, m->in, len, m->iv, 16)
                    : wc_AesXtsEncrypt(&s->xts, m->out, m->in, len, m->iv, 16)) != 0;
#endif
#ifdef HAVE_AES_ECB
    case SK_ECB:
        return (dec ? wc_AesEcbDecrypt(&s->aes, m->out, m->in, len)
                    : wc_AesEcbEncrypt(&s->aes, m->out, m->in, len)) != 0;
#endif
    default:
        return 1;
    }
}

SPEED_RUN_LOOP(wo_run, one)

const speed_peer speed_peer_wolfssl = {"wolfssl", wo_version, wo_setup, wo_run, wo_done, 0};
