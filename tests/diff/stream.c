/*
 * stream.c - streaming equals one-shot, any alignment, in-place, under the
 * backend named by AESKIT_BACKEND.  Needs no oracle: the one-shot functions
 * are checked against OpenSSL in diff_*.c; here every other way of calling
 * the library must give exactly the same bytes.
 *
 * - GCM (AAD and data), CMAC and CTR through the mode driver
 *   (tools/vectors/drive.h) with aeskit's one-shot output as the expected
 *   answer: streamed in steps of 1, 7, 15, 16, 17, 255 bytes and in random
 *   splits, encrypt and decrypt, input and output misaligned by 0..3 bytes
 *   (independently), sometimes in-place.
 * - One-shot calls of every mode misaligned by 0..3 bytes.
 * - In-place (out == in) for every mode: GCM, CCM, RFC 4106/4309, CTR, ECB,
 *   CBC (raw and PKCS#7), XTS, and streaming GCM/CTR.
 * - CBC calls continue a message through the updated chaining value.
 * - Streaming calls out of order return AESKIT_ERR_STATE.
 */
#include "harness.h"
#include "th_drive.h"

#define MAXLEN 8192
#define SLACK 64

static const char *be;
static uint8_t pt_buf[MAXLEN + SLACK], ref_buf[MAXLEN + SLACK], out_buf[MAXLEN + SLACK],
    aad_buf[MAXLEN + SLACK], tmp_buf[MAXLEN + SLACK];

static size_t next_len(size_t len)
{
    if (len < 80)
        return len + th_stride();
    if (len < 600)
        return len + (1 + th_randn(23)) * th_stride();
    return len + (1 + th_randn(700)) * th_stride();
}

/* ---- GCM ------------------------------------------------------------------- */

static void test_gcm_stream(const aeskit_gcm_key *gk, const uint8_t *key, size_t klen)
{
    uint8_t iv[32], tag_ref[16];
    for (size_t len = 0; len <= MAXLEN - 16; len = next_len(len)) {
        size_t iv_len = len % 4 ? 12 : 1 + th_randn(32);
        size_t aad_len = th_randn(4) ? th_randn(70) : th_randn(700);
        th_fill(iv, iv_len);
        th_fill(aad_buf, aad_len);
        th_fill(pt_buf, len);
        aeskit_status st = aeskit_gcm_seal(gk, ref_buf, tag_ref, 16, pt_buf, len, iv, iv_len,
                                           aad_buf, aad_len);
        TH_CHECK(st == AESKIT_OK, "gcm seal len=%zu: %s", len, aeskit_strerror(st));
        akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = iv_len,
                      .aad = aad_buf, .aad_len = aad_len, .msg = pt_buf, .msg_len = len,
                      .ct = ref_buf, .ct_len = len, .tag = tag_ref, .tag_len = 16};
        th_drive("gcm", &c, "k=%zu len=%zu aad=%zu iv=%zu", klen, len, aad_len, iv_len);
    }
}

