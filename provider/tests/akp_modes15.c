/*
 * akp_modes15.c - the issue-15 ciphers of the aeskit provider against
 * OpenSSL's default provider, through EVP only: AES-{128,192,256}-CFB,
 * -CFB8, -OFB, -CBC-CTS (cts_mode CS1, CS2, CS3), AES-N-WRAP / -WRAP-PAD
 * (fetched as id-aesN-wrap / id-aesN-wrap-pad) and AES-N-SIV (RFC 5297:
 * 0..3 associated-data strings, one per AAD update, then the message; the
 * tag V set before decrypting) and AES-N-OCB (RFC 7253: IV 1..15 bytes, tag
 * 1..16 bytes set by length before the key, AAD and message in one update
 * or in random pieces, in place or not, the tag got after the encrypting
 * final and set before the decrypting one).
 *
 * Random keys, IVs and lengths (CFB/OFB 0..2048 bytes, one-shot or in
 * random pieces, sometimes in-place; CTS 16..2048 in one update; KW 16..512
 * in semiblocks, KWP 1..512; SIV 0..1024, where an empty message fails at
 * final under both; OCB 0..4096 with 0..600 bytes of AAD): aeskit's output
 * (and SIV's and OCB's tag) must equal the default provider's, each must
 * decrypt the other's output, and an unwrap of a wrapped key or an SIV or
 * OCB open with one flipped bit must fail under both.  Then the
 * parameters: the cipher's mode, block size, IV length and CTS flag equal
 * the default provider's; cts_mode reads back; a bad cts_mode, a second CTS
 * update, a KW length that is not whole semiblocks, a custom wrap IV, an
 * OCB IV length of 0 or 16, an OCB tag length of 0 or 17, an OCB update
 * after final are refused with an error on the queue.
 *
 * usage: akp_modes15 [--provider-path DIR] [--iterations N] [--seed S]
 * exit 0 all equal, 1 a difference, 77 a provider cannot load.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "akp_rand.h"

static int failures, checks;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void check(int ok, const char *fmt, ...)
{
    checks++;
    if (ok)
        return;
    failures++;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    ERR_print_errors_fp(stderr);
}

enum kind { K_STREAM, K_CTS, K_KW, K_KWP, K_SIV, K_OCB };

typedef struct alg {
    const char *name;
    enum kind kind;
    size_t keylen;
} ALG;

static const ALG algs[] = {
    {"AES-128-CFB", K_STREAM, 16},      {"AES-192-CFB", K_STREAM, 24},
    {"AES-256-CFB", K_STREAM, 32},      {"AES-128-CFB8", K_STREAM, 16},
    {"AES-192-CFB8", K_STREAM, 24},     {"AES-256-CFB8", K_STREAM, 32},
    {"AES-128-OFB", K_STREAM, 16},      {"AES-192-OFB", K_STREAM, 24},
    {"AES-256-OFB", K_STREAM, 32},      {"AES-128-CBC-CTS", K_CTS, 16},
    {"AES-192-CBC-CTS", K_CTS, 24},     {"AES-256-CBC-CTS", K_CTS, 32},
    {"id-aes128-wrap", K_KW, 16},       {"id-aes192-wrap", K_KW, 24},
    {"id-aes256-wrap", K_KW, 32},       {"id-aes128-wrap-pad", K_KWP, 16},
    {"id-aes192-wrap-pad", K_KWP, 24},  {"id-aes256-wrap-pad", K_KWP, 32},
    {"AES-128-SIV", K_SIV, 32},         {"AES-192-SIV", K_SIV, 48},
    {"AES-256-SIV", K_SIV, 64},
    {"AES-128-OCB", K_OCB, 16},         {"AES-192-OCB", K_OCB, 24},
    {"AES-256-OCB", K_OCB, 32},
};
#define OCB_FIRST 21 /* algs[OCB_FIRST] is AES-128-OCB */
#define NALGS (sizeof algs / sizeof algs[0])
static EVP_CIPHER *ca[NALGS], *cd[NALGS]; /* aeskit, default */
static const char *const cts_modes[3] = {"CS1", "CS2", "CS3"};

