/*
 * aes_ppc64_altivec.c - the ppc64-altivec backend: AES by vector permutes
 * (M. Hamburg, "Accelerating AES with vector permute instructions",
 * CHES 2009, which was written for AltiVec) for little-endian POWER
 * without the POWER8 vector crypto instructions, or with them masked
 * (AESKIT_CPU=-vcrypto).  CPU features: AltiVec (VMX) with the POWER8
 * (ISA 2.07) doubleword shifts and VSX loads, which every ppc64le system
 * has (the ELF ABI v2 baseline); Linux reports them as
 * PPC_FEATURE_HAS_ALTIVEC, PPC_FEATURE_HAS_VSX and PPC_FEATURE2_ARCH_2_07
 * (src/cpu.c).  The file is built for the default ppc64le target.
 *
 * The AES is the x86-ssse3 backend's (src/x86/aes_ssse3.c: the derivation
 * of the nibble tables, the fixsliced rounds and the key forms are in its
 * header) in arm64-neon's arrangement (src/arm64/aes_arm64_neon.c: the
 * same rounds, key layout ak_vpaes_key, modes and step widths), with vperm
 * as the byte shuffle.
 *
 * vperm, not PSHUFB: vperm(a, b, c) gives byte i = byte (c_i & 31) of the
 * 32 bytes a || b (Power ISA 3.0B, Book I, "Vector Permute") and never 0
 * by itself, where PSHUFB and TBL give 0 for an index with bit 7 set or
 * >= 16.  The core relies on that zero: the inversion tables mark 1/0
 * ("infinity") as 0x80, and an index of 0x80 ^ nibble must look up 0.
 * Rule used here: every lookup is vperm(T, 0, c), a 32-byte table whose
 * upper half is zero, and the two inversion tables mark infinity as 0x10
 * (pa_inv32).  Every other value the core XORs into an index is a nibble,
 * so bit 4 plays the part of bit 7: an index is below 32 (vperm's ignored
 * bits 5..7 are never set), 16..31 exactly where PSHUFB's has bit 7, and
 * each lookup gives what PSHUFB gives.  src/x86/aes_ssse3_gen.py checks
 * this on all 256 inputs for every table pair and prints pa_inv32; the
 * other tables are src/simd/vpaes_tables.h's unchanged.  Byte moves are
 * vperm(x, x, c) with c < 16.
 *
 * Byte order: vperm numbers bytes big-endian (byte 0 is the leftmost), so
 * every vector is kept in "AES order", register byte i = memory byte i
 * (vec_xl_be/vec_xst_be, as src/simd/akv.h does for ppc64-p8), and the
 * tables and index vectors are loaded the same way; then vperm's index
 * semantics are PSHUFB's and the shared constants apply unchanged.  GCC's
 * vec_perm would renumber for little-endian (one more instruction per
 * variable index), so the instruction is written as inline asm (pa_perm).
 *
 * GHASH: the generic backend's (src/generic/ghash_generic.c, the portable
 * constant-time multiply-based one).  Without vpmsumd (vector crypto),
 * AltiVec has no carry-less multiply; its integer multiplies (vmsumubm,
 * vmuleub) would need the same masking of bits as the generic code, so
 * there is no clearly better constant-time way.
 *
 * Constant time: vperm looks up 16-byte tables held in registers, so no
 * secret reaches a memory address; no branch depends on key or data (only
 * on the number of rounds and of blocks, which are public).
 *
 * The parallel modes run four blocks per step, the serial ones one block
 * with arm64-neon's short one-block round.
 */
#include "../internal.h"
#include "../simd/vpaes_tables.h"

#ifdef AK_ARCH_PPC64LE
#include <altivec.h>
#undef vector
#undef pixel
#undef bool

#define PA_INLINE static inline __attribute__((always_inline))

typedef __vector unsigned char v16;
typedef __vector unsigned long long v64;

/* ak_aes.data of ppc64-altivec: the layout of the vector-permute backends
 * (src/simd/vpaes_tables.h). */
typedef ak_vpaes_key ak_pa_key;

static inline const ak_pa_key *pa_key(const ak_aes *k)
{
    return (const ak_pa_key *)(const void *)k->data;
}
static inline ak_pa_key *pa_key_mut(ak_aes *k)
{
    return (ak_pa_key *)(void *)k->data;
}

