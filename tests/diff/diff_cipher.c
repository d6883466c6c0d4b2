/*
 * diff_cipher.c - ECB, CBC (raw and PKCS#7), CTR, XTS, CMAC and CBC-MAC
 * against OpenSSL on random inputs, under the backend named by
 * AESKIT_BACKEND, for AES-128/192/256.
 *
 * CTR uses IVs whose low bytes are all ff (minus a small offset) so the
 * 128-bit counter carries across 8, 16, 32, 64 bits and wraps modulo 2^128
 * at every block position of a message.  PKCS#7 decryption is checked on
 * crafted bad paddings and on random ciphertexts: aeskit must refuse exactly
 * what OpenSSL refuses, with a zeroed output.  AES-192-XTS is not in
 * OpenSSL: it gets a round trip here and the backend-vs-generic check in
 * backends.c (plus the IEEE 1619 / Wycheproof vectors elsewhere).  Every
 * case is driven through the mode driver (tools/vectors/drive.h: one-shot,
 * streamed where the mode streams, in-place, continued in block steps) with
 * OpenSSL's output as the expected answer.
 */
#include "harness.h"
#include "oracle.h"
#include "th_drive.h"

#define MAXLEN (65536 + 64)

static uint8_t *pt, *ct, *ct_ref, *back;
static const char *be;
static const size_t key_lens[3] = {16, 24, 32};

/* Every length (in units of step) up to dense_to, then growing by about
 * 1/16 per step, so the long lengths cost little. */
static size_t next_len(size_t len, size_t dense_to, size_t step)
{
    return len < dense_to ? len + step * th_stride() : len + step * (1 + th_randn(len / (8 * step)));
}

static void test_ecb_cbc(const aeskit_aes_key *k, const uint8_t *key, size_t klen)
{
    for (size_t len = 0; len <= MAXLEN - 64; len = next_len(len, 1600, 16)) {
        uint8_t iv[16], iv2[16];
        th_fill(pt, len);
        th_fill(iv, 16);
        or_cipher("ecb", 1, 0, key, klen, NULL, pt, len, ct_ref);
        akd_case c = {.backend = be, .key = key, .key_len = klen, .msg = pt, .msg_len = len,
                      .ct = ct_ref, .ct_len = len};
        th_drive("ecb", &c, "k=%zu len=%zu", klen, len);
        aeskit_status st = aeskit_ecb_encrypt(k, ct, pt, len);
        TH_CHECK(st == AESKIT_OK, "ecb encrypt len=%zu: %s", len, aeskit_strerror(st));
        TH_CHECK_MEM(ct, ct_ref, len, "ecb encrypt k=%zu len=%zu", klen, len);

        or_cipher("cbc", 1, 0, key, klen, iv, pt, len, ct_ref);
        akd_case cb = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                       .msg = pt, .msg_len = len, .ct = ct_ref, .ct_len = len};
        th_drive("cbc", &cb, "k=%zu len=%zu", klen, len);
        memcpy(iv2, iv, 16);
        st = aeskit_cbc_encrypt(k, ct, pt, len, iv2);
        TH_CHECK(st == AESKIT_OK, "cbc encrypt len=%zu: %s", len, aeskit_strerror(st));
        TH_CHECK_MEM(ct, ct_ref, len, "cbc encrypt k=%zu len=%zu", klen, len);
        TH_CHECK_MEM(iv2, len ? ct_ref + len - 16 : iv, 16, "cbc encrypt chaining value k=%zu len=%zu",
                     klen, len);

        /* CBC-MAC: the last block of a CBC encryption with IV = state. */
        akd_case cm = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                       .msg = pt, .msg_len = len, .tag = len ? ct_ref + len - 16 : iv,
                       .tag_len = 16};
        th_drive("cbcmac", &cm, "k=%zu len=%zu", klen, len);
    }
    uint8_t iv[16] = {0};
    for (size_t len = 1; len < 48; len += 5) {
        TH_CHECK(aeskit_ecb_encrypt(k, ct, pt, len) == (len % 16 ? AESKIT_ERR_LENGTH : AESKIT_OK),
                 "ecb length %zu", len);
        TH_CHECK(aeskit_cbc_encrypt(k, ct, pt, len, iv) == (len % 16 ? AESKIT_ERR_LENGTH : AESKIT_OK),
                 "cbc length %zu", len);
        TH_CHECK(aeskit_cbcmac_blocks(k, iv, pt, len) == (len % 16 ? AESKIT_ERR_LENGTH : AESKIT_OK),
                 "cbcmac length %zu", len);
    }
}

