/*
 * gcm_wrap.c - GCM's 32-bit counter wrap against OpenSSL, under the backend
 * named by AESKIT_BACKEND.
 *
 * GCM increments only the low 32 bits of the counter block (inc32, SP
 * 800-38D 6.2), so a message whose pre-counter block J0 ends in ffffffff
 * wraps to ...00000000 after its first block.  Bulk kernels that add to a
 * wider lane, or carry into the upper 96 bits, get this wrong (DESIGN.md,
 * story 2).  For a non-12-byte IV, J0 = GHASH_H(IV || pad || len) is linear
 * in the IV blocks, so gf128.h solves one IV block for a J0 with a chosen
 * low word: 0xffffffff, 0xfffffffe, ..., 0xffffff80 put the wrap at every
 * block position 0..127 of the message, i.e. at every position inside a
 * 16-block bulk step, eight times over.  Messages up to 40 blocks past the
 * wrap, with partial last blocks, are sealed by OpenSSL (which implements
 * inc32) and driven through the mode driver with its output as the
 * expected answer (tools/vectors/drive.h: one-shot, streamed in every split
 * pattern, which moves the wrap relative to where each update call starts
 * its bulk loop, in-place, tampered).
 *
 * The solver is checked twice, independently of aeskit's GCM: our own GHASH
 * over the solved IV must give the target J0 (asserted), and OpenSSL's
 * first keystream block for that IV must be E_K(inc32(J0)) computed with
 * OpenSSL's ECB.
 */
#include "harness.h"
#include "oracle.h"
#include "gf128.h"
#include "th_drive.h"

static const char *be;

/* Test case 2 of the GCM specification (McGrew and Viega, "The Galois/Counter
 * Mode of Operation", appendix B): K = 0^128, P = 0^128, IV = 0^96.
 * H = 66e94bd4ef8a2c3b884cfa59ca342b2e, C = 0388dace60b6a392f328c2b971b2fe78,
 * GHASH(H, {}, C) = f38cbb1ad69223dcc3457ae5b6b0f885. */
static void self_test_gf128(void)
{
    uint8_t h[16], c[16], want[16], got[16];
    th_unhex(h, "66e94bd4ef8a2c3b884cfa59ca342b2e");
    th_unhex(c, "0388dace60b6a392f328c2b971b2fe78");
    th_unhex(want, "f38cbb1ad69223dcc3457ae5b6b0f885");
    gf128 H = gf_load(h), y = {0, 0};
    y = gf_ghash_update(H, y, c, 16);
    y = gf_mul(gf_xor(y, gf_len_block(0, 16)), H);
    gf_store(got, y);
    TH_CHECK_MEM(got, want, 16, "test's own GHASH disagrees with the GCM paper's test case 2");
    /* Inverse: a * a^-1 = 1 for a few random a. */
    for (int i = 0; i < 8; i++) {
        uint8_t a[16];
        th_fill(a, 16);
        gf128 x = gf_load(a), p = gf_mul(x, gf_inv(x)), one = gf_one();
        TH_CHECK(p.hi == one.hi && p.lo == one.lo, "test's own GF(2^128) inverse is wrong");
    }
}

static uint8_t pt[200 * 16], ct_ref[200 * 16];

static void seal_and_compare(const uint8_t *key, size_t klen, const uint8_t *iv, size_t iv_len,
                             size_t len, uint32_t low)
{
    uint8_t aad[40], tag_ref[16];
    size_t aad_len = th_randn(sizeof aad);
    th_fill(aad, aad_len);
    th_fill(pt, len);
    or_gcm_seal(key, klen, iv, iv_len, aad, aad_len, pt, len, ct_ref, tag_ref, 16);
    akd_case c = {.backend = be, .key = key, .key_len = klen, .iv = iv, .iv_len = iv_len,
                  .aad = aad, .aad_len = aad_len, .msg = pt, .msg_len = len, .ct = ct_ref,
                  .ct_len = len, .tag = tag_ref, .tag_len = 16};
    th_drive("gcm", &c, "wrap k=%zu iv_len=%zu J0 low=%08x (wrap at block %u) len=%zu", klen,
             iv_len, low, 0xffffffffu - low, len);
}

