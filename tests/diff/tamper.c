/*
 * tamper.c - every single-bit flip of tag, ciphertext, AAD (and IV/nonce)
 * is rejected, under the backend named by AESKIT_BACKEND.
 *
 * For GCM, CCM, RFC 4106, RFC 4309 (open), GMAC, RFC 4543 and CMAC
 * (verify), on a sample of message and AAD lengths around block
 * boundaries: each flipped input must give AESKIT_ERR_AUTH; an out-of-place
 * output (pre-filled with a pattern) must be all zero afterwards, and an
 * in-place buffer must hold exactly the (flipped) ciphertext the caller
 * passed.  The untampered message must still open, so a function that
 * rejects everything fails too.
 */
#include "harness.h"

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

static aeskit_status aead_open(int m, const keys *ks, const uint8_t *iv, const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag,
                               size_t tl, uint8_t *out)
{
    switch (m) {
    case T_GCM: return aeskit_gcm_open(ks->gk, out, in, len, tag, tl, iv, 12, aad, aad_len);
    case T_CCM: return aeskit_ccm_open(ks->k, out, in, len, tag, tl, iv, 11, aad, aad_len);
    case T_4106: return aeskit_rfc4106_open(ks->r6, out, in, len, tag, tl, iv, aad, aad_len);
    default: return aeskit_rfc4309_open(ks->r9, out, in, len, tag, tl, iv, aad, aad_len);
    }
}

static uint8_t pt[512], ct[512], out[512], inplace[512], aad[64];

/* Opens (iv, aad, ct, tag) out-of-place and in-place; expects rejection. */
static void expect_reject(int m, const keys *ks, const uint8_t *iv, size_t aad_len, size_t len,
                          const uint8_t *tag, size_t tl, const char *what, size_t bit)
{
    memset(out, 0xa5, len);
    aeskit_status st = aead_open(m, ks, iv, aad, aad_len, ct, len, tag, tl, out);
    TH_CHECK(st == AESKIT_ERR_AUTH, "%s: flipped %s bit %zu accepted (len=%zu aad=%zu tag=%zu): %s",
             names[m], what, bit, len, aad_len, tl, aeskit_strerror(st));
    TH_CHECK(th_all_zero(out, len), "%s: output not zeroed after rejection (%s bit %zu, len=%zu)",
             names[m], what, bit, len);
    memcpy(inplace, ct, len);
    st = aead_open(m, ks, iv, aad, aad_len, inplace, len, tag, tl, inplace);
    TH_CHECK(st == AESKIT_ERR_AUTH, "%s in-place: flipped %s bit %zu accepted (len=%zu): %s",
             names[m], what, bit, len, aeskit_strerror(st));
    TH_CHECK_MEM(inplace, ct, len,
                 "%s in-place: buffer does not hold the ciphertext after rejection (%s bit %zu, len=%zu)",
                 names[m], what, bit, len);
}