static void check_pkcs7_decrypt(const aeskit_aes_key *k, const uint8_t *key, size_t klen,
                                const uint8_t iv[16], const uint8_t *c, size_t len, const char *what)
{
    static uint8_t ref[4200 + 64];
    long ref_len = or_cipher("cbc", 0, 1, key, klen, iv, c, len, ref);
    size_t out_len = 12345;
    memset(back, 0xcc, len);
    aeskit_status st = aeskit_cbc_pkcs7_decrypt(k, back, len, &out_len, c, len, iv);
    if (ref_len < 0) {
        TH_CHECK(st == AESKIT_ERR_PADDING, "pkcs7 %s k=%zu len=%zu: OpenSSL refuses, aeskit says %s",
                 what, klen, len, aeskit_strerror(st));
        TH_CHECK(out_len == 0 && th_all_zero(back, len),
                 "pkcs7 %s k=%zu len=%zu: bad padding leaves out_len=%zu / output not zeroed", what,
                 klen, len, out_len);
    } else {
        TH_CHECK(st == AESKIT_OK && out_len == (size_t)ref_len,
                 "pkcs7 %s k=%zu len=%zu: OpenSSL gives %ld bytes, aeskit %s / %zu", what, klen,
                 len, ref_len, aeskit_strerror(st), out_len);
        TH_CHECK_MEM(back, ref, (size_t)ref_len, "pkcs7 %s plaintext k=%zu len=%zu", what, klen, len);
    }
}

static void test_pkcs7(const aeskit_aes_key *k, const uint8_t *key, size_t klen)
{
    uint8_t iv[16];
    for (size_t len = 0; len <= 4200; len = next_len(len, 300, 1)) {
        size_t want = len / 16 * 16 + 16, out_len = 0;
        th_fill(pt, len);
        th_fill(iv, 16);
        long ref = or_cipher("cbc", 1, 1, key, klen, iv, pt, len, ct_ref);
        TH_CHECK(ref == (long)want, "OpenSSL pkcs7 length");
        aeskit_status st = aeskit_cbc_pkcs7_encrypt(k, ct, want, &out_len, pt, len, iv);
        TH_CHECK(st == AESKIT_OK && out_len == want, "pkcs7 encrypt k=%zu len=%zu: %s, %zu bytes",
                 klen, len, aeskit_strerror(st), out_len);
        TH_CHECK_MEM(ct, ct_ref, want, "pkcs7 encrypt k=%zu len=%zu", klen, len);
        akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                      .msg = pt, .msg_len = len, .ct = ct_ref, .ct_len = want};
        th_drive("cbc-pkcs7", &c, "k=%zu len=%zu", klen, len);
        check_pkcs7_decrypt(k, key, klen, iv, ct_ref, want, "round trip");
    }
    /* Crafted last blocks: pad byte 0, 1..16 valid, 17..255, and valid pad
     * bytes with one byte of the padding run wrong. */
    int crafted = (int)th_scaled(600, 300); /* >= 256: every pad byte value */
    for (int trial = 0; trial < crafted; trial++) {
        size_t nblocks = 1 + th_randn(4), len = nblocks * 16;
        uint8_t *last = pt + len - 16;
        th_fill(pt, len);
        th_fill(iv, 16);
        unsigned pad = trial < 256 ? (unsigned)trial : 1 + (unsigned)th_randn(16);
        if (pad >= 1 && pad <= 16)
            memset(last + 16 - pad, (int)pad, pad);
        else
            last[15] = (uint8_t)pad;
        if (trial >= 256 && pad > 1) {
            size_t pos = 16 - pad + th_randn(pad - 1); /* never the last byte */
            last[pos] ^= (uint8_t)(1u << th_randn(8));
        }
        or_cipher("cbc", 1, 0, key, klen, iv, pt, len, ct);
        check_pkcs7_decrypt(k, key, klen, iv, ct, len, "crafted padding");
    }
    for (int trial = 0; trial < 300; trial++) {
        size_t len = 16 * (1 + th_randn(3));
        th_fill(ct, len);
        th_fill(iv, 16);
        check_pkcs7_decrypt(k, key, klen, iv, ct, len, "random ciphertext");
    }
    size_t out_len;
    TH_CHECK(aeskit_cbc_pkcs7_decrypt(k, back, 64, &out_len, ct, 0, iv) == AESKIT_ERR_LENGTH,
             "pkcs7 decrypt of 0 bytes");
    TH_CHECK(aeskit_cbc_pkcs7_decrypt(k, back, 64, &out_len, ct, 17, iv) == AESKIT_ERR_LENGTH,
             "pkcs7 decrypt of 17 bytes");
}

