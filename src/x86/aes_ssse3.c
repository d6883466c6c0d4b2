/*
 * aes_ssse3.c - the x86-ssse3 backend: AES by vector permutes (M. Hamburg,
 * "Accelerating AES with vector permute instructions", CHES 2009), for x86
 * CPUs and VMs without AES-NI.  CPU features: SSSE3 (PSHUFB) only; every
 * function carries VP_TARGET, the file is built without any -m flag.
 *
 * Constant time: PSHUFB looks up 16-entry tables held in registers, so a
 * secret index never reaches a memory address; no branch depends on key or
 * data (only on the number of rounds and of blocks, which are public).
 *
 * ---- SubBytes as nibble lookups (our derivation of the paper's idea) -----
 * Take GF(16) inside GF(2^8) (the elements of order dividing 15: powers of
 * g16 = 3^17 = 0xe1, coordinates in the basis 1, g16, g16^2, g16^3, which is
 * what a nibble means below), a in GF(16) with y^2 + a y + a irreducible
 * over GF(16) (a = nibble 2), and beta in GF(2^8) a root of it (0x4b).  Then
 * every byte is uniquely x = k + i beta with nibbles i, k; the map from the
 * AES byte to the "tower byte" (k << 4) | i is GF(2)-linear, so it is two
 * lookups, one per input nibble, XORed (tables in_lo, in_hi).
 *
 * The conjugate of beta is beta' = a + beta, so with j = i + k:
 *   N(x) = x x' = k^2 + a i k + a i^2 (symmetric in i and j),
 *   x^-1 = x'/N = ((k + a i) + i beta) / N.
 * Now   io := j + 1/(1/i + a/k) = j + ik/(k + a i) = N/(k + a i)
 *       jo := i + 1/(1/j + a/k) = N/(k + a j)       (same, i <-> j)
 * so A = 1/io = (k + a i)/N and B = 1/jo = (k + a j)/N, and
 *   x^-1 = A c1 + B c2,  c1 = 1 + beta/a + beta/a^2,  c2 = beta/a^2
 * (from k/N = (A + B)/a and i/N = A/a + (A + B)/a^2).  Each term is a
 * function of one nibble (io or jo): two lookups and an XOR give x^-1, or
 * any GF(2)-linear image of it -- the AES affine map (S-box), 2 S (for
 * MixColumns), 9, 11, 13, 14 times x^-1 (for InvMixColumns).
 * The computation is 5 lookups in the tables inv (1/y) and ainv (a/y) plus
 * XORs.  Zero has no inverse: inv and ainv map 0 to 0x80 ("infinity"), and
 * PSHUFB returns 0 for an index with bit 7 set, which is 1/infinity = 0.
 * Going through every case with i, k or j zero (and k = a i, which makes
 * 1/i + a/k zero) gives the right io, jo, or an infinite one where A or B
 * is 0; x = 0 gives io = jo = infinity and x^-1 = 0.  aes_ssse3_gen.py (next
 * to this file) computes the tables below from this derivation and checks
 * all 256 inputs of every table pair against GF(2^8) arithmetic; the KAT and
 * the cross-backend tests check the whole cipher.
 * The S-box constant 0x63 is left out of the output tables and folded into
 * round keys 1..n (MixColumns maps a state of equal bytes to itself); for
 * decryption InvSubBytes(y) = (L^-1(y ^ 0x63))^-1 with L the affine map's
 * linear part: the 0x63 goes into the preceding round key and in_lo/in_hi
 * become the tables of M o L^-1 (dn_lo, dn_hi).
 *
 * ---- Rounds -----------------------------------------------------------
 * MixColumns: b = d ^ rot1(d ^ s) ^ rot2(s ^ rot1 s) with s = S(x),
 * d = 2 S(x) and rotn a PSHUFB moving row r + n of each column to row r.
 * Encryption never performs ShiftRows (fixslicing, A. Adomnicai and
 * T. Peyrin, TCHES 2021/1, as in src/generic/aes_generic_block.c): after
 * round r the register holds SR^-r of the true state; SubBytes commutes with
 * byte permutations, MixColumns in that layout takes row r + n from column
 * c + n m (m = r mod 4), and round key r is stored as SR^-r(K_r ^ 0x63).
 * One SR^(rounds mod 4) after the last round restores the byte order.
 * Decryption is the equivalent inverse cipher (FIPS-197 5.3.5) with an
 * explicit InvShiftRows: x = InvMC(InvSB(InvSR x)) ^ InvMC(K_r).
 *
 * Key object: ak_aes.data holds ak_ssse3_key (below): the encryption and
 * decryption round keys in the forms the rounds above take, and the last
 * encryption key in the tower basis.  GHASH is the generic constant-time
 * one (ak_ghash.data as src/generic/ghash_generic.c lays it out); the
 * parallel modes run four blocks per step (the vector ports, not the
 * latency, bound them), the serial ones one block with its chain shortened.
 */
