/*
 * aes_aesni.c - the x86-aesni backend: AES key schedule, ECB, CTR (32- and
 * 128-bit counters), CBC, CBC-MAC and XTS on 128-bit registers.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (no AVX: legacy-SSE
 * encodings, xmm0-xmm15).  Every function carries the target attribute
 * AESNI_TARGET; the file is built without any -m flag.  GHASH and the fused
 * GCM kernels are in gcm_aesni.c; the key layouts and the operations both
 * files use are in aesni_ops.h.
 *
 * Shape: parallel modes run 8 blocks per iteration (AESENC has a latency of
 * 3-4 cycles and a throughput of 1-2 per cycle, so 8 independent blocks keep
 * the AES units busy); serial modes (CBC encryption, CBC-MAC) are bound by
 * the latency of the round chain, so they keep the round keys in registers
 * and move every XOR off that chain: the next block's input is folded into
 * the last round key, aesenclast(t, kR ^ k0 ^ p) = E(s) ^ p ^ k0.
 *
 * Round keys live in ak_aes.data as ak_aesni_key (aesni_ops.h): the
 * encryption schedule and the decryption schedule for AESDEC (AESIMC applied
 * to the middle keys, the "equivalent inverse cipher" of FIPS-197 5.3.5).
 * Constant time: no branch or memory index depends on key or data; branches
 * depend only on lengths and counter values, which are public.
 */
#include "aesni_ops.h"

#define CFB_XMM_INLINE AESNI_INLINE
#include "cfb_xmm.h"

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
    ak_aesni_key *K = aesni_key_mut(k);

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
    for (unsigned r = 0; r <= R; r++)
        K->enc[r] = aesni_loadu(w + 4 * r);

    K->vex = (ak_cpu_features() & AK_CPU_AVX) != 0;
    K->dec[0] = K->enc[R];
    for (unsigned i = 1; i < R; i++)
        K->dec[i] = _mm_aesimc_si128(K->enc[R - i]);
    K->dec[R] = K->enc[0];

    k->rounds = R;
    k->key_len = (uint32_t)key_len;
    aesni_wipe(w, sizeof w);
}

/* ---- ECB ------------------------------------------------------------------- */

static AESNI_TARGET void aesni_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n)
{
    const __m128i *rk = aesni_key(k)->enc;
    const unsigned R = k->rounds;
    __m128i b[8];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        aesni_load8(b, in);
        aesni_encrypt8(b, rk, R);
        aesni_store8(out, b);
    }
    if (n == 1) {
        aesni_storeu(out, aesni_enc1(rk, R, aesni_loadu(in)));
    } else if (n) {
        aesni_load8_n(b, in, n);
        aesni_encrypt8(b, rk, R);
        aesni_store8_n(out, b, n);
    }
}

static AESNI_TARGET void aesni_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n)
{
    const __m128i *rk = aesni_key(k)->dec;
    const unsigned R = k->rounds;
    __m128i b[8];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        aesni_load8(b, in);
        aesni_decrypt8(b, rk, R);
        aesni_store8(out, b);
    }
    if (n) {
        aesni_load8_n(b, in, n);
        aesni_decrypt8(b, rk, R);
        aesni_store8_n(out, b, n);
    }
}

/* ---- CTR ------------------------------------------------------------------- */

/* The counter block is kept byte-reversed: the 128-bit lane then holds the
 * big-endian counter as an integer, its low dword is GCM's 32-bit counter,
 * and _mm_add_epi32 on that dword is exactly inc32 - it wraps modulo 2^32
 * inside its lane and never carries into the upper 96 bits
 * (aesni_ctr32_lanes8). */
static AESNI_TARGET void aesni_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                     uint8_t ctr[16])
{
    const __m128i *rk = aesni_key(k)->enc;
    const unsigned R = k->rounds;
    __m128i c = aesni_bswap128(aesni_loadu(ctr)), b[8];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        aesni_ctr32_lanes8(b, c);
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 8));
        aesni_encrypt8(b, rk, R);
        aesni_xor_in8(b, in);
        aesni_store8(out, b);
    }
    if (n) {
        aesni_ctr32_lanes8(b, c);
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)n));
        aesni_encrypt8(b, rk, R);
        aesni_xor_in8_n(b, in, n);
        aesni_store8_n(out, b, n);
    }
    aesni_storeu(ctr, aesni_bswap128(c));
}

