/*
 * test_wipe.c - every *_wipe leaves no byte of the object behind.
 *
 * Each object is set up from a key, checked to hold something non-zero (so
 * the test can fail), wiped, and then inspected byte by byte.  The wipe goes
 * through aeskit_memzero, which the compiler cannot remove; reading the
 * object back here is what a debugger or a core dump would see.
 */
#include "harness.h"

static int all_zero(const void *p, size_t n)
{
    const volatile uint8_t *b = (const volatile uint8_t *)p;
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

#define CHECK_WIPE(obj, init, wipe)                                                        \
    do {                                                                                   \
        memset(&(obj), 0, sizeof(obj));                                                    \
        int st_ = (init);                                                                  \
        TH_CHECK(st_ == AESKIT_OK, "%s: %s", #init, aeskit_strerror(st_));                 \
        TH_CHECK(!all_zero(&(obj), sizeof(obj)), "%s left the object all zero", #init);    \
        wipe(&(obj));                                                                      \
        TH_CHECK(all_zero(&(obj), sizeof(obj)), "%s left bytes behind", #wipe);            \
    } while (0)

int main(void)
{
    const char *be = th_backend();
    uint8_t key[64], iv[16];
    th_seed(0x77697065ull);
    th_fill(key, sizeof key);
    th_fill(iv, sizeof iv);

    aeskit_aes_key ak;
    aeskit_gcm_key gk;
    aeskit_cmac_key ck;
    aeskit_xts_key xk;
    aeskit_rfc4106_key r6;
    aeskit_rfc4309_key r9;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        CHECK_WIPE(ak, aeskit_aes_init_backend(&ak, key, kl, be), aeskit_aes_wipe);
        CHECK_WIPE(gk, aeskit_gcm_init_backend(&gk, key, kl, be), aeskit_gcm_wipe);
        CHECK_WIPE(ck, aeskit_cmac_init_backend(&ck, key, kl, be), aeskit_cmac_wipe);
        CHECK_WIPE(xk, aeskit_xts_init_backend(&xk, key, 2 * kl, be), aeskit_xts_wipe);
        CHECK_WIPE(r6, aeskit_rfc4106_init_backend(&r6, key, kl + 4, be), aeskit_rfc4106_wipe);
        CHECK_WIPE(r9, aeskit_rfc4309_init_backend(&r9, key, kl + 3, be), aeskit_rfc4309_wipe);
    }

    /* Streaming contexts hold keystream, partial blocks and running MACs. */
    uint8_t buf[40] = {1, 2, 3};
    TH_CHECK(aeskit_gcm_init_backend(&gk, key, 16, be) == AESKIT_OK, "gcm init");
    aeskit_gcm_ctx gc;
    CHECK_WIPE(gc, aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12) | aeskit_gcm_update_aad(&gc, buf, 5) |
                       aeskit_gcm_update(&gc, buf, buf, 21), aeskit_gcm_ctx_wipe);
    TH_CHECK(aeskit_cmac_init_backend(&ck, key, 16, be) == AESKIT_OK, "cmac init");
    aeskit_cmac_ctx cc;
    CHECK_WIPE(cc, aeskit_cmac_start(&cc, &ck) | aeskit_cmac_update(&cc, buf, 21), aeskit_cmac_ctx_wipe);
    TH_CHECK(aeskit_aes_init_backend(&ak, key, 16, be) == AESKIT_OK, "aes init");
    aeskit_ctr_ctx tc;
    CHECK_WIPE(tc, aeskit_ctr_start(&tc, &ak, iv) | aeskit_ctr_update(&tc, buf, buf, 21),
               aeskit_ctr_ctx_wipe);

    /* NULL is ignored by every wipe. */
    aeskit_aes_wipe(NULL); aeskit_gcm_wipe(NULL); aeskit_cmac_wipe(NULL); aeskit_xts_wipe(NULL);
    aeskit_rfc4106_wipe(NULL); aeskit_rfc4309_wipe(NULL); aeskit_gcm_ctx_wipe(NULL);
    aeskit_cmac_ctx_wipe(NULL); aeskit_ctr_ctx_wipe(NULL);
    aeskit_memzero(NULL, 10);
    return th_finish("wipe");
}
