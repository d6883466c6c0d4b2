/*
 * diff_gcm.c - GCM, GMAC, RFC 4106 and RFC 4543 against OpenSSL on random
 * inputs, under the backend named by AESKIT_BACKEND.
 *
 * Coverage: every message length 0..1100 and a sample up to 64 KiB; IV
 * lengths 1, 8, 12, 13, 16, 60, 100 and others; every tag length the API
 * allows (4, 8, 12..16); AAD lengths 0..70, block-boundary lengths and a
 * few long ones; AES-128/192/256.  Each case is sealed by OpenSSL (the
 * oracle) and driven through the mode driver with OpenSSL's output as the
 * expected answer (tools/vectors/drive.h: one-shot, streamed in every split
 * pattern, in-place, tampered, and RFC 4106 for an ESP-shaped case); then
 * OpenSSL must accept aeskit's own tag.
 */
#include "harness.h"
#include "oracle.h"
#include "th_drive.h"

#define MAXLEN (65536 + 64)

static uint8_t *pt, *ct, *ct_ref, *back;
static const char *be;
static const size_t key_lens[3] = {16, 24, 32};
static const size_t tag_lens[7] = {4, 8, 12, 13, 14, 15, 16};

static void one_gcm(const aeskit_gcm_key *gk, const uint8_t *key, size_t klen, size_t iv_len,
                    size_t aad_len, size_t len, size_t tag_len)
{
    uint8_t iv[256], aad[4096 + 64], tag[16], tag_ref[16];
    uint8_t *aadp = aad;
    static uint8_t *big_aad;
    if (aad_len > sizeof aad) {
        if (!big_aad && !(big_aad = malloc(MAXLEN)))
            abort();
        aadp = big_aad;
    }
    th_fill(iv, iv_len);
    th_fill(aadp, aad_len);
    th_fill(pt, len);
    or_gcm_seal(key, klen, iv, iv_len, aadp, aad_len, pt, len, ct_ref, tag_ref, tag_len);
    akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = iv_len,
                  .aad = aadp, .aad_len = aad_len, .msg = pt, .msg_len = len, .ct = ct_ref,
                  .ct_len = len, .tag = tag_ref, .tag_len = tag_len};
    th_drive("gcm", &c, "k=%zu iv=%zu aad=%zu len=%zu tag=%zu", klen, iv_len, aad_len, len,
             tag_len);
    aeskit_status st = aeskit_gcm_seal(gk, ct, tag, tag_len, pt, len, iv, iv_len, aadp, aad_len);
    TH_CHECK(st == AESKIT_OK, "gcm seal k=%zu iv=%zu aad=%zu len=%zu tag=%zu: %s", klen, iv_len,
             aad_len, len, tag_len, aeskit_strerror(st));
    if (st != AESKIT_OK)
        return;
    TH_CHECK(or_gcm_open(key, klen, iv, iv_len, aadp, aad_len, ct, len, tag, tag_len, back),
             "OpenSSL rejects aeskit's gcm tag k=%zu iv=%zu aad=%zu len=%zu tag=%zu", klen, iv_len,
             aad_len, len, tag_len);
}

