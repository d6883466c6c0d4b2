/*
 * backends.c - every usable backend against the generic one (issue 3), on
 * the same random inputs.  Runs once and loops over the backend table
 * itself; prints which backends it could not run on this machine and why.
 * Needs no OpenSSL, so it runs in cross builds under qemu too.
 *
 * Bulk kernels are where the bugs live (DESIGN.md): the widest step is 16
 * blocks (256 bytes), so lengths cover every value 0..4096 (every position
 * of a tail after 0..16 whole steps), lengths s*256 +- 1..15 further out,
 * GCM AAD ending 1..15 bytes into a block at step boundaries, every split
 * pattern, misaligned and in-place buffers, and counter wraps at every
 * block position inside a step: the 32-bit GCM counter through IVs solved
 * for a chosen J0 (gf128.h) and through the ctr32 primitive directly, and
 * the 128-bit CTR counter across 8..128 bits.
 *
 * The primitives are also compared one by one through src/internal.h (the
 * backend descriptor), so a failure names the kernel rather than the mode.
 */
#include <time.h>

#include "harness.h"
#include "gf128.h"
#include "internal.h"

#define MAXLEN (65536 + 256)

typedef struct {
    aeskit_aes_key aes;
    aeskit_gcm_key gcm;
    aeskit_cmac_key cmac;
    aeskit_xts_key xts;
    aeskit_rfc4106_key r6;
    aeskit_rfc4309_key r9;
} keyset;

static keyset kg, kb; /* generic, backend under test */
static const char *bname;
static size_t klen;
static uint8_t *in, *og, *ob, *tmp, *aadb;
static double part_secs[8];
static const char *part_names[8];

/* "every length" loops step by this: 1 at full scale, sparser below. */
#define stride th_stride

static aeskit_status init_keys(keyset *ks, const uint8_t *key, const char *be)
{
    aeskit_status st;
    if ((st = aeskit_aes_init_backend(&ks->aes, key, klen, be)) != AESKIT_OK ||
        (st = aeskit_gcm_init_backend(&ks->gcm, key, klen, be)) != AESKIT_OK ||
        (st = aeskit_cmac_init_backend(&ks->cmac, key, klen, be)) != AESKIT_OK ||
        (st = aeskit_xts_init_backend(&ks->xts, key, 2 * klen, be)) != AESKIT_OK ||
        (st = aeskit_rfc4106_init_backend(&ks->r6, key, klen + 4, be)) != AESKIT_OK ||
        (st = aeskit_rfc4309_init_backend(&ks->r9, key, klen + 3, be)) != AESKIT_OK)
        return st;
    TH_CHECK(!strcmp(aeskit_aes_backend(&ks->aes), be) && !strcmp(aeskit_gcm_backend(&ks->gcm), be) &&
                 !strcmp(aeskit_cmac_backend(&ks->cmac), be) && !strcmp(aeskit_xts_backend(&ks->xts), be),
             "keys set up for %s report backends %s/%s/%s/%s", be, aeskit_aes_backend(&ks->aes),
             aeskit_gcm_backend(&ks->gcm), aeskit_cmac_backend(&ks->cmac), aeskit_xts_backend(&ks->xts));
    TH_CHECK(!strcmp(aeskit_rfc4106_backend(&ks->r6), be) && !strcmp(aeskit_rfc4309_backend(&ks->r9), be),
             "ESP keys set up for %s report backends %s/%s", be, aeskit_rfc4106_backend(&ks->r6),
             aeskit_rfc4309_backend(&ks->r9));
    return AESKIT_OK;
}

#define SAME(st_g, st_b, n, ...)                                                      \
    do {                                                                              \
        TH_CHECK((st_g) == (st_b), __VA_ARGS__);                                      \
        TH_CHECK_MEM(ob, og, (n), __VA_ARGS__);                                       \
    } while (0)

/* ---- block modes over every length ---------------------------------------- */

