/*
 * akv.h - a small 128-bit vector vocabulary for AES and GHASH kernels.
 *
 * Needs, per architecture (the functions carry AKV_TARGET, nothing is global):
 *   AArch64: ARMv8 Crypto Extensions (AESE/AESD/AESMC/AESIMC, PMULL/PMULL2)
 *   ppc64le: POWER8 vector crypto (vcipher/vncipher/vsbox, vpmsumd) and VSX
 *
 * The kernels in aes_gcm_akv.h are written once over these words; each
 * architecture gives them meaning here.  The words are chosen so that the
 * kernel text never depends on how a register holds bytes:
 *
 *   akv_load/akv_store     16 bytes in "AES order": the order the cipher
 *                          instructions take the state in.  AArch64: lane i
 *                          = byte i (plain LD1/ST1).  POWER: the ISA numbers
 *                          bytes big-endian (Power ISA 3.0B, Book I, Vector
 *                          Facility, "Vector Cryptographic Instructions"),
 *                          so on little-endian a load must reverse the
 *                          bytes (vec_xl_be: lxvw4x + vperm on POWER8,
 *                          lxvb16x on POWER9).
 *   akv_enc_first/round/last  the AES rounds.  ARM's AESE is AddRoundKey +
 *                          SubBytes + ShiftRows and AESMC is MixColumns
 *                          (ARM ARM, C7.2 "AESE"); POWER's vcipher is
 *                          SubBytes + ShiftRows + MixColumns + AddRoundKey.
 *                          So ARM does first = nothing, round i = AESMC(AESE
 *                          (x, K[i])) for i = 0..nr-2, last = AESE(x,K[nr-1])
 *                          ^ K[nr]; POWER does first = x ^ K[0], round i =
 *                          vcipher(x, K[i+1]), last = vcipherlast(x, K[nr]).
 *                          Both are nr+1 key additions, in the same order.
 *   akv_dec_*              the same for decryption with the key array DK
 *                          built by akv_dec_key(): ARM uses the equivalent
 *                          inverse cipher (FIPS-197 5.3.5, AESIMC applied to
 *                          the middle keys); POWER's vncipher adds the round
 *                          key before InvMixColumns, i.e. the plain inverse
 *                          cipher with the encryption keys reversed.
 *   akv_gh_*               GHASH arithmetic in "GHASH order": the 16-byte
 *                          block read as one big-endian 128-bit integer, so
 *                          bit 127 is the coefficient of x^0 (SP 800-38D
 *                          6.3 reflects the bits).  akv_gh_swap() converts a
 *                          block between AES order and GHASH order (ARM: TBL
 *                          byte reversal; POWER: nothing, AES order already
 *                          is big-endian in the ISA's numbering).
 *   akv_ctr32_*            GCM's inc32 on a counter register kept so that a
 *                          32-bit lane add is exactly inc32 (wraps mod 2^32).
 *   akv_enc_*_k            the rounds with each key a value, not an array
 *                          entry (blocks of different keys in one round).
 *   akv_from_le64x2, akv_le64_lo/hi, akv_gh_from_u64  blocks from and to
 *                          64-bit integers (partial blocks, J0, lengths).
 *
 * Writing x86 in this vocabulary would map: load/store = movdqu, enc_round
 * = aesenc with K[i+1] after first = x ^ K[0] (POWER's shape), gh_swap =
 * pshufb, gh_mul_acc = three pclmulqdq (Karatsuba like ARM), and with VAES
 * akv would simply be __m256i/__m512i holding 2 or 4 blocks.
 */
#ifndef AESKIT_SIMD_AKV_H
#define AESKIT_SIMD_AKV_H

#include <stddef.h>
#include <stdint.h>

/* ========================================================================= */
#if defined(__aarch64__)

#if defined(__clang__) && !defined(__ARM_FEATURE_AES)
/* clang 14's arm_neon.h declares the AES intrinsics only when the whole
 * file is compiled for +aes; the target("crypto") attribute below is what
 * makes the instructions legal per function, so the declarations may be
 * exposed.  (clang 16 and gcc guard them by target attributes instead.) */
#define __ARM_FEATURE_AES 1
#endif
#include <arm_neon.h>

