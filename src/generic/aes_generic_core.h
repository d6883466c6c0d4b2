/*
 * aes_generic_core.h - bitsliced AES over GCC/Clang vector extensions,
 * included once per vector width by aes_generic*.c.  CPU features: none by
 * itself; the including file decides (baseline, or a target pragma).
 *
 * Before including, define:
 *   AKBS_W       vector width in bytes (16, 32 or 64; 16 in the baseline)
 *   AKBS_NAME(x) how to name this width's exported functions
 *
 * ---- The layout (Kaesper & Schwabe, "Faster and Timing-Attack Resistant
 * AES-GCM", CHES 2009) ----------------------------------------------------
 * A batch is 8 vectors of W bytes each, loaded straight from memory, so a
 * batch holds 8 * W / 16 blocks (8, 16 or 32): 128-bit lane l of loaded
 * vector j is block j * W/16 + l.  Kaesper and Schwabe bitslice 8 blocks
 * into 8 128-bit registers; wider vectors just repeat that per lane, and
 * every shuffle below stays inside its lane.  Three rounds of SWAPMOVE
 * (bit distances 1, 2, 4 between vectors 1, 2, 4 apart) transpose, inside
 * every byte position, the 8x8 bit matrix formed by the 8 vectors.  After
 * it, vector b ("plane b") holds bit b of every byte: in each 128-bit lane,
 * byte p is the AES state byte p (FIPS-197 order, p = 4 * column + row) and
 * bit j of that byte comes from the j-th loaded vector.  The transpose is an
 * involution, so the same network converts back.
 *
 * In this layout:
 *   SubBytes    is a Boolean circuit over the 8 planes: the Boyar-Peralta
 *               forward S-box (J. Boyar, R. Peralta, "A depth-16 circuit for
 *               the AES S-box", ePrint 2011/332, figures 5, 7, 8: 34 AND,
 *               94 XOR/XNOR; aes_generic_sbox.h says why not its 115-gate
 *               sibling).  The inverse S-box is the same circuit between
 *               two copies of the inverse affine map (FIPS-197 5.3.2):
 *               InvS(y) = F(S(F(y))) with F(y) = A^-1(y ^ 0x63).
 *   ShiftRows   is a constant byte shuffle inside each 128-bit lane;
 *               encryption skips it and shifts MixColumns' byte choice and
 *               the round keys instead ("Fixslicing" below).
 *   MixColumns  rotates rows inside each 4-byte column (again a constant
 *               byte shuffle) plus xtime, which on planes is a renaming of
 *               planes with three XORs for the 0x1b reduction:
 *               b_r = 2(a_r ^ a_r+1) ^ a_r+1 ^ (a_r+2 ^ a_r+3).
 *   InvMixColumns = MixColumns after a_r ^= 4(a_r ^ a_r+2) (the Rijndael
 *               factorisation 0e,0b,0d,09 = (02,03,01,01)(05,00,04,00)).
 *   AddRoundKey XORs 8 planes made from the round key: byte p of plane b is
 *               0xff when bit b of round-key byte p is set.
 * Every operation is a fixed sequence of vector instructions: no branch and
 * no memory index depends on the key or the data.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define akbs_v AKBS_NAME(v)
#define akbs_b AKBS_NAME(b)
typedef uint64_t akbs_v __attribute__((vector_size(AKBS_W), aligned(AKBS_W)));
typedef uint8_t akbs_b __attribute__((vector_size(AKBS_W), aligned(AKBS_W)));

#define AKBS_LANES (AKBS_W / 16)
#define AKBS_BLOCKS (8 * AKBS_LANES)

/* One pattern of 16 byte indices, repeated in every 128-bit lane. */
#if AKBS_W == 16
#define AKBS_IDX(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p
#elif AKBS_W == 32
#define AKBS_IDX(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                      \
    a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, a + 16, b + 16, c + 16, d + 16,    \
        e + 16, f + 16, g + 16, h + 16, i + 16, j + 16, k + 16, l + 16, m + 16, n + 16, \
        o + 16, p + 16
#elif AKBS_W == 64
#define AKBS_IDX16(o, a, b, c, d, e, f, g, h, i, j, k, l, m, n, q, p)                 \
    a + o, b + o, c + o, d + o, e + o, f + o, g + o, h + o, i + o, j + o, k + o, l + o, \
        m + o, n + o, q + o, p + o
#define AKBS_IDX(...) \
    AKBS_IDX16(0, __VA_ARGS__), AKBS_IDX16(16, __VA_ARGS__), AKBS_IDX16(32, __VA_ARGS__), \
        AKBS_IDX16(48, __VA_ARGS__)
