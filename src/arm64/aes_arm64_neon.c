/*
 * aes_arm64_neon.c - the arm64-neon backend: AES by vector permutes
 * (M. Hamburg, "Accelerating AES with vector permute instructions",
 * CHES 2009) for AArch64 CPUs without the Cryptographic Extension (e.g.
 * Cortex-A72 as in the Raspberry Pi 4).  CPU features: ASIMD only, which
 * every AArch64 Linux system has (HWCAP_ASIMD); the file is built for plain
 * ARMv8-A.
 *
 * The AES is the x86-ssse3 backend's (src/x86/aes_ssse3.c: the derivation
 * of the nibble tables, the fixsliced rounds and the key forms are in its
 * header) with TBL as the byte shuffle.  TBL returns 0 for an index >= 16
 * where PSHUFB returns 0 for an index with bit 7 set; every index this code
 * looks up is either below 16 or has bit 7 set and is below 0x90 (the
 * "infinity" 0x80 of the inversion tables XORed with a nibble), so the two
 * instructions agree on every input and the tables are the same: printed by
 * src/x86/aes_ssse3_gen.py, which checks them on all 256 inputs.
 *
 * GHASH: NEON's PMULL on 8-bit lanes (vmull_p8, baseline ASIMD, unlike the
 * 64-bit PMULL of FEAT_PMULL) composes each 64x64 carry-less product
 * (below, "GHASH"); Karatsuba makes a 128x128 product three of them, and a
 * step of four blocks sums four products before one reduction.
 *
 * Constant time: TBL looks up 16-byte tables held in registers, PMULL.8B
 * multiplies registers, so no secret reaches a memory address; no branch
 * depends on key or data (only on the number of rounds and of blocks, which
 * are public).
 *
 * Key object: ak_aes.data holds ak_neon_key (the same forms as x86-ssse3's
 * ak_ssse3_key); ak_ghash.data holds ak_neon_ghash_key.  The parallel modes
 * run four blocks per step, the serial ones one block with its chain
 * shortened as on x86.
 */
#include "../internal.h"
#include "../simd/vpaes_tables.h"

#ifdef AK_ARCH_AARCH64
#include <arm_neon.h>

#define NP_INLINE static inline __attribute__((always_inline))

typedef uint8x16_t v16;

/* ak_aes.data of arm64-neon: the layout of both vector-permute backends
 * (src/simd/vpaes_tables.h). */
typedef ak_vpaes_key ak_neon_key;

static inline const ak_neon_key *neon_key(const ak_aes *k)
{
    return (const ak_neon_key *)(const void *)k->data;
}
static inline ak_neon_key *neon_key_mut(ak_aes *k)
{
    return (ak_neon_key *)(void *)k->data;
}

/* Table t at index v (16-entry lookup, 0 for v >= 16). */
NP_INLINE v16 np_shuf(int t, v16 v) { return vqtbl1q_u8(vld1q_u8(vp_tab[t]), v); }

/* A linear map of every byte given by its two nibble tables. */
NP_INLINE v16 np_lin(v16 x, int lo, int hi)
{
    return veorq_u8(np_shuf(lo, vandq_u8(x, vdupq_n_u8(0x0f))), np_shuf(hi, vshrq_n_u8(x, 4)));
}

/* The inversion core: from the tower byte t = (k << 4) | i to io and jo
 * (src/x86/aes_ssse3.c, "SubBytes as nibble lookups"). */
NP_INLINE void np_core(v16 t, v16 *io, v16 *jo)
{
    v16 i = vandq_u8(t, vdupq_n_u8(0x0f)), k = vshrq_n_u8(t, 4);
    v16 j = veorq_u8(i, k);
    v16 ak = np_shuf(T_AINV, k);
    v16 p = veorq_u8(np_shuf(T_INV, i), ak), q = veorq_u8(np_shuf(T_INV, j), ak);
    *io = veorq_u8(np_shuf(T_INV, p), j);
    *jo = veorq_u8(np_shuf(T_INV, q), i);
}