#if defined(__clang__)
#define AKV_TARGET __attribute__((target("crypto")))
#else
#define AKV_TARGET __attribute__((target("+crypto")))
#endif
#define AKV_INLINE static inline __attribute__((always_inline)) AKV_TARGET

typedef uint8x16_t akv;

AKV_INLINE akv akv_load(const uint8_t *p) { return vld1q_u8(p); }
AKV_INLINE void akv_store(uint8_t *p, akv v) { vst1q_u8(p, v); }
/* Register images for backend-private tables (no byte-order conversion). */
AKV_INLINE akv akv_load_raw(const uint8_t *p) { return vld1q_u8(p); }
AKV_INLINE void akv_store_raw(uint8_t *p, akv v) { vst1q_u8(p, v); }
AKV_INLINE akv akv_xor(akv a, akv b) { return veorq_u8(a, b); }
AKV_INLINE akv akv_and(akv a, akv b) { return vandq_u8(a, b); }
AKV_INLINE akv akv_zero(void) { return vdupq_n_u8(0); }

/* ---- AES rounds -------------------------------------------------------- */
AKV_INLINE akv akv_enc_first(akv x, const akv *K) { (void)K; return x; }
AKV_INLINE akv akv_enc_round(akv x, const akv *K, int i)
{
    return vaesmcq_u8(vaeseq_u8(x, K[i]));
}
AKV_INLINE akv akv_enc_last(akv x, const akv *K, int nr)
{
    return veorq_u8(vaeseq_u8(x, K[nr - 1]), K[nr]);
}
AKV_INLINE akv akv_dec_first(akv x, const akv *DK) { (void)DK; return x; }
AKV_INLINE akv akv_dec_round(akv x, const akv *DK, int i)
{
    return vaesimcq_u8(vaesdq_u8(x, DK[i]));
}
AKV_INLINE akv akv_dec_last(akv x, const akv *DK, int nr)
{
    return veorq_u8(vaesdq_u8(x, DK[nr - 1]), DK[nr]);
}
/* Middle decryption round key from encryption round key (FIPS-197 5.3.5). */
AKV_INLINE akv akv_dec_key(akv k) { return vaesimcq_u8(k); }

/* The rounds with the keys as values (kernels whose blocks do not share
 * one key array, src/simd/gcm_multi_akv.h).  With K a schedule:
 * akv_enc_first(x, K) = akv_enc_first_k(x, K[0]), akv_enc_round(x, K, i) =
 * akv_enc_round_k(x, K[i + AKV_RK_BASE]), akv_enc_last(x, K, nr) =
 * akv_enc_last_k(x, K[nr - 1 + AKV_RK_BASE], K[nr]); and last_k(x, kp, kl
 * ^ d) is last_k(x, kp, kl) ^ d (the key enters the last round by XOR). */
#define AKV_RK_BASE 0
AKV_INLINE akv akv_enc_first_k(akv x, akv k0) { (void)k0; return x; }
AKV_INLINE akv akv_enc_round_k(akv x, akv k) { return vaesmcq_u8(vaeseq_u8(x, k)); }
AKV_INLINE akv akv_enc_last_k(akv x, akv kp, akv kl) { return veorq_u8(vaeseq_u8(x, kp), kl); }

/* FIPS-197 SubWord on each byte of w.  AESE with a zero key is SubBytes
 * after ShiftRows; with all four columns equal ShiftRows changes nothing. */
AKV_INLINE uint32_t akv_subword(uint32_t w)
{
    uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))), 0);
}

/* ---- byte-wise helpers (AES order = memory order) ---------------------- */
AKV_INLINE akv akv_add8(akv a, akv b) { return vaddq_u8(a, b); }
/* 0xff in every byte whose top bit is set. */
AKV_INLINE akv akv_sign8(akv a) { return vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(a), 7)); }
/* Byte i of the result is byte i-1 of a (byte 0 gets byte 15). */
AKV_INLINE akv akv_rot1(akv a) { return vextq_u8(a, a, 15); }

/* ---- counters ----------------------------------------------------------- */
/* The counter register is the block with each 32-bit word byte-swapped
 * (REV32), so lane 3 holds the big-endian counter as a native integer. */
