/*
 * test_nomalloc.c - the seal/open/update paths never allocate.
 *
 * The test binary interposes malloc, calloc, realloc and free (glibc lets an
 * executable's definitions win over libc's, and forwards to __libc_*), and
 * fails if any is called while the counter is armed.  Not built under
 * sanitizers, which interpose the same functions.
 */
#include <stddef.h>

#include "harness.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile int armed;
static volatile unsigned long allocations;

void *malloc(size_t n) { if (armed) allocations++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { if (armed) allocations++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { if (armed) allocations++; return __libc_realloc(p, n); }
void free(void *p) { if (armed && p) allocations++; __libc_free(p); }

static uint8_t key[64], iv[16], aad[300], in[70000], out[70000 + 32], tag[16];

int main(void)
{
    const char *be = th_backend();
    th_seed(0x6e6f6d616c6c6f63ull);
    th_fill(key, sizeof key);
    th_fill(iv, sizeof iv);
    th_fill(aad, sizeof aad);
    th_fill(in, sizeof in);
    static const size_t lens[] = {0, 1, 16, 100, 1420, 4096, 65536 + 7};

    /* A call that allocates: proves the interposition counts.  Called
     * through a volatile pointer, or clang removes the malloc/free pair. */
    void *(*volatile malloc_fn)(size_t) = malloc;
    armed = 1;
    void *p = malloc_fn(10);
    armed = 0;
    free(p);
    TH_CHECK(allocations == 1, "malloc interposition is not active");
    allocations = 0;

    aeskit_aes_key ak;
    aeskit_gcm_key gk;
    aeskit_cmac_key ck;
    aeskit_xts_key xk;
    aeskit_gcm_ctx gc;
    aeskit_cmac_ctx cc;
    aeskit_ctr_ctx tc;
    size_t olen;
    armed = 1; /* key set-up too: it runs once per key, but still must not allocate */
    aeskit_aes_init_backend(&ak, key, 16, be);
    aeskit_gcm_init_backend(&gk, key, 16, be);
    aeskit_cmac_init_backend(&ck, key, 16, be);
    aeskit_xts_init_backend(&xk, key, 64, be);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        aeskit_gcm_seal(&gk, iv, 12, aad, 20, in, n, out, tag, 16);
        aeskit_gcm_open(&gk, iv, 12, aad, 20, out, n, tag, 16, out);
        aeskit_gcm_seal(&gk, iv, 16, aad, 20, in, n, out, tag, 16);
        aeskit_gmac(&gk, iv, 12, in, n, tag, 16);
        aeskit_gcm_start(&gc, &gk, iv, 12);
        aeskit_gcm_aad(&gc, aad, 5);
        aeskit_gcm_encrypt(&gc, out, in, n / 2);
        aeskit_gcm_encrypt(&gc, out, in, n - n / 2);
        aeskit_gcm_finish(&gc, tag, 16);
        aeskit_ccm_seal(&ak, iv, 11, aad, 20, in, n, out, tag, 16);
        aeskit_ccm_open(&ak, iv, 11, aad, 20, out, n, tag, 16, out);
        aeskit_cmac(&ck, in, n, tag, 16);
        aeskit_cmac_start(&cc, &ck);
        aeskit_cmac_update(&cc, in, n);
        aeskit_cmac_finish(&cc, tag, 16);
        aeskit_ctr_crypt(&ak, iv, out, in, n);
        aeskit_ctr_start(&tc, &ak, iv);
        aeskit_ctr_update(&tc, out, in, n);
        aeskit_cbc_pkcs7_encrypt(&ak, iv, out, sizeof out, &olen, in, n);
        aeskit_cbc_pkcs7_decrypt(&ak, iv, out, sizeof out, &olen, out, olen);
        if (n >= 16) {
            aeskit_xts_encrypt(&xk, iv, out, in, n);
            aeskit_xts_decrypt(&xk, iv, out, out, n);
        }
        aeskit_ecb_encrypt(&ak, out, in, n & ~(size_t)15);
    }
    armed = 0;
    TH_CHECK(allocations == 0, "%lu allocations inside aeskit calls", (unsigned long)allocations);
    return th_finish("nomalloc");
}