static void test_gcm_state(const aeskit_gcm_key *gk)
{
    uint8_t iv[12] = {0}, buf[32] = {0}, tag[16];
    aeskit_gcm_ctx ctx, saved;
    /* start sets only the fields it uses; zero the rest so the byte-wise
     * comparison below reads defined memory (MSan). */
    memset(&ctx, 0, sizeof ctx);
    TH_CHECK(aeskit_gcm_start(&ctx, gk, (aeskit_direction)0, iv, 12) == AESKIT_ERR_ARGUMENT,
             "gcm start with direction 0 accepted");
    TH_CHECK(aeskit_gcm_start(&ctx, gk, (aeskit_direction)3, iv, 12) == AESKIT_ERR_ARGUMENT,
             "gcm start with direction 3 accepted");
    TH_CHECK(th_all_zero((const uint8_t *)&ctx, sizeof ctx), "gcm context changed by a refused start");
    TH_CHECK(aeskit_gcm_start(&ctx, gk, AESKIT_SEAL, iv, 12) == AESKIT_OK, "gcm start");
    TH_CHECK(aeskit_gcm_update(&ctx, buf, buf, 5) == AESKIT_OK, "gcm update (seal)");
    memcpy(&saved, &ctx, sizeof ctx);
    TH_CHECK(aeskit_gcm_update_aad(&ctx, buf, 3) == AESKIT_ERR_STATE, "gcm aad after update accepted");
    TH_CHECK(aeskit_gcm_finish_verify(&ctx, tag, 16) == AESKIT_ERR_STATE,
             "gcm finish_verify on a seal context accepted");
    TH_CHECK(!memcmp(&saved, &ctx, sizeof ctx), "gcm context changed by a refused call");
    TH_CHECK(aeskit_gcm_finish(&ctx, tag, 16) == AESKIT_OK, "gcm finish");
    TH_CHECK(aeskit_gcm_finish(&ctx, tag, 16) == AESKIT_ERR_STATE, "gcm finish twice accepted");
    TH_CHECK(aeskit_gcm_finish_verify(&ctx, tag, 16) == AESKIT_ERR_STATE,
             "gcm finish_verify after finish accepted");
    TH_CHECK(aeskit_gcm_update(&ctx, buf, buf, 1) == AESKIT_ERR_STATE,
             "gcm update after finish accepted");
    TH_CHECK(aeskit_gcm_start(&ctx, gk, AESKIT_OPEN, iv, 12) == AESKIT_OK, "gcm restart");
    TH_CHECK(aeskit_gcm_update(&ctx, buf, buf, 5) == AESKIT_OK, "gcm update (open)");
    memcpy(&saved, &ctx, sizeof ctx);
    TH_CHECK(aeskit_gcm_update_aad(&ctx, buf, 3) == AESKIT_ERR_STATE, "gcm aad after update accepted");
    TH_CHECK(aeskit_gcm_finish(&ctx, tag, 16) == AESKIT_ERR_STATE, "gcm finish on an open context accepted");
    TH_CHECK(!memcmp(&saved, &ctx, sizeof ctx), "gcm context changed by a refused call");
    tag[0] ^= 1; /* buf holds the ciphertext of the seal above: only a changed tag fails */
    TH_CHECK(aeskit_gcm_finish_verify(&ctx, tag, 16) == AESKIT_ERR_AUTH, "gcm bad tag accepted");
    TH_CHECK(aeskit_gcm_finish_verify(&ctx, tag, 16) == AESKIT_ERR_STATE,
             "gcm finish_verify after a failed verify accepted");
    TH_CHECK(aeskit_gcm_update(&ctx, buf, buf, 1) == AESKIT_ERR_STATE,
             "gcm update after a failed verify accepted");
    aeskit_gcm_ctx_wipe(&ctx);
    TH_CHECK(aeskit_gcm_update_aad(&ctx, buf, 1) == AESKIT_ERR_STATE, "gcm aad on a wiped context accepted");
}

/* ---- CMAC ------------------------------------------------------------------ */

static void test_cmac_stream(const aeskit_cmac_key *ck, const uint8_t *key, size_t klen)
{
    uint8_t ref[16];
    for (size_t len = 0; len <= MAXLEN - 16; len = next_len(len)) {
        th_fill(pt_buf, len);
        aeskit_status st = aeskit_cmac(ck, ref, 16, pt_buf, len);
        TH_CHECK(st == AESKIT_OK, "cmac len=%zu: %s", len, aeskit_strerror(st));
        akd_case c = {.backend = be, .key = key, .key_len = klen, .msg = pt_buf, .msg_len = len,
                      .tag = ref, .tag_len = 16};
        th_drive("cmac", &c, "k=%zu len=%zu", klen, len);
        aeskit_cmac_ctx ctx;
        TH_CHECK(aeskit_cmac_start(&ctx, ck) == AESKIT_OK && aeskit_cmac_finish(&ctx, ref, 16) == AESKIT_OK &&
                     aeskit_cmac_update(&ctx, pt_buf, 1) == AESKIT_ERR_STATE,
                 "cmac update after finish accepted");
    }
}