#include <immintrin.h>

#include "../internal.h"
#include "../simd/vpaes_tables.h"

#define VP_TARGET __attribute__((target("ssse3")))
#define VP_INLINE static inline __attribute__((always_inline)) VP_TARGET

/* ak_aes.data of x86-ssse3: the layout of both vector-permute backends. */
typedef ak_vpaes_key ak_ssse3_key;

/* The typed view of the backend-owned area. */
static inline const ak_ssse3_key *ssse3_key(const ak_aes *k)
{
    return (const ak_ssse3_key *)(const void *)k->data;
}
static inline ak_ssse3_key *ssse3_key_mut(ak_aes *k)
{
    return (ak_ssse3_key *)(void *)k->data;
}

#define LD(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define TB(t) LD(vp_tab[t])
#define SHUF(t, v) _mm_shuffle_epi8(TB(t), (v))

/* A linear map of every byte given by its two nibble tables. */
VP_INLINE __m128i vp_lin(__m128i x, int lo, int hi)
{
    const __m128i m0f = _mm_set1_epi8(0x0f);
    __m128i xl = _mm_and_si128(x, m0f), xh = _mm_and_si128(_mm_srli_epi16(x, 4), m0f);
    return _mm_xor_si128(SHUF(lo, xl), SHUF(hi, xh));
}

/* The inversion core: from the tower byte t = (k << 4) | i to io and jo. */
VP_INLINE void vp_core(__m128i t, __m128i *io, __m128i *jo)
{
    const __m128i m0f = _mm_set1_epi8(0x0f);
    __m128i i = _mm_and_si128(t, m0f), k = _mm_and_si128(_mm_srli_epi16(t, 4), m0f);
    __m128i j = _mm_xor_si128(i, k);
    __m128i ak = SHUF(T_AINV, k);
    __m128i p = _mm_xor_si128(SHUF(T_INV, i), ak), q = _mm_xor_si128(SHUF(T_INV, j), ak);
    *io = _mm_xor_si128(SHUF(T_INV, p), j);
    *jo = _mm_xor_si128(SHUF(T_INV, q), i);
}

#define PAIR(t, io, jo) _mm_xor_si128(SHUF(t, io), SHUF((t) + 1, jo))

/* Encrypts nb (1..4, a constant after inlining) blocks in registers.  The
 * state stays in the tower basis from the whitening to the last round
 * (MixColumns, byte moves and key XORs are linear, so they commute with M;
 * the middle round keys are stored as M(...)).  One block alone is bound by
 * the round's latency, so it looks up 3 S(x) as well and takes rot2 s and
 * rot3 s straight from s (two steps shorter); several blocks are bound by
 * the vector ports and use the form with two PSHUFB. */
