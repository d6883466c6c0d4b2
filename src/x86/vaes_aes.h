/*
 * vaes_aes.h - the x86-vaes backends' shared base: batch geometry, the
 * typed AES key (ak_vaes_aes_key), the key schedule, and the AES round
 * steps on whole vectors.
 *
 * CPU features: whatever the including width file's AK_TGT names: VAES,
 * VPCLMULQDQ, AES-NI, PCLMULQDQ, AVX2 (aes_vaes_avx2.c, ymm) and AVX-512
 * F/BW/VL (aes_vaes_avx512.c, zmm).  Every function carries that target
 * attribute; no global -m flag is used.
 *
 * Included, in this order, by the two width files after they define their
 * vector vocabulary (AK_TGT, AK_LANES, AK_KARATSUBA, vec_t, wmask_t and the
 * v_* functions): vaes_aes.h, vaes_ghash.h (GHASH, and THE derivation of
 * its math), vaes_block.h (ECB, CTR, CBC, XTS), vaes_gcm_bulk.h (the fused
 * GCM loop), vaes_gcm_small.h (whole short messages and the gcm_msgs entry).
 * The width files then spell out every backend function (ak_vaes2_*,
 * ak_vaes512_*) over the width-generic bodies here.
 *
 * GCM's counters (SP 800-38D inc32) are kept byte-swapped, i.e. as little-
 * endian 128-bit integers, so a vector add on the low 32-bit lane is exactly
 * inc32, wrapping modulo 2^32 with no carry into the upper 96 bits; one
 * vpshufb per vector turns them back into blocks (gctr, vaes_block.h: the
 * counter may be secret).  The one exception is the whole-message path
 * with a 96-bit IV, whose counters IV || 2, IV || 3, ... are public: it
 * forms them from a big-endian base block without the vpshufb, branching
 * on the low counter byte (gctrp, vaes_gcm_bulk.h).
 *
 * Constant time (all five vaes_*.h files and both width files).  Secrets:
 * the AES key and round keys, H and its powers, plaintext, ciphertext being
 * opened, GHASH state, tags, XTS tweaks and the CTR/GCM counters (J0 =
 * GHASH_H(IV) for IVs other than 96 bits).  Valgrind cannot run VAES; the
 * MemorySanitizer suite (55-ct-msan) runs this code with secrets poisoned,
 * and the rules below were checked by reading every function:
 *  - branches: only on lengths (nb, len, aad_len, nA, nC, m, nt, rem and
 *    the window bounds derived from them), the round count (the switch of
 *    every entry, loop bounds) and compile-time constants (enc/dec, NVEC,
 *    j == 0); the key schedule's `i % nk` and rcon depend on the key
 *    length only;
 *  - memory indices: round-key and H-power table offsets depend on the
 *    round count and block counts; the AVX2 tail mask table (v_and_w) and
 *    byte copies (v_load_w/v_store_w) are indexed by window bounds, i.e.
 *    lengths; v_lane_select's mask (AVX-512 branch) by nt, a length;
 *  - no table lookups: SubWord and all S-boxes are AES-NI/VAES
 *    instructions, GHASH is carry-less multiplication, the H-doubling carry
 *    in vaes_ghash_init is an arithmetic-shift mask;
 *  - counters: ctr32 and the fused GCM kernels form every counter by a
 *    32-bit lane add and one vpshufb, with no branch on the counter value
 *    (vaes_gcm_body with pub = 0: the streaming gcm_encrypt/decrypt, whose
 *    J0 may be GHASH_H(IV)); only vaes_gcm_body with pub = 1, reached from
 *    vaes_gcm_long (96-bit IV, J0 = IV || 1: public) branches once per
 *    batch on whether the low counter byte can carry (vaes_gctrp_next_4x);
 *    vaes_ctr128 branches once per call on whether the low word wraps, on
 *    purpose: its callers (CTR, CCM) have public counters, never GCM's;
 *    the returned counters are computed with plain adds;
 *  - vaes_setkey wipes its stack copy of the schedule; tags are not
 *    compared here (the mode layer uses ak_ct_eq_mask).
 */
#ifndef AK_TGT
#error "vaes_aes.h is included by aes_vaes_avx2.c / aes_vaes_avx512.c after their vector vocabulary"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

/* Inline steps, the functions behind a backend entry, and the kernels that
 * must stay functions of their own (see vaes_gcm_small.h). */
#define VAES_INLINE static inline __attribute__((always_inline, target(AK_TGT)))
#define VAES_KERNEL static __attribute__((target(AK_TGT)))
#if defined(__clang__)
/* clang 14 has no noipa, and -Werror turns the unknown attribute into a
 * build failure; noinline alone keeps each kernel a function of its own. */
#define VAES_NOINLINE static __attribute__((noinline, target(AK_TGT)))
#else
#define VAES_NOINLINE static __attribute__((noinline, noipa, target(AK_TGT)))
#endif

