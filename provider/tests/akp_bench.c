/*
 * akp_bench.c - AES-GCM through EVP: OpenSSL's default provider against the
 * aeskit provider, with aeskit's own one-shot calls as the floor, in one
 * process.  A benchmark: it prints and asserts nothing (exit 0 unless a
 * provider cannot load (77) or a message fails to seal/open (1)).
 *
 * Every message is what a TLS-like caller sends through EVP, the sequence of
 * `openssl speed -aead` (OpenSSL 3.0): EVP_CipherInit_ex with the IV only,
 * (decrypting: the tag, EVP_CTRL_AEAD_SET_TAG), 13 bytes of AAD, the data in
 * one update, final (decrypting: the tag checked, and it must verify: the
 * ciphertext and tag are made beforehand), encrypting: the tag read back
 * (EVP_CTRL_AEAD_GET_TAG).  Encryption is in place (as openssl speed does),
 * decryption from the ciphertext buffer into the working one.  "aeskit-lib" is aeskit_gcm_seal/aeskit_gcm_open
 * on the same buffers, what the EVP path cannot beat.
 *
 * Timing: the contestants take turns in bursts of at least --burst-ms of this
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID: another tenant's load costs
 * wall time, not this thread's CPU time, except what it does to caches and
 * the clock), --rounds rounds; the best burst and the median are shown, with
 * the spread (best - median) / best.  Only the columns of one row compare.
 *
 * The core clock is estimated with a chain of dependent adds (one cycle
 * each), so the AES port floor can be printed: with VAES on 512-bit vectors
 * this core issues 4 AES block-rounds per cycle, so AES-128 (10 rounds) needs
 * at least 10 / 4 / 16 = 0.156 cycles/byte and AES-256 (14) 0.219.
 *
 * usage: akp_bench [--provider-path DIR] [--rounds N] [--burst-ms MS]
 *                  [--alg aes-128-gcm|aes-256-gcm] [--sizes 16,64,...] [--decrypt-only|--encrypt-only]
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

#include "aeskit.h"

enum { N_CONT = 3, MAX_SIZES = 16, MAX_ROUNDS = 201 };
static const char *const cont_name[N_CONT] = { "default", "aeskit", "aeskit-lib" };

typedef struct {
    EVP_CIPHER_CTX *ctx[2];     /* default, aeskit */
    aeskit_gcm_key lib;
    size_t keylen;
    unsigned char key[32], iv[12], aad[13], tag[16];
    unsigned char *buf, *ct;    /* working buffer; the ciphertext decryption starts from */
    size_t len;
    int dec;
} BENCH;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One message through EVP, the openssl speed -aead sequence. */
static int evp_msg(BENCH *b, EVP_CIPHER_CTX *c)
{
    int outl = 0, fl = 0;
    unsigned char tag[16];
    if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, b->iv, -1))
        return 0;
    if (b->dec && !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, b->tag))
        return 0;
    if (!EVP_CipherUpdate(c, NULL, &outl, b->aad, (int)sizeof(b->aad))
        || !EVP_CipherUpdate(c, b->buf, &outl, b->dec ? b->ct : b->buf, (int)b->len)
        || !EVP_CipherFinal_ex(c, b->buf + outl, &fl))
        return 0;
    if (!b->dec && !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag))
        return 0;
    return 1;
}

static int lib_msg(BENCH *b)
{
    unsigned char tag[16];
    if (b->dec)
        return aeskit_gcm_open(&b->lib, b->buf, b->ct, b->len, b->tag, 16, b->iv, 12, b->aad,
                               sizeof(b->aad)) == AESKIT_OK;
    return aeskit_gcm_seal(&b->lib, b->buf, tag, 16, b->buf, b->len, b->iv, 12, b->aad,
                           sizeof(b->aad)) == AESKIT_OK;
}

