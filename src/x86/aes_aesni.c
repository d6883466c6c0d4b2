/*
 * aes_aesni.c - the x86-aesni backend: AES key schedule, ECB, CTR (32- and
 * 128-bit counters), CBC, CBC-MAC and XTS on 128-bit registers.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (no AVX: legacy-SSE
 * encodings, xmm0-xmm15).  Every function carries the target attribute
 * AESNI_TARGET; the file is built without any -m flag.  GHASH and the fused
 * GCM kernels are in gcm_aesni.c.
 *
 * Shape: parallel modes run 8 blocks per iteration (AESENC has a latency of
 * 3-4 cycles and a throughput of 1-2 per cycle, so 8 independent blocks keep
 * the AES units busy); serial modes (CBC encryption, CBC-MAC) are bound by
 * the latency of the round chain, so they keep the round keys in registers
 * and move every XOR off that chain: the next block's input is folded into
 * the last round key, aesenclast(t, kR ^ k0 ^ p) = E(s) ^ p ^ k0.
 *
 * Round keys live in ak_aes.data: the encryption schedule at offset 0, the
 * decryption schedule for AESDEC (AESIMC applied to the middle keys, the
 * "equivalent inverse cipher" of FIPS-197 5.3.5) at offset 240.
 * Constant time: no branch or memory index depends on key or data; branches
 * depend only on lengths and counter values, which are public.
 */
#include <immintrin.h>

#include "../internal.h"

#define AESNI_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#define AESNI_INLINE static inline __attribute__((always_inline)) AESNI_TARGET

#if defined(__clang__)
#define AESNI_UNROLL _Pragma("clang loop unroll(full)")
#else
#define AESNI_UNROLL _Pragma("GCC unroll 16")
#endif

#define DEC_OFFSET 240
#define RK_ENC(k) ((const __m128i *)(const void *)(k)->data)
#define RK_DEC(k) ((const __m128i *)(const void *)((k)->data + DEC_OFFSET))

#define LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

/* Apply M(j) to the 8 lanes of an iteration; block variables are b0..b7. */
#define V8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)

/* One AES operation with key kr on all 8 lanes. */
#define ROUND8(fn, kr)                                                         \
    do {                                                                       \
        const __m128i k_ = (kr);                                               \
        b0 = fn(b0, k_); b1 = fn(b1, k_); b2 = fn(b2, k_); b3 = fn(b3, k_);    \
        b4 = fn(b4, k_); b5 = fn(b5, k_); b6 = fn(b6, k_); b7 = fn(b7, k_);    \
    } while (0)

/* Full cipher on b0..b7 (whitening, rounds-1 full rounds, last round). */
#define ENCRYPT8(rk, R)                                                        \
    do {                                                                       \
        ROUND8(_mm_xor_si128, (rk)[0]);                                        \
        for (unsigned r_ = 1; r_ < (R); r_++)                                  \
            ROUND8(_mm_aesenc_si128, (rk)[r_]);                                \
        ROUND8(_mm_aesenclast_si128, (rk)[R]);                                 \
    } while (0)
#define DECRYPT8(rk, R)                                                        \
    do {                                                                       \
        ROUND8(_mm_xor_si128, (rk)[0]);                                        \
        for (unsigned r_ = 1; r_ < (R); r_++)                                  \
            ROUND8(_mm_aesdec_si128, (rk)[r_]);                                \
        ROUND8(_mm_aesdeclast_si128, (rk)[R]);                                 \
    } while (0)

/* Tails of fewer than 8 blocks run through the same 8-lane code: lanes at or
 * past n (public) read zeros and are not stored. */
#define LOAD_IN(j) __m128i b##j = LOADU(in + 16 * (j));
#define LOAD_IN_N(j) __m128i b##j = (j) < n ? LOADU(in + 16 * (j)) : _mm_setzero_si128();
#define STORE_OUT(j) STOREU(out + 16 * (j), b##j);
#define STORE_OUT_N(j) if ((j) < n) STOREU(out + 16 * (j), b##j);