#define NV 4                  /* vectors per AES/GCM batch */
#define BATCH (NV * AK_LANES) /* blocks per AES/GCM batch */
#define VB (16 * AK_LANES)    /* bytes per vector */

/* ---- the AES key -------------------------------------------------------- */

/* The backend-owned part of ak_aes (ak_aes.data, AK_AES_DATA_BYTES). */
typedef struct {
    /* Encryption round keys 0..rounds: FIPS-197 5.2 KeyExpansion, w[4i..4i+3]
     * as round key i; rows past `rounds` are zero. */
    uint8_t enc[15][16];
    /* Decryption round keys of the Equivalent Inverse Cipher (FIPS-197
     * 5.3.5): dec[0] = enc[rounds], dec[i] = InvMixColumns(enc[rounds - i])
     * (AESIMC) for 0 < i < rounds, dec[rounds] = enc[0]. */
    uint8_t dec[15][16];
    /* enc[i] broadcast to every lane of a vector, so the GCM and CTR loops
     * load a round key as one plain vector load (or a memory operand of
     * VAESENC) instead of a broadcast.  _Alignas puts it on a vector
     * boundary: on zmm that pads 480 -> 512 (32 unused bytes after dec),
     * on ymm 480 is already one.  Measured against broadcasting from enc
     * at every kernel entry: docs/design.md, "The VAES key layout". */
    _Alignas(VB) uint8_t enc_v[15][VB];
} ak_vaes_aes_key;
_Static_assert(sizeof(ak_vaes_aes_key) <= AK_AES_DATA_BYTES, "ak_vaes_aes_key fits ak_aes.data");
_Static_assert(_Alignof(ak_vaes_aes_key) <= 64, "ak_aes.data is 64-byte aligned");
_Static_assert(offsetof(ak_vaes_aes_key, enc) == 0, "cbc_lanes_vaes*.c read enc at offset 0");

VAES_INLINE const ak_vaes_aes_key *vaes_aes_key(const ak_aes *k) { return (const ak_vaes_aes_key *)(const void *)k->data; }
VAES_INLINE ak_vaes_aes_key *vaes_aes_key_w(ak_aes *k) { return (ak_vaes_aes_key *)(void *)k->data; }

/* ---- 128-bit helpers ---------------------------------------------------- */

VAES_INLINE __m128i x_bswap_mask(void) { return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
VAES_INLINE __m128i x_load(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
VAES_INLINE void x_store(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }

/* Window loads and stores (see v_wmask in the width file): the bytes of
 * vector-sized window `off` that lie inside [0, n). */
VAES_INLINE vec_t v_load_window(const void *p, ptrdiff_t off, size_t n) { return v_load_w(p, off, v_wmask(off, n)); }
VAES_INLINE void v_store_window(void *p, ptrdiff_t off, size_t n, vec_t v) { v_store_w(p, off, v_wmask(off, n), v); }
VAES_INLINE vec_t v_and_window(vec_t v, ptrdiff_t off, size_t n) { return v_and_w(v, v_wmask(off, n)); }

/* Number of vectors that hold n tail bytes, 1..NV (n < one batch): every
 * tail switches on it so each tail loop has a compile-time trip count. */
VAES_INLINE size_t vaes_tail_vectors(size_t n) { return (n + VB - 1) / VB; }

/* Makes the key pointer opaque to the compiler at the start of a kernel
 * instantiated once per round count.  Without it GCC hoists the round-key
 * loads the three instantiations share above the switch on the round
 * count, into registers, so that each VAESENC takes a register instead of
 * its key as a memory operand: one instruction more per round in kernels
 * that use each key once. */
VAES_INLINE void vaes_keys_opaque(const ak_vaes_aes_key **ks) { __asm__("" : "+r"(*ks)); }

/* ---- GCM counter words ---------------------------------------------------- */

/* Counter words for whole short messages: lane g (counting across vectors)
 * holds inc32^g(J0) ^ J0.  J0's counter word is 1 (AK_GCM_J0_IV12) and
 * inc32^g(J0)'s is 1 + g, which for g < 255 differs from it in the last
 * byte only, by (1 + g) ^ 1.  XORed onto J0 it gives the counter blocks in
 * byte order with no byte swap and no add on the way to the first round.
 * 41 lanes: a vector load from lane 37 (the batch chain's last block of
 * its largest shape, vaes_gcm_chain.h) reads up to lane 40. */
#define VAES_CTR_WORDS 41
static const uint8_t vaes_tiny_ctr_words[16 * VAES_CTR_WORDS] __attribute__((aligned(64))) = {
    [15] = 0x01 ^ 0x01, [31] = 0x02 ^ 0x01, [47] = 0x03 ^ 0x01, [63] = 0x04 ^ 0x01,
    [79] = 0x05 ^ 0x01, [95] = 0x06 ^ 0x01, [111] = 0x07 ^ 0x01, [127] = 0x08 ^ 0x01,
    [143] = 0x09 ^ 0x01, [159] = 0x0a ^ 0x01, [175] = 0x0b ^ 0x01, [191] = 0x0c ^ 0x01,
    [207] = 0x0d ^ 0x01, [223] = 0x0e ^ 0x01, [239] = 0x0f ^ 0x01, [255] = 0x10 ^ 0x01,
    [271] = 0x11 ^ 0x01, [287] = 0x12 ^ 0x01, [303] = 0x13 ^ 0x01, [319] = 0x14 ^ 0x01,
    [335] = 0x15 ^ 0x01, [351] = 0x16 ^ 0x01, [367] = 0x17 ^ 0x01, [383] = 0x18 ^ 0x01,
    [399] = 0x19 ^ 0x01, [415] = 0x1a ^ 0x01, [431] = 0x1b ^ 0x01, [447] = 0x1c ^ 0x01,
    [463] = 0x1d ^ 0x01, [479] = 0x1e ^ 0x01, [495] = 0x1f ^ 0x01, [511] = 0x20 ^ 0x01,
    [527] = 0x21 ^ 0x01, [543] = 0x22 ^ 0x01, [559] = 0x23 ^ 0x01, [575] = 0x24 ^ 0x01,
    [591] = 0x25 ^ 0x01, [607] = 0x26 ^ 0x01, [623] = 0x27 ^ 0x01, [639] = 0x28 ^ 0x01,
    [655] = 0x29 ^ 0x01};

/* IV || 0^32 of a 12-byte IV in byte order, nothing read past the IV's
 * 12 bytes: a masked load on the zmm build, an 8-byte and a 4-byte load
 * on the ymm one.  The gcm_seal12 entry's ivz. */
VAES_INLINE __m128i vaes_ivz_iv12(const uint8_t *iv)
{
#if AK_LANES == 4
    return _mm_maskz_loadu_epi8(0x0fff, iv);
#else
    uint32_t w2;
    memcpy(&w2, iv + 8, 4);
    return _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)iv), (int)w2, 2);