#else
#error "AKBS_W must be 16, 32 or 64"
#endif

#ifndef AKBS_SHUFFLE_DEFINED
#define AKBS_SHUFFLE_DEFINED
/* A round's steps are always inlined into the round loops: a call passes
 * the 8 planes through memory, and GCC's size heuristics do call steps out
 * of line when several loops share them. */
#define AKBS_STEP static inline __attribute__((always_inline))
/* Host word to big-endian bytes, as a word to memcpy (one bswap). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline uint32_t akbs_to_be32(uint32_t v) { return v; }
static inline uint64_t akbs_to_be64(uint64_t v) { return v; }
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t akbs_to_be32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t akbs_to_be64(uint64_t v) { return __builtin_bswap64(v); }
#else
static inline uint32_t akbs_to_be32(uint32_t v)
{
    uint32_t r;
    uint8_t b[4];
    ak_store_be32(b, v);
    memcpy(&r, b, 4);
    return r;
}
static inline uint64_t akbs_to_be64(uint64_t v)
{
    uint64_t r;
    uint8_t b[8];
    ak_store_be64(b, v);
    memcpy(&r, b, 8);
    return r;
}
#endif
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define AKBS_SHUF(x, ...) \
    ((akbs_v)__builtin_shufflevector((akbs_b)(x), (akbs_b)(x), AKBS_IDX(__VA_ARGS__)))
#else
#define AKBS_SHUF(x, ...) ((akbs_v)__builtin_shuffle((akbs_b)(x), (akbs_b){AKBS_IDX(__VA_ARGS__)}))
#endif
#endif

#ifndef AKBS_NO_BYTE_SHUFFLE
/* out[4c + r] = in[4((c + r) mod 4) + r] */
#define AKBS_SR(x) AKBS_SHUF(x, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11)
/* out[4c + r] = in[4((c - r) mod 4) + r] */
#define AKBS_ISR(x) AKBS_SHUF(x, 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3)
/* Row rotations inside each column: out[4c + r] = in[4c + (r + n) mod 4]. */
#define AKBS_ROT1(x) AKBS_SHUF(x, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)
#define AKBS_ROT2(x) AKBS_SHUF(x, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
/* ShiftRows twice: out[4c + r] = in[4((c + 2r) mod 4) + r]. */
#define AKBS_SR2(x) AKBS_SHUF(x, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7)
/* The fixsliced row rotations (see "Fixslicing" below) for k = 1, 2, 3:
 * out[4c + r] = in[4((c + k) mod 4) + (r + 1) mod 4], and for odd k
 * out[4c + r] = in[4((c + 2) mod 4) + (r + 2) mod 4]. */
#define AKBS_ROT1_K1(x) AKBS_SHUF(x, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0)
#define AKBS_ROT1_K2(x) AKBS_SHUF(x, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4)
#define AKBS_ROT1_K3(x) AKBS_SHUF(x, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8)
#define AKBS_ROT2_ODD(x) AKBS_SHUF(x, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5)
/* What inv_mix_pre uses for ROT2 (the byte-shuffle-less build's differ). */
#define AKBS_ROT2_H(x) AKBS_ROT2(x)
#define AKBS_ROT2_ODD_H(x) AKBS_ROT2_ODD(x)
#else
/* Targets without a byte shuffle (x86-64 before SSSE3) would get a long
 * emulation of every byte shuffle; there, the same permutations are built
 * from whole-column (32-bit) shuffles, row masks and 32-bit rotations. */
#if AKBS_W != 16
#error "AKBS_NO_BYTE_SHUFFLE is written for 16-byte vectors"
#endif
#define akbs_w AKBS_NAME(w)
typedef uint32_t akbs_w __attribute__((vector_size(16)));
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define AKBS_COLS(x, a, b, c, d) ((akbs_v)__builtin_shufflevector((akbs_w)(x), (akbs_w)(x), a, b, c, d))
#else
#define AKBS_COLS(x, a, b, c, d) ((akbs_v)__builtin_shuffle((akbs_w)(x), (akbs_w){a, b, c, d}))
#endif
AKBS_STEP akbs_v AKBS_NAME(rowmask)(int r)
{
    akbs_b m = {0};
    for (int i = 0; i < 16; i++)
        m[i] = (uint8_t)((i & 3) == r ? 0xff : 0);
    return (akbs_v)m;
}
AKBS_STEP akbs_v AKBS_NAME(sr_w)(akbs_v x)
{
    return (x & AKBS_NAME(rowmask)(0)) | (AKBS_COLS(x, 1, 2, 3, 0) & AKBS_NAME(rowmask)(1)) |
           (AKBS_COLS(x, 2, 3, 0, 1) & AKBS_NAME(rowmask)(2)) |
           (AKBS_COLS(x, 3, 0, 1, 2) & AKBS_NAME(rowmask)(3));
}
AKBS_STEP akbs_v AKBS_NAME(isr_w)(akbs_v x)
{
    return (x & AKBS_NAME(rowmask)(0)) | (AKBS_COLS(x, 3, 0, 1, 2) & AKBS_NAME(rowmask)(1)) |
           (AKBS_COLS(x, 2, 3, 0, 1) & AKBS_NAME(rowmask)(2)) |
           (AKBS_COLS(x, 1, 2, 3, 0) & AKBS_NAME(rowmask)(3));
}
/* out byte r of a column = in byte r + n: a 32-bit rotation whose direction
 * depends on the byte order. */
