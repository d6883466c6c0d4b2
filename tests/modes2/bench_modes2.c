/*
 * bench_modes2.c - speed of the new modes against OpenSSL's libcrypto and
 * libgcrypt (not a test: built beside them, run by hand).  Each cell is
 * timed in rounds that interleave every implementation, so load changes
 * hit all of them alike; the best round is reported with the spread
 * (worst/best - 1) of the rounds.
 *   bench_modes2 [rounds [mode-substring]]   (default 7 rounds, every mode)
 */
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#ifdef AESKIT_HAVE_GCRYPT
#include <gcrypt.h>

#include "oracle_gcrypt.h"
#endif

#include "harness.h"

#define MAXLEN 16384
static uint8_t in[MAXLEN + 64], out[MAXLEN + 64], key[64], iv[16], tag[16];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct impl {
    const char *name;
    void (*run)(size_t len);
} impl;

static aeskit_aes_key ak;
static aeskit_siv_key sk;
static aeskit_eax_key ek;
static EVP_CIPHER_CTX *octx;
static const EVP_CIPHER *o_cfb, *o_cfb8, *o_ofb, *o_ctr, *o_wrap, *o_wrappad;
static EVP_CIPHER *o_cts, *o_siv;
static int sink;

static void ak_ctr(size_t n) { sink |= aeskit_ctr_crypt(&ak, out, in, n, iv); }
static void ak_ecb(size_t n) { sink |= aeskit_ecb_encrypt(&ak, out, in, n & ~(size_t)15); }
static void ak_cfb_dec(size_t n) { sink |= aeskit_cfb128_decrypt(&ak, out, in, n, iv); }
static void ak_cfb_enc(size_t n) { sink |= aeskit_cfb128_encrypt(&ak, out, in, n, iv); }
static void ak_cfb8_enc(size_t n) { sink |= aeskit_cfb8_encrypt(&ak, out, in, n, iv); }
static void ak_ofb(size_t n) { sink |= aeskit_ofb_crypt(&ak, out, in, n, iv); }
static void ak_cts_enc(size_t n) { sink |= aeskit_cbc_cts_encrypt(&ak, out, in, n, iv, AESKIT_CTS_CS3); }
static void ak_cts_dec(size_t n) { sink |= aeskit_cbc_cts_decrypt(&ak, out, in, n, iv, AESKIT_CTS_CS3); }
static void ak_kw(size_t n)
{
    size_t m;
    sink |= aeskit_kw_wrap(&ak, out, sizeof out, &m, in, n);
}
static void ak_siv(size_t n) { sink |= aeskit_siv_aead_seal(&sk, out, tag, in, n, iv, 12, key, 13); }
static void ak_eax(size_t n) { sink |= aeskit_eax_seal(&ek, out, tag, 16, in, n, iv, 12, key, 13); }
/* The AEADs of issue 15 and our GCM seal (their speed goals are ratios to
 * it), 12-byte nonce, 13 bytes of AAD, 16-byte tag. */
static aeskit_gcm_key gk;
static aeskit_ocb_key okk;
static aeskit_gcmsiv_key gsk;
static void ak_gcm(size_t n) { sink |= aeskit_gcm_seal(&gk, out, tag, 16, in, n, iv, 12, key, 13); }
static void ak_ocb(size_t n) { sink |= aeskit_ocb_seal(&okk, out, tag, 16, in, n, iv, 12, key, 13); }
static void ak_ocb_open(size_t n)
{
    /* in is not a valid ciphertext: this times a failed open, which does
     * the whole decryption and then wipes out (one more pass, not hidden) */
    sink |= aeskit_ocb_open(&okk, out, in, n, tag, 16, iv, 12, key, 13) == AESKIT_OK;
}
static void ak_gcmsiv(size_t n) { sink |= aeskit_gcmsiv_seal(&gsk, out, tag, 16, in, n, iv, 12, key, 13); }

/* One context per cipher and direction, keyed once; each message only
 * sets the IV (as a program encrypting many messages under one key does). */
static EVP_CIPHER_CTX *o_ctx_for(const EVP_CIPHER *c, int enc, const OSSL_PARAM *p)
{
    static struct {
        const EVP_CIPHER *c;
        int enc;
        EVP_CIPHER_CTX *x;
    } cache[16];
    for (int i = 0; i < 16; i++) {
        if (cache[i].c == c && cache[i].enc == enc)
            return cache[i].x;
        if (!cache[i].c) {
            cache[i].c = c;
            cache[i].enc = enc;
            cache[i].x = EVP_CIPHER_CTX_new();
            EVP_CipherInit_ex2(cache[i].x, c, key, iv, enc, p);
            EVP_CIPHER_CTX_set_padding(cache[i].x, 0);
            return cache[i].x;
        }
    }
    abort();
}

