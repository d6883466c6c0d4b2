/*
 * test_misuse.c - every documented error path of include/aeskit.h, the
 * limits at and one past each bound, and "nothing lost on failure" for every
 * mode with a tag, under the backend named by AESKIT_BACKEND.
 *
 * Each error case also checks that nothing was written: output buffers are
 * filled with a canary before the call and must still hold it afterwards.
 */
#include <stdint.h>
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
    for (int s = 0; s <= AESKIT_ERR_ARGUMENT; s++) {
        const char *m = aeskit_strerror(s);
        TH_CHECK(m && *m && strcmp(m, "unknown status"), "status %d has no name", s);
        for (int t = 0; t < s; t++)
            TH_CHECK(strcmp(m, aeskit_strerror(t)), "statuses %d and %d share a name", s, t);
    }
    TH_CHECK(!strcmp(aeskit_strerror(-1), "unknown status"), "unknown status");
    TH_CHECK(!strcmp(aeskit_strerror(9999), "unknown status"), "unknown status");
}

static void test_backend_queries(void)
{
    aeskit_backend_info bi;
    EXPECT(aeskit_backend_get(0, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_backend_get(aeskit_backend_count(), &bi), AESKIT_ERR_ARGUMENT);
    EXPECT(aeskit_backend_check(NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_backend_check("no-such-backend"), AESKIT_ERR_BACKEND_UNKNOWN);
    EXPECT(aeskit_backend_check("generic"), AESKIT_OK);
    aeskit_aes_key k;
    EXPECT(aeskit_aes_init_backend(&k, key32, 16, "no-such-backend"), AESKIT_ERR_BACKEND_UNKNOWN);
    /* A compiled-in backend this CPU cannot run must be refused, not replaced. */
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        if (aeskit_backend_get(i, &bi) == AESKIT_OK && !bi.available) {
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
    EXPECT(aeskit_cbc_encrypt(&k, chain, out, in, 31), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_decrypt(&k, chain, out, in, 1), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_encrypt(&k, NULL, out, in, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_decrypt(&k, chain, out, out + 3, 32), AESKIT_ERR_OVERLAP);
    TH_CHECK(all_equal(chain, 16, 7), "CBC chaining value modified on error");
    UNTOUCHED();

    /* CBC-PKCS#7 */
    size_t olen = 12345;
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, iv, out, 31, &olen, in, 16), AESKIT_ERR_BUFFER_TOO_SMALL);
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, iv, out, 32, NULL, in, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, NULL, out, 32, &olen, in, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, iv, out, 64, &olen, in, 0), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, iv, out, 64, &olen, in, 17), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, iv, out, 15, &olen, in, 32), AESKIT_ERR_BUFFER_TOO_SMALL);
    UNTOUCHED();
    TH_CHECK(olen == 12345, "out_len written on an argument error");
    /* Exactly one block of padding for a block-aligned input, and the round trip. */
    EXPECT(aeskit_cbc_pkcs7_encrypt(&k, iv, out, 48, &olen, in, 32), AESKIT_OK);
    TH_CHECK(olen == 48, "PKCS#7 of 32 bytes is 48 bytes, got %zu", olen);
    uint8_t ct[48], pt[48];
    memcpy(ct, out, 48);
    EXPECT(aeskit_cbc_pkcs7_decrypt(&k, iv, pt, 48, &olen, ct, 48), AESKIT_OK);
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
        int st = aeskit_cbc_pkcs7_decrypt(&k, iv, pt, 48, &olen, c2, 48);
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
    aeskit_aes_init_backend(&k, key32, 16, backend);
    reset_out();
    EXPECT(aeskit_ctr_crypt(&k, NULL, out, in, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_crypt(&k, iv, NULL, in, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_crypt(&k, iv, out + 1, out, 5), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_ctr_crypt(&k, iv, NULL, NULL, 0), AESKIT_OK);
    memset(&c, 0, sizeof c);
    EXPECT(aeskit_ctr_update(&c, out, in, 5), AESKIT_ERR_STATE);
    EXPECT(aeskit_ctr_update(NULL, out, in, 5), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, &k, NULL), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, NULL, iv), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ctr_start(&c, &k, iv), AESKIT_OK);
    EXPECT(aeskit_ctr_update(&c, out + 2, out, 40), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    aeskit_ctr_wipe(&c);
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
            EXPECT(aeskit_cmac(&ck, in, 10, out, t), want);
    }
    EXPECT(aeskit_cmac(&ck, NULL, 10, out, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_cmac(&ck, in, 10, NULL, 16), AESKIT_ERR_NULL_POINTER);
    UNTOUCHED();
    EXPECT(aeskit_cmac(&ck, NULL, 0, tag, 16), AESKIT_OK);
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
            EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, in, 5, out, out + 100, t),
                   AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_gcm_seal(&gk, iv, 0, aad, 5, in, 5, out, tag, 16), AESKIT_ERR_IV_LENGTH);
    EXPECT(aeskit_gcm_seal(&gk, NULL, 12, aad, 5, in, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, NULL, 5, in, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, NULL, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, in, 5, NULL, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, in, 5, out, NULL, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(NULL, iv, 12, aad, 5, in, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, out + 1, 64, out, tag, 16), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, in, 64, out, out + 10, 16), AESKIT_ERR_OVERLAP);
    /* Limits, one past: checked before any byte is read, so a short buffer is safe. */
    uint64_t max_pt = (1ull << 36) - 32;
    if (sizeof(size_t) >= 8) {
        EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, 5, in, (size_t)(max_pt + 1), out, tag, 16),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_gcm_open(&gk, iv, 12, aad, 5, in, (size_t)(max_pt + 1), tag, 16, out),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_gcm_seal(&gk, iv, 12, aad, (size_t)(1ull << 61), in, 5, out, tag, 16),
               AESKIT_ERR_AAD_TOO_LONG);
        EXPECT(aeskit_gmac(&gk, iv, 12, aad, (size_t)(1ull << 61), tag, 16), AESKIT_ERR_AAD_TOO_LONG);
        EXPECT(aeskit_gcm_seal(&gk, iv, (size_t)(1ull << 61), aad, 5, in, 5, out, tag, 16),
               AESKIT_ERR_IV_LENGTH);
    }
    UNTOUCHED();

    /* Streaming order. */
    memset(&c, 0, sizeof c);
    EXPECT(aeskit_gcm_aad(&c, aad, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_encrypt(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_start(&c, &gk, iv, 0), AESKIT_ERR_IV_LENGTH);
    EXPECT(aeskit_gcm_start(&c, NULL, iv, 12), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_start(NULL, &gk, iv, 12), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_gcm_start(&c, &gk, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_aad(&c, aad, 3), AESKIT_OK);
    EXPECT(aeskit_gcm_encrypt(&c, out, in, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_aad(&c, aad, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_decrypt(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_verify(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_encrypt(&c, out + 1, out, 20), AESKIT_ERR_OVERLAP);
    EXPECT(aeskit_gcm_finish(&c, tag, 7), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_OK);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_encrypt(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_aad(&c, aad, 3), AESKIT_ERR_STATE);
    /* Decrypt direction: finish is for encryption only. */
    EXPECT(aeskit_gcm_start(&c, &gk, iv, 12), AESKIT_OK);
    EXPECT(aeskit_gcm_decrypt(&c, out, in, 20), AESKIT_OK);
    EXPECT(aeskit_gcm_encrypt(&c, out, in, 3), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_ERR_STATE);
    EXPECT(aeskit_gcm_verify(&c, tag, 16), AESKIT_ERR_AUTH);
    EXPECT(aeskit_gcm_verify(&c, tag, 16), AESKIT_ERR_STATE);
    aeskit_gcm_ctx_wipe(&c);
    EXPECT(aeskit_gcm_aad(&c, aad, 1), AESKIT_ERR_STATE);
    aeskit_gcm_wipe(&gk);
}

/* The running plaintext total of a streaming GCM context at and one past
 * 2^36-32 bytes: 64 GiB through the cipher, so only on a fast backend. */
static void test_gcm_stream_limit(void)
{
    const char *be = backend ? backend : aeskit_backend_default();
    if (!strcmp(be, "generic") || th_scale() < 1.0 || sizeof(size_t) < 8) {
        printf("note: GCM streaming limit at 2^36-32 bytes not run (backend %s, scale %.2f)\n",
               be, th_scale());
        return;
    }
    static uint8_t buf[1 << 20];
    aeskit_gcm_key gk;
    aeskit_gcm_ctx c;
    aeskit_gcm_init_backend(&gk, key32, 16, backend);
    aeskit_gcm_start(&c, &gk, iv, 12);
    uint64_t total = 0, max_pt = (1ull << 36) - 32;
    int st = AESKIT_OK;
    while (st == AESKIT_OK && total + sizeof buf <= max_pt) {
        st = aeskit_gcm_encrypt(&c, buf, buf, sizeof buf);
        total += sizeof buf;
    }
    TH_CHECK(st == AESKIT_OK, "streaming below the limit failed: %s", aeskit_strerror(st));
    size_t rest = (size_t)(max_pt - total);
    EXPECT(aeskit_gcm_encrypt(&c, buf, buf, rest), AESKIT_OK);
    EXPECT(aeskit_gcm_encrypt(&c, buf, buf, 1), AESKIT_ERR_MESSAGE_TOO_LONG);
    EXPECT(aeskit_gcm_finish(&c, tag, 16), AESKIT_OK);
    aeskit_gcm_wipe(&gk);
}

static void test_ccm(void)
{
    aeskit_aes_key k;
    aeskit_aes_init_backend(&k, key32, 16, backend);
    reset_out();
    for (size_t n = 0; n <= 16; n++)
        if (n < 7 || n > 13)
            EXPECT(aeskit_ccm_seal(&k, iv, n, aad, 3, in, 5, out, out + 100, 16),
                   AESKIT_ERR_NONCE_LENGTH);
    for (size_t t = 0; t <= 18; t++)
        if (t < 4 || t > 16 || (t & 1))
            EXPECT(aeskit_ccm_seal(&k, iv, 12, aad, 3, in, 5, out, out + 100, t),
                   AESKIT_ERR_TAG_LENGTH);
    /* Length field of q = 15 - nonce_len bytes: 2^(8q) - 1 fits, 2^(8q) does not. */
    EXPECT(aeskit_ccm_seal(&k, iv, 13, aad, 3, in, 65536, out, tag, 16), AESKIT_ERR_MESSAGE_TOO_LONG);
    if (sizeof(size_t) >= 8) {
        EXPECT(aeskit_ccm_seal(&k, iv, 12, aad, 3, in, (size_t)1 << 24, out, tag, 16),
               AESKIT_ERR_MESSAGE_TOO_LONG);
        EXPECT(aeskit_ccm_open(&k, iv, 11, aad, 3, in, (size_t)1 << 32, tag, 16, out),
               AESKIT_ERR_MESSAGE_TOO_LONG);
    }
    EXPECT(aeskit_ccm_seal(&k, NULL, 12, aad, 3, in, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_ccm_seal(&k, iv, 12, aad, 3, out + 1, 40, out, tag, 16), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    static uint8_t big[65536], bigout[65536];
    EXPECT(aeskit_ccm_seal(&k, iv, 13, aad, 3, big, 65535, bigout, tag, 16), AESKIT_OK);
    EXPECT(aeskit_ccm_open(&k, iv, 13, aad, 3, bigout, 65535, tag, 16, big), AESKIT_OK);

    aeskit_rfc4309_key rk;
    EXPECT(aeskit_rfc4309_init_backend(&rk, key32, 16, backend), AESKIT_ERR_KEY_LENGTH);
    EXPECT(aeskit_rfc4309_init_backend(&rk, key32, 19, backend), AESKIT_OK);
    EXPECT(aeskit_rfc4309_seal(&rk, iv, aad, 8, in, 5, out, tag, 10), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4309_seal(&rk, iv, aad, 8, in, 5, out, tag, 4), AESKIT_ERR_TAG_LENGTH);
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
    EXPECT(aeskit_rfc4106_seal(&rk, iv, aad, 8, in, 5, out, tag, 4), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4106_seal(&rk, iv, aad, 8, in, 5, out, tag, 13), AESKIT_ERR_TAG_LENGTH);
    EXPECT(aeskit_rfc4106_seal(&rk, NULL, aad, 8, in, 5, out, tag, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_rfc4543_mac(&rk, iv, aad, 8, NULL, 5, tag), AESKIT_ERR_NULL_POINTER);
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
    EXPECT(aeskit_xts_encrypt(&xk, iv, out, in, 15), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_xts_decrypt(&xk, iv, out, in, 0), AESKIT_ERR_LENGTH);
    EXPECT(aeskit_xts_encrypt(&xk, NULL, out, in, 16), AESKIT_ERR_NULL_POINTER);
    EXPECT(aeskit_xts_encrypt(&xk, iv, out + 5, out, 40), AESKIT_ERR_OVERLAP);
    UNTOUCHED();
    EXPECT(aeskit_xts_encrypt(&xk, iv, out, in, 16), AESKIT_OK);
    EXPECT(aeskit_xts_encrypt(&xk, iv, out, in, 17), AESKIT_OK);
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
    aeskit_gcm_init_backend(&gk, key32, 32, backend);
    aeskit_aes_init_backend(&ak, key32, 24, backend);
    aeskit_rfc4106_init_backend(&r6, key32, 20, backend);
    aeskit_rfc4309_init_backend(&r9, key32, 19, backend);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        for (int mode = 0; mode < 4; mode++) {
            uint8_t ct[N], t[16], buf[N], saved[N];
            th_fill(in, len);
            int st;
            switch (mode) {
            case 0: st = aeskit_gcm_seal(&gk, iv, 12, aad, 20, in, len, ct, t, 16); break;
            case 1: st = aeskit_ccm_seal(&ak, iv, 12, aad, 20, in, len, ct, t, 16); break;
            case 2: st = aeskit_rfc4106_seal(&r6, iv, aad, 8, in, len, ct, t, 16); break;
            default: st = aeskit_rfc4309_seal(&r9, iv, aad, 8, in, len, ct, t, 16); break;
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
                case 0: st = aeskit_gcm_open(&gk, iv, 12, aad, 20, src, len, t, 16, dst); break;
                case 1: st = aeskit_ccm_open(&ak, iv, 12, aad, 20, src, len, t, 16, dst); break;
                case 2: st = aeskit_rfc4106_open(&r6, iv, aad, 8, src, len, t, 16, dst); break;
                default: st = aeskit_rfc4309_open(&r9, iv, aad, 8, src, len, t, 16, dst); break;
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
    test_gcm_stream_limit();
    return th_finish("misuse");
}