AESNI_INLINE __m128i bswap128(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

AESNI_INLINE __m128i aes_enc1(const __m128i *rk, unsigned R, __m128i b)
{
    b = _mm_xor_si128(b, rk[0]);
    for (unsigned r = 1; r < R; r++)
        b = _mm_aesenc_si128(b, rk[r]);
    return _mm_aesenclast_si128(b, rk[R]);
}

/* Clears a buffer that held key material; the empty asm keeps the compiler
 * from dropping the memset as a dead store. */
static void wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---- key schedule ---------------------------------------------------------- */

/* AESKEYGENASSIST with the word in dword 1 gives SubWord(w) in dword 0 and
 * RotWord(SubWord(w)) in dword 1 (Intel SDM; the word is little-endian, so
 * FIPS-197's RotWord is a rotation right by 8 bits).  The rcon immediate is
 * 0 and XORed in scalar code so one helper serves every round. */
AESNI_INLINE __m128i keygen_assist(uint32_t w)
{
    return _mm_aeskeygenassist_si128(_mm_set_epi32(0, 0, (int)w, 0), 0);
}

static AESNI_TARGET void aesni_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint32_t w[60];
    const unsigned nk = (unsigned)key_len / 4, R = nk + 6, total = 4 * (R + 1);
    uint32_t rcon = 1;

    /* FIPS-197 5.2, word by word; words kept in memory order (little-endian
     * loads), which is the byte layout AES-NI expects for round keys. */
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = (uint32_t)_mm_extract_epi32(keygen_assist(t), 1) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk == 8 && i % 8 == 4) {
            t = (uint32_t)_mm_cvtsi128_si32(keygen_assist(t));
        }
        w[i] = w[i - nk] ^ t;
    }
    memcpy(k->data, w, 16 * (R + 1));

    __m128i *ek = (__m128i *)(void *)k->data, *dk = (__m128i *)(void *)(k->data + DEC_OFFSET);
    dk[0] = ek[R];
    for (unsigned i = 1; i < R; i++)
        dk[i] = _mm_aesimc_si128(ek[R - i]);
    dk[R] = ek[0];

    k->rounds = R;
    k->key_len = (uint32_t)key_len;
    wipe(w, sizeof w);
}

/* ---- ECB ------------------------------------------------------------------- */

static AESNI_TARGET void aesni_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n)
{
    const __m128i *rk = RK_ENC(k);
    const unsigned R = k->rounds;
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        V8(LOAD_IN)
        ENCRYPT8(rk, R);
        V8(STORE_OUT)
    }
    if (n == 1) {
        STOREU(out, aes_enc1(rk, R, LOADU(in)));
    } else if (n) {
        V8(LOAD_IN_N)
        ENCRYPT8(rk, R);
        V8(STORE_OUT_N)
    }
}

static AESNI_TARGET void aesni_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n)
{
    const __m128i *rk = RK_DEC(k);
    const unsigned R = k->rounds;
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        V8(LOAD_IN)
        DECRYPT8(rk, R);
        V8(STORE_OUT)
    }
    if (n) {
        V8(LOAD_IN_N)
        DECRYPT8(rk, R);
        V8(STORE_OUT_N)
    }
}

/* ---- CTR ------------------------------------------------------------------- */

/* The counter block is kept byte-reversed: the 128-bit lane then holds the
 * big-endian counter as an integer, its low dword is GCM's 32-bit counter,
 * and _mm_add_epi32 on that dword is exactly inc32 - it wraps modulo 2^32
 * inside its lane and never carries into the upper 96 bits. */
#define CTR32_LANE(j)                                                          \
    __m128i b##j = bswap128(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, j)));
#define XOR_IN(j) b##j = _mm_xor_si128(b##j, LOADU(in + 16 * (j)));
#define XOR_IN_N(j) if ((j) < n) b##j = _mm_xor_si128(b##j, LOADU(in + 16 * (j)));

