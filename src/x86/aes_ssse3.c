/*
 * aes_ssse3.c - the x86-ssse3 backend: AES by vector permutes (M. Hamburg,
 * "Accelerating AES with vector permute instructions", CHES 2009), for x86
 * CPUs and VMs without AES-NI.  CPU features: SSSE3 (PSHUFB); with AVX2
 * (AK_CPU_AVX2, which honours AESKIT_CPU) the parallel modes also run a
 * ymm width.  Every function carries VP_TARGET or VP2_TARGET (avx2, called
 * only on keys set up with AVX2 present); the file is built without any -m
 * flag.
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
 * parallel modes run eight blocks per step in four ymm registers where the
 * key was set up with AVX2, four in xmm otherwise (the vector ports, not
 * the latency, bound them; ymm does twice the work per instruction), then
 * steps of 4, 2, 1 in xmm; the serial ones one block with its chain
 * shortened.
 */
#include <immintrin.h>

#include "../internal.h"
#include "../simd/vpaes_tables.h"

#define VP_TARGET __attribute__((target("ssse3")))
#define VP_INLINE static inline __attribute__((always_inline)) VP_TARGET

/* Blocks per step of the parallel modes: 4 in xmm registers, or 8 in ymm
 * (VPSHUFB looks up within each 128-bit lane, so a 16-byte table or round
 * key broadcast to both lanes serves two blocks unchanged). */
enum { VP_W4 = 4, VP_W8 = 8 };

/* ak_aes.data of x86-ssse3: the round keys in the layout of both
 * vector-permute backends (one format for both widths), the middle round
 * keys of vp_serial, then the width chosen at key setup
 * from the masked CPU features (public). */
typedef struct ak_ssse3_key {
    ak_vpaes_key vp;
    /* kf[r] for 0 < r < rounds: the middle round key of vp_serial,
     * K'' = K ^ P K ^ P^2 K of K = vp.enc[r] (P = vp_rot1[r & 3]), as its
     * i nibbles (VP_NIB_I) and k nibbles (VP_NIB_K) */
    AESKIT_ALIGN(16) uint8_t kf[15][2][16];
    uint32_t width; /* VP_W4 or VP_W8 */
} ak_ssse3_key;
_Static_assert(sizeof(ak_ssse3_key) <= AK_AES_DATA_BYTES, "ak_ssse3_key exceeds ak_aes.data");

/* The typed views of the backend-owned area: the round keys, the width. */
static inline const ak_vpaes_key *ssse3_key(const ak_aes *k)
{
    return &((const ak_ssse3_key *)(const void *)k->data)->vp;
}
static inline uint32_t ssse3_width(const ak_aes *k)
{
    return ((const ak_ssse3_key *)(const void *)k->data)->width;
}
static inline ak_ssse3_key *ssse3_key_mut(ak_aes *k)
{
    return (ak_ssse3_key *)(void *)k->data;
}

/* The width this CPU (after AESKIT_CPU) runs: 8 with AVX2 (ak_cpu_features
 * sets AK_CPU_AVX2 only where the OS saves the ymm state). */
static uint32_t vp_pick_width(void)
{
    return (ak_cpu_features() & AK_CPU_AVX2) ? VP_W8 : VP_W4;
}

static const char *vp_variant(void)
{
    /* no parentheses: the suites parse "checked: NAME (VARIANT), ..." */
    return vp_pick_width() == VP_W8 ? "vpaes-avx2: parallel modes 8 blocks per step in 4 ymm; serial modes 1 block"
                                    : "vpaes-ssse3: parallel modes 4 blocks per step in xmm; serial modes 1 block";
}

#define LD(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define TB(t) LD(vp_tab[t])
#define SHUF(t, v) _mm_shuffle_epi8(TB(t), (v))

/* The two nibble vectors of a byte vector: i = t & 15, k = t >> 4. */
VP_INLINE void vp_split(__m128i t, __m128i *i, __m128i *k)
{
    const __m128i m0f = _mm_set1_epi8(0x0f);
    *i = _mm_and_si128(t, m0f);
    *k = _mm_and_si128(_mm_srli_epi16(t, 4), m0f);
}

/* A linear map of every byte given by its two nibble tables. */
VP_INLINE __m128i vp_lin(__m128i x, int lo, int hi)
{
    __m128i xl, xh;
    vp_split(x, &xl, &xh);
    return _mm_xor_si128(SHUF(lo, xl), SHUF(hi, xh));
}