AKBS_STEP akbs_v AKBS_NAME(rot_w)(akbs_v x, int n)
{
    akbs_w w = (akbs_w)x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (akbs_v)((w << (8 * n)) | (w >> (32 - 8 * n)));
#else
    return (akbs_v)((w >> (8 * n)) | (w << (32 - 8 * n)));
#endif
}
AKBS_STEP akbs_v AKBS_NAME(sr2_w)(akbs_v x)
{
    return (x & (AKBS_NAME(rowmask)(0) | AKBS_NAME(rowmask)(2))) |
           (AKBS_COLS(x, 2, 3, 0, 1) & (AKBS_NAME(rowmask)(1) | AKBS_NAME(rowmask)(3)));
}
#define AKBS_SR(x) AKBS_NAME(sr_w)(x)
#define AKBS_ISR(x) AKBS_NAME(isr_w)(x)
#define AKBS_SR2(x) AKBS_NAME(sr2_w)(x)
#define AKBS_ROT1(x) AKBS_NAME(rot_w)(x, 1)
#define AKBS_ROT2(x) AKBS_NAME(rot_w)(x, 2)
/* The same rotation by two bytes as a swap of the 16-bit halves of each
 * column, in either byte order: two word shuffles (pshuflw, pshufhw)
 * instead of two shifts, an OR and a copy.  InvMixColumns' first factor
 * uses it (see inv_mix_pre). */
#define akbs_h AKBS_NAME(h)
typedef uint16_t akbs_h __attribute__((vector_size(16)));
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define AKBS_ROT2_H(x) \
    ((akbs_v)__builtin_shufflevector((akbs_h)(x), (akbs_h)(x), 1, 0, 3, 2, 5, 4, 7, 6))
#else
#define AKBS_ROT2_H(x) ((akbs_v)__builtin_shuffle((akbs_h)(x), (akbs_h){1, 0, 3, 2, 5, 4, 7, 6}))
#endif
/* A column shift (one pshufd) before the row rotation. */
#define AKBS_ROT1_K1(x) AKBS_ROT1(AKBS_COLS(x, 1, 2, 3, 0))
#define AKBS_ROT1_K2(x) AKBS_ROT1(AKBS_COLS(x, 2, 3, 0, 1))
#define AKBS_ROT1_K3(x) AKBS_ROT1(AKBS_COLS(x, 3, 0, 1, 2))
#define AKBS_ROT2_ODD(x) AKBS_ROT2(AKBS_COLS(x, 2, 3, 0, 1))
#define AKBS_ROT2_ODD_H(x) AKBS_ROT2_H(AKBS_COLS(x, 2, 3, 0, 1))
#endif

#define AKBS_M1 0x5555555555555555u
#define AKBS_M2 0x3333333333333333u
#define AKBS_M4 0x0f0f0f0f0f0f0f0fu

#define AKBS_SWAPMOVE(a, b, m, s)              \
    do {                                       \
        akbs_v t_ = (((a) >> (s)) ^ (b)) & (m); \
        (b) ^= t_;                             \
        (a) ^= t_ << (s);                      \
    } while (0)

static inline void AKBS_NAME(transpose)(akbs_v x[8])
{
    AKBS_SWAPMOVE(x[0], x[1], AKBS_M1, 1);
    AKBS_SWAPMOVE(x[2], x[3], AKBS_M1, 1);
    AKBS_SWAPMOVE(x[4], x[5], AKBS_M1, 1);
    AKBS_SWAPMOVE(x[6], x[7], AKBS_M1, 1);
    AKBS_SWAPMOVE(x[0], x[2], AKBS_M2, 2);
    AKBS_SWAPMOVE(x[1], x[3], AKBS_M2, 2);
    AKBS_SWAPMOVE(x[4], x[6], AKBS_M2, 2);
    AKBS_SWAPMOVE(x[5], x[7], AKBS_M2, 2);
    AKBS_SWAPMOVE(x[0], x[4], AKBS_M4, 4);
    AKBS_SWAPMOVE(x[1], x[5], AKBS_M4, 4);
    AKBS_SWAPMOVE(x[2], x[6], AKBS_M4, 4);
    AKBS_SWAPMOVE(x[3], x[7], AKBS_M4, 4);
}