/* Rounds 1 .. rounds-1 on tower-basis states. */
VP_INLINE void vp_enc_mid(const ak_aes *k, __m128i *x, int nb)
{
    const ak_ssse3_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    for (unsigned r = 1; r < rounds; r++) {
        const unsigned m = r & 3;
        const __m128i r1 = LD(vp_rot1[m]), r2 = LD(vp_rot2[m]), kr = LD(K->enc[r]);
        for (int b = 0; b < nb; b++) {
            __m128i io, jo;
            vp_core(x[b], &io, &jo);
            __m128i s = PAIR(T_MS_IO, io, jo), d = PAIR(T_MS2_IO, io, jo);
            if (nb == 1) {
                /* b = (d ^ k) ^ rot1(3 s) ^ (rot2 s ^ rot3 s): the three terms
                 * are ready in parallel, and the empty asm keeps the compiler
                 * from moving the key XOR back to the end of the chain. */
                __m128i t = PAIR(T_MS3_IO, io, jo), a = _mm_xor_si128(d, kr);
                __m128i v = _mm_xor_si128(_mm_shuffle_epi8(s, r2),
                                          _mm_shuffle_epi8(s, LD(vp_rot3m[m])));
#ifndef AESKIT_MSAN_CT /* MSan checks asm operands as uses; the barrier only schedules */
                __asm__("" : "+x"(a), "+x"(v));
#endif
                x[b] = _mm_xor_si128(_mm_xor_si128(a, v), _mm_shuffle_epi8(t, r1));
                continue;
            }
            /* b = h ^ rot1(h ^ s) with h = d ^ rot2 s: the same sum as above
             * (rot1 o rot2 = rot3 in every layout), two PSHUFB, four XORs. */
            __m128i h = _mm_xor_si128(d, _mm_shuffle_epi8(s, r2));
            __m128i e = _mm_shuffle_epi8(_mm_xor_si128(h, s), r1);
            x[b] = _mm_xor_si128(_mm_xor_si128(h, kr), e);
        }
    }
}

VP_INLINE void vp_encrypt(const ak_aes *k, __m128i *x, int nb)
{
    const ak_ssse3_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    const __m128i k0 = LD(K->enc[0]);
    for (int b = 0; b < nb; b++)
        x[b] = vp_lin(_mm_xor_si128(x[b], k0), T_IN_LO, T_IN_HI);
    vp_enc_mid(k, x, nb);
    const __m128i kr = LD(K->enc[rounds]), fix = LD(vp_sr[rounds & 3]);
    for (int b = 0; b < nb; b++) {
        __m128i io, jo;
        vp_core(x[b], &io, &jo);
        x[b] = _mm_shuffle_epi8(_mm_xor_si128(PAIR(T_S_IO, io, jo), kr), fix);
    }
}

/* Decryption works in the basis D = M o L^-1, in which InvSubBytes' input
 * y ^ 0x63 maps to the tower byte (the 0x63 is in the round keys). */
VP_INLINE void vp_decrypt(const ak_aes *k, __m128i *x, int nb)
{
    const ak_ssse3_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    const __m128i isr = LD(vp_sr[3]), r1 = LD(vp_rot1[0]), r2 = LD(vp_rot2[0]), r3 = LD(vp_rot3m[0]);
    const __m128i kn = LD(K->dec[rounds]);
    for (int b = 0; b < nb; b++)
        x[b] = vp_lin(_mm_shuffle_epi8(_mm_xor_si128(x[b], kn), isr), T_DN_LO, T_DN_HI);
    for (unsigned r = rounds - 1; r > 0; r--) {
        const __m128i kr = LD(K->dec[r]);
        for (int b = 0; b < nb; b++) {
            __m128i io, jo;
            vp_core(x[b], &io, &jo);
            __m128i e = PAIR(T_DE_IO, io, jo), bb = PAIR(T_DB_IO, io, jo);
            __m128i dd = PAIR(T_DD_IO, io, jo), nn = PAIR(T_D9_IO, io, jo);
            e = _mm_xor_si128(_mm_xor_si128(e, kr), _mm_shuffle_epi8(bb, r1));
            dd = _mm_xor_si128(_mm_shuffle_epi8(dd, r2), _mm_shuffle_epi8(nn, r3));
            /* the next round's InvShiftRows, applied here to the sum */
            x[b] = _mm_shuffle_epi8(_mm_xor_si128(e, dd), isr);
        }
    }
    const __m128i k0 = LD(K->dec[0]);
    for (int b = 0; b < nb; b++) {
        __m128i io, jo;
        vp_core(x[b], &io, &jo);
        x[b] = _mm_xor_si128(PAIR(T_I_IO, io, jo), k0);
    }
}

/* ---- Key setup ------------------------------------------------------------ */