static void test_block_modes(void)
{
    uint8_t iv[16], ivg[16], ivb[16];
    for (size_t len = 0; len <= 4096; len += 16 * stride()) {
        th_fill(in, len);
        th_fill(iv, 16);
        aeskit_status a = aeskit_ecb_encrypt(&kg.aes, og, in, len), b = aeskit_ecb_encrypt(&kb.aes, ob, in, len);
        SAME(a, b, len, "%s ecb encrypt k=%zu len=%zu", bname, klen, len);
        a = aeskit_ecb_decrypt(&kg.aes, og, in, len), b = aeskit_ecb_decrypt(&kb.aes, ob, in, len);
        SAME(a, b, len, "%s ecb decrypt k=%zu len=%zu", bname, klen, len);
        memcpy(ivg, iv, 16), memcpy(ivb, iv, 16);
        a = aeskit_cbc_encrypt(&kg.aes, og, in, len, ivg), b = aeskit_cbc_encrypt(&kb.aes, ob, in, len, ivb);
        SAME(a, b, len, "%s cbc encrypt k=%zu len=%zu", bname, klen, len);
        TH_CHECK_MEM(ivb, ivg, 16, "%s cbc encrypt chaining k=%zu len=%zu", bname, klen, len);
        memcpy(ivg, iv, 16), memcpy(ivb, iv, 16);
        a = aeskit_cbc_decrypt(&kg.aes, og, in, len, ivg), b = aeskit_cbc_decrypt(&kb.aes, ob, in, len, ivb);
        SAME(a, b, len, "%s cbc decrypt k=%zu len=%zu", bname, klen, len);
        TH_CHECK_MEM(ivb, ivg, 16, "%s cbc decrypt chaining k=%zu len=%zu", bname, klen, len);
        /* in-place CBC decrypt (parallel kernels must not overwrite the
         * previous ciphertext block before using it) */
        memcpy(ob, in, len);
        memcpy(ivb, iv, 16);
        b = aeskit_cbc_decrypt(&kb.aes, ob, ob, len, ivb);
        TH_CHECK_MEM(ob, og, len, "%s cbc decrypt in-place k=%zu len=%zu", bname, klen, len);
        memcpy(ivg, iv, 16), memcpy(ivb, iv, 16);
        a = aeskit_cbcmac_blocks(&kg.aes, ivg, in, len), b = aeskit_cbcmac_blocks(&kb.aes, ivb, in, len);
        TH_CHECK(a == b, "%s cbcmac status", bname);
        TH_CHECK_MEM(ivb, ivg, 16, "%s cbcmac k=%zu len=%zu", bname, klen, len);
    }
    for (size_t len = 0; len <= 4096; len += stride()) {
        th_fill(in, len);
        th_fill(iv, 16);
        aeskit_status a = aeskit_ctr_crypt(&kg.aes, og, in, len, iv), b = aeskit_ctr_crypt(&kb.aes, ob, in, len, iv);
        SAME(a, b, len, "%s ctr k=%zu len=%zu", bname, klen, len);
        if (len >= 16) {
            a = aeskit_xts_encrypt(&kg.xts, og, in, len, iv), b = aeskit_xts_encrypt(&kb.xts, ob, in, len, iv);
            SAME(a, b, len, "%s xts encrypt k=%zu len=%zu", bname, klen, len);
            a = aeskit_xts_decrypt(&kg.xts, og, in, len, iv), b = aeskit_xts_decrypt(&kb.xts, ob, in, len, iv);
            SAME(a, b, len, "%s xts decrypt k=%zu len=%zu", bname, klen, len);
            memcpy(ob, in, len);
            b = aeskit_xts_decrypt(&kb.xts, ob, ob, len, iv);
            TH_CHECK_MEM(ob, og, len, "%s xts decrypt in-place k=%zu len=%zu", bname, klen, len);
        }
        /* CMAC and CBC encryption are serial, slow in the generic
         * reference: every length to 1100, then a sample. */
        if (len > 1100 && th_randn(8))
            continue;
        uint8_t tg[16], tb[16];
        a = aeskit_cmac(&kg.cmac, tg, 16, in, len), b = aeskit_cmac(&kb.cmac, tb, 16, in, len);
        TH_CHECK(a == b, "%s cmac status", bname);
        TH_CHECK_MEM(tb, tg, 16, "%s cmac k=%zu len=%zu", bname, klen, len);
        size_t out_len_g = 0, out_len_b = 0;
        a = aeskit_cbc_pkcs7_encrypt(&kg.aes, og, len + 16, &out_len_g, in, len, iv);
        b = aeskit_cbc_pkcs7_encrypt(&kb.aes, ob, len + 16, &out_len_b, in, len, iv);
        SAME(a, b, out_len_g, "%s pkcs7 encrypt k=%zu len=%zu", bname, klen, len);
        TH_CHECK(out_len_g == out_len_b, "%s pkcs7 length", bname);
    }
    /* Longer lengths across multiples of the 16-block step. */
    for (size_t s = 17; s <= 256; s += 1 + th_randn(24)) {
        size_t len = s * 256 + (th_randn(2) ? th_randn(16) : 256 - 1 - th_randn(15));
        th_fill(in, len);
        th_fill(iv, 16);
        aeskit_status a = aeskit_ctr_crypt(&kg.aes, og, in, len, iv), b = aeskit_ctr_crypt(&kb.aes, ob, in, len, iv);
        SAME(a, b, len, "%s ctr k=%zu len=%zu", bname, klen, len);
        a = aeskit_xts_encrypt(&kg.xts, og, in, len, iv), b = aeskit_xts_encrypt(&kb.xts, ob, in, len, iv);
        SAME(a, b, len, "%s xts encrypt k=%zu len=%zu", bname, klen, len);
        memcpy(ivg, iv, 16), memcpy(ivb, iv, 16);
        a = aeskit_cbc_decrypt(&kg.aes, og, in, len / 16 * 16, ivg);
        b = aeskit_cbc_decrypt(&kb.aes, ob, in, len / 16 * 16, ivb);
        SAME(a, b, len / 16 * 16, "%s cbc decrypt k=%zu len=%zu", bname, klen, len / 16 * 16);
    }
}

