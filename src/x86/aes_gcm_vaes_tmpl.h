/*
 * aes_gcm_vaes_tmpl.h - AES and GHASH/GCM kernels written once over a small
 * vector vocabulary, instantiated for VAES+VPCLMULQDQ on zmm (AVX-512,
 * aes_vaes_avx512.c) and on ymm (AVX2, aes_vaes_avx2.c).
 *
 * CPU features: whatever the including file's AK_TGT names (VAES, VPCLMULQDQ,
 * AES-NI, PCLMULQDQ, AVX2, and for zmm AVX-512 F/BW/VL).  Every function here
 * carries that target attribute; no global -m flag is used.
 *
 * The including file defines, before #include:
 *   AK_TGT           the target() string of every function
 *   AK_LANES         128-bit lanes per vector (4 for zmm, 2 for ymm)
 *   AK_KARATSUBA     1: Karatsuba middle term, 0: schoolbook (see 5 below)
 *   vec_t, wmask_t   the vector type and a byte-window mask type
 *   the v_* vocabulary (aes_vaes_avx512.c and aes_vaes_avx2.c define the
 *   same list: loads/stores, whole and windowed, AES rounds, carry-less
 *   multiply, shuffles, 32/64/128-bit lane adds, lane sums)
 *
 * ==========================================================================
 * GHASH on carry-less multipliers: the math every x86 backend here uses
 * (x86-aesni points to this comment too).
 * ==========================================================================
 *
 * 1. The field (NIST SP 800-38D, section 6.3).  GHASH works in GF(2^128)
 *    defined by g(x) = x^128 + x^7 + x^2 + x + 1.  A 16-byte block is a
 *    polynomial whose FIRST bit (the most significant bit of byte 0) is the
 *    coefficient of x^0 and whose last bit (lsb of byte 15) is that of x^127.
 *    GHASH_H(X_1..X_n) is Y_n with Y_0 = 0 (or the running state) and
 *    Y_i = (Y_{i-1} + X_i) * H.
 *
 * 2. The bit-reflected register form (Gueron & Kounavis, "Intel Carry-Less
 *    Multiplication Instruction and its Usage for Computing the GCM Mode",
 *    Intel white paper, rev. 2.02, 2014).  We byte-swap each block (vpshufb)
 *    and read it as a little-endian 128-bit integer r(a).  Bit i of r(a)
 *    is then the coefficient of x^(127-i): the whole polynomial is stored
 *    bit-reversed.  PCLMULQDQ multiplies integers, and the carry-less product
 *    of two reversed operands is the reversed product, shifted: for
 *    Q = r(a) (x) r(b) (256 bits, top bit always 0), bit k of Q is the
 *    coefficient of x^(254-k) of a*b.
 *
 * 3. Absorbing the shift.  Rather than shift every product left by one bit
 *    (so that bit k means x^(255-k)), we multiply by b' = b * x^-1 instead of
 *    b: then Q read with "bit k <-> x^(255-k)" is x * a * b * x^-1 = a*b.
 *    Shifting r(b) left by one is exactly dividing by x; the bit pushed out
 *    (x^0) becomes x^-1 = x^127 + x^6 + x + 1, i.e. bits {0,121,126,127}:
 *    the constant 0xc2000000_00000000_00000000_00000001.  So the key
 *    schedule stores K_j = r(H^j * x^-1) = (r(H^j) << 1) ^ (msb ? 0xc2..01 : 0)
 *    (computed below as K_1 this way, then K_j = mul(K_{j-1}, K_1), which is
 *    r(H^(j-1) x^-1 * H) by the same rule).
 *
 * 4. Reduction by two multiplications (Gueron, the "0xc2..01" trick).  Now
 *    the high half of Q (bits 128..255) holds degrees 127..0 in register
 *    form already; the low half L = L1:L0 (bits 0..127) holds degrees
 *    255..128 and must be folded with x^128 = x^7 + x^2 + x + 1.  A bit at
 *    position k < 64 (degree 255-k) lands at positions k+121, k+126, k+127,
 *    k+128, so L0 contributes (L0 << 128) ^ ((L0 (x) 0xc200000000000000) << 64).
 *    In 128-bit registers, with swap() exchanging the 64-bit halves:
 *        M' = M ^ swap(L) ^ clmul(L.lo, 0xc2<<56)      (L folded into the
 *                                                       middle frame, bits 64..191)
 *        Y  = H ^ swap(M') ^ clmul(M'.lo, 0xc2<<56)    (middle folded into the top)
 *    where M is the middle term of the product (bits 64..191).  Each step
 *    folds 64 bits; the second step's products land at bit 185 or above, so
 *    two steps finish the job.  No shifts are needed at all, and both three-
 *    way XORs are one vpternlogd on AVX-512.
 *
 * 5. Karatsuba (Gueron & Kounavis, ibid.): with a = a1:a0, b = b1:b0,
 *        a*b = a1b1 x^128 + [(a1+a0)(b1+b0) + a1b1 + a0b0] x^64 + a0b0.
 *    Three multiplications instead of four; (b1+b0) is precomputed per power
 *    ("kk" below), (a1+a0) is one vpshufd+xor per vector (or, in the ymm
 *    build's fused loop, unpacks shared by two vectors: gacc_mid2).  Whether that pays
 *    depends on the ports: measured on this machine, the ymm build
 *    (AK_KARATSUBA=1) gains from it, while on zmm, where 512-bit shuffles and
 *    carry-less multiplies compete for the same port, the schoolbook middle
 *    term a1b0 + a0b1 (two multiplies, one vpternlogd) is faster and leaves
 *    room in the table for more powers (AK_KARATSUBA=0).
 *
 * 6. Aggregated reduction (Gueron, "AES-GCM software performance on the
 *    current high end CPUs as a performance baseline for CAESAR", 2013; and
 *    Drucker, Gueron, Krasnov, "Making AES great again: the forthcoming
 *    vectorized AES instruction", 2018, for the VPCLMULQDQ version).  Unrolled
 *    over n blocks, Y_n = (Y_0 + X_1) H^n + X_2 H^(n-1) + ... + X_n H.  The
 *    products are linear, so the lo/mid/hi terms of all n products (in all
 *    vector lanes) are XORed together unreduced and ONE reduction (plus one
 *    horizontal XOR of the lanes) finishes n blocks.  The table holds
 *    K_NPOW..K_1 in descending order, so n <= NPOW blocks starting at table
 *    entry NPOW-n line up with consecutive lanes, whatever the vector width.
 *    The fused GCM loops reduce once per two batches (2*BATCH blocks), or
 *    once per four on zmm while four remain, carrying the state between
 *    reductions "lane-scaled" (derived at gcm_body: lane l holds a value
 *    that counts as y_l * H^-l, so no horizontal sum is needed in the loop).
 *
 * Table layout in ak_ghash.data (1024 bytes): entry e (0..NPOW-1) at 16*e is
 * K_{NPOW-e}; NPOW = 32 without Karatsuba, 28 with it, when the half-sums
 * follow at GH_KK + 16*e: k1^k0 of entry e in the low half, of entry e+2
 * (zero past the end) in the high half, so that the middle products of two
 * vectors one apart can share one vector of data half-sums (gacc_mid2).  Without Karatsuba the
 * powers K_{2*BATCH + AK_LANES*(2*NV - j)}, j < 2*NV (K_64, K_60, .., K_36 on
 * zmm), follow at GH_UNI + VB*j, for the lane-scaled four-batch folds of
 * gcm_body.  Reads of up to 3 entries past the end of either array only
 * meet zero data lanes (whatever powers lie there), and stay inside the
 * 1024 bytes.  Other work with the same ideas, read for comparison (no
 * code taken): Linux arch/x86/crypto/aes-gcm-avx10-x86_64.S, Intel ipsec-mb,
 * OpenSSL and BoringSSL's VAES GCM.
 *
 * GCM's counters (SP 800-38D inc32) are kept byte-swapped, i.e. as little-
 * endian 128-bit integers, so a vector add on the low 32-bit lane is exactly
 * inc32, wrapping modulo 2^32 with no carry into the upper 96 bits; one
 * vpshufb per vector turns them back into blocks (see gctr below: the
 * counter may be secret).  The one exception is the whole-message path
 * with a 96-bit IV, whose counters IV || 2, IV || 3, ... are public: it
 * forms them from a big-endian base block without the vpshufb, branching
 * on the low counter byte (gctrp).  The last round key is XORed into the data
 * (or tweak, or chaining value) so vaesenclast does the final XOR for free.
 *
 * Constant time.  Secrets here: the AES key and round keys, H and its
 * powers, plaintext, ciphertext being opened, GHASH state, tags, XTS tweaks
 * and the CTR/GCM counters (J0 = GHASH_H(IV) for IVs other than 96 bits).
 * Valgrind cannot run VAES, so this was checked by reading every function of
 * this file and both v_* vocabularies (2026-11-30) plus dudect timing:
 *  - branches: only on lengths (nb, len, aad_len, nA, nC, m, nt, rem and
 *    the window bounds derived from them), the round count (ROUNDS_SWITCH,
 *    loop bounds) and compile-time constants (enc/dec, NVEC, j == 0);
 *    the key schedule's `i % nk` and rcon depend on the key length only;
 *  - memory indices: round-key and H-power table offsets depend on the
 *    round count and block counts; the AVX2 tail mask table (v_and_w) and
 *    byte copies (v_load_w/v_store_w) are indexed by window bounds, i.e.
 *    lengths; v_lane_select's mask (AVX-512 branch) by nt, a length;
 *  - no table lookups: SubWord and all S-boxes are AES-NI/VAES
 *    instructions, GHASH is carry-less multiplication, the H-doubling carry
 *    in ghash_init is an arithmetic-shift mask;
 *  - counters: ctr32 and the fused GCM kernels form every counter by a
 *    32-bit lane add and one vpshufb, with no branch on the counter value
 *    (gcm_body with pub = 0: the streaming vaes_gcm_encrypt/decrypt, whose
 *    J0 may be GHASH_H(IV)); only gcm_body with pub = 1, reached from
 *    gcm_long (96-bit IV, J0 = IV || 1: public) branches once per batch on
 *    whether the low counter byte can carry (gctrp_next); ctr128 branches
 *    once per call on whether the low word wraps, on purpose: its callers
 *    (CTR, CCM) have public counters, never GCM's; the returned counters
 *    are computed with plain adds;
 *  - vaes_setkey wipes its stack copy of the schedule; tags are not
 *    compared here (the mode layer uses ak_ct_eq_mask).
 */

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#define IFN static inline __attribute__((always_inline, target(AK_TGT)))
#define KFN static __attribute__((target(AK_TGT)))

