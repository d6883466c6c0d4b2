/*
 * test_batch_nomalloc.c - no batch call allocates (the interposer of
 * tests/trust/test_nomalloc.c: malloc, calloc, realloc and free counted
 * while armed; glibc, not under sanitizers).  Batches of 1, 33 and 100
 * messages (more than one stack chunk), every call successful.
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

#define N 100
#define LEN 1424
static uint8_t key[32], iv[N][16], aad[64], in[N][LEN], out[N][LEN], tag[N][16];

#define OK(call)                                                                      \
    do {                                                                              \
        int st_ = (call);                                                             \
        TH_CHECK(st_ == AESKIT_OK, "%s (n=%zu): %s", #call, n, aeskit_strerror(st_)); \
    } while (0)

int main(void)
{
    const char *be = th_backend();
    th_seed(0x626e6f6d616c6c63ull);
    th_fill(key, sizeof key);
    th_fill(&iv[0][0], sizeof iv);
    th_fill(aad, sizeof aad);
    th_fill(&in[0][0], sizeof in);

    void *(*volatile malloc_fn)(size_t) = malloc;
    armed = 1;
    void *p = malloc_fn(10);
    armed = 0;
    free(p);
    TH_CHECK(allocations == 1, "malloc interposition is not active");
    allocations = 0;

    static aeskit_aes_key ak;
    static aeskit_gcm_key gk;
    static aeskit_cmac_key ck;
    static aeskit_gcm_msg gm[N];
    static aeskit_ccm_msg cm[N];
    static aeskit_cmac_msg mm[N];
    static aeskit_cbcmac_msg bm[N];
    static aeskit_cbc_msg cb[N];
    static aeskit_ctr_msg ct[N];
    TH_CHECK(aeskit_aes_init_backend(&ak, key, 16, be) == AESKIT_OK, "init");
    TH_CHECK(aeskit_gcm_init_backend(&gk, key, 32, be) == AESKIT_OK, "init");
    TH_CHECK(aeskit_cmac_init_backend(&ck, key, 24, be) == AESKIT_OK, "init");
    static const size_t counts[] = {1, 33, N};
    armed = 1;
    for (size_t c = 0; c < 3; c++) {
        size_t n = counts[c];
        for (size_t i = 0; i < n; i++) {
            size_t len = (i * 97) % LEN & ~(size_t)15;
            gm[i] = (aeskit_gcm_msg){&gk, out[i], tag[i], 16, in[i], len, iv[i],
                                     i % 3 ? 12 : 16, aad, 20, AESKIT_OK};
            cm[i] = (aeskit_ccm_msg){&ak, out[i], tag[i], 16, in[i], len, iv[i], 11, aad, 20,
                                     AESKIT_OK};
            mm[i] = (aeskit_cmac_msg){&ck, tag[i], 16, in[i], len, AESKIT_OK};
            bm[i] = (aeskit_cbcmac_msg){&ak, tag[i], in[i], len, AESKIT_OK};
            cb[i] = (aeskit_cbc_msg){&ak, out[i], in[i], len, tag[i], AESKIT_OK};
            ct[i] = (aeskit_ctr_msg){&ak, out[i], in[i], len, iv[i], AESKIT_OK};
        }
        OK(aeskit_gcm_seal_batch(gm, n));
        for (size_t i = 0; i < n; i++)
            gm[i].in = gm[i].out; /* open in place */
        OK(aeskit_gcm_open_batch(gm, n));
        for (size_t i = 0; i < n; i++)
            gm[i].len = 0;
        OK(aeskit_gmac_batch(gm, n));
        OK(aeskit_gmac_verify_batch(gm, n));
        OK(aeskit_ccm_seal_batch(cm, n));
        for (size_t i = 0; i < n; i++)
            cm[i].in = cm[i].out;
        OK(aeskit_ccm_open_batch(cm, n));
        OK(aeskit_cmac_batch(mm, n));
        OK(aeskit_cmac_verify_batch(mm, n));
        OK(aeskit_cbcmac_batch(bm, n));
        OK(aeskit_cbc_encrypt_batch(cb, n));
        OK(aeskit_cbc_decrypt_batch(cb, n));
        OK(aeskit_ctr_batch(ct, n));
    }
    armed = 0;
    TH_CHECK(allocations == 0, "%lu allocations inside aeskit batch calls",
             (unsigned long)allocations);
    return th_finish("batch_nomalloc");
}
