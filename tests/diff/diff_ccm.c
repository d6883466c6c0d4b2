/*
 * diff_ccm.c - CCM and RFC 4309 against OpenSSL on random inputs, under the
 * backend named by AESKIT_BACKEND.
 *
 * Coverage: every nonce length 7..13 with every tag length 4..16 (even) on
 * message lengths 0..100 and a sample of longer ones; AAD lengths 0..40,
 * block-boundary lengths, and the switch of the AAD length encoding at
 * 2^16 - 2^8 bytes (RFC 3610 2.2); the length-field limit for a 13-byte
 * nonce (q = 2: 65535 bytes accepted, 65536 refused); RFC 4309 with every
 * ICV length; AES-128/192/256.  Each case is sealed by OpenSSL (the
 * oracle) and driven through the mode driver with OpenSSL's output as the
 * expected answer (tools/vectors/drive.h: one-shot, in-place, tampered, and
 * RFC 4309 for an ESP-shaped case); then OpenSSL must accept aeskit's tag.
 */
#include "harness.h"
#include "oracle.h"
#include "th_drive.h"

#define MAXLEN (65536 + 64)

static uint8_t *pt, *ct, *ct_ref, *back, *aad;
static const char *be;
static const size_t key_lens[3] = {16, 24, 32};

static void one_ccm(const aeskit_aes_key *k, const uint8_t *key, size_t klen, size_t nlen,
                    size_t aad_len, size_t len, size_t tag_len)
{
    uint8_t nonce[16], tag[16], tag_ref[16];
    th_fill(nonce, nlen);
    th_fill(aad, aad_len);
    th_fill(pt, len);
    or_ccm_seal(key, klen, nonce, nlen, aad, aad_len, pt, len, ct_ref, tag_ref, tag_len);
    akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = nonce, .iv_len = nlen,
                  .aad = aad, .aad_len = aad_len, .msg = pt, .msg_len = len, .ct = ct_ref,
                  .ct_len = len, .tag = tag_ref, .tag_len = tag_len};
    th_drive("ccm", &c, "k=%zu n=%zu aad=%zu len=%zu tag=%zu", klen, nlen, aad_len, len, tag_len);
    aeskit_status st = aeskit_ccm_seal(k, ct, tag, tag_len, pt, len, nonce, nlen, aad, aad_len);
    TH_CHECK(st == AESKIT_OK, "ccm seal k=%zu n=%zu aad=%zu len=%zu tag=%zu: %s", klen, nlen,
             aad_len, len, tag_len, aeskit_strerror(st));
    if (st != AESKIT_OK)
        return;
    TH_CHECK(or_ccm_open(key, klen, nonce, nlen, aad, aad_len, ct, len, tag, tag_len, back),
             "OpenSSL rejects aeskit's ccm tag k=%zu n=%zu aad=%zu len=%zu tag=%zu", klen, nlen,
             aad_len, len, tag_len);
}