static void test_gcm(void)
{
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[32];
        aeskit_gcm_key gk;
        th_fill(key, klen);
        aeskit_status st = aeskit_gcm_init_backend(&gk, key, klen, be);
        TH_CHECK(st == AESKIT_OK, "gcm init k=%zu: %s", klen, aeskit_strerror(st));
        if (st != AESKIT_OK)
            continue;
        if (be)
            TH_CHECK(!strcmp(aeskit_gcm_backend(&gk), be), "gcm key reports backend %s, want %s",
                     aeskit_gcm_backend(&gk), be);

        /* Every length 0..1100, 12-byte IV, AAD 0..70, tag lengths cycling. */
        for (size_t len = 0; len <= 1100; len += th_stride())
            one_gcm(&gk, key, klen, 12, len % 71, len, tag_lens[len % 7]);
        /* The same lengths with a 16-byte IV (the GHASH-derived J0 path),
         * sparser: the IV path does not depend on the message length. */
        for (size_t len = 0; len <= 1100; len += (1 + th_randn(9)) * th_stride())
            one_gcm(&gk, key, klen, 16, th_randn(40), len, 16);
        /* A sample of longer lengths up to 64 KiB. */
        size_t nlong = th_scaled(24, 4);
        static const size_t fixed[] = {1101, 2047, 2048, 2049, 4095, 4096, 4097, 8191,
                                       16384, 16385, 65535, 65536};
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            one_gcm(&gk, key, klen, 12, 13, fixed[i], 16);
        for (size_t i = 0; i < nlong; i++)
            one_gcm(&gk, key, klen, i % 2 ? 12 : 60, th_randn(64), 1101 + th_randn(65536 - 1100),
                    tag_lens[i % 7]);
        /* IV lengths other than 12 (OpenSSL 3 takes at most 128 bytes). */
        static const size_t ivs[] = {1, 2, 7, 8, 11, 12, 13, 15, 16, 17, 31, 32, 33, 60, 64, 100, 127, 128};
        static const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 256, 257, 1000};
        for (size_t i = 0; i < sizeof ivs / sizeof ivs[0]; i++)
            for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++)
                one_gcm(&gk, key, klen, ivs[i], th_randn(33), lens[j], tag_lens[(i + j) % 7]);
        /* Every tag length on a few lengths. */
        for (size_t t = 0; t < 7; t++)
            for (size_t len = 0; len < 70; len += 23)
                one_gcm(&gk, key, klen, 12, 20, len, tag_lens[t]);
        /* AAD: every length 0..70 on a few message lengths, block-boundary
         * lengths around multiples of the 16-block step, a few long ones. */
        for (size_t a = 0; a <= 70; a++) {
            one_gcm(&gk, key, klen, 12, a, a % 3 == 0 ? 0 : 33, 16);
            one_gcm(&gk, key, klen, 13, a, 100, 12);
        }
        for (size_t blocks = 1; blocks <= 64; blocks = blocks < 4 ? blocks + 1 : blocks * 2)
            for (int d = -1; d <= 1; d++)
                one_gcm(&gk, key, klen, 12, blocks * 16 + (size_t)d, 17, 16);
        /* The register entries' messages (gcm_seal12, src/internal.h):
         * 12-byte IV, full tag, at most one AAD block, 1..256 bytes; and
         * every length on to 800 with such an AAD (the small classes of
         * vaes_gcm_msg: on zmm one pass to 640 bytes and two groups to
         * 767, on ymm one pass to 416 and two groups to 640). */
        static const size_t small_aads[] = {0, 1, 8, 12, 13, 15, 16};
        for (size_t len = 1; len <= 800; len++)
            one_gcm(&gk, key, klen, 12, small_aads[len % 7], len, 16);
        for (size_t i = 0; i < sizeof small_aads / sizeof small_aads[0]; i++) {
            static const size_t edges[] = {16, 32, 48, 64, 65, 240, 241, 255, 256, 257, 320, 321, 448, 512, 640, 704, 767, 768};
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
                one_gcm(&gk, key, klen, 12, small_aads[i], edges[e], 16);
        }
        one_gcm(&gk, key, klen, 12, 1000, 10, 16);
        one_gcm(&gk, key, klen, 12, 4096 + 7, 0, 16);
        one_gcm(&gk, key, klen, 8, 65536 + 3, 300, 16);
        aeskit_gcm_wipe(&gk);
    }
}

static void test_gcm_arg_errors(void)
{
    uint8_t key[16] = {1}, iv[12] = {0}, buf[32] = {0}, tag[16];
    aeskit_gcm_key gk;
    if (aeskit_gcm_init_backend(&gk, key, 16, be) != AESKIT_OK)
        return;
    for (size_t t = 0; t <= 17; t++) {
        int ok = t == 4 || t == 8 || (t >= 12 && t <= 16);
        aeskit_status st = aeskit_gcm_seal(&gk, buf + 16, tag, t, buf, 16, iv, 12, NULL, 0);
        TH_CHECK(ok ? st == AESKIT_OK : st == AESKIT_ERR_TAG_LENGTH,
                 "gcm seal tag length %zu: %s", t, aeskit_strerror(st));
    }
    TH_CHECK(aeskit_gcm_seal(&gk, buf + 16, tag, 16, buf, 16, iv, 0, NULL, 0) == AESKIT_ERR_IV_LENGTH,
             "gcm empty IV accepted");
    uint8_t k5[5] = {0};
    TH_CHECK(aeskit_gcm_init_backend(&gk, k5, 5, be) == AESKIT_ERR_KEY_LENGTH, "gcm 5-byte key");
}

static void test_gmac(void)
{
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[32], iv[64], aad[1100], tag[16], tag_ref[16];
        aeskit_gcm_key gk;
        th_fill(key, klen);
        if (aeskit_gcm_init_backend(&gk, key, klen, be) != AESKIT_OK)
            continue;
        for (size_t a = 0; a <= 1090; a += (a < 300 ? 1 : 1 + th_randn(40)) * th_stride()) {
            size_t iv_len = a % 5 == 0 ? 1 + th_randn(64) : 12, tl = tag_lens[a % 7];
            th_fill(iv, iv_len);
            th_fill(aad, a);
            or_gcm_seal(key, klen, iv, iv_len, aad, a, NULL, 0, NULL, tag_ref, tl);
            akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = iv_len,
                          .aad = aad, .aad_len = a, .tag = tag_ref, .tag_len = tl};
            th_drive("gmac", &c, "k=%zu iv=%zu aad=%zu tag=%zu", klen, iv_len, a, tl);
            aeskit_status st = aeskit_gmac(&gk, tag, tl, iv, iv_len, aad, a);
            TH_CHECK(st == AESKIT_OK, "gmac k=%zu aad=%zu: %s", klen, a, aeskit_strerror(st));
            TH_CHECK_MEM(tag, tag_ref, tl, "gmac tag k=%zu iv=%zu aad=%zu tag=%zu", klen, iv_len,
                         a, tl);
        }
        aeskit_gcm_wipe(&gk);
    }
}