#define MAXLEN 2048

/* One message through cipher c: in (len bytes) to out; returns the output
 * length or -1.  pieces: random update sizes (stream ciphers only);
 * cts: the cts_mode to set or NULL. */
static long run(EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv,
                const char *cts, unsigned char *out, const unsigned char *in, size_t len,
                int pieces)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    long total = -1;
    int l = 0, ok;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()};
    if (cts)
        p[0] = OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, (char *)cts, 0);
    EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    ok = x != NULL && EVP_CipherInit_ex2(x, c, key, iv, enc, cts ? p : NULL);
    if (!ok)
        goto done;
    size_t off = 0;
    total = 0;
    while (ok && off < len) {
        size_t n = pieces ? 1 + rndn(len - off < 100 ? len - off : 100) : len - off;
        ok = EVP_CipherUpdate(x, out + total, &l, in + off, (int)n);
        total += l;
        off += n;
    }
    if (ok)
        ok = EVP_CipherFinal_ex(x, out + total, &l);
    if (ok)
        total += l;
    else
        total = -1;
done:
    EVP_CIPHER_CTX_free(x);
    return total;
}

/* One SIV message: nad strings ad[i] (lens[i] bytes) as AAD updates, then
 * the data (none when len is 0); tag in (decrypting) or out.  Returns the
 * output length, or -1 if any step (final included) failed. */
static long siv_run(EVP_CIPHER *c, int enc, const unsigned char *key, unsigned char ad[3][100],
                    const size_t *lens, size_t nad, unsigned char *out, const unsigned char *in,
                    size_t len, unsigned char tag[16])
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0, ok = x != NULL && EVP_CipherInit_ex2(x, c, key, NULL, enc, NULL);
    long total = 0;
    if (ok && !enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) == 1;
    for (size_t i = 0; ok && i < nad; i++)
        ok = EVP_CipherUpdate(x, NULL, &l, ad[i], (int)lens[i]);
    if (ok && len) {
        ok = EVP_CipherUpdate(x, out, &l, in, (int)len);
        total = l;
    }
    if (ok)
        ok = EVP_CipherFinal_ex(x, out + total, &l);
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(x);
    return ok ? total : -1;
}

static void one_siv(size_t ai)
{
    const ALG *a = &algs[ai];
    unsigned char key[64], ad[3][100], msg[1024], oa[1024], od[1024], back[1024];
    unsigned char ta[16], td[16];
    size_t lens[3], nad = rndn(4), len = rndn(8) == 0 ? 0 : rndn(1025);
    rbytes(key, a->keylen);
    for (size_t i = 0; i < nad; i++) {
        lens[i] = 1 + rndn(100);
        rbytes(ad[i], lens[i]);
    }
    rbytes(msg, len);
    ERR_set_mark();
    long na = siv_run(ca[ai], 1, key, ad, lens, nad, oa, msg, len, ta);
    long nd = siv_run(cd[ai], 1, key, ad, lens, nad, od, msg, len, td);
    ERR_pop_to_mark();
    if (len == 0) {
        check(na < 0 && nd < 0, "%s with no data: aeskit %ld, default %ld (both fail at final)",
              a->name, na, nd);
        return;
    }
    check(na == (long)len && nd == (long)len && !memcmp(oa, od, len) && !memcmp(ta, td, 16),
          "%s seal of %zu bytes under %zu strings: aeskit %ld, default %ld, ct or tag differ",
          a->name, len, nad, na, nd);
    long ba = siv_run(ca[ai], 0, key, ad, lens, nad, back, od, len, td);
    check(ba == (long)len && !memcmp(back, msg, len), "%s open of the default's message: %ld",
          a->name, ba);
    long bd = siv_run(cd[ai], 0, key, ad, lens, nad, back, oa, len, ta);
    check(bd == (long)len && !memcmp(back, msg, len), "default open of %s's message: %ld",
          a->name, bd);
    ta[rndn(16)] ^= (unsigned char)(1u << rndn(8));
    memset(back, 0x5a, len);
    ERR_set_mark();
    ba = siv_run(ca[ai], 0, key, ad, lens, nad, back, oa, len, ta);
    bd = siv_run(cd[ai], 0, key, ad, lens, nad, od, oa, len, ta);
    int queued = ERR_peek_last_error() != 0;
    ERR_pop_to_mark();
    int zero = 1;
    for (size_t i = 0; i < len; i++)
        zero &= back[i] == 0;
    check(ba < 0 && bd < 0 && queued && zero,
          "%s open with a flipped tag bit: aeskit %ld, default %ld, aeskit output %s", a->name,
          ba, bd, zero ? "zeroed" : "not zeroed");
}