/* Sets iv to a random prefix and a counter whose low `ff_bytes` bytes are
 * all ff minus `back_off`: the counter then carries across ff_bytes*8 bits
 * after back_off+1 blocks. */
static void wrap_iv(uint8_t iv[16], size_t ff_bytes, unsigned back_off)
{
    th_fill(iv, 16);
    memset(iv + 16 - ff_bytes, 0xff, ff_bytes);
    if (ff_bytes < 16)
        iv[15 - ff_bytes] &= 0xfe; /* so the carry stops at a known place */
    iv[15] = (uint8_t)(0xff - back_off); /* back_off < 256: no borrow */
}

static void test_ctr(const aeskit_aes_key *k, const uint8_t *key, size_t klen)
{
    uint8_t iv[16];
    for (size_t len = 0; len <= MAXLEN - 64; len = next_len(len, 1100, 1)) {
        th_fill(pt, len);
        th_fill(iv, 16);
        or_cipher("ctr", 1, 0, key, klen, iv, pt, len, ct_ref);
        akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                      .msg = pt, .msg_len = len, .ct = ct_ref, .ct_len = len};
        th_drive("ctr", &c, "k=%zu len=%zu", klen, len);
        aeskit_status st = aeskit_ctr_crypt(k, ct, pt, len, iv);
        TH_CHECK(st == AESKIT_OK, "ctr len=%zu: %s", len, aeskit_strerror(st));
        TH_CHECK_MEM(ct, ct_ref, len, "ctr k=%zu len=%zu", klen, len);
    }
    /* Carries across 8..128 bits at every block position of a 40-block
     * message (covers every position inside a 16-block bulk step). */
    for (size_t ffb = 1; ffb <= 16; ffb++) {
        for (unsigned off = 0; off < 40; off += ffb == 4 || ffb == 8 || ffb == 16 ? 1 : 7) {
            size_t len = (off + 1) * 16 + th_randn(24 * 16);
            wrap_iv(iv, ffb, off);
            th_fill(pt, len);
            or_cipher("ctr", 1, 0, key, klen, iv, pt, len, ct_ref);
            akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                          .msg = pt, .msg_len = len, .ct = ct_ref, .ct_len = len};
            th_drive("ctr", &c, "ctr wrap k=%zu ff_bytes=%zu wrap after block %u len=%zu", klen,
                     ffb, off + 1, len);
            aeskit_status st = aeskit_ctr_crypt(k, ct, pt, len, iv);
            TH_CHECK(st == AESKIT_OK, "ctr wrap: %s", aeskit_strerror(st));
            TH_CHECK_MEM(ct, ct_ref, len, "ctr wrap k=%zu ff_bytes=%zu wrap after block %u len=%zu",
                         klen, ffb, off + 1, len);
        }
    }
}

static void test_xts(const uint8_t *key2, size_t klen)
{
    aeskit_xts_key xk;
    aeskit_status st = aeskit_xts_init_backend(&xk, key2, 2 * klen, be);
    TH_CHECK(st == AESKIT_OK, "xts init k=%zu: %s", klen, aeskit_strerror(st));
    if (st != AESKIT_OK)
        return;
    if (be)
        TH_CHECK(!strcmp(aeskit_xts_backend(&xk), be), "xts key reports backend %s, want %s",
                 aeskit_xts_backend(&xk), be);
    int have_ref = klen != 24;
    uint8_t tweak[16];
    for (size_t len = 16; len <= MAXLEN - 64; len = next_len(len, 1100, 1)) {
        th_fill(pt, len);
        th_fill(tweak, 16);
        st = aeskit_xts_encrypt(&xk, ct, pt, len, tweak);
        TH_CHECK(st == AESKIT_OK, "xts encrypt len=%zu: %s", len, aeskit_strerror(st));
        if (have_ref) {
            or_cipher("xts", 1, 0, key2, 2 * klen, tweak, pt, len, ct_ref);
            TH_CHECK_MEM(ct, ct_ref, len, "xts encrypt k=%zu len=%zu", klen, len);
            akd_case c = {.backend = be, .key = key2, .key_len = 2 * klen, .iv = tweak,
                          .iv_len = 16, .msg = pt, .msg_len = len, .ct = ct_ref, .ct_len = len};
            th_drive("xts", &c, "k=%zu len=%zu", klen, len);
        }
        st = aeskit_xts_decrypt(&xk, back, ct, len, tweak);
        TH_CHECK(st == AESKIT_OK, "xts decrypt len=%zu: %s", len, aeskit_strerror(st));
        TH_CHECK_MEM(back, pt, len, "xts round trip k=%zu len=%zu", klen, len);
    }
    for (size_t len = 0; len < 16; len++)
        TH_CHECK(aeskit_xts_encrypt(&xk, ct, pt, len, tweak) == AESKIT_ERR_LENGTH,
                 "xts accepts %zu bytes", len);
    aeskit_xts_wipe(&xk);
}