#define NV 4                      /* vectors per AES/GCM batch */
#define BATCH (NV * AK_LANES)     /* blocks per AES/GCM batch */
#define VB (16 * AK_LANES)        /* bytes per vector */
#ifndef AK_KARATSUBA
#define AK_KARATSUBA 0
#endif
#if AK_KARATSUBA
#define NPOW 28                   /* powers of H in the table */
#define GH_KK 448                 /* offset of the Karatsuba half-sums */
#else
#define NPOW 32
/* Without Karatsuba the table has room for the lane-scaled powers of a
 * four-batch run (see gcm_body): K_{4*BATCH - AK_LANES*j}, j < 2*NV, at
 * GH_UNI + VB*j, so that they line up with vector j like the descending
 * table does (stitch reads lane 0 of pw + VB*j). */
#define GH_UNI (16 * NPOW)
#define GCM_QUAD 1
_Static_assert(GH_UNI + VB * (2 * NV - 1) + 16 <= 1024, "lane-scaled powers fit ak_ghash.data");
#endif
#ifndef GCM_QUAD
#define GCM_QUAD 0
#endif
#ifndef AK_W_BEHIND
#define AK_W_BEHIND 0 /* 1: v_load_w_behind/v_store_w_behind exist (gcm_tail_xor) */
#endif
#ifndef AK_STITCH_SPREAD
#define AK_STITCH_SPREAD 0 /* 1: stitch multiplies one vector at a time (see there) */
#endif
#if AK_STITCH_SPREAD && !AK_KARATSUBA
#error "AK_STITCH_SPREAD is written for the Karatsuba (ymm) build"
#endif
#define NVG (NPOW / AK_LANES)     /* vectors per GHASH-only batch */
#define RK_ENC 0                  /* offsets in ak_aes.data: encryption schedule, */
#define RK_DEC 256                /* decryption schedule (AESIMC'd), */
#define RK_ENCV 512               /* encryption keys broadcast to full vectors */
_Static_assert(RK_ENCV + 15 * VB <= AK_AES_DATA_BYTES, "round keys fit ak_aes.data");

#define ROUNDS_SWITCH(R, CALL) \
    do {                       \
        switch (R) {           \
        case 10: CALL(10); break; \
        case 12: CALL(12); break; \
        default: CALL(14); break; \
        }                      \
    } while (0)

/* Window loads and stores (see v_wmask in the including file). */
IFN vec_t v_load_window(const void *p, ptrdiff_t off, size_t n) { return v_load_w(p, off, v_wmask(off, n)); }
IFN void v_store_window(void *p, ptrdiff_t off, size_t n, vec_t v) { v_store_w(p, off, v_wmask(off, n), v); }
IFN vec_t v_and_window(vec_t v, ptrdiff_t off, size_t n) { return v_and_w(v, v_wmask(off, n)); }

/* ---- 128-bit helpers ------------------------------------------------------ */

IFN __m128i x_bswap_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
IFN __m128i x_load(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
IFN void x_store(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }

/* Unreduced product sums (see 4-5 above): lo, mid, hi. */
typedef struct { vec_t lo, mid, hi; } gacc;

IFN void gacc_zero(gacc *a)
{
    a->lo = v_zero();
    a->mid = v_zero();
    a->hi = v_zero();
}

/* a += x * (powers at pw), x already in register form. */
IFN void gacc_mul(gacc *a, vec_t x, const uint8_t *pw)
{
    vec_t h = v_loadu(pw);
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
#if AK_KARATSUBA
    vec_t hk = v_loadu(pw + GH_KK);
    a->mid = v_xor(a->mid, v_clmul(v_xor(x, v_swap64(x)), hk, 0x00));
#else
    a->mid = v_xor3(a->mid, v_clmul(x, h, 0x01), v_clmul(x, h, 0x10));
#endif
}

/* a (+)= x0 * (powers at pw0) + x1 * (powers at pw1).  Two products at a
 * time so that each accumulator takes both products' terms in one three-way
 * XOR (one vpternlogd on AVX-512): 4 XORs per 8 multiplies instead of 6, on
 * the ports the AES rounds need.  `first` (a compile-time constant) starts
 * the sums instead of adding to them. */
IFN void gacc_mul2(gacc *a, vec_t x0, const uint8_t *pw0, vec_t x1, const uint8_t *pw1, const int first,
                   const int uni)
{
    /* uni: every lane of x0 takes lane 0's power (see "lane-scaled" at gcm_body) */
    vec_t h0 = uni ? v_bcast(pw0) : v_loadu(pw0), h1 = uni ? v_bcast(pw1) : v_loadu(pw1);
    vec_t l0 = v_clmul(x0, h0, 0x00), l1 = v_clmul(x1, h1, 0x00);
    vec_t u0 = v_clmul(x0, h0, 0x11), u1 = v_clmul(x1, h1, 0x11);
#if AK_KARATSUBA
    vec_t k0 = uni ? v_bcast(pw0 + GH_KK) : v_loadu(pw0 + GH_KK);
    vec_t k1 = uni ? v_bcast(pw1 + GH_KK) : v_loadu(pw1 + GH_KK);
    vec_t m0 = v_clmul(v_xor(x0, v_swap64(x0)), k0, 0x00);
    vec_t m1 = v_clmul(v_xor(x1, v_swap64(x1)), k1, 0x00);
    a->mid = first ? v_xor(m0, m1) : v_xor3(a->mid, m0, m1);
#else
    vec_t m0a = v_clmul(x0, h0, 0x01), m0b = v_clmul(x0, h0, 0x10);
    vec_t m1a = v_clmul(x1, h1, 0x01), m1b = v_clmul(x1, h1, 0x10);
    a->mid = first ? v_xor(v_xor3(m0a, m0b, m1a), m1b) : v_xor3(v_xor3(a->mid, m0a, m0b), m1a, m1b);
#endif
    a->lo = first ? v_xor(l0, l1) : v_xor3(a->lo, l0, l1);
    a->hi = first ? v_xor(u0, u1) : v_xor3(a->hi, u0, u1);
}

#if AK_STITCH_SPREAD
/* The lo and hi products of x (Karatsuba: the middle one comes from
 * gacc_mid2). */
IFN void gacc_lohi(gacc *a, vec_t x, const uint8_t *pw, const int first, const int uni)
{
    vec_t h = uni ? v_bcast(pw) : v_loadu(pw);
    vec_t l = v_clmul(x, h, 0x00), u = v_clmul(x, h, 0x11);
    a->lo = first ? l : v_xor(a->lo, l);
    a->hi = first ? u : v_xor(a->hi, u);
}

/* The Karatsuba middle products of xa (powers at pw) and xb (powers at
 * pw + VB, i.e. table entries two further on) from ONE vector of half-sums:
 * t = [xa1^xa0, xb1^xb0] per lane by two unpacks and one XOR, where each
 * vector alone takes a vpshufd and an XOR (3 instructions for two vectors
 * instead of 4), against [kk_e, kk_{e+2}] from the half-sum table.
 * Measured (interleaved A/B, AES-128, x86-vaes-avx2, four runs, against
 * a vpshufd and an XOR per vector in the same stitch): opening 16 KiB 5%
 * faster, sealing within the noise (the loop has 174 vector ALU
 * instructions per 16 blocks instead of 178, and the ports are the limit:
 * 80 of them are AES rounds on the two AES ports). */
IFN void gacc_mid2(gacc *a, vec_t xa, vec_t xb, const uint8_t *pw, const int first, const int uni)
{
    vec_t t = v_xor(v_unpacklo64(xa, xb), v_unpackhi64(xa, xb));
    vec_t k = uni ? v_bcast(pw + GH_KK) : v_loadu(pw + GH_KK);
    vec_t ma = v_clmul(t, k, 0x00), mb = v_clmul(t, k, 0x11);
    a->mid = first ? v_xor(ma, mb) : v_xor(v_xor(a->mid, ma), mb);
}
#endif

/* (Karatsuba fix-up,) two-multiply reduction in every lane; the lanes are
 * left unsummed (gcm_body carries them lane-scaled; v_hxor sums them). */
IFN vec_t gacc_reduce_v(gacc a)
{
    const vec_t c = v_bcast_x(_mm_set1_epi64x((long long)0xc200000000000000ULL));
#if AK_KARATSUBA
    vec_t mid = v_xor3(a.mid, a.lo, a.hi);
#else
    vec_t mid = a.mid;
#endif
    mid = v_xor3(mid, v_swap64(a.lo), v_clmul(a.lo, c, 0x00));
    return v_xor3(a.hi, v_swap64(mid), v_clmul(mid, c, 0x00));
}

IFN __m128i gacc_reduce(gacc a) { return v_hxor(gacc_reduce_v(a)); }

/* 128-bit multiply, for key setup and single blocks: r(a*b') with b' = K. */
IFN __m128i x_gmul(__m128i a, __m128i k)
{
    const __m128i c = _mm_set1_epi64x((long long)0xc200000000000000ULL);
    __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x01), _mm_clmulepi64_si128(a, k, 0x10));
    mid = _mm_xor_si128(mid, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, c, 0x00)));
    return _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mid, 0x4e), _mm_clmulepi64_si128(mid, c, 0x00)));
}

/* ---- AES key schedule ------------------------------------------------------ */

/* SubWord via AESENCLAST: with the word in all four columns, ShiftRows is
 * the identity, so AESENCLAST(w, 0) = SubBytes(w) in every column. */
