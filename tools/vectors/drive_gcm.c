/*
 * drive_gcm.c - the GCM family's drivers (drive.h): GCM (SP 800-38D), GMAC,
 * RFC 4106 and RFC 4543.  A 12-byte GCM IV with an ESP tag length is also
 * run as RFC 4106 (salt = the IV's first 4 bytes, RFC 4106 section 4), an
 * RFC 4106 case as GCM with nonce = salt || IV, an RFC 4543 case as GMAC
 * over AAD || IV || payload (RFC 4543 section 3.5).
 */
#include <stdlib.h>

#include "drive_internal.h"

/* ---- GCM ------------------------------------------------------------------ */

static aeskit_status gcm_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_gcm_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static aeskit_status gcm_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_gcm_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static const akd_aead_ops gcm_ops = {"gcm", gcm_seal_op, gcm_open_op};

/* Streams c through start / update_aad / update / finish(_verify) in split
 * pattern p: seals in (c->msg_len bytes) into out (tag into tag_out) or
 * opens in (c->ct_len bytes) against tag. */
static aeskit_status gcm_stream(akd_ctx *x, const aeskit_gcm_key *gk, const akd_case *c, size_t p,
                                int open, const uint8_t *in, const uint8_t *tag, uint8_t *out,
                                uint8_t *tag_out)
{
    aeskit_gcm_ctx g;
    size_t n = open ? c->ct_len : c->msg_len;
    aeskit_status st = aeskit_gcm_start(&g, gk, open ? AESKIT_OPEN : AESKIT_SEAL, c->iv, c->iv_len);
    for (size_t off = 0; st == AESKIT_OK && off < c->aad_len;) {
        size_t m = akd_chunk(x, p, c->aad_len - off);
        st = aeskit_gcm_update_aad(&g, c->aad + off, m);
        off += m;
    }
    for (size_t off = 0; st == AESKIT_OK && off < n;) {
        size_t m = akd_chunk(x, p, n - off);
        st = aeskit_gcm_update(&g, out + off, in + off, m);
        off += m;
    }
    if (st == AESKIT_OK)
        st = open ? aeskit_gcm_finish_verify(&g, tag, c->tag_len)
                  : aeskit_gcm_finish(&g, tag_out, c->tag_len);
    aeskit_gcm_ctx_wipe(&g);
    return st;
}

static void rfc4106_core(akd_ctx *x, const akd_case *c);

/* with_rfc4106: also run an ESP-shaped case (12-byte IV, tag 8/12/16) as
 * RFC 4106. */