/* 128-bit counter lanes hi:lo + j.  When the low half cannot wrap within
 * the 8 lanes (the common case) they are formed with a 64-bit vector add;
 * otherwise each lane gets its own carry.  The branch depends on the
 * counter value only, which is public for CTR with a 128-bit counter. */
AESNI_INLINE void ctr128_lanes8(__m128i b[8], uint64_t hi, uint64_t lo)
{
    if (lo <= UINT64_MAX - 7) {
        const __m128i base = _mm_set_epi64x((long long)hi, (long long)lo);
        AESNI_UNROLL
        for (int j = 0; j < 8; j++)
            b[j] = aesni_bswap128(_mm_add_epi64(base, _mm_set_epi64x(0, j)));
    } else {
        AESNI_UNROLL
        for (int j = 0; j < 8; j++) {
            const uint64_t l = lo + (uint64_t)j;
            b[j] = aesni_bswap128(_mm_set_epi64x((long long)(hi + (l < lo)), (long long)l));
        }
    }
}

/* 128-bit counter: the two halves live in general registers. */
static AESNI_TARGET void aesni_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                      uint8_t ctr[16])
{
    const __m128i *rk = aesni_key(k)->enc;
    const unsigned R = k->rounds;
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    while (n) {
        const size_t m = n < 8 ? n : 8;
        __m128i b[8];
        ctr128_lanes8(b, hi, lo);
        lo += m;
        hi += lo < m;
        aesni_encrypt8(b, rk, R);
        if (m == 8) {
            aesni_xor_in8(b, in);
            aesni_store8(out, b);
        } else {
            aesni_xor_in8_n(b, in, m);
            aesni_store8_n(out, b, m);
        }
        n -= m;
        in += 16 * m;
        out += 16 * m;
    }
    /* one 16-byte store, as vaes_ctr128 (vaes_block.h) explains */
    aesni_storeu(ctr, aesni_bswap128(_mm_set_epi64x((long long)hi, (long long)lo)));
}

/* ---- CBC and CBC-MAC (serial) -------------------------------------------- */

/* R is a compile-time constant at each call site (10, 12 or 14), so the
 * round loops unroll and the round keys stay in registers across blocks. */
AESNI_INLINE __m128i serial_keys(__m128i kk[15], const ak_aes *k, const unsigned R)
{
    const __m128i *rk = aesni_key(k)->enc;
    AESNI_UNROLL
    for (unsigned r = 0; r <= R; r++)
        kk[r] = rk[r];
    return _mm_xor_si128(kk[R], kk[0]); /* the last key with k0 folded in */
}

AESNI_INLINE void cbc_enc_r(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t iv[16], const unsigned R)
{
    __m128i kk[15];
    const __m128i klast0 = serial_keys(kk, k, R);
    __m128i s = _mm_xor_si128(aesni_loadu(iv), _mm_xor_si128(aesni_loadu(in), kk[0])), c;
    for (;;) {
        AESNI_UNROLL
        for (unsigned r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, kk[r]);
        c = _mm_aesenclast_si128(s, kk[R]);
        aesni_storeu(out, c);
        if (--n == 0)
            break;
        in += 16;
        out += 16;
        /* E(s) ^ p ^ k0 = aesenclast(t, kR ^ k0 ^ p): the chain never waits
         * for an XOR. */
        s = _mm_aesenclast_si128(s, _mm_xor_si128(klast0, aesni_loadu(in)));
    }
    aesni_storeu(iv, c);
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

/* CFB-128 and CFB-8 encryption (the cfb128_encrypt and cfb8_encrypt
 * entries): the serial xmm loops of cfb_xmm.h on this key format. */
static inline const uint8_t (*aesni_enc_rows(const ak_aes *k))[16]
{
    return (const uint8_t (*)[16])(const void *)aesni_key(k)->enc;
}

static AESNI_TARGET void aesni_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                              size_t n, uint8_t iv[16])
{
    xmm_cfb128_encrypt(aesni_enc_rows(k), k->rounds, out, in, n, iv);
}

static AESNI_TARGET void aesni_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                            size_t len, uint8_t reg[16])
{
    xmm_cfb8_encrypt(aesni_enc_rows(k), k->rounds, out, in, len, reg);
}