#endif
}

/* J0 = IV || 0^31 || 1 (SP 800-38D 7.1 step 2) of a 12-byte IV, in byte
 * order. */
VAES_INLINE __m128i vaes_j0_iv12(const uint8_t *iv)
{
    return _mm_or_si128(vaes_ivz_iv12(iv), _mm_set_epi32(0x01000000, 0, 0, 0));
}

/* ---- the multi-message GCM kernels ---------------------------------------- */

/* The batch API's multi-message GCM kernel, compiled in gcm_multi_vaes512.c
 * (vaes_gcm_multi.h): runs the longest prefix of m[0..n) it takes and
 * returns how many messages that was, 0 if it takes none.  Only the zmm
 * build has it: its lane transposes are AVX-512 shuffles. */
#if AK_LANES == 4 && !AK_KARATSUBA
#define VAES_MULTI 1
__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_group(ak_gcm_msg *m, size_t n);
/* The same on checked public descriptors of one direction (the gcm_batch
 * hook, src/internal.h; vaes_gcm_multi.h's PUB form). */
__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_group_pub(const aeskit_gcm_msg *m, size_t n,
                                                                      uint32_t dir, uint8_t (*T)[16]);
/* Group after group, the longest run of such descriptors it takes (the
 * gcm_batch entry, aes_vaes_avx512.c); a message the run can start with
 * has len <= VAES_MULTI_LEN and aad_len <= 16. */
__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_run_pub(const aeskit_gcm_msg *m, size_t n,
                                                                    uint32_t dir, uint8_t (*T)[16]);
#define VAES_MULTI_LEN 64
#endif
/* The ymm build's (gcm_multi_vaes2.c, vaes_gcm_multi2.h): group after
 * group, the longest run of checked public descriptors of one direction
 * it takes (the gcm_batch entry, aes_vaes_avx2.c); a message the run can
 * start with has 1 <= len <= VAES_MX2_LEN and aad_len <= 16. */
#if AK_LANES == 2
__attribute__((target(AK_TGT))) size_t ak_vaes2_gcm_multi_run_pub(const aeskit_gcm_msg *m, size_t n, uint32_t dir,
                                                                  uint8_t (*T)[16]);
#define VAES_MX2_LEN 64
#endif

/* ---- key schedule ------------------------------------------------------- */

/* SubWord via AESENCLAST: with the word in all four columns, ShiftRows is
 * the identity, so AESENCLAST(w, 0) = SubBytes(w) in every column. */