static AESNI_TARGET void aesni_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                     uint8_t ctr[16])
{
    const __m128i *rk = RK_ENC(k);
    const unsigned R = k->rounds;
    __m128i c = bswap128(LOADU(ctr));
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        /* One 32-bit add and one byte swap per lane, whatever the counter:
         * GCM's counter is secret for IVs other than 96 bits (J0 is then
         * GHASH_H(IV)), so no branch may look at its value. */
        V8(CTR32_LANE)
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 8));
        ROUND8(_mm_xor_si128, rk[0]);
        for (unsigned r = 1; r < R; r++)
            ROUND8(_mm_aesenc_si128, rk[r]);
        ROUND8(_mm_aesenclast_si128, rk[R]);
        V8(XOR_IN)
        V8(STORE_OUT)
    }
    if (n) {
        V8(CTR32_LANE)
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)n));
        ENCRYPT8(rk, R);
        V8(XOR_IN_N)
        V8(STORE_OUT_N)
    }
    STOREU(ctr, bswap128(c));
}

/* 128-bit counter: the two halves live in general registers.  When the low
 * half cannot wrap within the next 8 blocks (the common case) the lanes are
 * formed with a 64-bit vector add; otherwise each lane gets its own carry.
 * Both branches depend on the counter value only, which is public. */
static AESNI_TARGET void aesni_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                      uint8_t ctr[16])
{
    const __m128i *rk = RK_ENC(k);
    const unsigned R = k->rounds;
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    while (n) {
        const size_t m = n < 8 ? n : 8;
        __m128i b0, b1, b2, b3, b4, b5, b6, b7;
        if (lo <= UINT64_MAX - 7) {
            const __m128i base = _mm_set_epi64x((long long)hi, (long long)lo);
#define CTR128_FAST_SET(j) b##j = bswap128(_mm_add_epi64(base, _mm_set_epi64x(0, j)));
            V8(CTR128_FAST_SET)
        } else {
#define CTR128_SLOW_SET(j)                                                     \
    b##j = bswap128(_mm_set_epi64x((long long)(hi + (lo + (j) < lo)), (long long)(lo + (j))));
            V8(CTR128_SLOW_SET)
        }
        lo += m;
        hi += lo < m;
        ENCRYPT8(rk, R);
        if (m == 8) {
            V8(XOR_IN)
            V8(STORE_OUT)
        } else {
            V8(XOR_IN_N)
            V8(STORE_OUT_N)
        }
        n -= m;
        in += 16 * m;
        out += 16 * m;
    }
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
}

/* ---- CBC and CBC-MAC (serial) -------------------------------------------- */

/* R is a compile-time constant at each call site (10, 12 or 14), so the
 * round loops unroll and the round keys stay in registers across blocks. */
AESNI_INLINE void cbc_enc_r(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t iv[16], const unsigned R)
{
    const __m128i *rk = RK_ENC(k);
    __m128i kk[15];
    AESNI_UNROLL
    for (unsigned r = 0; r <= R; r++)
        kk[r] = rk[r];
    const __m128i klast0 = _mm_xor_si128(kk[R], kk[0]);
    __m128i s = _mm_xor_si128(LOADU(iv), _mm_xor_si128(LOADU(in), kk[0])), c;
    for (;;) {
        AESNI_UNROLL
        for (unsigned r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, kk[r]);
        c = _mm_aesenclast_si128(s, kk[R]);
        STOREU(out, c);
        if (--n == 0)
            break;
        in += 16;
        out += 16;
        /* E(s) ^ p ^ k0 = aesenclast(t, kR ^ k0 ^ p): the chain never waits
         * for an XOR. */
        s = _mm_aesenclast_si128(s, _mm_xor_si128(klast0, LOADU(in)));
    }
    STOREU(iv, c);
}

static AESNI_TARGET void aesni_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t iv[16])
{
    if (n == 0)
        return;
    switch (k->rounds) {
    case 10: cbc_enc_r(k, out, in, n, iv, 10); break;
    case 12: cbc_enc_r(k, out, in, n, iv, 12); break;
    default: cbc_enc_r(k, out, in, n, iv, 14); break;
    }
}

AESNI_INLINE void cbcmac_r(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t n,
                           const unsigned R)
{
    const __m128i *rk = RK_ENC(k);
    __m128i kk[15];
    AESNI_UNROLL
    for (unsigned r = 0; r <= R; r++)
        kk[r] = rk[r];
    const __m128i klast0 = _mm_xor_si128(kk[R], kk[0]);
    __m128i s = _mm_xor_si128(LOADU(state), _mm_xor_si128(LOADU(in), kk[0])); /* state last: the chain */
    for (;;) {
        AESNI_UNROLL
        for (unsigned r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, kk[r]);
        if (--n == 0)
            break;
        in += 16;
        s = _mm_aesenclast_si128(s, _mm_xor_si128(klast0, LOADU(in)));
    }
    STOREU(state, _mm_aesenclast_si128(s, kk[R]));
}