/* tab_io[io] ^ tab_jo[jo] for the pair of tables starting at t. */
NP_INLINE v16 np_pair(int t, v16 io, v16 jo) { return veorq_u8(np_shuf(t, io), np_shuf(t + 1, jo)); }

/* Middle rounds on tower-basis states (x86-ssse3's vp_enc_mid):
 * b = d ^ rot1(d ^ s) ^ rot2(s ^ rot1 s) ^ key, s = S(x), d = 2 S(x);
 * rot1 rot2 = rot3 for the byte moves of one m.  Both forms below take
 * two byte moves (TBL by the constants r2, r1), the fewest MixColumns
 * needs, and differ in where the XORs go:
 *  - several blocks are bound by the vector ports and use the fewest
 *    XORs, h = d ^ rot2 s, b = (h ^ key) ^ rot1(h ^ s): 6 operations
 *    after s and d, 5 of them on the chain (rot2 s, h, h ^ s, TBL, last
 *    XOR);
 *  - one block alone is bound by the round's latency, so 3 s = s ^ d and
 *    d ^ key are formed beside rot2 s, and
 *    b = ((d ^ key) ^ r) ^ rot1(3 s ^ r), r = rot2 s: 7 operations, 4 on
 *    the chain (r, 3 s ^ r, TBL, last XOR), no longer than looking up
 *    3 S(x) and taking rot3 s by a third TBL (10 operations).  Counting
 *    every instruction as one step, the one-block round's chain is 12:
 *    and/ushr, j, 1/j, q, 1/q, jo, S lookup, pair XOR, and those 4. */
/* One middle round with the byte moves r1, r2 = rot1, rot2 of m = r mod 4
 * and the round key kr. */
NP_INLINE void np_enc_round(v16 *x, int nb, v16 kr, v16 r1, v16 r2)
{
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        np_core(x[b], &io, &jo);
        v16 s = np_pair(T_MS_IO, io, jo), d = np_pair(T_MS2_IO, io, jo);
        if (nb == 1) {
            v16 t = veorq_u8(s, d), a = veorq_u8(d, kr), r = vqtbl1q_u8(s, r2);
            /* keeps the compiler from reassociating d ^ key and 3 s back
             * onto the chain */
            __asm__("" : "+w"(t), "+w"(a));
            v16 e = vqtbl1q_u8(veorq_u8(t, r), r1);
            x[b] = veorq_u8(veorq_u8(a, r), e);
            continue;
        }
        v16 h = veorq_u8(d, vqtbl1q_u8(s, r2));
        v16 e = vqtbl1q_u8(veorq_u8(h, s), r1);
        x[b] = veorq_u8(veorq_u8(h, kr), e);
    }
}

/* Rounds 1 .. rounds-1, four per step so that m = r mod 4 is a constant
 * of each and the byte-move vectors stay in registers; the 1 (AES-128,
 * AES-256) or 3 (AES-192) rounds left start at r = 1 mod 4. */
NP_INLINE void np_enc_mid(const ak_aes *k, v16 *x, int nb)
{
    const ak_neon_key *K = neon_key(k);
    const unsigned rounds = k->rounds;
    v16 r1[4], r2[4];
    for (int m = 0; m < 4; m++) {
        r1[m] = vld1q_u8(vp_rot1[m]);
        r2[m] = vld1q_u8(vp_rot2[m]);
    }
    /* rk walks the round keys; a pointer (not an unsigned index, whose
     * wrap-around the compiler must keep) lets each load use an offset */
    const uint8_t(*rk)[16] = K->enc + 1, (*const end)[16] = K->enc + rounds;
    for (; end - rk >= 4; rk += 4) {
        np_enc_round(x, nb, vld1q_u8(rk[0]), r1[1], r2[1]);
        np_enc_round(x, nb, vld1q_u8(rk[1]), r1[2], r2[2]);
        np_enc_round(x, nb, vld1q_u8(rk[2]), r1[3], r2[3]);
        np_enc_round(x, nb, vld1q_u8(rk[3]), r1[0], r2[0]);
    }
    np_enc_round(x, nb, vld1q_u8(rk[0]), r1[1], r2[1]);
    if (end - rk > 1) {
        np_enc_round(x, nb, vld1q_u8(rk[1]), r1[2], r2[2]);
        np_enc_round(x, nb, vld1q_u8(rk[2]), r1[3], r2[3]);
    }
}