/* RFC 4106: nonce = salt || explicit IV, AAD as given (SPI, sequence). */
static void test_rfc4106(void)
{
    static const size_t icvs[3] = {8, 12, 16};
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[36], nonce[12], aad[16], tag[16], tag_ref[16];
        aeskit_rfc4106_key rk;
        th_fill(key, klen + 4);
        aeskit_status st = aeskit_rfc4106_init_backend(&rk, key, klen + 4, be);
        TH_CHECK(st == AESKIT_OK, "rfc4106 init k=%zu: %s", klen, aeskit_strerror(st));
        if (st != AESKIT_OK)
            continue;
        memcpy(nonce, key + klen, 4);
        for (size_t len = 0; len <= 1500; len += (len < 300 ? 1 : 1 + th_randn(50)) * th_stride()) {
            size_t aad_len = len % 3 == 0 ? 8 : len % 3 == 1 ? 12 : th_randn(17);
            size_t icv = icvs[len % 3];
            th_fill(nonce + 4, 8);
            th_fill(aad, aad_len);
            th_fill(pt, len);
            or_gcm_seal(key, klen, nonce, 12, aad, aad_len, pt, len, ct_ref, tag_ref, icv);
            akd_case c = {.backend = be, .key = key, .key_len = klen + 4, .iv = nonce + 4,
                          .iv_len = 8, .aad = aad, .aad_len = aad_len, .msg = pt, .msg_len = len,
                          .ct = ct_ref, .ct_len = len, .tag = tag_ref, .tag_len = icv};
            th_drive("rfc4106", &c, "k=%zu len=%zu aad=%zu icv=%zu", klen, len, aad_len, icv);
            st = aeskit_rfc4106_seal(&rk, ct, tag, icv, pt, len, nonce + 4, aad, aad_len);
            TH_CHECK(st == AESKIT_OK, "rfc4106 seal len=%zu: %s", len, aeskit_strerror(st));
            TH_CHECK_MEM(ct, ct_ref, len, "rfc4106 ct k=%zu len=%zu aad=%zu", klen, len, aad_len);
            TH_CHECK_MEM(tag, tag_ref, icv, "rfc4106 icv k=%zu len=%zu aad=%zu icv=%zu", klen, len,
                         aad_len, icv);
        }
        aeskit_rfc4106_wipe(&rk);
    }
}

/* RFC 4543: GMAC over aad || iv || payload with nonce = salt || iv. */
static void test_rfc4543(void)
{
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[36], nonce[12], tag[16], tag_ref[16];
        aeskit_rfc4106_key rk;
        th_fill(key, klen + 4);
        if (aeskit_rfc4106_init_backend(&rk, key, klen + 4, be) != AESKIT_OK)
            continue;
        memcpy(nonce, key + klen, 4);
        for (size_t len = 0; len <= 1100; len += (len < 200 ? 1 : 1 + th_randn(50)) * th_stride()) {
            size_t aad_len = len % 2 ? 8 : 12;
            uint8_t *auth = back; /* aad || iv || payload, for OpenSSL */
            th_fill(nonce + 4, 8);
            th_fill(auth, aad_len);
            memcpy(auth + aad_len, nonce + 4, 8);
            th_fill(pt, len);
            memcpy(auth + aad_len + 8, pt, len);
            or_gcm_seal(key, klen, nonce, 12, auth, aad_len + 8 + len, NULL, 0, NULL, tag_ref, 16);
            akd_case c = {.backend = be, .key = key, .key_len = klen + 4, .iv = nonce + 4,
                          .iv_len = 8, .aad = auth, .aad_len = aad_len, .msg = pt, .msg_len = len,
                          .tag = tag_ref, .tag_len = 16};
            th_drive("rfc4543", &c, "k=%zu len=%zu aad=%zu", klen, len, aad_len);
            aeskit_status st = aeskit_rfc4543_mac(&rk, tag, pt, len, nonce + 4, auth, aad_len);
            TH_CHECK(st == AESKIT_OK, "rfc4543 mac len=%zu: %s", len, aeskit_strerror(st));
            TH_CHECK_MEM(tag, tag_ref, 16, "rfc4543 icv k=%zu len=%zu aad=%zu", klen, len, aad_len);
        }
        aeskit_rfc4106_wipe(&rk);
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0x6763d1ff0001ull);
    pt = malloc(MAXLEN);
    ct = malloc(MAXLEN);
    ct_ref = malloc(MAXLEN);
    back = malloc(MAXLEN + 64);
    if (!pt || !ct || !ct_ref || !back)
        return 2;
    test_gcm_arg_errors();
    test_gcm();
    test_gmac();
    test_rfc4106();
    test_rfc4543();
    free(pt);
    free(ct);
    free(ct_ref);
    free(back);
    return th_finish("diff_gcm");
}
