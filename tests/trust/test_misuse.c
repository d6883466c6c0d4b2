/*
 * test_misuse.c - every documented error path of include/aeskit.h, the
 * limits at and one past each bound, and "nothing lost on failure" for every
 * mode with a tag, under the backend named by AESKIT_BACKEND.
 *
 * Each error case also checks that nothing was written: output buffers are
 * filled with a canary before the call and must still hold it afterwards.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define CANARY 0xa5

static int all_equal(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

#define EXPECT(call, want)                                                             \
    do {                                                                               \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == (want), "%s -> %d (%s), want %d (%s)", #call, st_,             \
                 aeskit_strerror(st_), (int)(want), aeskit_strerror(want));            \
    } while (0)

static const char *backend;
static uint8_t key32[32], key64[64], iv[16], aad[64], tag[16];
static uint8_t in[4096], out[4096 + 32];

static void reset_out(void) { memset(out, CANARY, sizeof out); }
#define UNTOUCHED() TH_CHECK(all_equal(out, sizeof out, CANARY), "output modified on error")

static void test_strerror(void)
{
    for (int s = 0; s <= AESKIT_ERR_ENVIRONMENT; s++) {
        if (s == 16) /* was AESKIT_ERR_XTS_KEY, removed in 1.0 */
            continue;
        const char *m = aeskit_strerror(s);
        TH_CHECK(m && *m && strcmp(m, "unknown status"), "status %d has no name", s);
        for (int t = 0; t < s; t++)
            if (t != 16)
                TH_CHECK(strcmp(m, aeskit_strerror(t)), "statuses %d and %d share a name", s, t);
    }
    TH_CHECK(!strcmp(aeskit_strerror(-1), "unknown status"), "unknown status");
    TH_CHECK(!strcmp(aeskit_strerror(16), "unknown status"), "status 16 (removed) has a name");
    TH_CHECK(!strcmp(aeskit_strerror(AESKIT_ERR_ENVIRONMENT + 1), "unknown status"),
             "unknown status");
    TH_CHECK(!strcmp(aeskit_strerror(9999), "unknown status"), "unknown status");
}

static void test_backend_queries(void)
{
    aeskit_backend_info bi;
    EXPECT(aeskit_backend_get(NULL, 0), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_backend_get(&bi, aeskit_backend_count()), AESKIT_ERR_ARGUMENT);
    EXPECT(aeskit_backend_check(NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_backend_check("no-such-backend"), AESKIT_ERR_BACKEND_UNKNOWN);
    EXPECT(aeskit_backend_check("generic"), AESKIT_OK);
    aeskit_aes_key k;
    EXPECT(aeskit_aes_init_backend(&k, key32, 16, "no-such-backend"), AESKIT_ERR_BACKEND_UNKNOWN);
    /* A compiled-in backend this CPU cannot run must be refused, not replaced. */
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        if (aeskit_backend_get(&bi, i) == AESKIT_OK && !bi.available) {
            EXPECT(aeskit_aes_init_backend(&k, key32, 16, bi.name), AESKIT_ERR_BACKEND_UNAVAILABLE);
            EXPECT(aeskit_backend_check(bi.name), AESKIT_ERR_BACKEND_UNAVAILABLE);
        }
    }
}

static void test_aes(void)
{
    aeskit_aes_key k;
    EXPECT(aeskit_aes_init_backend(NULL, key32, 16, backend), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_aes_init_backend(&k, NULL, 16, backend), AESKIT_ERR_NULL_POINTER);
    size_t bad[] = {0, 1, 15, 17, 20, 23, 25, 31, 33, 64};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        EXPECT(aeskit_aes_init_backend(&k, key32, bad[i], backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_aes_init_backend(&k, key32, 24, backend), AESKIT_OK);
    reset_out();
    EXPECT(aeskit_aes_encrypt_block(NULL, out, in), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_aes_encrypt_block(&k, NULL, in), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_aes_encrypt_block(&k, out, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_aes_decrypt_block(&k, out, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_aes_encrypt_block(&k, out + 1, out), AESKIT_ERR_OVERLAP);
    UNTOUCHED();

    /* ECB / CBC: whole blocks only, overlap, NULL with and without length. */
    uint8_t chain[16];
    EXPECT(aeskit_ecb_encrypt(&k, out, in, 15), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_ecb_decrypt(&k, out, in, 17), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_ecb_encrypt(&k, NULL, in, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ecb_encrypt(&k, out + 16, out, 32), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_ecb_encrypt(&k, NULL, NULL, 0), AESKIT_OK);
    memset(chain, 7, 16);
    EXPECT(aeskit_cbc_encrypt(&k, out, in, 31, chain), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_decrypt(&k, out, in, 1, chain), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_encrypt(&k, out, in, 16, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_decrypt(&k, out, out + 3, 32, chain), AESKIT_ERR_OVERLAP);
    TH_CHECK(all_equal(chain, 16, 7), "CBC chaining value modified on error");
    UNTOUCHED();

    /* CBC-PKCS#7 */
    size_t olen = 12345;
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, out, 31, &olen, in, 16, iv), AESKIT_ERR_BUFFER_TOO_SMALL);
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, out, 32, NULL, in, 16, iv), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, out, 32, &olen, in, 16, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, out, 64, &olen, in, 0, iv), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, out, 64, &olen, in, 17, iv), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, out, 15, &olen, in, 32, iv), AESKIT_ERR_BUFFER_TOO_SMALL);
    UNTOUCHED();
    TH_CHECK(olen == 12345, "out_len written on an argument error");
    /* Exactly one block of padding for a block-aligned input, and the round trip. */
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, out, 48, &olen, in, 32, iv), AESKIT_OK);
    TH_CHECK(olen == 48, "PKCS#7 of 32 bytes is 48 bytes, got %zu", olen);
    uint8_t ct[48], pt[48];
    memcpy(ct, out, 48);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, pt, 48, &olen, ct, 48, iv), AESKIT_OK);
    TH_CHECK(olen == 32 && !memcmp(pt, in, 32), "PKCS#7 round trip");
    /* A corrupted last block gives AESKIT_ERR_PADDING (with overwhelming
     * probability for each flip) and a zeroed output. */
    int padding_errors = 0;
    for (int bit = 0; bit < 128; bit++) {
        uint8_t c2[48];
        memcpy(c2, ct, 48);
        c2[32 + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        memset(pt, CANARY, sizeof pt);
        olen = 999;
        int st = aeskit_cbc_pkcs7_decrypt(&k, pt, 48, &olen, c2, 48, iv);
        if (st == AESKIT_ERR_PADDING) {
            padding_errors++;
            TH_CHECK(olen == 0 && all_equal(pt, 48, 0), "bad padding: output not zeroed");
        }
    }
    TH_CHECK(padding_errors >= 120, "only %d of 128 corrupted paddings rejected", padding_errors);
    aeskit_aes_wipe(&k);
}