/* Encrypts nb (1..4, a constant after inlining) blocks in registers; the
 * state stays in the tower basis from the whitening to the last round. */
NP_INLINE void np_encrypt(const ak_aes *k, v16 *x, int nb)
{
    const ak_neon_key *K = neon_key(k);
    const unsigned rounds = k->rounds;
    const v16 k0 = vld1q_u8(K->enc[0]);
    for (int b = 0; b < nb; b++)
        x[b] = np_lin(veorq_u8(x[b], k0), T_IN_LO, T_IN_HI);
    np_enc_mid(k, x, nb);
    const v16 kr = vld1q_u8(K->enc[rounds]), fix = vld1q_u8(vp_sr[rounds & 3]);
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        np_core(x[b], &io, &jo);
        x[b] = vqtbl1q_u8(veorq_u8(np_pair(T_S_IO, io, jo), kr), fix);
    }
}

/* Decryption in the basis D = M o L^-1 (the equivalent inverse cipher with
 * an explicit InvShiftRows, as x86-ssse3's vp_decrypt). */
NP_INLINE void np_decrypt(const ak_aes *k, v16 *x, int nb)
{
    const ak_neon_key *K = neon_key(k);
    const unsigned rounds = k->rounds;
    const v16 isr = vld1q_u8(vp_sr[3]), r1 = vld1q_u8(vp_rot1[0]), r2 = vld1q_u8(vp_rot2[0]),
              r3 = vld1q_u8(vp_rot3m[0]);
    const v16 kn = vld1q_u8(K->dec[rounds]);
    for (int b = 0; b < nb; b++)
        x[b] = np_lin(vqtbl1q_u8(veorq_u8(x[b], kn), isr), T_DN_LO, T_DN_HI);
    for (unsigned r = rounds - 1; r > 0; r--) {
        const v16 kr = vld1q_u8(K->dec[r]);
        for (int b = 0; b < nb; b++) {
            v16 io, jo;
            np_core(x[b], &io, &jo);
            v16 e = np_pair(T_DE_IO, io, jo), bb = np_pair(T_DB_IO, io, jo);
            v16 dd = np_pair(T_DD_IO, io, jo), nn = np_pair(T_D9_IO, io, jo);
            e = veorq_u8(veorq_u8(e, kr), vqtbl1q_u8(bb, r1));
            dd = veorq_u8(vqtbl1q_u8(dd, r2), vqtbl1q_u8(nn, r3));
            /* the next round's InvShiftRows, applied here to the sum */
            x[b] = vqtbl1q_u8(veorq_u8(e, dd), isr);
        }
    }
    const v16 k0 = vld1q_u8(K->dec[0]);
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        np_core(x[b], &io, &jo);
        x[b] = veorq_u8(np_pair(T_I_IO, io, jo), k0);
    }
}

/* ---- Key setup ------------------------------------------------------------ */

static uint8_t np_xt(uint8_t v) { return (uint8_t)(((unsigned)v << 1) ^ (0x1bu & (0u - (unsigned)(v >> 7)))); }

/* InvMixColumns of one 16-byte round key (FIPS-197 5.3.3), branch-free. */
static void np_inv_mix_key(uint8_t o[16], const uint8_t in[16])
{
    for (int c = 0; c < 4; c++) {
        const uint8_t *a = in + 4 * c;
        for (int r = 0; r < 4; r++) {
            uint8_t a0 = a[r], a1 = a[(r + 1) & 3], a2 = a[(r + 2) & 3], a3 = a[(r + 3) & 3];
            /* 0e a0 ^ 0b a1 ^ 0d a2 ^ 09 a3 */
            uint8_t x2_0 = np_xt(a0), x4_0 = np_xt(x2_0), x8_0 = np_xt(x4_0);
            uint8_t x2_1 = np_xt(a1), x8_1 = np_xt(np_xt(x2_1));
            uint8_t x4_2 = np_xt(np_xt(a2)), x8_2 = np_xt(x4_2);
            uint8_t x8_3 = np_xt(np_xt(np_xt(a3)));
            o[4 * c + r] = (uint8_t)(x8_0 ^ x4_0 ^ x2_0 ^ x8_1 ^ x2_1 ^ a1 ^ x8_2 ^ x4_2 ^ a2 ^
                                     x8_3 ^ a3);
        }
    }
}