AESNI_INLINE void cbcmac_r(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t n,
                           const unsigned R)
{
    __m128i kk[15];
    const __m128i klast0 = serial_keys(kk, k, R);
    /* state last: the chain */
    __m128i s = _mm_xor_si128(aesni_loadu(state), _mm_xor_si128(aesni_loadu(in), kk[0]));
    for (;;) {
        AESNI_UNROLL
        for (unsigned r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, kk[r]);
        if (--n == 0)
            break;
        in += 16;
        s = _mm_aesenclast_si128(s, _mm_xor_si128(klast0, aesni_loadu(in)));
    }
    aesni_storeu(state, _mm_aesenclast_si128(s, kk[R]));
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
 * for in-place calls in[j-1] is still intact when out[j] is written.  Lanes
 * at or past n (public) are not stored. */
AESNI_INLINE void cbc_xor_store8_n(uint8_t *out, const uint8_t *in, const __m128i b[8],
                                   __m128i chain, size_t n)
{
    AESNI_UNROLL
    for (int j = 7; j > 0; j--)
        if ((size_t)j < n)
            aesni_storeu(out + 16 * j, _mm_xor_si128(b[j], aesni_loadu(in + 16 * (j - 1))));
    aesni_storeu(out, _mm_xor_si128(b[0], chain));
}

static AESNI_TARGET void aesni_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t iv[16])
{
    const __m128i *rk = aesni_key(k)->dec;
    const unsigned R = k->rounds;
    __m128i chain = aesni_loadu(iv), b[8];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        aesni_load8(b, in);
        const __m128i next = b[7];
        aesni_decrypt8(b, rk, R);
        cbc_xor_store8_n(out, in, b, chain, 8);
        chain = next;
    }
    if (n) {
        aesni_load8_n(b, in, n);
        const __m128i next = aesni_loadu(in + 16 * (n - 1));
        aesni_decrypt8(b, rk, R);
        cbc_xor_store8_n(out, in, b, chain, n);
        chain = next;
    }
    aesni_storeu(iv, chain);
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

/* One XTS batch on 8 lanes with tweaks t[]: whitening folded with the
 * tweak, R-1 rounds, and the last round folded with the tweak too
 * (aesenclast(x, kR ^ t) = E(x) ^ t).  dec is a constant at each call. */
AESNI_INLINE void xts_batch8(__m128i b[8], const __m128i t[8], const __m128i *rk, unsigned R,
                             const int dec)
{
    const __m128i klast = rk[R];
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_xor_si128(b[j], _mm_xor_si128(t[j], rk[0]));
    if (dec)
        aesni_dec_mid8(b, rk, R);
    else
        aesni_enc_mid8(b, rk, R);
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = dec ? _mm_aesdeclast_si128(b[j], _mm_xor_si128(klast, t[j]))
                   : _mm_aesenclast_si128(b[j], _mm_xor_si128(klast, t[j]));
}

/* Whole batches take their tweaks from tt[] (T*alpha^j for lane j, advanced
 * by alpha^8 per batch); lanes n..7 of a tail compute on zeros and are not
 * stored, and the returned tweak is recomputed as T * alpha^n. */
AESNI_INLINE void xts_body(const __m128i *rk, unsigned R, uint8_t *out, const uint8_t *in,
                           size_t n, uint8_t tweak[16], const int dec)
{
    __m128i tw = aesni_loadu(tweak), b[8], t[8];
    if (n >= 8) {
        __m128i tt[8];
        for (int j = 0; j < 8; j++) {
            tt[j] = tw;
            tw = xts_mul_alpha(tw);
        }
        for (; n >= 8; n -= 8, in += 128, out += 128) {
            AESNI_UNROLL
            for (int j = 0; j < 8; j++) {
                t[j] = tt[j];
                tt[j] = xts_mul_alpha8(t[j]);
            }
            aesni_load8(b, in);
            xts_batch8(b, t, rk, R, dec);
            aesni_store8(out, b);
        }
        tw = tt[0];
    }
    if (n) {
        const __m128i tstart = tw;
        AESNI_UNROLL
        for (int j = 0; j < 8; j++) {
            t[j] = tw;
            tw = xts_mul_alpha(tw);
        }
        aesni_load8_n(b, in, n);
        xts_batch8(b, t, rk, R, dec);
        aesni_store8_n(out, b, n);
        tw = tstart;
        for (size_t i = 0; i < n; i++)
            tw = xts_mul_alpha(tw);
    }
    aesni_storeu(tweak, tw);
}

static AESNI_TARGET void aesni_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t tweak[16])
{
    xts_body(aesni_key(k)->enc, k->rounds, out, in, n, tweak, 0);
}