static uint8_t xt(uint8_t v) { return (uint8_t)(((unsigned)v << 1) ^ (0x1bu & (0u - (unsigned)(v >> 7)))); }

/* InvMixColumns of one 16-byte round key (FIPS-197 5.3.3), branch-free. */
static void inv_mix_key(uint8_t o[16], const uint8_t in[16])
{
    for (int c = 0; c < 4; c++) {
        const uint8_t *a = in + 4 * c;
        for (int r = 0; r < 4; r++) {
            uint8_t a0 = a[r], a1 = a[(r + 1) & 3], a2 = a[(r + 2) & 3], a3 = a[(r + 3) & 3];
            /* 0e a0 ^ 0b a1 ^ 0d a2 ^ 09 a3 */
            uint8_t x2_0 = xt(a0), x4_0 = xt(x2_0), x8_0 = xt(x4_0);
            uint8_t x2_1 = xt(a1), x8_1 = xt(xt(x2_1));
            uint8_t x4_2 = xt(xt(a2)), x8_2 = xt(x4_2);
            uint8_t x8_3 = xt(xt(xt(a3)));
            o[4 * c + r] = (uint8_t)(x8_0 ^ x4_0 ^ x2_0 ^ x8_1 ^ x2_1 ^ a1 ^ x8_2 ^ x4_2 ^ a2 ^
                                     x8_3 ^ a3);
        }
    }
}

VP_TARGET static void vp_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint8_t rk[240], t[16];
    ak_ssse3_key *K = ssse3_key_mut(k);
    memset(k->data, 0, sizeof k->data);
    unsigned n = ak_generic_key_schedule(rk, key, key_len);
    k->rounds = n;
    k->key_len = (uint32_t)key_len;
    for (unsigned r = 0; r <= n; r++) {
        const uint8_t c63 = r ? 0x63 : 0;
        /* enc: SR^-r(K_r ^ 0x63): out[4c + q] = in[4(c - m q) + q], m = r mod 4;
         * M(...) for the middle rounds */
        unsigned m = r & 3;
        for (unsigned c = 0; c < 4; c++)
            for (unsigned q = 0; q < 4; q++)
                t[4 * c + q] = (uint8_t)(rk[16 * r + 4 * ((c - m * q) & 3) + q] ^ c63);
        __m128i v = LOADU(t);
        if (r > 0 && r < n)
            v = vp_lin(v, T_IN_LO, T_IN_HI);
        STOREU(K->enc[r], v);
        if (r == n)
            STOREU(K->last, vp_lin(v, T_IN_LO, T_IN_HI));
        /* dec: K_n ^ 0x63, D(InvMC(K_r) ^ 0x63) in between, K_0 */
        if (r == 0) {
            memcpy(K->dec[0], rk, 16);
        } else if (r == n) {
            for (unsigned b = 0; b < 16; b++)
                K->dec[r][b] = (uint8_t)(rk[16 * r + b] ^ 0x63);
        } else {
            inv_mix_key(t, rk + 16 * r);
            for (int b = 0; b < 16; b++)
                t[b] ^= 0x63;
            STOREU(K->dec[r], vp_lin(LOADU(t), T_DN_LO, T_DN_HI));
        }
    }
    aeskit_memzero(rk, sizeof rk);
    aeskit_memzero(t, sizeof t);
}

/* ---- Modes ------------------------------------------------------------------ */

VP_TARGET static void vp_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    __m128i x[4];
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        for (int b = 0; b < 4; b++)
            x[b] = LOADU(in + 16 * b);
        if (dec)
            vp_decrypt(k, x, 4);
        else
            vp_encrypt(k, x, 4);
        for (int b = 0; b < 4; b++)
            STOREU(out + 16 * b, x[b]);
    }
    if (n >= 2) {
        x[0] = LOADU(in);
        x[1] = LOADU(in + 16);
        if (dec)
            vp_decrypt(k, x, 2);
        else
            vp_encrypt(k, x, 2);
        STOREU(out, x[0]);
        STOREU(out + 16, x[1]);
        n -= 2;
        in += 32;
        out += 32;
    }
    if (n) {
        x[0] = LOADU(in);
        if (dec)
            vp_decrypt(k, x, 1);
        else
            vp_encrypt(k, x, 1);
        STOREU(out, x[0]);
    }
}