typedef uint32x4_t akv_ctr;
AKV_INLINE akv_ctr akv_ctr32_load(const uint8_t *p) { return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p))); }
AKV_INLINE void akv_ctr32_store(uint8_t *p, akv_ctr c) { vst1q_u8(p, vrev32q_u8(vreinterpretq_u8_u32(c))); }
/* The increment i as a counter register (hoisted out of loops by callers). */
AKV_INLINE akv_ctr akv_ctr32_step(uint32_t i) { return vsetq_lane_u32(i, vdupq_n_u32(0), 3); }
AKV_INLINE akv_ctr akv_ctr32_add(akv_ctr c, akv_ctr step) { return vaddq_u32(c, step); }
AKV_INLINE akv akv_ctr32_block(akv_ctr c) { return vrev32q_u8(vreinterpretq_u8_u32(c)); }
/* The block whose bytes are hi then lo, both big-endian (ctr128). */
AKV_INLINE akv akv_from_be64(uint64_t hi, uint64_t lo)
{
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(__builtin_bswap64(hi)),
                                             vcreate_u64(__builtin_bswap64(lo))));
}

/* The block in AES order whose 16 bytes in memory are those of w0 then w1
 * stored little-endian, and back (the pieces of a partial block). */
AKV_INLINE akv akv_from_le64x2(uint64_t w0, uint64_t w1)
{
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(w0), vcreate_u64(w1)));
}
AKV_INLINE uint64_t akv_le64_lo(akv v) { return vgetq_lane_u64(vreinterpretq_u64_u8(v), 0); }
AKV_INLINE uint64_t akv_le64_hi(akv v) { return vgetq_lane_u64(vreinterpretq_u64_u8(v), 1); }

/* ---- GHASH -------------------------------------------------------------- */
/* AES order <-> GHASH order: reverse the 16 bytes (an involution). */
AKV_INLINE akv akv_gh_swap(akv x)
{
    static const uint8_t rev[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    return vqtbl1q_u8(x, vld1q_u8(rev));
}

/* The block in GHASH order whose 128-bit integer is hi:lo. */
AKV_INLINE akv akv_gh_from_u64(uint64_t hi, uint64_t lo)
{
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
}

/* A power of H ready for multiplication: h itself and, for Karatsuba, the
 * XOR of its halves in lane 0. */
typedef struct { akv h, k; } akv_ghkey;
#define AKV_GHKEY_VECS 2
AKV_INLINE akv_ghkey akv_ghkey_make(akv h)
{
    akv_ghkey r;
    r.h = h;
    r.k = veorq_u8(h, vextq_u8(h, h, 8));
    return r;
}
AKV_INLINE akv_ghkey akv_ghkey_load_raw(const uint8_t *p)
{
    akv_ghkey r = {vld1q_u8(p), vld1q_u8(p + 16)};
    return r;
}
AKV_INLINE void akv_ghkey_store_raw(uint8_t *p, akv_ghkey k)
{
    vst1q_u8(p, k.h);
    vst1q_u8(p + 16, k.k);
}

/* Sums of the three partial products of a 128 x 128 multiply. */
typedef struct { akv lo, mid, hi; } akv_ghacc;

AKV_INLINE akv akv_pmull_lo(akv a, akv b)
{
    return vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(a), 0),
                                           vgetq_lane_p64(vreinterpretq_p64_u8(b), 0)));
}
AKV_INLINE akv akv_pmull_hi(akv a, akv b)
{
    return vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)));
}

AKV_INLINE akv_ghacc akv_gh_mul(akv x, akv_ghkey k)
{
    akv_ghacc a;
    a.lo = akv_pmull_lo(x, k.h);
    a.hi = akv_pmull_hi(x, k.h);
    a.mid = akv_pmull_lo(veorq_u8(x, vextq_u8(x, x, 8)), k.k);
    return a;
}
AKV_INLINE void akv_gh_mul_acc(akv_ghacc *a, akv x, akv_ghkey k)
{
    akv_ghacc t = akv_gh_mul(x, k);
    a->lo = veorq_u8(a->lo, t.lo);
    a->hi = veorq_u8(a->hi, t.hi);
    a->mid = veorq_u8(a->mid, t.mid);
}
/* Karatsuba's middle product still contains lo and hi. */
AKV_INLINE akv akv_gh_mid(akv_ghacc a) { return veorq_u8(a.mid, veorq_u8(a.lo, a.hi)); }
/* Halves of 64 bits, in 128-bit integer terms. */
AKV_INLINE akv akv_shl64(akv x) { return vextq_u8(vdupq_n_u8(0), x, 8); }
AKV_INLINE akv akv_shr64(akv x) { return vextq_u8(x, vdupq_n_u8(0), 8); }
AKV_INLINE akv akv_swap64(akv x) { return vextq_u8(x, x, 8); }
/* Low 64 bits of x times the 64-bit constant 0xc200000000000000. */
AKV_INLINE akv akv_clmul_c2(akv x)
{
    return vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(x), 0),
                                           (poly64_t)0xc200000000000000ull));
}

