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

#define VP_TARGET __attribute__((target("ssse3")))
#define VP_INLINE static inline __attribute__((always_inline)) VP_TARGET

/* ak_aes.data of x86-ssse3.  Only rounds + 1 entries of enc and dec are
 * used; every entry is 16-byte aligned (ak_aes.data is 64-byte aligned), so
 * the rounds load them with aligned loads. */
typedef struct ak_ssse3_key {
    /* enc[0] = K_0; enc[r] = M(SR^-r(K_r ^ 0x63)) for 0 < r < n (tower
     * basis, fixsliced byte order); enc[n] = SR^-n(K_n ^ 0x63) */
    AESKIT_ALIGN(16) uint8_t enc[15][16];
    /* dec[0] = K_0; dec[r] = D(InvMixColumns(K_r) ^ 0x63) for 0 < r < n;
     * dec[n] = K_n ^ 0x63 (the equivalent inverse cipher, FIPS-197 5.3.5,
     * used from dec[n] down) */
    AESKIT_ALIGN(16) uint8_t dec[15][16];
    /* M(enc[n]): the last key in the tower basis, for the serial modes */
    AESKIT_ALIGN(16) uint8_t last[16];
} ak_ssse3_key; /* 496 bytes, no padding */
_Static_assert(sizeof(ak_ssse3_key) <= AK_AES_DATA_BYTES, "ak_ssse3_key exceeds ak_aes.data");

/* The typed view of the backend-owned area. */
static inline const ak_ssse3_key *ssse3_key(const ak_aes *k)
{
    return (const ak_ssse3_key *)(const void *)k->data;
}
static inline ak_ssse3_key *ssse3_key_mut(ak_aes *k)
{
    return (ak_ssse3_key *)(void *)k->data;
}

/* Tables (16 entries each; _io/_jo pairs are XORed, see the header):
 * in_lo/in_hi  AES byte -> tower byte M(x), by low and high nibble
 * inv, ainv    1/y and a/y in GF(16), 0 -> 0x80
 * ms, ms2, ms3  M(L(x^-1)), M(2 L(x^-1)), M(3 L(x^-1)): the S-box (without
 *              0x63) and 2 and 3 times it, in the tower basis, middle rounds
 * s            L(x^-1), the last round's S-box in the AES basis
 * dn_lo/dn_hi  AES byte -> D(y) = M(L^-1(y)), decryption's working basis
 * de, db, dd, d9   D(14 x^-1), D(11 x^-1), D(13 x^-1), D(9 x^-1)
 * i            x^-1 in the AES basis, the last decryption round. */
enum {
    T_IN_LO, T_IN_HI, T_INV, T_AINV, T_MS_IO, T_MS_JO, T_MS2_IO, T_MS2_JO, T_MS3_IO, T_MS3_JO, T_S_IO, T_S_JO,
    T_DN_LO, T_DN_HI, T_DE_IO, T_DE_JO, T_DB_IO, T_DB_JO, T_DD_IO, T_DD_JO, T_D9_IO, T_D9_JO,
    T_I_IO, T_I_JO, T_COUNT
};