static void vp_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    vp_ecb(k, out, in, nblocks, 0);
}

static void vp_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    vp_ecb(k, out, in, nblocks, 1);
}

/* Serial modes: one block at a time.  Between blocks the chaining value
 * stays in the tower basis: M(E(s) ^ p ^ K0) = SR^j(M(S) ^ M(K'_n)) ^
 * M(p ^ K0), whose second term does not wait for the previous block, so a
 * block's chain is its rounds only (no basis change at either end).  The
 * AES-basis output is computed beside it where a mode needs it (every CBC
 * block, the last CBC-MAC block).  M(K'_n) is ak_ssse3_key.last. */
VP_TARGET static void vp_serial(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                uint8_t chain[16])
{
    const ak_ssse3_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    const __m128i k0 = LD(K->enc[0]), kn = LD(K->enc[rounds]), knt = LD(K->last);
    const __m128i fix = LD(vp_sr[rounds & 3]);
    __m128i e = LOADU(chain);
    __m128i x = vp_lin(_mm_xor_si128(_mm_xor_si128(e, LOADU(in)), k0), T_IN_LO, T_IN_HI);
    for (size_t i = 0; i < n; i++) {
        vp_enc_mid(k, &x, 1);
        __m128i io, jo;
        vp_core(x, &io, &jo);
        if (out || i + 1 == n) {
            e = _mm_shuffle_epi8(_mm_xor_si128(PAIR(T_S_IO, io, jo), kn), fix);
            if (out)
                STOREU(out + 16 * i, e);
        }
        if (i + 1 < n) {
            __m128i p = vp_lin(_mm_xor_si128(LOADU(in + 16 * (i + 1)), k0), T_IN_LO, T_IN_HI);
            x = _mm_xor_si128(_mm_shuffle_epi8(_mm_xor_si128(PAIR(T_MS_IO, io, jo), knt), fix), p);
        }
    }
    STOREU(chain, e);
}

static void vp_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t iv[16])
{
    if (nblocks)
        vp_serial(k, out, in, nblocks, iv);
}

static void vp_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks)
        vp_serial(k, NULL, in, nblocks, state);
}

/* ---- Parallel modes: four blocks per step, then 2 and 1 ------------------- */

/* Runs fn(k, x, nb) over n blocks in steps of 4, 2, 1: the body macro STEP
 * loads x[0..nb-1] from block i, and FIN stores them. */
#define VP_STEPS(STEP)       \
    do {                     \
        size_t i_ = 0;       \
        for (; i_ + 4 <= n; i_ += 4) \
            STEP(i_, 4);     \
        if (i_ + 2 <= n) {   \
            STEP(i_, 2);     \
            i_ += 2;         \
        }                    \
        if (i_ < n)          \
            STEP(i_, 1);     \
    } while (0)

static const uint8_t vp_bswap64[16] __attribute__((aligned(16))) = {
    7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8};

/* CTR: counter blocks are built from the public counter in two words
 * (big-endian halves hi, lo); wide = 0 is GCM's inc32, 1 the 128-bit one. */
VP_TARGET static void vp_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                             uint8_t ctr[16], int wide)
{
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    const __m128i bs = LD(vp_bswap64);
    __m128i x[4];
#define CTR_STEP(i, nb)                                                                \
    do {                                                                               \
        for (int b = 0; b < (nb); b++) {                                               \
            uint64_t l, h = hi;                                                        \
            if (wide) {                                                                \
                l = lo + (uint64_t)b;                                                  \
                h += l < lo;                                                           \
            } else {                                                                   \
                l = (lo & 0xffffffff00000000u) | (uint32_t)(lo + (uint64_t)b);         \
            }                                                                          \
            x[b] = _mm_shuffle_epi8(_mm_set_epi64x((long long)l, (long long)h), bs);   \
        }                                                                              \
        if (wide) {                                                                    \
            uint64_t l = lo + (nb);                                                    \
            hi += l < lo;                                                              \
            lo = l;                                                                    \
        } else {                                                                       \
            lo = (lo & 0xffffffff00000000u) | (uint32_t)(lo + (nb));                   \
        }                                                                              \
        vp_encrypt(k, x, (nb));                                                        \
        for (int b = 0; b < (nb); b++)                                                 \
            STOREU(out + 16 * ((i) + (size_t)b), _mm_xor_si128(x[b], LOADU(in + 16 * ((i) + (size_t)b)))); \
    } while (0)
    VP_STEPS(CTR_STEP);
#undef CTR_STEP
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
}

