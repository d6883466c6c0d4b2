/*
 * kat_run.c - checks the known-answer vectors of kat_vectors.c against
 * aeskit under one backend: the one-shot functions to the known answer and
 * back, streaming in several split patterns where the mode streams,
 * in-place, and a flipped tag bit refused with the output wiped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "kat_vectors.h"

struct run {
    const struct kat_vector *v;
    FILE *log;
    unsigned failures;
};

static void fail(struct run *r, const char *what, int status)
{
    r->failures++;
    if (r->log && r->failures <= 8) {
        fprintf(r->log, "  FAIL %s [%s]: %s", r->v->source, kat_mode_name(r->v->mode), what);
        if (status)
            fprintf(r->log, " (status %d: %s)", status, aeskit_strerror(status));
        fputc('\n', r->log);
    }
}

#define EXPECT_OK(r, st, what)                                                  \
    do {                                                                        \
        int st_ = (st);                                                         \
        if (st_ != AESKIT_OK)                                                   \
            fail(r, what, st_);                                                 \
    } while (0)
#define EXPECT_EQ(r, a, b, n, what)                                             \
    do {                                                                        \
        if (memcmp((a), (b), (n)) != 0)                                         \
            fail(r, what " gave the wrong bytes", 0);                           \
    } while (0)

/* Split patterns for the streaming checks: fixed steps around the block
 * size, and a pseudo-random one (seeded, so a failure reproduces). */
static const size_t split_steps[] = {1, 7, 15, 16, 17, 255, 0 /* random */};
#define NSPLITS (sizeof split_steps / sizeof split_steps[0])