/* ========================================================================= */
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)

#include <altivec.h>
#undef vector
#undef pixel
#undef bool

#if defined(__clang__)
#define AKV_TARGET __attribute__((target("crypto,power8-vector")))
#else
#define AKV_TARGET __attribute__((target("cpu=power8")))
#endif
#define AKV_INLINE static inline __attribute__((always_inline)) AKV_TARGET

typedef __vector unsigned char akv;
typedef __vector unsigned int akv_u32;
typedef __vector unsigned long long akv_u64;

AKV_INLINE akv akv_load(const uint8_t *p) { return vec_xl_be(0, (unsigned char *)p); }
AKV_INLINE void akv_store(uint8_t *p, akv v) { vec_xst_be(v, 0, (unsigned char *)p); }
/* Register images for backend-private tables: doubleword-big-endian order is
 * one lxvd2x/stxvd2x on POWER8 (vec_xl would add an xxswapd to each), and a
 * store followed by a load in the same order gives the register back. */
AKV_INLINE akv akv_load_raw(const uint8_t *p) { return (akv)vec_xl_be(0, (unsigned long long *)p); }
AKV_INLINE void akv_store_raw(uint8_t *p, akv v) { vec_xst_be((akv_u64)v, 0, (unsigned long long *)p); }
AKV_INLINE akv akv_xor(akv a, akv b) { return vec_xor(a, b); }
AKV_INLINE akv akv_and(akv a, akv b) { return vec_and(a, b); }
AKV_INLINE akv akv_zero(void) { return vec_splats((unsigned char)0); }

/* ---- AES rounds (Power ISA 3.0B, Book I: vcipher, vncipher, ...last) --- */
AKV_INLINE akv akv_enc_first(akv x, const akv *K) { return vec_xor(x, K[0]); }
AKV_INLINE akv akv_enc_round(akv x, const akv *K, int i) { return vec_cipher_be(x, K[i + 1]); }
AKV_INLINE akv akv_enc_last(akv x, const akv *K, int nr) { return vec_cipherlast_be(x, K[nr]); }
AKV_INLINE akv akv_dec_first(akv x, const akv *DK) { return vec_xor(x, DK[0]); }
AKV_INLINE akv akv_dec_round(akv x, const akv *DK, int i) { return vec_ncipher_be(x, DK[i + 1]); }
AKV_INLINE akv akv_dec_last(akv x, const akv *DK, int nr) { return vec_ncipherlast_be(x, DK[nr]); }
AKV_INLINE akv akv_dec_key(akv k) { return k; }

/* The rounds with the keys as values: see the AArch64 words. */
#define AKV_RK_BASE 1
AKV_INLINE akv akv_enc_first_k(akv x, akv k0) { return vec_xor(x, k0); }
AKV_INLINE akv akv_enc_round_k(akv x, akv k) { return vec_cipher_be(x, k); }
AKV_INLINE akv akv_enc_last_k(akv x, akv kp, akv kl) { (void)kp; return vec_cipherlast_be(x, kl); }

AKV_INLINE uint32_t akv_subword(uint32_t w)
{
    akv_u32 v = vec_splats(w);
    v = (akv_u32)vec_sbox_be((akv)v);
    return v[0];
}

/* ---- byte-wise helpers --------------------------------------------------
 * In AES order, memory byte i sits in little-endian element 15-i. */
AKV_INLINE akv akv_add8(akv a, akv b) { return vec_add(a, b); }
AKV_INLINE akv akv_sign8(akv a)
{
    return (akv)vec_sra((__vector signed char)a, vec_splats((unsigned char)7));
}
AKV_INLINE akv akv_rot1(akv a)
{
    return __builtin_shufflevector(a, a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0);
}

/* ---- counters -------------------------------------------------------------
 * In AES order, bytes 12..15 are word element 0, as a native integer. */