IFN uint32_t subword(uint32_t w)
{
    __m128i x = _mm_aesenclast_si128(_mm_set1_epi32((int)w), _mm_setzero_si128());
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* FIPS-197 section 5.2 KeyExpansion, words little-endian (byte 0 low), so
 * RotWord is a right rotation by 8; then the Equivalent Inverse Cipher's
 * schedule (section 5.3.5) with AESIMC for decryption. */
KFN void vaes_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint32_t w[60];
    unsigned nk = (unsigned)(key_len / 4), rounds = nk + 6, total = 4 * (rounds + 1);
    uint32_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = subword(t);
            t = ((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk > 6 && i % nk == 4) {
            t = subword(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memset(k->data, 0, sizeof k->data);
    memcpy(k->data + RK_ENC, w, 16 * (rounds + 1));
    uint8_t *dk = k->data + RK_DEC;
    x_store(dk, x_load(k->data + RK_ENC + 16 * rounds));
    for (unsigned i = 1; i < rounds; i++)
        x_store(dk + 16 * i, _mm_aesimc_si128(x_load(k->data + RK_ENC + 16 * (rounds - i))));
    x_store(dk + 16 * rounds, x_load(k->data + RK_ENC));
    /* Whole-vector copies: the hot loops load them without a shuffle. */
    for (unsigned i = 0; i <= rounds; i++)
        v_storeu(k->data + RK_ENCV + VB * i, v_bcast(k->data + RK_ENC + 16 * i));
    k->rounds = rounds;
    k->key_len = (uint32_t)key_len;
    volatile uint32_t *vw = w;
    for (unsigned i = 0; i < 60; i++)
        vw[i] = 0;
}

/* ---- round-key vectors ----------------------------------------------------- */

#define LOAD_KEYS(K, rk, R)                     \
    vec_t K[15];                                \
    _Pragma("GCC unroll 15")                    \
    for (int i_ = 0; i_ <= (R); i_++)           \
        K[i_] = v_bcast(rk + 16 * i_)

/* The same from the whole-vector copies; rk is the encryption schedule. */
#define LOAD_KEYS_V(K, rk, R)                   \
    vec_t K[15];                                \
    _Pragma("GCC unroll 15")                    \
    for (int i_ = 0; i_ <= (R); i_++)           \
        K[i_] = v_loadu(rk + (RK_ENCV - RK_ENC) + VB * i_)

/* x[0..N) = AES(x) with the final round's key replaced by K[R] ^ fin[j];
 * N = NV for whole batches, fewer for a tail (only the vectors that hold
 * data: a one-block call must not pay for a whole batch of rounds). */
IFN void enc_n(vec_t *x, const vec_t *K, const vec_t *fin, const int N, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < N; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < N; j++)
        x[j] = v_enclast(x[j], v_xor(K[R], fin[j]));
}

IFN void dec_n(vec_t *x, const vec_t *K, const vec_t *fin, const int N, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < N; j++)
            x[j] = v_dec(x[j], K[r]);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < N; j++)
        x[j] = v_declast(x[j], v_xor(K[R], fin[j]));
}

IFN void enc_batch(vec_t *x, const vec_t *K, const vec_t *fin, const int R) { enc_n(x, K, fin, NV, R); }
IFN void dec_batch(vec_t *x, const vec_t *K, const vec_t *fin, const int R) { dec_n(x, K, fin, NV, R); }

/* Calls CALL(N) with N = the number of vectors that hold n tail bytes
 * (1..NV), so every tail loop has a compile-time trip count. */
#define TAIL_SWITCH(n, CALL)                           \
    do {                                               \
        switch (((n) + VB - 1) / VB) {                 \
        case 1: CALL(1); break;                        \
        case 2: CALL(2); break;                        \
        case 3: CALL(3); break;                        \
        default: CALL(4); break;                       \
        }                                              \
    } while (0)

/* A tail of n bytes (< one batch) through N vectors of whole-block ECB-like
 * work: x = AES(window ^ pre) with the last round's key XORed with fin, so
 * ECB passes pre = K[0], fin = 0 and XTS pre = t ^ K[0], fin = t. */
IFN void window_tail(const vec_t *K, const vec_t *pre, const vec_t *fin, const uint8_t *in, uint8_t *out, size_t n,
                     int dec, const int N, const int R)
{
    vec_t x[NV];
    for (int j = 0; j < N; j++)
        x[j] = v_xor(v_load_window(in, (ptrdiff_t)(VB * j), n), pre[j]);
    if (dec)
        dec_n(x, K, fin, N, R);
    else
        enc_n(x, K, fin, N, R);
    for (int j = 0; j < N; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
}

/* ---- ECB -------------------------------------------------------------------- */

IFN void ecb_body(const uint8_t *rk, uint8_t *out, const uint8_t *in, size_t nb, int dec, const int R)
{
    LOAD_KEYS(K, rk, R);
    vec_t x[NV], zero[NV];
    for (int j = 0; j < NV; j++)
        zero[j] = v_zero();
    for (; nb >= BATCH; nb -= BATCH, in += 16 * BATCH, out += 16 * BATCH) {
        for (int j = 0; j < NV; j++)
            x[j] = v_xor(v_loadu(in + VB * j), K[0]);
        if (dec)
            dec_batch(x, K, zero, R);
        else
            enc_batch(x, K, zero, R);
        for (int j = 0; j < NV; j++)
            v_storeu(out + VB * j, x[j]);
    }
    if (nb) {
        size_t n = 16 * nb;
        vec_t k0[NV];
        for (int j = 0; j < NV; j++)
            k0[j] = K[0];
#define ECB_TAIL(N) window_tail(K, k0, zero, in, out, n, dec, (N), R)
        TAIL_SWITCH(n, ECB_TAIL);
#undef ECB_TAIL
    }
}

KFN void vaes_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
#define CALL(R) ecb_body(k->data + RK_ENC, out, in, nb, 0, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

KFN void vaes_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
#define CALL(R) ecb_body(k->data + RK_DEC, out, in, nb, 1, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

/* ---- CTR -------------------------------------------------------------------- */

/* GCM counters for the fused loops, always in register form: little-endian
 * lanes, a 32-bit vector add is inc32, one vpshufb per vector turns them
 * into blocks.  No branch looks at the counter value: for IVs other than 96
 * bits, J0 = GHASH_H(IV) (SP 800-38D 7.1 step 2), so the counter is as
 * secret as H.  (The previous form added to byte 15 of big-endian blocks
 * and took the slow path only when that byte could carry: a branch on the
 * counter.  Measured in the same run, dropping it cost nothing visible on
 * this CPU: vpshufb and vaesenc do not compete for a port.) */
typedef struct {
    vec_t le; /* the next batch's first vector of counters, register form */
} gctr;

IFN void gctr_init(gctr *s, __m128i le0) { s->le = v_add32(v_bcast_x(le0), v_lane_idx()); }

IFN void ctr_next(vec_t *x, gctr *s, const vec_t *K, vec_t bsw, vec_t step)
{
    vec_t cv = s->le;
    for (int j = 0; j < NV; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, step);
    }
    s->le = cv;
}

/* GCM counters when they are PUBLIC: only the whole-message path with a
 * 96-bit IV (gcm_long), where J0 = IV || 1 and the first data counter is
 * IV || 2 (SP 800-38D 7.1 step 2).  Never for the streaming API, whose J0
 * may be GHASH_H(IV): the branches below read the counter value.
 *
 * A batch's counters are n + i, i < BATCH, with n = 2 (mod BATCH).  Write
 * n - 2 = h, a multiple of BATCH.  While the low byte of h is at most
 * 256 - 2*BATCH, no counter of the batch carries out of byte 15, and the
 * low byte of n + i is (h + BATCH*c_i) XOR t_i, where c_i = (2+i) >= BATCH
 * and t_i = (2+i) mod BATCH: the low bits of h + BATCH*c_i are zero.  So
 * with G = the block of h (big-endian, as AES takes it) and the constant
 * vectors KN_j = K0 XOR t (per lane, byte 15), a batch's first-round inputs
 * are KN_j XOR G, or KN_j XOR (G + BATCH*c) in the one vector holding the
 * carried lanes, and G advances by BATCH in byte 15 (a 32-bit add on the
 * last dword, whose top byte is byte 15): about 1.5 vector operations per
 * vector instead of 3 (add, vpshufb, XOR).  Once in 256/BATCH batches the
 * low byte is too large: that batch is formed the register-form way and G
 * is recomputed from the scalar counter (a full inc32, carries and the
 * 2^32 wrap included). */
#define CT_LANE(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)((2 + (m)) & (BATCH - 1))
#define CT_CY(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)((2 + (m)) >= BATCH ? BATCH : 0)
#define CT_ST 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, BATCH
#if AK_LANES == 4
static const uint8_t gctrp_tab[NV + 2][VB] __attribute__((aligned(64))) = {
    {CT_LANE(0), CT_LANE(1), CT_LANE(2), CT_LANE(3)},
    {CT_LANE(4), CT_LANE(5), CT_LANE(6), CT_LANE(7)},
    {CT_LANE(8), CT_LANE(9), CT_LANE(10), CT_LANE(11)},
    {CT_LANE(12), CT_LANE(13), CT_LANE(14), CT_LANE(15)},
    {CT_CY(12), CT_CY(13), CT_CY(14), CT_CY(15)},
    {CT_ST, CT_ST, CT_ST, CT_ST},
};
#elif AK_LANES == 2
static const uint8_t gctrp_tab[NV + 2][VB] __attribute__((aligned(32))) = {
    {CT_LANE(0), CT_LANE(1)}, {CT_LANE(2), CT_LANE(3)}, {CT_LANE(4), CT_LANE(5)},
    {CT_LANE(6), CT_LANE(7)}, {CT_CY(6), CT_CY(7)},     {CT_ST, CT_ST},
};
#else
#error "gctrp_tab: AK_LANES must be 2 or 4"
#endif
#undef CT_LANE
#undef CT_CY
#undef CT_ST
/* Only the last vector holds carried lanes (2 + i >= BATCH for i >= BATCH-2). */
_Static_assert(AK_LANES >= 2, "the carried lanes fit in the last vector");