/* Printed by aes_ssse3_gen.py (see the header): 16-entry tables. */
static const uint8_t vp_tab[T_COUNT][16] __attribute__((aligned(16))) = {
    {0x00, 0x10, 0x92, 0x82, 0x58, 0x48, 0xca, 0xda, 0xd8, 0xc8, 0x4a, 0x5a, 0x80, 0x90, 0x12, 0x02}, /* in_lo */
    {0x00, 0x9b, 0x77, 0xec, 0x5b, 0xc0, 0x2c, 0xb7, 0x1c, 0x87, 0x6b, 0xf0, 0x47, 0xdc, 0x30, 0xab}, /* in_hi */
    {0x80, 0x01, 0x09, 0x0e, 0x0d, 0x0b, 0x07, 0x06, 0x0f, 0x02, 0x0c, 0x05, 0x0a, 0x04, 0x03, 0x08}, /* inv */
    {0x80, 0x02, 0x01, 0x0f, 0x09, 0x05, 0x0e, 0x0c, 0x0d, 0x04, 0x0b, 0x0a, 0x07, 0x08, 0x06, 0x03}, /* ainv */
    {0x00, 0xd2, 0xfe, 0x80, 0x36, 0x9a, 0x7e, 0xac, 0x52, 0x64, 0xe4, 0x1a, 0x48, 0xc8, 0xb6, 0x2c}, /* ms_io */
    {0x00, 0x0e, 0x2d, 0xef, 0xa4, 0x68, 0xc2, 0xcc, 0xe1, 0x45, 0xaa, 0x87, 0x66, 0x89, 0x4b, 0x23}, /* ms_jo */
    {0x00, 0x70, 0x37, 0x43, 0x3e, 0x3a, 0x74, 0x04, 0x33, 0x0d, 0x4e, 0x79, 0x4a, 0x09, 0x7d, 0x47}, /* ms2_io */
    {0x00, 0xda, 0x0a, 0xe8, 0x66, 0x5e, 0xe2, 0x38, 0x32, 0x54, 0xbc, 0xb6, 0x84, 0x6c, 0x8e, 0xd0}, /* ms2_jo */
    {0x00, 0xa2, 0xc9, 0xc3, 0x08, 0xa0, 0x0a, 0xa8, 0x61, 0x69, 0xaa, 0x63, 0x02, 0xc1, 0xcb, 0x6b}, /* ms3_io */
    {0x00, 0xd4, 0x27, 0x07, 0xc2, 0x36, 0x20, 0xf4, 0xd3, 0x11, 0x16, 0x31, 0xe2, 0xe5, 0xc5, 0xf3}, /* ms3_jo */
    {0x00, 0x5e, 0x3e, 0x0c, 0x37, 0x5b, 0x32, 0x6c, 0x52, 0x65, 0x69, 0x57, 0x05, 0x09, 0x3b, 0x60}, /* s_io */
    {0x00, 0x8e, 0x2b, 0x74, 0x35, 0xe4, 0x5f, 0xd1, 0xfa, 0xcf, 0xbb, 0x90, 0x6a, 0x1e, 0x41, 0xa5}, /* s_jo */
    {0x00, 0x11, 0xdf, 0xce, 0xbf, 0xae, 0x60, 0x71, 0x52, 0x43, 0x8d, 0x9c, 0xed, 0xfc, 0x32, 0x23}, /* dn_lo */
    {0x00, 0x33, 0x93, 0xa0, 0x15, 0x26, 0x86, 0xb5, 0x3f, 0x0c, 0xac, 0x9f, 0x2a, 0x19, 0xb9, 0x8a}, /* dn_hi */
    {0x00, 0x6a, 0xde, 0x35, 0xd2, 0x53, 0xeb, 0x81, 0x5f, 0x8d, 0xb8, 0x66, 0x39, 0x0c, 0xe7, 0xb4}, /* de_io */
    {0x00, 0x3f, 0x94, 0xc5, 0x9d, 0xf3, 0x51, 0x6e, 0xfa, 0x67, 0xa2, 0x36, 0xcc, 0x09, 0x58, 0xab}, /* de_jo */
    {0x00, 0x66, 0x53, 0xe7, 0xb8, 0x6a, 0xb4, 0xd2, 0x81, 0x39, 0xde, 0x8d, 0x0c, 0xeb, 0x5f, 0x35}, /* db_io */
    {0x00, 0x36, 0xf3, 0x58, 0xa2, 0x3f, 0xab, 0x9d, 0x6e, 0xcc, 0x94, 0x67, 0x09, 0x51, 0xfa, 0xc5}, /* db_jo */
    {0x00, 0xdf, 0xbe, 0xf6, 0x73, 0xe4, 0x48, 0x97, 0x29, 0x5a, 0xac, 0x12, 0x3b, 0xcd, 0x85, 0x61}, /* dd_io */
    {0x00, 0x84, 0x0d, 0xc2, 0xe1, 0xaa, 0xcf, 0x4b, 0x46, 0xa7, 0x65, 0x68, 0x2e, 0xec, 0x23, 0x89}, /* dd_jo */
    {0x00, 0x89, 0xec, 0x0d, 0xa7, 0xcf, 0xe1, 0x68, 0x84, 0x23, 0x2e, 0xc2, 0x46, 0x4b, 0xaa, 0x65}, /* d9_io */
    {0x00, 0x2a, 0xee, 0x19, 0xd3, 0x0e, 0xf7, 0xdd, 0x33, 0xe0, 0xf9, 0x17, 0x24, 0x3d, 0xca, 0xc4}, /* d9_jo */
    {0x00, 0xd9, 0x02, 0x7b, 0x1a, 0xba, 0x79, 0xa0, 0xa2, 0xb8, 0xc3, 0xc1, 0x63, 0x18, 0x61, 0xdb}, /* i_io */
    {0x00, 0xca, 0xc5, 0x56, 0x8e, 0xd7, 0x93, 0x59, 0x9c, 0x12, 0x44, 0x81, 0x1d, 0x4b, 0xd8, 0x0f}, /* i_jo */
};

/* PSHUFB indices.  rot1[m], rot2[m]: out[4c + r] = in[4(c + n m) + (r + n)]
 * (mod 4 each) for n = 1, 2; sr[j] = SR^j: out[4c + r] = in[4(c + j r) + r];
 * rot3m[m] likewise for n = 3. */
static const uint8_t vp_rot1[4][16] __attribute__((aligned(16))) = {
    {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12},
    {5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0},
    {9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4},
    {13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8},
};
static const uint8_t vp_rot2[4][16] __attribute__((aligned(16))) = {
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13},
    {10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5},
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13},
    {10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5},
};
static const uint8_t vp_sr[4][16] __attribute__((aligned(16))) = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11},
    {0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7},
    {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3},
};
static const uint8_t vp_rot3m[4][16] __attribute__((aligned(16))) = {
    {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14},
    {15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10},
    {11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6},
    {7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2},
};

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