/* ---- CTR ------------------------------------------------------------------- */

static void test_ctr_stream(const aeskit_aes_key *k, const uint8_t *key, size_t klen)
{
    uint8_t iv[16];
    for (size_t len = 0; len <= MAXLEN - 16; len = next_len(len)) {
        th_fill(iv, 16);
        if (len % 3 == 0) { /* carries across 8..64 bits inside the message */
            size_t r = th_randn(8);
            memset(iv + 8 + r, 0xff, 8 - r);
        }
        th_fill(pt_buf, len);
        aeskit_status st = aeskit_ctr_crypt(k, ref_buf, pt_buf, len, iv);
        TH_CHECK(st == AESKIT_OK, "ctr len=%zu: %s", len, aeskit_strerror(st));
        akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = 16,
                      .msg = pt_buf, .msg_len = len, .ct = ref_buf, .ct_len = len};
        th_drive("ctr", &c, "k=%zu len=%zu", klen, len);
    }
}

/* ---- one-shot: every mode misaligned and in-place ---------------------------- */

/* For each mode, `run` computes out from in (out may equal in); the result
 * with aligned separate buffers is the reference for misaligned and
 * in-place calls.  Returns the status; *out_len for PKCS#7. */
typedef struct {
    const aeskit_aes_key *k;
    const aeskit_gcm_key *gk;
    const aeskit_xts_key *xk;
    const aeskit_rfc4106_key *r6;
    const aeskit_rfc4309_key *r9;
    uint8_t iv[16], tag[16];
    uint8_t aad[40];
    size_t aad_len;
} mode_args;

enum { M_GCM_SEAL, M_GCM_OPEN, M_CCM_SEAL, M_CCM_OPEN, M_4106_SEAL, M_4106_OPEN, M_4309_SEAL,
       M_4309_OPEN, M_CTR, M_ECB_ENC, M_ECB_DEC, M_CBC_ENC, M_CBC_DEC, M_PKCS7_ENC, M_PKCS7_DEC,
       M_XTS_ENC, M_XTS_DEC, M_COUNT };
static const char *const mode_names[M_COUNT] = {
    "gcm seal", "gcm open", "ccm seal", "ccm open", "rfc4106 seal", "rfc4106 open",
    "rfc4309 seal", "rfc4309 open", "ctr", "ecb encrypt", "ecb decrypt", "cbc encrypt",
    "cbc decrypt", "pkcs7 encrypt", "pkcs7 decrypt", "xts encrypt", "xts decrypt"};

static size_t mode_in_len(int m, size_t len)
{
    if (m == M_ECB_ENC || m == M_ECB_DEC || m == M_CBC_ENC || m == M_CBC_DEC)
        return len / 16 * 16;
    if (m == M_PKCS7_DEC)
        return len / 16 * 16 + 16;
    if (m == M_XTS_ENC || m == M_XTS_DEC)
        return len < 16 ? 16 : len;
    return len;
}