/* The inversion core from the nibble vectors i and k of the tower byte
 * (k << 4) | i. */
VP_INLINE void vp_core_ik(__m128i i, __m128i k, __m128i *io, __m128i *jo)
{
    __m128i j = _mm_xor_si128(i, k);
    __m128i ak = SHUF(T_AINV, k);
    __m128i p = _mm_xor_si128(SHUF(T_INV, i), ak), q = _mm_xor_si128(SHUF(T_INV, j), ak);
    *io = _mm_xor_si128(SHUF(T_INV, p), j);
    *jo = _mm_xor_si128(SHUF(T_INV, q), i);
}

/* The inversion core from the tower byte t. */
VP_INLINE void vp_core(__m128i t, __m128i *io, __m128i *jo)
{
    __m128i i, k;
    vp_split(t, &i, &k);
    vp_core_ik(i, k, io, jo);
}

#define PAIR(t, io, jo) _mm_xor_si128(SHUF(t, io), SHUF((t) + 1, jo))

/* The one-block middle-round sum after vp_core, from io and jo:
 *   b = (d ^ k) ^ rot1(3 s) ^ (rot2 s ^ rot3 s),  s = S, d = 2 S, 3 S looked up,
 * the round key XORed into d off the chain, so the chain after io, jo is
 * lookup, pair XOR, byte move, two XORs.  Each vector operation here takes
 * 2 cycles on Zen 5 (PSHUFB, PXOR, PAND, PSRLW alike) and one block leaves
 * the ports idle, so the round's chain sets the pace: 3 s from its own two
 * lookups (14 PSHUFB a round) rather than as s ^ d, which is one XOR
 * deeper.  The empty asm keeps the compiler from moving the key XOR back to
 * the end of the chain. */
VP_INLINE __m128i vp_one_tail(__m128i io, __m128i jo, __m128i kr, unsigned m)
{
    __m128i s = PAIR(T_MS_IO, io, jo), d = PAIR(T_MS2_IO, io, jo), t = PAIR(T_MS3_IO, io, jo);
    __m128i a = _mm_xor_si128(d, kr);
    __m128i v = _mm_xor_si128(_mm_shuffle_epi8(s, LD(vp_rot2[m])), _mm_shuffle_epi8(s, LD(vp_rot3m[m])));
#ifndef AESKIT_MSAN_CT /* MSan checks asm operands as uses; the barrier only schedules */
    __asm__("" : "+x"(a), "+x"(v));
#endif
    return _mm_xor_si128(_mm_xor_si128(a, _mm_shuffle_epi8(t, LD(vp_rot1[m]))), v);
}

/* Encrypts nb (1..4, a constant after inlining) blocks in registers.  The
 * state stays in the tower basis from the whitening to the last round
 * (MixColumns, byte moves and key XORs are linear, so they commute with M;
 * the middle round keys are stored as M(...)).  One block alone is bound by
 * the round's latency and takes vp_one_tail; several blocks are bound by
 * the vector ports and use the form with two byte moves and four lookups. */