typedef struct {
    vec_t g;        /* block of the next batch's h, big-endian lanes */
    vec_t kn[NV];   /* K0 XOR t, per lane */
    vec_t cy, st;   /* BATCH in byte 15: of the carried lanes; of every lane */
    __m128i base;   /* the entry counter, register form (upper 96 bits) */
    uint32_t c;     /* low word of the next batch's first counter */
    int lim;        /* fast batch iff (c & 0xff) <= lim; -1: never */
} gctrp;

IFN __m128i gctrp_be(const gctrp *s, uint32_t w)
{
    return _mm_shuffle_epi8(_mm_insert_epi32(s->base, (int)w, 0), x_bswap_mask());
}

IFN void gctrp_init(gctrp *s, __m128i le0, const vec_t *K)
{
    s->base = le0;
    s->c = (uint32_t)_mm_cvtsi128_si32(le0);
    s->lim = (s->c & (BATCH - 1)) == 2 ? 258 - 2 * BATCH : -1;
    /* = v_bcast_x(gctrp_be(s, s->c - 2)), in the order with the shorter
     * latency to the first batch (the small messages wait for it) */
    s->g = v_shuffle8(v_add32(v_bcast_x(le0), v_bcast_x(_mm_set_epi32(0, 0, 0, -2))), v_bcast_x(x_bswap_mask()));
    for (int j = 0; j < NV; j++)
        s->kn[j] = v_xor(K[0], v_loadu(gctrp_tab[j]));
    s->cy = v_loadu(gctrp_tab[NV]);
    s->st = v_loadu(gctrp_tab[NV + 1]);
}

/* A defined state for paths that never set up the public form (it is not
 * read there; this keeps the compiler's uninitialised-use analysis quiet). */
IFN void gctrp_off(gctrp *s)
{
    s->g = s->cy = s->st = v_zero();
    for (int j = 0; j < NV; j++)
        s->kn[j] = v_zero();
    s->base = _mm_setzero_si128();
    s->c = 0;
    s->lim = -1;
}

/* The register-form counter of the next batch (for gcm_tail_aes). */
IFN __m128i gctrp_le(const gctrp *s) { return _mm_insert_epi32(s->base, (int)s->c, 0); }

IFN void gctrp_next(vec_t *x, gctrp *s, const vec_t *K, vec_t bsw, vec_t step)
{
    if (__builtin_expect((int)(s->c & 0xff) <= s->lim, 1)) {
        for (int j = 0; j < NV - 1; j++)
            x[j] = v_xor(s->kn[j], s->g);
        x[NV - 1] = v_xor(s->kn[NV - 1], v_add32(s->g, s->cy));
        s->g = v_add32(s->g, s->st);
    } else {
        gctr t;
        gctr_init(&t, gctrp_le(s));
        ctr_next(x, &t, K, bsw, step);
        s->g = v_bcast_x(gctrp_be(s, s->c + BATCH - 2));
    }
    s->c += BATCH;
}

/* c128: 0 = inc32 (GCM), 1 = 128-bit increment.  Counters are byte-swapped
 * (little-endian integers) in the lanes; ctr[j] holds the counters of vector j. */
IFN void ctr_body(const uint8_t *rk, uint8_t *out, const uint8_t *in, size_t nb, const uint8_t ctr[16],
                  int c128, const int R)
{
    LOAD_KEYS_V(K, rk, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    __m128i c0 = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    vec_t cv = v_add128(v_bcast_x(c0), v_lane_idx());
    gctr g;
    gctr_init(&g, c0);
    const vec_t step = v_lane_step();
    vec_t x[NV], d[NV];
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (c128) {
            for (int j = 0; j < NV; j++) {
                x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
                cv = v_add128(cv, step);
            }
        } else {
            ctr_next(x, &g, K, bsw, step);
        }
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                d[j] = v_loadu(in + VB * j);
            enc_batch(x, K, d, R);
            for (int j = 0; j < NV; j++)
                v_storeu(out + VB * j, x[j]);
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
#define CTR_TAIL(N)                                                   \
    do {                                                              \
        for (int j = 0; j < (N); j++)                                 \
            d[j] = v_load_window(in, (ptrdiff_t)(VB * j), n);         \
        enc_n(x, K, d, (N), R);                                       \
        for (int j = 0; j < (N); j++)                                 \
            v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);        \
    } while (0)
            TAIL_SWITCH(n, CTR_TAIL);
#undef CTR_TAIL
            break;
        }
    }
}

KFN void vaes_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
#define CALL(R) ctr_body(k->data + RK_ENC, out, in, nb, ctr, 0, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
    ak_store_be32(ctr + 12, ak_load_be32(ctr + 12) + (uint32_t)nb);
}

KFN void vaes_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    /* If the low 32 bits do not wrap within this call, the 128-bit
     * increment is inc32.  This branch reads the counter: ctr128 serves
     * only CTR (the caller's IV) and CCM (flags || nonce || count), whose
     * counters are public, never GCM.  Always taking the 128-bit lane add
     * was measured at 17.1 -> 14.0 GB/s (avx512) and 16.2 -> 9.8 GB/s
     * (avx2) for 16 KiB AES-128-CTR: its serial carry chain per vector. */
    int c128 = (uint64_t)ak_load_be32(ctr + 12) + (uint64_t)nb > ((uint64_t)1 << 32);
#define CALL(R) ctr_body(k->data + RK_ENC, out, in, nb, ctr, c128, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    uint64_t lo2 = lo + (uint64_t)nb;
    hi += lo2 < lo;
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo2);
}

/* ---- CBC decrypt (parallel) ------------------------------------------------- */

IFN void cbc_dec_body(const uint8_t *rk, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16], const int R)
{
    LOAD_KEYS(K, rk, R);
    __m128i last = x_load(in + 16 * (nb - 1)); /* read before in-place writes */
    vec_t prev = v_bcast(iv), c[NV], x[NV], f[NV];
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                c[j] = v_loadu(in + VB * j);
            for (int j = 0; j < NV; j++) {
                x[j] = v_xor(c[j], K[0]);
                f[j] = v_prevblocks(c[j], j ? c[j - 1] : prev);
            }
            dec_batch(x, K, f, R);
            for (int j = 0; j < NV; j++)
                v_storeu(out + VB * j, x[j]);
            prev = c[NV - 1];
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
#define CBC_TAIL(N)                                                   \
    do {                                                              \
        for (int j = 0; j < (N); j++)                                 \
            c[j] = v_load_window(in, (ptrdiff_t)(VB * j), n);         \
        for (int j = 0; j < (N); j++) {                               \
            x[j] = v_xor(c[j], K[0]);                                 \
            f[j] = v_prevblocks(c[j], j ? c[j - 1] : prev);           \
        }                                                             \
        dec_n(x, K, f, (N), R);                                       \
        for (int j = 0; j < (N); j++)                                 \
            v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);        \
    } while (0)
            TAIL_SWITCH(n, CBC_TAIL);
#undef CBC_TAIL
            break;
        }
    }
    x_store(iv, last);
}

KFN void vaes_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    if (!nb)
        return;
#define CALL(R) cbc_dec_body(k->data + RK_DEC, out, in, nb, iv, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

/* ---- CBC encrypt and CBC-MAC (serial: AES latency bound) -------------------- */

IFN void cbc_serial_body(const uint8_t *rk, uint8_t *out, const uint8_t *in, size_t nb, uint8_t st[16],
                         const int R)
{
    if (!nb)
        return;
    __m128i K[15];
    for (int i = 0; i <= R; i++)
        K[i] = x_load(rk + 16 * i);
    /* The chain carries t = (state before the last round); the next block's
     * input enters through the last round key: AESENCLAST(t, K[R] ^ K[0] ^ p)
     * = E(s) ^ p ^ K[0], so no XOR waits on the chain (the CBC loop of
     * aes_aesni.c does the same). */
    const __m128i klast0 = _mm_xor_si128(K[R], K[0]);
    __m128i t = _mm_xor_si128(x_load(st), _mm_xor_si128(x_load(in), K[0])); /* st last: it is the chain */
    for (size_t b = 0;;) {
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            t = _mm_aesenc_si128(t, K[r]);
        if (out)
            x_store(out + 16 * b, _mm_aesenclast_si128(t, K[R]));
        if (++b == nb)
            break;
        t = _mm_aesenclast_si128(t, _mm_xor_si128(klast0, x_load(in + 16 * b)));
    }
    x_store(st, _mm_aesenclast_si128(t, K[R]));
}

KFN void vaes_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
#define CALL(R) cbc_serial_body(k->data + RK_ENC, out, in, nb, iv, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