static void test_ccm(void)
{
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[32];
        aeskit_aes_key k;
        th_fill(key, klen);
        aeskit_status st = aeskit_aes_init_backend(&k, key, klen, be);
        TH_CHECK(st == AESKIT_OK, "aes init k=%zu: %s", klen, aeskit_strerror(st));
        if (st != AESKIT_OK)
            continue;
        if (be)
            TH_CHECK(!strcmp(aeskit_aes_backend(&k), be), "key reports backend %s, want %s",
                     aeskit_aes_backend(&k), be);
        for (size_t nlen = 7; nlen <= 13; nlen++)
            for (size_t t = 4; t <= 16; t += 2)
                for (size_t len = 0; len <= 100; len += (1 + (t != 16) * th_randn(6)) * th_stride())
                    one_ccm(&k, key, klen, nlen, (len * 7 + t) % 41, len, t);
        /* Every length 0..600 with a 12-byte nonce, AAD and tag cycling. */
        for (size_t len = 0; len <= 600; len += th_stride())
            one_ccm(&k, key, klen, 12, len % 37, len, 4 + 2 * (len % 7));
        /* AAD around block boundaries (the first block carries 2 bytes of
         * length encoding, so boundaries are at 14, 30, ...) and long AAD. */
        for (size_t a = 1; a <= 80; a++)
            one_ccm(&k, key, klen, 13, a, 20, 16);
        one_ccm(&k, key, klen, 11, 0xff00 - 1, 33, 8);  /* last 2-byte encoding */
        one_ccm(&k, key, klen, 11, 0xff00, 33, 8);      /* first 0xfffe encoding */
        one_ccm(&k, key, klen, 11, 0xff00 + 17, 0, 10);
        /* Longer messages. */
        size_t nlong = th_scaled(12, 3);
        for (size_t i = 0; i < nlong; i++)
            one_ccm(&k, key, klen, 7 + i % 7, th_randn(50), 601 + th_randn(30000), 4 + 2 * (i % 7));
        /* q = 2 (13-byte nonce): the largest length that fits, and one more. */
        one_ccm(&k, key, klen, 13, 5, 65535, 16);
        uint8_t nonce[16] = {0}, tag[16];
        st = aeskit_ccm_seal(&k, ct, tag, 16, pt, 65536, nonce, 13, NULL, 0);
        TH_CHECK(st == AESKIT_ERR_MESSAGE_TOO_LONG, "ccm q=2 len 65536: %s", aeskit_strerror(st));
        /* q = 3 (12-byte nonce): 2^24 - 1 bytes against OpenSSL and 2^24
         * refused; 16 MiB of serial CBC-MAC, so AES-128 at full scale only. */
        if (ki == 0 && th_scale() >= 1.0) {
            size_t big = (size_t)1 << 24;
            uint8_t *bp = malloc(big), *bc = malloc(big), *br = malloc(big);
            uint8_t tag_ref[16];
            if (bp && bc && br) {
                th_fill(nonce, 12);
                th_fill(bp, big);
                or_ccm_seal(key, klen, nonce, 12, NULL, 0, bp, big - 1, br, tag_ref, 8);
                st = aeskit_ccm_seal(&k, bc, tag, 8, bp, big - 1, nonce, 12, NULL, 0);
                TH_CHECK(st == AESKIT_OK, "ccm q=3 len 2^24-1: %s", aeskit_strerror(st));
                TH_CHECK_MEM(bc, br, big - 1, "ccm q=3 len 2^24-1 ciphertext");
                TH_CHECK_MEM(tag, tag_ref, 8, "ccm q=3 len 2^24-1 tag");
                st = aeskit_ccm_seal(&k, bc, tag, 8, bp, big, nonce, 12, NULL, 0);
                TH_CHECK(st == AESKIT_ERR_MESSAGE_TOO_LONG, "ccm q=3 len 2^24: %s",
                         aeskit_strerror(st));
            }
            free(bp);
            free(bc);
            free(br);
        }
        /* Argument checks: nonce and tag lengths outside the standard. */
        for (size_t n = 0; n <= 16; n++) {
            st = aeskit_ccm_seal(&k, ct, tag, 8, pt, 16, nonce, n, NULL, 0);
            int ok = n >= 7 && n <= 13;
            TH_CHECK(ok ? st == AESKIT_OK : st == AESKIT_ERR_NONCE_LENGTH, "ccm nonce length %zu: %s",
                     n, aeskit_strerror(st));
        }
        for (size_t t = 0; t <= 18; t++) {
            st = aeskit_ccm_seal(&k, ct, tag, t, pt, 16, nonce, 12, NULL, 0);
            int ok = t >= 4 && t <= 16 && t % 2 == 0;
            TH_CHECK(ok ? st == AESKIT_OK : st == AESKIT_ERR_TAG_LENGTH, "ccm tag length %zu: %s", t,
                     aeskit_strerror(st));
        }
        aeskit_aes_wipe(&k);
    }
}

/* RFC 4309: nonce = salt (3 bytes, after the AES key) || explicit IV (8). */
static void test_rfc4309(void)
{
    static const size_t icvs[3] = {8, 12, 16};
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[35], nonce[11], tag[16], tag_ref[16];
        aeskit_rfc4309_key rk;
        th_fill(key, klen + 3);
        aeskit_status st = aeskit_rfc4309_init_backend(&rk, key, klen + 3, be);
        TH_CHECK(st == AESKIT_OK, "rfc4309 init k=%zu: %s", klen, aeskit_strerror(st));
        if (st != AESKIT_OK)
            continue;
        memcpy(nonce, key + klen, 3);
        for (size_t len = 0; len <= 1500; len += (len < 200 ? 1 : 1 + th_randn(60)) * th_stride()) {
            size_t aad_len = len % 3 == 0 ? 8 : len % 3 == 1 ? 12 : th_randn(20);
            size_t icv = icvs[len % 3];
            th_fill(nonce + 3, 8);
            th_fill(aad, aad_len);
            th_fill(pt, len);
            or_ccm_seal(key, klen, nonce, 11, aad, aad_len, pt, len, ct_ref, tag_ref, icv);
            akd_case c = {.backend = be, .key = key, .key_len = klen + 3, .iv = nonce + 3,
                          .iv_len = 8, .aad = aad, .aad_len = aad_len, .msg = pt, .msg_len = len,
                          .ct = ct_ref, .ct_len = len, .tag = tag_ref, .tag_len = icv};
            th_drive("rfc4309", &c, "k=%zu len=%zu aad=%zu icv=%zu", klen, len, aad_len, icv);
            st = aeskit_rfc4309_seal(&rk, ct, tag, icv, pt, len, nonce + 3, aad, aad_len);
            TH_CHECK(st == AESKIT_OK, "rfc4309 seal len=%zu: %s", len, aeskit_strerror(st));
            TH_CHECK_MEM(ct, ct_ref, len, "rfc4309 ct k=%zu len=%zu", klen, len);
            TH_CHECK_MEM(tag, tag_ref, icv, "rfc4309 icv k=%zu len=%zu icv=%zu", klen, len, icv);
        }
        aeskit_rfc4309_wipe(&rk);
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0xcc3d1ff0002ull);
    pt = malloc(MAXLEN);
    ct = malloc(MAXLEN);
    ct_ref = malloc(MAXLEN);
    back = malloc(MAXLEN);
    aad = malloc(MAXLEN);
    if (!pt || !ct || !ct_ref || !back || !aad)
        return 2;
    test_ccm();
    test_rfc4309();
    free(pt);
    free(ct);
    free(ct_ref);
    free(back);
    free(aad);
    return th_finish("diff_ccm");
}