static void np_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint8_t rk[240], t[16];
    ak_neon_key *K = neon_key_mut(k);
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
        v16 v = vld1q_u8(t);
        if (r > 0 && r < n)
            v = np_lin(v, T_IN_LO, T_IN_HI);
        vst1q_u8(K->enc[r], v);
        if (r == n)
            vst1q_u8(K->last, np_lin(v, T_IN_LO, T_IN_HI));
        /* dec: K_n ^ 0x63, D(InvMC(K_r) ^ 0x63) in between, K_0 */
        if (r == 0) {
            memcpy(K->dec[0], rk, 16);
        } else if (r == n) {
            for (unsigned b = 0; b < 16; b++)
                K->dec[r][b] = (uint8_t)(rk[16 * r + b] ^ 0x63);
        } else {
            np_inv_mix_key(t, rk + 16 * r);
            for (int b = 0; b < 16; b++)
                t[b] ^= 0x63;
            vst1q_u8(K->dec[r], np_lin(vld1q_u8(t), T_DN_LO, T_DN_HI));
        }
    }
    aeskit_memzero(rk, sizeof rk);
    aeskit_memzero(t, sizeof t);
}

/* ---- ECB ------------------------------------------------------------------ */

/* Four blocks per step, then two and one. */
static void np_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    v16 x[4];
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        for (int b = 0; b < 4; b++)
            x[b] = vld1q_u8(in + 16 * b);
        if (dec)
            np_decrypt(k, x, 4);
        else
            np_encrypt(k, x, 4);
        for (int b = 0; b < 4; b++)
            vst1q_u8(out + 16 * b, x[b]);
    }
    if (n >= 2) {
        x[0] = vld1q_u8(in);
        x[1] = vld1q_u8(in + 16);
        if (dec)
            np_decrypt(k, x, 2);
        else
            np_encrypt(k, x, 2);
        vst1q_u8(out, x[0]);
        vst1q_u8(out + 16, x[1]);
        n -= 2;
        in += 32;
        out += 32;
    }
    if (n) {
        x[0] = vld1q_u8(in);
        if (dec)
            np_decrypt(k, x, 1);
        else
            np_encrypt(k, x, 1);
        vst1q_u8(out, x[0]);
    }
}

static void np_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    np_ecb(k, out, in, nblocks, 0);
}

static void np_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    np_ecb(k, out, in, nblocks, 1);
}

/* ---- Serial modes: one block at a time ------------------------------------ */

/* As x86-ssse3's vp_serial: between blocks the chaining value stays in the
 * tower basis, M(E(s) ^ p ^ K0) = SR^j(M(S) ^ M(K'_n)) ^ M(p ^ K0), whose
 * second term does not wait for the previous block.  The AES-basis output
 * is computed beside it where a mode needs it (every CBC block, the last
 * CBC-MAC block).  M(K'_n) is ak_neon_key.last. */
static void np_serial(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t chain[16])
{
    const ak_neon_key *K = neon_key(k);
    const unsigned rounds = k->rounds;
    const v16 k0 = vld1q_u8(K->enc[0]), kn = vld1q_u8(K->enc[rounds]), knt = vld1q_u8(K->last);
    const v16 fix = vld1q_u8(vp_sr[rounds & 3]);
    v16 e = vld1q_u8(chain);
    v16 x = np_lin(veorq_u8(veorq_u8(e, vld1q_u8(in)), k0), T_IN_LO, T_IN_HI);
    for (size_t i = 0; i < n; i++) {
        np_enc_mid(k, &x, 1);
        v16 io, jo;
        np_core(x, &io, &jo);
        if (out || i + 1 == n) {
            e = vqtbl1q_u8(veorq_u8(np_pair(T_S_IO, io, jo), kn), fix);
            if (out)
                vst1q_u8(out + 16 * i, e);
        }
        if (i + 1 < n) {
            v16 p = np_lin(veorq_u8(vld1q_u8(in + 16 * (i + 1)), k0), T_IN_LO, T_IN_HI);
            x = veorq_u8(vqtbl1q_u8(veorq_u8(np_pair(T_MS_IO, io, jo), knt), fix), p);
        }
    }
    vst1q_u8(chain, e);
}