/* One OCB message through c: IV iv (ivlen bytes), tag length tl set (by
 * length) before the key, AAD then the message, each in one update or in
 * random pieces; in place (out holds the input, and the output goes to out
 * as EVP callers stream a buffer in place: to out + bytes out so far, from
 * out + bytes in so far) or in -> out.  tag: written after an encrypting
 * final, set before a decrypting one.  Returns the output length or -1. */
#define OCB_MAX 4096
static long ocb_run(EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv,
                    size_t ivlen, size_t tl, const unsigned char *aad, size_t al,
                    const unsigned char *in, size_t len, unsigned char *out, unsigned char *tag,
                    int pieces, int inplace)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0;
    long total = 0;
    int ok = x != NULL && EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) == 1 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)tl, NULL) == 1 &&
             EVP_CipherInit_ex2(x, NULL, key, iv, enc, NULL);
    for (size_t off = 0; ok && off < al;) {
        size_t n = pieces ? 1 + rndn(al - off < 100 ? al - off : 100) : al - off;
        ok = EVP_CipherUpdate(x, NULL, &l, aad + off, (int)n);
        off += n;
    }
    if (inplace) {
        if (len)
            memmove(out, in, len);
        in = out;
    }
    for (size_t off = 0; ok && off < len;) {
        size_t n = pieces ? 1 + rndn(len - off < 300 ? len - off : 300) : len - off;
        ok = EVP_CipherUpdate(x, out + total, &l, in + off, (int)n);
        total += l;
        off += n;
    }
    if (ok && !enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)tl, tag) == 1;
    if (ok)
        ok = EVP_CipherFinal_ex(x, out + total, &l);
    if (ok)
        total += l;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)tl, tag) == 1;
    EVP_CIPHER_CTX_free(x);
    return ok ? total : -1;
}

