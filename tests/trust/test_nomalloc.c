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

/* Every call must succeed (a failed call may have skipped the code that
 * would allocate).  The check itself does not allocate unless it fails. */
#define OK(call)                                                                       \
    do {                                                                               \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == AESKIT_OK, "%s (n=%zu): %s", #call, n_, aeskit_strerror(st_));  \
    } while (0)

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
    size_t olen, n_ = 0;
    armed = 1; /* key set-up too: it runs once per key, but still must not allocate */
    OK(aeskit_aes_init_backend(&ak, key, 16, be));
    OK(aeskit_gcm_init_backend(&gk, key, 16, be));
    OK(aeskit_cmac_init_backend(&ck, key, 16, be));
    OK(aeskit_xts_init_backend(&xk, key, 64, be));
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        n_ = n;
        OK(aeskit_gcm_seal(&gk, out, tag, 16, in, n, iv, 12, aad, 20));
        OK(aeskit_gcm_open(&gk, out, out, n, tag, 16, iv, 12, aad, 20));
        OK(aeskit_gcm_seal(&gk, out, tag, 16, in, n, iv, 16, aad, 20));
        OK(aeskit_gmac(&gk, tag, 16, iv, 12, in, n));
        OK(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12));
        OK(aeskit_gcm_update_aad(&gc, aad, 5));
        OK(aeskit_gcm_update(&gc, out, in, n / 2));
        OK(aeskit_gcm_update(&gc, out, in, n - n / 2));
        OK(aeskit_gcm_finish(&gc, tag, 16));
        OK(aeskit_ccm_seal(&ak, out, tag, 16, in, n, iv, 11, aad, 20));
        OK(aeskit_ccm_open(&ak, out, out, n, tag, 16, iv, 11, aad, 20));
        OK(aeskit_cmac(&ck, tag, 16, in, n));
        OK(aeskit_cmac_start(&cc, &ck));
        OK(aeskit_cmac_update(&cc, in, n));
        OK(aeskit_cmac_finish(&cc, tag, 16));
        OK(aeskit_ctr_crypt(&ak, out, in, n, iv));
        OK(aeskit_ctr_start(&tc, &ak, iv));
        OK(aeskit_ctr_update(&tc, out, in, n));
        OK(aeskit_cbc_pkcs7_encrypt(&ak, out, sizeof out, &olen, in, n, iv));
        OK(aeskit_cbc_pkcs7_decrypt(&ak, out, sizeof out, &olen, out, olen, iv));
        if (n >= 16) {
            OK(aeskit_xts_encrypt(&xk, out, in, n, iv));
            OK(aeskit_xts_decrypt(&xk, out, out, n, iv));
        }
        OK(aeskit_ecb_encrypt(&ak, out, in, n & ~(size_t)15));
    }
    armed = 0;
    TH_CHECK(allocations == 0, "%lu allocations inside aeskit calls", (unsigned long)allocations);
    return th_finish("nomalloc");
}