static void test_ctr(void)
{
    aeskit_aes_key k;
    aeskit_ctr_ctx c;
    EXPECT(aeskit_aes_init_backend(&k, key32, 16, backend), AESKIT_OK);
    reset_out();
    EXPECT(aeskit_ctr_crypt(&k, out, in, 5, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_crypt(&k, NULL, in, 5, iv), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_crypt(&k, out + 1, out, 5, iv), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_ctr_crypt(&k, NULL, NULL, 0, iv), AESKIT_OK);
    memset(&c, 0, sizeof c);
    EXPECT(aeskit_ctr_update(&c, out, in, 5), AESKIT_ERR_STATE);
    EXPECT(aeskit_ctr_update(NULL, out, in, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, &k, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, NULL, iv), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, &k, iv), AESKIT_OK);
    EXPECT(aeskit_ctr_update(&c, out + 2, out, 40), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    aeskit_ctr_ctx_wipe(&c);
    EXPECT(aeskit_ctr_update(&c, out, in, 5), AESKIT_ERR_STATE);
    aeskit_aes_wipe(&k);
}

static void test_cmac(void)
{
    aeskit_cmac_key ck;
    aeskit_cmac_ctx c;
    EXPECT(aeskit_cmac_init_backend(&ck, key32, 19, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_cmac_init_backend(NULL, key32, 16, backend), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cmac_init_backend(&ck, key32, 32, backend), AESKIT_OK);
    reset_out();
    for (size_t t = 0; t <= 17; t++) {
        int want = (t >= 4 && t <= 16) ? AESKIT_OK : AESKIT_ERR_TAG_LENGTH;
        if (want != AESKIT_OK)
            EXPECT(aeskit_cmac(&ck, out, t, in, 10), want);
    }
    EXPECT(aeskit_cmac(&ck, out, 16, NULL, 10), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cmac(&ck, NULL, 16, in, 10), AESKIT_ERR_NULL_POINTER);
    UNTOUCHED();
    EXPECT(aeskit_cmac(&ck, tag, 16, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_cmac_verify(&ck, NULL, 0, tag, 16), AESKIT_OK);
    tag[15] ^= 1;
    EXPECT(aeskit_cmac_verify(&ck, NULL, 0, tag, 16), AESKIT_ERR_AUTH);
    EXPECT(aeskit_cmac_verify(&ck, NULL, 0, tag, 3), AESKIT_ERR_TAG_LENGTH);

    memset(&c, 0, sizeof c);
    EXPECT(aeskit_cmac_update(&c, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_cmac_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_cmac_start(&c, &ck), AESKIT_OK);
    EXPECT(aeskit_cmac_update(&c, NULL, 3), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cmac_update(&c, in, 33), AESKIT_OK);
    EXPECT(aeskit_cmac_finish(&c, tag, 17), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_cmac_finish(&c, tag, 16), AESKIT_OK);
    EXPECT(aeskit_cmac_update(&c, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_cmac_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_cmac_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    aeskit_cmac_ctx_wipe(&c);
    EXPECT(aeskit_cbcmac_blocks(NULL, out, in, 16), AESKIT_ERR_NULL_POINTER);
    aeskit_cmac_wipe(&ck);
}

/* GCM tag lengths allowed by SP 800-38D: 4, 8, 12..16. */
static int gcm_tag_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }

static void test_gcm(void)
{
    aeskit_gcm_key gk;
    aeskit_gcm_ctx c;
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 8, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 16, backend), AESKIT_OK);
    reset_out();
    for (size_t t = 0; t <= 17; t++)
        if (!gcm_tag_ok(t))
            EXPECT(aeskit_gcm_seal(&gk, out, out + 100, t, in, 5, iv, 12, aad, 5),
                   AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, 5, iv, 0, aad, 5), AESKIT_ERR_IV_LENGTH);
    EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, 5, NULL, 12, aad, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, 5, iv, 12, NULL, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, NULL, 5, iv, 12, aad, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, NULL, tag, 16, in, 5, iv, 12, aad, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, out, NULL, 16, in, 5, iv, 12, aad, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(NULL, out, tag, 16, in, 5, iv, 12, aad, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, out + 1, 64, iv, 12, aad, 5), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_gcm_seal(&gk, out, out + 10, 16, in, 64, iv, 12, aad, 5), AESKIT_ERR_OVERLAP);
    /* Limits, one past: checked before any byte is read, so a short buffer is safe. */
    uint64_t max_pt = (1ull << 36) - 32;
    if (sizeof(size_t) >= 8) {
        EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, (size_t)(max_pt + 1), iv, 12, aad, 5),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_gcm_open(&gk, out, in, (size_t)(max_pt + 1), tag, 16, iv, 12, aad, 5),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, 5, iv, 12, aad, (size_t)(1ull << 61)),
               AESKIT_ERR_AAD_TOO_LONG);
        EXPECT(aeskit_gmac(&gk, tag, 16, iv, 12, aad, (size_t)(1ull << 61)), AESKIT_ERR_AAD_TOO_LONG);
        EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, in, 5, iv, (size_t)(1ull << 61), aad, 5),
               AESKIT_ERR_IV_LENGTH);
    }
    UNTOUCHED();

    /* Streaming order. */
    memset(&c, 0, sizeof c);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, iv, 0), AESKIT_ERR_IV_LENGTH);
    EXPECT(aeskit_gcm_start(&c, NULL, AESKIT_SEAL, iv, 12), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_start(NULL, &gk, AESKIT_SEAL, iv, 12), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, NULL, 12), AESKIT_ERR_NULL_POINTER);
    /* A direction other than AESKIT_SEAL or AESKIT_OPEN. */
    EXPECT(aeskit_gcm_start(&c, &gk, (aeskit_direction)0, iv, 12), AESKIT_ERR_ARGUMENT);
    EXPECT(aeskit_gcm_start(&c, &gk, (aeskit_direction)3, iv, 12), AESKIT_ERR_ARGUMENT);
    EXPECT(aeskit_gcm_start(&c, &gk, (aeskit_direction)(AESKIT_SEAL | AESKIT_OPEN), iv, 12),
           AESKIT_ERR_ARGUMENT);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&c, out, in, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_ERR_STATE);
    /* Seal direction: finish_verify is the wrong finish, and leaves the
     * context as it was. */
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update(&c, out + 1, out, 20), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_gcm_update(&c, out, in, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_finish(&c, tag, 7), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_OK);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_ERR_STATE);
    /* Open direction: finish is the wrong finish (and changes nothing). */
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_OPEN, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&c, out, in, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update(&c, out, in, 3), AESKIT_OK);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 7), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_AUTH);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update(&c, out, in, 3), AESKIT_ERR_STATE);
    /* The wrong finish on a context holding no data yet (streaming GMAC). */
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 5), AESKIT_OK);
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_OK);
    {
        uint8_t want[16];
        EXPECT(aeskit_gmac(&gk, want, 16, iv, 12, aad, 5), AESKIT_OK);
        TH_CHECK(!memcmp(want, tag, 16), "streaming GMAC (seal, finish) differs from aeskit_gmac");
    }
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_OPEN, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 5), AESKIT_OK);
    reset_out();
    EXPECT(aeskit_gcm_finish(&c, out, 16), AESKIT_ERR_STATE);
    UNTOUCHED();
    EXPECT(aeskit_gcm_finish_verify(&c, tag, 16), AESKIT_OK);
    aeskit_gcm_ctx_wipe(&c);
    EXPECT(aeskit_gcm_update_aad(&c, aad, 1), AESKIT_ERR_STATE);
    aeskit_gcm_wipe(&gk);
}

/* The running plaintext total of a streaming GCM context at and one past
 * 2^36-32 bytes: 64 GiB through the cipher, so only on a backend with AES
 * instructions (generic and x86-ssse3 would take 10+ minutes; the limit is
 * the front end's, the same code for every backend). */
static void test_gcm_stream_limit(void)
{
    const char *be = backend ? backend : aeskit_backend_default();
    if (!strcmp(be, "generic") || !strcmp(be, "x86-ssse3") || th_scale() < 1.0 ||
        sizeof(size_t) < 8) {
        printf("note: GCM streaming limit at 2^36-32 bytes not run (backend %s, scale %.2f)\n",
               be, th_scale());
        return;
    }
    static uint8_t buf[1 << 20];
    aeskit_gcm_key gk;
    aeskit_gcm_ctx c;
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
    uint64_t total = 0, max_pt = (1ull << 36) - 32;
    int st = AESKIT_OK;
    while (st == AESKIT_OK && total + sizeof buf <= max_pt) {
        st = aeskit_gcm_update(&c, buf, buf, sizeof buf);
        total += sizeof buf;
    }
    TH_CHECK(st == AESKIT_OK, "streaming below the limit failed: %s", aeskit_strerror(st));
    size_t rest = (size_t)(max_pt - total);
    EXPECT(aeskit_gcm_update(&c, buf, buf, rest), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&c, buf, buf, 1), AESKIT_ERR_MESSAGE_TOO_LONG);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_OK);
    aeskit_gcm_wipe(&gk);
}