/* ---- CTR 128-bit wraps ------------------------------------------------------ */

static void test_ctr_wrap(void)
{
    for (size_t ffb = 1; ffb <= 16; ffb++) {
        for (unsigned off = 0; off < 40; off += (unsigned)stride()) {
            uint8_t iv[16];
            size_t len = (off + 1) * 16 + th_randn(20 * 16);
            th_fill(iv, 16);
            memset(iv + 16 - ffb, 0xff, ffb);
            iv[15] = (uint8_t)(0xff - off);
            th_fill(in, len);
            aeskit_status a = aeskit_ctr_crypt(&kg.aes, og, in, len, iv), b = aeskit_ctr_crypt(&kb.aes, ob, in, len, iv);
            SAME(a, b, len, "%s ctr wrap k=%zu ff_bytes=%zu wrap after block %u len=%zu", bname, klen,
                 ffb, off + 1, len);
        }
    }
}

/* ---- GCM ------------------------------------------------------------------- */

static void gcm_pair(const uint8_t *iv, size_t iv_len, size_t aad_len, size_t len, size_t tl,
                     const char *what)
{
    uint8_t tg[16], tb[16];
    th_fill(aadb, aad_len);
    th_fill(in, len);
    aeskit_status a = aeskit_gcm_seal(&kg.gcm, og, tg, tl, in, len, iv, iv_len, aadb, aad_len);
    aeskit_status b = aeskit_gcm_seal(&kb.gcm, ob, tb, tl, in, len, iv, iv_len, aadb, aad_len);
    SAME(a, b, len, "%s gcm seal (%s) k=%zu iv=%zu aad=%zu len=%zu", bname, what, klen, iv_len,
         aad_len, len);
    TH_CHECK_MEM(tb, tg, tl, "%s gcm tag (%s) k=%zu iv=%zu aad=%zu len=%zu", bname, what, klen,
                 iv_len, aad_len, len);
    /* open in-place under the backend, the generic's ciphertext */
    memcpy(tmp, og, len);
    b = aeskit_gcm_open(&kb.gcm, tmp, tmp, len, tg, tl, iv, iv_len, aadb, aad_len);
    TH_CHECK(b == AESKIT_OK, "%s gcm open in-place (%s) k=%zu len=%zu: %s", bname, what, klen, len,
             aeskit_strerror(b));
    TH_CHECK_MEM(tmp, in, len, "%s gcm open in-place (%s) k=%zu iv=%zu aad=%zu len=%zu", bname,
                 what, klen, iv_len, aad_len, len);
}

static void test_gcm(void)
{
    uint8_t iv[64];
    for (size_t len = 0; len <= 4096; len += stride()) {
        size_t iv_len = len % 8 ? 12 : 1 + th_randn(64);
        /* AAD ending 1..15 bytes into a block, at and around step boundaries */
        size_t aad_len = len % 5 == 0 ? 256 * th_randn(3) + th_randn(16) : th_randn(40);
        th_fill(iv, iv_len);
        gcm_pair(iv, iv_len, aad_len, len, 16, "every length");
    }
    for (size_t s = 0; s <= 4; s++)
        for (size_t r = 0; r < 16; r++) {
            th_fill(iv, 12);
            gcm_pair(iv, 12, s * 256 + r, 1 + th_randn(300), 16, "aad at step boundary");
            th_fill(iv, 12);
            gcm_pair(iv, 12, s * 256 + 256 - r, th_randn(40), 16, "aad before step boundary");
        }
    for (size_t s = 17; s <= 256; s += 1 + th_randn(24)) {
        size_t len = s * 256 + (th_randn(2) ? th_randn(16) : 256 - 1 - th_randn(15));
        th_fill(iv, 12);
        gcm_pair(iv, 12, th_randn(64), len, 16, "long");
    }
    for (size_t a = 0; a <= 4096; a += 1 + th_randn(97)) { /* GMAC, long AAD through ghash */
        uint8_t tg[16], tb[16];
        th_fill(iv, 12);
        th_fill(aadb, a);
        aeskit_status x = aeskit_gmac(&kg.gcm, tg, 16, iv, 12, aadb, a),
                      y = aeskit_gmac(&kb.gcm, tb, 16, iv, 12, aadb, a);
        TH_CHECK(x == y, "%s gmac status", bname);
        TH_CHECK_MEM(tb, tg, 16, "%s gmac k=%zu aad=%zu", bname, klen, a);
    }
}