static AESNI_TARGET void aesni_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in,
                                      size_t n)
{
    if (n == 0)
        return;
    switch (k->rounds) {
    case 10: cbcmac_r(k, state, in, n, 10); break;
    case 12: cbcmac_r(k, state, in, n, 12); break;
    default: cbcmac_r(k, state, in, n, 14); break;
    }
}

/* CBC decryption is parallel.  Outputs are written from the last lane down
 * to the first, each XORed with the previous ciphertext reloaded from in:
 * for in-place calls in[j-1] is still intact when out[j] is written. */
#define CBC_XOR_STORE(j, prev) STOREU(out + 16 * (j), _mm_xor_si128(b##j, prev));

static AESNI_TARGET void aesni_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t iv[16])
{
    const __m128i *rk = RK_DEC(k);
    const unsigned R = k->rounds;
    __m128i chain = LOADU(iv);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        V8(LOAD_IN)
        const __m128i next = b7;
        DECRYPT8(rk, R);
        CBC_XOR_STORE(7, LOADU(in + 96))
        CBC_XOR_STORE(6, LOADU(in + 80))
        CBC_XOR_STORE(5, LOADU(in + 64))
        CBC_XOR_STORE(4, LOADU(in + 48))
        CBC_XOR_STORE(3, LOADU(in + 32))
        CBC_XOR_STORE(2, LOADU(in + 16))
        CBC_XOR_STORE(1, LOADU(in))
        CBC_XOR_STORE(0, chain)
        chain = next;
    }
    if (n) {
        V8(LOAD_IN_N)
        const __m128i next = LOADU(in + 16 * (n - 1));
        DECRYPT8(rk, R);
        if (n > 7) CBC_XOR_STORE(7, LOADU(in + 96))
        if (n > 6) CBC_XOR_STORE(6, LOADU(in + 80))
        if (n > 5) CBC_XOR_STORE(5, LOADU(in + 64))
        if (n > 4) CBC_XOR_STORE(4, LOADU(in + 48))
        if (n > 3) CBC_XOR_STORE(3, LOADU(in + 32))
        if (n > 2) CBC_XOR_STORE(2, LOADU(in + 16))
        if (n > 1) CBC_XOR_STORE(1, LOADU(in))
        CBC_XOR_STORE(0, chain)
        chain = next;
    }
    STOREU(iv, chain);
}

/* ---- XTS ------------------------------------------------------------------- */

/* Multiply the tweak by alpha (IEEE 1619-2018, 5.2): the tweak is a 128-bit
 * little-endian integer, shifted left by one; the bit shifted out of bit 127
 * folds back as 0x87, and bit 63 crosses into the high qword.  The arithmetic
 * shift turns each dword's top bit into a mask, so this is branch-free. */
AESNI_INLINE __m128i xts_mul_alpha(__m128i t)
{
    const __m128i s = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13); /* d0<-d3, d2<-d1 */
    const __m128i carry = _mm_and_si128(s, _mm_set_epi32(0, 1, 0, 0x87));
    return _mm_xor_si128(_mm_add_epi64(t, t), carry);
}

/* Multiply by alpha^8 in one step: a byte shift of the 128-bit integer,
 * the byte shifted out (degree < 8) times x^7 + x^2 + x + 1 (0x87) folded
 * back with one carry-less multiply.  Each lane's next tweak is its own
 * tweak times alpha^8, so the 8 lanes have no serial chain between them and
 * the multiply runs on the port AES does not use. */
AESNI_INLINE __m128i xts_mul_alpha8(__m128i t)
{
    const __m128i top = _mm_srli_si128(t, 15);
    return _mm_xor_si128(_mm_slli_si128(t, 1),
                         _mm_clmulepi64_si128(top, _mm_set_epi64x(0, 0x87), 0x00));
}