static void np_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t iv[16])
{
    if (nblocks)
        np_serial(k, out, in, nblocks, iv);
}

static void np_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks)
        np_serial(k, NULL, in, nblocks, state);
}

/* ---- Parallel modes: four blocks per step, then 2 and 1 ------------------- */

/* The counter block of the 64-bit big-endian halves hi, lo. */
NP_INLINE v16 np_ctr_block(uint64_t hi, uint64_t lo)
{
    return vrev64q_u8(vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(hi), vcreate_u64(lo))));
}

/* nb blocks of CTR from the counter (hi, lo), which it advances; wide = 0
 * is GCM's inc32, 1 the 128-bit increment.  The counter is public. */
NP_INLINE void np_ctr_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb,
                           uint64_t *hi, uint64_t *lo, int wide)
{
    v16 x[4];
    for (int b = 0; b < nb; b++) {
        uint64_t l, h = *hi;
        if (wide) {
            l = *lo + (uint64_t)b;
            h += l < *lo;
        } else {
            l = (*lo & 0xffffffff00000000u) | (uint32_t)(*lo + (uint64_t)b);
        }
        x[b] = np_ctr_block(h, l);
    }
    if (wide) {
        uint64_t l = *lo + (uint64_t)nb;
        *hi += l < *lo;
        *lo = l;
    } else {
        *lo = (*lo & 0xffffffff00000000u) | (uint32_t)(*lo + (uint64_t)nb);
    }
    np_encrypt(k, x, nb);
    for (int b = 0; b < nb; b++)
        vst1q_u8(out + 16 * b, veorq_u8(x[b], vld1q_u8(in + 16 * b)));
}

static void np_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t ctr[16],
                   int wide)
{
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        np_ctr_step(k, out + 16 * i, in + 16 * i, 4, &hi, &lo, wide);
    if (i + 2 <= n) {
        np_ctr_step(k, out + 16 * i, in + 16 * i, 2, &hi, &lo, wide);
        i += 2;
    }
    if (i < n)
        np_ctr_step(k, out + 16 * i, in + 16 * i, 1, &hi, &lo, wide);
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
}

static void np_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t ctr[16])
{
    np_ctr(k, out, in, nblocks, ctr, 0);
}

static void np_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                      uint8_t ctr[16])
{
    np_ctr(k, out, in, nblocks, ctr, 1);
}

/* nb blocks of CBC decryption; all of the step's ciphertext is loaded
 * before any plaintext is stored, so out == in works. */
NP_INLINE void np_cbc_dec_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb, v16 *prev)
{
    v16 x[4], c[4];
    for (int b = 0; b < nb; b++)
        x[b] = c[b] = vld1q_u8(in + 16 * b);
    np_decrypt(k, x, nb);
    vst1q_u8(out, veorq_u8(x[0], *prev));
    for (int b = 1; b < nb; b++)
        vst1q_u8(out + 16 * b, veorq_u8(x[b], c[b - 1]));
    *prev = c[nb - 1];
}

static void np_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                           uint8_t iv[16])
{
    v16 prev = vld1q_u8(iv);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        np_cbc_dec_step(k, out + 16 * i, in + 16 * i, 4, &prev);
    if (i + 2 <= n) {
        np_cbc_dec_step(k, out + 16 * i, in + 16 * i, 2, &prev);
        i += 2;
    }
    if (i < n)
        np_cbc_dec_step(k, out + 16 * i, in + 16 * i, 1, &prev);
    vst1q_u8(iv, prev);
}