static AESNI_TARGET void aesni_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                           size_t n, uint8_t tweak[16])
{
    xts_body(aesni_key(k)->dec, k->rounds, out, in, n, tweak, 1);
}

/* ---- OCB ------------------------------------------------------------------- */

/* ocb_blocks (internal.h), 8 blocks a batch.  Per block i (1-based, public)
 * Offset_i = Offset_{i-1} ^ L[ntz(i)], a table index on the public index;
 * the offset enters with the whitening key (one XOR with Offset_i ^ K_0)
 * and, for ENCRYPT and DECRYPT, leaves through the last round's key
 * (AESENCLAST / AESDECLAST with K_R ^ Offset_i returns E(x) ^ Offset_i), so
 * the two XORs of RFC 7253's C_i = Offset_i ^ E(P_i ^ Offset_i) sit beside
 * the rounds, off the data's path; HASH sums E(A_i ^ Offset_i).  Decryption
 * runs the same on the Equivalent Inverse Cipher's schedule (dec[0] = K_R,
 * dec[R] = K_0).  The checksum (of the plaintext) or HASH's sum is one
 * register.  A batch of n < 8 blocks (n public) leaves the lanes at or past
 * n unloaded (zero), unsummed and unstored.  The offsets are formed before
 * the blocks are loaded (ov: each block's whitening operand). */
AESNI_INLINE __m128i aesni_ocb_batch(const __m128i *rk, const unsigned R, const uint8_t (*L)[16],
                                     uint8_t *out, const uint8_t *in, size_t n, uint64_t i,
                                     const int aligned, __m128i *ok0, __m128i kr0, __m128i s,
                                     const int op)
{
    __m128i b[8], ov[8], ol[8];
    AESNI_UNROLL
    for (int j = 0; j < 8; j++) {
        /* aligned: i - 1 is a multiple of 8, so ntz(i + j) = ntz(j + 1)
         * for j < 7, a constant once unrolled; only the last block's
         * index needs its own count. */
        const unsigned z = aligned && j < 7 ? (unsigned)__builtin_ctz((unsigned)j + 1)
                                            : (unsigned)__builtin_ctzll(i + (uint64_t)j);
        if ((size_t)j < n)
            *ok0 = _mm_xor_si128(*ok0, aesni_loadu(L[z]));
        ov[j] = *ok0;                                                    /* Offset_i ^ K_0 */
        ol[j] = op == AK_OCB_HASH ? rk[R] : _mm_xor_si128(*ok0, kr0); /* Offset_i ^ K_R */
    }
    aesni_load8_n(b, in, n);
    AESNI_UNROLL
    for (int j = 0; j < 8; j++) {
        if (op == AK_OCB_ENCRYPT)
            s = _mm_xor_si128(s, b[j]); /* lanes past n are zero */
        b[j] = _mm_xor_si128(b[j], ov[j]);
    }
    if (op == AK_OCB_DECRYPT) {
        aesni_dec_mid8(b, rk, R);
        AESNI_UNROLL
        for (int j = 0; j < 8; j++)
            b[j] = _mm_aesdeclast_si128(b[j], ol[j]);
    } else {
        aesni_enc_mid8(b, rk, R);
        AESNI_UNROLL
        for (int j = 0; j < 8; j++)
            b[j] = _mm_aesenclast_si128(b[j], ol[j]);
    }
    if (op != AK_OCB_ENCRYPT) { /* HASH's E(A_i ^ Offset_i), or the plaintext */
        AESNI_UNROLL
        for (int j = 0; j < 8; j++)
            if ((size_t)j < n)
                s = _mm_xor_si128(s, b[j]);
    }
    if (op != AK_OCB_HASH)
        aesni_store8_n(out, b, n);
    return s;
}

/* The running offset is carried as Offset ^ K_0 (the whitening key folded
 * in once per call), so each block's whitening operand is the chain itself
 * and only the last round's operand takes an XOR (with K_0 ^ K_R).  Blocks
 * before the next index i with i - 1 a multiple of 8 (a stream's later
 * piece; none for a whole message, which starts at 1) go first as a short
 * batch, so every whole batch is aligned. */