static void gcm_core(akd_ctx *x, const akd_case *c, int with_rfc4106)
{
    static aeskit_gcm_key gk;
    uint8_t t[16];
    aeskit_status st = aeskit_gcm_init_backend(&gk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(x, st, "gcm_init");
        return;
    }
    akd_check_backend(x, aeskit_gcm_backend(&gk));
    if (c->expect == AKD_INVALID) {
        akd_aead_invalid(x, c, &gcm_ops, &gk);
        akd_check(x, gcm_stream(x, &gk, c, AKD_NPATTERNS - 2, 1, c->ct, c->tag, x->out, NULL) !=
                         AESKIT_OK,
                  "invalid case accepted by streaming gcm_finish_verify");
        aeskit_gcm_wipe(&gk);
        return;
    }
    if (akd_aead_valid(x, c, &gcm_ops, &gk)) {
        aeskit_gcm_wipe(&gk);
        return;
    }
    size_t n = c->msg_len, tl = c->tag_len;
    if (n == 0) {
        akd_status(x, aeskit_gmac(&gk, t, tl, c->iv, c->iv_len, c->aad, c->aad_len), AESKIT_OK, "gmac");
        akd_check(x, akd_eq(t, c->tag, tl), "gmac of an empty-message case: wrong tag");
        akd_status(x, aeskit_gmac_verify(&gk, c->tag, tl, c->iv, c->iv_len, c->aad, c->aad_len),
                   AESKIT_OK, "gmac_verify");
    }
    for (size_t p = 0; p < AKD_NPATTERNS; p++) {
        if (akd_pattern_skipped(p, n > c->aad_len ? n : c->aad_len))
            continue;
        uint8_t *in, *out;
        akd_layout(x, c->msg, n, &in, &out);
        st = gcm_stream(x, &gk, c, p, 0, in, NULL, out, t);
        akd_check(x, st == AESKIT_OK && akd_eq(out, c->ct, n) && akd_eq(t, c->tag, tl),
                  "streaming gcm seal (step %s, in+%zu out+%zu%s): %s", akd_pattern_name(p),
                  (size_t)(in - x->out2), out == in ? 0 : (size_t)(out - x->out),
                  out == in ? " in-place" : "", st ? aeskit_strerror(st) : "wrong ciphertext or tag");
        akd_layout(x, c->ct, n, &in, &out);
        st = gcm_stream(x, &gk, c, p, 1, in, c->tag, out, NULL);
        akd_check(x, st == AESKIT_OK && akd_eq(out, c->msg, n),
                  "streaming gcm open (step %s, in+%zu out+%zu%s): %s", akd_pattern_name(p),
                  (size_t)(in - x->out2), out == in ? 0 : (size_t)(out - x->out),
                  out == in ? " in-place" : "", st ? aeskit_strerror(st) : "wrong plaintext");
    }
    /* streaming verification of flipped tag bits */
    memcpy(t, c->tag, tl);
    for (size_t b = akd_bit_first(x, tl); b < 8 * tl; b = akd_bit_next(x, b, tl)) {
        akd_bit_flip(t, b);
        st = gcm_stream(x, &gk, c, AKD_NPATTERNS - 2, 1, c->ct, t, x->out, NULL);
        akd_check(x, st == AESKIT_ERR_AUTH, "streaming gcm open: flipped tag bit %zu: %s", b,
                  aeskit_strerror(st));
        akd_bit_flip(t, b);
    }
    aeskit_gcm_wipe(&gk);
    /* RFC 4106 with the same packet: salt = the IV's first 4 bytes */
    if (with_rfc4106 && c->iv_len == 12 && (tl == 8 || tl == 12 || tl == 16) && c->key_len <= 32) {
        uint8_t k4[36];
        memcpy(k4, c->key, c->key_len);
        memcpy(k4 + c->key_len, c->iv, 4);
        akd_case d = *c;
        d.key = k4;
        d.key_len = c->key_len + 4;
        d.iv = c->iv + 4;
        d.iv_len = 8;
        rfc4106_core(x, &d);
    }
}

int akd_gcm(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0)
        gcm_core(&x, c, 1);
    return akd_end(&x);
}

/* ---- RFC 4106 --------------------------------------------------------------- */

static aeskit_status rfc4106_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                     uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_rfc4106_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, aad, c->aad_len);
}
static aeskit_status rfc4106_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                     uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_rfc4106_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, aad, c->aad_len);
}
static const akd_aead_ops rfc4106_ops = {"rfc4106", rfc4106_seal_op, rfc4106_open_op};

static void rfc4106_core(akd_ctx *x, const akd_case *c)
{
    static aeskit_rfc4106_key rk;
    if (!akd_check(x, c->iv_len == 8 || c->expect != AKD_VALID,
                   "malformed case: RFC 4106 takes an 8-byte IV, not %zu", c->iv_len) ||
        c->iv_len != 8)
        return;
    aeskit_status st = aeskit_rfc4106_init_backend(&rk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(x, st, "rfc4106_init");
        return;
    }
    akd_check_backend(x, aeskit_rfc4106_backend(&rk));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(x, c, &rfc4106_ops, &rk);
    else
        akd_aead_valid(x, c, &rfc4106_ops, &rk);
    aeskit_rfc4106_wipe(&rk);
}

int akd_rfc4106(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0) {
        rfc4106_core(&x, c);
        /* the same packet through GCM: nonce = salt || IV */
        if (c->expect != AKD_INVALID && c->iv_len == 8 && c->key_len >= 20 && c->key_len <= 36) {
            uint8_t nonce[12];
            memcpy(nonce, c->key + c->key_len - 4, 4);
            memcpy(nonce + 4, c->iv, 8);
            akd_case d = *c;
            d.key_len = c->key_len - 4;
            d.iv = nonce;
            d.iv_len = 12;
            gcm_core(&x, &d, 0);
        }
    }
    return akd_end(&x);
}

/* ---- GMAC ------------------------------------------------------------------- */