typedef akv_u32 akv_ctr;
AKV_INLINE akv_ctr akv_ctr32_load(const uint8_t *p) { return (akv_ctr)akv_load(p); }
AKV_INLINE void akv_ctr32_store(uint8_t *p, akv_ctr c) { akv_store(p, (akv)c); }
AKV_INLINE akv_ctr akv_ctr32_step(uint32_t i)
{
    akv_u32 inc = {i, 0, 0, 0};
    return inc;
}
AKV_INLINE akv_ctr akv_ctr32_add(akv_ctr c, akv_ctr step) { return vec_add(c, step); }
AKV_INLINE akv akv_ctr32_block(akv_ctr c) { return (akv)c; }
AKV_INLINE akv akv_from_be64(uint64_t hi, uint64_t lo)
{
    akv_u64 v = {lo, hi};
    return (akv)v;
}

/* Memory-order words: {w0, w1} is the register vec_xl would load, AES
 * order its byte reversal. */
AKV_INLINE akv akv_bytes_reverse(akv a)
{
    return __builtin_shufflevector(a, a, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}
AKV_INLINE akv akv_from_le64x2(uint64_t w0, uint64_t w1)
{
    akv_u64 v = {w0, w1};
    return akv_bytes_reverse((akv)v);
}
AKV_INLINE uint64_t akv_le64_lo(akv v) { return ((akv_u64)akv_bytes_reverse(v))[0]; }
AKV_INLINE uint64_t akv_le64_hi(akv v) { return ((akv_u64)akv_bytes_reverse(v))[1]; }

/* ---- GHASH ---------------------------------------------------------------
 * AES order is already the big-endian integer (doubleword element 1 is the
 * high half).  vpmsumd multiplies both doubleword pairs and XORs the two
 * products, so a power of H is kept in three forms whose zero halves pick
 * the partial product wanted; the middle one (halves swapped) yields the
 * exact Karatsuba-free middle term x.hi*h.lo ^ x.lo*h.hi. */
AKV_INLINE akv akv_gh_swap(akv x) { return x; }

AKV_INLINE akv akv_gh_from_u64(uint64_t hi, uint64_t lo)
{
    akv_u64 v = {lo, hi};
    return (akv)v;
}

typedef struct { akv l, m, h; } akv_ghkey;
#define AKV_GHKEY_VECS 3
AKV_INLINE akv_ghkey akv_ghkey_make(akv h)
{
    akv_u64 z = {0, 0}, hv = (akv_u64)h;
    akv_ghkey r;
    r.l = (akv)__builtin_shufflevector(hv, z, 0, 2);   /* {h.lo, 0} */
    r.h = (akv)__builtin_shufflevector(hv, z, 2, 1);   /* {0, h.hi} */
    r.m = (akv)__builtin_shufflevector(hv, hv, 1, 0);  /* {h.hi, h.lo} */
    return r;
}
AKV_INLINE akv_ghkey akv_ghkey_load_raw(const uint8_t *p)
{
    akv_ghkey r = {akv_load_raw(p), akv_load_raw(p + 16), akv_load_raw(p + 32)};
    return r;
}
AKV_INLINE void akv_ghkey_store_raw(uint8_t *p, akv_ghkey k)
{
    akv_store_raw(p, k.l);
    akv_store_raw(p + 16, k.m);
    akv_store_raw(p + 32, k.h);
}

typedef struct { akv lo, mid, hi; } akv_ghacc;

AKV_INLINE akv akv_pmsum(akv a, akv b)
{
    return (akv)vec_pmsum_be((akv_u64)a, (akv_u64)b);
}
AKV_INLINE akv_ghacc akv_gh_mul(akv x, akv_ghkey k)
{
    akv_ghacc a;
    a.lo = akv_pmsum(x, k.l);
    a.mid = akv_pmsum(x, k.m);
    a.hi = akv_pmsum(x, k.h);
    return a;
}
AKV_INLINE void akv_gh_mul_acc(akv_ghacc *a, akv x, akv_ghkey k)
{
    a->lo = vec_xor(a->lo, akv_pmsum(x, k.l));
    a->mid = vec_xor(a->mid, akv_pmsum(x, k.m));
    a->hi = vec_xor(a->hi, akv_pmsum(x, k.h));
}
AKV_INLINE akv akv_gh_mid(akv_ghacc a) { return a.mid; }
AKV_INLINE akv akv_shl64(akv x)
{
    akv_u64 z = {0, 0};
    return (akv)__builtin_shufflevector((akv_u64)x, z, 2, 0);
}
AKV_INLINE akv akv_shr64(akv x)
{
    akv_u64 z = {0, 0};
    return (akv)__builtin_shufflevector((akv_u64)x, z, 1, 2);
}
AKV_INLINE akv akv_swap64(akv x)
{
    return (akv)__builtin_shufflevector((akv_u64)x, (akv_u64)x, 1, 0);
}
AKV_INLINE akv akv_clmul_c2(akv x)
{
    akv_u64 c = {0xc200000000000000ull, 0};
    return akv_pmsum(x, (akv)c);
}

#else
#error "akv.h: no vector vocabulary for this architecture"
#endif

/* ========================================================================= */
/* Shared words built from the ones above.                                   */

/* Reduces a 256-bit product (GHASH order, bit-reflected) modulo
 * P = x^128 + x^7 + x^2 + x + 1 (SP 800-38D 6.3).
 *
 * Why this works: with the block read as a big-endian integer, bit 127-k is
 * the coefficient of x^k (bits reflected).  A carry-less multiply of two
 * reflected 128-bit values gives the reflected 255-bit product shifted by
 * one place, i.e. the reflected product of A*B*x; the GHASH key is stored
 * as H*x^-1 (see akv_gh_twist) so the product comes out exactly as A*H in
 * 256 reflected bits.  Reflecting turns "reduce mod P" into a Montgomery
 * reduction by the reflected polynomial P* = y^128 + y^127 + y^126 + y^121
 * + 1 (Gueron and Kounavis, "Intel Carry-Less Multiplication Instruction
 * and its Usage for Computing the GCM Mode", 2010, section on the reflected
 * reduction): clear the low 128 bits 64 at a time by adding multiples of P*.
 * Adding L*P* for the low 64 bits L is L (clearing them), L*(y^127+y^126+
 * y^121) = clmul(L, 0xc2..00) placed 64 bits up, and L placed 128 bits up.
 * In registers, each phase is "swap the halves of lo and XOR clmul(lo.low,
 * 0xc2..00)"; after two phases what is left of lo, XORed into hi, is the
 * result.  Two 64x64 multiplies per reduction, and with aggregation one
 * reduction per 8 blocks. */
AKV_INLINE akv akv_gh_reduce(akv_ghacc a)
{
    akv mid = akv_gh_mid(a);
    akv lo = akv_xor(a.lo, akv_shl64(mid));
    akv hi = akv_xor(a.hi, akv_shr64(mid));
    lo = akv_xor(akv_swap64(lo), akv_clmul_c2(lo));
    lo = akv_xor(akv_swap64(lo), akv_clmul_c2(lo));
    return akv_xor(hi, lo);
}

/* H*x^-1 mod P in GHASH order: x^-1 = x^127 + x^6 + x + 1, reflected that is
 * the constant 0xc2000000000000000000000000000001, so H*x^-1 is "shift the
 * 128-bit integer left by one and, if the bit shifted out (the coefficient
 * of x^0) was set, XOR the constant".  Branch-free. */
AKV_INLINE akv akv_gh_twist(const uint8_t H[16])
{
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; i++) {
        hi = (hi << 8) | H[i];
        lo = (lo << 8) | H[8 + i];
    }
    uint64_t m = (uint64_t)0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = lo << 1;
    hi ^= m & 0xc200000000000000ull;
    lo ^= m & 1;
    /* akv_from_be64 builds the AES-order block; GHASH order is its swap. */
    return akv_gh_swap(akv_from_be64(hi, lo));
}

/* x * alpha in GF(2^128) for XTS (IEEE 1619-2018 5.2: little-endian, carry
 * out of byte 15 folds back as 0x87 into byte 0), on an AES-order register:
 * each byte doubles, and takes the carry of the byte before it. */
AKV_INLINE akv akv_xts_double(akv t, akv carry_mask)
{
    return akv_xor(akv_add8(t, t), akv_and(akv_rot1(akv_sign8(t)), carry_mask));
}

#endif /* AESKIT_SIMD_AKV_H */