static void one_ocb(size_t ai)
{
    const ALG *a = &algs[ai];
    static unsigned char key[32], iv[15], aad[600], msg[OCB_MAX], oa[OCB_MAX + 16],
        od[OCB_MAX + 16], back[OCB_MAX + 16];
    unsigned char ta[16], td[16];
    size_t ivlen = rndn(2) ? 12 : 1 + rndn(15), tl = rndn(2) ? 16 : 1 + rndn(16);
    size_t len = rndn(3) ? rndn(600) : rndn(OCB_MAX + 1), al = rndn(3) ? rndn(60) : rndn(601);
    int pa = (int)rndn(2), pd = (int)rndn(2), inplace = (int)rndn(3) == 0;
    rbytes(key, a->keylen);
    rbytes(iv, ivlen);
    rbytes(aad, al);
    rbytes(msg, len);
    long na = ocb_run(ca[ai], 1, key, iv, ivlen, tl, aad, al, msg, len, oa, ta, pa, inplace);
    long nd = ocb_run(cd[ai], 1, key, iv, ivlen, tl, aad, al, msg, len, od, td, pd, 0);
    check(na == (long)len && nd == (long)len && !memcmp(oa, od, len) && !memcmp(ta, td, tl),
          "%s seal of %zu bytes, iv %zu, tag %zu, aad %zu%s%s: aeskit %ld, default %ld, ct or tag "
          "differ", a->name, len, ivlen, tl, al, pa ? " in pieces" : "", inplace ? " in place" : "",
          na, nd);
    long ba = ocb_run(ca[ai], 0, key, iv, ivlen, tl, aad, al, od, len, back, td, (int)rndn(2),
                      (int)rndn(3) == 0);
    check(ba == (long)len && !memcmp(back, msg, len), "%s open of the default's message: %ld",
          a->name, ba);
    long bd = ocb_run(cd[ai], 0, key, iv, ivlen, tl, aad, al, oa, len, back, ta, (int)rndn(2), 0);
    check(bd == (long)len && !memcmp(back, msg, len), "default open of %s's message: %ld",
          a->name, bd);
    /* A flipped message bit under a tag of t bytes passes with probability
     * 2^-8t (under both providers alike): only with 8 bytes or more is its
     * rejection a test; a flipped tag bit is always rejected. */
    if (len && tl >= 8 && rndn(2))
        oa[rndn(len)] ^= (unsigned char)(1u << rndn(8));
    else
        ta[rndn(tl)] ^= (unsigned char)(1u << rndn(8));
    ERR_set_mark();
    ba = ocb_run(ca[ai], 0, key, iv, ivlen, tl, aad, al, oa, len, back, ta, (int)rndn(2), 0);
    int queued = ERR_peek_last_error() != 0;
    bd = ocb_run(cd[ai], 0, key, iv, ivlen, tl, aad, al, oa, len, od, ta, 0, 0);
    ERR_pop_to_mark();
    check(ba < 0 && bd < 0 && queued, "%s open with a flipped bit: aeskit %ld, default %ld",
          a->name, ba, bd);
}

static void one_message(size_t ai)
{
    if (algs[ai].kind == K_OCB) {
        one_ocb(ai);
        return;
    }

    if (algs[ai].kind == K_SIV) {
        one_siv(ai);
        return;
    }
    const ALG *a = &algs[ai];
    unsigned char key[32], iv[16], msg[MAXLEN], oa[MAXLEN + 16], od[MAXLEN + 16], back[MAXLEN + 16];
    size_t len;
    const char *cts = NULL;
    rbytes(key, a->keylen);
    rbytes(iv, 16);
    switch (a->kind) {
    case K_STREAM: len = rndn(8) == 0 ? rndn(40) : rndn(MAXLEN + 1); break;
    case K_CTS: len = 16 + rndn(MAXLEN - 15); cts = cts_modes[rndn(3)]; break;
    case K_KW: len = 8 * (2 + rndn(63)); break;
    default: len = 1 + rndn(512); break;
    }
    rbytes(msg, len);
    const unsigned char *ivp = a->kind == K_KW || a->kind == K_KWP ? NULL : iv;
    int pieces = a->kind == K_STREAM && rndn(2);
    long na = run(ca[ai], 1, key, ivp, cts, oa, msg, len, pieces);
    long nd = run(cd[ai], 1, key, ivp, cts, od, msg, len, 0);
    check(na >= 0 && na == nd && !memcmp(oa, od, (size_t)na), "%s%s%s enc %zu bytes%s: aeskit %ld, "
          "default %ld bytes%s", a->name, cts ? " " : "", cts ? cts : "", len,
          pieces ? " (pieces)" : "", na, nd, na == nd ? ", output differs" : "");
    if (na < 0 || na != nd)
        return;
    /* each decrypts the other's output (in-place for aeskit, sometimes) */
    int inplace = a->kind == K_STREAM && rndn(2);
    if (inplace)
        memcpy(back, od, (size_t)nd);
    long ba = run(ca[ai], 0, key, ivp, cts, back, inplace ? back : od, (size_t)nd,
                  a->kind == K_STREAM && rndn(2));
    check(ba == (long)len && !memcmp(back, msg, len), "%s dec of the default's %ld bytes: %ld",
          a->name, nd, ba);
    long bd = run(cd[ai], 0, key, ivp, cts, back, oa, (size_t)na, 0);
    check(bd == (long)len && !memcmp(back, msg, len), "default dec of %s's %ld bytes: %ld",
          a->name, na, bd);
    if (a->kind == K_KW || a->kind == K_KWP) {
        size_t bit = rndn(8 * (size_t)na);
        oa[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        ERR_set_mark();
        ba = run(ca[ai], 0, key, NULL, NULL, back, oa, (size_t)na, 0);
        bd = run(cd[ai], 0, key, NULL, NULL, back, oa, (size_t)na, 0);
        int queued = ERR_peek_last_error() != 0;
        ERR_pop_to_mark();
        check(ba < 0 && bd < 0 && queued, "%s unwrap of a flipped bit %zu: aeskit %ld, default %ld",
              a->name, bit, ba, bd);
    }
}

static int get_int_param(EVP_CIPHER *c, const char *name, int *v)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_int(name, v), OSSL_PARAM_construct_end()};
    return EVP_CIPHER_get_params(c, p);
}