/* Printed by src/x86/aes_ssse3_gen.py: vp_tab's inv and ainv with
 * infinity 0x10 (the vperm rule above). */
static const uint8_t pa_inv32[2][16] __attribute__((aligned(16))) = {
    {0x10, 0x01, 0x09, 0x0e, 0x0d, 0x0b, 0x07, 0x06, 0x0f, 0x02, 0x0c, 0x05, 0x0a, 0x04, 0x03, 0x08}, /* inv */
    {0x10, 0x02, 0x01, 0x0f, 0x09, 0x05, 0x0e, 0x0c, 0x0d, 0x04, 0x0b, 0x0a, 0x07, 0x08, 0x06, 0x03}, /* ainv */
};
/* Byte reversal (register byte i <- byte 15 - i). */
static const uint8_t pa_rev[16] __attribute__((aligned(16))) = {15, 14, 13, 12, 11, 10, 9, 8,
                                                                7,  6,  5,  4,  3,  2,  1, 0};

/* 16 bytes in AES order (register byte i = memory byte i). */
PA_INLINE v16 pa_load(const uint8_t *p) { return vec_xl_be(0, (unsigned char *)p); }
PA_INLINE void pa_store(uint8_t *p, v16 v) { vec_xst_be(v, 0, (unsigned char *)p); }
PA_INLINE v16 pa_xor(v16 a, v16 b) { return vec_xor(a, b); }

/* vperm as the ISA defines it (big-endian byte numbering, index & 31). */
PA_INLINE v16 pa_perm(v16 a, v16 b, v16 c)
{
    v16 r;
    __asm__("vperm %0,%1,%2,%3" : "=v"(r) : "v"(a), "v"(b), "v"(c));
    return r;
}

/* Table t at index v: 0 for v in 16..31 (the rule above). */
PA_INLINE v16 pa_shuf_tab(const uint8_t *t, v16 v) { return pa_perm(pa_load(t), vec_splats((unsigned char)0), v); }
PA_INLINE v16 pa_shuf(int t, v16 v)
{
    if (t == T_INV)
        return pa_shuf_tab(pa_inv32[0], v);
    if (t == T_AINV)
        return pa_shuf_tab(pa_inv32[1], v);
    return pa_shuf_tab(vp_tab[t], v);
}
/* The byte move by the index vector c (c < 16). */
PA_INLINE v16 pa_move(v16 x, v16 c) { return pa_perm(x, x, c); }

PA_INLINE v16 pa_lo(v16 x) { return vec_and(x, vec_splats((unsigned char)0x0f)); }
PA_INLINE v16 pa_hi(v16 x) { return vec_sr(x, vec_splats((unsigned char)4)); }

/* A linear map of every byte given by its two nibble tables. */
PA_INLINE v16 pa_lin(v16 x, int lo, int hi) { return pa_xor(pa_shuf(lo, pa_lo(x)), pa_shuf(hi, pa_hi(x))); }

/* The inversion core: from the tower byte t = (k << 4) | i to io and jo
 * (src/x86/aes_ssse3.c, "SubBytes as nibble lookups"); io, jo < 32. */
PA_INLINE void pa_core(v16 t, v16 *io, v16 *jo)
{
    v16 i = pa_lo(t), k = pa_hi(t);
    v16 j = pa_xor(i, k);
    v16 ak = pa_shuf(T_AINV, k);
    v16 p = pa_xor(pa_shuf(T_INV, i), ak), q = pa_xor(pa_shuf(T_INV, j), ak);
    *io = pa_xor(pa_shuf(T_INV, p), j);
    *jo = pa_xor(pa_shuf(T_INV, q), i);
}

/* tab_io[io] ^ tab_jo[jo] for the pair of tables starting at t. */
PA_INLINE v16 pa_pair(int t, v16 io, v16 jo) { return pa_xor(pa_shuf(t, io), pa_shuf(t + 1, jo)); }

/* One middle round on tower-basis states (arm64-neon's np_enc_round, where
 * the two forms are derived): b = d ^ rot1(d ^ s) ^ rot2(s ^ rot1 s) ^ key,
 * s = S(x), d = 2 S(x), with the byte moves r1, r2 = rot1, rot2 of
 * m = r mod 4.  Several blocks: h = d ^ rot2 s, b = (h ^ key) ^ rot1(h ^ s)
 * (fewest operations); one block: b = ((d ^ key) ^ r) ^ rot1(3 s ^ r),
 * r = rot2 s, 3 s = s ^ d (one step shorter chain). */