/* One burst of contestant k: bytes per CPU second, or -1 on a failed message. */
static double burst(BENCH *b, int k, double secs)
{
    double t0 = cpu_now(), t;
    uint64_t n = 0;
    do {
        for (int i = 0; i < 16; i++) {
            int ok = k == 2 ? lib_msg(b) : evp_msg(b, b->ctx[k]);
            if (!ok)
                return -1;
        }
        n += 16;
        t = cpu_now() - t0;
    } while (t < secs);
    return (double)n * (double)b->len / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Core clock in Hz: a chain of dependent adds, one cycle each, per CPU second. */
static double core_hz(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    double best = 0;
    for (int r = 0; r < 20; r++) {
        uint64_t n = 20000000, x = 0;
        double t0 = cpu_now();
        __asm__ volatile("1:\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                         "sub $4, %1\n\tjnz 1b"
                         : "+r"(x), "+r"(n) : : "cc");
        double hz = 20000000.0 / (cpu_now() - t0);
        if (hz > best)
            best = hz;
    }
    return best;
#else
    return 0;
#endif
}

static int parse_sizes(const char *s, size_t *sizes)
{
    int n = 0;
    while (*s && n < MAX_SIZES) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v == 0 || v > (1u << 24))
            return 0;
        sizes[n++] = v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *alg = "aes-128-gcm";
    int rounds = 31, nsizes = 6, dirs = 3;
    double burst_s = 0.02;
    size_t sizes[MAX_SIZES] = { 16, 64, 256, 1024, 8192, 16384 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--provider-path") == 0 && i + 1 < argc)
            OSSL_PROVIDER_set_default_search_path(NULL, argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--burst-ms") == 0 && i + 1 < argc)
            burst_s = atof(argv[++i]) / 1000;
        else if (strcmp(argv[i], "--alg") == 0 && i + 1 < argc)
            alg = argv[++i];
        else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc)
            nsizes = parse_sizes(argv[++i], sizes);
        else if (strcmp(argv[i], "--encrypt-only") == 0)
            dirs = 1;
        else if (strcmp(argv[i], "--decrypt-only") == 0)
            dirs = 2;
        else {
            fprintf(stderr, "usage: %s [--provider-path DIR] [--rounds N] [--burst-ms MS] "
                    "[--alg aes-128-gcm|aes-256-gcm] [--sizes 16,64,...] "
                    "[--encrypt-only|--decrypt-only]\n", argv[0]);
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || nsizes < 1 || burst_s <= 0) {
        fprintf(stderr, "bad --rounds (1..%d), --sizes or --burst-ms\n", MAX_ROUNDS);
        return 2;
    }
    if (OSSL_PROVIDER_load(NULL, "aeskit") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) {
        printf("SKIP: the aeskit or the default provider does not load\n");
        return 77;
    }
    EVP_CIPHER *ciph[2] = { EVP_CIPHER_fetch(NULL, alg, "provider=default"),
                            EVP_CIPHER_fetch(NULL, alg, "provider=aeskit") };
    if (ciph[0] == NULL || ciph[1] == NULL) {
        printf("SKIP: %s not in both providers\n", alg);
        return 77;
    }
    BENCH b;
    memset(&b, 0, sizeof(b));
    b.keylen = (size_t)EVP_CIPHER_get_key_length(ciph[0]);
    for (size_t i = 0; i < sizeof(b.key); i++)
        b.key[i] = (unsigned char)(i * 7 + 1);
    memset(b.iv, 0x5a, sizeof(b.iv));
    memset(b.aad, 0xcc, sizeof(b.aad));
    size_t maxlen = 0;
    for (int i = 0; i < nsizes; i++)
        maxlen = sizes[i] > maxlen ? sizes[i] : maxlen;
    b.buf = malloc(maxlen + 64);
    b.ct = malloc(maxlen + 64);
    if (b.buf == NULL || b.ct == NULL || aeskit_gcm_init(&b.lib, b.key, b.keylen) != AESKIT_OK)
        return 1;
    for (int k = 0; k < 2; k++) {
        b.ctx[k] = EVP_CIPHER_CTX_new();
        if (b.ctx[k] == NULL)
            return 1;
    }
    double hz = core_hz();
    printf("%s through EVP, GB/s (10^9 bytes per CPU second), best of %d bursts of %.0f ms, "
           "median and spread (best - median) / best in ()\n", alg, rounds, burst_s * 1000);
    printf("%s; aeskit %s, backend %s\n", OpenSSL_version(OPENSSL_VERSION), aeskit_version(),
           aeskit_gcm_backend(&b.lib));
    if (hz > 0) {
        double cpb = (b.keylen == 16 ? 10.0 : b.keylen == 24 ? 12.0 : 14.0) / 4 / 16;
        printf("core clock (dependent adds) %.2f GHz; AES port floor %.3f cycles/byte "
               "(4 block-rounds per cycle) = %.1f GB/s\n", hz / 1e9, cpb, hz / cpb / 1e9);
    }
    for (int dec = 0; dec < 2; dec++) {
        if (!(dirs & (1 << dec)))
            continue;
        b.dec = dec;
        for (int k = 0; k < 2; k++)
            if (!EVP_CipherInit_ex(b.ctx[k], ciph[k], NULL, b.key, b.iv, !dec)
                || !EVP_CIPHER_CTX_ctrl(b.ctx[k], EVP_CTRL_AEAD_SET_IVLEN, 12, NULL))
                return 1;
        printf("\n%s %s\n%8s", alg, dec ? "decrypt" : "encrypt", "bytes");
        for (int k = 0; k < N_CONT; k++)
            printf("  %22s", cont_name[k]);
        printf("  %13s  %13s\n", "aeskit/default", "aeskit/lib");
        for (int si = 0; si < nsizes; si++) {
            static double r[N_CONT][MAX_ROUNDS];
            double best[N_CONT], med[N_CONT];
            b.len = sizes[si];
            memset(b.ct, 0x3c, b.len);
            if (aeskit_gcm_seal(&b.lib, b.ct, b.tag, 16, b.ct, b.len, b.iv, 12, b.aad,
                                sizeof(b.aad)) != AESKIT_OK)
                return 1;
            memcpy(b.buf, b.ct, b.len);
            for (int k = 0; k < N_CONT; k++)     /* warm up */
                if (burst(&b, k, burst_s / 4) < 0) {
                    printf("FAIL: %s %s of %zu bytes\n", cont_name[k], dec ? "open" : "seal", b.len);
                    return 1;
                }
            for (int i = 0; i < rounds; i++)     /* the order turns each round */
                for (int j = 0; j < N_CONT; j++) {
                    int k = (i + j) % N_CONT;
                    r[k][i] = burst(&b, k, burst_s);
                }
            printf("%8zu", b.len);
            for (int k = 0; k < N_CONT; k++) {
                qsort(r[k], (size_t)rounds, sizeof(double), cmp_double);
                best[k] = r[k][rounds - 1];
                med[k] = r[k][rounds / 2];
                printf("  %7.3f %7.3f (%3.0f%%)", best[k] / 1e9, med[k] / 1e9,
                       100 * (best[k] - med[k]) / best[k]);
            }
            printf("  %13.2fx  %12.2fx\n", best[1] / best[0], best[1] / best[2]);
            fflush(stdout);
        }
    }
    ERR_print_errors_fp(stderr);
    for (int k = 0; k < 2; k++) {
        EVP_CIPHER_CTX_free(b.ctx[k]);
        EVP_CIPHER_free(ciph[k]);
    }
    aeskit_gcm_wipe(&b.lib);
    free(b.buf);
    free(b.ct);
    return 0;
}
