/*
 * modes.h - private helpers shared by the mode front ends (src/modes/).
 * Portable C11; no CPU features needed.
 *
 * Conventions every front end follows (the public header is the spec):
 *   1. NULL pointers: an object, or a buffer whose length is > 0, that is
 *      NULL -> AESKIT_ERR_NULL_POINTER;
 *   2. object state: a key object never set up (or wiped, so its backend
 *      pointer is NULL) or a streaming context not in the right state ->
 *      AESKIT_ERR_STATE;
 *   3. lengths and parameters, in the order the header lists them;
 *   4. overlap: in/out must be equal or disjoint (mo_bad_overlap); the
 *      auxiliary inputs of AEADs (tag, IV/nonce, AAD) must not overlap out at
 *      all (mo_any_overlap), since out is written before some of them may be
 *      read and a failed open must be able to restore/zero out cleanly.
 * Only then is anything written.
 */
#ifndef AESKIT_MODES_H
#define AESKIT_MODES_H

#include "../internal.h"

#define MO_LIKELY(x) __builtin_expect(!!(x), 1)
#define MO_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MO_NOINLINE __attribute__((noinline))

/* Same semantics as ak_bad_overlap (src/util.c), inlined: the front ends
 * check several pairs per call and the 16-byte-message path is judged on
 * per-call overhead. */
static inline int mo_bad_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    if (alen == 0 || blen == 0 || pa == pb)
        return 0;
    return pa < pb + blen && pb < pa + alen;
}

/* Any overlap at all of two non-empty ranges, equality included. */
static inline int mo_any_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    if (alen == 0 || blen == 0)
        return 0;
    return pa < pb + blen && pb < pa + alen;
}

/* Copies n bytes (0 <= n <= 16) from s to d, which do not overlap, with
 * at most four word moves and no call: two overlapping 8-byte or 4-byte
 * copies, or up to three byte copies.  For the short pieces (nonces, AAD
 * and message tails, truncated tags) whose variable length makes memcpy a
 * library call.  Reads and writes exactly [s, s + n) and [d, d + n). */
static inline void mo_copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* A tag of n bytes (4 <= n <= 16) from the 16-byte block s: a full tag as
 * one 16-byte copy, a truncated one by mo_copy_short. */
static inline void mo_copy_tag(uint8_t *d, const uint8_t s[16], size_t n)
{
    if (n == 16)
        memcpy(d, s, 16);
    else
        mo_copy_short(d, s, n);
}

/* Zeroes a small stack buffer; the empty asm with a memory clobber makes the
 * stores observable so the compiler cannot drop them as dead, without the
 * out-of-line call aeskit_memzero costs. */
static inline void mo_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Counter blocks are updated as one 16-byte vector (GNU C vector
 * extensions, portable to every target): a byte-wise update followed by the
 * backend's 16-byte load of the same block defeats store-to-load forwarding
 * and stalls every call. */
typedef uint32_t mo_v4u32 __attribute__((vector_size(16)));
typedef uint64_t mo_v2u64 __attribute__((vector_size(16)));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MO_BE32(x) (x)
#define MO_BE64(x) (x)
#else
#define MO_BE32(x) __builtin_bswap32(x)
#define MO_BE64(x) __builtin_bswap64(x)
#endif

/* GCM's inc32 on a counter block (public data). */
static inline void mo_inc32(uint8_t ctr[16])
{
    mo_v4u32 v;
    memcpy(&v, ctr, 16);
    v[3] = MO_BE32(MO_BE32(v[3]) + 1);
    memcpy(ctr, &v, 16);
}

/* The n <= 7 bytes at p as a little-endian value, never read past p + n:
 * from 4 bytes as two 4-byte words that may overlap (their common bytes
 * are equal, so OR joins them), below that as bytes 0, n/2 and n-1. */
static inline uint64_t mo_le_bytes7(const uint8_t *p, size_t n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        if (!AK_LITTLE_ENDIAN) {
            a = __builtin_bswap32(a);
            b = __builtin_bswap32(b);
        }
        return a | (uint64_t)b << (8 * (n - 4));
    }
    if (!n)
        return 0;
    return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) | (uint64_t)p[n - 1] << (8 * (n - 1));
}

/* The 16-byte block of little-endian words lo (bytes 0-7) and hi (8-15),
 * written by one 16-byte store.  Blocks that a kernel reads whole are
 * formed this way: a load that spans several smaller stores is not
 * forwarded from them but waits for them to reach the cache (some 15-20
 * cycles on current x86 cores; docs/performance.md). */
