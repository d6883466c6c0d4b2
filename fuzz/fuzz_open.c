/*
 * fuzz_open.c - open/verify on arbitrary ciphertext and tags: aeskit must
 * accept exactly what OpenSSL accepts (never a forgery), return the same
 * plaintext when it accepts, and leave a zeroed output when it rejects.
 * Covers GCM (any IV length, every tag length) and GMAC.
 */
#include "fuzz_common.h"

enum { MAXMSG = 2048 };
static uint8_t ct[MAXMSG], pt[MAXMSG + 16], ref[MAXMSG + 16];
static const size_t gcm_tags[] = {4, 8, 12, 13, 14, 15, 16};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    uint8_t key[32], iv[32], aad[64], tag[16];
    size_t kl = 16 + 8 * (fz_byte(&r) % 3);
    size_t ivl = 1 + fz_byte(&r) % 32;
    size_t al = fz_byte(&r) % 65;
    size_t tl = gcm_tags[fz_byte(&r) % 7];
    fz_take(&r, key, kl);
    fz_take(&r, iv, ivl);
    fz_take(&r, aad, al);
    fz_take(&r, tag, tl);
    size_t n = r.n < MAXMSG ? r.n : MAXMSG;
    fz_take(&r, ct, n);

    int oss_ok = fz_openssl_gcm(0, key, kl, iv, ivl, aad, al, ct, n, ref, tag, tl);
    aeskit_gcm_key gk;
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get");
        if (!bi.available)
            continue;
        FZ_ASSERT(aeskit_gcm_init_backend(&gk, key, kl, bi.name) == AESKIT_OK, "gcm_init_backend");
        memset(pt, 0xa5, sizeof pt);
        int st = aeskit_gcm_open(&gk, pt, ct, n, tag, tl, iv, ivl, aad, al);
        FZ_ASSERT(st == AESKIT_OK || st == AESKIT_ERR_AUTH, "unexpected status %d", st);
        FZ_ASSERT((st == AESKIT_OK) == (oss_ok == 1), "%s: aeskit %s, OpenSSL %s", bi.name,
                  st == AESKIT_OK ? "accepts" : "rejects", oss_ok ? "accepts" : "rejects");
        if (st == AESKIT_OK) {
            FZ_ASSERT(!memcmp(pt, ref, n), "%s: accepted with a different plaintext", bi.name);
        } else {
            for (size_t i = 0; i < n; i++)
                FZ_ASSERT(pt[i] == 0, "%s: rejected output not zeroed at %zu", bi.name, i);
        }
        FZ_ASSERT(pt[n] == 0xa5, "%s: open wrote past the message", bi.name);
        if (n == 0) {
            st = aeskit_gmac_verify(&gk, tag, tl, iv, ivl, aad, al);
            FZ_ASSERT((st == AESKIT_OK) == (oss_ok == 1), "%s: GMAC verify disagrees", bi.name);
        }
        aeskit_gcm_wipe(&gk);
    }
    return 0;
}