PA_INLINE void pa_enc_round(v16 *x, int nb, v16 kr, v16 r1, v16 r2)
{
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        pa_core(x[b], &io, &jo);
        v16 s = pa_pair(T_MS_IO, io, jo), d = pa_pair(T_MS2_IO, io, jo);
        if (nb == 1) {
            v16 t = pa_xor(s, d), a = pa_xor(d, kr), r = pa_move(s, r2);
            /* keeps the compiler from reassociating d ^ key and 3 s back
             * onto the chain */
            __asm__("" : "+v"(t), "+v"(a));
            v16 e = pa_move(pa_xor(t, r), r1);
            x[b] = pa_xor(pa_xor(a, r), e);
            continue;
        }
        v16 h = pa_xor(d, pa_move(s, r2));
        v16 e = pa_move(pa_xor(h, s), r1);
        x[b] = pa_xor(pa_xor(h, kr), e);
    }
}

/* Rounds 1 .. rounds-1, four per step so that m = r mod 4 is a constant
 * of each and the byte-move vectors stay in registers; the 1 (AES-128,
 * AES-256) or 3 (AES-192) rounds left start at r = 1 mod 4. */
PA_INLINE void pa_enc_mid(const ak_aes *k, v16 *x, int nb)
{
    const ak_pa_key *K = pa_key(k);
    const unsigned rounds = k->rounds;
    v16 r1[4], r2[4];
    for (int m = 0; m < 4; m++) {
        r1[m] = pa_load(vp_rot1[m]);
        r2[m] = pa_load(vp_rot2[m]);
    }
    /* rk walks the round keys by pointer (loads at offsets) */
    const uint8_t(*rk)[16] = K->enc + 1, (*const end)[16] = K->enc + rounds;
    for (; end - rk >= 4; rk += 4) {
        pa_enc_round(x, nb, pa_load(rk[0]), r1[1], r2[1]);
        pa_enc_round(x, nb, pa_load(rk[1]), r1[2], r2[2]);
        pa_enc_round(x, nb, pa_load(rk[2]), r1[3], r2[3]);
        pa_enc_round(x, nb, pa_load(rk[3]), r1[0], r2[0]);
    }
    pa_enc_round(x, nb, pa_load(rk[0]), r1[1], r2[1]);
    if (end - rk > 1) {
        pa_enc_round(x, nb, pa_load(rk[1]), r1[2], r2[2]);
        pa_enc_round(x, nb, pa_load(rk[2]), r1[3], r2[3]);
    }
}

/* Encrypts nb (1..4, a constant after inlining) blocks in registers; the
 * state stays in the tower basis from the whitening to the last round. */
PA_INLINE void pa_encrypt(const ak_aes *k, v16 *x, int nb)
{
    const ak_pa_key *K = pa_key(k);
    const unsigned rounds = k->rounds;
    const v16 k0 = pa_load(K->enc[0]);
    for (int b = 0; b < nb; b++)
        x[b] = pa_lin(pa_xor(x[b], k0), T_IN_LO, T_IN_HI);
    pa_enc_mid(k, x, nb);
    const v16 kr = pa_load(K->enc[rounds]), fix = pa_load(vp_sr[rounds & 3]);
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        pa_core(x[b], &io, &jo);
        x[b] = pa_move(pa_xor(pa_pair(T_S_IO, io, jo), kr), fix);
    }
}

/* Decryption in the basis D = M o L^-1 (the equivalent inverse cipher with
 * an explicit InvShiftRows, as x86-ssse3's vp_decrypt). */