static aeskit_status run_mode(int m, mode_args *a, uint8_t *out, const uint8_t *in, size_t len,
                              uint8_t *tag, size_t *out_len)
{
    uint8_t iv[16];
    memcpy(iv, a->iv, 16);
    *out_len = mode_in_len(m, len); /* the PKCS#7 calls overwrite it */
    switch (m) {
    case M_GCM_SEAL: return aeskit_gcm_seal(a->gk, out, tag, 16, in, len, iv, 12, a->aad, a->aad_len);
    case M_GCM_OPEN: return aeskit_gcm_open(a->gk, out, in, len, a->tag, 16, iv, 12, a->aad, a->aad_len);
    case M_CCM_SEAL: return aeskit_ccm_seal(a->k, out, tag, 16, in, len, iv, 12, a->aad, a->aad_len);
    case M_CCM_OPEN: return aeskit_ccm_open(a->k, out, in, len, a->tag, 16, iv, 12, a->aad, a->aad_len);
    case M_4106_SEAL: return aeskit_rfc4106_seal(a->r6, out, tag, 16, in, len, iv, a->aad, a->aad_len);
    case M_4106_OPEN: return aeskit_rfc4106_open(a->r6, out, in, len, a->tag, 16, iv, a->aad, a->aad_len);
    case M_4309_SEAL: return aeskit_rfc4309_seal(a->r9, out, tag, 16, in, len, iv, a->aad, a->aad_len);
    case M_4309_OPEN: return aeskit_rfc4309_open(a->r9, out, in, len, a->tag, 16, iv, a->aad, a->aad_len);
    case M_CTR: return aeskit_ctr_crypt(a->k, out, in, len, iv);
    case M_ECB_ENC: return aeskit_ecb_encrypt(a->k, out, in, len / 16 * 16);
    case M_ECB_DEC: return aeskit_ecb_decrypt(a->k, out, in, len / 16 * 16);
    case M_CBC_ENC: return aeskit_cbc_encrypt(a->k, out, in, len / 16 * 16, iv);
    case M_CBC_DEC: return aeskit_cbc_decrypt(a->k, out, in, len / 16 * 16, iv);
    case M_PKCS7_ENC: return aeskit_cbc_pkcs7_encrypt(a->k, out, len + 16, out_len, in, len, iv);
    case M_PKCS7_DEC: return aeskit_cbc_pkcs7_decrypt(a->k, out, len + 16, out_len, in, len / 16 * 16 + 16,
                                                      iv);
    case M_XTS_ENC: return aeskit_xts_encrypt(a->xk, out, in, len < 16 ? 16 : len, iv);
    case M_XTS_DEC: return aeskit_xts_decrypt(a->xk, out, in, len < 16 ? 16 : len, iv);
    }
    return AESKIT_ERR_ARGUMENT;
}

static void test_oneshot_layouts(mode_args *a, size_t klen)
{
    for (size_t len = 0; len <= 2200; len += (len < 300 ? 1 : 1 + th_randn(200)) * th_stride()) {
        for (int m = 0; m < M_COUNT; m++) {
            size_t in_len = mode_in_len(m, len), ref_len = 0, got_len = 0;
            uint8_t tag_ref[16], tag[16];
            th_fill(a->iv, 16);
            a->aad_len = th_randn(sizeof a->aad);
            th_fill(a->aad, a->aad_len);
            th_fill(pt_buf, in_len);
            /* The open/decrypt modes need a valid input: seal/encrypt first. */
            if (m == M_GCM_OPEN || m == M_CCM_OPEN || m == M_4106_OPEN || m == M_4309_OPEN ||
                m == M_PKCS7_DEC) {
                uint8_t tmp_tag[16];
                size_t n;
                run_mode(m - 1, a, tmp_buf, pt_buf, len, tmp_tag, &n);
                memcpy(pt_buf, tmp_buf, in_len);
                memcpy(a->tag, tmp_tag, 16);
            }
            memset(ref_buf, 0, in_len + 16);
            aeskit_status st = run_mode(m, a, ref_buf, pt_buf, len, tag_ref, &ref_len);
            TH_CHECK(st == AESKIT_OK, "%s k=%zu len=%zu: %s", mode_names[m], klen, len,
                     aeskit_strerror(st));
            for (int layout = 0; layout < 3; layout++) {
                size_t in_off = th_randn(4), out_off = th_randn(4);
                int inplace = layout == 0;
                uint8_t *in = tmp_buf + in_off, *out = inplace ? in : out_buf + out_off;
                memcpy(in, pt_buf, in_len);
                aeskit_status st2 = run_mode(m, a, out, in, len, tag, &got_len);
                TH_CHECK(st2 == st && got_len == ref_len, "%s k=%zu len=%zu in+%zu out+%zu%s: %s",
                         mode_names[m], klen, len, in_off, out_off, inplace ? " in-place" : "",
                         aeskit_strerror(st2));
                TH_CHECK_MEM(out, ref_buf, ref_len, "%s k=%zu len=%zu in+%zu out+%zu%s",
                             mode_names[m], klen, len, in_off, out_off, inplace ? " in-place" : "");
                if (m == M_GCM_SEAL || m == M_CCM_SEAL || m == M_4106_SEAL || m == M_4309_SEAL)
                    TH_CHECK_MEM(tag, tag_ref, 16, "%s tag k=%zu len=%zu%s", mode_names[m], klen,
                                 len, inplace ? " in-place" : "");
            }
        }
    }
}