/* SubBytes on planes x[0] (least significant bit) .. x[7], less the
 * affine constant: S(x) ^ 0x63 in every byte.  Round keys 1..Nr carry the
 * 0x63 instead (expand_rk, fix_key): every step between an S-box and the
 * next round key is linear and maps 0x63 in every byte to 0x63 in every
 * byte (MixColumns and InvMixColumns send a column of equal bytes c to
 * itself, 2^3^1^1 = 0e^0b^0d^09 = 1; the rest permutes bytes). */
AKBS_STEP void AKBS_NAME(sbox)(akbs_v x[8])
{
    AK_SBOX_CIRCUIT_NC(akbs_v, x);
}

/* L, the linear part of A^-1: f_i = y_{i+2} ^ y_{i+5} ^ y_{i+7}; L(0x63) =
 * 0x05.  FIPS-197's InvSubBytes is F(S(F(y))) with F(y) = A^-1(y ^ 0x63)
 * = L(y) ^ 0x05.  Here y arrives as y ^ 0x63 (the previous round key
 * carries the constant), and L(y ^ 0x63) = F(y); sbox gives S ^ 0x63, and
 * L of that is F(S).  So InvSubBytes is L, sbox, L. */
AKBS_STEP void AKBS_NAME(inv_lin)(akbs_v x[8])
{
    akbs_v y[8];
    for (int i = 0; i < 8; i++)
        y[i] = x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
    for (int i = 0; i < 8; i++)
        x[i] = y[i];
}

/* InvSubBytes of y, given y ^ 0x63 in every byte (inv_lin says why). */
AKBS_STEP void AKBS_NAME(inv_sbox)(akbs_v x[8])
{
    AKBS_NAME(inv_lin)(x);
    AKBS_NAME(sbox)(x);
    AKBS_NAME(inv_lin)(x);
}

/* xtime on planes: multiply every byte by x modulo x^8+x^4+x^3+x+1. */
#define AKBS_XTIME(o, t)                \
    do {                                \
        akbs_v h_ = (t)[7];             \
        (o)[7] = (t)[6];                \
        (o)[6] = (t)[5];                \
        (o)[5] = (t)[4];                \
        (o)[4] = (t)[3] ^ h_;           \
        (o)[3] = (t)[2] ^ h_;           \
        (o)[2] = (t)[1];                \
        (o)[1] = (t)[0] ^ h_;           \
        (o)[0] = h_;                    \
    } while (0)

/* ---- Fixslicing (encryption) ----------------------------------------------
 * After Adomnicai and Peyrin, "Fixslicing AES-like Ciphers", TCHES 2021(1).
 * ShiftRows is the costliest step where the target has no byte shuffle (ten
 * instructions a plane from 32-bit shuffles and masks), and a shuffle a
 * plane where it has one.  Encryption skips it: the planes hold a physical
 * state P and the AES state is T = SR^k(P), k = the number of ShiftRows
 * skipped so far, mod 4.  In coordinates (column c, row r):
 *   SR^k(P)(c, r) = P(c + k r, r)                  (indices mod 4).
 * MixColumns on T, written on P: output byte (c', r) of the physical
 * state combines P(c', r) with the bytes the column's rows r+1, r+2, r+3
 * sit at, P(c' + k, r + 1), P(c' + 2k, r + 2), P(c' + 3k, r + 3) -- the row
 * rotations ROT1/ROT2 of plain MixColumns after a column shift of k and 2k,
 * which is what AKBS_ROT1_K* and AKBS_ROT2_ODD are (2k = 0 mod 4 for even
 * k; mix_k below).  Round r (1 <= r < Nr) of the cipher has skipped r
 * ShiftRows before its MixColumns, so it uses k = r mod 4, and its round
 * key must be given on P too: SR^-k(K_r) (expand_rk, fix_key).  The last
 * round skips one more and has no MixColumns: the output is SR^(Nr mod 4)
 * of the last AddRoundKey's planes, SR^2 for AES-128 and AES-256, the
 * identity for AES-192.
 *
 * Decryption skips InvShiftRows the same way: after j skipped, the state
 * is SR^-j(P), which is the formula above with k = -j mod 4.  Step i
 * (1 <= i < Nr, round key Nr - i) skips its InvShiftRows, runs InvSubBytes,
 * adds SR^i(K_{Nr-i}) and runs InvMixColumns with k = -i mod 4 (inv_mix_k:
 * InvMixColumns' ROT2 and MixColumns both shifted); the last step adds
 * SR^Nr(K_0), and the output is SR^-Nr of the planes. */