PA_INLINE void pa_decrypt(const ak_aes *k, v16 *x, int nb)
{
    const ak_pa_key *K = pa_key(k);
    const unsigned rounds = k->rounds;
    const v16 isr = pa_load(vp_sr[3]), r1 = pa_load(vp_rot1[0]), r2 = pa_load(vp_rot2[0]),
              r3 = pa_load(vp_rot3m[0]);
    const v16 kn = pa_load(K->dec[rounds]);
    for (int b = 0; b < nb; b++)
        x[b] = pa_lin(pa_move(pa_xor(x[b], kn), isr), T_DN_LO, T_DN_HI);
    for (const uint8_t(*rk)[16] = K->dec + rounds - 1; rk != K->dec; rk--) {
        const v16 kr = pa_load(rk[0]);
        for (int b = 0; b < nb; b++) {
            v16 io, jo;
            pa_core(x[b], &io, &jo);
            v16 e = pa_pair(T_DE_IO, io, jo), bb = pa_pair(T_DB_IO, io, jo);
            v16 dd = pa_pair(T_DD_IO, io, jo), nn = pa_pair(T_D9_IO, io, jo);
            e = pa_xor(pa_xor(e, kr), pa_move(bb, r1));
            dd = pa_xor(pa_move(dd, r2), pa_move(nn, r3));
            /* the next round's InvShiftRows, applied here to the sum */
            x[b] = pa_move(pa_xor(e, dd), isr);
        }
    }
    const v16 k0 = pa_load(K->dec[0]);
    for (int b = 0; b < nb; b++) {
        v16 io, jo;
        pa_core(x[b], &io, &jo);
        x[b] = pa_xor(pa_pair(T_I_IO, io, jo), k0);
    }
}

/* ---- Key setup ------------------------------------------------------------ */

static uint8_t pa_xt(uint8_t v) { return (uint8_t)(((unsigned)v << 1) ^ (0x1bu & (0u - (unsigned)(v >> 7)))); }

/* InvMixColumns of one 16-byte round key (FIPS-197 5.3.3), branch-free. */
static void pa_inv_mix_key(uint8_t o[16], const uint8_t in[16])
{
    for (int c = 0; c < 4; c++) {
        const uint8_t *a = in + 4 * c;
        for (int r = 0; r < 4; r++) {
            uint8_t a0 = a[r], a1 = a[(r + 1) & 3], a2 = a[(r + 2) & 3], a3 = a[(r + 3) & 3];
            /* 0e a0 ^ 0b a1 ^ 0d a2 ^ 09 a3 */
            uint8_t x2_0 = pa_xt(a0), x4_0 = pa_xt(x2_0), x8_0 = pa_xt(x4_0);
            uint8_t x2_1 = pa_xt(a1), x8_1 = pa_xt(pa_xt(x2_1));
            uint8_t x4_2 = pa_xt(pa_xt(a2)), x8_2 = pa_xt(x4_2);
            uint8_t x8_3 = pa_xt(pa_xt(pa_xt(a3)));
            o[4 * c + r] = (uint8_t)(x8_0 ^ x4_0 ^ x2_0 ^ x8_1 ^ x2_1 ^ a1 ^ x8_2 ^ x4_2 ^ a2 ^
                                     x8_3 ^ a3);
        }
    }
}

/* The key forms of ak_vpaes_key (vpaes_tables.h), as arm64-neon's
 * np_setkey writes them. */
static void pa_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint8_t rk[240], t[16];
    ak_pa_key *K = pa_key_mut(k);
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
        v16 v = pa_load(t);
        if (r > 0 && r < n)
            v = pa_lin(v, T_IN_LO, T_IN_HI);
        pa_store(K->enc[r], v);
        if (r == n)
            pa_store(K->last, pa_lin(v, T_IN_LO, T_IN_HI));
        /* dec: K_n ^ 0x63, D(InvMC(K_r) ^ 0x63) in between, K_0 */
        if (r == 0) {
            memcpy(K->dec[0], rk, 16);
        } else if (r == n) {
            for (unsigned b = 0; b < 16; b++)
                K->dec[r][b] = (uint8_t)(rk[16 * r + b] ^ 0x63);
        } else {
            pa_inv_mix_key(t, rk + 16 * r);
            for (int b = 0; b < 16; b++)
                t[b] ^= 0x63;
            pa_store(K->dec[r], pa_lin(pa_load(t), T_DN_LO, T_DN_HI));
        }
    }
    aeskit_memzero(rk, sizeof rk);
    aeskit_memzero(t, sizeof t);
}

/* ---- ECB ------------------------------------------------------------------ */

/* nb blocks (a constant after inlining) of ECB. */
PA_INLINE void pa_ecb_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb, int dec)
{
    v16 x[4];
    for (int b = 0; b < nb; b++)
        x[b] = pa_load(in + 16 * b);
    if (dec)
        pa_decrypt(k, x, nb);
    else
        pa_encrypt(k, x, nb);
    for (int b = 0; b < nb; b++)
        pa_store(out + 16 * b, x[b]);
}