static void test_aead(int m, const keys *ks, size_t klen)
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
        st = aead_open(m, ks, iv, aad, aad_len, ct, len, tag, tl, out);
        TH_CHECK(st == AESKIT_OK && th_first_diff(out, pt, len) == len,
                 "%s: the untampered message does not open (k=%zu len=%zu): %s", names[m], klen,
                 len, aeskit_strerror(st));
        for (size_t b = 0; b < 8 * tl; b += th_stride()) {
            tag[b / 8] ^= (uint8_t)(1u << (b % 8));
            expect_reject(m, ks, iv, aad_len, len, tag, tl, "tag", b);
            tag[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        for (size_t b = 0; b < 8 * len; b += th_stride()) {
            ct[b / 8] ^= (uint8_t)(1u << (b % 8));
            expect_reject(m, ks, iv, aad_len, len, tag, tl, "ciphertext", b);
            ct[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        for (size_t b = 0; b < 8 * aad_len; b += th_stride()) {
            aad[b / 8] ^= (uint8_t)(1u << (b % 8));
            expect_reject(m, ks, iv, aad_len, len, tag, tl, "aad", b);
            aad[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
        for (size_t b = 0; b < 8 * iv_len; b += 3) {
            iv[b / 8] ^= (uint8_t)(1u << (b % 8));
            expect_reject(m, ks, iv, aad_len, len, tag, tl, "iv/nonce", b);
            iv[b / 8] ^= (uint8_t)(1u << (b % 8));
        }
    }
}

static void test_gmac(const aeskit_gcm_key *gk, const aeskit_rfc4106_key *r6, size_t klen)
{
    for (size_t a = 0; a <= 48; a += 1 + th_randn(6)) {
        uint8_t iv[12], tag[16];
        size_t tl = a % 2 ? 16 : 8;
        th_fill(iv, 12);
        th_fill(aad, a);
        TH_CHECK(aeskit_gmac(gk, tag, tl, iv, 12, aad, a) == AESKIT_OK, "gmac");
        TH_CHECK(aeskit_gmac_verify(gk, tag, tl, iv, 12, aad, a) == AESKIT_OK,
                 "gmac: untampered tag rejected k=%zu aad=%zu", klen, a);
        for (size_t b = 0; b < 8 * (a + tl + 12); b += th_stride()) {
            uint8_t *p = b < 8 * a ? aad : b < 8 * (a + tl) ? tag : iv;
            size_t bb = b < 8 * a ? b : b < 8 * (a + tl) ? b - 8 * a : b - 8 * (a + tl);
            p[bb / 8] ^= (uint8_t)(1u << (bb % 8));
            aeskit_status st = aeskit_gmac_verify(gk, tag, tl, iv, 12, aad, a);
            TH_CHECK(st == AESKIT_ERR_AUTH, "gmac: flipped bit %zu of %s accepted (aad=%zu): %s", bb,
                     p == aad ? "aad" : p == tag ? "tag" : "iv", a, aeskit_strerror(st));
            p[bb / 8] ^= (uint8_t)(1u << (bb % 8));
        }
    }
    /* RFC 4543: aad, explicit IV, payload and ICV are all authenticated. */
    for (size_t len = 0; len <= 70; len += 1 + th_randn(12)) {
        uint8_t iv[8], tag[16];
        size_t a = len % 2 ? 8 : 12;
        th_fill(iv, 8);
        th_fill(aad, a);
        th_fill(pt, len);
        TH_CHECK(aeskit_rfc4543_mac(r6, tag, pt, len, iv, aad, a) == AESKIT_OK, "rfc4543 mac");
        TH_CHECK(aeskit_rfc4543_verify(r6, pt, len, tag, iv, aad, a) == AESKIT_OK,
                 "rfc4543: untampered ICV rejected k=%zu len=%zu", klen, len);
        size_t total = a + 8 + len + 16;
        for (size_t b = 0; b < 8 * total; b += th_stride()) {
            size_t byte = b / 8;
            uint8_t *p;
            if (byte < a)
                p = aad + byte;
            else if (byte < a + 8)
                p = iv + (byte - a);
            else if (byte < a + 8 + len)
                p = pt + (byte - a - 8);
            else
                p = tag + (byte - a - 8 - len);
            *p ^= (uint8_t)(1u << (b % 8));
            aeskit_status st = aeskit_rfc4543_verify(r6, pt, len, tag, iv, aad, a);
            TH_CHECK(st == AESKIT_ERR_AUTH, "rfc4543: flipped bit %zu accepted (len=%zu): %s", b, len,
                     aeskit_strerror(st));
            *p ^= (uint8_t)(1u << (b % 8));
        }
    }
}

static void test_cmac(const aeskit_cmac_key *ck, size_t klen)
{
    for (size_t len = 0; len <= 70; len += 1 + th_randn(8)) {
        uint8_t tag[16];
        size_t tl = 4 + len % 13;
        th_fill(pt, len);
        TH_CHECK(aeskit_cmac(ck, tag, tl, pt, len) == AESKIT_OK, "cmac");
        TH_CHECK(aeskit_cmac_verify(ck, pt, len, tag, tl) == AESKIT_OK,
                 "cmac: untampered tag rejected k=%zu len=%zu", klen, len);
        for (size_t b = 0; b < 8 * (len + tl); b += th_stride()) {
            uint8_t *p = b < 8 * len ? pt + b / 8 : tag + (b / 8 - len);
            *p ^= (uint8_t)(1u << (b % 8));
            aeskit_status st = aeskit_cmac_verify(ck, pt, len, tag, tl);
            TH_CHECK(st == AESKIT_ERR_AUTH, "cmac verify: flipped bit %zu accepted (len=%zu tag=%zu): %s",
                     b, len, tl, aeskit_strerror(st));
            aeskit_cmac_ctx ctx;
            st = aeskit_cmac_start(&ctx, ck);
            if (st == AESKIT_OK)
                st = aeskit_cmac_update(&ctx, pt, len / 2);
            if (st == AESKIT_OK)
                st = aeskit_cmac_update(&ctx, pt + len / 2, len - len / 2);
            if (st == AESKIT_OK)
                st = aeskit_cmac_finish_verify(&ctx, tag, tl);
            TH_CHECK(st == AESKIT_ERR_AUTH, "cmac finish_verify: flipped bit %zu accepted (len=%zu): %s",
                     b, len, aeskit_strerror(st));
            *p ^= (uint8_t)(1u << (b % 8));
        }
    }
}

/* Streaming GCM verify rejects a flipped tag too. */
static void test_gcm_stream_verify(const aeskit_gcm_key *gk)
{
    uint8_t iv[12], tag[16];
    th_fill(iv, 12);
    th_fill(pt, 100);
    th_fill(aad, 20);
    TH_CHECK(aeskit_gcm_seal(gk, ct, tag, 16, pt, 100, iv, 12, aad, 20) == AESKIT_OK, "gcm seal");
    for (size_t b = 0; b < 128; b += th_stride()) {
        tag[b / 8] ^= (uint8_t)(1u << (b % 8));
        aeskit_gcm_ctx ctx;
        aeskit_status st = aeskit_gcm_start(&ctx, gk, AESKIT_OPEN, iv, 12);
        if (st == AESKIT_OK)
            st = aeskit_gcm_update_aad(&ctx, aad, 20);
        if (st == AESKIT_OK)
            st = aeskit_gcm_update(&ctx, out, ct, 100);
        if (st == AESKIT_OK)
            st = aeskit_gcm_finish_verify(&ctx, tag, 16);
        TH_CHECK(st == AESKIT_ERR_AUTH, "gcm stream verify: flipped tag bit %zu accepted: %s", b,
                 aeskit_strerror(st));
        tag[b / 8] ^= (uint8_t)(1u << (b % 8));
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
            test_aead(m, &ks, klen);
        test_gmac(&gk, &r6, klen);
        test_cmac(&ck, klen);
        test_gcm_stream_verify(&gk);
        aeskit_aes_wipe(&k);
        aeskit_gcm_wipe(&gk);
        aeskit_cmac_wipe(&ck);
        aeskit_rfc4106_wipe(&r6);
        aeskit_rfc4309_wipe(&r9);
    }
    return th_finish("tamper");
}
