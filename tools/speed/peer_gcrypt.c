/*
 * peer_gcrypt.c - libgcrypt: a cipher handle keyed once (gcry_cipher_setkey),
 * per message gcry_cipher_reset + setiv/setctr, authenticate, encrypt or
 * decrypt (in pieces when streaming), gettag/checktag.  CMAC through
 * gcry_mac (reset keeps the key); CBC-MAC through the CBC mode's
 * GCRY_CIPHER_CBC_MAC flag, which outputs only the last block.  RFC 4106
 * builds the nonce salt || IV per message.  The modes of issue 15 that
 * libgcrypt 1.10 has: GCM-SIV, OCB, EAX, SIV (the AEAD form: AAD, then the
 * nonce through setiv), KW and KWP (AESWRAP, GCRY_CIPHER_EXTENDED), CFB,
 * CFB-8, OFB and CBC-CTS (the CBC_CTS flag, which is CS3).
 */
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "speed.h"

typedef struct gc_state {
    const speed_cell *c;
    gcry_cipher_hd_t h;
    gcry_mac_hd_t mh;
    int have_h, have_mh;
    uint8_t salt[4];
} gc_state;

static const char *gc_version(void)
{
    static int inited;
    if (!inited) {
        if (!gcry_check_version(GCRYPT_VERSION))
            return NULL;
        gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
        inited = 1;
    }
    return gcry_check_version(NULL);
}

static void gc_done(void *st)
{
    gc_state *s = st;
    if (!s)
        return;
    if (s->have_h)
        gcry_cipher_close(s->h);
    if (s->have_mh)
        gcry_mac_close(s->mh);
    free(s);
}

static void *gc_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    const speed_alg *a = c->alg;
    int algo = a->bits == 128 ? GCRY_CIPHER_AES128
               : a->bits == 192 ? GCRY_CIPHER_AES192
                                : GCRY_CIPHER_AES256;
    gc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    size_t klen = a->key_len;
    gcry_error_t e = 0;
    if (a->kind == SK_CMAC) {
        int m = GCRY_MAC_CMAC_AES; /* the AES key size follows the key */
        e = gcry_mac_open(&s->mh, m, 0, NULL);
        s->have_mh = !e;
        if (!e)
            e = gcry_mac_setkey(s->mh, key, klen);
    } else {
        int mode, flags = 0;
        switch (a->kind) {
        case SK_GCM:
        case SK_GMAC:
        case SK_RFC4106:
            mode = GCRY_CIPHER_MODE_GCM;
            break;
        case SK_CCM:
            mode = GCRY_CIPHER_MODE_CCM;
            break;
        case SK_CBCMAC:
            mode = GCRY_CIPHER_MODE_CBC;
            flags = GCRY_CIPHER_CBC_MAC;
            break;
        case SK_CTR:
            mode = GCRY_CIPHER_MODE_CTR;
            break;
        case SK_CBC:
            mode = GCRY_CIPHER_MODE_CBC;
            break;
        case SK_XTS:
            mode = GCRY_CIPHER_MODE_XTS;
            break;
        case SK_GCMSIV:
            mode = GCRY_CIPHER_MODE_GCM_SIV;
            break;
        case SK_OCB:
            mode = GCRY_CIPHER_MODE_OCB;
            break;
        case SK_EAX:
            mode = GCRY_CIPHER_MODE_EAX;
            break;
        case SK_SIV:
            mode = GCRY_CIPHER_MODE_SIV; /* key: K1 || K2, twice the AES key */
            break;
        case SK_KW:
            mode = GCRY_CIPHER_MODE_AESWRAP;
            break;
        case SK_KWP:
            mode = GCRY_CIPHER_MODE_AESWRAP;
            flags = GCRY_CIPHER_EXTENDED; /* RFC 5649 padding */
            break;
        case SK_CFB:
            mode = GCRY_CIPHER_MODE_CFB;
            break;
        case SK_CFB8:
            mode = GCRY_CIPHER_MODE_CFB8;
            break;
        case SK_OFB:
            mode = GCRY_CIPHER_MODE_OFB;
            break;
        case SK_CTS:
            mode = GCRY_CIPHER_MODE_CBC;
            flags = GCRY_CIPHER_CBC_CTS; /* always swaps the last two blocks: CS3 */
            break;
        default:
            mode = GCRY_CIPHER_MODE_ECB;
            break;
        }
        if (a->kind == SK_RFC4106) {
            klen -= 4;
            memcpy(s->salt, key + klen, 4);
        }
        e = gcry_cipher_open(&s->h, algo, mode, flags);
        s->have_h = !e;
        if (!e)
            e = gcry_cipher_setkey(s->h, key, klen);
    }
    if (e) {
        speed_why(why, whylen, "%s: %s", a->name, gcry_strerror(e));
        gc_done(s);
        return NULL;
    }
    return s;
}