/* Streams the AAD of c into a GCM open context in pattern p and verifies tag. */
static aeskit_status gmac_stream(akd_ctx *x, const aeskit_gcm_key *gk, const akd_case *c, size_t p,
                                 const uint8_t *aad, const uint8_t *tag)
{
    aeskit_gcm_ctx g;
    aeskit_status st = aeskit_gcm_start(&g, gk, AESKIT_OPEN, c->iv, c->iv_len);
    for (size_t off = 0; st == AESKIT_OK && off < c->aad_len;) {
        size_t m = akd_chunk(x, p, c->aad_len - off);
        st = aeskit_gcm_update_aad(&g, aad + off, m);
        off += m;
    }
    if (st == AESKIT_OK)
        st = aeskit_gcm_finish_verify(&g, tag, c->tag_len);
    aeskit_gcm_ctx_wipe(&g);
    return st;
}

static void gmac_core(akd_ctx *x, const akd_case *c)
{
    static aeskit_gcm_key gk;
    uint8_t t[16];
    size_t tl = c->tag_len;
    aeskit_status st = aeskit_gcm_init_backend(&gk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(x, st, "gcm_init");
        return;
    }
    akd_check_backend(x, aeskit_gcm_backend(&gk));
    st = aeskit_gmac_verify(&gk, c->tag, tl, c->iv, c->iv_len, c->aad, c->aad_len);
    if (c->expect == AKD_INVALID) {
        akd_check(x, st != AESKIT_OK, "invalid case accepted by gmac_verify");
        akd_check(x, gmac_stream(x, &gk, c, AKD_NPATTERNS - 2, c->aad, c->tag) != AESKIT_OK,
                  "invalid case accepted by streaming gcm_finish_verify");
    } else if (st != AESKIT_OK) {
        akd_check(x, c->expect == AKD_ACCEPTABLE, "gmac_verify refused a valid case: %s",
                  aeskit_strerror(st));
    } else if (akd_check(x, tl >= 1 && tl <= 16, "malformed case: tag %zu bytes", tl)) {
        akd_status(x, aeskit_gmac(&gk, t, tl, c->iv, c->iv_len, c->aad, c->aad_len), AESKIT_OK, "gmac");
        akd_check(x, akd_eq(t, c->tag, tl), "gmac: wrong tag");
        akd_status(x, aeskit_gcm_seal(&gk, NULL, t, tl, NULL, 0, c->iv, c->iv_len, c->aad, c->aad_len),
                   AESKIT_OK, "gcm_seal of the AAD alone");
        akd_check(x, akd_eq(t, c->tag, tl), "gcm_seal of the AAD alone: wrong tag");
        for (size_t p = 0; p < AKD_NPATTERNS; p++) {
            if (akd_pattern_skipped(p, c->aad_len))
                continue;
            st = gmac_stream(x, &gk, c, p, c->aad, c->tag);
            akd_check(x, st == AESKIT_OK, "streaming GMAC verify (step %s): %s",
                      akd_pattern_name(p), aeskit_strerror(st));
        }
        memcpy(t, c->tag, tl);
        for (size_t b = akd_bit_first(x, tl); b < 8 * tl; b = akd_bit_next(x, b, tl)) {
            akd_bit_flip(t, b);
            st = aeskit_gmac_verify(&gk, t, tl, c->iv, c->iv_len, c->aad, c->aad_len);
            akd_check(x, st == AESKIT_ERR_AUTH, "gmac_verify: flipped tag bit %zu: %s", b,
                      aeskit_strerror(st));
            st = gmac_stream(x, &gk, c, AKD_NPATTERNS - 2, c->aad, t);
            akd_check(x, st == AESKIT_ERR_AUTH, "streaming GMAC verify: flipped tag bit %zu: %s", b,
                      aeskit_strerror(st));
            akd_bit_flip(t, b);
        }
        uint8_t *a = malloc(c->aad_len + c->iv_len + 1);
        if (akd_check(x, a != NULL, "out of memory")) {
            akd_copy(a, c->aad, c->aad_len);
            for (size_t b = akd_bit_first(x, c->aad_len); b < 8 * c->aad_len;
                 b = akd_bit_next(x, b, c->aad_len)) {
                akd_bit_flip(a, b);
                st = aeskit_gmac_verify(&gk, c->tag, tl, c->iv, c->iv_len, a, c->aad_len);
                akd_check(x, st == AESKIT_ERR_AUTH, "gmac_verify: flipped aad bit %zu: %s", b,
                          aeskit_strerror(st));
                akd_bit_flip(a, b);
            }
            uint8_t *iv = a + c->aad_len;
            akd_copy(iv, c->iv, c->iv_len);
            for (size_t b = akd_bit_first(x, c->iv_len); b < 8 * c->iv_len;
                 b = akd_bit_next(x, b, c->iv_len)) {
                akd_bit_flip(iv, b);
                st = aeskit_gmac_verify(&gk, c->tag, tl, iv, c->iv_len, c->aad, c->aad_len);
                akd_check(x, st == AESKIT_ERR_AUTH, "gmac_verify: flipped iv bit %zu: %s", b,
                          aeskit_strerror(st));
                akd_bit_flip(iv, b);
            }
        }
        free(a);
    }
    aeskit_gcm_wipe(&gk);
}