AESNI_INLINE void aesni_ocb_run(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in,
                                size_t nb, uint64_t first, uint8_t offset[16], uint8_t sum[16],
                                const unsigned R, const int op)
{
    const __m128i *rk = op == AK_OCB_DECRYPT ? aesni_key(k)->dec : aesni_key(k)->enc;
    const __m128i kr0 = _mm_xor_si128(rk[0], rk[R]);
    __m128i ok0 = _mm_xor_si128(aesni_loadu(offset), rk[0]), s = aesni_loadu(sum);
    uint64_t i = first;
    size_t head = (size_t)((8 - (first - 1) % 8) % 8);
    head = head < nb ? head : nb;
    if (head) {
        s = aesni_ocb_batch(rk, R, L, out, in, head, i, 0, &ok0, kr0, s, op);
        nb -= head;
        i += head;
        in += 16 * head;
        if (op != AK_OCB_HASH)
            out += 16 * head;
    }
    for (; nb >= 8; nb -= 8, i += 8, in += 128) {
        s = aesni_ocb_batch(rk, R, L, out, in, 8, i, 1, &ok0, kr0, s, op);
        if (op != AK_OCB_HASH)
            out += 128;
    }
    if (nb)
        s = aesni_ocb_batch(rk, R, L, out, in, nb, i, 1, &ok0, kr0, s, op);
    aesni_storeu(offset, _mm_xor_si128(ok0, rk[0]));
    aesni_storeu(sum, s);
}

/* One body per direction and round count (constants: the rounds unroll). */
AESNI_INLINE void aesni_ocb_rounds(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in,
                                   size_t nb, uint64_t first, uint8_t offset[16], uint8_t sum[16],
                                   const int op)
{
    switch (k->rounds) {
    case 10: aesni_ocb_run(k, L, out, in, nb, first, offset, sum, 10, op); break;
    case 12: aesni_ocb_run(k, L, out, in, nb, first, offset, sum, 12, op); break;
    default: aesni_ocb_run(k, L, out, in, nb, first, offset, sum, 14, op); break;
    }
}

static AESNI_TARGET void aesni_ocb_blocks(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out,
                                          const uint8_t *in, size_t nb, uint64_t first, uint8_t offset[16],
                                          uint8_t sum[16], int op)
{
    if (op == AK_OCB_DECRYPT)
        aesni_ocb_rounds(k, L, out, in, nb, first, offset, sum, AK_OCB_DECRYPT);
    else if (op == AK_OCB_HASH)
        aesni_ocb_rounds(k, L, out, in, nb, first, offset, sum, AK_OCB_HASH);
    else
        aesni_ocb_rounds(k, L, out, in, nb, first, offset, sum, AK_OCB_ENCRYPT);
}

/* ---- descriptor -------------------------------------------------------------- */

/* gcm_aesni.c, and its VEX-encoded build gcm_aesni_avx.c (the _avx names) */
void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16]);
void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);
void ak_aesni_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_msgs(ak_gcm_msg *m, size_t n);
void ak_aesni_gcm_encrypt_avx(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_decrypt_avx(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_msgs_avx(ak_gcm_msg *m, size_t n);
void ak_aesni_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_aesni.c */

/* The GCM hooks: the build of gcm_aesni.c the key was set up for
 * (ak_aesni_key.vex).  Both builds compute the same bytes; the VEX one
 * needs no register copies for the two-operand SSE forms (docs/
 * performance.md, "x86-aesni's GCM kernels VEX-encoded"). */
static void aesni_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t ctr[16], uint8_t Y[16])
{
    if (aesni_key(k)->vex)
        ak_aesni_gcm_encrypt_avx(k, g, out, in, nblocks, ctr, Y);
    else
        ak_aesni_gcm_encrypt(k, g, out, in, nblocks, ctr, Y);
}
static void aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t ctr[16], uint8_t Y[16])
{
    if (aesni_key(k)->vex)
        ak_aesni_gcm_decrypt_avx(k, g, out, in, nblocks, ctr, Y);
    else
        ak_aesni_gcm_decrypt(k, g, out, in, nblocks, ctr, Y);
}
/* By the first descriptor's key: every key of this backend in a process was
 * set up on the same CPU, and a key with vex set proves the CPU has AVX, so
 * the VEX build may run them all (and the SSE build always may). */
static void aesni_gcm_msgs(ak_gcm_msg *m, size_t n)
{
    if (n && aesni_key(m[0].aes)->vex)
        ak_aesni_gcm_msgs_avx(m, n);
    else
        ak_aesni_gcm_msgs(m, n);
}

/* gcm_multi_aesni.c and its VEX-encoded build gcm_multi_aesni_avx.c: the
 * multi-message kernel of the batch API (gcm_multi_aesni.h). */
size_t ak_aesni_gcm_multi(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);
size_t ak_aesni_gcm_multi_avx(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);