VAES_INLINE uint32_t vaes_subword(uint32_t w)
{
    __m128i x = _mm_aesenclast_si128(_mm_set1_epi32((int)w), _mm_setzero_si128());
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* FIPS-197 section 5.2 KeyExpansion, words little-endian (byte 0 low), so
 * RotWord is a right rotation by 8; then the Equivalent Inverse Cipher's
 * schedule (section 5.3.5) with AESIMC, and the broadcast copy.  Branches
 * and `i % nk` depend on the key length only; the stack copy is wiped. */
VAES_INLINE void vaes_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    ak_vaes_aes_key *ks = vaes_aes_key_w(k);
    uint32_t w[60];
    unsigned nk = (unsigned)(key_len / 4), rounds = nk + 6, total = 4 * (rounds + 1);
    uint32_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = vaes_subword(t);
            t = ((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk > 6 && i % nk == 4) {
            t = vaes_subword(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memset(k->data, 0, sizeof k->data);
    memcpy(ks->enc, w, 16 * (rounds + 1));
    x_store(ks->dec[0], x_load(ks->enc[rounds]));
    for (unsigned i = 1; i < rounds; i++)
        x_store(ks->dec[i], _mm_aesimc_si128(x_load(ks->enc[rounds - i])));
    x_store(ks->dec[rounds], x_load(ks->enc[0]));
    for (unsigned i = 0; i <= rounds; i++)
        v_storeu(ks->enc_v[i], v_bcast(ks->enc[i]));
    k->rounds = rounds;
    k->key_len = (uint32_t)key_len;
    volatile uint32_t *vw = w;
    for (unsigned i = 0; i < 60; i++)
        vw[i] = 0;
}

/* ---- round keys in registers -------------------------------------------- */

/* K[0..R] = the 16-byte round keys rk[0..R] broadcast to every lane. */
VAES_INLINE void vaes_load_keys_bcast(vec_t K[15], const uint8_t (*rk)[16], const int R)
{
    _Pragma("GCC unroll 15")
    for (int i = 0; i <= R; i++)
        K[i] = v_bcast(rk[i]);
}

/* K[0..R] = the encryption round keys, from the whole-vector copies. */
VAES_INLINE void vaes_load_enc_keys(vec_t K[15], const ak_vaes_aes_key *ks, const int R)
{
    _Pragma("GCC unroll 15")
    for (int i = 0; i <= R; i++)
        K[i] = v_loadu(ks->enc_v[i]);
}

/* The broadcast round keys where they are, for a kernel that reads K[r]
 * as memory operands: the compiler then loads a key where it needs it (a
 * vector load, or VAESENC's own memory operand) instead of keeping all
 * R + 1 in registers for the whole function and, when a large function
 * runs out of them, copying keys to its stack frame and back. */
VAES_INLINE const vec_t *vaes_enc_keys_mem(const ak_vaes_aes_key *ks)
{
    return (const vec_t *)(const void *)ks->enc_v;
}

/* The round keys of a one-message GCM kernel (tiny, short, one pass, two
 * groups).  On zmm (32 registers) they are loaded into buf and stay in
 * registers.  On ymm the 16 registers go to the data vectors and the GHASH
 * sums; a register copy of R + 1 keys there is spilled to the stack frame
 * and reloaded round by round, so the kernel reads the key object's own
 * copies as memory operands instead (vaes_enc_keys_mem). */
VAES_INLINE const vec_t *vaes_kernel_keys(vec_t buf[15], const ak_vaes_aes_key *ks, const int R)
{
#if AK_LANES == 2
    (void)buf;
    (void)R;
    return vaes_enc_keys_mem(ks);
#else
    vaes_load_enc_keys(buf, ks, R);
    return buf;
#endif
}

/* ---- AES round steps ---------------------------------------------------- */

/* x[0..N) = AES(x) (x already XORed with K[0]) with the final round's key
 * replaced by K[R] ^ fin[j]: the data (CTR, GCM), tweak (XTS) or chaining
 * value (CBC) enters through VAESENCLAST for free.  N = NV for whole
 * batches, fewer for a tail (only the vectors that hold data: a one-block
 * call must not pay for a whole batch of rounds). */
VAES_INLINE void vaes_aes_enc_n(vec_t *x, const vec_t *K, const vec_t *fin, const int N, const int R)
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

/* The same with the Equivalent Inverse Cipher's keys (ak_vaes_aes_key.dec). */
VAES_INLINE void vaes_aes_dec_n(vec_t *x, const vec_t *K, const vec_t *fin, const int N, const int R)
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

/* One AES round on the four vectors of a batch (the fused GCM loop's step). */
VAES_INLINE void vaes_aes_round_4x(vec_t *x, vec_t k)
{
    _Static_assert(NV == 4, "a batch is four vectors");
    x[0] = v_enc(x[0], k);
    x[1] = v_enc(x[1], k);
    x[2] = v_enc(x[2], k);
    x[3] = v_enc(x[3], k);
}