static inline void mo_store_block(uint8_t out[16], uint64_t lo, uint64_t hi)
{
    mo_v2u64 v = AK_LITTLE_ENDIAN ? (mo_v2u64){lo, hi} : (mo_v2u64){__builtin_bswap64(lo), __builtin_bswap64(hi)};
    memcpy(out, &v, 16);
}

/* IV || [n]_32 as one 16-byte store (GCM's J0 = IV || 0^31 || 1 for n = 1):
 * the two 64-bit words IV[0..7] and IV[8..11] || 0^32, in memory order,
 * then [n]_32 ORed into the last four bytes (on x86: two loads, one unpack
 * and one OR with a constant). */
static inline void mo_iv12_block(uint8_t out[16], const uint8_t iv[12], uint32_t n)
{
    uint64_t w0;
    uint32_t w2;
    memcpy(&w0, iv, 8);
    memcpy(&w2, iv + 8, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    mo_v2u64 v = {w0, (uint64_t)w2 << 32};
    v |= (mo_v2u64){0, n};
#else
    mo_v2u64 v = {w0, w2};
    v |= (mo_v2u64){0, (uint64_t)MO_BE32(n) << 32};
#endif
    memcpy(out, &v, 16);
}

/* 128-bit big-endian increment (CTR, CCM counters; public data). */
static inline void mo_inc128(uint8_t ctr[16])
{
    mo_v2u64 v;
    memcpy(&v, ctr, 16);
    uint64_t lo = MO_BE64(v[1]) + 1;
    uint64_t hi = MO_BE64(v[0]) + (lo == 0);
    v[0] = MO_BE64(hi);
    v[1] = MO_BE64(lo);
    memcpy(ctr, &v, 16);
}

/* One keystream block: ks = E_K(ctr), then ctr advanced (inc32 or inc128).
 * A single-block ecb_encrypt is the cheapest one-block call on every
 * backend (docs/performance.md, "Measurements behind the code"), and ks
 * may not alias ctr. */
static inline void mo_ks32(const ak_aes *a, uint8_t ks[16], uint8_t ctr[16])
{
    a->be->ecb_encrypt(a, ks, ctr, 1);
    mo_inc32(ctr);
}
static inline void mo_ks128(const ak_aes *a, uint8_t ks[16], uint8_t ctr[16])
{
    a->be->ecb_encrypt(a, ks, ctr, 1);
    mo_inc128(ctr);
}

/* out = the first n (0..16) bytes of p, zero padded, written as one 16-byte
 * store (p must have 16 readable bytes).  The mask is read at an offset
 * given by n, a public length. */
static inline void mo_pad16(uint8_t out[16], const uint8_t p[16], size_t n)
{
    static const uint8_t mask_tab[32] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    mo_v2u64 v, m;
    memcpy(&v, p, 16);
    memcpy(&m, mask_tab + 16 - n, 16);
    v &= m;
    memcpy(out, &v, 16);
}

/* Tag lengths as bit sets: bit n set if n bytes is allowed. */
#define MO_GCM_TAG_SET 0x1F110u /* 4, 8, 12, 13, 14, 15, 16 */
#define MO_CCM_TAG_SET 0x15550u /* 4, 6, ..., 16 */
#define MO_TAG_OK(set, n) ((n) <= 16 && (((set) >> (n)) & 1u))

/* SP 800-38D limits, in 64-bit arithmetic. */
#define MO_GCM_MAX_MSG (((uint64_t)1 << 36) - 32) /* bytes */
#define MO_GCM_MAX_AAD (((uint64_t)1 << 61) - 1)  /* bytes */
#define MO_GCM_MAX_IV (((uint64_t)1 << 61) - 1)   /* bytes */

/* 1 if the key carries the set-up mark of its kind (internal.h): only then
 * may its backend pointer be followed.  One compare with an immediate. */
static inline int ak_mo_ready(const ak_aes *k, uint32_t magic) { return k->magic == magic; }

/* The checks of aeskit_cbc_encrypt / _decrypt and aeskit_ctr_crypt, inline
 * in the single calls (cbc.c, ctr.c; CFB's one-shot calls, cfb.c, check as
 * CTR's) and the batches (batch_cbc.c, batch_ctr.c): NULL pointers and the
 * key's set-up mark (mo_iv_call_checks), then the mode's own.  CBC: iv is
 * read first and written back last, so it lies in neither in nor out; CTR
 * and CFB: iv is only read, so it lies outside out. */
static inline aeskit_status mo_iv_call_checks(const aeskit_aes_key *k, const uint8_t *out,
                                              const uint8_t *in, size_t len, const uint8_t *iv)
{
    if (!k || !iv || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    return AESKIT_OK;
}
static inline aeskit_status mo_cbc_checks(const aeskit_aes_key *k, const uint8_t *out,
                                          const uint8_t *in, size_t len, const uint8_t *iv)
{
    aeskit_status st = mo_iv_call_checks(k, out, in, len, iv);
    if (st != AESKIT_OK)
        return st;
    if (len % 16)
        return AESKIT_ERR_LENGTH;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(iv, 16, out, len) ||
        mo_any_overlap(iv, 16, in, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}
static inline aeskit_status mo_ctr_checks(const aeskit_aes_key *k, const uint8_t *out,
                                          const uint8_t *in, size_t len, const uint8_t *iv)
{
    aeskit_status st = mo_iv_call_checks(k, out, in, len, iv);
    if (st != AESKIT_OK)
        return st;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(iv, 16, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}
/* Shared setup used by every *_init (src/modes/keys.c); writes magic last. */
void ak_mo_aes_setup(ak_aes *k, const ak_backend *be, const uint8_t *key, size_t key_len,
                     uint32_t magic);

/* The checks every *_init makes, in the header's order (src/modes/keys.c):
 * NULL (obj, or key with key_len > 0), alignment of obj, key_len_ok, then
 * the backend name (NULL: the default) resolved into *be. */
aeskit_status ak_mo_init_checks(const void *obj, const uint8_t *key, size_t key_len,
                                int key_len_ok, const char *backend, const ak_backend **be);

/* A GCM key set up from an AES key on be (src/modes/keys.c): AES key, H,
 * GHASH tables, then the set-up mark AK_MAGIC_GCM.  XAES-256-GCM sets up
 * its per-message key with it. */
void ak_mo_gcm_setup(ak_gcm_key *g, const ak_backend *be, const uint8_t *key, size_t key_len);
/* A CMAC key: the AES key and the SP 800-38B 6.1 subkeys K1, K2, marked
 * with magic (AK_MAGIC_CMAC; 0 for a CMAC key inside another key object). */
void ak_mo_cmac_setup(ak_cmac_key *c, const ak_backend *be, const uint8_t *key, size_t key_len,
                      uint32_t magic);

/* SP 800-38B 6.1 doubling in GF(2^128) with R128 = 0^120 || 10000111,
 * big-endian bit order (also RFC 5297's dbl).  Branch-free: the carry
 * becomes an all-ones mask. */
static inline void ak_mo_dbl(uint8_t out[16], const uint8_t in[16])
{
    uint64_t hi = ak_load_be64(in), lo = ak_load_be64(in + 8);
    uint64_t mask = (uint64_t)0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (mask & 0x87);
    ak_store_be64(out, hi);
    ak_store_be64(out + 8, lo);
}

/* One-shot GCM / CCM with all public checks, used by the RFC helpers so
 * they do not go through the exported (interposable) symbols.  Argument
 * order as the public functions. */
aeskit_status ak_mo_gcm_seal(const ak_gcm_key *key, uint8_t *out, uint8_t *tag, size_t tag_len,
                             const uint8_t *in, size_t len, const uint8_t *iv, size_t iv_len,
                             const uint8_t *aad, size_t aad_len);
aeskit_status ak_mo_gcm_open(const ak_gcm_key *key, uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t *tag, size_t tag_len, const uint8_t *iv,
                             size_t iv_len, const uint8_t *aad, size_t aad_len);
aeskit_status ak_mo_ccm_seal(const ak_aes *k, uint8_t *out, uint8_t *tag, size_t tag_len,
                             const uint8_t *in, size_t len, const uint8_t *nonce,
                             size_t nonce_len, const uint8_t *aad, size_t aad_len);
aeskit_status ak_mo_ccm_open(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t *tag, size_t tag_len, const uint8_t *nonce,
                             size_t nonce_len, const uint8_t *aad, size_t aad_len);

/* GMAC (SP 800-38D with empty plaintext) over a1 || a2 || a3 with a 12-byte
 * nonce, full 16-byte MAC; arguments already checked (RFC 4543). */
void ak_mo_gmac3(const ak_gcm_key *g, const uint8_t nonce[12], const uint8_t *a1, size_t l1,
                 const uint8_t *a2, size_t l2, const uint8_t *a3, size_t l3, uint8_t mac[16]);

#endif /* AESKIT_MODES_H */