static size_t next_step(size_t step, uint64_t *rng)
{
    if (step)
        return step;
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return (size_t)(*rng % 40);
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void run_aes(struct run *r, const char *be, const uint8_t *key, size_t kl,
                    const uint8_t *pt, size_t pl, const uint8_t *ct)
{
    aeskit_aes_key k;
    uint8_t b[16];
    int st = aeskit_aes_init_backend(&k, key, kl, be);
    if (st != AESKIT_OK || pl != 16) {
        fail(r, "aes init", st);
        return;
    }
    EXPECT_OK(r, aeskit_aes_encrypt_block(&k, b, pt), "encrypt_block");
    EXPECT_EQ(r, b, ct, 16, "encrypt_block");
    EXPECT_OK(r, aeskit_aes_decrypt_block(&k, b, ct), "decrypt_block");
    EXPECT_EQ(r, b, pt, 16, "decrypt_block");
    memcpy(b, pt, 16);
    EXPECT_OK(r, aeskit_aes_encrypt_block(&k, b, b), "encrypt_block in-place");
    EXPECT_EQ(r, b, ct, 16, "encrypt_block in-place");
    EXPECT_OK(r, aeskit_aes_decrypt_block(&k, b, b), "decrypt_block in-place");
    EXPECT_EQ(r, b, pt, 16, "decrypt_block in-place");
    aeskit_aes_wipe(&k);
}

static void run_ecb_cbc(struct run *r, const char *be, int cbc, const uint8_t *key, size_t kl,
                        const uint8_t *iv, const uint8_t *pt, size_t pl, const uint8_t *ct,
                        uint8_t *buf)
{
    aeskit_aes_key k;
    uint8_t chain[16];
    int st = aeskit_aes_init_backend(&k, key, kl, be);
    if (st != AESKIT_OK) {
        fail(r, "aes init", st);
        return;
    }
    for (int inplace = 0; inplace < 2; inplace++) {
        uint8_t *out = buf + pl; /* out-of-place: the second half of buf */
        const uint8_t *in = pt;
        if (inplace) {
            memcpy(buf, pt, pl);
            out = buf;
            in = buf;
        }
        if (cbc) {
            memcpy(chain, iv, 16);
            EXPECT_OK(r, aeskit_cbc_encrypt(&k, out, in, pl, chain), "cbc_encrypt");
            if (pl)
                EXPECT_EQ(r, chain, ct + pl - 16, 16, "cbc_encrypt chaining value");
        } else {
            EXPECT_OK(r, aeskit_ecb_encrypt(&k, out, in, pl), "ecb_encrypt");
        }
        EXPECT_EQ(r, out, ct, pl, "encrypt");
        if (inplace)
            in = out;
        else {
            memcpy(buf, ct, pl);
            in = buf;
        }
        if (cbc) {
            memcpy(chain, iv, 16);
            EXPECT_OK(r, aeskit_cbc_decrypt(&k, out, in, pl, chain), "cbc_decrypt");
        } else {
            EXPECT_OK(r, aeskit_ecb_decrypt(&k, out, in, pl), "ecb_decrypt");
        }
        EXPECT_EQ(r, out, pt, pl, "decrypt");
    }
    if (cbc) {
        /* CBC one block per call, the chaining value carried by iv. */
        memcpy(chain, iv, 16);
        for (size_t off = 0; off < pl; off += 16)
            EXPECT_OK(r, aeskit_cbc_encrypt(&k, buf + off, pt + off, 16, chain), "cbc_encrypt blockwise");
        EXPECT_EQ(r, buf, ct, pl, "cbc_encrypt blockwise");
        memcpy(chain, iv, 16);
        for (size_t off = 0; off < pl; off += 16)
            EXPECT_OK(r, aeskit_cbc_decrypt(&k, buf + off, ct + off, 16, chain), "cbc_decrypt blockwise");
        EXPECT_EQ(r, buf, pt, pl, "cbc_decrypt blockwise");
    }
    aeskit_aes_wipe(&k);
}

static void run_ctr(struct run *r, const char *be, const uint8_t *key, size_t kl,
                    const uint8_t *iv, size_t ivl, const uint8_t *pt, size_t pl, const uint8_t *ct,
                    uint8_t *buf)
{
    aeskit_aes_key k;
    aeskit_ctr_ctx c;
    int st = aeskit_aes_init_backend(&k, key, kl, be);
    if (st != AESKIT_OK || ivl != 16) {
        fail(r, "aes init", st);
        return;
    }
    EXPECT_OK(r, aeskit_ctr_crypt(&k, buf, pt, pl, iv), "ctr_crypt");
    EXPECT_EQ(r, buf, ct, pl, "ctr_crypt");
    EXPECT_OK(r, aeskit_ctr_crypt(&k, buf, buf, pl, iv), "ctr_crypt in-place (decrypt)");
    EXPECT_EQ(r, buf, pt, pl, "ctr_crypt in-place (decrypt)");
    uint64_t rng = 0x243f6a8885a308d3ull;
    for (size_t s = 0; s < NSPLITS; s++) {
        EXPECT_OK(r, aeskit_ctr_start(&c, &k, iv), "ctr_start");
        for (size_t off = 0; off < pl;) {
            size_t n = next_step(split_steps[s], &rng);
            if (n > pl - off)
                n = pl - off;
            EXPECT_OK(r, aeskit_ctr_update(&c, buf + off, pt + off, n), "ctr_update");
            off += n;
        }
        EXPECT_EQ(r, buf, ct, pl, "ctr streaming");
        aeskit_ctr_ctx_wipe(&c);
    }
    aeskit_aes_wipe(&k);
}

/* GCM proper, or RFC 4106 when rfc4106 is set (key = AES key || salt,
 * iv = the 8-byte explicit IV). */
static void run_gcm(struct run *r, const char *be, int rfc4106, const uint8_t *key, size_t kl,
                    const uint8_t *iv, size_t ivl, const uint8_t *aad, size_t al,
                    const uint8_t *pt, size_t pl, const uint8_t *ct, const uint8_t *tag, size_t tl,
                    uint8_t *buf)
{
    static aeskit_gcm_key gk;
    static aeskit_rfc4106_key rk;
    uint8_t t[16], nonce[12];
    int st;
    if (rfc4106) {
        if (ivl != 8 || kl < 4) {
            fail(r, "bad RFC 4106 vector", 0);
            return;
        }
        st = aeskit_rfc4106_init_backend(&rk, key, kl, be);
        if (st != AESKIT_OK) {
            fail(r, "rfc4106 init", st);
            return;
        }
        EXPECT_OK(r, aeskit_rfc4106_seal(&rk, buf, t, tl, pt, pl, iv, aad, al), "rfc4106_seal");
        EXPECT_EQ(r, buf, ct, pl, "rfc4106_seal ciphertext");
        EXPECT_EQ(r, t, tag, tl, "rfc4106_seal tag");
        EXPECT_OK(r, aeskit_rfc4106_open(&rk, buf, buf, pl, tag, tl, iv, aad, al), "rfc4106_open in-place");
        EXPECT_EQ(r, buf, pt, pl, "rfc4106_open in-place");
        memcpy(t, tag, tl);
        t[tl - 1] ^= 0x80;
        st = aeskit_rfc4106_open(&rk, buf, ct, pl, t, tl, iv, aad, al);
        if (st != AESKIT_ERR_AUTH)
            fail(r, "rfc4106_open accepted a flipped tag bit", st);
        else if (!all_zero(buf, pl))
            fail(r, "rfc4106_open did not wipe the output on failure", st);
        aeskit_rfc4106_wipe(&rk);
        /* The same packet through plain GCM: nonce = salt || iv. */
        memcpy(nonce, key + kl - 4, 4);
        memcpy(nonce + 4, iv, 8);
        iv = nonce;
        ivl = 12;
        kl -= 4;
    }
    st = aeskit_gcm_init_backend(&gk, key, kl, be);
    if (st != AESKIT_OK) {
        fail(r, "gcm init", st);
        return;
    }
    EXPECT_OK(r, aeskit_gcm_seal(&gk, buf, t, tl, pt, pl, iv, ivl, aad, al), "gcm_seal");
    EXPECT_EQ(r, buf, ct, pl, "gcm_seal ciphertext");
    EXPECT_EQ(r, t, tag, tl, "gcm_seal tag");
    memset(buf, 0xa5, pl);
    EXPECT_OK(r, aeskit_gcm_open(&gk, buf, ct, pl, tag, tl, iv, ivl, aad, al), "gcm_open");
    EXPECT_EQ(r, buf, pt, pl, "gcm_open");
    /* in-place both ways */
    memcpy(buf, pt, pl);
    EXPECT_OK(r, aeskit_gcm_seal(&gk, buf, t, tl, buf, pl, iv, ivl, aad, al), "gcm_seal in-place");
    EXPECT_EQ(r, buf, ct, pl, "gcm_seal in-place ciphertext");
    EXPECT_EQ(r, t, tag, tl, "gcm_seal in-place tag");
    EXPECT_OK(r, aeskit_gcm_open(&gk, buf, buf, pl, tag, tl, iv, ivl, aad, al), "gcm_open in-place");
    EXPECT_EQ(r, buf, pt, pl, "gcm_open in-place");
    /* a flipped tag bit: refused, out-of-place output zeroed, in-place
     * buffer restored to the ciphertext */
    memcpy(t, tag, tl);
    t[0] ^= 0x01;
    memset(buf, 0xa5, pl);
    st = aeskit_gcm_open(&gk, buf, ct, pl, t, tl, iv, ivl, aad, al);
    if (st != AESKIT_ERR_AUTH)
        fail(r, "gcm_open accepted a flipped tag bit", st);
    else if (!all_zero(buf, pl))
        fail(r, "gcm_open did not zero the output on failure", st);
    memcpy(buf, ct, pl);
    st = aeskit_gcm_open(&gk, buf, buf, pl, t, tl, iv, ivl, aad, al);
    if (st != AESKIT_ERR_AUTH)
        fail(r, "gcm_open in-place accepted a flipped tag bit", st);
    else if (memcmp(buf, ct, pl) != 0)
        fail(r, "gcm_open in-place did not restore the ciphertext on failure", st);
    if (pl == 0) {
        EXPECT_OK(r, aeskit_gmac(&gk, t, tl, iv, ivl, aad, al), "gmac");
        EXPECT_EQ(r, t, tag, tl, "gmac");
        EXPECT_OK(r, aeskit_gmac_verify(&gk, tag, tl, iv, ivl, aad, al), "gmac_verify");
    }
    /* streaming: AAD and text both split with each pattern */
    uint64_t rng = 0x13198a2e03707344ull;
    for (size_t s = 0; s < NSPLITS; s++) {
        for (int dec = 0; dec < 2; dec++) {
            aeskit_gcm_ctx c;
            const uint8_t *in = dec ? ct : pt;
            EXPECT_OK(r, aeskit_gcm_start(&c, &gk, dec ? AESKIT_OPEN : AESKIT_SEAL, iv, ivl), "gcm_start");
            for (size_t off = 0; off < al;) {
                size_t n = next_step(split_steps[s], &rng);
                if (n > al - off)
                    n = al - off;
                EXPECT_OK(r, aeskit_gcm_update_aad(&c, aad + off, n), "gcm_update_aad");
                off += n;
            }
            for (size_t off = 0; off < pl;) {
                size_t n = next_step(split_steps[s], &rng);
                if (n > pl - off)
                    n = pl - off;
                EXPECT_OK(r, aeskit_gcm_update(&c, buf + off, in + off, n),
                          dec ? "gcm_update (open)" : "gcm_update (seal)");
                off += n;
            }
            if (dec) {
                EXPECT_OK(r, aeskit_gcm_finish_verify(&c, tag, tl), "gcm_finish_verify (streaming)");
                EXPECT_EQ(r, buf, pt, pl, "gcm streaming decrypt");
            } else {
                EXPECT_OK(r, aeskit_gcm_finish(&c, t, tl), "gcm_finish (streaming)");
                EXPECT_EQ(r, buf, ct, pl, "gcm streaming encrypt");
                EXPECT_EQ(r, t, tag, tl, "gcm streaming tag");
            }
            aeskit_gcm_ctx_wipe(&c);
        }
    }
    aeskit_gcm_wipe(&gk);
}

static void run_cmac(struct run *r, const char *be, const uint8_t *key, size_t kl,
                     const uint8_t *msg, size_t ml, const uint8_t *tag, size_t tl)
{
    static aeskit_cmac_key ck;
    aeskit_cmac_ctx c;
    uint8_t t[16];
    int st = aeskit_cmac_init_backend(&ck, key, kl, be);
    if (st != AESKIT_OK) {
        fail(r, "cmac init", st);
        return;
    }
    EXPECT_OK(r, aeskit_cmac(&ck, t, tl, msg, ml), "cmac");
    EXPECT_EQ(r, t, tag, tl, "cmac");
    EXPECT_OK(r, aeskit_cmac_verify(&ck, msg, ml, tag, tl), "cmac_verify");
    memcpy(t, tag, tl);
    t[tl / 2] ^= 0x10;
    st = aeskit_cmac_verify(&ck, msg, ml, t, tl);
    if (st != AESKIT_ERR_AUTH)
        fail(r, "cmac_verify accepted a flipped tag bit", st);
    uint64_t rng = 0xa4093822299f31d0ull;
    for (size_t s = 0; s < NSPLITS; s++) {
        for (int verify = 0; verify < 2; verify++) {
            EXPECT_OK(r, aeskit_cmac_start(&c, &ck), "cmac_start");
            for (size_t off = 0; off < ml;) {
                size_t n = next_step(split_steps[s], &rng);
                if (n > ml - off)
                    n = ml - off;
                EXPECT_OK(r, aeskit_cmac_update(&c, msg + off, n), "cmac_update");
                off += n;
            }
            if (verify) {
                EXPECT_OK(r, aeskit_cmac_finish_verify(&c, tag, tl), "cmac_finish_verify");
            } else {
                EXPECT_OK(r, aeskit_cmac_finish(&c, t, tl), "cmac_finish");
                EXPECT_EQ(r, t, tag, tl, "cmac streaming");
            }
            aeskit_cmac_ctx_wipe(&c);
        }
    }
    aeskit_cmac_wipe(&ck);
}

static void run_ccm(struct run *r, const char *be, const uint8_t *key, size_t kl,
                    const uint8_t *n, size_t nl, const uint8_t *aad, size_t al, const uint8_t *pt,
                    size_t pl, const uint8_t *ct, const uint8_t *tag, size_t tl, uint8_t *buf)
{
    aeskit_aes_key k;
    uint8_t t[16];
    int st = aeskit_aes_init_backend(&k, key, kl, be);
    if (st != AESKIT_OK) {
        fail(r, "aes init", st);
        return;
    }
    EXPECT_OK(r, aeskit_ccm_seal(&k, buf, t, tl, pt, pl, n, nl, aad, al), "ccm_seal");
    EXPECT_EQ(r, buf, ct, pl, "ccm_seal ciphertext");
    EXPECT_EQ(r, t, tag, tl, "ccm_seal tag");
    memset(buf, 0xa5, pl);
    EXPECT_OK(r, aeskit_ccm_open(&k, buf, ct, pl, tag, tl, n, nl, aad, al), "ccm_open");
    EXPECT_EQ(r, buf, pt, pl, "ccm_open");
    memcpy(buf, pt, pl);
    EXPECT_OK(r, aeskit_ccm_seal(&k, buf, t, tl, buf, pl, n, nl, aad, al), "ccm_seal in-place");
    EXPECT_EQ(r, buf, ct, pl, "ccm_seal in-place ciphertext");
    EXPECT_EQ(r, t, tag, tl, "ccm_seal in-place tag");
    EXPECT_OK(r, aeskit_ccm_open(&k, buf, buf, pl, tag, tl, n, nl, aad, al), "ccm_open in-place");
    EXPECT_EQ(r, buf, pt, pl, "ccm_open in-place");
    memcpy(t, tag, tl);
    t[tl - 1] ^= 0x40;
    memset(buf, 0xa5, pl);
    st = aeskit_ccm_open(&k, buf, ct, pl, t, tl, n, nl, aad, al);
    if (st != AESKIT_ERR_AUTH)
        fail(r, "ccm_open accepted a flipped tag bit", st);
    else if (!all_zero(buf, pl))
        fail(r, "ccm_open did not zero the output on failure", st);
    memcpy(buf, ct, pl);
    st = aeskit_ccm_open(&k, buf, buf, pl, t, tl, n, nl, aad, al);
    if (st != AESKIT_ERR_AUTH)
        fail(r, "ccm_open in-place accepted a flipped tag bit", st);
    else if (memcmp(buf, ct, pl) != 0)
        fail(r, "ccm_open in-place did not restore the ciphertext on failure", st);
    aeskit_aes_wipe(&k);
}

static void run_xts(struct run *r, const char *be, const uint8_t *key, size_t kl,
                    const uint8_t *tweak, size_t twl, const uint8_t *pt, size_t pl,
                    const uint8_t *ct, uint8_t *buf)
{
    static aeskit_xts_key xk;
    int st = aeskit_xts_init_backend(&xk, key, kl, be);
    if (st != AESKIT_OK || twl != 16) {
        fail(r, "xts init", st);
        return;
    }
    EXPECT_OK(r, aeskit_xts_encrypt(&xk, buf, pt, pl, tweak), "xts_encrypt");
    EXPECT_EQ(r, buf, ct, pl, "xts_encrypt");
    EXPECT_OK(r, aeskit_xts_decrypt(&xk, buf, buf, pl, tweak), "xts_decrypt in-place");
    EXPECT_EQ(r, buf, pt, pl, "xts_decrypt in-place");
    EXPECT_OK(r, aeskit_xts_encrypt(&xk, buf, buf, pl, tweak), "xts_encrypt in-place");
    EXPECT_EQ(r, buf, ct, pl, "xts_encrypt in-place");
    memset(buf, 0, pl);
    EXPECT_OK(r, aeskit_xts_decrypt(&xk, buf, ct, pl, tweak), "xts_decrypt");
    EXPECT_EQ(r, buf, pt, pl, "xts_decrypt");
    aeskit_xts_wipe(&xk);
}

unsigned kat_run_one(const struct kat_vector *v, const char *be, FILE *log)
{
    struct run r = {v, log, 0};
    uint8_t *key = NULL, *iv = NULL, *aad = NULL, *pt = NULL, *ct = NULL, *tag = NULL;
    uint8_t *buf = NULL;
    size_t kl, ivl, al, pl, cl, tl;
    if (kat_field(v->key, 0, &key, &kl) || kat_field(v->iv, 0, &iv, &ivl) ||
        kat_field(v->aad, v->aad_pattern, &aad, &al) ||
        kat_field(v->pt, v->pt_pattern, &pt, &pl) || kat_field(v->ct, 0, &ct, &cl) ||
        kat_field(v->tag, 0, &tag, &tl) || !(buf = malloc(2 * pl + 16))) {
        fail(&r, "malformed vector (bad hex or out of memory)", 0);
        goto out;
    }
    if (v->mode != KAT_CMAC && cl != pl) {
        fail(&r, "malformed vector (ct and pt lengths differ)", 0);
        goto out;
    }
    if ((v->mode == KAT_GCM || v->mode == KAT_CCM || v->mode == KAT_CMAC ||
         v->mode == KAT_RFC4106) && (tl == 0 || tl > 16)) {
        fail(&r, "malformed vector (tag length)", 0);
        goto out;
    }
    switch (v->mode) {
    case KAT_AES:
        run_aes(&r, be, key, kl, pt, pl, ct);
        break;
    case KAT_ECB:
    case KAT_CBC:
        if (pl % 16 || (v->mode == KAT_CBC && ivl != 16)) {
            fail(&r, "malformed vector (length)", 0);
            break;
        }
        run_ecb_cbc(&r, be, v->mode == KAT_CBC, key, kl, iv, pt, pl, ct, buf);
        break;
    case KAT_CTR:
        run_ctr(&r, be, key, kl, iv, ivl, pt, pl, ct, buf);
        break;
    case KAT_GCM:
    case KAT_RFC4106:
        run_gcm(&r, be, v->mode == KAT_RFC4106, key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl, buf);
        break;
    case KAT_CMAC:
        run_cmac(&r, be, key, kl, pt, pl, tag, tl);
        break;
    case KAT_CCM:
        run_ccm(&r, be, key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl, buf);
        break;
    case KAT_XTS:
        run_xts(&r, be, key, kl, iv, ivl, pt, pl, ct, buf);
        break;
    default:
        fail(&r, "unknown mode", 0);
    }
out:
    free(key), free(iv), free(aad), free(pt), free(ct), free(tag), free(buf);
    return r.failures;
}

int kat_run_all(const char *backend, FILE *log, unsigned *passed, unsigned *failed)
{
    unsigned p = 0, f = 0;
    if (backend && aeskit_backend_check(backend) != AESKIT_OK) {
        if (passed)
            *passed = 0;
        if (failed)
            *failed = 0;
        return 77;
    }
    for (size_t i = 0; i < kat_vector_count; i++) {
        if (kat_run_one(&kat_vectors[i], backend, log))
            f++;
        else
            p++;
    }
    if (passed)
        *passed = p;
    if (failed)
        *failed = f;
    return f ? 1 : 0;
}