static void params_test(void)
{
    unsigned char key[32] = {1}, iv[16] = {2}, buf[64] = {3}, out[128];
    for (size_t i = 0; i < NALGS; i++) {
        int cta = -1, ctd = -1;
        check(EVP_CIPHER_get_mode(ca[i]) == EVP_CIPHER_get_mode(cd[i]) &&
                  EVP_CIPHER_get_block_size(ca[i]) == EVP_CIPHER_get_block_size(cd[i]) &&
                  EVP_CIPHER_get_iv_length(ca[i]) == EVP_CIPHER_get_iv_length(cd[i]) &&
                  EVP_CIPHER_get_key_length(ca[i]) == EVP_CIPHER_get_key_length(cd[i]),
              "%s: mode %d/%d, block %d/%d, iv %d/%d (aeskit/default)", algs[i].name,
              EVP_CIPHER_get_mode(ca[i]), EVP_CIPHER_get_mode(cd[i]),
              EVP_CIPHER_get_block_size(ca[i]), EVP_CIPHER_get_block_size(cd[i]),
              EVP_CIPHER_get_iv_length(ca[i]), EVP_CIPHER_get_iv_length(cd[i]));
        get_int_param(ca[i], OSSL_CIPHER_PARAM_CTS, &cta);
        get_int_param(cd[i], OSSL_CIPHER_PARAM_CTS, &ctd);
        check(cta == ctd, "%s: cts flag %d, default %d", algs[i].name, cta, ctd);
    }
    /* cts_mode reads back; a bad one is refused */
    for (int m = 0; m < 3; m++) {
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE,
                                                            (char *)cts_modes[m], 0),
                           OSSL_PARAM_construct_end()};
        char got[8] = "";
        OSSL_PARAM q[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, got,
                                                            sizeof got),
                           OSSL_PARAM_construct_end()};
        int l;
        check(EVP_CipherInit_ex2(x, ca[9], key, iv, 1, p) && EVP_CIPHER_CTX_get_params(x, q) &&
                  !strcmp(got, cts_modes[m]),
              "cts_mode %s reads back as '%s'", cts_modes[m], got);
        ERR_set_mark();
        check(EVP_CipherUpdate(x, out, &l, buf, 32) && !EVP_CipherUpdate(x, out, &l, buf, 32) &&
                  ERR_peek_last_error() != 0,
              "a second CBC-CTS update is refused");
        ERR_pop_to_mark();
        EVP_CIPHER_CTX_free(x);
    }
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    OSSL_PARAM bad[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, "CS4", 0),
                         OSSL_PARAM_construct_end()};
    ERR_set_mark();
    check(!EVP_CipherInit_ex2(x, ca[9], key, iv, 1, bad) && ERR_peek_last_error() != 0,
          "cts_mode CS4 refused");
    ERR_pop_to_mark();
    /* a CTS message under one block */
    int l;
    ERR_set_mark();
    check(EVP_CipherInit_ex2(x, ca[9], key, iv, 1, NULL) && !EVP_CipherUpdate(x, out, &l, buf, 15),
          "CBC-CTS of 15 bytes refused");
    ERR_pop_to_mark();
    /* KW: whole semiblocks only; a wrap IV other than the default */
    EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    ERR_set_mark();
    check(EVP_CipherInit_ex2(x, ca[12], key, NULL, 1, NULL) &&
              !EVP_CipherUpdate(x, out, &l, buf, 20) && ERR_peek_last_error() != 0,
          "KW of 20 bytes refused");
    ERR_pop_to_mark();
    ERR_set_mark();
    check(!EVP_CipherInit_ex2(x, ca[12], key, iv, 1, NULL), "KW with a custom IV refused");
    ERR_pop_to_mark();
    static const unsigned char a6[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};
    check(EVP_CipherInit_ex2(x, ca[12], key, a6, 1, NULL) && EVP_CipherUpdate(x, out, &l, buf, 32) &&
              l == 40,
          "KW with the default IV given explicitly: %d bytes", l);
    /* SIV: decrypting without the tag, a short tag, a second data update */
    unsigned char sk[32] = {4};
    ERR_set_mark();
    check(EVP_CipherInit_ex2(x, ca[18], sk, NULL, 0, NULL) && !EVP_CipherUpdate(x, out, &l, buf, 16)
              && ERR_peek_last_error() != 0,
          "SIV open without a tag refused");
    ERR_pop_to_mark();
    ERR_set_mark();
    check(EVP_CipherInit_ex2(x, ca[18], sk, NULL, 0, NULL) &&
              EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 8, buf) != 1,
          "SIV tag of 8 bytes refused");
    ERR_pop_to_mark();
    ERR_set_mark();
    check(EVP_CipherInit_ex2(x, ca[18], sk, NULL, 1, NULL) && EVP_CipherUpdate(x, out, &l, buf, 16)
              && !EVP_CipherUpdate(x, out, &l, buf, 16),
          "a second SIV data update refused");
    ERR_pop_to_mark();
    /* OCB: IV length 0 or 16, tag length 0 or 17, an update after final, a
     * decrypting final without a tag, a tag value set while encrypting; the
     * default IV and tag lengths */
    for (size_t i = OCB_FIRST; i < OCB_FIRST + 3; i++) {
        EVP_CIPHER_CTX *o = EVP_CIPHER_CTX_new();
        unsigned char tg[16] = {0};
        static const int bad_iv[2] = {0, 16}, bad_tag[2] = {0, 17};
        for (int b = 0; b < 2; b++) {
            ERR_set_mark();
            check(EVP_CipherInit_ex2(o, ca[i], NULL, NULL, 1, NULL) &&
                      EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_SET_IVLEN, bad_iv[b], NULL) != 1 &&
                      ERR_peek_last_error() != 0,
                  "%s: iv length %d refused", algs[i].name, bad_iv[b]);
            ERR_pop_to_mark();
            ERR_set_mark();
            check(EVP_CipherInit_ex2(o, ca[i], NULL, NULL, 1, NULL) &&
                      EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_SET_TAG, bad_tag[b], NULL) != 1 &&
                      ERR_peek_last_error() != 0,
                  "%s: tag length %d refused", algs[i].name, bad_tag[b]);
            ERR_pop_to_mark();
        }
        ERR_set_mark();
        check(EVP_CipherInit_ex2(o, ca[i], key, iv, 1, NULL) && EVP_CipherUpdate(o, out, &l, buf, 20) &&
                  EVP_CipherFinal_ex(o, out + l, &l) && !EVP_CipherUpdate(o, out, &l, buf, 20) &&
                  ERR_peek_last_error() != 0,
              "%s: update after final refused", algs[i].name);
        ERR_pop_to_mark();
        EVP_CIPHER_CTX_free(o);
        o = EVP_CIPHER_CTX_new();
        ERR_set_mark();
        check(EVP_CipherInit_ex2(o, ca[i], key, iv, 0, NULL) && EVP_CipherUpdate(o, out, &l, buf, 20) &&
                  !EVP_CipherFinal_ex(o, out + l, &l) && ERR_peek_last_error() != 0,
              "%s: decrypting final without a tag refused", algs[i].name);
        ERR_pop_to_mark();
        ERR_set_mark();
        check(EVP_CipherInit_ex2(o, ca[i], key, iv, 1, NULL) &&
                  EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_SET_TAG, 16, tg) != 1 &&
                  ERR_peek_last_error() != 0,
              "%s: a tag value set while encrypting refused", algs[i].name);
        ERR_pop_to_mark();
        size_t ivl = 0, tgl = 0;
        OSSL_PARAM q[3] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivl),
                           OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &tgl),
                           OSSL_PARAM_construct_end()};
        check(EVP_CipherInit_ex2(o, ca[i], key, iv, 1, NULL) && EVP_CIPHER_CTX_get_params(o, q) &&
                  ivl == 12 && tgl == 16,
              "%s: default iv length %zu (12), tag length %zu (16)", algs[i].name, ivl, tgl);
        EVP_CIPHER_CTX_free(o);
    }
    /* OCB in place as out == in while bytes are held (the provider moves
     * the input up by the held bytes, aeskit's in-place rule): equal to the
     * default provider's out-of-place message */
    {
        unsigned char m[37], ref[37], b2[64], tr[16], tg[16];
        int l1 = 0, l2 = 0, l3 = 0;
        rbytes(m, sizeof m);
        long nr = ocb_run(cd[OCB_FIRST], 1, key, iv, 12, 16, NULL, 0, m, sizeof m, ref, tr, 0, 0);
        EVP_CIPHER_CTX *o = EVP_CIPHER_CTX_new();
        int ok = EVP_CipherInit_ex2(o, ca[OCB_FIRST], key, iv, 1, NULL) &&
                 EVP_CipherUpdate(o, b2, &l1, m, 5) && l1 == 0;
        memcpy(b2, m + 5, 32);
        ok = ok && EVP_CipherUpdate(o, b2, &l2, b2, 32) && l2 == 32 &&
             EVP_CipherFinal_ex(o, b2 + 32, &l3) && l3 == 5 &&
             EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_GET_TAG, 16, tg) == 1;
        check(ok && nr == 37 && !memcmp(b2, ref, 37) && !memcmp(tg, tr, 16),
              "OCB update with out == in and 5 bytes held: %d %d %d", l1, l2, l3);
        EVP_CIPHER_CTX_free(o);
    }
    EVP_CIPHER_CTX_free(x);
}