/* XTS tweak times alpha (IEEE 1619, little-endian 64-bit halves): shift
 * both halves left by one, carry bit 63 into bit 64 and fold bit 127 back
 * as 0x87; the two top bits become masks by an arithmetic shift, swapped
 * between the halves, branch-free. */
NP_INLINE v16 np_xts_mul_alpha(v16 t)
{
    int64x2_t s = vreinterpretq_s64_u8(t);
    uint64x2_t top = vreinterpretq_u64_s64(vshrq_n_s64(s, 63));
    uint64x2_t sw = vextq_u64(top, top, 1);
    const uint64x2_t fold = vcombine_u64(vcreate_u64(0x87), vcreate_u64(1));
    uint64x2_t r = veorq_u64(vshlq_n_u64(vreinterpretq_u64_u8(t), 1), vandq_u64(sw, fold));
    return vreinterpretq_u8_u64(r);
}

NP_INLINE void np_xts_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb, v16 *t, int dec)
{
    v16 x[4], tw[4];
    for (int b = 0; b < nb; b++) {
        tw[b] = *t;
        x[b] = veorq_u8(vld1q_u8(in + 16 * b), *t);
        *t = np_xts_mul_alpha(*t);
    }
    if (dec)
        np_decrypt(k, x, nb);
    else
        np_encrypt(k, x, nb);
    for (int b = 0; b < nb; b++)
        vst1q_u8(out + 16 * b, veorq_u8(x[b], tw[b]));
}

static void np_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t tweak[16],
                   int dec)
{
    v16 t = vld1q_u8(tweak);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        np_xts_step(k, out + 16 * i, in + 16 * i, 4, &t, dec);
    if (i + 2 <= n) {
        np_xts_step(k, out + 16 * i, in + 16 * i, 2, &t, dec);
        i += 2;
    }
    if (i < n)
        np_xts_step(k, out + 16 * i, in + 16 * i, 1, &t, dec);
    vst1q_u8(tweak, t);
}

static void np_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    np_xts(k, out, in, nblocks, tweak, 0);
}

static void np_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    np_xts(k, out, in, nblocks, tweak, 1);
}

/* ---- GHASH by 8-bit polynomial multiplies ---------------------------------
 * Bit order: GHASH's x^0 is the most significant bit of byte 0
 * (SP 800-38D 6.3).  RBIT reverses the bits of every byte, after which
 * byte b bit j holds x^(8b + j): the 16 bytes read as two little-endian
 * 64-bit lanes are the polynomial with bit i = x^i, lane 0 = x^0..x^63,
 * the order PMULL multiplies in.  Y stays in that form across the blocks
 * of a call; H is stored in it.
 *
 * 64x64 products from PMULL.8B (8 lanes of 8x8 -> 16 bits; the method of
 * D. Camara, C. Gouvea, J. Lopez, R. Dahab, "Fast software polynomial
 * multiplication on ARM processors using the NEON engine", 2013; this
 * diagonal arrangement is ours).  With bytes a_i, b_i (i = 0..7) of the
 * operands and y = x^8, a b = sum over i, j of a_i b_j y^(i+j).  Group the
 * terms by k = |i - j|: for k = 0 they are PMULL(a, b), 16-bit lane i at
 * y^(2i), already in place.  For k > 0, shifting every 64-bit lane right
 * by 8k bits (zero fill) gives a>>k with byte i = a_(i+k) (0 past byte 7),
 * so PMULL(a, b>>k) ^ PMULL(a>>k, b) holds a_i b_(i+k) ^ a_(i+k) b_i in
 * lane i, at y^(2i); its place is y^(2i+k), a 128-bit shift up by k bytes,
 * which never loses a bit (i + k <= 7 in every nonzero lane).  The seven
 * shifts are done Horner-fashion, one byte (EXT) per step from k = 7 down.
 * PMULL2.16B does the same on the upper 64-bit lanes, so one pass over k
 * computes a0 b0 (lower lanes), a1 b1 (upper lanes) and, in a third
 * product, (a0 + a1)(b0 + b1) for Karatsuba: 6 PMULL per k, 45 in all.
 * ghash_init stores H>>k and (h0 + h1)>>k for k = 0..7.
 *
 * Reduction modulo P = x^128 + x^7 + x^2 + x + 1: of Z = Zh x^128 + Zl,
 * x^128 = 1 + x + x^2 + x^7, so Z = Zl + Zh (1 + x + x^2 + x^7) mod P.
 * The product Zh (1 + x + x^2 + x^7) overflows 128 bits by
 * O = (h1 >> 63) ^ (h1 >> 62) ^ (h1 >> 57) (h1 the upper lane of Zh), and
 * O x^128 = O (1 + x + x^2 + x^7) again, of degree < 14, so
 * Z = Zl + W + W<<1 + W<<2 + W<<7 with W = Zh + O (128-bit shifts, the
 * overflow dropped).  The bits a 128-bit shift carries from lane 0 to
 * lane 1 are (h0 >> 63) ^ (h0 >> 62) ^ (h0 >> 57): O changes bits 0..6 of
 * lane 0 only.  Both carries are one vector of three lane shifts.
 */