/* SR^n of each 128-bit lane, n = 0..3 (public, from the round count). */
AKBS_STEP akbs_v AKBS_NAME(sr_pow)(akbs_v x, unsigned n)
{
    switch (n & 3) {
    case 1: return AKBS_SR(x);
    case 2: return AKBS_SR2(x);
    case 3: return AKBS_ISR(x);
    default: return x;
    }
}

/* Round key r's 8 planes (for encrypt_planes) from the plain key's: SR^-(r
 * mod 4) of each, and from round 1 on the S-box's constant 0x63 (sbox). */
static inline void AKBS_NAME(fix_key)(akbs_v k[8], unsigned r)
{
    for (unsigned i = 0; i < 8; i++) {
        k[i] = AKBS_NAME(sr_pow)(k[i], 4 - (r & 3));
        if (r && ((0x63u >> i) & 1))
            k[i] = ~k[i];
    }
}

/* The row rotations of MixColumns on the state SR^k(x), on x (the essay
 * above); k is a constant at every call site, so the switches fold. */
AKBS_STEP akbs_v AKBS_NAME(rot1_k)(akbs_v x, unsigned k)
{
    switch (k & 3) {
    case 1: return AKBS_ROT1_K1(x);
    case 2: return AKBS_ROT1_K2(x);
    case 3: return AKBS_ROT1_K3(x);
    default: return AKBS_ROT1(x);
    }
}

AKBS_STEP akbs_v AKBS_NAME(rot2_k)(akbs_v x, unsigned k)
{
    return (k & 1) ? AKBS_ROT2_ODD(x) : AKBS_ROT2(x);
}

/* MixColumns of the state SR^k(x), on x: b_r = 2(a_r ^ a_r+1) ^ a_r+1 ^
 * (a_r+2 ^ a_r+3), the rows r+1.. found by rot1_k and rot2_k. */
AKBS_STEP void AKBS_NAME(mix_k)(akbs_v x[8], unsigned k)
{
    akbs_v r1[8], t[8], m[8];
    for (int i = 0; i < 8; i++) {
        r1[i] = AKBS_NAME(rot1_k)(x[i], k);
        t[i] = x[i] ^ r1[i];
    }
    AKBS_XTIME(m, t);
    for (int i = 0; i < 8; i++)
        x[i] = m[i] ^ r1[i] ^ AKBS_NAME(rot2_k)(t[i], k);
}

/* InvMixColumns' first factor, a_r ^= 4(a_r ^ a_r+2), on the state SR^k(x):
 * odd = k is odd (the row pairs then sit two columns apart). */
AKBS_STEP void AKBS_NAME(inv_mix_pre)(akbs_v x[8], int odd)
{
    akbs_v t[8], t2[8], t4[8];
    for (int i = 0; i < 8; i++)
        t[i] = x[i] ^ (odd ? AKBS_ROT2_ODD_H(x[i]) : AKBS_ROT2_H(x[i]));
    AKBS_XTIME(t2, t);
    AKBS_XTIME(t4, t2);
    for (int i = 0; i < 8; i++)
        x[i] ^= t4[i];
}

/* InvMixColumns of the state SR^k(x), on x. */
AKBS_STEP void AKBS_NAME(inv_mix_k)(akbs_v x[8], unsigned k)
{
    AKBS_NAME(inv_mix_pre)(x, (int)(k & 1));
    AKBS_NAME(mix_k)(x, k);
}

/* Round-key planes for a whole schedule on the fixsliced state: (rounds + 1)
 * * 8 vectors, for encrypt_planes (decrypt = 0: key r permuted by SR^-r) or
 * decrypt_planes (decrypt = 1: key r by SR^(rounds - r)). */
static void AKBS_NAME(expand_rk)(akbs_v *rkp, const uint8_t *rk, unsigned rounds, int decrypt)
{
    akbs_b one;
    memset(&one, 1, sizeof one);
    for (unsigned r = 0; r <= rounds; r++) {
        akbs_b v = {0};
        for (int l = 0; l < AKBS_LANES; l++)
            memcpy((uint8_t *)&v + 16 * l, rk + 16 * r, 16);
        if (r) /* sbox's affine constant (see there) */
            for (int i = 0; i < AKBS_W; i++)
                v[i] ^= 0x63;
        v = (akbs_b)AKBS_NAME(sr_pow)((akbs_v)v, decrypt ? rounds - r : 4 - (r & 3));
        for (unsigned b = 0; b < 8; b++)
            rkp[8 * r + b] = (akbs_v)(-((v >> b) & one));
    }
}