KFN void vaes_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nb)
{
#define CALL(R) cbc_serial_body(k->data + RK_ENC, NULL, in, nb, state, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

/* ---- XTS ------------------------------------------------------------------------ */

/* Tweak times alpha^BATCH in every lane (IEEE 1619 little-endian doubling,
 * BATCH times at once): BATCH is a multiple of 8, so the shift is a byte
 * shift, and the bits shifted out (fewer than 17) times 0x87 fit one
 * carry-less multiply. */
IFN vec_t xts_mul_batch(vec_t t)
{
    const vec_t p = v_bcast_x(_mm_set_epi64x(0, 0x87));
    return v_xor(v_bslli(t, BATCH / 8), v_clmul(v_bsrli(t, 16 - BATCH / 8), p, 0x00));
}

/* T * alpha^c for c < 64: a 128-bit left shift by c, the c bits pushed out
 * of the top folded back times 0x87 (x^128 = x^7 + x^2 + x + 1). */
IFN __m128i x_xts_mul_pow(__m128i t, int c)
{
    __m128i cnt = _mm_set1_epi64x(c), cnt2 = _mm_set1_epi64x(64 - c);
    __m128i cr = _mm_srlv_epi64(t, cnt2); /* 0 when c == 0 */
    __m128i sh = _mm_xor_si128(_mm_sllv_epi64(t, cnt), _mm_slli_si128(cr, 8));
    return _mm_xor_si128(sh, _mm_clmulepi64_si128(_mm_srli_si128(cr, 8), _mm_set_epi64x(0, 0x87), 0x00));
}

/* The tweaks of vector j of a batch: T * alpha^(j*AK_LANES + lane). */
IFN vec_t xts_first_tweaks(__m128i T, int j)
{
    vec_t t = v_bcast_x(T);
    vec_t c = v_add64(v_lane_idx64(), v_set1_64(j * AK_LANES));
    vec_t cr = v_srlv64(t, v_sub64(v_set1_64(64), c));
    vec_t sh = v_xor(v_sllv64(t, c), v_bslli(cr, 8));
    return v_xor(sh, v_clmul(v_bsrli(cr, 8), v_bcast_x(_mm_set_epi64x(0, 0x87)), 0x00));
}

IFN void xts_body(const uint8_t *rk, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16], int dec,
                  const int R)
{
    LOAD_KEYS(K, rk, R);
    __m128i T = x_load(tweak);
    vec_t t[NV], x[NV];
    for (int j = 0; j < NV; j++)
        t[j] = xts_first_tweaks(T, j);
    size_t rem = 0;
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                x[j] = v_xor3(v_loadu(in + VB * j), t[j], K[0]);
            if (dec)
                dec_batch(x, K, t, R);
            else
                enc_batch(x, K, t, R);
            for (int j = 0; j < NV; j++) {
                v_storeu(out + VB * j, x[j]);
                t[j] = xts_mul_batch(t[j]);
            }
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
            vec_t tk[NV];
            for (int j = 0; j < NV; j++)
                tk[j] = v_xor(t[j], K[0]);
#define XTS_TAIL(N) window_tail(K, tk, t, in, out, n, dec, (N), R)
            TAIL_SWITCH(n, XTS_TAIL);
#undef XTS_TAIL
            rem = nb;
            break;
        }
    }
    /* The next tweak: the current batch's first one times alpha^rem. */
    x_store(tweak, x_xts_mul_pow(v_low128(t[0]), (int)rem));
}

KFN void vaes_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
#define CALL(R) xts_body(k->data + RK_ENC, out, in, nb, tweak, 0, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

KFN void vaes_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
#define CALL(R) xts_body(k->data + RK_DEC, out, in, nb, tweak, 1, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
}

/* ---- GHASH ------------------------------------------------------------------------ */

KFN void vaes_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    __m128i h = _mm_shuffle_epi8(x_load(H), x_bswap_mask());
    /* K_1 = r(H) << 1, folding the pushed-out x^0 back as x^-1 (see 3). */
    __m128i carry = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
    __m128i sh = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    __m128i k1 = _mm_xor_si128(sh, _mm_and_si128(carry, _mm_set_epi64x((long long)0xc200000000000000ULL, 1)));
    __m128i kj = k1;
    memset(g->data, 0, sizeof g->data);
    for (int j = 1; j <= NPOW; j++) {
        int e = NPOW - j;
        x_store(g->data + 16 * e, kj);
        kj = x_gmul(kj, k1);
    }
#if AK_KARATSUBA
    for (int e = 0; e < NPOW; e++) {
        __m128i k = x_load(g->data + 16 * e);
        __m128i kn = e + 2 < NPOW ? x_load(g->data + 16 * (e + 2)) : _mm_setzero_si128();
        __m128i kk = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));
        __m128i kkn = _mm_xor_si128(kn, _mm_shuffle_epi32(kn, 0x4e));
        x_store(g->data + GH_KK + 16 * e, _mm_unpacklo_epi64(kk, kkn));
    }
#endif
#if GCM_QUAD
    /* entry j = K_{2*BATCH + AK_LANES*(2*NV - j)}: two interleaved chains
     * stepping by H^(2*AK_LANES), from K_{2*BATCH} * H^AK_LANES and
     * K_{2*BATCH} * H^(2*AK_LANES) */
    __m128i k2 = x_load(g->data + 16 * (NPOW - 2 * AK_LANES));
    __m128i ka = x_gmul(x_load(g->data + 16 * (NPOW - 2 * BATCH)), x_load(g->data + 16 * (NPOW - AK_LANES)));
    __m128i kb = x_gmul(x_load(g->data + 16 * (NPOW - 2 * BATCH)), k2);
    for (int j = 2 * NV - 1; j >= 1; j -= 2) {
        x_store(g->data + GH_UNI + VB * j, ka);
        x_store(g->data + GH_UNI + VB * (j - 1), kb);
        if (j > 1) {
            ka = x_gmul(ka, k2);
            kb = x_gmul(kb, k2);
        }
    }
#endif
}

/* Folds n blocks into Y (register form); one reduction per NPOW blocks. */
IFN __m128i ghash_blocks(const uint8_t *tab, __m128i Y, const uint8_t *in, size_t nb)
{
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    while (nb) {
        size_t m = nb < (NVG * AK_LANES) ? nb : (NVG * AK_LANES);
        const uint8_t *pw = tab + 16 * (NPOW - m);
        gacc a;
        gacc_zero(&a);
        if (m == NVG * AK_LANES) {
            _Pragma("GCC unroll 16")
            for (int j = 0; j < NVG; j++) {
                vec_t x = v_shuffle8(v_loadu(in + VB * j), bsw);
                if (j == 0)
                    x = v_xor(x, v_zext(Y));
                gacc_mul(&a, x, pw + VB * j);
            }
        } else {
            for (int j = 0; j < NVG && (size_t)j * AK_LANES < m; j++) {
                vec_t x = v_shuffle8(v_load_window(in, (ptrdiff_t)(VB * j), 16 * m), bsw);
                if (j == 0)
                    x = v_xor(x, v_zext(Y));
                gacc_mul(&a, x, pw + VB * j);
            }
        }
        Y = gacc_reduce(a);
        nb -= m;
        in += 16 * m;
    }
    return Y;
}

KFN void vaes_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nb)
{
    __m128i y = _mm_shuffle_epi8(x_load(Y), x_bswap_mask());
    y = ghash_blocks(g->data, y, in, nb);
    x_store(Y, _mm_shuffle_epi8(y, x_bswap_mask()));
}

/* ---- fused GCM ------------------------------------------------------------------------- */

/* One stitched batch: AES rounds 1..R-1 on x (already XORed with K[0]),
 * with the NV GHASH multiplies of p against the powers at pw, two at a time
 * (gacc_mul2), p[0] (which carries the state) last; `first` starts the sums
 * in *a; if red, the reduction follows, into *yv (lanes unsummed); uni:
 * lane-scaled powers (see gcm_body).  The GHASH work sits in the LAST rounds
 * in program order: measured (interleaved A/B, 16 KiB, AES-128) 3% faster
 * sealing and 2% faster opening than after rounds 2/4/5, about 1% for
 * AES-192/256: the scheduler then holds the batch's early AES rounds
 * instead of multiplies still waiting for their inputs (for sealing, p is
 * the previous batch's ciphertext, ready only at its last round). */
IFN void stitch(vec_t *x, const vec_t *K, const vec_t *p, const uint8_t *pw, gacc *a, vec_t *yv, const int first,
                const int red, const int uni, const int R)
{
    _Static_assert(NV == 4, "stitch pairs the four vectors of a batch");
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NV; j++)
            x[j] = v_enc(x[j], K[r]);
#if AK_STITCH_SPREAD
        /* ymm: one vector's multiplies after each of rounds
         * and R-2 instead of two vectors' after.  Without
         * vpternlogd the pairing saves no XOR, and smaller groups between
         * the rounds keep the scheduler from running out of AES work while
         * a burst of six multiplies and their XORs waits for port 5.
         * Measured (interleaved A/B, AES-128, four runs): sealing 16 KiB
         * 4753-4828 -> 4605-4748 cycles (about 3% faster), 1420 B about 2%,
         * opening 16 KiB 1.5-4%; R-8/6/4/2 measured the same, R-5/4/3/2
         * half of that. */
        if (r == R - 7)
            gacc_lohi(a, p[3], pw + VB * 3, first, uni);
        if (r == R - 5) {
            gacc_lohi(a, p[2], pw + VB * 2, 0, uni);
            gacc_mid2(a, p[2], p[3], pw + VB * 2, first, uni);
        }
        if (r == R - 3)
            gacc_lohi(a, p[1], pw + VB * 1, 0, uni);
        if (r == R - 2) {
            gacc_lohi(a, p[0], pw, 0, uni);
            gacc_mid2(a, p[0], p[1], pw, 0, uni);
        }
#else
        if (r == R - 5)
            gacc_mul2(a, p[3], pw + VB * 3, p[2], pw + VB * 2, first, uni);
        if (r == R - 2)
            gacc_mul2(a, p[1], pw + VB * 1, p[0], pw, 0, uni);
#endif
        if (red && r == R - 1)
            *yv = gacc_reduce_v(*a);
    }
}

/* The tail's AES: only the NVT vectors that hold data, one window mask per
 * vector; p receives the ciphertext in register form, zero past the end. */