/* GCM counter wrap at every block position inside a 16-block step. */
static void test_gcm_wrap(void)
{
    uint8_t h[16], zero[16] = {0};
    TH_CHECK(aeskit_aes_encrypt_block(&kg.aes, h, zero) == AESKIT_OK, "generic E_K(0)");
    for (uint32_t k = 0; k < 128; k += (uint32_t)stride()) {
        uint32_t low = 0xffffffffu - k;
        size_t iv_len = k % 2 ? 16 : 32;
        uint8_t iv[32], target[16], j0[16];
        th_fill(iv, iv_len);
        th_fill(target, 12);
        ak_store_be32(target + 12, low);
        if (!gf_solve_iv(h, iv, iv_len, th_randn(iv_len / 16), target)) {
            TH_CHECK(0, "cannot solve IV");
            continue;
        }
        gf_j0(h, iv, iv_len, j0);
        TH_CHECK_MEM(j0, target, 16, "solver: J0 low word is not %08x", low);
        size_t first = k + 1;
        gcm_pair(iv, iv_len, th_randn(33), first * 16, 16, "wrap");
        gcm_pair(iv, iv_len, th_randn(33), first * 16 + 1 + th_randn(15), 16, "wrap");
        gcm_pair(iv, iv_len, th_randn(33), (first + 16) * 16 + th_randn(16), 16, "wrap");
        gcm_pair(iv, iv_len, th_randn(33), first * 16 + th_randn(40 * 16), 16, "wrap");
        /* long enough for the VAES seals' lag-two folds (more than 16
         * batches of 16 blocks), the wrap inside one of them */
        gcm_pair(iv, iv_len, th_randn(33), first * 16 + 17 * 256 + th_randn(8 * 256), 16, "wrap, lag two");
    }
}

/* Streaming under the backend, in every split pattern, misaligned and
 * in-place, against the generic one-shot. */
static void test_gcm_splits(void)
{
    static const size_t steps[] = {1, 7, 15, 16, 17, 255, 256, 257, 0};
    uint8_t h[16], zero[16] = {0};
    TH_CHECK(aeskit_aes_encrypt_block(&kg.aes, h, zero) == AESKIT_OK, "generic E_K(0)");
    for (size_t len = 0; len <= 4200; len += (len < 600 ? 1 + th_randn(9) : 1 + th_randn(300)) * stride()) {
        uint8_t iv[32], tg[16], tb[16];
        size_t iv_len = 12, aad_len = th_randn(3) ? th_randn(40) : 256 * th_randn(2) + th_randn(16);
        th_fill(iv, 32);
        if (len % 3 == 0) { /* a J0 that wraps somewhere in the first 40 blocks */
            uint8_t target[16];
            iv_len = 16;
            th_fill(target, 12);
            ak_store_be32(target + 12, 0xffffffffu - (uint32_t)th_randn(40));
            gf_solve_iv(h, iv, 16, 0, target);
        }
        th_fill(aadb, aad_len);
        th_fill(in, len);
        TH_CHECK(aeskit_gcm_seal(&kg.gcm, og, tg, 16, in, len, iv, iv_len, aadb, aad_len) == AESKIT_OK,
                 "generic gcm seal len=%zu", len);
        for (size_t p = 0; p < sizeof steps / sizeof steps[0]; p++) {
            if (steps[p] == 1 && len > 1500)
                continue;
            for (int dir = 0; dir < 2; dir++) {
                size_t in_off = th_randn(4), out_off = th_randn(4);
                int inplace = th_randn(3) == 0;
                uint8_t *src = tmp + in_off, *dst = inplace ? src : ob + out_off;
                memcpy(src, dir ? og : in, len);
                aeskit_gcm_ctx ctx;
                aeskit_status st =
                    aeskit_gcm_start(&ctx, &kb.gcm, dir ? AESKIT_OPEN : AESKIT_SEAL, iv, iv_len);
                for (size_t off = 0; off < aad_len && st == AESKIT_OK;) {
                    size_t n = steps[p] ? steps[p] : th_randn(300);
                    n = n < aad_len - off ? n : aad_len - off;
                    st = aeskit_gcm_update_aad(&ctx, aadb + off, n);
                    off += n;
                }
                for (size_t off = 0; off < len && st == AESKIT_OK;) {
                    size_t n = steps[p] ? steps[p] : th_randn(600);
                    n = n < len - off ? n : len - off;
                    st = aeskit_gcm_update(&ctx, dst + off, src + off, n);
                    off += n;
                }
                if (st == AESKIT_OK)
                    st = dir ? aeskit_gcm_finish_verify(&ctx, tg, 16) : aeskit_gcm_finish(&ctx, tb, 16);
                TH_CHECK(st == AESKIT_OK, "%s gcm stream %s k=%zu len=%zu step=%zu: %s", bname,
                         dir ? "decrypt" : "encrypt", klen, len, steps[p], aeskit_strerror(st));
                TH_CHECK_MEM(dst, dir ? in : og, len,
                             "%s gcm stream %s k=%zu iv=%zu len=%zu aad=%zu step=%zu in+%zu out+%zu%s",
                             bname, dir ? "decrypt" : "encrypt", klen, iv_len, len, aad_len,
                             steps[p], in_off, out_off, inplace ? " in-place" : "");
                if (!dir)
                    TH_CHECK_MEM(tb, tg, 16, "%s gcm stream tag k=%zu len=%zu step=%zu", bname,
                                 klen, len, steps[p]);
            }
        }
    }
}