/* One checked message of a gcm_batch call (12-byte IV, 16-byte tag, len
 * at least 1) through the whole-message kernel of the key's build, from a
 * descriptor on the stack: J0 = IV || 0^31 || 1, the full tag to tag. */
static void aesni_gcm_batch_one(const aeskit_gcm_msg *mm, uint32_t dir, uint8_t *tag)
{
    const ak_gcm_key *g = (const ak_gcm_key *)(const void *)mm->key;
    ak_gcm_msg d;
    d.aes = &g->aes;
    d.gh = &g->gh;
    d.in = mm->in;
    d.out = mm->out;
    d.len = mm->len;
    d.aad = mm->aad;
    d.aad_len = mm->aad_len;
    d.flags = (dir & AK_GCM_OPEN) | AK_GCM_J0_IV12;
    d.tag = tag;
    memcpy(d.j0, mm->iv, 12);
    d.j0[12] = d.j0[13] = d.j0[14] = 0;
    d.j0[15] = 1;
    aesni_gcm_msgs(&d, 1);
}

/* The gcm_batch entry (src/internal.h).  A run of two or more messages of
 * 1-64 bytes with an AAD of at most a block, seals and opens, goes to the
 * multi-message kernel (gcm_multi_aesni.h: several messages through one
 * round sequence, one per xmm register a block), in the build of the
 * first message's key (every key of this backend in a process was set up
 * on the same CPU, as aesni_gcm_msgs argues); a message of those lengths
 * that makes no run (the last one, or one between messages of other
 * block counts or round counts) runs alone through the whole-message
 * kernel.  From the first message of other lengths on (empty, longer,
 * more AAD) the entry declines: those take the front end's descriptors
 * through gcm_msgs, and a uniform batch of them goes there whole. */
static size_t aesni_gcm_batch(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    size_t i = 0;
    while (i < n) {
        const aeskit_gcm_msg *mm = &m[i];
        if (mm->len - 1 >= AESNI_MX_LEN || mm->aad_len > 16)
            return i;
        if (n - i >= 2) {
            const uint32_t vex = aesni_key(&((const ak_gcm_key *)(const void *)mm->key)->aes)->vex;
            size_t k = vex ? ak_aesni_gcm_multi_avx(mm, n - i, dir, T ? T + i : NULL)
                           : ak_aesni_gcm_multi(mm, n - i, dir, T ? T + i : NULL);
            if (k) {
                i += k;
                continue;
            }
        }
        aesni_gcm_batch_one(mm, dir, T ? T[i] : mm->tag);
        i++;
    }
    return n;
}

static const char *aesni_variant(void)
{
    /* no parentheses: the suites parse "checked: NAME (VARIANT), ..." */
    return (ak_cpu_features() & AK_CPU_AVX) ? "gcm-vex: GCM kernels in VEX encoding"
                                            : "gcm-sse: GCM kernels in legacy SSE encoding";
}

const ak_backend ak_backend_x86_aesni = {
    .name = "x86-aesni",
    .requires = "AES-NI, PCLMULQDQ, SSSE3, SSE4.1",
    .priority = 30,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41,
    .constant_time = 1,
    .variant = aesni_variant,
    .aes_setkey = aesni_setkey,
    .ecb_encrypt = aesni_ecb_encrypt,
    .ecb_decrypt = aesni_ecb_decrypt,
    .ctr32 = aesni_ctr32,
    .ctr128 = aesni_ctr128,
    .cbc_encrypt = aesni_cbc_encrypt,
    .cfb128_encrypt = aesni_cfb128_encrypt,
    .cfb8_encrypt = aesni_cfb8_encrypt,
    .cbc_decrypt = aesni_cbc_decrypt,
    .cbcmac = aesni_cbcmac,
    .xts_encrypt = aesni_xts_encrypt,
    .xts_decrypt = aesni_xts_decrypt,
    .ghash_init = ak_aesni_ghash_init,
    .ghash = ak_aesni_ghash,
    .gcm_encrypt = aesni_gcm_encrypt,
    .gcm_decrypt = aesni_gcm_decrypt,
    .gcm_msgs = aesni_gcm_msgs,
    .gcm_batch = aesni_gcm_batch,
    .cbc_lanes = ak_aesni_cbc_lanes,
    .ocb_blocks = aesni_ocb_blocks,
    .cbc_lanes_short = 7, /* docs/performance.md, "three and five ECB steps" */
};