static void o_run(const EVP_CIPHER *c, int enc, size_t n, const OSSL_PARAM *p)
{
    int l;
    EVP_CIPHER_CTX *x = o_ctx_for(c, enc, p);
    EVP_CipherInit_ex2(x, NULL, NULL, iv, enc, p);
    EVP_CipherUpdate(x, out, &l, in, (int)n);
}
static void os_ctr(size_t n) { o_run(o_ctr, 1, n, NULL); }
static void os_cfb_dec(size_t n) { o_run(o_cfb, 0, n, NULL); }
static void os_cfb_enc(size_t n) { o_run(o_cfb, 1, n, NULL); }
static void os_cfb8_enc(size_t n) { o_run(o_cfb8, 1, n, NULL); }
static void os_ofb(size_t n) { o_run(o_ofb, 1, n, NULL); }
static void os_cts_enc(size_t n)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, "CS3", 0),
                       OSSL_PARAM_construct_end()};
    o_run(o_cts, 1, n, p);
}
static void os_cts_dec(size_t n)
{
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, "CS3", 0),
                       OSSL_PARAM_construct_end()};
    o_run(o_cts, 0, n, p);
}
static EVP_CIPHER_CTX *wctx, *sctx;
static void os_kw(size_t n)
{
    int l;
    EVP_CipherInit_ex2(wctx, o_wrap, key, NULL, 1, NULL);
    EVP_CipherUpdate(wctx, out, &l, in, (int)n);
}
static void os_siv(size_t n)
{
    int l;
    /* OpenSSL's SIV context does not start a new message on an IV-only
     * re-init: each message sets the key again (two AES keys, CMAC
     * subkeys), which OpenSSL's own EVP users of SIV do too. */
    EVP_CipherInit_ex2(sctx, o_siv, key, NULL, 1, NULL);
    EVP_CipherUpdate(sctx, NULL, &l, key, 13);
    EVP_CipherUpdate(sctx, NULL, &l, iv, 12);
    EVP_CipherUpdate(sctx, out, &l, in, (int)n);
    EVP_CipherFinal_ex(sctx, out + n, &l);
    EVP_CIPHER_CTX_ctrl(sctx, EVP_CTRL_AEAD_GET_TAG, 16, tag);
}

/* OpenSSL AEAD seal on a context keyed once (IV, AAD, data, tag). */
static void o_aead(const EVP_CIPHER *c, size_t n)
{
    int l;
    EVP_CIPHER_CTX *x = o_ctx_for(c, 1, NULL);
    EVP_CipherInit_ex2(x, NULL, NULL, iv, 1, NULL);
    EVP_CipherUpdate(x, NULL, &l, key, 13);
    EVP_CipherUpdate(x, out, &l, in, (int)n);
    EVP_CipherFinal_ex(x, out + l, &l);
    EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag);
}
static void os_gcm(size_t n) { o_aead(EVP_aes_128_gcm(), n); }
static void os_ocb(size_t n) { o_aead(EVP_aes_128_ocb(), n); }

#ifdef AESKIT_HAVE_GCRYPT
static gcry_cipher_hd_t g_ocb, g_gcmsiv;
/* libgcrypt AEAD seal: IV, AAD, final, data, tag. */
static void gc_aead(gcry_cipher_hd_t h, size_t n)
{
    gcry_cipher_reset(h);
    gcry_cipher_setiv(h, iv, 12);
    gcry_cipher_authenticate(h, key, 13);
    gcry_cipher_final(h);
    gcry_cipher_encrypt(h, out, n, in, n);
    gcry_cipher_gettag(h, tag, 16);
}
static void gc_ocb(size_t n) { gc_aead(g_ocb, n); }
static void gc_gcmsiv(size_t n) { gc_aead(g_gcmsiv, n); }
static gcry_cipher_hd_t g_eax, g_cfb, g_ofb, g_cfb8;
static void gc_eax(size_t n)
{
    gcry_cipher_reset(g_eax);
    gcry_cipher_setiv(g_eax, iv, 12);
    gcry_cipher_authenticate(g_eax, key, 13);
    gcry_cipher_encrypt(g_eax, out, n, in, n);
    gcry_cipher_gettag(g_eax, tag, 16);
}
static void gc_cfb_dec(size_t n)
{
    gcry_cipher_setiv(g_cfb, iv, 16);
    gcry_cipher_decrypt(g_cfb, out, n, in, n);
}
static void gc_cfb_enc(size_t n)
{
    gcry_cipher_setiv(g_cfb, iv, 16);
    gcry_cipher_encrypt(g_cfb, out, n, in, n);
}
static void gc_cfb8_enc(size_t n)
{
    gcry_cipher_setiv(g_cfb8, iv, 16);
    gcry_cipher_encrypt(g_cfb8, out, n, in, n);
}
static void gc_ofb(size_t n)
{
    gcry_cipher_setiv(g_ofb, iv, 16);
    gcry_cipher_encrypt(g_ofb, out, n, in, n);
}
#endif