/* CMAC and CTR streaming under the backend against the generic one-shot. */
static void test_other_splits(void)
{
    static const size_t steps[] = {1, 7, 15, 16, 17, 255, 256, 257, 0};
    for (size_t len = 0; len <= 4200; len += (len < 600 ? 1 + th_randn(9) : 1 + th_randn(300)) * stride()) {
        uint8_t iv[16], tg[16], tb[16];
        th_fill(iv, 16);
        if (len % 2)
            memset(iv + 12, 0xff, 4);
        th_fill(in, len);
        TH_CHECK(aeskit_ctr_crypt(&kg.aes, og, in, len, iv) == AESKIT_OK, "generic ctr len=%zu", len);
        TH_CHECK(aeskit_cmac(&kg.cmac, tg, 16, in, len) == AESKIT_OK, "generic cmac len=%zu", len);
        for (size_t p = 0; p < sizeof steps / sizeof steps[0]; p++) {
            if (steps[p] == 1 && len > 1500)
                continue;
            size_t in_off = th_randn(4), out_off = th_randn(4);
            int inplace = th_randn(3) == 0;
            uint8_t *src = tmp + in_off, *dst = inplace ? src : ob + out_off;
            memcpy(src, in, len);
            aeskit_ctr_ctx cc;
            aeskit_cmac_ctx mc;
            aeskit_status st = aeskit_ctr_start(&cc, &kb.aes, iv);
            if (st == AESKIT_OK)
                st = aeskit_cmac_start(&mc, &kb.cmac);
            for (size_t off = 0; off < len && st == AESKIT_OK;) {
                size_t n = steps[p] ? steps[p] : th_randn(600);
                n = n < len - off ? n : len - off;
                st = aeskit_cmac_update(&mc, src + off, n); /* before src is overwritten */
                if (st == AESKIT_OK)
                    st = aeskit_ctr_update(&cc, dst + off, src + off, n);
                off += n;
            }
            if (st == AESKIT_OK)
                st = aeskit_cmac_finish(&mc, tb, 16);
            TH_CHECK(st == AESKIT_OK, "%s ctr/cmac stream: %s", bname, aeskit_strerror(st));
            TH_CHECK_MEM(dst, og, len, "%s ctr stream k=%zu len=%zu step=%zu in+%zu out+%zu%s", bname,
                         klen, len, steps[p], in_off, out_off, inplace ? " in-place" : "");
            TH_CHECK_MEM(tb, tg, 16, "%s cmac stream k=%zu len=%zu step=%zu", bname, klen, len,
                         steps[p]);
        }
    }
}

/* ---- CCM and the ESP helpers (scaled-down length set) -------------------------- */