static void test_cmac(const uint8_t *key, size_t klen)
{
    aeskit_cmac_key ck;
    aeskit_status st = aeskit_cmac_init_backend(&ck, key, klen, be);
    TH_CHECK(st == AESKIT_OK, "cmac init k=%zu: %s", klen, aeskit_strerror(st));
    if (st != AESKIT_OK)
        return;
    if (be)
        TH_CHECK(!strcmp(aeskit_cmac_backend(&ck), be), "cmac key reports backend %s, want %s",
                 aeskit_cmac_backend(&ck), be);
    for (size_t len = 0; len <= MAXLEN - 64; len = next_len(len, 1100, 1)) {
        uint8_t tag[16], ref[16];
        size_t tl = 4 + len % 13;
        th_fill(pt, len);
        or_cmac(key, klen, pt, len, ref);
        akd_case c = {.backend = be, .key = key, .key_len = klen, .msg = pt, .msg_len = len,
                      .tag = ref, .tag_len = tl};
        th_drive("cmac", &c, "k=%zu len=%zu tag=%zu", klen, len, tl);
        st = aeskit_cmac(&ck, tag, tl, pt, len);
        TH_CHECK(st == AESKIT_OK, "cmac len=%zu: %s", len, aeskit_strerror(st));
        TH_CHECK_MEM(tag, ref, tl, "cmac k=%zu len=%zu tag=%zu", klen, len, tl);
        st = aeskit_cmac_verify(&ck, pt, len, ref, 16);
        TH_CHECK(st == AESKIT_OK, "cmac verify of OpenSSL's tag k=%zu len=%zu: %s", klen, len,
                 aeskit_strerror(st));
    }
    uint8_t tag[17];
    for (size_t tl = 0; tl <= 17; tl++) {
        st = aeskit_cmac(&ck, tag, tl, pt, 10);
        TH_CHECK(tl >= 4 && tl <= 16 ? st == AESKIT_OK : st == AESKIT_ERR_TAG_LENGTH,
                 "cmac tag length %zu: %s", tl, aeskit_strerror(st));
    }
    aeskit_cmac_wipe(&ck);
}

int main(void)
{
    be = th_backend();
    th_seed(0xc1fe70003ull);
    pt = malloc(MAXLEN);
    ct = malloc(MAXLEN);
    ct_ref = malloc(MAXLEN + 32);
    back = malloc(MAXLEN);
    if (!pt || !ct || !ct_ref || !back)
        return 2;
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[64];
        aeskit_aes_key k;
        th_fill(key, 2 * klen);
        aeskit_status st = aeskit_aes_init_backend(&k, key, klen, be);
        TH_CHECK(st == AESKIT_OK, "aes init k=%zu: %s", klen, aeskit_strerror(st));
        if (st != AESKIT_OK)
            continue;
        if (be)
            TH_CHECK(!strcmp(aeskit_aes_backend(&k), be), "aes key reports backend %s, want %s",
                     aeskit_aes_backend(&k), be);
        test_ecb_cbc(&k, key, klen);
        test_pkcs7(&k, key, klen);
        test_ctr(&k, key, klen);
        test_cmac(key, klen);
        test_xts(key, klen);
        aeskit_aes_wipe(&k);
    }
    free(pt);
    free(ct);
    free(ct_ref);
    free(back);
    return th_finish("diff_cipher");
}