/* Four blocks per step, then two and one. */
static void pa_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    for (; n >= 4; n -= 4, in += 64, out += 64)
        pa_ecb_step(k, out, in, 4, dec);
    if (n >= 2) {
        pa_ecb_step(k, out, in, 2, dec);
        n -= 2;
        in += 32;
        out += 32;
    }
    if (n)
        pa_ecb_step(k, out, in, 1, dec);
}

static void pa_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    pa_ecb(k, out, in, nblocks, 0);
}

static void pa_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    pa_ecb(k, out, in, nblocks, 1);
}

/* ---- Serial modes: one block at a time ------------------------------------ */

/* As arm64-neon's np_serial: between blocks the chaining value stays in the
 * tower basis, M(E(s) ^ p ^ K0) = SR^j(M(S) ^ M(K'_n)) ^ M(p ^ K0), whose
 * second term does not wait for the previous block.  The AES-basis output
 * is computed beside it where a mode needs it (every CBC block, the last
 * CBC-MAC block).  M(K'_n) is ak_pa_key.last. */
static void pa_serial(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t chain[16])
{
    const ak_pa_key *K = pa_key(k);
    const unsigned rounds = k->rounds;
    const v16 k0 = pa_load(K->enc[0]), kn = pa_load(K->enc[rounds]), knt = pa_load(K->last);
    const v16 fix = pa_load(vp_sr[rounds & 3]);
    v16 e = pa_load(chain);
    v16 x = pa_lin(pa_xor(pa_xor(e, pa_load(in)), k0), T_IN_LO, T_IN_HI);
    for (size_t i = 0; i < n; i++) {
        pa_enc_mid(k, &x, 1);
        v16 io, jo;
        pa_core(x, &io, &jo);
        if (out || i + 1 == n) {
            e = pa_move(pa_xor(pa_pair(T_S_IO, io, jo), kn), fix);
            if (out)
                pa_store(out + 16 * i, e);
        }
        if (i + 1 < n) {
            v16 p = pa_lin(pa_xor(pa_load(in + 16 * (i + 1)), k0), T_IN_LO, T_IN_HI);
            x = pa_xor(pa_move(pa_xor(pa_pair(T_MS_IO, io, jo), knt), fix), p);
        }
    }
    pa_store(chain, e);
}

static void pa_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t iv[16])
{
    if (nblocks)
        pa_serial(k, out, in, nblocks, iv);
}

static void pa_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks)
        pa_serial(k, NULL, in, nblocks, state);
}

/* ---- Parallel modes: four blocks per step, then 2 and 1 ------------------- */

/* The counter block of the 64-bit big-endian halves hi, lo: in AES order
 * doubleword element 1 (register bytes 0..7) is the high half, element 0
 * the low one, each a native integer (as akv.h's akv_from_be64). */
PA_INLINE v16 pa_ctr_block(uint64_t hi, uint64_t lo)
{
    v64 v = {lo, hi};
    return (v16)v;
}

/* nb blocks of CTR from the counter (hi, lo), which it advances; wide = 0
 * is GCM's inc32, 1 the 128-bit increment.  No branch depends on the
 * counter (GCM may derive it from the key). */
PA_INLINE void pa_ctr_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb,
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
        x[b] = pa_ctr_block(h, l);
    }
    if (wide) {
        uint64_t l = *lo + (uint64_t)nb;
        *hi += l < *lo;
        *lo = l;
    } else {
        *lo = (*lo & 0xffffffff00000000u) | (uint32_t)(*lo + (uint64_t)nb);
    }
    pa_encrypt(k, x, nb);
    for (int b = 0; b < nb; b++)
        pa_store(out + 16 * b, pa_xor(x[b], pa_load(in + 16 * b)));
}

static void pa_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t ctr[16],
                   int wide)
{
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        pa_ctr_step(k, out + 16 * i, in + 16 * i, 4, &hi, &lo, wide);
    if (i + 2 <= n) {
        pa_ctr_step(k, out + 16 * i, in + 16 * i, 2, &hi, &lo, wide);
        i += 2;
    }
    if (i < n)
        pa_ctr_step(k, out + 16 * i, in + 16 * i, 1, &hi, &lo, wide);
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
}

static void pa_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t ctr[16])
{
    pa_ctr(k, out, in, nblocks, ctr, 0);
}

static void pa_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                      uint8_t ctr[16])
{
    pa_ctr(k, out, in, nblocks, ctr, 1);
}

