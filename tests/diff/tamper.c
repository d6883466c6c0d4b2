/*
 * tamper.c - every single-bit flip of tag, ciphertext, AAD and IV/nonce
 * is rejected, under the backend named by AESKIT_BACKEND.
 *
 * For GCM, CCM, RFC 4106, RFC 4309 (open), GMAC, RFC 4543 and CMAC
 * (verify, one-shot and streaming), on a sample of message and AAD lengths
 * around block boundaries, each case goes through the mode driver
 * (tools/vectors/drive.h) with tamper_stride 1 (every bit; thinned below
 * AESKIT_TEST_SCALE 1): each flipped input must give AESKIT_ERR_AUTH; an
 * out-of-place output (pre-filled with a pattern) must be all zero
 * afterwards, and an in-place buffer must hold exactly the (flipped)
 * ciphertext the caller passed.  The untampered message must still open,
 * so a function that rejects everything fails too.  Needs no oracle: the
 * case is aeskit's own seal (the diff_* tests check seals against OpenSSL);
 * what is tested here is the refusal.
 */
#include "harness.h"
#include "th_drive.h"

static const char *be;

enum { T_GCM, T_CCM, T_4106, T_4309, T_COUNT };
static const char *const names[T_COUNT] = {"gcm", "ccm", "rfc4106", "rfc4309"};

typedef struct {
    const aeskit_aes_key *k;
    const aeskit_gcm_key *gk;
    const aeskit_rfc4106_key *r6;
    const aeskit_rfc4309_key *r9;
} keys;

static size_t tag_len_of(int m, size_t i)
{
    static const size_t gcm[] = {16, 12, 8, 4, 13, 14, 15};
    static const size_t ccm[] = {16, 4, 6, 8, 10, 12, 14};
    static const size_t esp[] = {16, 8, 12};
    return m == T_GCM ? gcm[i % 7] : m == T_CCM ? ccm[i % 7] : esp[i % 3];
}

static aeskit_status aead_seal(int m, const keys *ks, const uint8_t *iv, const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                               uint8_t *tag, size_t tl)
{
    switch (m) {
    case T_GCM: return aeskit_gcm_seal(ks->gk, out, tag, tl, in, len, iv, 12, aad, aad_len);
    case T_CCM: return aeskit_ccm_seal(ks->k, out, tag, tl, in, len, iv, 11, aad, aad_len);
    case T_4106: return aeskit_rfc4106_seal(ks->r6, out, tag, tl, in, len, iv, aad, aad_len);
    default: return aeskit_rfc4309_seal(ks->r9, out, tag, tl, in, len, iv, aad, aad_len);
    }
}

static uint8_t pt[512], ct[512], aad[64];
static const char *const drivers[T_COUNT] = {"gcm", "ccm", "rfc4106", "rfc4309"};

/* Every bit at AESKIT_TEST_SCALE >= 1, about every 1/scale-th below. */
static size_t stride(void)
{
    double s = th_scale();
    return s >= 1.0 ? 1 : (size_t)(1.0 / s + 0.5);
}

static void test_aead(int m, const keys *ks, const uint8_t *key, size_t klen)
{
    static const size_t lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 255, 256, 257};
    static const size_t aads[] = {0, 1, 8, 12, 16, 17, 40};
    size_t nl = sizeof lens / sizeof lens[0];
    size_t nmsg = th_scaled(nl, 5);
    for (size_t i = 0; i < nmsg; i++) {
        size_t len = lens[i % nl], aad_len = aads[i % 7], tl = tag_len_of(m, i);
        size_t iv_len = m == T_GCM ? 12 : m == T_CCM ? 11 : 8;
        uint8_t iv[16], tag[16];
        th_fill(iv, iv_len);
        th_fill(aad, aad_len);
        th_fill(pt, len);
        aeskit_status st = aead_seal(m, ks, iv, aad, aad_len, pt, len, ct, tag, tl);
        TH_CHECK(st == AESKIT_OK, "%s seal k=%zu len=%zu: %s", names[m], klen, len,
                 aeskit_strerror(st));
        akd_case c = {.backend = be, .key = key,
                      .key_len = klen + (m == T_4106 ? 4 : m == T_4309 ? 3 : 0), .iv = iv,
                      .iv_len = iv_len, .aad = aad, .aad_len = aad_len, .msg = pt, .msg_len = len,
                      .ct = ct, .ct_len = len, .tag = tag, .tag_len = tl,
                      .tamper_stride = stride()};
        th_drive(drivers[m], &c, "k=%zu len=%zu aad=%zu tag=%zu", klen, len, aad_len, tl);
    }
}