#define XTS_TWEAK(j) const __m128i t##j = tw; tw = xts_mul_alpha(tw);
#define XTS_TLOAD(j) const __m128i t##j = tt[j]; tt[j] = xts_mul_alpha8(t##j);
#define XTS_PRE(j) b##j = _mm_xor_si128(b##j, _mm_xor_si128(t##j, rk[0]));
#define XTS_POST(j, fn) b##j = fn(b##j, _mm_xor_si128(klast, t##j));
#define XTS_POST_E(j) XTS_POST(j, _mm_aesenclast_si128)
#define XTS_POST_D(j) XTS_POST(j, _mm_aesdeclast_si128)

/* Whole batches take their tweaks from tt[] (T*alpha^j for lane j, advanced
 * by alpha^8 per batch); lanes n..7 of a tail compute on zeros and are not
 * stored, and the returned tweak is recomputed as T * alpha^n. */
#define XTS_BODY(RK, ROUNDFN, POST)                                            \
    const __m128i *rk = RK;                                                    \
    const unsigned R = k->rounds;                                              \
    const __m128i klast = rk[R];                                               \
    __m128i tw = LOADU(tweak);                                                 \
    if (n >= 8) {                                                              \
        __m128i tt[8];                                                         \
        for (int j = 0; j < 8; j++) {                                          \
            tt[j] = tw;                                                        \
            tw = xts_mul_alpha(tw);                                            \
        }                                                                      \
        for (; n >= 8; n -= 8, in += 128, out += 128) {                        \
            V8(XTS_TLOAD)                                                      \
            V8(LOAD_IN)                                                        \
            V8(XTS_PRE)                                                        \
            for (unsigned r = 1; r < R; r++)                                   \
                ROUND8(ROUNDFN, rk[r]);                                        \
            V8(POST)                                                           \
            V8(STORE_OUT)                                                      \
        }                                                                      \
        tw = tt[0];                                                            \
    }                                                                          \
    if (n) {                                                                   \
        const __m128i tstart = tw;                                             \
        V8(XTS_TWEAK)                                                          \
        V8(LOAD_IN_N)                                                          \
        V8(XTS_PRE)                                                            \
        for (unsigned r = 1; r < R; r++)                                       \
            ROUND8(ROUNDFN, rk[r]);                                            \
        V8(POST)                                                               \
        V8(STORE_OUT_N)                                                        \
        tw = tstart;                                                           \
        for (size_t i = 0; i < n; i++)                                         \
            tw = xts_mul_alpha(tw);                                            \
    }                                                                          \
    STOREU(tweak, tw);

static AESNI_TARGET void aesni_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t tweak[16])
{
    XTS_BODY(RK_ENC(k), _mm_aesenc_si128, XTS_POST_E)
}

static AESNI_TARGET void aesni_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t tweak[16])
{
    XTS_BODY(RK_DEC(k), _mm_aesdec_si128, XTS_POST_D)
}

/* ---- descriptor -------------------------------------------------------------- */

/* gcm_aesni.c */
void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16]);
void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);
void ak_aesni_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_msgs(ak_gcm_msg *m, size_t n);
void ak_aesni_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_aesni.c */

const ak_backend ak_backend_x86_aesni = {
    .name = "x86-aesni",
    .requires = "AES-NI, PCLMULQDQ, SSSE3, SSE4.1",
    .priority = 30,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41,
    .constant_time = 1,
    .aes_setkey = aesni_setkey,
    .ecb_encrypt = aesni_ecb_encrypt,
    .ecb_decrypt = aesni_ecb_decrypt,
    .ctr32 = aesni_ctr32,
    .ctr128 = aesni_ctr128,
    .cbc_encrypt = aesni_cbc_encrypt,
    .cbc_decrypt = aesni_cbc_decrypt,
    .cbcmac = aesni_cbcmac,
    .xts_encrypt = aesni_xts_encrypt,
    .xts_decrypt = aesni_xts_decrypt,
    .ghash_init = ak_aesni_ghash_init,
    .ghash = ak_aesni_ghash,
    .gcm_encrypt = ak_aesni_gcm_encrypt,
    .gcm_decrypt = ak_aesni_gcm_decrypt,
    .gcm_msgs = ak_aesni_gcm_msgs,
    .cbc_lanes = ak_aesni_cbc_lanes,
};