/* nb blocks of CBC decryption; all of the step's ciphertext is loaded
 * before any plaintext is stored, so out == in works. */
PA_INLINE void pa_cbc_dec_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb, v16 *prev)
{
    v16 x[4], c[4];
    for (int b = 0; b < nb; b++)
        x[b] = c[b] = pa_load(in + 16 * b);
    pa_decrypt(k, x, nb);
    pa_store(out, pa_xor(x[0], *prev));
    for (int b = 1; b < nb; b++)
        pa_store(out + 16 * b, pa_xor(x[b], c[b - 1]));
    *prev = c[nb - 1];
}

static void pa_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                           uint8_t iv[16])
{
    v16 prev = pa_load(iv);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        pa_cbc_dec_step(k, out + 16 * i, in + 16 * i, 4, &prev);
    if (i + 2 <= n) {
        pa_cbc_dec_step(k, out + 16 * i, in + 16 * i, 2, &prev);
        i += 2;
    }
    if (i < n)
        pa_cbc_dec_step(k, out + 16 * i, in + 16 * i, 1, &prev);
    pa_store(iv, prev);
}

/* XTS: the tweak is kept as two little-endian 64-bit halves (IEEE 1619),
 * i.e. loaded in memory order (vec_xl: doubleword element 0 = bytes 0..7 =
 * the low half), and reversed into AES order (pa_rev) for each block.
 * Times alpha: shift both halves left by one, carry bit 63 into bit 64 and
 * fold bit 127 back as 0x87; the two top bits become masks by an
 * arithmetic shift, swapped between the halves, branch-free. */
PA_INLINE v64 pa_xts_mul_alpha(v64 t)
{
    v64 top = (v64)vec_sra((__vector signed long long)t, vec_splats((unsigned long long)63));
    v64 sw = (v64)vec_sld((v16)top, (v16)top, 8);
    const v64 fold = {0x87, 1};
    return vec_xor(vec_sl(t, vec_splats((unsigned long long)1)), vec_and(sw, fold));
}

PA_INLINE void pa_xts_step(const ak_aes *k, uint8_t *out, const uint8_t *in, int nb, v64 *t, int dec)
{
    const v16 rev = pa_load(pa_rev);
    v16 x[4], tw[4];
    for (int b = 0; b < nb; b++) {
        tw[b] = pa_move((v16)*t, rev);
        x[b] = pa_xor(pa_load(in + 16 * b), tw[b]);
        *t = pa_xts_mul_alpha(*t);
    }
    if (dec)
        pa_decrypt(k, x, nb);
    else
        pa_encrypt(k, x, nb);
    for (int b = 0; b < nb; b++)
        pa_store(out + 16 * b, pa_xor(x[b], tw[b]));
}

static void pa_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t tweak[16],
                   int dec)
{
    v64 t = vec_xl(0, (unsigned long long *)(void *)tweak);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        pa_xts_step(k, out + 16 * i, in + 16 * i, 4, &t, dec);
    if (i + 2 <= n) {
        pa_xts_step(k, out + 16 * i, in + 16 * i, 2, &t, dec);
        i += 2;
    }
    if (i < n)
        pa_xts_step(k, out + 16 * i, in + 16 * i, 1, &t, dec);
    vec_xst(t, 0, (unsigned long long *)(void *)tweak);
}

static void pa_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    pa_xts(k, out, in, nblocks, tweak, 0);
}

static void pa_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t tweak[16])
{
    pa_xts(k, out, in, nblocks, tweak, 1);
}

const ak_backend ak_backend_ppc64_altivec = {
    .name = "ppc64-altivec",
    .requires = "AltiVec/VSX of POWER8 (vperm; no vcipher)",
    .priority = 10,
    .required_features = AK_CPU_PPC_ALTIVEC,
    .constant_time = 1,
    .aes_setkey = pa_setkey,
    .ecb_encrypt = pa_ecb_encrypt,
    .ecb_decrypt = pa_ecb_decrypt,
    .ctr32 = pa_ctr32,
    .ctr128 = pa_ctr128,
    .cbc_encrypt = pa_cbc_encrypt,
    .cbc_decrypt = pa_cbc_decrypt,
    .cbcmac = pa_cbcmac,
    .xts_encrypt = pa_xts_encrypt,
    .xts_decrypt = pa_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
    .gcm_batch = ak_gcm_batch_primitives,
};
#endif