/* Rounds 1 .. rounds-1 on tower-basis states. */
VP_INLINE void vp_enc_mid(const ak_aes *k, __m128i *x, int nb)
{
    const ak_vpaes_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    for (unsigned r = 1; r < rounds; r++) {
        const unsigned m = r & 3;
        const __m128i r1 = LD(vp_rot1[m]), r2 = LD(vp_rot2[m]), kr = LD(K->enc[r]);
        for (int b = 0; b < nb; b++) {
            __m128i io, jo;
            vp_core(x[b], &io, &jo);
            if (nb == 1) {
                x[b] = vp_one_tail(io, jo, kr, m);
                continue;
            }
            __m128i s = PAIR(T_MS_IO, io, jo), d = PAIR(T_MS2_IO, io, jo);
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
    const ak_vpaes_key *K = ssse3_key(k);
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
    const ak_vpaes_key *K = ssse3_key(k);
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

/* ---- The same rounds on ymm: two blocks per register ---------------------
 * Every step above is a PSHUFB, AND, XOR or 16-bit shift, and VPSHUFB on
 * ymm looks up each 128-bit lane in the same lane of its table register, so
 * the rounds run unchanged on a register holding blocks 2j (low lane) and
 * 2j + 1 (high lane) once every table, byte-move index and round key is
 * broadcast to both lanes (vbroadcasti128 from the 16-byte rows: the key
 * format is the one above).  Only the parallel modes use them, nb ymm
 * registers (2 nb blocks) per step; every function here carries VP2_TARGET. */
#define VP2_TARGET __attribute__((target("avx2")))
#define VP2_INLINE static inline __attribute__((always_inline)) VP2_TARGET

/* A 16-byte row (table, index or round key) in both lanes. */
VP2_INLINE __m256i bc2(const uint8_t *p)
{
    return _mm256_broadcastsi128_si256(LD(p));
}

/* Table t looked up by the bytes of v (each < 16, or >= 0x80 for zero). */
VP2_INLINE __m256i shuf2(int t, __m256i v)
{
    return _mm256_shuffle_epi8(bc2(vp_tab[t]), v);
}

VP2_INLINE __m256i pair2(int t, __m256i io, __m256i jo)
{
    return _mm256_xor_si256(shuf2(t, io), shuf2(t + 1, jo));
}

/* vp_lin on both lanes. */
VP2_INLINE __m256i vp2_lin(__m256i x, int lo, int hi)
{
    const __m256i m0f = _mm256_set1_epi8(0x0f);
    __m256i xl = _mm256_and_si256(x, m0f), xh = _mm256_and_si256(_mm256_srli_epi16(x, 4), m0f);
    return _mm256_xor_si256(shuf2(lo, xl), shuf2(hi, xh));
}

/* vp_core on both lanes. */
VP2_INLINE void vp2_core(__m256i t, __m256i *io, __m256i *jo)
{
    const __m256i m0f = _mm256_set1_epi8(0x0f);
    __m256i i = _mm256_and_si256(t, m0f), k = _mm256_and_si256(_mm256_srli_epi16(t, 4), m0f);
    __m256i j = _mm256_xor_si256(i, k);
    __m256i ak = shuf2(T_AINV, k);
    __m256i p = _mm256_xor_si256(shuf2(T_INV, i), ak), q = _mm256_xor_si256(shuf2(T_INV, j), ak);
    *io = _mm256_xor_si256(shuf2(T_INV, p), j);
    *jo = _mm256_xor_si256(shuf2(T_INV, q), i);
}

/* vp_encrypt's several-block form on nb ymm registers. */
VP2_INLINE void vp2_encrypt(const ak_aes *k, __m256i *x, int nb)
{
    const ak_vpaes_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    const __m256i k0 = bc2(K->enc[0]);
    for (int b = 0; b < nb; b++)
        x[b] = vp2_lin(_mm256_xor_si256(x[b], k0), T_IN_LO, T_IN_HI);
    for (unsigned r = 1; r < rounds; r++) {
        const unsigned m = r & 3;
        const __m256i r1 = bc2(vp_rot1[m]), r2 = bc2(vp_rot2[m]), kr = bc2(K->enc[r]);
        for (int b = 0; b < nb; b++) {
            __m256i io, jo;
            vp2_core(x[b], &io, &jo);
            __m256i s = pair2(T_MS_IO, io, jo), d = pair2(T_MS2_IO, io, jo);
            /* b = h ^ rot1(h ^ s), h = d ^ rot2 s, as in vp_enc_mid */
            __m256i h = _mm256_xor_si256(d, _mm256_shuffle_epi8(s, r2));
            __m256i e = _mm256_shuffle_epi8(_mm256_xor_si256(h, s), r1);
            x[b] = _mm256_xor_si256(_mm256_xor_si256(h, kr), e);
        }
    }
    const __m256i kr = bc2(K->enc[rounds]), fix = bc2(vp_sr[rounds & 3]);
    for (int b = 0; b < nb; b++) {
        __m256i io, jo;
        vp2_core(x[b], &io, &jo);
        x[b] = _mm256_shuffle_epi8(_mm256_xor_si256(pair2(T_S_IO, io, jo), kr), fix);
    }
}

/* vp_decrypt on nb ymm registers. */
VP2_INLINE void vp2_decrypt(const ak_aes *k, __m256i *x, int nb)
{
    const ak_vpaes_key *K = ssse3_key(k);
    const unsigned rounds = k->rounds;
    const __m256i isr = bc2(vp_sr[3]), r1 = bc2(vp_rot1[0]), r2 = bc2(vp_rot2[0]), r3 = bc2(vp_rot3m[0]);
    const __m256i kn = bc2(K->dec[rounds]);
    for (int b = 0; b < nb; b++)
        x[b] = vp2_lin(_mm256_shuffle_epi8(_mm256_xor_si256(x[b], kn), isr), T_DN_LO, T_DN_HI);
    for (unsigned r = rounds - 1; r > 0; r--) {
        const __m256i kr = bc2(K->dec[r]);
        for (int b = 0; b < nb; b++) {
            __m256i io, jo;
            vp2_core(x[b], &io, &jo);
            __m256i e = pair2(T_DE_IO, io, jo), bb = pair2(T_DB_IO, io, jo);
            __m256i dd = pair2(T_DD_IO, io, jo), nn = pair2(T_D9_IO, io, jo);
            e = _mm256_xor_si256(_mm256_xor_si256(e, kr), _mm256_shuffle_epi8(bb, r1));
            dd = _mm256_xor_si256(_mm256_shuffle_epi8(dd, r2), _mm256_shuffle_epi8(nn, r3));
            x[b] = _mm256_shuffle_epi8(_mm256_xor_si256(e, dd), isr);
        }
    }
    const __m256i k0 = bc2(K->dec[0]);
    for (int b = 0; b < nb; b++) {
        __m256i io, jo;
        vp2_core(x[b], &io, &jo);
        x[b] = _mm256_xor_si256(pair2(T_I_IO, io, jo), k0);
    }
}

/* ymm registers per step of the wide path (2 VP2_NB blocks).  8 registers
 * (16 blocks) were measured against 4 (docs/performance.md, issue 19): no
 * faster (0.89-1.07x, within the noise), as 8 states and their temporaries
 * do not fit 16 ymm registers (56 stack operands in the CTR loop). */
#define VP2_NB 4
#define VP2_BLOCKS (2 * VP2_NB)

/* Two blocks from two xmm values: a in the low lane (the first block in
 * memory), b in the high lane. */
VP2_INLINE __m256i join2(__m128i a, __m128i b)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
}

#define LOADU2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STOREU2(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

/* Wide steps a parallel call of n blocks runs first (0 on the 4-block
 * width); the last n mod VP2_BLOCKS blocks go through the 4/2/1 steps. */
static inline size_t vp2_steps(const ak_aes *k, size_t n)
{
    return ssse3_width(k) == VP_W8 ? n / VP2_BLOCKS : 0;
}

/* Moves n blocks and the pointers past the steps the wide code did. */
static inline void vp2_advance(size_t steps, size_t *n, const uint8_t **in, uint8_t **out)
{
    *n -= steps * VP2_BLOCKS;
    *in += 16 * VP2_BLOCKS * steps;
    *out += 16 * VP2_BLOCKS * steps;
}

/* ECB on whole wide steps: steps * VP2_BLOCKS blocks. */
VP2_TARGET static void vp2_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t steps, int dec)
{
    __m256i x[VP2_NB];
    for (; steps; steps--, in += 16 * VP2_BLOCKS, out += 16 * VP2_BLOCKS) {
        for (int b = 0; b < VP2_NB; b++)
            x[b] = LOADU2(in + 32 * b);
        if (dec)
            vp2_decrypt(k, x, VP2_NB);
        else
            vp2_encrypt(k, x, VP2_NB);
        for (int b = 0; b < VP2_NB; b++)
            STOREU2(out + 32 * b, x[b]);
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

VP_TARGET static void vp_serial_keys(ak_ssse3_key *KS, unsigned n);

VP_TARGET static void vp_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint8_t rk[240], t[16];
    ak_ssse3_key *KS = ssse3_key_mut(k);
    ak_vpaes_key *K = &KS->vp;
    memset(k->data, 0, sizeof k->data);
    KS->width = vp_pick_width();
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
    vp_serial_keys(KS, n);
    aeskit_memzero(rk, sizeof rk);
    aeskit_memzero(t, sizeof t);
}

/* ---- Modes ------------------------------------------------------------------ */

VP_TARGET static void vp_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    __m128i x[4];
    size_t steps = vp2_steps(k, n);
    if (steps) {
        vp2_ecb(k, out, in, steps, dec);
        vp2_advance(steps, &n, &in, &out);
    }
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

/* ---- Serial modes: one block at a time ------------------------------------
 * CBC encryption and CBC-MAC (CMAC, CCM's MAC) are one chain of rounds, so
 * the depth of a round's chain sets their pace, not its operation count:
 * on Zen 5 every vector operation here (PSHUFB, PXOR, PAND, PSRLW) takes 2
 * cycles and one block leaves the ports mostly idle.
 *
 * Two nibble vectors.  Between rounds the state is carried as i = t & 15
 * and k = t >> 4 of the tower byte t, not as t: selecting a nibble is
 * GF(2)-linear and bytewise, so it commutes with the byte moves and the key
 * XORs, and each lookup of the round's sum has an i table and a k table
 * (vp_ntab).  The round computes the sum twice, once per nibble, and the
 * next core starts from i and k with no split (PAND, and PSRLW then PAND,
 * which were two levels on the chain).
 *
 * The round key moved before the rotations.  The round's sum is
 *   b = (h ^ s) ^ P h ^ P^2 s ^ P^3 s ^ K,  s = S, h = 3 S (2 S = h ^ s),
 * P the byte move rot1[m] (rot2 = P^2, rot3m = P^3, P^4 = 1).  Adding c to
 * s instead adds (1 + P^2 + P^3) c, and 1 + x^2 + x^3 is a unit of
 * GF(2)[x]/(x^4 + 1) with inverse 1 + x + x^2 (their product is
 * 1 + x + x^5 = 1), so with c = K'' = K ^ P K ^ P^2 K (vp_serial_keys)
 *   b = (h ^ s'') ^ P h ^ P^2 s'' ^ P^3 s'',  s'' = (S_io ^ K'') ^ S_jo,
 * and the key XOR waits for the io lookup, which is ready a level before
 * the jo one, instead of taking a level of its own at the end.
 *
 * Depth, in operations from the round's i and k: the core gives io at 4
 * and jo at 5 (a/k, 1/i, j at 1; p at 2; q, 1/p at 3; io, 1/q at 4), the
 * pairs s'' and h at 7, their sum and the three byte moves at 8, two XOR
 * levels: 10, against 13 for one byte vector with the key XOR last.  Per
 * round 38 operations (core 10, two sums of 14), 19 of them PSHUFB; the
 * six byte moves become ready together and queue where PSHUFB has two
 * pipes (Zen 5, Golden Cove), which costs about one more level.
 *
 * Block boundary.  The chaining value goes from the last round's io, jo to
 * the next block's i and k as
 *   M(E(s) ^ p ^ K0) = SR^j(M(S) ^ M(K'_n) ^ SR^-j M(p ^ K0)),
 * the input term u = M(K'_n) ^ SR^-j M(p ^ K0) XORed into the io lookup, so
 * the boundary is two levels after jo plus the byte move SR^j.  The
 * AES-basis output is computed beside it where a mode needs it (every CBC
 * block, the last CBC-MAC block). */
enum { NT_MS_IO, NT_MS_JO, NT_MS3_IO, NT_MS3_JO, NT_PER_NIBBLE };
static const uint8_t vp_ntab[2][NT_PER_NIBBLE][16] __attribute__((aligned(16))) = {
    {
        {0x00, 0x02, 0x0e, 0x00, 0x06, 0x0a, 0x0e, 0x0c, 0x02, 0x04, 0x04, 0x0a, 0x08, 0x08, 0x06, 0x0c}, /* ms_io_i */
        {0x00, 0x0e, 0x0d, 0x0f, 0x04, 0x08, 0x02, 0x0c, 0x01, 0x05, 0x0a, 0x07, 0x06, 0x09, 0x0b, 0x03}, /* ms_jo_i */
        {0x00, 0x02, 0x09, 0x03, 0x08, 0x00, 0x0a, 0x08, 0x01, 0x09, 0x0a, 0x03, 0x02, 0x01, 0x0b, 0x0b}, /* ms3_io_i */
        {0x00, 0x04, 0x07, 0x07, 0x02, 0x06, 0x00, 0x04, 0x03, 0x01, 0x06, 0x01, 0x02, 0x05, 0x05, 0x03}, /* ms3_jo_i */
    },
    {
        {0x00, 0x0d, 0x0f, 0x08, 0x03, 0x09, 0x07, 0x0a, 0x05, 0x06, 0x0e, 0x01, 0x04, 0x0c, 0x0b, 0x02}, /* ms_io_k */
        {0x00, 0x00, 0x02, 0x0e, 0x0a, 0x06, 0x0c, 0x0c, 0x0e, 0x04, 0x0a, 0x08, 0x06, 0x08, 0x04, 0x02}, /* ms_jo_k */
        {0x00, 0x0a, 0x0c, 0x0c, 0x00, 0x0a, 0x00, 0x0a, 0x06, 0x06, 0x0a, 0x06, 0x00, 0x0c, 0x0c, 0x06}, /* ms3_io_k */
        {0x00, 0x0d, 0x02, 0x00, 0x0c, 0x03, 0x02, 0x0f, 0x0d, 0x01, 0x01, 0x03, 0x0e, 0x0e, 0x0c, 0x0f}, /* ms3_jo_k */
    },
};
enum { VP_NIB_I, VP_NIB_K };

/* The value v, opaque to the compiler: it keeps the grouping of an XOR sum
 * as written (GCC otherwise regroups XOR chains, which can put the operand
 * ready last one XOR deeper). */
VP_INLINE __m128i vp_pin(__m128i v)
{
#ifndef AESKIT_MSAN_CT /* MSan checks asm operands as uses; the barrier only schedules */
    __asm__("" : "+x"(v));
#endif
    return v;
}

/* Nibble n (VP_NIB_I or VP_NIB_K) of the middle round's sum (above), from
 * io, jo and that nibble of K'' (kf). */
VP_INLINE __m128i vp_nib_tail(int n, __m128i io, __m128i jo, __m128i kf, unsigned m)
{
    const uint8_t(*t)[16] = vp_ntab[n];
    __m128i sk = vp_pin(_mm_xor_si128(_mm_shuffle_epi8(LD(t[NT_MS_IO]), io), kf));
    __m128i s = _mm_xor_si128(sk, _mm_shuffle_epi8(LD(t[NT_MS_JO]), jo));
    __m128i h = _mm_xor_si128(_mm_shuffle_epi8(LD(t[NT_MS3_IO]), io), _mm_shuffle_epi8(LD(t[NT_MS3_JO]), jo));
    __m128i x = _mm_xor_si128(vp_pin(_mm_xor_si128(h, s)), _mm_shuffle_epi8(h, LD(vp_rot1[m])));
    __m128i v = _mm_xor_si128(_mm_shuffle_epi8(s, LD(vp_rot2[m])), _mm_shuffle_epi8(s, LD(vp_rot3m[m])));
    return _mm_xor_si128(vp_pin(x), vp_pin(v));
}

/* Nibble n of the next block's first state, SR^j(M(S) ^ u) (above), with
 * that nibble of u. */
VP_INLINE __m128i vp_nib_next(int n, __m128i io, __m128i jo, __m128i un, __m128i fix)
{
    const uint8_t(*t)[16] = vp_ntab[n];
    __m128i su = vp_pin(_mm_xor_si128(_mm_shuffle_epi8(LD(t[NT_MS_IO]), io), un));
    return _mm_shuffle_epi8(_mm_xor_si128(su, _mm_shuffle_epi8(LD(t[NT_MS_JO]), jo)), fix);
}

/* ak_ssse3_key.kf: K'' (above) of each middle round key, split. */
VP_TARGET static void vp_serial_keys(ak_ssse3_key *KS, unsigned n)
{
    for (unsigned r = 1; r < n; r++) {
        __m128i kr = LD(KS->vp.enc[r]), ki, kk;
        __m128i kf = _mm_xor_si128(_mm_xor_si128(kr, _mm_shuffle_epi8(kr, LD(vp_rot1[r & 3]))),
                                   _mm_shuffle_epi8(kr, LD(vp_rot2[r & 3])));
        vp_split(kf, &ki, &kk);
        _mm_store_si128((__m128i *)(void *)KS->kf[r][VP_NIB_I], ki);
        _mm_store_si128((__m128i *)(void *)KS->kf[r][VP_NIB_K], kk);
    }
}

VP_TARGET static void vp_serial(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                uint8_t chain[16])
{
    const ak_vpaes_key *K = ssse3_key(k);
    const ak_ssse3_key *KS = (const ak_ssse3_key *)(const void *)k->data;
    const unsigned rounds = k->rounds;
    const __m128i k0 = LD(K->enc[0]), kn = LD(K->enc[rounds]), knt = LD(K->last);
    const __m128i fix = LD(vp_sr[rounds & 3]), unfix = LD(vp_sr[(4 - (rounds & 3)) & 3]);
    __m128i e = LOADU(chain), xi, xk;
    vp_split(vp_lin(_mm_xor_si128(_mm_xor_si128(e, LOADU(in)), k0), T_IN_LO, T_IN_HI), &xi, &xk);
    for (size_t b = 0; b < n; b++) {
        __m128i io, jo, ui, uk;
        /* the next block's input term u (at the last block its own, unused) */
        __m128i p = LOADU(in + 16 * (b + 1 < n ? b + 1 : b));
        vp_split(_mm_xor_si128(_mm_shuffle_epi8(vp_lin(_mm_xor_si128(p, k0), T_IN_LO, T_IN_HI), unfix), knt), &ui,
                 &uk);
        for (unsigned r = 1; r < rounds; r++) {
            const unsigned m = r & 3;
            vp_core_ik(xi, xk, &io, &jo);
            xi = vp_nib_tail(VP_NIB_I, io, jo, LD(KS->kf[r][VP_NIB_I]), m);
            xk = vp_nib_tail(VP_NIB_K, io, jo, LD(KS->kf[r][VP_NIB_K]), m);
        }
        vp_core_ik(xi, xk, &io, &jo);
        if (b + 1 < n) {
            xi = vp_nib_next(VP_NIB_I, io, jo, ui, fix);
            xk = vp_nib_next(VP_NIB_K, io, jo, uk, fix);
        }
        if (out || b + 1 == n) {
            e = _mm_shuffle_epi8(_mm_xor_si128(PAIR(T_S_IO, io, jo), kn), fix);
            if (out)
                STOREU(out + 16 * b, e);
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

/* ---- Parallel modes: 8-block ymm steps (AVX2 keys), then 4, 2 and 1 ------ */

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

/* The counter block after c = (hi, lo) advanced by b, with no branch on
 * the counter (GCM's J0 is a hash under the key when the IV is not 96
 * bits): wide = 0 is GCM's inc32, 1 the 128-bit increment. */
VP_INLINE __m128i ctr_block(uint64_t hi, uint64_t lo, uint64_t b, int wide)
{
    uint64_t l, h = hi;
    if (wide) {
        l = lo + b;
        h += l < lo;
    } else {
        l = (lo & 0xffffffff00000000u) | (uint32_t)(lo + b);
    }
    return _mm_shuffle_epi8(_mm_set_epi64x((long long)l, (long long)h), LD(vp_bswap64));
}

/* (hi, lo) advanced by b. */
static inline void ctr_add(uint64_t *hi, uint64_t *lo, uint64_t b, int wide)
{
    if (wide) {
        uint64_t l = *lo + b;
        *hi += l < *lo;
        *lo = l;
    } else {
        *lo = (*lo & 0xffffffff00000000u) | (uint32_t)(*lo + b);
    }
}

/* CTR on whole wide steps (counter blocks as in ctr_block). */
VP2_TARGET static void vp2_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t steps,
                               uint64_t *hi, uint64_t *lo, int wide)
{
    __m256i x[VP2_NB];
    for (; steps; steps--, in += 16 * VP2_BLOCKS, out += 16 * VP2_BLOCKS) {
        for (int b = 0; b < VP2_NB; b++)
            x[b] = join2(ctr_block(*hi, *lo, 2 * (uint64_t)b, wide),
                         ctr_block(*hi, *lo, 2 * (uint64_t)b + 1, wide));
        ctr_add(hi, lo, VP2_BLOCKS, wide);
        vp2_encrypt(k, x, VP2_NB);
        for (int b = 0; b < VP2_NB; b++)
            STOREU2(out + 32 * b, _mm256_xor_si256(x[b], LOADU2(in + 32 * b)));
    }
}

/* CBC decryption on whole wide steps.  The register of blocks 2b, 2b + 1 is
 * XORed with the ciphertext blocks 2b - 1, 2b (the chaining value *prev
 * before block 0); every load of a step precedes its stores (out == in). */
VP2_TARGET static void vp2_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                       size_t steps, __m128i *prev)
{
    __m256i x[VP2_NB], c[VP2_NB];
    for (; steps; steps--, in += 16 * VP2_BLOCKS, out += 16 * VP2_BLOCKS) {
        c[0] = join2(*prev, LOADU(in));
        for (int b = 0; b < VP2_NB; b++)
            x[b] = LOADU2(in + 32 * b);
        for (int b = 1; b < VP2_NB; b++)
            c[b] = LOADU2(in + 32 * b - 16);
        *prev = LOADU(in + 16 * (VP2_BLOCKS - 1));
        vp2_decrypt(k, x, VP2_NB);
        for (int b = 0; b < VP2_NB; b++)
            STOREU2(out + 32 * b, _mm256_xor_si256(x[b], c[b]));
    }
}

/* CTR: counter blocks are built from the counter in two words (big-endian
 * halves hi, lo; no branch on them); wide = 0 is GCM's inc32, 1 the
 * 128-bit one. */
VP_TARGET static void vp_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                             uint8_t ctr[16], int wide)
{
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    __m128i x[4];
    size_t steps = vp2_steps(k, n);
    if (steps) {
        vp2_ctr(k, out, in, steps, &hi, &lo, wide);
        vp2_advance(steps, &n, &in, &out);
    }
#define CTR_STEP(i, nb)                                                                \
    do {                                                                               \
        for (int b = 0; b < (nb); b++)                                                 \
            x[b] = ctr_block(hi, lo, (uint64_t)b, wide);                               \
        ctr_add(&hi, &lo, (nb), wide);                                                 \
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
    size_t steps = vp2_steps(k, n);
    if (steps) {
        vp2_cbc_decrypt(k, out, in, steps, &prev);
        vp2_advance(steps, &n, &in, &out);
    }
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

/* XTS on whole wide steps: the tweaks of a step by the same serial
 * doubling (public cost, secret values, no branch), joined in pairs. */
VP2_TARGET static void vp2_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t steps,
                               __m128i *tweak, int dec)
{
    __m256i x[VP2_NB], tw[VP2_NB];
    __m128i t = *tweak;
    for (; steps; steps--, in += 16 * VP2_BLOCKS, out += 16 * VP2_BLOCKS) {
        for (int b = 0; b < VP2_NB; b++) {
            __m128i t1 = xts_mul_alpha(t);
            tw[b] = join2(t, t1);
            t = xts_mul_alpha(t1);
            x[b] = _mm256_xor_si256(LOADU2(in + 32 * b), tw[b]);
        }
        if (dec)
            vp2_decrypt(k, x, VP2_NB);
        else
            vp2_encrypt(k, x, VP2_NB);
        for (int b = 0; b < VP2_NB; b++)
            STOREU2(out + 32 * b, _mm256_xor_si256(x[b], tw[b]));
    }
    *tweak = t;
}

VP_TARGET static void vp_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                             uint8_t tweak[16], int dec)
{
    __m128i t = LOADU(tweak), x[4], tw[4];
    size_t steps = vp2_steps(k, n);
    if (steps) {
        vp2_xts(k, out, in, steps, &t, dec);
        vp2_advance(steps, &n, &in, &out);
    }
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
    .variant = vp_variant,
    .gcm_one_pass_max = 1024,
    .aes_setkey = vp_setkey,
    .ecb_encrypt = vp_ecb_encrypt,
    .ecb_decrypt = vp_ecb_decrypt,
    .ctr32 = vp_ctr32,
    .ctr128 = vp_ctr128,
    .cbc_encrypt = vp_cbc_encrypt,
    .cbc_decrypt = vp_cbc_decrypt,
    .cbcmac = vp_cbcmac,
    /* No multi-lane kernel: a batch's chains of one key run as lockstep
     * ECB steps of up to 8 blocks in 4 ymm (docs/performance.md). */
    .cbc_lanes_short = AK_LANES_SHORT_ANY,
    .cbc_gather_short = 4, /* docs/performance.md, "short messages of a batch share ECB calls" */
    .xts_encrypt = vp_xts_encrypt,
    .xts_decrypt = vp_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
    .gcm_batch = ak_gcm_batch_primitives,
};