static inline int one(gc_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    gcry_cipher_hd_t h = s->h;
    int dec = c->decrypt;
    gcry_error_t e = 0;
    size_t off, n;
    switch (c->alg->kind) {
    case SK_GCM:
    case SK_GMAC:
    case SK_RFC4106: {
        uint8_t nonce[12];
        const uint8_t *iv =
            c->alg->kind == SK_RFC4106 ? speed_rfc4106_nonce(nonce, s->salt, m->iv) : m->iv;
        e |= gcry_cipher_reset(h);
        e |= gcry_cipher_setiv(h, iv, 12);
        if (c->alg->kind == SK_GMAC) {
            for (off = 0; off < m->len; off += n) {
                n = speed_piece(m->len - off, m->update);
                e |= gcry_cipher_authenticate(h, m->in + off, n);
            }
        } else {
            if (m->aad_len)
                e |= gcry_cipher_authenticate(h, m->aad, m->aad_len);
            for (off = 0; off < m->len; off += n) {
                n = speed_piece(m->len - off, m->update);
                if (off + n == m->len)
                    e |= gcry_cipher_final(h);
                e |= dec ? gcry_cipher_decrypt(h, m->out + off, n, m->in + off, n)
                         : gcry_cipher_encrypt(h, m->out + off, n, m->in + off, n);
            }
        }
        e |= dec ? gcry_cipher_checktag(h, m->tag, 16) : gcry_cipher_gettag(h, m->tag, 16);
        return e != 0;
    }
    case SK_CCM: {
        uint64_t p[3] = {m->len, m->aad_len, 16};
        e |= gcry_cipher_reset(h);
        e |= gcry_cipher_setiv(h, m->iv, 12);
        e |= gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
        if (m->aad_len)
            e |= gcry_cipher_authenticate(h, m->aad, m->aad_len);
        e |= dec ? gcry_cipher_decrypt(h, m->out, m->len, m->in, m->len)
                 : gcry_cipher_encrypt(h, m->out, m->len, m->in, m->len);
        e |= dec ? gcry_cipher_checktag(h, m->tag, 16) : gcry_cipher_gettag(h, m->tag, 16);
        return e != 0;
    }
    case SK_CMAC: {
        uint8_t t[16];
        size_t tl = 16;
        e |= gcry_mac_reset(s->mh);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            e |= gcry_mac_write(s->mh, m->in + off, n);
        }
        if (dec)
            return (e | gcry_mac_verify(s->mh, m->tag, 16)) != 0;
        e |= gcry_mac_read(s->mh, t, &tl);
        memcpy(m->tag, t, 16);
        return e != 0;
    }
    case SK_CBCMAC: {
        uint8_t t[16];
        e |= gcry_cipher_reset(h); /* zero IV */
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            e |= gcry_cipher_encrypt(h, t, 16, m->in + off, n);
        }
        if (dec)
            return e != 0 || speed_ct_differ(t, m->tag, 16);
        memcpy(m->tag, t, 16);
        return e != 0;
    }
    case SK_GCMSIV:
    case SK_SIV:
        /* S2V's strings in RFC 5297 6 order: the AAD, then the nonce
         * (setiv); GCM-SIV takes the nonce first.  Both need the tag
         * before decrypting, which then checks it. */
        e |= gcry_cipher_reset(h);
        if (c->alg->kind == SK_GCMSIV)
            e |= gcry_cipher_setiv(h, m->iv, 12);
        e |= gcry_cipher_authenticate(h, m->aad, m->aad_len);
        if (c->alg->kind == SK_SIV)
            e |= gcry_cipher_setiv(h, m->iv, 12);
        if (dec) {
            e |= gcry_cipher_set_decryption_tag(h, m->tag, 16);
            return (e | gcry_cipher_decrypt(h, m->out, m->len, m->in, m->len)) != 0;
        }
        e |= gcry_cipher_encrypt(h, m->out, m->len, m->in, m->len);
        return (e | gcry_cipher_gettag(h, m->tag, 16)) != 0;
    case SK_OCB:
    case SK_EAX:
        e |= gcry_cipher_reset(h);
        e |= gcry_cipher_setiv(h, m->iv, 12);
        if (m->aad_len)
            e |= gcry_cipher_authenticate(h, m->aad, m->aad_len);
        e |= gcry_cipher_final(h); /* OCB: the one data call is the last */
        e |= dec ? gcry_cipher_decrypt(h, m->out, m->len, m->in, m->len)
                 : gcry_cipher_encrypt(h, m->out, m->len, m->in, m->len);
        e |= dec ? gcry_cipher_checktag(h, m->tag, 16) : gcry_cipher_gettag(h, m->tag, 16);
        return e != 0;
    case SK_KW:
    case SK_KWP: {
        /* the default IV (no setiv); unwrapping KWP writes the padded key */
        size_t wl = speed_out_len(c->alg, 0, m->len);
        e |= dec ? gcry_cipher_decrypt(h, m->out, wl - 8, m->in, wl)
                 : gcry_cipher_encrypt(h, m->out, wl, m->in, m->len);
        return e != 0;
    }
    case SK_CTR:
        e |= gcry_cipher_setctr(h, m->iv, 16);
        break;
    case SK_CBC:
    case SK_XTS:
    case SK_CFB:
    case SK_CFB8:
    case SK_OFB:
    case SK_CTS:
        e |= gcry_cipher_setiv(h, m->iv, 16);
        break;
    default:
        break;
    }
    /* CTR, CBC, XTS, ECB, CFB, CFB-8, OFB, CBC-CTS (one piece: no streaming row) */
    for (off = 0; off < m->len; off += n) {
        n = speed_piece(m->len - off, m->update);
        e |= dec ? gcry_cipher_decrypt(h, m->out + off, n, m->in + off, n)
                 : gcry_cipher_encrypt(h, m->out + off, n, m->in + off, n);
    }
    return e != 0;
}

SPEED_RUN_LOOP(gc_run, one)

const speed_peer speed_peer_gcrypt = {"libgcrypt", gc_version, gc_setup, gc_run, gc_done, 0};