/* ak_ghash.data of arm64-neon. */
typedef struct ak_neon_ghash_key {
    /* hk[k] = H>>k: H bit-reversed per byte (PMULL order), each 64-bit
     * lane shifted right by 8k bits */
    AESKIT_ALIGN(16) uint8_t hk[8][16];
    /* mk[k]: the same of (h0 ^ h1) in both lanes, Karatsuba's operand */
    AESKIT_ALIGN(16) uint8_t mk[8][16];
} ak_neon_ghash_key; /* 256 bytes */
_Static_assert(sizeof(ak_neon_ghash_key) <= AESKIT_GHASH_KEY_SIZE, "ak_neon_ghash_key exceeds ak_ghash.data");

static inline const ak_neon_ghash_key *neon_ghash_key(const ak_ghash *g)
{
    return (const ak_neon_ghash_key *)(const void *)g->data;
}
static inline ak_neon_ghash_key *neon_ghash_key_mut(ak_ghash *g)
{
    return (ak_neon_ghash_key *)(void *)g->data;
}

/* Every 64-bit lane shifted right by 8 bits: byte i <- byte i + 1. */
NP_INLINE v16 gh_down(v16 v) { return vreinterpretq_u8_u64(vshrq_n_u64(vreinterpretq_u64_u8(v), 8)); }
/* The 128-bit value shifted up by one byte. */
NP_INLINE v16 gh_up(v16 v) { return vextq_u8(vdupq_n_u8(0), v, 15); }
/* PMULL.8B of the lower lanes, PMULL2.16B of the upper lanes. */
NP_INLINE v16 gh_mul_lo(v16 a, v16 b)
{
    return vreinterpretq_u8_p16(vmull_p8(vreinterpret_p8_u8(vget_low_u8(a)), vreinterpret_p8_u8(vget_low_u8(b))));
}
NP_INLINE v16 gh_mul_hi(v16 a, v16 b)
{
    return vreinterpretq_u8_p16(vmull_high_p8(vreinterpretq_p8_u8(a), vreinterpretq_p8_u8(b)));
}

/* Z = a H (256 bits: *zl = x^0..x^127, *zh = x^128..x^255), a in PMULL
 * order. */