int main(int argc, char **argv)


{
    long iters = 3000;
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--provider-path") == 0)
            OSSL_PROVIDER_set_default_search_path(NULL, argv[i + 1]);
        else if (strcmp(argv[i], "--iterations") == 0)
            iters = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 0);
    }
    OSSL_PROVIDER *pa = OSSL_PROVIDER_load(NULL, "aeskit");
    OSSL_PROVIDER *pd = OSSL_PROVIDER_load(NULL, "default");
    if (pa == NULL || pd == NULL) {
        ERR_print_errors_fp(stderr);
        printf("SKIP: a provider does not load\n");
        return 77;
    }
    rs = seed ? seed : 1;
    printf("seed %llu, %ld iterations\n", (unsigned long long)seed, iters);
    for (size_t i = 0; i < NALGS; i++) {
        ca[i] = EVP_CIPHER_fetch(NULL, algs[i].name, "provider=aeskit");
        cd[i] = EVP_CIPHER_fetch(NULL, algs[i].name, "provider=default");
        if (ca[i] == NULL || cd[i] == NULL) {
            printf("FAIL: %s not fetched (aeskit %p, default %p)\n", algs[i].name, (void *)ca[i],
                   (void *)cd[i]);
            return 1;
        }
    }
    for (long it = 0; it < iters && failures < 20; it++)
        one_message((size_t)it % NALGS);
    params_test();
    printf("modes15: %d checks, %d failures\n", checks, failures);
    for (size_t i = 0; i < NALGS; i++) {
        EVP_CIPHER_free(ca[i]);
        EVP_CIPHER_free(cd[i]);
    }
    OSSL_PROVIDER_unload(pa);
    OSSL_PROVIDER_unload(pd);
    return failures ? 1 : 0;
}
