/*
 * gcm_batches.c - whole-message GCM (12-byte IV) of long messages against
 * the generic backend, under the backend named by AESKIT_BACKEND.
 *
 * The fused x86 loops run in steps of 16 blocks, two or four steps per
 * reduction, and on the 96-bit-IV path form their counters from a
 * big-endian base block that must be rebuilt whenever the counter's low
 * byte carries (every 256 blocks).  `backends` covers every length up to
 * 4 KiB; this test covers the lengths around every 256-byte boundary up to
 * 68 KiB (so every position of every carry and every step count), with
 * AAD of 0..299 bytes, for AES-128/192/256: seal must equal the generic
 * backend's seal, open must return the plaintext, and a flipped tag bit
 * must be rejected.
 */
#include "harness.h"

#define MAX_LEN 69000

static uint8_t msg[MAX_LEN], ct_ref[MAX_LEN], ct[MAX_LEN], pt[MAX_LEN], aad[300];

int main(void)
{
    const char *be = th_backend();
    static const int around[] = {-33, -17, -16, -1, 0, 1, 15, 16, 17, 33};
    const size_t nbound = MAX_LEN / 256;
    if (!be || !strcmp(be, "generic")) {
        printf("SKIP: gcm_batches compares a backend with generic; run it with AESKIT_BACKEND=<another>\n");
        return 77;
    }

    th_seed(0x6c0b);
    th_fill(msg, sizeof msg);
    th_fill(aad, sizeof aad);
    for (size_t klen = 16; klen <= 32; klen += 8) {
        uint8_t key[32];
        th_fill(key, sizeof key);
        aeskit_gcm_key ref, k;
        if (aeskit_gcm_init_backend(&ref, key, klen, "generic") != AESKIT_OK ||
            aeskit_gcm_init_backend(&k, key, klen, be) != AESKIT_OK) {
            printf("FAIL: key set-up\n");
            return 1;
        }
        for (size_t b = 0; b < nbound; b += th_stride()) { /* every boundary at full scale */
            for (size_t i = 0; i < sizeof around / sizeof around[0]; i++) {
                long l = (long)(b * 256) + around[i];
                if (l < 0 || l > MAX_LEN)
                    continue;
                size_t len = (size_t)l, aad_len = th_randn(3) == 0 ? 0 : th_randn(sizeof aad);
                uint8_t iv[12], tag_ref[16], tag[16];
                th_fill(iv, sizeof iv);
                aeskit_status s1 = aeskit_gcm_seal(&ref, ct_ref, tag_ref, 16, msg, len, iv, 12, aad, aad_len);
                aeskit_status s2 = aeskit_gcm_seal(&k, ct, tag, 16, msg, len, iv, 12, aad, aad_len);
                TH_CHECK(s1 == AESKIT_OK && s2 == AESKIT_OK && !memcmp(ct, ct_ref, len) && !memcmp(tag, tag_ref, 16),
                         "seal: key %zu len %zu aad %zu differs from generic (first byte %zu)", klen, len, aad_len,
                         th_first_diff(ct, ct_ref, len));
                aeskit_status s3 = aeskit_gcm_open(&k, pt, ct_ref, len, tag_ref, 16, iv, 12, aad, aad_len);
                TH_CHECK(s3 == AESKIT_OK && !memcmp(pt, msg, len), "open: key %zu len %zu aad %zu: status %d",
                         klen, len, aad_len, s3);
                tag[th_randn(16)] ^= (uint8_t)(1u << th_randn(8));
                TH_CHECK(aeskit_gcm_open(&k, pt, ct, len, tag, 16, iv, 12, aad, aad_len) == AESKIT_ERR_AUTH &&
                             th_all_zero(pt, len),
                         "open of a tampered tag: key %zu len %zu accepted or left output", klen, len);
            }
        }
    }
    return th_finish("gcm_batches");
}