static void test_ccm(void)
{
    aeskit_aes_key k;
    EXPECT(aeskit_aes_init_backend(&k, key32, 16, backend), AESKIT_OK);
    reset_out();
    for (size_t n = 0; n <= 16; n++)
        if (n < 7 || n > 13)
            EXPECT(aeskit_ccm_seal(&k, out, out + 100, 16, in, 5, iv, n, aad, 3),
                   AESKIT_ERR_NONCE_LENGTH);
    for (size_t t = 0; t <= 18; t++)
        if (t < 4 || t > 16 || (t & 1))
            EXPECT(aeskit_ccm_seal(&k, out, out + 100, t, in, 5, iv, 12, aad, 3),
                   AESKIT_ERR_TAG_LENGTH);
    /* Length field of q = 15 - nonce_len bytes: 2^(8q) - 1 fits, 2^(8q) does not. */
    EXPECT(aeskit_ccm_seal(&k, out, tag, 16, in, 65536, iv, 13, aad, 3), AESKIT_ERR_MESSAGE_TOO_LONG);
    if (sizeof(size_t) >= 8) {
        EXPECT(aeskit_ccm_seal(&k, out, tag, 16, in, (size_t)1 << 24, iv, 12, aad, 3),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_ccm_open(&k, out, in, (size_t)1 << 32, tag, 16, iv, 11, aad, 3),
               AESKIT_ERR_MESSAGE_TOO_LONG);
    }
    EXPECT(aeskit_ccm_seal(&k, out, tag, 16, in, 5, NULL, 12, aad, 3), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ccm_seal(&k, out, tag, 16, out + 1, 40, iv, 12, aad, 3), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    static uint8_t big[65536], bigout[65536];
    EXPECT(aeskit_ccm_seal(&k, bigout, tag, 16, big, 65535, iv, 13, aad, 3), AESKIT_OK);
    EXPECT(aeskit_ccm_open(&k, big, bigout, 65535, tag, 16, iv, 13, aad, 3), AESKIT_OK);

    aeskit_rfc4309_key rk;
    EXPECT(aeskit_rfc4309_init_backend(&rk, key32, 16, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_rfc4309_init_backend(&rk, key32, 19, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4309_seal(&rk, out, tag, 10, in, 5, iv, aad, 8), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4309_seal(&rk, out, tag, 4, in, 5, iv, aad, 8), AESKIT_ERR_TAG_LENGTH);
    aeskit_rfc4309_wipe(&rk);
    aeskit_aes_wipe(&k);
}

static void test_rfc4106(void)
{
    aeskit_rfc4106_key rk;
    EXPECT(aeskit_rfc4106_init_backend(&rk, key32, 16, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_rfc4106_init_backend(&rk, key32, 21, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_rfc4106_init_backend(&rk, key32, 20, backend), AESKIT_OK);
    reset_out();
    EXPECT(aeskit_rfc4106_seal(&rk, out, tag, 4, in, 5, iv, aad, 8), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4106_seal(&rk, out, tag, 13, in, 5, iv, aad, 8), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4106_seal(&rk, out, tag, 16, in, 5, NULL, aad, 8), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_rfc4543_mac(&rk, tag, NULL, 5, iv, aad, 8), AESKIT_ERR_NULL_POINTER);
    UNTOUCHED();
    aeskit_rfc4106_wipe(&rk);
}

static void test_xts(void)
{
    aeskit_xts_key xk;
    EXPECT(aeskit_xts_init_backend(&xk, key64, 16, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_xts_init_backend(&xk, key64, 40, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_xts_init_backend(&xk, key64, 48, backend), AESKIT_OK);
    reset_out();
    EXPECT(aeskit_xts_encrypt(&xk, out, in, 15, iv), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_xts_decrypt(&xk, out, in, 0, iv), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_xts_encrypt(&xk, out, in, 16, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_xts_encrypt(&xk, out + 5, out, 40, iv), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    EXPECT(aeskit_xts_encrypt(&xk, out, in, 16, iv), AESKIT_OK);
    EXPECT(aeskit_xts_encrypt(&xk, out, in, 17, iv), AESKIT_OK);
    aeskit_xts_wipe(&xk);
}

/* Nothing lost on failure: for every mode with a tag, a rejected message
 * leaves an out-of-place output zeroed and an in-place buffer holding the
 * ciphertext it held before the call. */
static void test_failure_outputs(void)
{
    enum { N = 300 };
    static const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 256, 257, N};
    aeskit_gcm_key gk;
    aeskit_aes_key ak;
    aeskit_rfc4106_key r6;
    aeskit_rfc4309_key r9;
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 32, backend), AESKIT_OK);
    EXPECT(aeskit_aes_init_backend(&ak, key32, 24, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4106_init_backend(&r6, key32, 20, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4309_init_backend(&r9, key32, 19, backend), AESKIT_OK);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        for (int mode = 0; mode < 4; mode++) {
            uint8_t ct[N], t[16], buf[N], saved[N];
            th_fill(in, len);
            int st;
            switch (mode) {
            case 0: st = aeskit_gcm_seal(&gk, ct, t, 16, in, len, iv, 12, aad, 20); break;
            case 1: st = aeskit_ccm_seal(&ak, ct, t, 16, in, len, iv, 12, aad, 20); break;
            case 2: st = aeskit_rfc4106_seal(&r6, ct, t, 16, in, len, iv, aad, 8); break;
            default: st = aeskit_rfc4309_seal(&r9, ct, t, 16, in, len, iv, aad, 8); break;
            }
            TH_CHECK(st == AESKIT_OK, "mode %d seal: %s", mode, aeskit_strerror(st));
            t[len % 16] ^= 0x40; /* wrong tag */
            for (int inplace = 0; inplace < 2; inplace++) {
                uint8_t *dst = inplace ? buf : out;
                const uint8_t *src = inplace ? buf : ct;
                memcpy(buf, ct, len);
                memcpy(saved, ct, len);
                memset(out, CANARY, sizeof out);
                switch (mode) {
                case 0: st = aeskit_gcm_open(&gk, dst, src, len, t, 16, iv, 12, aad, 20); break;
                case 1: st = aeskit_ccm_open(&ak, dst, src, len, t, 16, iv, 12, aad, 20); break;
                case 2: st = aeskit_rfc4106_open(&r6, dst, src, len, t, 16, iv, aad, 8); break;
                default: st = aeskit_rfc4309_open(&r9, dst, src, len, t, 16, iv, aad, 8); break;
                }
                TH_CHECK(st == AESKIT_ERR_AUTH, "mode %d len %zu: forged tag accepted", mode, len);
                if (inplace)
                    TH_CHECK(!memcmp(buf, saved, len),
                             "mode %d len %zu: in-place buffer not restored", mode, len);
                else
                    TH_CHECK(all_equal(out, len, 0) && all_equal(out + len, sizeof out - len, CANARY),
                             "mode %d len %zu: output not zeroed (or written past len)", mode, len);
            }
        }
    }
    aeskit_gcm_wipe(&gk);
    aeskit_aes_wipe(&ak);
    aeskit_rfc4106_wipe(&r6);
    aeskit_rfc4309_wipe(&r9);
}

/* The ABI check, the version number and the object sizes. */
static void test_abi(void)
{
    EXPECT(aeskit_abi_check(), AESKIT_OK);
    TH_CHECK(aeskit_version_number() == AESKIT_VERSION_NUMBER, "aeskit_version_number() %lu, header %lu",
             aeskit_version_number(), (unsigned long)AESKIT_VERSION_NUMBER);
    TH_CHECK(aeskit_version_number() / 10000 == AESKIT_ABI_VERSION, "ABI version %d, version %lu",
             AESKIT_ABI_VERSION, aeskit_version_number());
    TH_CHECK(aeskit_version() && !strcmp(aeskit_version(), AESKIT_VERSION_STRING),
             "aeskit_version() \"%s\", header \"%s\"", aeskit_version(), AESKIT_VERSION_STRING);
    static const struct {
        aeskit_object type;
        size_t size;
        const char *name;
    } objs[] = {
        {AESKIT_OBJ_AES_KEY, sizeof(aeskit_aes_key), "aes_key"},
        {AESKIT_OBJ_GCM_KEY, sizeof(aeskit_gcm_key), "gcm_key"},
        {AESKIT_OBJ_CMAC_KEY, sizeof(aeskit_cmac_key), "cmac_key"},
        {AESKIT_OBJ_XTS_KEY, sizeof(aeskit_xts_key), "xts_key"},
        {AESKIT_OBJ_RFC4106_KEY, sizeof(aeskit_rfc4106_key), "rfc4106_key"},
        {AESKIT_OBJ_RFC4309_KEY, sizeof(aeskit_rfc4309_key), "rfc4309_key"},
        {AESKIT_OBJ_GCM_CTX, sizeof(aeskit_gcm_ctx), "gcm_ctx"},
        {AESKIT_OBJ_CMAC_CTX, sizeof(aeskit_cmac_ctx), "cmac_ctx"},
        {AESKIT_OBJ_CTR_CTX, sizeof(aeskit_ctr_ctx), "ctr_ctx"},
        {AESKIT_OBJ_GCMSIV_KEY, sizeof(aeskit_gcmsiv_key), "gcmsiv_key"},
        {AESKIT_OBJ_OCB_KEY, sizeof(aeskit_ocb_key), "ocb_key"},
        {AESKIT_OBJ_XAES_KEY, sizeof(aeskit_xaes_key), "xaes_key"},
        {AESKIT_OBJ_SIV_KEY, sizeof(aeskit_siv_key), "siv_key"},
        {AESKIT_OBJ_EAX_KEY, sizeof(aeskit_eax_key), "eax_key"},
        {AESKIT_OBJ_CFB_CTX, sizeof(aeskit_cfb_ctx), "cfb_ctx"},
        {AESKIT_OBJ_OFB_CTX, sizeof(aeskit_ofb_ctx), "ofb_ctx"},
        {AESKIT_OBJ_OCB_CTX, sizeof(aeskit_ocb_ctx), "ocb_ctx"},
        {AESKIT_OBJ_BACKEND_INFO, sizeof(aeskit_backend_info), "backend_info"},
        {AESKIT_OBJ_GCM_MSG, sizeof(aeskit_gcm_msg), "gcm_msg"},
        {AESKIT_OBJ_CCM_MSG, sizeof(aeskit_ccm_msg), "ccm_msg"},
        {AESKIT_OBJ_CMAC_MSG, sizeof(aeskit_cmac_msg), "cmac_msg"},
        {AESKIT_OBJ_CBCMAC_MSG, sizeof(aeskit_cbcmac_msg), "cbcmac_msg"},
        {AESKIT_OBJ_CBC_MSG, sizeof(aeskit_cbc_msg), "cbc_msg"},
        {AESKIT_OBJ_CTR_MSG, sizeof(aeskit_ctr_msg), "ctr_msg"},
    };
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++)
        TH_CHECK(aeskit_object_size(objs[i].type) == objs[i].size,
                 "aeskit_object_size(%s) %zu, sizeof %zu", objs[i].name,
                 aeskit_object_size(objs[i].type), objs[i].size);
    static const int unknown[] = {0, AESKIT_OBJ_CTR_MSG + 1, 100, -1};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        TH_CHECK(aeskit_object_size((aeskit_object)unknown[i]) == 0,
                 "aeskit_object_size(%d) of an unknown type is %zu, not 0", unknown[i],
                 aeskit_object_size((aeskit_object)unknown[i]));
    TH_CHECK(_Alignof(aeskit_aes_key) == AESKIT_ALIGNMENT && _Alignof(aeskit_gcm_key) == AESKIT_ALIGNMENT &&
                 _Alignof(aeskit_cmac_key) == AESKIT_ALIGNMENT &&
                 _Alignof(aeskit_xts_key) == AESKIT_ALIGNMENT &&
                 _Alignof(aeskit_rfc4106_key) == AESKIT_ALIGNMENT &&
                 _Alignof(aeskit_rfc4309_key) == AESKIT_ALIGNMENT,
             "a key type is not aligned to AESKIT_ALIGNMENT");
}

/* Every function that uses a key object refuses one that is not set up:
 * never initialised (zeroes or garbage), or wiped.  fill: 0 zeroes, 1 the
 * byte 0xA5, 2 random bytes, 3 set up and then wiped. */
static void fill_key(void *k, size_t n, int fill)
{
    if (fill == 0 || fill == 3)
        memset(k, 0, n);
    else if (fill == 1)
        memset(k, 0xA5, n);
    else
        th_fill((uint8_t *)k, n);
}

static void test_not_set_up(void)
{
    static const char *what[] = {"zeroed", "0xA5-filled", "random", "wiped"};
    static aeskit_aes_key ak;
    static aeskit_gcm_key gk;
    static aeskit_cmac_key ck;
    static aeskit_xts_key xk;
    static aeskit_rfc4106_key r6;
    static aeskit_rfc4309_key r9;
    for (int fill = 0; fill < 4; fill++) {
        for (int rep = 0; rep < (fill == 2 ? 16 : 1); rep++) {
            fill_key(&ak, sizeof ak, fill);
            fill_key(&gk, sizeof gk, fill);
            fill_key(&ck, sizeof ck, fill);
            fill_key(&xk, sizeof xk, fill);
            fill_key(&r6, sizeof r6, fill);
            fill_key(&r9, sizeof r9, fill);
            if (fill == 3) {
                EXPECT(aeskit_aes_init_backend(&ak, key32, 16, backend), AESKIT_OK);
                EXPECT(aeskit_gcm_init_backend(&gk, key32, 32, backend), AESKIT_OK);
                EXPECT(aeskit_cmac_init_backend(&ck, key32, 24, backend), AESKIT_OK);
                EXPECT(aeskit_xts_init_backend(&xk, key64, 64, backend), AESKIT_OK);
                EXPECT(aeskit_rfc4106_init_backend(&r6, key32, 20, backend), AESKIT_OK);
                EXPECT(aeskit_rfc4309_init_backend(&r9, key32, 19, backend), AESKIT_OK);
                aeskit_aes_wipe(&ak);
                aeskit_gcm_wipe(&gk);
                aeskit_cmac_wipe(&ck);
                aeskit_xts_wipe(&xk);
                aeskit_rfc4106_wipe(&r6);
                aeskit_rfc4309_wipe(&r9);
            }
            TH_CHECK(aeskit_aes_backend(&ak) && !*aeskit_aes_backend(&ak),
                     "%s aes key: backend \"%s\", want \"\"", what[fill], aeskit_aes_backend(&ak));
            TH_CHECK(aeskit_gcm_backend(&gk) && !*aeskit_gcm_backend(&gk),
                     "%s gcm key: backend \"%s\", want \"\"", what[fill], aeskit_gcm_backend(&gk));
            TH_CHECK(aeskit_cmac_backend(&ck) && !*aeskit_cmac_backend(&ck),
                     "%s cmac key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_xts_backend(&xk) && !*aeskit_xts_backend(&xk),
                     "%s xts key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_rfc4106_backend(&r6) && !*aeskit_rfc4106_backend(&r6),
                     "%s rfc4106 key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_rfc4309_backend(&r9) && !*aeskit_rfc4309_backend(&r9),
                     "%s rfc4309 key: backend not \"\"", what[fill]);
            reset_out();
            uint8_t chain[16];
            size_t olen = 777;
            aeskit_gcm_ctx gc;
            aeskit_cmac_ctx cc;
            aeskit_ctr_ctx tc;
            memcpy(chain, iv, 16);
#define STATE(call)                                                                    \
    do {                                                                               \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == AESKIT_ERR_STATE, "%s key: %s -> %d (%s), want AESKIT_ERR_STATE", \
                 what[fill], #call, st_, aeskit_strerror(st_));                        \
    } while (0)
            STATE(aeskit_aes_encrypt_block(&ak, out, in));
            STATE(aeskit_aes_decrypt_block(&ak, out, in));
            STATE(aeskit_ecb_encrypt(&ak, out, in, 64));
            STATE(aeskit_ecb_decrypt(&ak, out, in, 64));
            STATE(aeskit_cbc_encrypt(&ak, out, in, 64, chain));
            STATE(aeskit_cbc_decrypt(&ak, out, in, 64, chain));
            STATE(aeskit_cbc_pkcs7_encrypt(&ak, out, 80, &olen, in, 64, iv));
            STATE(aeskit_cbc_pkcs7_decrypt(&ak, out, 64, &olen, in, 64, iv));
            STATE(aeskit_ctr_crypt(&ak, out, in, 100, iv));
            STATE(aeskit_ctr_start(&tc, &ak, iv));
            STATE(aeskit_cbcmac_blocks(&ak, chain, in, 64));
            STATE(aeskit_ccm_seal(&ak, out, out + 200, 16, in, 100, iv, 12, aad, 20));
            STATE(aeskit_ccm_open(&ak, out, in, 100, tag, 16, iv, 12, aad, 20));
            STATE(aeskit_cmac(&ck, out, 16, in, 100));
            STATE(aeskit_cmac_verify(&ck, in, 100, tag, 16));
            STATE(aeskit_cmac_start(&cc, &ck));
            STATE(aeskit_gcm_seal(&gk, out, out + 200, 16, in, 100, iv, 12, aad, 20));
            STATE(aeskit_gcm_open(&gk, out, in, 100, tag, 16, iv, 12, aad, 20));
            STATE(aeskit_gmac(&gk, out, 16, iv, 12, aad, 20));
            STATE(aeskit_gmac_verify(&gk, tag, 16, iv, 12, aad, 20));
            STATE(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12));
            STATE(aeskit_gcm_start(&gc, &gk, AESKIT_OPEN, iv, 12));
            STATE(aeskit_rfc4106_seal(&r6, out, out + 200, 16, in, 100, iv, aad, 8));
            STATE(aeskit_rfc4106_open(&r6, out, in, 100, tag, 16, iv, aad, 8));
            STATE(aeskit_rfc4543_mac(&r6, out, in, 100, iv, aad, 8));
            STATE(aeskit_rfc4543_verify(&r6, in, 100, tag, iv, aad, 8));
            STATE(aeskit_rfc4309_seal(&r9, out, out + 200, 16, in, 100, iv, aad, 8));
            STATE(aeskit_rfc4309_open(&r9, out, in, 100, tag, 16, iv, aad, 8));
            STATE(aeskit_xts_encrypt(&xk, out, in, 100, iv));
            STATE(aeskit_xts_decrypt(&xk, out, in, 100, iv));
#undef STATE
            UNTOUCHED();
            TH_CHECK(!memcmp(chain, iv, 16), "%s key: CBC chaining value modified", what[fill]);
            TH_CHECK(olen == 777, "%s key: PKCS#7 out_len modified", what[fill]);
        }
    }
    /* A key object copied with memcpy to another aligned object works. */
    static aeskit_gcm_key g2;
    uint8_t t1[16], t2[16];
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 16, backend), AESKIT_OK);
    memcpy(&g2, &gk, sizeof gk);
    EXPECT(aeskit_gcm_seal(&gk, out, t1, 16, in, 100, iv, 12, aad, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_seal(&g2, out + 200, t2, 16, in, 100, iv, 12, aad, 20), AESKIT_OK);
    TH_CHECK(!memcmp(t1, t2, 16) && !memcmp(out, out + 200, 100), "a memcpy'd GCM key differs");
    aeskit_gcm_wipe(&gk);
    aeskit_gcm_wipe(&g2);
}

/* The same for the key objects and calls after 1.0: AES-GCM-SIV, XAES,
 * AES-SIV, EAX, and the modes on the AES key (KW, KWP, CBC-CTS, CFB-128,
 * CFB-8, OFB, one-shot and start); OCB is left to its streaming work.  Then
 * the batch calls: a not-set-up key in one descriptor fails that message
 * alone with AESKIT_ERR_STATE and writes none of its outputs, while the
 * message beside it (a good key) completes. */
static void test_not_set_up_modes(void)
{
    static const char *what[] = {"zeroed", "0xA5-filled", "random", "wiped"};
    static aeskit_aes_key ak;
    static aeskit_gcmsiv_key sk;
    static aeskit_xaes_key xk;
    static aeskit_siv_key vk;
    static aeskit_eax_key ek;
    static aeskit_ocb_key obk;
    static aeskit_gcm_key gk, good_gk;
    static aeskit_cmac_key ck, good_ck;
    static aeskit_aes_key good_ak;
    EXPECT(aeskit_gcm_init_backend(&good_gk, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_cmac_init_backend(&good_ck, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_aes_init_backend(&good_ak, key32, 16, backend), AESKIT_OK);
    for (int fill = 0; fill < 4; fill++) {
        for (int rep = 0; rep < (fill == 2 ? 16 : 1); rep++) {
            fill_key(&ak, sizeof ak, fill);
            fill_key(&sk, sizeof sk, fill);
            fill_key(&xk, sizeof xk, fill);
            fill_key(&vk, sizeof vk, fill);
            fill_key(&ek, sizeof ek, fill);
            fill_key(&obk, sizeof obk, fill);
            fill_key(&gk, sizeof gk, fill);
            fill_key(&ck, sizeof ck, fill);
            if (fill == 3) {
                EXPECT(aeskit_aes_init_backend(&ak, key32, 24, backend), AESKIT_OK);
                EXPECT(aeskit_gcmsiv_init_backend(&sk, key32, 32, backend), AESKIT_OK);
                EXPECT(aeskit_xaes_init_backend(&xk, key32, 32, backend), AESKIT_OK);
                EXPECT(aeskit_siv_init_backend(&vk, key64, 64, backend), AESKIT_OK);
                EXPECT(aeskit_eax_init_backend(&ek, key32, 16, backend), AESKIT_OK);
                EXPECT(aeskit_ocb_init_backend(&obk, key32, 24, backend), AESKIT_OK);
                EXPECT(aeskit_gcm_init_backend(&gk, key32, 32, backend), AESKIT_OK);
                EXPECT(aeskit_cmac_init_backend(&ck, key32, 32, backend), AESKIT_OK);
                aeskit_aes_wipe(&ak);
                aeskit_gcmsiv_wipe(&sk);
                aeskit_xaes_wipe(&xk);
                aeskit_siv_wipe(&vk);
                aeskit_eax_wipe(&ek);
                aeskit_ocb_wipe(&obk);
                aeskit_gcm_wipe(&gk);
                aeskit_cmac_wipe(&ck);
            }
            TH_CHECK(aeskit_gcmsiv_backend(&sk) && !*aeskit_gcmsiv_backend(&sk),
                     "%s gcmsiv key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_xaes_backend(&xk) && !*aeskit_xaes_backend(&xk),
                     "%s xaes key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_siv_backend(&vk) && !*aeskit_siv_backend(&vk),
                     "%s siv key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_eax_backend(&ek) && !*aeskit_eax_backend(&ek),
                     "%s eax key: backend not \"\"", what[fill]);
            TH_CHECK(aeskit_ocb_backend(&obk) && !*aeskit_ocb_backend(&obk),
                     "%s ocb key: backend not \"\"", what[fill]);
            reset_out();
            size_t olen = 777;
            const uint8_t *ad[2] = {aad, in};
            const size_t adl[2] = {20, 33};
            aeskit_cfb_ctx fc;
            aeskit_ofb_ctx oc;
            static aeskit_gcm_key dg;
#define STATE(call)                                                                    \
    do {                                                                               \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == AESKIT_ERR_STATE, "%s key: %s -> %d (%s), want AESKIT_ERR_STATE", \
                 what[fill], #call, st_, aeskit_strerror(st_));                        \
    } while (0)
            STATE(aeskit_gcmsiv_seal(&sk, out, out + 200, 16, in, 100, iv, 12, aad, 20));
            STATE(aeskit_gcmsiv_open(&sk, out, in, 100, tag, 16, iv, 12, aad, 20));
            STATE(aeskit_xaes_seal(&xk, out, out + 200, 16, in, 100, key32, 24, aad, 20));
            STATE(aeskit_xaes_open(&xk, out, in, 100, tag, 16, key32, 24, aad, 20));
            STATE(aeskit_xaes_derive_gcm(&xk, &dg, key32));
            STATE(aeskit_siv_seal(&vk, out, out + 200, in, 100, ad, adl, 2));
            STATE(aeskit_siv_open(&vk, out, in, 100, tag, ad, adl, 2));
            STATE(aeskit_siv_aead_seal(&vk, out, out + 200, in, 100, iv, 12, aad, 20));
            STATE(aeskit_siv_aead_open(&vk, out, in, 100, tag, iv, 12, aad, 20));
            STATE(aeskit_eax_seal(&ek, out, out + 200, 16, in, 100, iv, 16, aad, 20));
            STATE(aeskit_eax_open(&ek, out, in, 100, tag, 16, iv, 16, aad, 20));
            STATE(aeskit_ocb_seal(&obk, out, out + 200, 16, in, 100, iv, 12, aad, 20));
            STATE(aeskit_ocb_open(&obk, out, in, 100, tag, 16, iv, 12, aad, 20));
            aeskit_ocb_ctx octx;
            STATE(aeskit_ocb_start(&octx, &obk, AESKIT_SEAL, iv, 12, 16));
            STATE(aeskit_kw_wrap(&ak, out, 72, &olen, in, 64));
            STATE(aeskit_kw_unwrap(&ak, out, 64, &olen, in, 72));
            STATE(aeskit_kwp_wrap(&ak, out, 80, &olen, in, 65));
            STATE(aeskit_kwp_unwrap(&ak, out, 80, &olen, in, 80));
            STATE(aeskit_cbc_cts_encrypt(&ak, out, in, 100, iv, AESKIT_CTS_CS1));
            STATE(aeskit_cbc_cts_decrypt(&ak, out, in, 100, iv, AESKIT_CTS_CS2));
            STATE(aeskit_cbc_cts_encrypt(&ak, out, in, 100, iv, AESKIT_CTS_CS3));
            STATE(aeskit_cfb128_encrypt(&ak, out, in, 100, iv));
            STATE(aeskit_cfb128_decrypt(&ak, out, in, 100, iv));
            STATE(aeskit_cfb8_encrypt(&ak, out, in, 100, iv));
            STATE(aeskit_cfb8_decrypt(&ak, out, in, 100, iv));
            STATE(aeskit_ofb_crypt(&ak, out, in, 100, iv));
            STATE(aeskit_cfb128_start(&fc, &ak, AESKIT_SEAL, iv));
            STATE(aeskit_cfb8_start(&fc, &ak, AESKIT_OPEN, iv));
            STATE(aeskit_ofb_start(&oc, &ak, iv));
#undef STATE
            UNTOUCHED();
            TH_CHECK(olen == 777, "%s key: KW/KWP out_len modified", what[fill]);

            /* Batch calls: message 0 has the good key, message 1 the bad one
             * (its outputs in out[1000..], which must stay CANARY). */
            uint8_t good_out[100], good_tag[16], good_state[16], good_iv[16];
            uint8_t *bad = out + 1000;
            aeskit_gcm_msg gm[2] = {
                {&good_gk, good_out, good_tag, 16, in, 100, iv, 12, aad, 20, AESKIT_OK},
                {&gk, bad, bad + 200, 16, in, 100, iv, 12, aad, 20, AESKIT_OK}};
            EXPECT(aeskit_gcm_seal_batch(gm, 2), AESKIT_ERR_STATE);
            TH_CHECK(gm[0].status == AESKIT_OK && gm[1].status == AESKIT_ERR_STATE,
                     "%s key: gcm_seal_batch statuses %d %d", what[fill], gm[0].status,
                     gm[1].status);
            gm[0].in = good_out;
            gm[0].out = good_out;
            gm[1].tag = tag;
            EXPECT(aeskit_gcm_open_batch(gm, 2), AESKIT_ERR_STATE);
            TH_CHECK(gm[0].status == AESKIT_OK && gm[1].status == AESKIT_ERR_STATE,
                     "%s key: gcm_open_batch statuses %d %d", what[fill], gm[0].status,
                     gm[1].status);
            TH_CHECK(!memcmp(good_out, in, 100), "%s key: gcm batch good message wrong",
                     what[fill]);
            aeskit_gcm_msg mm[2] = {
                {&good_gk, NULL, good_tag, 16, NULL, 0, iv, 12, aad, 20, AESKIT_OK},
                {&gk, NULL, bad + 200, 16, NULL, 0, iv, 12, aad, 20, AESKIT_OK}};
            EXPECT(aeskit_gmac_batch(mm, 2), AESKIT_ERR_STATE);
            TH_CHECK(mm[0].status == AESKIT_OK && mm[1].status == AESKIT_ERR_STATE,
                     "%s key: gmac_batch statuses", what[fill]);
            mm[1].tag = tag;
            EXPECT(aeskit_gmac_verify_batch(mm, 2), AESKIT_ERR_STATE);
            TH_CHECK(mm[0].status == AESKIT_OK && mm[1].status == AESKIT_ERR_STATE,
                     "%s key: gmac_verify_batch statuses", what[fill]);
            aeskit_ccm_msg cm[2] = {
                {&good_ak, good_out, good_tag, 16, in, 100, iv, 12, aad, 20, AESKIT_OK},
                {&ak, bad, bad + 200, 16, in, 100, iv, 12, aad, 20, AESKIT_OK}};
            EXPECT(aeskit_ccm_seal_batch(cm, 2), AESKIT_ERR_STATE);
            TH_CHECK(cm[0].status == AESKIT_OK && cm[1].status == AESKIT_ERR_STATE,
                     "%s key: ccm_seal_batch statuses", what[fill]);
            cm[0].in = good_out;
            cm[0].out = good_out;
            cm[1].tag = tag;
            EXPECT(aeskit_ccm_open_batch(cm, 2), AESKIT_ERR_STATE);
            TH_CHECK(cm[0].status == AESKIT_OK && cm[1].status == AESKIT_ERR_STATE,
                     "%s key: ccm_open_batch statuses", what[fill]);
            aeskit_cmac_msg km[2] = {{&good_ck, good_tag, 16, in, 100, AESKIT_OK},
                                     {&ck, bad + 200, 16, in, 100, AESKIT_OK}};
            EXPECT(aeskit_cmac_batch(km, 2), AESKIT_ERR_STATE);
            TH_CHECK(km[0].status == AESKIT_OK && km[1].status == AESKIT_ERR_STATE,
                     "%s key: cmac_batch statuses", what[fill]);
            km[1].tag = tag;
            EXPECT(aeskit_cmac_verify_batch(km, 2), AESKIT_ERR_STATE);
            TH_CHECK(km[0].status == AESKIT_OK && km[1].status == AESKIT_ERR_STATE,
                     "%s key: cmac_verify_batch statuses", what[fill]);
            memset(good_state, 0, 16);
            aeskit_cbcmac_msg bm[2] = {{&good_ak, good_state, in, 64, AESKIT_OK},
                                       {&ak, bad + 300, in, 64, AESKIT_OK}};
            EXPECT(aeskit_cbcmac_batch(bm, 2), AESKIT_ERR_STATE);
            TH_CHECK(bm[0].status == AESKIT_OK && bm[1].status == AESKIT_ERR_STATE,
                     "%s key: cbcmac_batch statuses", what[fill]);
            memcpy(good_iv, iv, 16);
            aeskit_cbc_msg pm[2] = {{&good_ak, good_out, in, 64, good_iv, AESKIT_OK},
                                    {&ak, bad, in, 64, bad + 300, AESKIT_OK}};
            EXPECT(aeskit_cbc_encrypt_batch(pm, 2), AESKIT_ERR_STATE);
            TH_CHECK(pm[0].status == AESKIT_OK && pm[1].status == AESKIT_ERR_STATE,
                     "%s key: cbc_encrypt_batch statuses", what[fill]);
            EXPECT(aeskit_cbc_decrypt_batch(pm, 2), AESKIT_ERR_STATE);
            TH_CHECK(pm[0].status == AESKIT_OK && pm[1].status == AESKIT_ERR_STATE,
                     "%s key: cbc_decrypt_batch statuses", what[fill]);
            aeskit_ctr_msg tm[2] = {{&good_ak, good_out, in, 100, iv, AESKIT_OK},
                                    {&ak, bad, in, 100, iv, AESKIT_OK}};
            EXPECT(aeskit_ctr_batch(tm, 2), AESKIT_ERR_STATE);
            TH_CHECK(tm[0].status == AESKIT_OK && tm[1].status == AESKIT_ERR_STATE,
                     "%s key: ctr_batch statuses", what[fill]);
            UNTOUCHED();
        }
    }
    aeskit_gcm_wipe(&good_gk);
    aeskit_cmac_wipe(&good_ck);
    aeskit_aes_wipe(&good_ak);
}

/* *_init refuses a key object that is not 64-byte aligned; aligned_alloc
 * and posix_memalign give objects it accepts. */
static void test_alignment(void)
{
    enum { MAXSZ = AESKIT_RFC4106_KEY_SIZE > AESKIT_XTS_KEY_SIZE ? AESKIT_RFC4106_KEY_SIZE
                                                                  : AESKIT_XTS_KEY_SIZE };
    unsigned char *raw = malloc(MAXSZ + 2 * AESKIT_ALIGNMENT);
    TH_CHECK(raw != NULL, "malloc");
    if (!raw)
        return;
    /* An address that is 16 mod 64: what malloc typically gives. */
    uintptr_t a = ((uintptr_t)raw + AESKIT_ALIGNMENT - 1) & ~(uintptr_t)(AESKIT_ALIGNMENT - 1);
    static const size_t offs[] = {16, 32, 48};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        void *p = (void *)(a + offs[i]);
        memset(p, 0x5a, MAXSZ);
        EXPECT(aeskit_aes_init_backend((aeskit_aes_key *)p, key32, 16, backend), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_aes_init((aeskit_aes_key *)p, key32, 16), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_gcm_init_backend((aeskit_gcm_key *)p, key32, 16, backend), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_gcm_init((aeskit_gcm_key *)p, key32, 16), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_cmac_init_backend((aeskit_cmac_key *)p, key32, 16, backend), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_cmac_init((aeskit_cmac_key *)p, key32, 16), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_xts_init_backend((aeskit_xts_key *)p, key64, 32, backend), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_xts_init((aeskit_xts_key *)p, key64, 32), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_rfc4106_init_backend((aeskit_rfc4106_key *)p, key32, 20, backend),
               AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_rfc4106_init((aeskit_rfc4106_key *)p, key32, 20), AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_rfc4309_init_backend((aeskit_rfc4309_key *)p, key32, 19, backend),
               AESKIT_ERR_ALIGNMENT);
        EXPECT(aeskit_rfc4309_init((aeskit_rfc4309_key *)p, key32, 19), AESKIT_ERR_ALIGNMENT);
        /* Nothing written on the error. */
        TH_CHECK(all_equal(p, MAXSZ, 0x5a), "misaligned key object (offset %zu) modified", offs[i]);
    }
    free(raw);

    /* Heap objects with the right alignment work, and give the same answers
     * as a static one. */
    aeskit_gcm_key *hg = aligned_alloc(AESKIT_ALIGNMENT, sizeof *hg);
    aeskit_aes_key *ha = aligned_alloc(AESKIT_ALIGNMENT, sizeof *ha);
    void *pm = NULL;
    TH_CHECK(posix_memalign(&pm, AESKIT_ALIGNMENT, sizeof(aeskit_xts_key)) == 0, "posix_memalign");
    aeskit_xts_key *hx = pm;
    TH_CHECK(hg && ha && hx, "aligned_alloc");
    if (hg && ha && hx) {
        static aeskit_gcm_key sg;
        uint8_t t1[16], t2[16], c1[100], c2[100];
        EXPECT(aeskit_gcm_init_backend(hg, key32, 16, backend), AESKIT_OK);
        EXPECT(aeskit_gcm_init_backend(&sg, key32, 16, backend), AESKIT_OK);
        EXPECT(aeskit_gcm_seal(hg, c1, t1, 16, in, 100, iv, 12, aad, 20), AESKIT_OK);
        EXPECT(aeskit_gcm_seal(&sg, c2, t2, 16, in, 100, iv, 12, aad, 20), AESKIT_OK);
        TH_CHECK(!memcmp(t1, t2, 16) && !memcmp(c1, c2, 100), "heap GCM key differs");
        EXPECT(aeskit_gcm_open(hg, c2, c1, 100, t1, 16, iv, 12, aad, 20), AESKIT_OK);
        EXPECT(aeskit_aes_init(ha, key32, 32), AESKIT_OK);
        EXPECT(aeskit_ctr_crypt(ha, c1, in, 100, iv), AESKIT_OK);
        EXPECT(aeskit_xts_init_backend(hx, key64, 64, backend), AESKIT_OK);
        EXPECT(aeskit_xts_encrypt(hx, c1, in, 100, iv), AESKIT_OK);
        EXPECT(aeskit_xts_decrypt(hx, c2, c1, 100, iv), AESKIT_OK);
        TH_CHECK(!memcmp(c2, in, 100), "heap XTS key round trip");
        aeskit_gcm_wipe(hg);
        aeskit_gcm_wipe(&sg);
        aeskit_aes_wipe(ha);
        aeskit_xts_wipe(hx);
    }
    free(hg);
    free(ha);
    free(hx);
}

/* A pointer may be NULL wherever its length is 0. */
static void test_null_empty(void)
{
    aeskit_aes_key ak;
    aeskit_gcm_key gk;
    aeskit_cmac_key ck;
    aeskit_rfc4106_key r6;
    aeskit_rfc4309_key r9;
    aeskit_gcm_ctx gc;
    aeskit_cmac_ctx cc;
    aeskit_ctr_ctx tc;
    uint8_t t[16], t2[16], chain[16];
    EXPECT(aeskit_aes_init_backend(&ak, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_cmac_init_backend(&ck, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4106_init_backend(&r6, key32, 20, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4309_init_backend(&r9, key32, 19, backend), AESKIT_OK);

    /* Block modes. */
    memcpy(chain, iv, 16);
    EXPECT(aeskit_ecb_encrypt(&ak, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ecb_decrypt(&ak, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_cbc_encrypt(&ak, NULL, NULL, 0, chain), AESKIT_OK);
    EXPECT(aeskit_cbc_decrypt(&ak, NULL, NULL, 0, chain), AESKIT_OK);
    TH_CHECK(!memcmp(chain, iv, 16), "CBC of 0 bytes changed the chaining value");
    EXPECT(aeskit_cbcmac_blocks(&ak, chain, NULL, 0), AESKIT_OK);
    TH_CHECK(!memcmp(chain, iv, 16), "CBC-MAC of 0 bytes changed the state");
    EXPECT(aeskit_ctr_crypt(&ak, NULL, NULL, 0, iv), AESKIT_OK);
    size_t olen = 0;
    uint8_t pad[16];
    EXPECT(aeskit_cbc_pkcs7_encrypt(&ak, pad, 16, &olen, NULL, 0, iv), AESKIT_OK);
    TH_CHECK(olen == 16, "PKCS#7 of nothing is one block, got %zu", olen);
    uint8_t back[16];
    EXPECT(aeskit_cbc_pkcs7_decrypt(&ak, back, 16, &olen, pad, 16, iv), AESKIT_OK);
    TH_CHECK(olen == 0, "PKCS#7 round trip of nothing gave %zu bytes", olen);

    /* Streaming CTR. */
    EXPECT(aeskit_ctr_start(&tc, &ak, iv), AESKIT_OK);
    EXPECT(aeskit_ctr_update(&tc, NULL, NULL, 0), AESKIT_OK);
    uint8_t c1[40], c2[40];
    EXPECT(aeskit_ctr_update(&tc, c1, in, 20), AESKIT_OK);
    EXPECT(aeskit_ctr_update(&tc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ctr_update(&tc, c1 + 20, in + 20, 20), AESKIT_OK);
    EXPECT(aeskit_ctr_crypt(&ak, c2, in, 40, iv), AESKIT_OK);
    TH_CHECK(!memcmp(c1, c2, 40), "CTR streaming with empty updates differs");
    aeskit_ctr_ctx_wipe(&tc);

    /* CMAC. */
    EXPECT(aeskit_cmac(&ck, t, 16, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_cmac_verify(&ck, NULL, 0, t, 16), AESKIT_OK);
    EXPECT(aeskit_cmac_start(&cc, &ck), AESKIT_OK);
    EXPECT(aeskit_cmac_update(&cc, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_cmac_finish(&cc, t2, 16), AESKIT_OK);
    TH_CHECK(!memcmp(t, t2, 16), "streaming CMAC of nothing differs");
    EXPECT(aeskit_cmac_start(&cc, &ck), AESKIT_OK);
    EXPECT(aeskit_cmac_update(&cc, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_cmac_finish_verify(&cc, t, 16), AESKIT_OK);
    aeskit_cmac_ctx_wipe(&cc);

    /* GCM / GMAC: empty message and/or empty AAD. */
    EXPECT(aeskit_gcm_seal(&gk, NULL, t, 16, NULL, 0, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_open(&gk, NULL, NULL, 0, t, 16, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gmac(&gk, t2, 16, iv, 12, NULL, 0), AESKIT_OK);
    TH_CHECK(!memcmp(t, t2, 16), "GMAC of nothing differs from GCM of nothing");
    EXPECT(aeskit_gmac_verify(&gk, t, 16, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_seal(&gk, c1, t, 16, in, 40, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_open(&gk, c2, c1, 40, t, 16, iv, 12, NULL, 0), AESKIT_OK);
    TH_CHECK(!memcmp(c2, in, 40), "GCM without AAD: round trip");
    EXPECT(aeskit_gcm_seal(&gk, NULL, t, 16, NULL, 0, iv, 12, aad, 20), AESKIT_OK);
    EXPECT(aeskit_gmac_verify(&gk, t, 16, iv, 12, aad, 20), AESKIT_OK);
    /* Streaming, with every kind of empty call. */
    EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, aad, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, c1, in, 40), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_finish(&gc, t, 16), AESKIT_OK);
    EXPECT(aeskit_gcm_seal(&gk, c2, t2, 16, in, 40, iv, 12, aad, 20), AESKIT_OK);
    TH_CHECK(!memcmp(c1, c2, 40) && !memcmp(t, t2, 16), "GCM streaming with empty calls differs");
    EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_OPEN, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, aad, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, c1, c2, 40), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_finish_verify(&gc, t2, 16), AESKIT_OK);
    TH_CHECK(!memcmp(c1, in, 40), "GCM streaming open with empty calls");
    /* An empty update ends the AAD phase. */
    EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_update(&gc, NULL, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_gcm_update_aad(&gc, NULL, 0), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_update_aad(&gc, aad, 1), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&gc, t, 16), AESKIT_OK);
    EXPECT(aeskit_gcm_seal(&gk, NULL, t2, 16, NULL, 0, iv, 12, NULL, 0), AESKIT_OK);
    TH_CHECK(!memcmp(t, t2, 16), "streaming GCM of nothing differs");
    aeskit_gcm_ctx_wipe(&gc);

    /* CCM, RFC 4106, RFC 4543, RFC 4309. */
    EXPECT(aeskit_ccm_seal(&ak, NULL, t, 16, NULL, 0, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ccm_open(&ak, NULL, NULL, 0, t, 16, iv, 12, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ccm_seal(&ak, c1, t, 8, in, 40, iv, 7, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ccm_open(&ak, c2, c1, 40, t, 8, iv, 7, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_ccm_seal(&ak, NULL, t, 16, NULL, 0, iv, 13, aad, 20), AESKIT_OK);
    EXPECT(aeskit_ccm_open(&ak, NULL, NULL, 0, t, 16, iv, 13, aad, 20), AESKIT_OK);
    EXPECT(aeskit_rfc4106_seal(&r6, NULL, t, 16, NULL, 0, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4106_open(&r6, NULL, NULL, 0, t, 16, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4106_seal(&r6, c1, t, 12, in, 40, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4106_open(&r6, c2, c1, 40, t, 12, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4543_mac(&r6, t, NULL, 0, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4543_verify(&r6, NULL, 0, t, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4543_mac(&r6, t, NULL, 0, iv, aad, 8), AESKIT_OK);
    EXPECT(aeskit_rfc4543_verify(&r6, NULL, 0, t, iv, aad, 8), AESKIT_OK);
    EXPECT(aeskit_rfc4309_seal(&r9, NULL, t, 16, NULL, 0, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4309_open(&r9, NULL, NULL, 0, t, 16, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4309_seal(&r9, c1, t, 8, in, 40, iv, NULL, 0), AESKIT_OK);
    EXPECT(aeskit_rfc4309_open(&r9, c2, c1, 40, t, 8, iv, NULL, 0), AESKIT_OK);

    /* NULL with a length is still refused. */
    EXPECT(aeskit_gcm_update_aad(&gc, NULL, 1), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cmac_update(&cc, NULL, 1), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, c1, t, 16, in, 40, iv, 12, NULL, 1), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ccm_seal(&ak, NULL, t, 16, in, 1, iv, 12, NULL, 0), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_rfc4106_seal(&r6, c1, t, 16, NULL, 1, iv, NULL, 0), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_rfc4309_open(&r9, c1, in, 16, t, 16, iv, NULL, 8), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_rfc4543_verify(&r6, NULL, 8, t, iv, NULL, 0), AESKIT_ERR_NULL_POINTER);

    aeskit_aes_wipe(&ak);
    aeskit_gcm_wipe(&gk);
    aeskit_cmac_wipe(&ck);
    aeskit_rfc4106_wipe(&r6);
    aeskit_rfc4309_wipe(&r9);
}

/* IVs, nonces, tweaks, chaining values, tags and AAD must not overlap the
 * message output, not even exactly; a tag output may overlap inputs. */
static void test_read_only_overlap(void)
{
    aeskit_aes_key ak;
    aeskit_gcm_key gk;
    aeskit_cmac_key ck;
    aeskit_xts_key xk;
    aeskit_rfc4106_key r6;
    aeskit_rfc4309_key r9;
    aeskit_gcm_ctx gc;
    aeskit_ctr_ctx tc;
    EXPECT(aeskit_aes_init_backend(&ak, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_gcm_init_backend(&gk, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_cmac_init_backend(&ck, key32, 16, backend), AESKIT_OK);
    EXPECT(aeskit_xts_init_backend(&xk, key64, 32, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4106_init_backend(&r6, key32, 20, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4309_init_backend(&r9, key32, 19, backend), AESKIT_OK);
    /* The read-only argument sits in out: at its start, inside, at its last
     * byte.  out is refilled from `pattern` before each call, and checked
     * unchanged after. */
    static const size_t at[] = {0, 16, 63};
    uint8_t pattern[sizeof out];
    th_fill(pattern, sizeof pattern);
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        uint8_t *p = out + at[i];
        size_t olen = 555;
#define OVL(call)                                                                      \
    do {                                                                               \
        memcpy(out, pattern, sizeof out);                                              \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == AESKIT_ERR_OVERLAP, "at %zu: %s -> %d (%s), want AESKIT_ERR_OVERLAP", \
                 at[i], #call, st_, aeskit_strerror(st_));                             \
        TH_CHECK(!memcmp(out, pattern, sizeof out), "at %zu: %s modified out", at[i], #call); \
    } while (0)
        /* out = out[0..64), in elsewhere (and in place for the ciphers). */
        OVL(aeskit_ctr_crypt(&ak, out, in, 64, p));
        OVL(aeskit_ctr_crypt(&ak, out, out, 64, p));
        OVL(aeskit_cbc_encrypt(&ak, out, in, 64, p));
        OVL(aeskit_cbc_decrypt(&ak, out, in, 64, p));
        OVL(aeskit_cbc_decrypt(&ak, out, out, 64, p));
        OVL(aeskit_cbc_pkcs7_encrypt(&ak, out, 80, &olen, in, 64 - 16, p));
        OVL(aeskit_cbc_pkcs7_decrypt(&ak, out, 64, &olen, in, 64, p));
        OVL(aeskit_xts_encrypt(&xk, out, in, 64, p));
        OVL(aeskit_xts_encrypt(&xk, out, out, 64, p));
        OVL(aeskit_xts_decrypt(&xk, out, in, 64, p));
        OVL(aeskit_xts_decrypt(&xk, out, in, 60, out + at[i] % 60));
        OVL(aeskit_gcm_seal(&gk, out, tag, 16, in, 64, p, 12, aad, 20));
        OVL(aeskit_gcm_seal(&gk, out, tag, 16, in, 64, iv, 12, p, 1));
        OVL(aeskit_gcm_seal(&gk, out, tag, 16, out, 64, p, 1, aad, 20));
        OVL(aeskit_gcm_open(&gk, out, in, 64, p, 16, iv, 12, aad, 20));
        OVL(aeskit_gcm_open(&gk, out, in, 64, tag, 16, p, 12, aad, 20));
        OVL(aeskit_gcm_open(&gk, out, in, 64, tag, 16, iv, 12, p, 1));
        OVL(aeskit_ccm_seal(&ak, out, tag, 16, in, 64, p, 12, aad, 20));
        OVL(aeskit_ccm_seal(&ak, out, tag, 16, in, 64, iv, 12, p, 1));
        OVL(aeskit_ccm_open(&ak, out, in, 64, p, 16, iv, 12, aad, 20));
        OVL(aeskit_ccm_open(&ak, out, in, 64, tag, 16, p, 7, aad, 20));
        OVL(aeskit_rfc4106_seal(&r6, out, tag, 16, in, 64, p, aad, 8));
        OVL(aeskit_rfc4106_seal(&r6, out, out, 16, out, 64, iv, aad, 8));
        OVL(aeskit_rfc4106_seal(&r6, out, tag, 16, in, 64, iv, p, 1));
        OVL(aeskit_rfc4106_open(&r6, out, in, 64, tag, 16, p, aad, 8));
        OVL(aeskit_rfc4106_open(&r6, out, out, 64, p, 16, iv, aad, 8));
        OVL(aeskit_rfc4309_seal(&r9, out, tag, 16, in, 64, p, aad, 8));
        OVL(aeskit_rfc4309_seal(&r9, out, tag, 16, in, 64, iv, p, 1));
        OVL(aeskit_rfc4309_open(&r9, out, in, 64, tag, 16, p, aad, 8));
        OVL(aeskit_rfc4309_open(&r9, out, out, 64, p, 16, iv, aad, 8));
        /* A tag output is written after every input has been read
         * (aeskit.h, the overlap rule): an input inside the tag is
         * allowed, and the tag equals that of the same call reading a copy
         * of the input (c points to the copy of what pt points to). */
        uint8_t *pt = out + (at[i] == 0 ? 0 : at[i] == 16 ? 8 : 15);
        uint8_t cpy[sizeof out], ref[16], ct[64];
        const uint8_t *c = cpy + (pt - out);
#define TAG_SAME(refcall, call)                                                         \
    do {                                                                                \
        memcpy(out, pattern, sizeof out);                                               \
        memcpy(cpy, pattern, sizeof out);                                               \
        int a_ = (refcall), b_ = (call);                                                \
        TH_CHECK(a_ == AESKIT_OK && b_ == AESKIT_OK && !memcmp(ref, out, 16),           \
                 "at %zu: %s -> %d, %s -> %d, or the tags differ", at[i], #refcall, a_, \
                 #call, b_);                                                            \
    } while (0)
        TAG_SAME(aeskit_gmac(&gk, ref, 16, c, 12, aad, 20), aeskit_gmac(&gk, out, 16, pt, 12, aad, 20));
        TAG_SAME(aeskit_gmac(&gk, ref, 16, iv, 12, c, 1), aeskit_gmac(&gk, out, 16, iv, 12, pt, 1));
        TAG_SAME(aeskit_rfc4543_mac(&r6, ref, in, 64, c, aad, 8),
                 aeskit_rfc4543_mac(&r6, out, in, 64, pt, aad, 8));
        TAG_SAME(aeskit_rfc4543_mac(&r6, ref, in, 64, iv, c, 1),
                 aeskit_rfc4543_mac(&r6, out, in, 64, iv, pt, 1));
        TAG_SAME(aeskit_rfc4543_mac(&r6, ref, c, 1, iv, aad, 8),
                 aeskit_rfc4543_mac(&r6, out, pt, 1, iv, aad, 8));
        TAG_SAME(aeskit_cmac(&ck, ref, 16, c, 1), aeskit_cmac(&ck, out, 16, pt, 1));
        /* The tag output of a seal (at out, the ciphertext elsewhere)
         * with the IV / nonce or the AAD inside it. */
        TAG_SAME(aeskit_gcm_seal(&gk, ct, ref, 16, in, 64, c, 12, aad, 20),
                 aeskit_gcm_seal(&gk, out + 128, out, 16, in, 64, pt, 12, aad, 20));
        TAG_SAME(aeskit_gcm_seal(&gk, ct, ref, 16, in, 64, iv, 12, c, 1),
                 aeskit_gcm_seal(&gk, out + 128, out, 16, in, 64, iv, 12, pt, 1));
        TAG_SAME(aeskit_ccm_seal(&ak, ct, ref, 16, in, 64, c, 12, aad, 20),
                 aeskit_ccm_seal(&ak, out + 128, out, 16, in, 64, pt, 12, aad, 20));
        TAG_SAME(aeskit_ccm_seal(&ak, ct, ref, 16, in, 64, iv, 12, c, 1),
                 aeskit_ccm_seal(&ak, out + 128, out, 16, in, 64, iv, 12, pt, 1));
        TAG_SAME(aeskit_rfc4106_seal(&r6, ct, ref, 16, in, 64, c, aad, 8),
                 aeskit_rfc4106_seal(&r6, out + 128, out, 16, in, 64, pt, aad, 8));
        TAG_SAME(aeskit_rfc4106_seal(&r6, ct, ref, 16, in, 64, iv, c, 1),
                 aeskit_rfc4106_seal(&r6, out + 128, out, 16, in, 64, iv, pt, 1));
        TAG_SAME(aeskit_rfc4309_seal(&r9, ct, ref, 16, in, 64, c, aad, 8),
                 aeskit_rfc4309_seal(&r9, out + 128, out, 16, in, 64, pt, aad, 8));
        TAG_SAME(aeskit_rfc4309_seal(&r9, ct, ref, 16, in, 64, iv, c, 1),
                 aeskit_rfc4309_seal(&r9, out + 128, out, 16, in, 64, iv, pt, 1));
#undef TAG_SAME
        /* Streaming. */
        EXPECT(aeskit_ctr_start(&tc, &ak, iv), AESKIT_OK);
        OVL(aeskit_ctr_update(&tc, out + 1, out, 64));
        aeskit_ctr_ctx_wipe(&tc);
        EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
        OVL(aeskit_gcm_update(&gc, out + 1, out, 64));
        aeskit_gcm_ctx_wipe(&gc);
#undef OVL
    }
    /* The exact same buffer, for a tag output of the length of what it must not overlap. */
    memcpy(out, pattern, sizeof out);
    EXPECT(aeskit_cbc_encrypt(&ak, out, in, 16, out), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_ctr_crypt(&ak, out, out, 16, out), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_xts_encrypt(&xk, out, out, 16, out), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_cbcmac_blocks(&ak, out, out, 16), AESKIT_ERR_OVERLAP);
    TH_CHECK(!memcmp(out, pattern, sizeof out), "an exact overlap modified out");
    reset_out();
    aeskit_aes_wipe(&ak);
    aeskit_gcm_wipe(&gk);
    aeskit_cmac_wipe(&ck);
    aeskit_xts_wipe(&xk);
    aeskit_rfc4106_wipe(&r6);
    aeskit_rfc4309_wipe(&r9);
}

int main(void)
{
    backend = th_backend();
    th_seed(0x6d69737573650001ull);
    th_fill(key32, sizeof key32);
    th_fill(key64, sizeof key64);
    th_fill(iv, sizeof iv);
    th_fill(aad, sizeof aad);
    th_fill(in, sizeof in);
    test_strerror();
    test_backend_queries();
    test_aes();
    test_ctr();
    test_cmac();
    test_gcm();
    test_ccm();
    test_rfc4106();
    test_xts();
    test_failure_outputs();
    test_abi();
    test_not_set_up();
    test_not_set_up_modes();
    test_alignment();
    test_null_empty();
    test_read_only_overlap();
    test_gcm_stream_limit();
    return th_finish("misuse");
}