static inline void AKBS_NAME(load)(akbs_v x[8], const uint8_t *in)
{
    for (int i = 0; i < 8; i++)
        memcpy(&x[i], in + i * AKBS_W, AKBS_W);
    AKBS_NAME(transpose)(x);
}

static inline void AKBS_NAME(store)(uint8_t *out, akbs_v x[8])
{
    AKBS_NAME(transpose)(x);
    for (int i = 0; i < 8; i++)
        memcpy(out + i * AKBS_W, &x[i], AKBS_W);
}

AKBS_STEP void AKBS_NAME(ark)(akbs_v x[8], const akbs_v *k)
{
    for (int i = 0; i < 8; i++)
        x[i] ^= k[i];
}

/* Rounds first..Nr of the cipher on planes that hold the state after round
 * first - 1 (its AddRoundKey included). */
AKBS_STEP void AKBS_NAME(encrypt_planes_from)(akbs_v x[8], const akbs_v *rkp, unsigned rounds,
                                               unsigned first)
{
    for (unsigned r = first; r < rounds; r++) {
        AKBS_NAME(sbox)(x);
        switch (r & 3) { /* public: the round number; constant k for mix_k */
        case 1: AKBS_NAME(mix_k)(x, 1); break;
        case 2: AKBS_NAME(mix_k)(x, 2); break;
        case 3: AKBS_NAME(mix_k)(x, 3); break;
        default: AKBS_NAME(mix_k)(x, 0); break;
        }
        AKBS_NAME(ark)(x, rkp + 8 * r);
    }
    AKBS_NAME(sbox)(x);
    for (unsigned i = 0; i < 8; i++)
        x[i] = AKBS_NAME(sr_pow)(x[i] ^ rkp[8 * rounds + i], rounds);
}

/* Encrypts the planes in place, fixsliced: rkp holds the round keys on the
 * physical state (expand_rk with decrypt = 0, or fix_key). */
AKBS_STEP void AKBS_NAME(encrypt_planes)(akbs_v x[8], const akbs_v *rkp, unsigned rounds)
{
    AKBS_NAME(ark)(x, rkp);
    AKBS_NAME(encrypt_planes_from)(x, rkp, rounds, 1);
}

/* Decrypts the planes in place, fixsliced: rkp from expand_rk with
 * decrypt = 1. */
AKBS_STEP void AKBS_NAME(decrypt_planes)(akbs_v x[8], const akbs_v *rkp, unsigned rounds)
{
    AKBS_NAME(ark)(x, rkp + 8 * rounds);
    for (unsigned i = 1; i < rounds; i++) {
        AKBS_NAME(inv_sbox)(x);
        AKBS_NAME(ark)(x, rkp + 8 * (rounds - i));
        switch (i & 3) { /* public: k = -i mod 4 */
        case 1: AKBS_NAME(inv_mix_k)(x, 3); break;
        case 2: AKBS_NAME(inv_mix_k)(x, 2); break;
        case 3: AKBS_NAME(inv_mix_k)(x, 1); break;
        default: AKBS_NAME(inv_mix_k)(x, 0); break;
        }
    }
    AKBS_NAME(inv_sbox)(x);
    for (unsigned i = 0; i < 8; i++)
        x[i] = AKBS_NAME(sr_pow)(x[i] ^ rkp[i], 4 - (rounds & 3));
}

/* ECB over any number of blocks; a partial batch goes through a stack
 * buffer.  rk is the FIPS-197 schedule ((rounds + 1) * 16 bytes). */