static void test_wrap(size_t klen)
{
    uint8_t key[32], h[16], zero[16] = {0};
    th_fill(key, klen);
    aeskit_aes_key ak;
    aeskit_status st = aeskit_aes_init_backend(&ak, key, klen, be);
    TH_CHECK(st == AESKIT_OK, "init k=%zu: %s", klen, aeskit_strerror(st));
    if (st != AESKIT_OK)
        return;
    /* H = E_K(0^128) from aeskit, checked against OpenSSL's ECB. */
    uint8_t h_ref[16];
    st = aeskit_aes_encrypt_block(&ak, h, zero);
    TH_CHECK(st == AESKIT_OK, "E_K(0) k=%zu: %s", klen, aeskit_strerror(st));
    or_cipher("ecb", 1, 0, key, klen, NULL, zero, 16, h_ref);
    TH_CHECK_MEM(h, h_ref, 16, "E_K(0) k=%zu", klen);

    static const size_t iv_lens[] = {16, 32, 20, 64, 48};
    size_t per_target = th_scaled(6, 2);
    for (uint32_t k = 0; k < 128; k++) {
        uint32_t low = 0xffffffffu - k;
        size_t iv_len = iv_lens[k % 5], nfull = iv_len / 16;
        uint8_t iv[64], target[16], j0[16];
        th_fill(iv, iv_len);
        th_fill(target, 12);
        target[12] = (uint8_t)(low >> 24);
        target[13] = (uint8_t)(low >> 16);
        target[14] = (uint8_t)(low >> 8);
        target[15] = (uint8_t)low;
        size_t j = th_randn(nfull);
        if (!gf_solve_iv(h, iv, iv_len, j, target)) {
            TH_CHECK(0, "cannot solve the IV (H = 0?)");
            continue;
        }
        gf_j0(h, iv, iv_len, j0);
        TH_CHECK_MEM(j0, target, 16, "solver: J0 of the solved IV is not the target (low %08x)",
                     low);
        /* OpenSSL's first keystream block must be E_K(inc32(J0)). */
        uint8_t ctr1[16], ks_ref[16], ks[16];
        memcpy(ctr1, j0, 16);
        uint32_t c = low + 1;
        ctr1[12] = (uint8_t)(c >> 24);
        ctr1[13] = (uint8_t)(c >> 16);
        ctr1[14] = (uint8_t)(c >> 8);
        ctr1[15] = (uint8_t)c;
        or_cipher("ecb", 1, 0, key, klen, NULL, ctr1, 16, ks_ref);
        uint8_t tagtmp[16];
        or_gcm_seal(key, klen, iv, iv_len, NULL, 0, zero, 16, ks, tagtmp, 16);
        TH_CHECK_MEM(ks, ks_ref, 16, "solver: OpenSSL's keystream for the solved IV is not "
                                     "E_K(inc32(J0)) (low %08x)", low);

        /* Lengths: just past the wrap, one full 16-block step past it, and
         * random lengths up to 40 blocks past it, with partial last blocks. */
        size_t first = (size_t)k + 1; /* blocks up to and including the wrap */
        seal_and_compare(key, klen, iv, iv_len, first * 16, low);
        seal_and_compare(key, klen, iv, iv_len, (first + 1) * 16 - 1 - th_randn(15), low);
        seal_and_compare(key, klen, iv, iv_len, (first + 16) * 16, low);
        seal_and_compare(key, klen, iv, iv_len, (first + 16) * 16 + 1 + th_randn(15), low);
        for (size_t r = 0; r < per_target; r++)
            seal_and_compare(key, klen, iv, iv_len, first * 16 + 1 + th_randn(40 * 16), low);
    }
    aeskit_aes_wipe(&ak);
}

int main(void)
{
    be = th_backend();
    th_seed(0x3a9ffff0004ull);
    self_test_gf128();
    test_wrap(16);
    test_wrap(24);
    test_wrap(32);
    return th_finish("gcm_wrap");
}