static void test_ccm_esp(void)
{
    for (size_t len = 0; len <= 4096; len += 1 + th_randn(7) * stride()) {
        uint8_t nonce[16], tg[16], tb[16];
        size_t nlen = 7 + len % 7, tl = 4 + 2 * (len % 7), aad_len = th_randn(3) ? th_randn(40) : 256 + th_randn(16);
        th_fill(nonce, 13);
        th_fill(aadb, aad_len);
        th_fill(in, len);
        aeskit_status a = aeskit_ccm_seal(&kg.aes, og, tg, tl, in, len, nonce, nlen, aadb, aad_len);
        aeskit_status b = aeskit_ccm_seal(&kb.aes, ob, tb, tl, in, len, nonce, nlen, aadb, aad_len);
        SAME(a, b, len, "%s ccm seal k=%zu n=%zu aad=%zu len=%zu", bname, klen, nlen, aad_len, len);
        TH_CHECK_MEM(tb, tg, tl, "%s ccm tag k=%zu n=%zu aad=%zu len=%zu", bname, klen, nlen, aad_len, len);
        memcpy(tmp, og, len);
        b = aeskit_ccm_open(&kb.aes, tmp, tmp, len, tg, tl, nonce, nlen, aadb, aad_len);
        TH_CHECK(b == AESKIT_OK, "%s ccm open in-place len=%zu: %s", bname, len, aeskit_strerror(b));
        TH_CHECK_MEM(tmp, in, len, "%s ccm open in-place k=%zu len=%zu", bname, klen, len);

        a = aeskit_rfc4106_seal(&kg.r6, og, tg, 16, in, len, nonce, aadb, 8);
        b = aeskit_rfc4106_seal(&kb.r6, ob, tb, 16, in, len, nonce, aadb, 8);
        SAME(a, b, len, "%s rfc4106 seal k=%zu len=%zu", bname, klen, len);
        TH_CHECK_MEM(tb, tg, 16, "%s rfc4106 icv k=%zu len=%zu", bname, klen, len);
        a = aeskit_rfc4309_seal(&kg.r9, og, tg, 12, in, len, nonce, aadb, 12);
        b = aeskit_rfc4309_seal(&kb.r9, ob, tb, 12, in, len, nonce, aadb, 12);
        SAME(a, b, len, "%s rfc4309 seal k=%zu len=%zu", bname, klen, len);
        TH_CHECK_MEM(tb, tg, 12, "%s rfc4309 icv k=%zu len=%zu", bname, klen, len);
        a = aeskit_rfc4543_mac(&kg.r6, tg, in, len, nonce, aadb, 12);
        b = aeskit_rfc4543_mac(&kb.r6, tb, in, len, nonce, aadb, 12);
        TH_CHECK(a == b, "%s rfc4543 status", bname);
        TH_CHECK_MEM(tb, tg, 16, "%s rfc4543 icv k=%zu len=%zu", bname, klen, len);
    }
}

/* ---- the primitives, one by one (src/internal.h) ------------------------------- */

static void be32_add(uint8_t c[16], uint32_t n) { ak_store_be32(c + 12, ak_load_be32(c + 12) + n); }
static void be128_add(uint8_t c[16], uint64_t n)
{
    uint64_t lo = ak_load_be64(c + 8), hi = ak_load_be64(c);
    uint64_t nlo = lo + n;
    hi += nlo < lo;
    ak_store_be64(c, hi);
    ak_store_be64(c + 8, nlo);
}