static void vp_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t ctr[16])
{
    vp_ctr(k, out, in, nblocks, ctr, 0);
}

static void vp_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                      uint8_t ctr[16])
{
    vp_ctr(k, out, in, nblocks, ctr, 1);
}

/* CBC decryption: all of a step's ciphertext is loaded before any plaintext
 * is stored, so out == in works. */
VP_TARGET static void vp_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                     uint8_t iv[16])
{
    __m128i prev = LOADU(iv), x[4], c[4];
#define CBC_STEP(i, nb)                                                \
    do {                                                               \
        for (int b = 0; b < (nb); b++)                                 \
            x[b] = c[b] = LOADU(in + 16 * ((i) + (size_t)b));                  \
        vp_decrypt(k, x, (nb));                                        \
        STOREU(out + 16 * (i), _mm_xor_si128(x[0], prev));             \
        for (int b = 1; b < (nb); b++)                                 \
            STOREU(out + 16 * ((i) + (size_t)b), _mm_xor_si128(x[b], c[b - 1])); \
        prev = c[(nb) - 1];                                            \
    } while (0)
    VP_STEPS(CBC_STEP);
#undef CBC_STEP
    STOREU(iv, prev);
}

/* XTS tweak times alpha (IEEE 1619, little-endian halves): shift both
 * 64-bit halves left, carry bit 63 into bit 64 and fold bit 127 back as
 * 0x87 -- the two top bits picked by a dword shuffle, branch-free. */
VP_INLINE __m128i xts_mul_alpha(__m128i t)
{
    __m128i top = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);
    return _mm_xor_si128(_mm_slli_epi64(t, 1), _mm_and_si128(top, _mm_set_epi32(0, 1, 0, 0x87)));
}

VP_TARGET static void vp_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                             uint8_t tweak[16], int dec)
{
    __m128i t = LOADU(tweak), x[4], tw[4];
#define XTS_STEP(i, nb)                                                         \
    do {                                                                        \
        for (int b = 0; b < (nb); b++) {                                        \
            tw[b] = t;                                                          \
            x[b] = _mm_xor_si128(LOADU(in + 16 * ((i) + (size_t)b)), t);                \
            t = xts_mul_alpha(t);                                               \
        }                                                                       \
        if (dec)                                                                \
            vp_decrypt(k, x, (nb));                                             \
        else                                                                    \
            vp_encrypt(k, x, (nb));                                             \
        for (int b = 0; b < (nb); b++)                                          \
            STOREU(out + 16 * ((i) + (size_t)b), _mm_xor_si128(x[b], tw[b]));           \
    } while (0)
    VP_STEPS(XTS_STEP);
#undef XTS_STEP
    STOREU(tweak, t);
}

static void vp_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    vp_xts(k, out, in, nblocks, tweak, 0);
}

static void vp_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    vp_xts(k, out, in, nblocks, tweak, 1);
}

const ak_backend ak_backend_x86_ssse3 = {
    .name = "x86-ssse3",
    .requires = "SSSE3",
    .priority = 10,
    .required_features = AK_CPU_SSSE3,
    .constant_time = 1,
    .aes_setkey = vp_setkey,
    .ecb_encrypt = vp_ecb_encrypt,
    .ecb_decrypt = vp_ecb_decrypt,
    .ctr32 = vp_ctr32,
    .ctr128 = vp_ctr128,
    .cbc_encrypt = vp_cbc_encrypt,
    .cbc_decrypt = vp_cbc_decrypt,
    .cbcmac = vp_cbcmac,
    .xts_encrypt = vp_xts_encrypt,
    .xts_decrypt = vp_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
};