NP_INLINE void gh_mul(const ak_neon_ghash_key *G, v16 a, v16 *zl, v16 *zh)
{
    v16 am = veorq_u8(a, vextq_u8(a, a, 8)); /* a0 ^ a1 in both lanes */
    v16 ak[8], mk[8];
    ak[0] = a;
    mk[0] = am;
    for (int k = 1; k < 8; k++) {
        ak[k] = gh_down(ak[k - 1]);
        mk[k] = gh_down(mk[k - 1]);
    }
    const v16 h0 = vld1q_u8(G->hk[0]), m0 = vld1q_u8(G->mk[0]);
    v16 lo = vdupq_n_u8(0), hi = lo, mid = lo;
    for (int k = 7; k >= 1; k--) {
        const v16 hk = vld1q_u8(G->hk[k]), mkk = vld1q_u8(G->mk[k]);
        lo = veorq_u8(gh_up(lo), veorq_u8(gh_mul_lo(a, hk), gh_mul_lo(ak[k], h0)));
        hi = veorq_u8(gh_up(hi), veorq_u8(gh_mul_hi(a, hk), gh_mul_hi(ak[k], h0)));
        mid = veorq_u8(gh_up(mid), veorq_u8(gh_mul_lo(am, mkk), gh_mul_lo(mk[k], m0)));
    }
    lo = veorq_u8(gh_up(lo), gh_mul_lo(a, h0));
    hi = veorq_u8(gh_up(hi), gh_mul_hi(a, h0));
    mid = veorq_u8(gh_up(mid), gh_mul_lo(am, m0));
    /* Karatsuba: a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) + a0 b0 + a1 b1 */
    mid = veorq_u8(mid, veorq_u8(lo, hi));
    const v16 z = vdupq_n_u8(0);
    *zl = veorq_u8(lo, vextq_u8(z, mid, 8));
    *zh = veorq_u8(hi, vextq_u8(mid, z, 8));
}

/* Z mod P (see "Reduction" above), in PMULL order. */
NP_INLINE v16 gh_reduce(v16 zl, v16 zh)
{
    const uint64x2_t h = vreinterpretq_u64_u8(zh), z = vdupq_n_u64(0);
    /* lane 0: the carry into lane 1; lane 1: the overflow O */
    uint64x2_t d = veorq_u64(veorq_u64(vshrq_n_u64(h, 63), vshrq_n_u64(h, 62)), vshrq_n_u64(h, 57));
    uint64x2_t w = veorq_u64(h, vextq_u64(d, z, 1));
    uint64x2_t r = veorq_u64(veorq_u64(w, vshlq_n_u64(w, 1)), veorq_u64(vshlq_n_u64(w, 2), vshlq_n_u64(w, 7)));
    r = veorq_u64(r, vextq_u64(z, d, 1));
    return veorq_u8(zl, vreinterpretq_u8_u64(r));
}

static void np_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    ak_neon_ghash_key *G = neon_ghash_key_mut(g);
    memset(g->data, 0, sizeof g->data);
    v16 h = vrbitq_u8(vld1q_u8(H));
    v16 m = veorq_u8(h, vextq_u8(h, h, 8));
    for (int k = 0; k < 8; k++) {
        vst1q_u8(G->hk[k], h);
        vst1q_u8(G->mk[k], m);
        h = gh_down(h);
        m = gh_down(m);
    }
}

/* Y = (Y ^ X_i) H for each block, one reduction per block. */
static void np_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks)
{
    const ak_neon_ghash_key *G = neon_ghash_key(g);
    v16 y = vrbitq_u8(vld1q_u8(Y));
    for (size_t i = 0; i < nblocks; i++) {
        v16 zl, zh;
        gh_mul(G, veorq_u8(y, vrbitq_u8(vld1q_u8(in + 16 * i))), &zl, &zh);
        y = gh_reduce(zl, zh);
    }
    vst1q_u8(Y, vrbitq_u8(y));
}

const ak_backend ak_backend_arm64_neon = {
    .name = "arm64-neon",
    .requires = "ASIMD",
    .priority = 10,
    .required_features = AK_CPU_ARM_ASIMD,
    .constant_time = 1,
    .aes_setkey = np_setkey,
    .ecb_encrypt = np_ecb_encrypt,
    .ecb_decrypt = np_ecb_decrypt,
    .ctr32 = np_ctr32,
    .ctr128 = np_ctr128,
    .cbc_encrypt = np_cbc_encrypt,
    .cbc_decrypt = np_cbc_decrypt,
    .cbcmac = np_cbcmac,
    .xts_encrypt = np_xts_encrypt,
    .xts_decrypt = np_xts_decrypt,
    .ghash_init = np_ghash_init,
    .ghash = np_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
    .gcm_batch = ak_gcm_batch_primitives,
    .gcm_gather_max = 160,
};
#endif