static void AKBS_NAME(ecb)(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                           size_t nblocks, int decrypt)
{
    akbs_v rkp[15 * 8];
    akbs_v x[8];
    if (nblocks == 0)
        return;
    AKBS_NAME(expand_rk)(rkp, rk, rounds, decrypt);
    while (nblocks > 0) {
        size_t n = nblocks < AKBS_BLOCKS ? nblocks : AKBS_BLOCKS;
        if (n == AKBS_BLOCKS) {
            AKBS_NAME(load)(x, in);
        } else {
            uint8_t buf[8 * AKBS_W];
            memset(buf, 0, sizeof buf);
            memcpy(buf, in, 16 * n);
            AKBS_NAME(load)(x, buf);
        }
        if (decrypt)
            AKBS_NAME(decrypt_planes)(x, rkp, rounds);
        else
            AKBS_NAME(encrypt_planes)(x, rkp, rounds);
        if (n == AKBS_BLOCKS) {
            AKBS_NAME(store)(out, x);
        } else {
            uint8_t buf[8 * AKBS_W];
            AKBS_NAME(store)(buf, x);
            memcpy(out, buf, 16 * n);
            aeskit_memzero(buf, sizeof buf);
        }
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    aeskit_memzero(x, sizeof x);
    aeskit_memzero(rkp, sizeof(akbs_v) * 8 * (rounds + 1));
}

/* ---- Round 1 of counter mode, cached ------------------------------------
 * The counter-mode caching of Bernstein and Schwabe ("New AES software
 * speed records", INDOCRYPT 2008), here for the first round.  The blocks of
 * a batch whose counters differ only in byte 15 (no carry out of it inside
 * the batch) share bytes 0..14.  AddRoundKey and SubBytes act bytewise, and
 * round 1's MixColumns is linear: fixsliced with k = 1 (mix_k), output
 * byte (c, r) is 2 x(c, r) ^ 3 x(c+1, r+1) ^ x(c+2, r+2) ^ x(c+3, r+3), so
 * byte 15 = (3, 3) reaches the diagonal only: (r, r) with j = 3 - r, which
 * is 2x at byte 15, 3x at byte 10 and 1x at bytes 5 and 0.  The state after
 * round 1 is therefore base ^ D(s), s = sbox(byte 15 ^ K0[15]), where base
 * is that state for the shared bytes without byte 15's share and D(s) puts
 * s at bytes 0 and 5, 3s at 10 and 2s at 15.  The key holds s and 2s for
 * all 256 counter bytes (ak_gen_key.ctr_s, from ak_gen_ctr_tables at key
 * set-up), ctr_base computes the base (one round a change of bytes 0..14,
 * every 256 blocks).  Counters are public: indexing the tables by byte 15
 * leaks nothing; the bases are wiped, the tables with the key. */
/* Blocks a call needs to take the cached path: a base (one round on planes)
 * and the wipes cost what a few batches gain.  Only the 16-byte width takes
 * it: a wider batch's byte-wise assembly (a copy and 4 XORs a block) costs
 * as much as the round it saves (measurements: docs/performance.md). */
#if AKBS_W == 16
#define AKBS_CTR_CACHE_MIN (8 * AKBS_BLOCKS)
#else
#define AKBS_CTR_CACHE_MIN SIZE_MAX
#endif

/* D(s) of counter byte v into block b (see above). */
static inline void AKBS_NAME(ctr_add_d)(uint8_t b[16], const uint8_t t[2][256], uint8_t v)
{
    b[0] ^= t[0][v];
    b[5] ^= t[0][v];
    b[10] ^= (uint8_t)(t[0][v] ^ t[1][v]);
    b[15] ^= t[1][v];
}

/* The base for the counter block blk: its state after round 1, less D. */
static void AKBS_NAME(ctr_base)(uint8_t base[16], const uint8_t blk[16], const akbs_v *rkp,
                                const uint8_t t[2][256])
{
    uint8_t buf[8 * AKBS_W];
    akbs_v x[8];
    memset(buf, 0, sizeof buf);
    memcpy(buf, blk, 16);
    AKBS_NAME(load)(x, buf);
    AKBS_NAME(ark)(x, rkp);
    AKBS_NAME(sbox)(x);
    AKBS_NAME(mix_k)(x, 1);
    AKBS_NAME(ark)(x, rkp + 8);
    AKBS_NAME(store)(buf, x);
    memcpy(base, buf, 16);
    AKBS_NAME(ctr_add_d)(base, t, blk[15]);
    aeskit_memzero(buf, sizeof buf);
    aeskit_memzero(x, sizeof x);
}

/* CTR: out = in ^ E(ctr), E(ctr + 1), ...  wide = 0: GCM's inc32 on the
 * last 4 bytes (big-endian, mod 2^32); wide = 1: 128-bit big-endian
 * increment.  Counters are public, the keystream is wiped.  Calls of at
 * least AKBS_CTR_CACHE_MIN blocks start their batches after round 1 where
 * byte 15 does not carry inside the batch (the essay above). */
static void AKBS_NAME(ctr)(const ak_gen_key *gk, unsigned rounds, uint8_t *out,
                           const uint8_t *in, size_t nblocks, uint8_t ctr[16], int wide)
{
    const uint8_t *rk = gk->rk;
    const uint8_t(*tab)[256] = gk->ctr_s;
    akbs_v rkp[15 * 8];
    akbs_v x[8];
    uint8_t buf[8 * AKBS_W], ks[8 * AKBS_W];
    uint8_t base[16];
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    uint64_t base_lo = 0;
    int cache = nblocks >= AKBS_CTR_CACHE_MIN, have_base = 0;
    if (nblocks == 0)
        return;
    AKBS_NAME(expand_rk)(rkp, rk, rounds, 0);
    /* ctr32 never changes the first 12 bytes.  Every batch rewrites whole
     * blocks, not just their last word: 4-byte stores 16 bytes apart make
     * clang vectorize the loop into an AVX-512 scatter, whose shadow
     * clang 14's MemorySanitizer does not propagate (every keystream byte
     * then reads as uninitialised -- a tool false positive, as the buffer
     * is fully written).  Full-block stores vectorize to plain stores. */
    uint32_t pre[3];
    memcpy(pre, ctr, 12);
    while (nblocks > 0) {
        size_t n = nblocks < AKBS_BLOCKS ? nblocks : AKBS_BLOCKS;
        unsigned first = 1;
        if (cache && (lo & 0xff) + AKBS_BLOCKS <= 256) {
            /* Bytes 0..14 are hi and lo's upper 56 bits in both modes; inside
             * a call hi changes only when those 56 bits wrap to 0. */
            if (!have_base || base_lo != (lo & ~(uint64_t)0xff)) {
                uint8_t blk[16];
                ak_store_be64(blk, hi);
                ak_store_be64(blk + 8, lo);
                AKBS_NAME(ctr_base)(base, blk, rkp, tab);
                base_lo = lo & ~(uint64_t)0xff;
                have_base = 1;
            }
            for (size_t i = 0; i < AKBS_BLOCKS; i++) {
                memcpy(buf + 16 * i, base, 16);
                AKBS_NAME(ctr_add_d)(buf + 16 * i, tab, (uint8_t)(lo + i));
            }
            first = 2;
        } else if (wide) {
            for (size_t i = 0; i < AKBS_BLOCKS; i++) {
                uint64_t l = lo + i, h = hi + (l < lo);
                l = akbs_to_be64(l);
                h = akbs_to_be64(h);
                memcpy(buf + 16 * i, &h, 8);
                memcpy(buf + 16 * i + 8, &l, 8);
            }
        } else {
            for (size_t i = 0; i < AKBS_BLOCKS; i++) {
                uint32_t w[4] = {pre[0], pre[1], pre[2],
                                 akbs_to_be32((uint32_t)lo + (uint32_t)i)};
                memcpy(buf + 16 * i, w, 16);
            }
        }
        if (wide) {
            uint64_t l = lo + n;
            hi += (l < lo);
            lo = l;
        } else {
            lo = (lo & 0xffffffff00000000u) | (uint32_t)(lo + n);
        }
        AKBS_NAME(load)(x, buf);
        if (first == 1)
            AKBS_NAME(ark)(x, rkp);
        AKBS_NAME(encrypt_planes_from)(x, rkp, rounds, first);
        AKBS_NAME(store)(ks, x);
        if (n == AKBS_BLOCKS) {
            for (int i = 0; i < 8; i++) {
                akbs_v t, u;
                memcpy(&t, in + i * AKBS_W, AKBS_W);
                memcpy(&u, ks + i * AKBS_W, AKBS_W);
                t ^= u;
                memcpy(out + i * AKBS_W, &t, AKBS_W);
            }
        } else {
            for (size_t i = 0; i < 16 * n; i++)
                out[i] = in[i] ^ ks[i];
        }
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
    aeskit_memzero(ks, sizeof ks);
    aeskit_memzero(x, sizeof x);
    aeskit_memzero(rkp, sizeof(akbs_v) * 8 * (rounds + 1));
    if (cache) {
        aeskit_memzero(buf, sizeof buf);
        aeskit_memzero(base, sizeof base);
    }
}

#undef akbs_v
#undef akbs_b
#undef AKBS_W
#undef AKBS_NAME
#undef AKBS_LANES
#undef AKBS_BLOCKS
#undef AKBS_CTR_CACHE_MIN
#undef AKBS_IDX
#undef AKBS_SR
#undef AKBS_ISR
#undef AKBS_ROT1
#undef AKBS_ROT2
#undef AKBS_SR2
#undef AKBS_ROT1_K1
#undef AKBS_ROT1_K2
#undef AKBS_ROT1_K3
#undef AKBS_ROT2_ODD
#undef AKBS_ROT2_H
#undef AKBS_ROT2_ODD_H
#undef akbs_w
#undef akbs_h