static void test_primitives(void)
{
    const ak_aes *ag = (const ak_aes *)(const void *)&kg.aes, *ab = (const ak_aes *)(const void *)&kb.aes;
    const ak_gcm_key *gg = (const ak_gcm_key *)(const void *)&kg.gcm,
                     *gb = (const ak_gcm_key *)(const void *)&kb.gcm;
    const ak_backend *G = ag->be, *B = ab->be;
    TH_CHECK(G == gg->aes.be && B == gb->aes.be, "gcm key backend pointers");
    if (!B->ctr32 || !B->ctr128 || !B->cbc_encrypt || !B->cbc_decrypt || !B->cbcmac ||
        !B->xts_encrypt || !B->xts_decrypt || !B->ghash_init || !B->ghash || !B->ecb_decrypt) {
        TH_CHECK(0, "%s leaves a mandatory primitive NULL", bname);
        return;
    }
    TH_CHECK_MEM(gb->H, gg->H, 16, "%s gcm key H", bname);
    for (size_t nb = 0; nb <= 48; nb++) {
        size_t len = nb * 16;
        uint8_t cg[16], cb[16], start[16];
        /* ctr32: wrap at every block position 0..nb (and none) */
        for (uint32_t k = 0; k <= nb + 1; k++) {
            th_fill(start, 16);
            ak_store_be32(start + 12, 0xffffffffu - k);
            th_fill(in, len);
            memcpy(cg, start, 16), memcpy(cb, start, 16);
            G->ctr32(ag, og, in, nb, cg);
            B->ctr32(ab, ob, in, nb, cb);
            TH_CHECK_MEM(ob, og, len, "%s ctr32 k=%zu nblocks=%zu wrap at block %u", bname, klen, nb, k + 1);
            be32_add(start, (uint32_t)nb);
            TH_CHECK_MEM(cb, start, 16, "%s ctr32 returned counter k=%zu nblocks=%zu low=%08x", bname,
                         klen, nb, 0xffffffffu - k);
            TH_CHECK_MEM(cg, start, 16, "generic ctr32 returned counter nblocks=%zu", nb);
            /* fused GCM kernels against ctr32 + ghash */
            uint8_t yg[16], yb[16];
            for (int dir = 0; dir < 2; dir++) {
                void (*fused)(const ak_aes *, const ak_ghash *, uint8_t *, const uint8_t *, size_t,
                              uint8_t *, uint8_t *) = dir ? B->gcm_decrypt : B->gcm_encrypt;
                if (!fused)
                    continue;
                th_fill(yg, 16);
                memcpy(yb, yg, 16);
                ak_store_be32(start + 12, 0xffffffffu - k);
                memcpy(cg, start, 16), memcpy(cb, start, 16);
                G->ctr32(ag, og, in, nb, cg);
                G->ghash(&gg->gh, yg, dir ? in : og, nb);
                memcpy(tmp, in, len);
                fused(ab, &gb->gh, tmp, tmp, nb, cb, yb); /* in-place */
                TH_CHECK_MEM(tmp, og, len, "%s gcm_%s kernel k=%zu nblocks=%zu wrap at %u (in-place)",
                             bname, dir ? "decrypt" : "encrypt", klen, nb, k + 1);
                TH_CHECK_MEM(yb, yg, 16, "%s gcm_%s kernel GHASH k=%zu nblocks=%zu wrap at %u", bname,
                             dir ? "decrypt" : "encrypt", klen, nb, k + 1);
                TH_CHECK_MEM(cb, cg, 16, "%s gcm_%s kernel counter k=%zu nblocks=%zu", bname,
                             dir ? "decrypt" : "encrypt", klen, nb);
            }
        }
        /* ctr128: carries across 8..128 bits */
        for (size_t ffb = 1; ffb <= 16; ffb += 1 + (nb % 3)) {
            th_fill(start, 16);
            memset(start + 16 - ffb, 0xff, ffb);
            start[15] = (uint8_t)(0xff - th_randn(nb + 1));
            th_fill(in, len);
            memcpy(cg, start, 16), memcpy(cb, start, 16);
            G->ctr128(ag, og, in, nb, cg);
            B->ctr128(ab, ob, in, nb, cb);
            TH_CHECK_MEM(ob, og, len, "%s ctr128 k=%zu nblocks=%zu ff_bytes=%zu", bname, klen, nb, ffb);
            be128_add(start, nb);
            TH_CHECK_MEM(cb, start, 16, "%s ctr128 returned counter k=%zu nblocks=%zu", bname, klen, nb);
        }
        /* ghash, cbc, cbcmac, xts, ecb on nb blocks with in-place variants */
        uint8_t yg[16], yb[16];
        th_fill(in, len);
        th_fill(yg, 16);
        memcpy(yb, yg, 16);
        G->ghash(&gg->gh, yg, in, nb);
        B->ghash(&gb->gh, yb, in, nb);
        TH_CHECK_MEM(yb, yg, 16, "%s ghash k=%zu nblocks=%zu", bname, klen, nb);
        memcpy(cg, yg, 16), memcpy(cb, yg, 16);
        G->cbcmac(ag, cg, in, nb);
        B->cbcmac(ab, cb, in, nb);
        TH_CHECK_MEM(cb, cg, 16, "%s cbcmac k=%zu nblocks=%zu", bname, klen, nb);
        memcpy(cg, yg, 16), memcpy(cb, yg, 16);
        G->cbc_decrypt(ag, og, in, nb, cg);
        memcpy(ob, in, len);
        B->cbc_decrypt(ab, ob, ob, nb, cb);
        TH_CHECK_MEM(ob, og, len, "%s cbc_decrypt in-place k=%zu nblocks=%zu", bname, klen, nb);
        TH_CHECK_MEM(cb, cg, 16, "%s cbc_decrypt chaining k=%zu nblocks=%zu", bname, klen, nb);
        G->ecb_decrypt(ag, og, in, nb);
        B->ecb_decrypt(ab, ob, in, nb);
        TH_CHECK_MEM(ob, og, len, "%s ecb_decrypt k=%zu nblocks=%zu", bname, klen, nb);
        for (int dir = 0; dir < 2; dir++) {
            memcpy(cg, yg, 16), memcpy(cb, yg, 16);
            const ak_xts_key *xg = (const ak_xts_key *)(const void *)&kg.xts,
                             *xb = (const ak_xts_key *)(const void *)&kb.xts;
            if (dir) {
                G->xts_decrypt(&xg->data_key, og, in, nb, cg);
                B->xts_decrypt(&xb->data_key, ob, in, nb, cb);
            } else {
                G->xts_encrypt(&xg->data_key, og, in, nb, cg);
                B->xts_encrypt(&xb->data_key, ob, in, nb, cb);
            }
            TH_CHECK_MEM(ob, og, len, "%s xts_%s k=%zu nblocks=%zu", bname, dir ? "decrypt" : "encrypt",
                         klen, nb);
            TH_CHECK_MEM(cb, cg, 16, "%s xts_%s returned tweak k=%zu nblocks=%zu", bname,
                         dir ? "decrypt" : "encrypt", klen, nb);
        }
    }
    /* The whole-message GCM kernel (gcm_msgs, one descriptor with a 12-byte
     * IV), seal and open, against the generic one-shot seal. */
    if (B->gcm_msgs) {
        for (size_t len = 0; len <= 1100; len += stride()) {
            uint8_t iv[12], tg[16], tb[16];
            size_t aad_len = th_randn(48);
            th_fill(iv, 12);
            th_fill(aadb, aad_len);
            th_fill(in, len);
            TH_CHECK(aeskit_gcm_seal(&kg.gcm, og, tg, 16, in, len, iv, 12, aadb, aad_len) == AESKIT_OK,
                     "generic gcm seal len=%zu", len);
            for (int dir = 0; dir < 2; dir++) {
                ak_gcm_msg m;
                memset(&m, 0, sizeof m);
                m.aes = &gb->aes;
                m.gh = &gb->gh;
                m.in = dir ? og : in;
                m.out = ob;
                m.len = len;
                m.aad = aadb;
                m.aad_len = aad_len;
                m.flags = AK_GCM_J0_IV12 | (dir ? AK_GCM_OPEN : 0u);
                m.tag = tb;
                memcpy(m.j0, iv, 12);
                m.j0[15] = 1;
                B->gcm_msgs(&m, 1);
                TH_CHECK_MEM(ob, dir ? in : og, len, "%s gcm_msgs %s k=%zu len=%zu aad=%zu", bname,
                             dir ? "open" : "seal", klen, len, aad_len);
                TH_CHECK_MEM(tb, tg, 16, "%s gcm_msgs %s tag k=%zu len=%zu aad=%zu", bname,
                             dir ? "open" : "seal", klen, len, aad_len);
            }
        }
    }
}