IFN void gcm_tail_aes(vec_t *x, vec_t *p, gctr *cv, const vec_t *K, vec_t bsw, vec_t step, const uint8_t *in,
                      uint8_t *out, size_t len, int enc, const int NVT, const int R)
{
    wmask_t m[NV];
    vec_t d[NV];
    ctr_next(x, cv, K, bsw, step);
    for (int j = 0; j < NVT; j++) {
        m[j] = v_wmask((ptrdiff_t)(VB * j), len);
        d[j] = v_load_w(in, (ptrdiff_t)(VB * j), m[j]);
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVT; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    for (int j = 0; j < NVT; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        v_store_w(out, (ptrdiff_t)(VB * j), m[j], x[j]);
        p[j] = v_shuffle8(enc ? v_and_w(x[j], m[j]) : d[j], bsw);
    }
    for (int j = NVT; j < NV; j++)
        p[j] = v_zero();
}

/* The tail's keystream (NVT vectors from the register-form counter le0),
 * into ks.  gcm_body computes it before the bulk when a bulk precedes the
 * tail: issued last, the tail's ten dependent rounds started only once the
 * last batch had drained the AES unit (the scheduler serves the oldest
 * ready instruction first), and their latency showed at the end of every
 * message that does not end on a batch boundary. */
IFN void gcm_tail_ks(uint8_t *ks, __m128i le0, const vec_t *K, vec_t bsw, vec_t step, const int NVT, const int R)
{
    gctr c;
    vec_t x[NV], zero[NV];
    gctr_init(&c, le0);
    ctr_next(x, &c, K, bsw, step);
    for (int j = 0; j < NV; j++)
        zero[j] = v_zero();
    enc_n(x, K, zero, NVT, R);
    for (int j = 0; j < NVT; j++)
        v_storeu(ks + VB * j, x[j]);
}

/* The tail from a precomputed keystream: as gcm_tail_aes after its rounds. */
IFN void gcm_tail_xor(vec_t *p, const uint8_t *ks, vec_t bsw, const uint8_t *in, uint8_t *out, size_t len, int enc,
                      const int NVT)
{
    for (int j = 0; j < NVT; j++) {
        wmask_t m = v_wmask((ptrdiff_t)(VB * j), len);
#if AK_W_BEHIND
        /* a whole batch lies behind in and out (see the including file) */
        vec_t d = v_load_w_behind(in + VB * j, m);
        vec_t c = v_xor(v_loadu(ks + VB * j), d);
        v_store_w_behind(out + VB * j, m, c);
#else
        vec_t d = v_load_w(in, (ptrdiff_t)(VB * j), m);
        vec_t c = v_xor(v_loadu(ks + VB * j), d);
        v_store_w(out, (ptrdiff_t)(VB * j), m, c);
#endif
        p[j] = v_shuffle8(enc ? v_and_w(c, m) : d, bsw);
    }
    for (int j = NVT; j < NV; j++)
        p[j] = v_zero();
}

/* Encrypts or decrypts `len` bytes (a partial last block allowed) with the
 * counters in *pc (register form, advanced by the blocks used) and folds the
 * ciphertext into *pY; if lenblk is non-NULL, the length block *lenblk
 * (register form) is folded in as well.  Encryption hashes the previous
 * batch while encrypting the next one; decryption hashes the batch it is
 * decrypting.  Two batches share one reduction (powers H^(2*BATCH)..H), and
 * the tail (< BATCH blocks, plus the length block) is hashed with
 * encryption's last batch in one more. */
IFN void gcm_body(const uint8_t *rk, const uint8_t *tab, uint8_t *out, const uint8_t *in, size_t len, __m128i *pc,
                  __m128i *pY, const __m128i *lenblk, int enc, const int pub, const int R)
{
    LOAD_KEYS_V(K, rk, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const vec_t step = v_lane_step();
    const uint8_t *pwb = tab + 16 * (NPOW - BATCH), *pw2 = tab + 16 * (NPOW - 2 * BATCH);
    /* pub (a compile-time constant): the counter is public, see gctrp.
     * The public form is set up only for runs of at least two batches (the
     * steady-state loops, CTR_NEXT); single batches and the tail take the
     * register form, cv, which PUB_OFF brings up to date after a run (a
     * 256-byte seal measured 120.7 -> 118 cycles against setting it up
     * always). */
    gctr cv;
    gctrp cp;
    gctr_init(&cv, *pc);
    /* A tail behind at least one whole batch: its keystream first (see
     * gcm_tail_ks); it waits in ks_early, wiped after use. */
    const size_t tail_len = len % (16 * BATCH);
    const int early = len >= 16 * BATCH && tail_len != 0;
    AK_ALIGN64 uint8_t ks_early[16 * BATCH];
    if (early) {
        __m128i le = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)((len - tail_len) / 16)));
#define CALLK(NVT) gcm_tail_ks(ks_early, le, K, bsw, step, NVT, R)
        TAIL_SWITCH(tail_len, CALLK);
#undef CALLK
    }
    cp.base = _mm_setzero_si128(); /* read only when pon (see PUB_OFF) */
    cp.c = 0;
    int pon = 0;
#define CTR_NEXT()                                  \
    do {                                            \
        if (pub)                                    \
            gctrp_next(x, &cp, K, bsw, step);       \
        else                                        \
            ctr_next(x, &cv, K, bsw, step);         \
    } while (0)
#define PUB_ON()                                                   \
    do {                                                           \
        if (pub && len >= 2 * 16 * BATCH) {                        \
            gctrp_init(&cp, v_low128(cv.le), K);                   \
            pon = 1;                                               \
        } else {                                                   \
            gctrp_off(&cp);                                        \
        }                                                          \
    } while (0)
#define PUB_OFF()                                                  \
    do {                                                           \
        if (pub && pon) {                                          \
            gctr_init(&cv, gctrp_le(&cp));                         \
            pon = 0;                                               \
        }                                                          \
    } while (0)
    __m128i Y = *pY;
    vec_t x[NV], d[NV], p[NV];
    size_t nblk = (len + 15) / 16;
    int have_p = 0; /* encryption's last full batch, not hashed yet */
    gacc a;

    /* The GHASH state between batches is a vector yv in "lane-scaled" form:
     * Y = sum over lanes l of y_l * H^-l.  It enters the next fold whole,
     * XORed into the first vector (lane l of a batch's first vector is its
     * block l).  In the steady-state loops every lane of pair vector j is
     * multiplied by the same power H^(2*BATCH - AK_LANES*j), the power of
     * its lane 0, which is H^l times the power block l of that vector needs
     * (section 6 above): the products, and so the reduced lanes, come out
     * scaled by H^l again, and no horizontal lane sum is needed between
     * pairs.  A fold with the ordinary descending powers (lane l of the
     * first vector times H^(n-l)) takes the scaled state and returns true
     * partial sums (their lane sum is Y): that ends every run of folds
     * before anything that needs Y itself.  y_0 = Y, y_l = 0 is valid. */
    vec_t yv = v_zext(Y);
#define ENC_STORE(o)                                                       \
    do {                                                                   \
        for (int j = 0; j < NV; j++) {                                     \
            x[j] = v_enclast(x[j], v_xor(K[R], v_loadu(in + (o) + VB * j)));\
            v_storeu(out + (o) + VB * j, x[j]);                            \
            p[j] = v_shuffle8(x[j], bsw);                                  \
        }                                                                  \
    } while (0)
#define DEC_LOAD(o)                                                        \
    do {                                                                   \
        for (int j = 0; j < NV; j++) {                                     \
            d[j] = v_loadu(in + (o) + VB * j);                             \
            p[j] = v_shuffle8(d[j], bsw);                                  \
        }                                                                  \
    } while (0)
#define DEC_STORE(o)                                                       \
    do {                                                                   \
        for (int j = 0; j < NV; j++) {                                     \
            x[j] = v_enclast(x[j], v_xor(K[R], d[j]));                     \
            v_storeu(out + (o) + VB * j, x[j]);                            \
        }                                                                  \
    } while (0)
#define DEC_PAIR(uni)                                                      \
    do {                                                                   \
        CTR_NEXT();                                                        \
        DEC_LOAD(0);                                                       \
        p[0] = v_xor(p[0], yv);                                            \
        stitch(x, K, p, pw2, &a, &yv, 1, 0, uni, R);                       \
        DEC_STORE(0);                                                      \
        CTR_NEXT();                                                        \
        DEC_LOAD(16 * BATCH);                                              \
        stitch(x, K, p, pwb, &a, &yv, 0, 1, uni, R);                       \
        DEC_STORE(16 * BATCH);                                             \
        len -= 2 * 16 * BATCH;                                             \
        in += 2 * 16 * BATCH;                                              \
        out += 2 * 16 * BATCH;                                             \
    } while (0)
    if (enc && len >= 16 * BATCH) {
        ctr_next(x, &cv, K, bsw, step);
        for (int j = 0; j < NV; j++)
            d[j] = v_loadu(in + VB * j);
        enc_batch(x, K, d, R);
        for (int j = 0; j < NV; j++) {
            v_storeu(out + VB * j, x[j]);
            p[j] = v_shuffle8(x[j], bsw);
        }
        len -= 16 * BATCH;
        in += 16 * BATCH;
        out += 16 * BATCH;
        PUB_ON();
        /* Steady state: two batches per iteration and one reduction, the
         * loop body straight-line so the registers carried around it (p, yv,
         * counters) stay put.  The pending batch p is hashed by the tail
         * below with descending powers, so every fold here may be
         * lane-scaled. */
#if GCM_QUAD
        /* four batches per reduction while they last (powers H^(4*BATCH)..) */
        while (len >= 4 * 16 * BATCH) {
            CTR_NEXT();
            p[0] = v_xor(p[0], yv);
            stitch(x, K, p, tab + GH_UNI, &a, &yv, 1, 0, 1, R);
            ENC_STORE(0);
            CTR_NEXT();
            stitch(x, K, p, tab + GH_UNI + VB * NV, &a, &yv, 0, 0, 1, R);
            ENC_STORE(16 * BATCH);
            CTR_NEXT();
            stitch(x, K, p, pw2, &a, &yv, 0, 0, 1, R);
            ENC_STORE(2 * 16 * BATCH);
            CTR_NEXT();
            stitch(x, K, p, pwb, &a, &yv, 0, 1, 1, R);
            ENC_STORE(3 * 16 * BATCH);
            len -= 4 * 16 * BATCH;
            in += 4 * 16 * BATCH;
            out += 4 * 16 * BATCH;
        }
#endif
        while (len >= 2 * 16 * BATCH) {
            CTR_NEXT();
            p[0] = v_xor(p[0], yv);
            stitch(x, K, p, pw2, &a, &yv, 1, 0, 1, R);
            ENC_STORE(0);
            CTR_NEXT();
            stitch(x, K, p, pwb, &a, &yv, 0, 1, 1, R);
            ENC_STORE(16 * BATCH);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
        }
        PUB_OFF();
        if (len >= 16 * BATCH) {
            ctr_next(x, &cv, K, bsw, step);
            p[0] = v_xor(p[0], yv);
            stitch(x, K, p, pwb, &a, &yv, 1, 1, 0, R);
            ENC_STORE(0);
            yv = v_zext(v_hxor(yv)); /* true partials -> Y in lane 0 */
            len -= 16 * BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        }
        have_p = 1;
    } else if (!enc && len >= 16 * BATCH) {
        PUB_ON();
        /* lane-scaled while at least one more batch follows; the last one
         * or two batches fold with descending powers */
#if GCM_QUAD
        while (len >= 5 * 16 * BATCH) {
            CTR_NEXT();
            DEC_LOAD(0);
            p[0] = v_xor(p[0], yv);
            stitch(x, K, p, tab + GH_UNI, &a, &yv, 1, 0, 1, R);
            DEC_STORE(0);
            CTR_NEXT();
            DEC_LOAD(16 * BATCH);
            stitch(x, K, p, tab + GH_UNI + VB * NV, &a, &yv, 0, 0, 1, R);
            DEC_STORE(16 * BATCH);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
            CTR_NEXT();
            DEC_LOAD(0);
            stitch(x, K, p, pw2, &a, &yv, 0, 0, 1, R);
            DEC_STORE(0);
            CTR_NEXT();
            DEC_LOAD(16 * BATCH);
            stitch(x, K, p, pwb, &a, &yv, 0, 1, 1, R);
            DEC_STORE(16 * BATCH);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
        }
#endif
        while (len >= 3 * 16 * BATCH)
            DEC_PAIR(1);
        if (len >= 2 * 16 * BATCH) {
            DEC_PAIR(0);
        } else {
            /* after a run, the public form (the tail syncs cv) */
            if (pub && pon)
                gctrp_next(x, &cp, K, bsw, step);
            else
                ctr_next(x, &cv, K, bsw, step);
            DEC_LOAD(0);
            p[0] = v_xor(p[0], yv);
            stitch(x, K, p, pwb, &a, &yv, 1, 1, 0, R);
            DEC_STORE(0);
            len -= 16 * BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        }
        Y = v_hxor(yv);
    }