typedef struct row {
    const char *mode;
    impl impls[4];
} row;

static const row rows[] = {
    {"ctr (reference)", {{"aeskit", ak_ctr}, {"openssl", os_ctr}, {"aeskit-ecb", ak_ecb}}},
    {"cfb128 dec", {{"aeskit", ak_cfb_dec}, {"openssl", os_cfb_dec},
#ifdef AESKIT_HAVE_GCRYPT
                    {"gcrypt", gc_cfb_dec}
#endif
                   }},
    {"cfb128 enc", {{"aeskit", ak_cfb_enc}, {"openssl", os_cfb_enc},
#ifdef AESKIT_HAVE_GCRYPT
                    {"gcrypt", gc_cfb_enc}
#endif
                   }},
    {"cfb8 enc", {{"aeskit", ak_cfb8_enc}, {"openssl", os_cfb8_enc},
#ifdef AESKIT_HAVE_GCRYPT
                  {"gcrypt", gc_cfb8_enc}
#endif
                 }},
    {"ofb", {{"aeskit", ak_ofb}, {"openssl", os_ofb},
#ifdef AESKIT_HAVE_GCRYPT
             {"gcrypt", gc_ofb}
#endif
            }},
    {"cbc-cts enc", {{"aeskit", ak_cts_enc}, {"openssl", os_cts_enc}, {NULL, NULL}}},
    {"cbc-cts dec", {{"aeskit", ak_cts_dec}, {"openssl", os_cts_dec}, {NULL, NULL}}},
    {"kw wrap", {{"aeskit", ak_kw}, {"openssl", os_kw}, {NULL, NULL}}},
    {"siv seal", {{"aeskit", ak_siv}, {"openssl", os_siv}, {NULL, NULL}}},
#ifdef AESKIT_HAVE_GCRYPT
    {"eax seal", {{"aeskit", ak_eax}, {"gcrypt", gc_eax}, {NULL, NULL}}},
#endif
    {"gcm seal (ref)", {{"aeskit", ak_gcm}, {"openssl", os_gcm}, {NULL, NULL}}},
    {"ocb seal", {{"aeskit", ak_ocb}, {"openssl", os_ocb}, {"aeskit-gcm", ak_gcm},
#ifdef AESKIT_HAVE_GCRYPT
                  {"gcrypt", gc_ocb}
#endif
                 }},
    {"ocb open (fails)", {{"aeskit", ak_ocb_open}, {"aeskit-gcm", ak_gcm}, {NULL, NULL}}},
    {"gcmsiv seal", {{"aeskit", ak_gcmsiv}, {"aeskit-gcm", ak_gcm},
#ifdef AESKIT_HAVE_GCRYPT
                     {"gcrypt", gc_gcmsiv}
#endif
                    }},
};