int akd_gmac(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0)
        gmac_core(&x, c);
    return akd_end(&x);
}

/* ---- RFC 4543 ---------------------------------------------------------------- */

int akd_rfc4543(const akd_case *c, akd_report *r)
{
    static aeskit_rfc4106_key rk;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    size_t n = c->msg_len;
    if (!akd_check(&x, c->iv_len == 8 && c->tag_len == 16 && c->key_len >= 4,
                   "malformed case: RFC 4543 takes an 8-byte IV and a 16-byte ICV"))
        return akd_end(&x);
    aeskit_status st = aeskit_rfc4106_init_backend(&rk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "rfc4106_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_rfc4106_backend(&rk));
    st = aeskit_rfc4543_verify(&rk, c->msg, n, c->tag, c->iv, c->aad, c->aad_len);
    if (c->expect == AKD_INVALID) {
        akd_check(&x, st != AESKIT_OK, "invalid case accepted by rfc4543_verify");
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "rfc4543_verify refused a valid case: %s",
                  aeskit_strerror(st));
    } else {
        uint8_t t[16], iv[8];
        akd_status(&x, aeskit_rfc4543_mac(&rk, t, c->msg, n, c->iv, c->aad, c->aad_len), AESKIT_OK,
                   "rfc4543_mac");
        akd_check(&x, akd_eq(t, c->tag, 16), "rfc4543_mac: wrong ICV");
        /* tamper: flipped bits of the ICV, the IV, the payload, the AAD */
        uint8_t *a = malloc(c->aad_len + 1);
        if (akd_check(&x, a != NULL, "out of memory")) {
            memcpy(t, c->tag, 16);
            memcpy(iv, c->iv, 8);
            akd_copy(x.out, c->msg, n);
            akd_copy(a, c->aad, c->aad_len);
            struct {
                uint8_t *p;
                size_t n;
                const char *name;
            } fields[4] = {{t, 16, "ICV"}, {iv, 8, "IV"}, {x.out, n, "payload"},
                           {a, c->aad_len, "aad"}};
            for (size_t f = 0; f < 4; f++)
                for (size_t b = akd_bit_first(&x, fields[f].n); b < 8 * fields[f].n;
                     b = akd_bit_next(&x, b, fields[f].n)) {
                    akd_bit_flip(fields[f].p, b);
                    st = aeskit_rfc4543_verify(&rk, x.out, n, t, iv, a, c->aad_len);
                    akd_check(&x, st == AESKIT_ERR_AUTH, "rfc4543_verify: flipped %s bit %zu: %s",
                              fields[f].name, b, aeskit_strerror(st));
                    akd_bit_flip(fields[f].p, b);
                }
        }
        free(a);
        /* GMAC over AAD || IV || payload, nonce = salt || IV */
        uint8_t nonce[12], *auth = malloc(c->aad_len + 8 + n + 1);
        if (akd_check(&x, auth != NULL, "out of memory")) {
            memcpy(nonce, c->key + c->key_len - 4, 4);
            memcpy(nonce + 4, c->iv, 8);
            akd_copy(auth, c->aad, c->aad_len);
            memcpy(auth + c->aad_len, c->iv, 8);
            akd_copy(auth + c->aad_len + 8, c->msg, n);
            akd_case d = *c;
            d.key_len = c->key_len - 4;
            d.iv = nonce;
            d.iv_len = 12;
            d.aad = auth;
            d.aad_len = c->aad_len + 8 + n;
            d.msg = NULL;
            d.msg_len = 0;
            gmac_core(&x, &d);
        }
        free(auth);
    }
    aeskit_rfc4106_wipe(&rk);
    return akd_end(&x);
}