#undef PUB_ON
#undef ENC_STORE
#undef DEC_LOAD
#undef DEC_STORE
#undef DEC_PAIR
#undef CTR_NEXT

    /* Tail: len < 16*BATCH bytes and the optional length block, hashed
     * together with encryption's pending batch in one reduction when the
     * powers reach that far.  The length block goes in the lane after the
     * last data block, so it costs no multiply of its own. */
    size_t nt = (len + 15) / 16;
    size_t m = nt + (lenblk != NULL);
    /* Encryption's pending batch takes the (possibly lane-scaled) yv whole
     * and is always folded with descending powers; otherwise Y is exact. */
    if (have_p && BATCH + m > NPOW) {
        p[0] = v_xor(p[0], yv);
        gacc_zero(&a);
        for (int j = 0; j < NV; j++)
            gacc_mul(&a, p[j], pwb + VB * j);
        Y = gacc_reduce(a);
        have_p = 0;
    }
    if (m || have_p) {
        __m128i yin = Y; /* goes into the first block hashed */
        gacc_zero(&a);
        if (have_p) {
            const uint8_t *pp = tab + 16 * (NPOW - m - BATCH);
            p[0] = v_xor(p[0], yv);
            yin = _mm_setzero_si128();
            for (int j = 0; j < NV; j++)
                gacc_mul(&a, p[j], pp + VB * j);
        }
        if (m) {
            const uint8_t *pw = tab + 16 * (NPOW - m);
            if (nt && early) {
#define CALLX(NVT) gcm_tail_xor(p, ks_early, bsw, in, out, len, enc, NVT)
                TAIL_SWITCH(len, CALLX);
#undef CALLX
                for (int j = 0; j < NV; j++)
                    v_storeu(ks_early + VB * j, v_zero());
                __asm__ volatile("" : : "r"(ks_early) : "memory");
            } else if (nt) {
                PUB_OFF();
                int nvt = (int)((nt + AK_LANES - 1) / AK_LANES);
#define CALLT(NVT) gcm_tail_aes(x, p, &cv, K, bsw, step, in, out, len, enc, NVT, R)
                switch (nvt) {
                case 1: CALLT(1); break;
                case 2: CALLT(2); break;
                case 3: CALLT(3); break;
                default: CALLT(4); break;
                }
#undef CALLT
            } else {
                for (int j = 0; j < NV; j++)
                    p[j] = v_zero();
            }
            if (lenblk && nt < BATCH) {
                vec_t lv = v_bcast_x(*lenblk);
                for (int j = 0; j < NV; j++)
                    if ((size_t)j == nt / AK_LANES)
                        p[j] = v_xor(p[j], v_lane_select(lv, (ptrdiff_t)nt - AK_LANES * j));
            } else if (lenblk) {
                gacc_mul(&a, v_zext(*lenblk), tab + 16 * (NPOW - 1));
            }
            p[0] = v_xor(p[0], v_zext(yin));
            for (int j = 0; j < NV && (size_t)j * AK_LANES < m; j++)
                gacc_mul(&a, p[j], pw + VB * j);
        }
        Y = gacc_reduce(a);
    }
#undef PUB_OFF
    *pc = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblk));
    *pY = Y;
}

KFN void vaes_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                          uint8_t ctr[16], uint8_t Yb[16])
{
    __m128i c = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    __m128i y = _mm_shuffle_epi8(x_load(Yb), x_bswap_mask());
#define CALL(R) gcm_body(k->data + RK_ENC, g->data, out, in, 16 * nb, &c, &y, NULL, 1, 0, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
    x_store(ctr, _mm_shuffle_epi8(c, x_bswap_mask()));
    x_store(Yb, _mm_shuffle_epi8(y, x_bswap_mask()));
}

KFN void vaes_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                          uint8_t ctr[16], uint8_t Yb[16])
{
    __m128i c = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    __m128i y = _mm_shuffle_epi8(x_load(Yb), x_bswap_mask());
#define CALL(R) gcm_body(k->data + RK_ENC, g->data, out, in, 16 * nb, &c, &y, NULL, 0, 0, R)
    ROUNDS_SWITCH(k->rounds, CALL);
#undef CALL
    x_store(ctr, _mm_shuffle_epi8(c, x_bswap_mask()));
    x_store(Yb, _mm_shuffle_epi8(y, x_bswap_mask()));
}

/* ---- whole messages (ak_gcm_msg, src/internal.h) ------------------------------------ */

/* Counter words for whole short messages: lane g (counting across vectors)
 * holds inc32^g(J0) ^ J0.  J0's counter word is 1 (AK_GCM_J0_IV12) and
 * inc32^g(J0)'s is 1 + g, which for g < 255 differs from it in the last
 * byte only, by (1 + g) ^ 1.  XORed onto J0 it gives the counter blocks in
 * byte order with no byte swap and no add on the way to the first round. */
static const uint8_t tiny_ctr_words[16 * 16] __attribute__((aligned(64))) = {
    [15] = 0x01 ^ 0x01, [31] = 0x02 ^ 0x01, [47] = 0x03 ^ 0x01, [63] = 0x04 ^ 0x01,
    [79] = 0x05 ^ 0x01, [95] = 0x06 ^ 0x01, [111] = 0x07 ^ 0x01, [127] = 0x08 ^ 0x01,
    [143] = 0x09 ^ 0x01, [159] = 0x0a ^ 0x01, [175] = 0x0b ^ 0x01, [191] = 0x0c ^ 0x01,
    [207] = 0x0d ^ 0x01, [223] = 0x0e ^ 0x01, [239] = 0x0f ^ 0x01, [255] = 0x10 ^ 0x01};

/* Everything in one AES pass and one reduction: the counter vectors carry
 * J0 in lane 0 of vector 0, so message block i sits at lane i+1, and its
 * power of H is taken one entry further on (the J0 lane is hashed as zero).
 * Needs nC + 1 <= NVEC*AK_LANES and nA + nC + 2 <= NPOW.  j0 is J0 in register
 * form (byte-swapped). */
IFN void gcm_short(const uint8_t *rk, const uint8_t *tab, __m128i j0, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc, const int NVEC,
                   const int R)
{
    LOAD_KEYS_V(K, rk, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    size_t nA = (aad_len + 15) / 16, nC = (len + 15) / 16;
    vec_t cv = v_add32(v_bcast_x(j0), v_lane_idx());
    vec_t x[NV], d[NV], raw[NV];
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, v_lane_step());
        raw[j] = v_load_window(in, (ptrdiff_t)(VB * j), len);
        d[j] = v_prevblocks(raw[j], j ? raw[j - 1] : v_zero()); /* see gcm_tiny */
    }
    gacc a;
    gacc_zero(&a);
    size_t m = nA + nC + 1;
    for (size_t i = 0; i < nA; i += AK_LANES) {
        vec_t t = v_shuffle8(v_load_window(aad, (ptrdiff_t)(16 * i), aad_len), bsw);
        gacc_mul(&a, t, tab + 16 * (NPOW - m + i));
    }
    gacc_mul(&a, v_zext(_mm_set_epi64x((long long)aad_len * 8, (long long)len * 8)), tab + 16 * (NPOW - 1));
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVEC; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    __m128i ej0 = _mm_setzero_si128();
    const uint8_t *pc = tab + 16 * (NPOW - nC - 2);
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        if (j == 0)
            ej0 = v_low128(x[0]);
        vec_t c = enc ? v_and_window(x[j], (ptrdiff_t)(VB * j) - 16, len) : d[j];
        gacc_mul(&a, v_shuffle8(c, bsw), pc + VB * j);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), len, v_nextblocks(x[j], j + 1 < NVEC ? x[j + 1] : v_zero()));
    __m128i y = gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), ej0));
}

/* The common small case, at most one AAD block: the hash input is exactly
 * the counter vectors' lanes, [A, C_0, ..., C_{nC-1}, L], with A in the J0
 * lane and the length block L in the lane after the last data block, so the
 * whole message is NVEC multiplies and one reduction, and only the
 * ciphertext's own multiply waits for AES.  Needs nC + 2 <= NVEC*AK_LANES.
 * j0b is J0 in byte order. */