int main(int argc, char **argv)
{
    const char *be = th_backend();
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    th_fill(key, sizeof key);
    th_fill(iv, 16);
    th_fill(in, sizeof in);
    if (aeskit_aes_init_backend(&ak, key, 16, be) || aeskit_siv_init_backend(&sk, key, 32, be) ||
        aeskit_eax_init_backend(&ek, key, 16, be) || aeskit_gcm_init_backend(&gk, key, 16, be) ||
        aeskit_ocb_init_backend(&okk, key, 16, be) || aeskit_gcmsiv_init_backend(&gsk, key, 16, be))
        return 1;
    octx = EVP_CIPHER_CTX_new();
    o_cfb = EVP_aes_128_cfb128(), o_cfb8 = EVP_aes_128_cfb8(), o_ofb = EVP_aes_128_ofb();
    o_ctr = EVP_aes_128_ctr(), o_wrap = EVP_aes_128_wrap(), o_wrappad = EVP_aes_128_wrap_pad();
    o_cts = EVP_CIPHER_fetch(NULL, "AES-128-CBC-CTS", NULL);
    o_siv = EVP_CIPHER_fetch(NULL, "AES-128-SIV", NULL);
    EVP_CipherInit_ex2(octx, o_ctr, key, iv, 1, NULL);
    wctx = EVP_CIPHER_CTX_new();
    EVP_CIPHER_CTX_set_flags(wctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    EVP_CipherInit_ex2(wctx, o_wrap, key, NULL, 1, NULL);
    sctx = EVP_CIPHER_CTX_new();
    EVP_CipherInit_ex2(sctx, o_siv, key, NULL, 1, NULL);
#ifdef AESKIT_HAVE_GCRYPT
    or_gcrypt_init();
    gcry_cipher_open(&g_eax, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_EAX, 0);
    gcry_cipher_setkey(g_eax, key, 16);
    gcry_cipher_open(&g_cfb, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CFB, 0);
    gcry_cipher_setkey(g_cfb, key, 16);
    gcry_cipher_open(&g_cfb8, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CFB8, 0);
    gcry_cipher_setkey(g_cfb8, key, 16);
    gcry_cipher_open(&g_ofb, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_OFB, 0);
    gcry_cipher_setkey(g_ofb, key, 16);
    gcry_cipher_open(&g_ocb, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_OCB, 0);
    gcry_cipher_setkey(g_ocb, key, 16);
    gcry_cipher_open(&g_gcmsiv, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM_SIV, 0);
    gcry_cipher_setkey(g_gcmsiv, key, 16);
#endif

    /* The peers' outputs are the library's (a peer call that failed would
     * time nothing). */
    static uint8_t mine_t[16];
    ak_ocb(1000);
    memcpy(mine_t, tag, 16);
    os_ocb(1000);
    if (memcmp(mine_t, tag, 16))
        printf("note: OpenSSL's OCB tag differs from aeskit's in this harness\n");
#ifdef AESKIT_HAVE_GCRYPT
    gc_ocb(1000);
    if (memcmp(mine_t, tag, 16))
        printf("note: libgcrypt's OCB tag differs from aeskit's in this harness\n");
    ak_gcmsiv(1000);
    memcpy(mine_t, tag, 16);
    gc_gcmsiv(1000);
    if (memcmp(mine_t, tag, 16))
        printf("note: libgcrypt's GCM-SIV tag differs from aeskit's in this harness\n");
#endif
    static uint8_t mine[MAXLEN + 64];
    ak_kw(1024);
    memcpy(mine, out, 1032);
    os_kw(1024);
    if (memcmp(mine, out, 1032))
        printf("note: OpenSSL's KW output differs from aeskit's in this harness\n");
    ak_siv(1024);
    memcpy(mine, out, 1024);
    memcpy(mine + 1024, tag, 16);
    os_siv(1024);
    if (memcmp(mine, out, 1024) || memcmp(mine + 1024, tag, 16))
        printf("note: OpenSSL's SIV output differs from aeskit's in this harness\n");
    printf("backend %s, AES-128, best of %d interleaved rounds; ns/byte (spread = worst/best - 1)\n",
           be ? be : aeskit_backend_default(), rounds);
    static const size_t sizes[2] = {1024, 16384};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (argc > 2 && !strstr(rows[r].mode, argv[2]) && strncmp(rows[r].mode, "ctr", 3))
            continue;
        for (int s = 0; s < 2; s++) {
            size_t len = sizes[s];
            if (!strcmp(rows[r].mode, "kw wrap") && len > 4096)
                len = 4096; /* KW is 6n block calls: 4 KiB is plenty */
            double best[4] = {1e300, 1e300, 1e300, 1e300}, worst[4] = {0, 0, 0, 0};
            size_t reps = 2000000 / (len + 64) + 1;
            if (!strncmp(rows[r].mode, "cfb8", 4) || !strncmp(rows[r].mode, "kw", 2))
                reps = reps / 16 + 1;
            for (int k = 0; k < rounds; k++) {
                for (int i = 0; i < 4 && rows[r].impls[i].name; i++) {
                    double t0 = now();
                    for (size_t j = 0; j < reps; j++)
                        rows[r].impls[i].run(len);
                    double dt = (now() - t0) / (double)(reps * len);
                    if (dt < best[i]) best[i] = dt;
                    if (dt > worst[i]) worst[i] = dt;
                }
            }
            printf("%-16s %6zu B:", rows[r].mode, len);
            for (int i = 0; i < 4 && rows[r].impls[i].name; i++)
                printf("  %s %.3f (+%.0f%%)", rows[r].impls[i].name, best[i],
                       100.0 * (worst[i] / best[i] - 1));
            printf("\n");
        }
    }
    return sink == 12345;
}