/* CBC: consecutive calls continue one message through the chaining value. */
static void test_cbc_continue(const aeskit_aes_key *k, size_t klen)
{
    size_t trials = th_scaled(200, 20);
    for (size_t trial = 0; trial < trials; trial++) {
        size_t nblocks = th_randn(100), len = nblocks * 16;
        uint8_t iv0[16], iv[16];
        th_fill(iv0, 16);
        th_fill(pt_buf, len);
        memcpy(iv, iv0, 16);
        TH_CHECK(aeskit_cbc_encrypt(k, ref_buf, pt_buf, len, iv) == AESKIT_OK, "cbc encrypt len=%zu",
                 len);
        for (int dir = 0; dir < 2; dir++) {
            memcpy(iv, iv0, 16);
            for (size_t off = 0; off < len;) {
                size_t n = 16 * th_randn(20);
                if (n > len - off)
                    n = len - off;
                aeskit_status st = dir ? aeskit_cbc_decrypt(k, out_buf + off, ref_buf + off, n, iv)
                                       : aeskit_cbc_encrypt(k, out_buf + off, pt_buf + off, n, iv);
                TH_CHECK(st == AESKIT_OK, "cbc continue: %s", aeskit_strerror(st));
                off += n;
            }
            TH_CHECK_MEM(out_buf, dir ? pt_buf : ref_buf, len, "cbc %s in pieces k=%zu len=%zu",
                         dir ? "decrypt" : "encrypt", klen, len);
        }
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0x57ea30005ull);
    static const size_t key_lens[3] = {16, 24, 32};
    for (int ki = 0; ki < 3; ki++) {
        size_t klen = key_lens[ki];
        uint8_t key[80];
        th_fill(key, 2 * klen + 4);
        aeskit_aes_key k;
        aeskit_gcm_key gk;
        aeskit_cmac_key ck;
        aeskit_xts_key xk;
        aeskit_rfc4106_key r6;
        aeskit_rfc4309_key r9;
        aeskit_status st;
        if ((st = aeskit_aes_init_backend(&k, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_gcm_init_backend(&gk, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_cmac_init_backend(&ck, key, klen, be)) != AESKIT_OK ||
            (st = aeskit_xts_init_backend(&xk, key, 2 * klen, be)) != AESKIT_OK ||
            (st = aeskit_rfc4106_init_backend(&r6, key, klen + 4, be)) != AESKIT_OK ||
            (st = aeskit_rfc4309_init_backend(&r9, key, klen + 3, be)) != AESKIT_OK) {
            TH_CHECK(0, "init k=%zu: %s", klen, aeskit_strerror(st));
            continue;
        }
        if (ki == 0)
            test_gcm_state(&gk);
        test_gcm_stream(&gk, key, klen);
        test_cmac_stream(&ck, key, klen);
        test_ctr_stream(&k, key, klen);
        mode_args a = {.k = &k, .gk = &gk, .xk = &xk, .r6 = &r6, .r9 = &r9};
        test_oneshot_layouts(&a, klen);
        test_cbc_continue(&k, klen);
        aeskit_aes_wipe(&k);
        aeskit_gcm_wipe(&gk);
        aeskit_cmac_wipe(&ck);
        aeskit_xts_wipe(&xk);
        aeskit_rfc4106_wipe(&r6);
        aeskit_rfc4309_wipe(&r9);
    }
    return th_finish("stream");
}