static void test_gmac(const aeskit_gcm_key *gk, const aeskit_rfc4106_key *r6, const uint8_t *key,
                      size_t klen)
{
    for (size_t a = 0; a <= 48; a += 1 + th_randn(6)) {
        uint8_t iv[12], tag[16];
        size_t tl = a % 2 ? 16 : 8;
        th_fill(iv, 12);
        th_fill(aad, a);
        TH_CHECK(aeskit_gmac(gk, tag, tl, iv, 12, aad, a) == AESKIT_OK, "gmac");
        akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 12,
                      .aad = aad, .aad_len = a, .tag = tag, .tag_len = tl,
                      .tamper_stride = stride()};
        th_drive("gmac", &c, "k=%zu aad=%zu tag=%zu", klen, a, tl);
    }
    /* RFC 4543: aad, explicit IV, payload and ICV are all authenticated. */
    for (size_t len = 0; len <= 70; len += 1 + th_randn(12)) {
        uint8_t iv[8], tag[16];
        size_t a = len % 2 ? 8 : 12;
        th_fill(iv, 8);
        th_fill(aad, a);
        th_fill(pt, len);
        TH_CHECK(aeskit_rfc4543_mac(r6, tag, pt, len, iv, aad, a) == AESKIT_OK, "rfc4543 mac");
        akd_case c = {.backend = be, .key = key, .key_len = klen + 4, .iv = iv, .iv_len = 8,
                      .aad = aad, .aad_len = a, .msg = pt, .msg_len = len, .tag = tag,
                      .tag_len = 16, .tamper_stride = stride()};
        th_drive("rfc4543", &c, "k=%zu len=%zu aad=%zu", klen, len, a);
    }
}

static void test_cmac(const aeskit_cmac_key *ck, const uint8_t *key, size_t klen)
{
    for (size_t len = 0; len <= 70; len += 1 + th_randn(8)) {
        uint8_t tag[16];
        size_t tl = 4 + len % 13;
        th_fill(pt, len);
        TH_CHECK(aeskit_cmac(ck, tag, tl, pt, len) == AESKIT_OK, "cmac");
        akd_case c = {.backend = be, .key = key, .key_len = klen, .msg = pt, .msg_len = len,
                      .tag = tag, .tag_len = tl, .tamper_stride = stride()};
        th_drive("cmac", &c, "k=%zu len=%zu tag=%zu", klen, len, tl);
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0x7a3be40006ull);
    static const size_t key_lens[3] = {16, 24, 32};
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[40];
        th_fill(key, klen + 4);
        aeskit_aes_key k;
        aeskit_gcm_key gk;
        aeskit_cmac_key ck;
        aeskit_rfc4106_key r6;
        aeskit_rfc4309_key r9;
        aeskit_status st;
        if ((st = aeskit_aes_init_backend(&k, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_gcm_init_backend(&gk, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_cmac_init_backend(&ck, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_rfc4106_init_backend(&r6, key, klen + 4, be)) != AESKIT_OK ||
            (st = aeskit_rfc4309_init_backend(&r9, key, klen + 3, be)) != AESKIT_OK) {
            TH_CHECK(0, "init k=%zu: %s", klen, aeskit_strerror(st));
            continue;
        }
        keys ks = {&k, &gk, &r6, &r9};
        for (int m = 0; m < T_COUNT; m++)
            test_aead(m, &ks, key, klen);
        test_gmac(&gk, &r6, key, klen);
        test_cmac(&ck, key, klen);
        aeskit_aes_wipe(&k);
        aeskit_gcm_wipe(&gk);
        aeskit_cmac_wipe(&ck);
        aeskit_rfc4106_wipe(&r6);
        aeskit_rfc4309_wipe(&r9);
    }
    return th_finish("tamper");
}
