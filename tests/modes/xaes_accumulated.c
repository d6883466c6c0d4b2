/*
 * xaes_accumulated.c - the accumulated randomized test of the C2SP
 * XAES-256-GCM specification (c2sp.org/XAES-256-GCM, "Accumulated
 * randomized tests"), 10,000 iterations, under the backend named by
 * AESKIT_BACKEND:
 *   s, d = SHAKE-128(), SHAKE-128()      (s read as one output stream)
 *   repeat: key = s.read(32); nonce = s.read(24);
 *           plaintext = s.read(s.read(1)[0]); aad = s.read(s.read(1)[0]);
 *           ct = Seal(key, nonce, plaintext, aad) (ct || tag);
 *           Open(ct) must give plaintext; d.write(ct)
 *   d.read(32) = e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939
 * SHAKE-128 is OpenSSL's (or_shake128, oracle.h; 3.0 cannot squeeze
 * twice, so s is read as one long output that covers the longest possible
 * run: 10,000 * 568 bytes, and d absorbs the concatenated ciphertexts at
 * once).
 * The 1,000,000-iteration value is not checked: that stream (up to 568 MB)
 * does not fit this way.  Also checks aeskit_xaes_derive_gcm against the
 * one-shot seal for every message.
 */
#include "harness.h"
#include "oracle.h"

#define ITER 10000
#define MAXPER (32 + 24 + 1 + 255 + 1 + 255)

int main(void)
{
    const char *be = th_backend();
    static uint8_t stream[ITER * MAXPER];
    /* d's input: every ct || tag, at most 255 + 16 bytes each. */
    static uint8_t dsink[ITER * (255 + 16)];
    size_t dlen = 0;
    or_shake128(NULL, 0, stream, sizeof stream);
    static aeskit_xaes_key k;
    static aeskit_gcm_key g;
    size_t at = 0;
    uint8_t ct[255 + 16], pt2[255], ct2[255 + 16];
    for (int i = 0; i < ITER; i++) {
        const uint8_t *key = stream + at, *nonce = stream + at + 32;
        at += 56;
        size_t pl = stream[at++];
        const uint8_t *pt = stream + at;
        at += pl;
        size_t al = stream[at++];
        const uint8_t *aad = stream + at;
        at += al;
        int st = aeskit_xaes_init_backend(&k, key, 32, be);
        st |= aeskit_xaes_seal(&k, ct, ct + pl, 16, pt, pl, nonce, 24, aad, al);
        st |= aeskit_xaes_open(&k, pt2, ct, pl, ct + pl, 16, nonce, 24, aad, al);
        TH_CHECK(st == AESKIT_OK && !memcmp(pt2, pt, pl), "iteration %d: seal/open failed", i);
        st = aeskit_xaes_derive_gcm(&k, &g, nonce);
        st |= aeskit_gcm_seal(&g, ct2, ct2 + pl, 16, pt, pl, nonce + 12, 12, aad, al);
        TH_CHECK(st == AESKIT_OK && !memcmp(ct2, ct, pl + 16),
                 "iteration %d: derive_gcm + gcm_seal differs from xaes_seal", i);
        memcpy(dsink + dlen, ct, pl + 16);
        dlen += pl + 16;
    }
    uint8_t got[32], want[32];
    or_shake128(dsink, dlen, got, 32);
    th_unhex(want, "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939");
    TH_CHECK_MEM(got, want, 32, "accumulated 10,000-iteration digest");
    aeskit_xaes_wipe(&k);
    aeskit_gcm_wipe(&g);
    return th_finish("xaes_accumulated");
}