int main(void)
{
    th_seed(0xbacce0d0007ull);
    in = malloc(MAXLEN);
    og = malloc(MAXLEN);
    ob = malloc(MAXLEN);
    tmp = malloc(MAXLEN);
    aadb = malloc(MAXLEN);
    if (!in || !og || !ob || !tmp || !aadb)
        return 2;

    aeskit_status st = aeskit_backend_check("generic");
    if (st != AESKIT_OK) {
        printf("FAIL: the generic backend cannot run: %s\n", aeskit_strerror(st));
        return 1;
    }
    size_t n = aeskit_backend_count(), tested = 0;
    for (size_t i = 0; i < n; i++) {
        aeskit_backend_info info;
        if (aeskit_backend_get(&info, i) != AESKIT_OK || !strcmp(info.name, "generic"))
            continue;
        if (!info.available) {
            printf("not run: %s (needs %s; this CPU after AESKIT_CPU has: %s)\n", info.name,
                   info.requires, aeskit_cpu_features());
            continue;
        }
        bname = info.name;
        printf("checking %s%s%s%s against generic\n", bname, info.variant && *info.variant ? " (" : "",
               info.variant ? info.variant : "", info.variant && *info.variant ? ")" : "");
        unsigned long before = th_failures;
        static const size_t key_lens[3] = {16, 24, 32};
        for (int ki = 0; ki < 3; ki++) {
            uint8_t key[64];
            klen = key_lens[ki];
            th_fill(key, sizeof key);
            if ((st = init_keys(&kg, key, "generic")) != AESKIT_OK ||
                (st = init_keys(&kb, key, bname)) != AESKIT_OK) {
                TH_CHECK(0, "%s init k=%zu: %s", bname, klen, aeskit_strerror(st));
                continue;
            }
            static const struct { const char *name; void (*fn)(void); } parts[] = {
                {"primitives", test_primitives}, {"block modes", test_block_modes},
                {"ctr wrap", test_ctr_wrap},     {"gcm", test_gcm},
                {"gcm wrap", test_gcm_wrap},     {"gcm splits", test_gcm_splits},
                {"ctr/cmac splits", test_other_splits}, {"ccm/esp", test_ccm_esp}};
            for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
                clock_t t0 = clock();
                parts[p].fn();
                part_secs[p] += (double)(clock() - t0) / CLOCKS_PER_SEC;
                part_names[p] = parts[p].name;
            }
        }
        printf("  %s: %s (CPU seconds:", bname, th_failures == before ? "agrees with generic" : "MISMATCHES");
        for (size_t p = 0; p < 8; p++) {
            printf(" %s %.2f%s", part_names[p], part_secs[p], p < 7 ? "," : ")\n");
            part_secs[p] = 0;
        }
        tested++;
    }
    free(in);
    free(og);
    free(ob);
    free(tmp);
    free(aadb);
    if (!tested) {
        printf("SKIP: no backend other than generic can run here\n");
        return 77;
    }
    return th_finish("backends");
}