IFN void gcm_tiny(const uint8_t *rk, const uint8_t *tab, __m128i j0b, const uint8_t *aad, size_t aad_len,
                  const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc, const int NVEC,
                  const int R)
{
    LOAD_KEYS_V(K, rk, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    size_t nC = (len + 15) / 16;
    const vec_t j0v = v_bcast_x(j0b);
    vec_t x[NV], d[NV], e[NV], raw[NV];
    wmask_t m[NV], mw[NV];
    const vec_t lv = v_bcast_x(_mm_set_epi64x((long long)aad_len * 8, (long long)len * 8));
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_xor3(j0v, v_loadu(tiny_ctr_words + VB * j), K[0]);
        /* Block i of the message sits in lane i+1 (lane 0 is J0), but the
         * memory windows start at the buffer: a window starting 16 bytes
         * before it would touch the page before an output that starts on a
         * page boundary (see v_load_w).  One lane shift each way instead. */
        m[j] = v_wmask((ptrdiff_t)(VB * j) - 16, len);
        mw[j] = v_wmask((ptrdiff_t)(VB * j), len);
        raw[j] = v_load_w(in, (ptrdiff_t)(VB * j), mw[j]);
        d[j] = v_prevblocks(raw[j], j ? raw[j - 1] : v_zero());
        /* A and L, in register form, in their lanes */
        e[j] = v_lane_select(lv, (ptrdiff_t)(nC + 1) - AK_LANES * j);
        if (j == 0)
            e[0] = v_xor(e[0], v_shuffle8(v_load_window(aad, 0, aad_len), bsw));
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVEC; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    gacc a;
    gacc_zero(&a);
    const uint8_t *pw = tab + 16 * (NPOW - nC - 2);
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        vec_t c = enc ? v_and_w(x[j], m[j]) : d[j];
        gacc_mul(&a, v_xor(v_shuffle8(c, bsw), e[j]), pw + VB * j);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++)
        v_store_w(out, (ptrdiff_t)(VB * j), mw[j], v_nextblocks(x[j], j + 1 < NVEC ? x[j + 1] : v_zero()));
    __m128i y = gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), v_low128(x[0])));
}

IFN void gcm_long(const uint8_t *rk, const uint8_t *tab, __m128i j0, const uint8_t *aad, size_t aad_len,
                  const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc, const int R)
{
    __m128i y = _mm_setzero_si128();
    size_t fa = aad_len / 16;
    if (aad_len == 16) {
        /* The common single AAD block by one 128-bit multiply: through
         * ghash_blocks (a 512-bit product, its reduction and lane sum) it
         * cost 13-18 cycles per message, this way 6-8 (AAD 16 against none,
         * interleaved A/B, 256-4096 B). */
        y = x_gmul(_mm_shuffle_epi8(x_load(aad), x_bswap_mask()), x_load(tab + 16 * (NPOW - 1)));
        fa = 0;
    }
    y = ghash_blocks(tab, y, aad, fa);
    if (aad_len % 16) {
        __m128i t = _mm_shuffle_epi8(v_low128(v_load_window(aad + 16 * fa, 0, aad_len % 16)), x_bswap_mask());
        y = x_gmul(_mm_xor_si128(y, t), x_load(tab + 16 * (NPOW - 1)));
    }
    __m128i c = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));
    __m128i l = _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8);
    /* 96-bit IV: the counters are IV || 2, IV || 3, ..., public (pub = 1) */
    gcm_body(rk, tab, out, in, len, &c, &y, &l, enc, 1, R);
    /* E(J0) last: its rounds then fill the AES unit while the final GHASH
     * runs, instead of taking AES slots from the first batch, which has no
     * GHASH beside it (a change within the noise of our A/B runs, kept
     * because it cannot lengthen any chain). */
    __m128i e = _mm_xor_si128(_mm_shuffle_epi8(j0, x_bswap_mask()), x_load(rk));
    for (int r = 1; r < R; r++)
        e = _mm_aesenc_si128(e, x_load(rk + 16 * r));
    e = _mm_aesenclast_si128(e, x_load(rk + 16 * R));
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), e));
}

/* Each size class is its own function, so the common small messages pay
 * only their own prologue (the long path's stack frame is large). */
#if defined(__clang__)
/* clang 14 has no noipa, and -Werror turns the unknown attribute into a
 * build failure; noinline alone keeps each kernel a function of its own. */
#define NOINL static __attribute__((noinline, target(AK_TGT)))
#else
#define NOINL static __attribute__((noinline, noipa, target(AK_TGT)))
#endif

/* One size class's kernel for one vector count and direction: the entry
 * jumps to it with the descriptor and the two lengths it has already
 * loaded from it. */
typedef void gcm_msg_kernel(ak_gcm_msg *m, size_t len, size_t aad_len);

IFN void gcm_tiny_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVEC)
{
    const uint8_t *rk = m->aes->data + RK_ENC, *tab = m->gh->data;
    const __m128i j0b = x_load(m->j0);
#define CALL(R) gcm_tiny(rk, tab, j0b, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, R)
    ROUNDS_SWITCH(m->aes->rounds, CALL);
#undef CALL
}

IFN void gcm_short_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVEC)
{
    const uint8_t *rk = m->aes->data + RK_ENC, *tab = m->gh->data;
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
#define CALL(R) gcm_short(rk, tab, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, R)
    ROUNDS_SWITCH(m->aes->rounds, CALL);
#undef CALL
}

/* The long path stays one function for both directions (it is large, and
 * a few instructions of call do not show at its sizes). */
NOINL void gcm_long_msg(ak_gcm_msg *m)
{
    const uint8_t *rk = m->aes->data + RK_ENC, *tab = m->gh->data;
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    const int enc = !(m->flags & AK_GCM_OPEN);
#define CALL(R) gcm_long(rk, tab, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, enc, R)
    ROUNDS_SWITCH(m->aes->rounds, CALL);
#undef CALL
}

NOINL void gcm_tiny_seal1(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 1, 1); }
NOINL void gcm_tiny_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 1, 2); }
NOINL void gcm_tiny_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 1, 3); }
NOINL void gcm_tiny_seal4(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 1, 4); }
NOINL void gcm_tiny_open1(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 0, 1); }
NOINL void gcm_tiny_open2(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 0, 2); }
NOINL void gcm_tiny_open3(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 0, 3); }
NOINL void gcm_tiny_open4(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_tiny_msg(m, len, aad_len, 0, 4); }
NOINL void gcm_short_seal1(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 1, 1); }
NOINL void gcm_short_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 1, 2); }
NOINL void gcm_short_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 1, 3); }
NOINL void gcm_short_seal4(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 1, 4); }
NOINL void gcm_short_open1(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 0, 1); }
NOINL void gcm_short_open2(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 0, 2); }
NOINL void gcm_short_open3(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 0, 3); }
NOINL void gcm_short_open4(ak_gcm_msg *m, size_t len, size_t aad_len) { gcm_short_msg(m, len, aad_len, 0, 4); }

/* Indexed [AK_GCM_OPEN bit][vectors - 1]. */
_Static_assert(AK_GCM_OPEN == 1, "the direction bit indexes the kernel tables");
static gcm_msg_kernel *const gcm_tiny_kernels[2][NV] = {
    {gcm_tiny_seal1, gcm_tiny_seal2, gcm_tiny_seal3, gcm_tiny_seal4},
    {gcm_tiny_open1, gcm_tiny_open2, gcm_tiny_open3, gcm_tiny_open4}};
static gcm_msg_kernel *const gcm_short_kernels[2][NV] = {
    {gcm_short_seal1, gcm_short_seal2, gcm_short_seal3, gcm_short_seal4},
    {gcm_short_open1, gcm_short_open2, gcm_short_open3, gcm_short_open4}};

/* The size classes: tiny (at most one AAD block; lanes for J0/A, the data
 * blocks and L: nC + 2 <= BATCH), short (J0 and the data in one pass, the
 * AAD beside it: nC + 1 <= BATCH), long.  The vector count of nC + 2 lanes
 * is (nC + 1) / AK_LANES + 1, where nC + 1 = (len + 31) / 16; of nC + 1
 * lanes nC / AK_LANES + 1.  A small class's call is the last act, with the
 * descriptor pointer unchanged: a jump. */
IFN void vaes_gcm_msg(ak_gcm_msg *m)
{
    const size_t len = m->len, aad_len = m->aad_len;
    const unsigned open = m->flags & AK_GCM_OPEN;
    if (aad_len <= 16 && len <= 16 * (BATCH - 2)) {
        gcm_tiny_kernels[open][(len + 31) / (16 * AK_LANES)](m, len, aad_len);
        return;
    }
    const size_t nA = (aad_len + 15) / 16, nC = (len + 15) / 16;
    if (len <= 16 * (BATCH - 1) && nA + nC + 2 <= NPOW) {
        gcm_short_kernels[open][nC / AK_LANES](m, len, aad_len);
        return;
    }
    gcm_long_msg(m);
}

/* A call with other than one message: each in turn. */
NOINL void vaes_gcm_msgs_each(ak_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        vaes_gcm_msg(&m[i]);
}

KFN void vaes_gcm_msgs(ak_gcm_msg *m, size_t n)
{
    if (n != 1) {
        vaes_gcm_msgs_each(m, n);
        return;
    }
    vaes_gcm_msg(m);
}

#define AK_VAES_PRIMITIVES                     \
    .aes_setkey = vaes_setkey,                 \
    .ecb_encrypt = vaes_ecb_encrypt,           \
    .ecb_decrypt = vaes_ecb_decrypt,           \
    .ctr32 = vaes_ctr32,                       \
    .ctr128 = vaes_ctr128,                     \
    .cbc_encrypt = vaes_cbc_encrypt,           \
    .cbc_decrypt = vaes_cbc_decrypt,           \
    .cbcmac = vaes_cbcmac,                     \
    .xts_encrypt = vaes_xts_encrypt,           \
    .xts_decrypt = vaes_xts_decrypt,           \
    .ghash_init = vaes_ghash_init,             \
    .ghash = vaes_ghash,                       \
    .gcm_encrypt = vaes_gcm_encrypt,           \
    .gcm_decrypt = vaes_gcm_decrypt,           \
    .gcm_msgs = vaes_gcm_msgs
