/*
 * aes_riscv64_zkn.c - the riscv64-zkn backend: AES-128/192/256 with the
 * RISC-V scalar cryptography instructions, GHASH with carry-less multiply.
 *
 * Needs: RV64 with Zkne (aes64es, aes64esm, aes64ks1i, aes64ks2), Zknd
 * (aes64ds, aes64dsm, aes64im) and Zbc or Zbkc (clmul, clmulh; every CPU
 * with Zkn has Zbkc).  Found at run time by Linux's riscv_hwprobe
 * (src/cpu.c), or at compile time when the build targets the extensions
 * (-march=rv64gc_zkne_zknd_zbkc: __riscv_zkne, __riscv_zknd, __riscv_zbkc or
 * __riscv_zbc).  The rest of the library is built for the target's base
 * ISA: the instructions are emitted as ".insn" encodings (GCC 12 has no
 * RISC-V target attribute, and clang 14's assembler does not take
 * ".option arch, +zkne"; both take .insn), so a default riscv64 build
 * carries this backend and reports it unavailable where the CPU lacks them.
 *
 * Spec: "RISC-V Cryptography Extensions Volume I: Scalar & Entropy Source
 * Instructions", v1.0.1 (2022): the extension overviews of Zbkc
 * (clmul, clmulh), Zknd and Zkne, the instruction pages of aes64es,
 * aes64esm, aes64ds, aes64dsm, aes64im, aes64ks1i, aes64ks2, clmul and
 * clmulh (semantics and encodings), and "Data Independent Execution
 * Latency Subset: Zkt".  AES is FIPS 197, GHASH SP 800-38D.
 *
 * State: a 16-byte block is two 64-bit words s0 = bytes 0..7 and s1 =
 * bytes 8..15, little-endian (RISC-V Linux is little-endian), which is the
 * spec's layout: aes64es(m) rs1, rs2 returns bytes 0..7 of
 * [Mix]Columns(SubBytes(ShiftRows(rs2:rs1))).  ShiftRows commutes with
 * rotating the four columns by two, so the other half of a round is the
 * same instruction with the operands swapped:
 *   round:  t0 = aes64esm(s0, s1), t1 = aes64esm(s1, s0), s = t ^ rk[r]
 *   last:   aes64es (no MixColumns).
 * Decryption is FIPS 197 5.3.5's equivalent inverse cipher: aes64dsm is
 * InvMixColumns(InvSubBytes(InvShiftRows)), so the middle round keys are
 * stored through aes64im (InvMixColumns) and the rounds run in the
 * encryption's order of operations.
 *
 * Key schedule (FIPS 197 5.2) with the spec's own instructions: aes64ks1i
 * rs1, rnum gives SubWord(RotWord(w)) ^ Rcon[rnum] of the high word of rs1
 * in both halves (no RotWord and no Rcon for rnum = 0xA, AES-256's odd
 * steps), and aes64ks2 rs1, rs2 the two next words: rs1.hi ^ rs2.lo and
 * that ^ rs2.hi.  AES-128 steps two words, AES-192 three, AES-256 four.
 *
 * Modes: ECB, CTR (32- and 128-bit counters), CBC decryption and XTS run
 * two blocks side by side (independent chains fill an in-order core's
 * pipeline); CBC encryption and CBC-MAC are serial, one block.  Each
 * kernel is specialised to a constant round count (10, 12, 14), so the
 * rounds are unrolled, and to the alignment of in and out (one ld/sd per
 * word when both are 8-byte aligned).  GHASH: Karatsuba 128x128 products
 * from three clmul/clmulh pairs on byte-reversed words (the bit-reflected
 * representation), summed over four blocks against H^4..H^1 and reduced
 * once, as S. Gueron and M. E. Kounavis, "Intel Carry-Less Multiplication
 * Instruction and its Usage for Computing the GCM Mode" (Intel white
 * paper, rev. 2.02) derive for reflected operands: the product shifted
 * left by one bit, then x^128 = x^7 + x^2 + x + 1 folded in twice as right
 * shifts by 1, 2 and 7.  GCM as a whole, GCM-SIV's POLYVAL and the batch
 * kernels use the portable drivers over these primitives.
 *
 * Constant time: the Zkne/Zknd instructions and clmul/clmulh compute
 * without tables in memory, but the ISA promises data-independent latency
 * only with Zkt (the spec's Zkt section, whose list includes these
 * instructions); Zkn does not include Zkt.  No branch or memory index
 * here depends on keys or data (only on round counts, block counts,
 * pointer alignment and the public counters; scripts/ct-objcheck.sh checks
 * the object), so the backend is constant-time on Zkt-class hardware, and
 * .constant_time = 1 claims exactly that.  Zkt is not made a requirement:
 * hwprobe reports it separately, and cores that do not advertise it would
 * lose the backend while their latency is theirs to document.
 *
 * Key objects: ak_aes.data holds rvk_key (encryption and decryption round
 * keys, 480 bytes); ak_ghash.data holds rvk_ghash_key (H^1..H^4 and
 * their Karatsuba sums, 96 bytes).
 */
#include "../internal.h"

#ifdef AK_ARCH_RISCV64

#define RVK_INLINE static inline __attribute__((always_inline))

/* ---- The instructions (the spec's instruction pages) ----------------------- */
/* Encodings from the spec's instruction pages (and its opcode table):
 * R-type, major opcode OP (0x33), funct3 0: aes64es funct7 0x19, aes64esm
 * 0x1b, aes64ds 0x1d, aes64dsm 0x1f, aes64ks2 0x3f; clmul funct3 1 and
 * clmulh funct3 3, funct7 0x05 (Zbkc = Zbc's encodings).  I-type, OP-IMM
 * (0x13), funct3 1: aes64im imm12 0x300, aes64ks1i imm12 0x310 | rnum. */

RVK_INLINE uint64_t rv_aes64es(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 0, 0x19, %0, %1, %2" /* aes64es rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_aes64esm(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 0, 0x1b, %0, %1, %2" /* aes64esm rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_aes64ds(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 0, 0x1d, %0, %1, %2" /* aes64ds rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_aes64dsm(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 0, 0x1f, %0, %1, %2" /* aes64dsm rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_aes64im(uint64_t rs1)
{
    uint64_t rd;
    __asm__(".insn i 0x13, 1, %0, %1, 0x300" /* aes64im rd, rs1 */
            : "=r"(rd) : "r"(rs1));
    return rd;
}
/* aes64ks1i's round number is part of the encoding: one asm per value
 * the schedules use, selected by a switch on the public step index. */
RVK_INLINE uint64_t rv_aes64ks1i(uint64_t rs1, unsigned rnum)
{
    uint64_t rd;
    switch (rnum) {
    case 0: __asm__(".insn i 0x13, 1, %0, %1, 0x310" : "=r"(rd) : "r"(rs1)); break;
    case 1: __asm__(".insn i 0x13, 1, %0, %1, 0x311" : "=r"(rd) : "r"(rs1)); break;
    case 2: __asm__(".insn i 0x13, 1, %0, %1, 0x312" : "=r"(rd) : "r"(rs1)); break;
    case 3: __asm__(".insn i 0x13, 1, %0, %1, 0x313" : "=r"(rd) : "r"(rs1)); break;
    case 4: __asm__(".insn i 0x13, 1, %0, %1, 0x314" : "=r"(rd) : "r"(rs1)); break;
    case 5: __asm__(".insn i 0x13, 1, %0, %1, 0x315" : "=r"(rd) : "r"(rs1)); break;
    case 6: __asm__(".insn i 0x13, 1, %0, %1, 0x316" : "=r"(rd) : "r"(rs1)); break;
    case 7: __asm__(".insn i 0x13, 1, %0, %1, 0x317" : "=r"(rd) : "r"(rs1)); break;
    case 8: __asm__(".insn i 0x13, 1, %0, %1, 0x318" : "=r"(rd) : "r"(rs1)); break;
    case 9: __asm__(".insn i 0x13, 1, %0, %1, 0x319" : "=r"(rd) : "r"(rs1)); break;
    default: __asm__(".insn i 0x13, 1, %0, %1, 0x31a" : "=r"(rd) : "r"(rs1)); break;
    }
    return rd;
}
RVK_INLINE uint64_t rv_aes64ks2(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 0, 0x3f, %0, %1, %2" /* aes64ks2 rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_clmul(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 1, 0x05, %0, %1, %2" /* clmul rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}
RVK_INLINE uint64_t rv_clmulh(uint64_t rs1, uint64_t rs2)
{
    uint64_t rd;
    __asm__(".insn r 0x33, 3, 0x05, %0, %1, %2" /* clmulh rd, rs1, rs2 */
            : "=r"(rd) : "r"(rs1), "r"(rs2));
    return rd;
}

/* ---- Loads and stores ------------------------------------------------------ */
/* Any alignment: memcpy, which GCC turns into byte accesses (the base ISA
 * does not promise fast misaligned ld/sd).  With al = 1 the caller has
 * checked that the pointer is 8-byte aligned and the copy is one ld/sd.
 * Each bulk kernel is built for both (al is a constant after inlining) and
 * chosen by the public alignment of in and out. */
RVK_INLINE uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
RVK_INLINE void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
RVK_INLINE uint64_t lda(const uint8_t *p, int al)
{
    uint64_t v;
    if (al)
        memcpy(&v, __builtin_assume_aligned(p, 8), 8);
    else
        memcpy(&v, p, 8);
    return v;
}
RVK_INLINE void sta(uint8_t *p, uint64_t v, int al)
{
    if (al)
        memcpy(__builtin_assume_aligned(p, 8), &v, 8);
    else
        memcpy(p, &v, 8);
}
static inline int aligned8(const void *a, const void *b)
{
    return (((uintptr_t)a | (uintptr_t)b) & 7) == 0;
}

static inline uint64_t bswap64(uint64_t v)
{
    v = ((v & 0x00ff00ff00ff00ffull) << 8) | ((v >> 8) & 0x00ff00ff00ff00ffull);
    v = ((v & 0x0000ffff0000ffffull) << 16) | ((v >> 16) & 0x0000ffff0000ffffull);
    return (v << 32) | (v >> 32);
}

/* ---- Key object -------------------------------------------------------------- */

typedef struct rvk_key {
    uint64_t ek[30]; /* round key r: ek[2r], ek[2r + 1] */
    uint64_t dk[30]; /* decryption round r: ek[R - r], through aes64im for 0 < r < R */
} rvk_key;
_Static_assert(sizeof(rvk_key) <= AK_AES_DATA_BYTES, "rvk_key fits ak_aes.data");

static inline const rvk_key *rvk_of(const ak_aes *k)
{
    return (const rvk_key *)(const void *)k->data;
}

static void rvk_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    rvk_key *K = (rvk_key *)(void *)k->data;
    uint64_t *w = K->ek;
    unsigned rounds = key_len == 16 ? 10 : key_len == 24 ? 12 : 14;
    memset(k->data, 0, sizeof k->data);
    if (key_len == 16) {
        uint64_t k0 = ld64(key), k1 = ld64(key + 8);
        w[0] = k0; w[1] = k1;
        for (unsigned i = 0; i < 10; i++) {
            k0 = rv_aes64ks2(rv_aes64ks1i(k1, i), k0);
            k1 = rv_aes64ks2(k0, k1);
            w[2 * i + 2] = k0; w[2 * i + 3] = k1;
        }
    } else if (key_len == 24) {
        /* Three words per step, 8 steps: 3 + 24 = 27 >= 26 needed words. */
        uint64_t t[27];
        uint64_t k0 = ld64(key), k1 = ld64(key + 8), k2 = ld64(key + 16);
        t[0] = k0; t[1] = k1; t[2] = k2;
        for (unsigned i = 0; i < 8; i++) {
            k0 = rv_aes64ks2(rv_aes64ks1i(k2, i), k0);
            k1 = rv_aes64ks2(k0, k1);
            k2 = rv_aes64ks2(k1, k2);
            t[3 * i + 3] = k0; t[3 * i + 4] = k1; t[3 * i + 5] = k2;
        }
        memcpy(w, t, 26 * 8);
        aeskit_memzero(t, sizeof t);
    } else {
        uint64_t k0 = ld64(key), k1 = ld64(key + 8), k2 = ld64(key + 16), k3 = ld64(key + 24);
        w[0] = k0; w[1] = k1; w[2] = k2; w[3] = k3;
        for (unsigned i = 0; i < 7; i++) {
            k0 = rv_aes64ks2(rv_aes64ks1i(k3, i), k0);
            k1 = rv_aes64ks2(k0, k1);
            w[4 * i + 4] = k0; w[4 * i + 5] = k1;
            if (i == 6)
                break;
            k2 = rv_aes64ks2(rv_aes64ks1i(k1, 10), k2);
            k3 = rv_aes64ks2(k2, k3);
            w[4 * i + 6] = k2; w[4 * i + 7] = k3;
        }
    }
    K->dk[0] = w[2 * rounds];
    K->dk[1] = w[2 * rounds + 1];
    for (unsigned r = 1; r < rounds; r++) {
        K->dk[2 * r] = rv_aes64im(w[2 * (rounds - r)]);
        K->dk[2 * r + 1] = rv_aes64im(w[2 * (rounds - r) + 1]);
    }
    K->dk[2 * rounds] = w[0];
    K->dk[2 * rounds + 1] = w[1];
    k->rounds = rounds;
    k->key_len = (uint32_t)key_len;
}

/* ---- One and two blocks, R rounds (a constant after inlining) ------------- */

RVK_INLINE void enc1(const uint64_t *rk, unsigned R, uint64_t *s0, uint64_t *s1)
{
    uint64_t a = *s0 ^ rk[0], b = *s1 ^ rk[1];
    for (unsigned r = 1; r < R; r++) {
        uint64_t t0 = rv_aes64esm(a, b), t1 = rv_aes64esm(b, a);
        a = t0 ^ rk[2 * r];
        b = t1 ^ rk[2 * r + 1];
    }
    uint64_t t0 = rv_aes64es(a, b), t1 = rv_aes64es(b, a);
    *s0 = t0 ^ rk[2 * R];
    *s1 = t1 ^ rk[2 * R + 1];
}

RVK_INLINE void dec1(const uint64_t *dk, unsigned R, uint64_t *s0, uint64_t *s1)
{
    uint64_t a = *s0 ^ dk[0], b = *s1 ^ dk[1];
    for (unsigned r = 1; r < R; r++) {
        uint64_t t0 = rv_aes64dsm(a, b), t1 = rv_aes64dsm(b, a);
        a = t0 ^ dk[2 * r];
        b = t1 ^ dk[2 * r + 1];
    }
    uint64_t t0 = rv_aes64ds(a, b), t1 = rv_aes64ds(b, a);
    *s0 = t0 ^ dk[2 * R];
    *s1 = t1 ^ dk[2 * R + 1];
}

/* Two independent blocks (x, y) through the same key. */
RVK_INLINE void enc2(const uint64_t *rk, unsigned R, uint64_t s[4])
{
    uint64_t a = s[0] ^ rk[0], b = s[1] ^ rk[1], c = s[2] ^ rk[0], d = s[3] ^ rk[1];
    for (unsigned r = 1; r < R; r++) {
        uint64_t k0 = rk[2 * r], k1 = rk[2 * r + 1];
        uint64_t t0 = rv_aes64esm(a, b), t1 = rv_aes64esm(b, a);
        uint64_t t2 = rv_aes64esm(c, d), t3 = rv_aes64esm(d, c);
        a = t0 ^ k0; b = t1 ^ k1; c = t2 ^ k0; d = t3 ^ k1;
    }
    uint64_t k0 = rk[2 * R], k1 = rk[2 * R + 1];
    uint64_t t0 = rv_aes64es(a, b), t1 = rv_aes64es(b, a);
    uint64_t t2 = rv_aes64es(c, d), t3 = rv_aes64es(d, c);
    s[0] = t0 ^ k0; s[1] = t1 ^ k1; s[2] = t2 ^ k0; s[3] = t3 ^ k1;
}

RVK_INLINE void dec2(const uint64_t *dk, unsigned R, uint64_t s[4])
{
    uint64_t a = s[0] ^ dk[0], b = s[1] ^ dk[1], c = s[2] ^ dk[0], d = s[3] ^ dk[1];
    for (unsigned r = 1; r < R; r++) {
        uint64_t k0 = dk[2 * r], k1 = dk[2 * r + 1];
        uint64_t t0 = rv_aes64dsm(a, b), t1 = rv_aes64dsm(b, a);
        uint64_t t2 = rv_aes64dsm(c, d), t3 = rv_aes64dsm(d, c);
        a = t0 ^ k0; b = t1 ^ k1; c = t2 ^ k0; d = t3 ^ k1;
    }
    uint64_t k0 = dk[2 * R], k1 = dk[2 * R + 1];
    uint64_t t0 = rv_aes64ds(a, b), t1 = rv_aes64ds(b, a);
    uint64_t t2 = rv_aes64ds(c, d), t3 = rv_aes64ds(d, c);
    s[0] = t0 ^ k0; s[1] = t1 ^ k1; s[2] = t2 ^ k0; s[3] = t3 ^ k1;
}

/* ---- ECB ------------------------------------------------------------------------ */

RVK_INLINE void ecb_r(const uint64_t *rk, unsigned R, int dec, int al, uint8_t *out, const uint8_t *in,
                      size_t n)
{
    for (; n >= 2; n -= 2, in += 32, out += 32) {
        uint64_t s[4] = {lda(in, al), lda(in + 8, al), lda(in + 16, al), lda(in + 24, al)};
        if (dec)
            dec2(rk, R, s);
        else
            enc2(rk, R, s);
        sta(out, s[0], al); sta(out + 8, s[1], al); sta(out + 16, s[2], al); sta(out + 24, s[3], al);
    }
    if (n) {
        uint64_t a = lda(in, al), b = lda(in + 8, al);
        if (dec)
            dec1(rk, R, &a, &b);
        else
            enc1(rk, R, &a, &b);
        sta(out, a, al); sta(out + 8, b, al);
    }
}

static void rvk_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n)
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: ecb_r(rk, 10, 0, 1, out, in, n); break;
        case 12: ecb_r(rk, 12, 0, 1, out, in, n); break;
        default: ecb_r(rk, 14, 0, 1, out, in, n); break;
        }
    } else {
        switch (k->rounds) {
        case 10: ecb_r(rk, 10, 0, 0, out, in, n); break;
        case 12: ecb_r(rk, 12, 0, 0, out, in, n); break;
        default: ecb_r(rk, 14, 0, 0, out, in, n); break;
        }
    }
}

static void rvk_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n)
{
    const uint64_t *dk = rvk_of(k)->dk;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: ecb_r(dk, 10, 1, 1, out, in, n); break;
        case 12: ecb_r(dk, 12, 1, 1, out, in, n); break;
        default: ecb_r(dk, 14, 1, 1, out, in, n); break;
        }
    } else {
        switch (k->rounds) {
        case 10: ecb_r(dk, 10, 1, 0, out, in, n); break;
        case 12: ecb_r(dk, 12, 1, 0, out, in, n); break;
        default: ecb_r(dk, 14, 1, 0, out, in, n); break;
        }
    }
}

/* ---- CTR -------------------------------------------------------------------------- */
/*
 * The counter block is public.  It is kept twice: as the big-endian
 * integers hi, lo of the standard (the arithmetic) and as the state words
 * w0, w1 (the AES input).  An increment that leaves the last byte nonzero
 * only adds one to byte 15, the top byte of w1; otherwise the words are
 * formed again from the integers.  wide = 0 is GCM's inc32 (the low 32 bits
 * of lo wrap, the rest never changes), wide = 1 the 128-bit increment.
 */
typedef struct rvk_ctr {
    uint64_t hi, lo, w0, w1;
} rvk_ctr;

RVK_INLINE void ctr_step(rvk_ctr *c, int wide)
{
    uint64_t lo = wide ? c->lo + 1 : (c->lo & ~0xffffffffull) | (uint32_t)(c->lo + 1);
    c->lo = lo;
    if ((lo & 0xff) != 0) {
        c->w1 += (uint64_t)1 << 56;
        return;
    }
    if (wide && lo == 0) {
        c->hi += 1;
        c->w0 = bswap64(c->hi);
    }
    c->w1 = bswap64(lo);
}

RVK_INLINE void ctr_r(const uint64_t *rk, unsigned R, int wide, int al, uint8_t *out, const uint8_t *in,
                      size_t n, uint8_t ctr[16])
{
    rvk_ctr c;
    c.hi = ak_load_be64(ctr);
    c.lo = ak_load_be64(ctr + 8);
    c.w0 = ld64(ctr);
    c.w1 = ld64(ctr + 8);
    for (; n >= 2; n -= 2, in += 32, out += 32) {
        uint64_t s[4];
        s[0] = c.w0; s[1] = c.w1;
        ctr_step(&c, wide);
        s[2] = c.w0; s[3] = c.w1;
        ctr_step(&c, wide);
        enc2(rk, R, s);
        sta(out, s[0] ^ lda(in, al), al);
        sta(out + 8, s[1] ^ lda(in + 8, al), al);
        sta(out + 16, s[2] ^ lda(in + 16, al), al);
        sta(out + 24, s[3] ^ lda(in + 24, al), al);
    }
    if (n) {
        uint64_t a = c.w0, b = c.w1;
        ctr_step(&c, wide);
        enc1(rk, R, &a, &b);
        sta(out, a ^ lda(in, al), al);
        sta(out + 8, b ^ lda(in + 8, al), al);
    }
    ak_store_be64(ctr, c.hi);
    ak_store_be64(ctr + 8, c.lo);
}

static void rvk_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t ctr[16])
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: ctr_r(rk, 10, 0, 1, out, in, n, ctr); break;
        case 12: ctr_r(rk, 12, 0, 1, out, in, n, ctr); break;
        default: ctr_r(rk, 14, 0, 1, out, in, n, ctr); break;
        }
    } else {
        switch (k->rounds) {
        case 10: ctr_r(rk, 10, 0, 0, out, in, n, ctr); break;
        case 12: ctr_r(rk, 12, 0, 0, out, in, n, ctr); break;
        default: ctr_r(rk, 14, 0, 0, out, in, n, ctr); break;
        }
    }
}

static void rvk_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n, uint8_t ctr[16])
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: ctr_r(rk, 10, 1, 1, out, in, n, ctr); break;
        case 12: ctr_r(rk, 12, 1, 1, out, in, n, ctr); break;
        default: ctr_r(rk, 14, 1, 1, out, in, n, ctr); break;
        }
    } else {
        switch (k->rounds) {
        case 10: ctr_r(rk, 10, 1, 0, out, in, n, ctr); break;
        case 12: ctr_r(rk, 12, 1, 0, out, in, n, ctr); break;
        default: ctr_r(rk, 14, 1, 0, out, in, n, ctr); break;
        }
    }
}

/* ---- CBC and CBC-MAC ----------------------------------------------------------------- */

/* Serial: state = E(state ^ in_i); out_i = state unless out is NULL (CBC-MAC). */
RVK_INLINE void cbc_enc_r(const uint64_t *rk, unsigned R, int al, uint8_t *out, const uint8_t *in,
                          size_t n, uint8_t iv[16])
{
    uint64_t a = ld64(iv), b = ld64(iv + 8);
    for (; n; n--, in += 16) {
        a ^= lda(in, al);
        b ^= lda(in + 8, al);
        enc1(rk, R, &a, &b);
        if (out) {
            sta(out, a, al);
            sta(out + 8, b, al);
            out += 16;
        }
    }
    st64(iv, a);
    st64(iv + 8, b);
}

static void rvk_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t iv[16])
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: cbc_enc_r(rk, 10, 1, out, in, n, iv); break;
        case 12: cbc_enc_r(rk, 12, 1, out, in, n, iv); break;
        default: cbc_enc_r(rk, 14, 1, out, in, n, iv); break;
        }
    } else {
        switch (k->rounds) {
        case 10: cbc_enc_r(rk, 10, 0, out, in, n, iv); break;
        case 12: cbc_enc_r(rk, 12, 0, out, in, n, iv); break;
        default: cbc_enc_r(rk, 14, 0, out, in, n, iv); break;
        }
    }
}

static void rvk_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t n)
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, in)) {
        switch (k->rounds) {
        case 10: cbc_enc_r(rk, 10, 1, NULL, in, n, state); break;
        case 12: cbc_enc_r(rk, 12, 1, NULL, in, n, state); break;
        default: cbc_enc_r(rk, 14, 1, NULL, in, n, state); break;
        }
    } else {
        switch (k->rounds) {
        case 10: cbc_enc_r(rk, 10, 0, NULL, in, n, state); break;
        case 12: cbc_enc_r(rk, 12, 0, NULL, in, n, state); break;
        default: cbc_enc_r(rk, 14, 0, NULL, in, n, state); break;
        }
    }
}

/* Parallel: every ciphertext block is read before its output is written,
 * so out == in works. */
RVK_INLINE void cbc_dec_r(const uint64_t *dk, unsigned R, int al, uint8_t *out, const uint8_t *in,
                          size_t n, uint8_t iv[16])
{
    uint64_t p0 = ld64(iv), p1 = ld64(iv + 8);
    for (; n >= 2; n -= 2, in += 32, out += 32) {
        uint64_t c[4] = {lda(in, al), lda(in + 8, al), lda(in + 16, al), lda(in + 24, al)};
        uint64_t s[4] = {c[0], c[1], c[2], c[3]};
        dec2(dk, R, s);
        sta(out, s[0] ^ p0, al);
        sta(out + 8, s[1] ^ p1, al);
        sta(out + 16, s[2] ^ c[0], al);
        sta(out + 24, s[3] ^ c[1], al);
        p0 = c[2];
        p1 = c[3];
    }
    if (n) {
        uint64_t c0 = lda(in, al), c1 = lda(in + 8, al), a = c0, b = c1;
        dec1(dk, R, &a, &b);
        sta(out, a ^ p0, al);
        sta(out + 8, b ^ p1, al);
        p0 = c0;
        p1 = c1;
    }
    st64(iv, p0);
    st64(iv + 8, p1);
}

static void rvk_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t iv[16])
{
    const uint64_t *dk = rvk_of(k)->dk;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: cbc_dec_r(dk, 10, 1, out, in, n, iv); break;
        case 12: cbc_dec_r(dk, 12, 1, out, in, n, iv); break;
        default: cbc_dec_r(dk, 14, 1, out, in, n, iv); break;
        }
    } else {
        switch (k->rounds) {
        case 10: cbc_dec_r(dk, 10, 0, out, in, n, iv); break;
        case 12: cbc_dec_r(dk, 12, 0, out, in, n, iv); break;
        default: cbc_dec_r(dk, 14, 0, out, in, n, iv); break;
        }
    }
}

/* ---- XTS --------------------------------------------------------------------------------- */
/* The tweak is IEEE 1619's little-endian 128-bit value, i.e. the state
 * words themselves; doubling is the branch-free shift of ak_xts_double. */
RVK_INLINE void xts_double(uint64_t *lo, uint64_t *hi)
{
    uint64_t carry = (uint64_t)0 - (*hi >> 63);
    *hi = (*hi << 1) | (*lo >> 63);
    *lo = (*lo << 1) ^ (carry & 0x87);
}

RVK_INLINE void xts_r(const uint64_t *rk, unsigned R, int dec, int al, uint8_t *out, const uint8_t *in,
                      size_t n, uint8_t tweak[16])
{
    uint64_t t0 = ld64(tweak), t1 = ld64(tweak + 8);
    for (; n >= 2; n -= 2, in += 32, out += 32) {
        uint64_t u0 = t0, u1 = t1;
        xts_double(&u0, &u1);
        uint64_t s[4] = {lda(in, al) ^ t0, lda(in + 8, al) ^ t1, lda(in + 16, al) ^ u0, lda(in + 24, al) ^ u1};
        if (dec)
            dec2(rk, R, s);
        else
            enc2(rk, R, s);
        sta(out, s[0] ^ t0, al);
        sta(out + 8, s[1] ^ t1, al);
        sta(out + 16, s[2] ^ u0, al);
        sta(out + 24, s[3] ^ u1, al);
        t0 = u0;
        t1 = u1;
        xts_double(&t0, &t1);
    }
    if (n) {
        uint64_t a = lda(in, al) ^ t0, b = lda(in + 8, al) ^ t1;
        if (dec)
            dec1(rk, R, &a, &b);
        else
            enc1(rk, R, &a, &b);
        sta(out, a ^ t0, al);
        sta(out + 8, b ^ t1, al);
        xts_double(&t0, &t1);
    }
    st64(tweak, t0);
    st64(tweak + 8, t1);
}

static void rvk_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t tweak[16])
{
    const uint64_t *rk = rvk_of(k)->ek;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: xts_r(rk, 10, 0, 1, out, in, n, tweak); break;
        case 12: xts_r(rk, 12, 0, 1, out, in, n, tweak); break;
        default: xts_r(rk, 14, 0, 1, out, in, n, tweak); break;
        }
    } else {
        switch (k->rounds) {
        case 10: xts_r(rk, 10, 0, 0, out, in, n, tweak); break;
        case 12: xts_r(rk, 12, 0, 0, out, in, n, tweak); break;
        default: xts_r(rk, 14, 0, 0, out, in, n, tweak); break;
        }
    }
}

static void rvk_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                            uint8_t tweak[16])
{
    const uint64_t *dk = rvk_of(k)->dk;
    if (aligned8(in, out)) {
        switch (k->rounds) {
        case 10: xts_r(dk, 10, 1, 1, out, in, n, tweak); break;
        case 12: xts_r(dk, 12, 1, 1, out, in, n, tweak); break;
        default: xts_r(dk, 14, 1, 1, out, in, n, tweak); break;
        }
    } else {
        switch (k->rounds) {
        case 10: xts_r(dk, 10, 1, 0, out, in, n, tweak); break;
        case 12: xts_r(dk, 12, 1, 0, out, in, n, tweak); break;
        default: xts_r(dk, 14, 1, 0, out, in, n, tweak); break;
        }
    }
}

/* ---- GHASH ------------------------------------------------------------------------------ */
/*
 * A block B is the pair hi = B[0..7], lo = B[8..15] read big-endian: the
 * 128-bit integer hi:lo holds the coefficient of x^j at bit 127 - j (the
 * bit-reflected field element of SP 800-38D 6.3).  For reflected a, b the
 * 256-bit carry-less product is the reflection of a*b shifted right by one
 * bit, so after a left shift by one its top half is the reflected low half
 * of a*b and its bottom half the reflected high half, which the reduction
 * folds in (Gueron-Kounavis algorithm 5: x^128 = x^7 + x^2 + x + 1 as
 * right shifts by 1, 2 and 7, twice).  Both steps are linear, so four
 * products are summed first and shifted and reduced once.
 */
typedef struct rvk_ghash_key {
    uint64_t h[4][2]; /* H^1..H^4: {hi, lo} */
    uint64_t hx[4];   /* hi ^ lo of each power (Karatsuba's middle factor) */
} rvk_ghash_key;
_Static_assert(sizeof(rvk_ghash_key) <= AESKIT_GHASH_KEY_SIZE, "rvk_ghash_key fits ak_ghash.data");

/* The unreduced 256-bit product, accumulated: p[0] lowest word. */
RVK_INLINE void clmul128_acc(uint64_t p[4], uint64_t ahi, uint64_t alo, uint64_t bhi,
                             uint64_t blo, uint64_t bx)
{
    uint64_t l0 = rv_clmul(alo, blo), l1 = rv_clmulh(alo, blo);
    uint64_t h0 = rv_clmul(ahi, bhi), h1 = rv_clmulh(ahi, bhi);
    uint64_t ax = ahi ^ alo;
    uint64_t m0 = rv_clmul(ax, bx) ^ l0 ^ h0, m1 = rv_clmulh(ax, bx) ^ l1 ^ h1;
    p[0] ^= l0;
    p[1] ^= l1 ^ m0;
    p[2] ^= h0 ^ m1;
    p[3] ^= h1;
}

/* Shift by one and reduce: {hi, lo} of the reflected product mod g.
 * x3:x2:x1:x0 is the shifted product; x1:x0 (the reflected high half, the
 * terms of x^128 and up) is folded as x^128 = 1 + x + x^2 + x^7, which in
 * the reflected order are right shifts by 0, 1, 2, 7; d first folds in the
 * bits those shifts push out of x0 (terms of x^256 and up, folded again). */
RVK_INLINE void ghash_reduce(const uint64_t p[4], uint64_t *hi, uint64_t *lo)
{
    uint64_t x3 = (p[3] << 1) | (p[2] >> 63);
    uint64_t x2 = (p[2] << 1) | (p[1] >> 63);
    uint64_t x1 = (p[1] << 1) | (p[0] >> 63);
    uint64_t x0 = p[0] << 1;
    uint64_t d = x1 ^ (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
    uint64_t e1 = d >> 1, e0 = (x0 >> 1) | (d << 63);
    uint64_t f1 = d >> 2, f0 = (x0 >> 2) | (d << 62);
    uint64_t g1 = d >> 7, g0 = (x0 >> 7) | (d << 57);
    *hi = x3 ^ d ^ e1 ^ f1 ^ g1;
    *lo = x2 ^ x0 ^ e0 ^ f0 ^ g0;
}

static inline const rvk_ghash_key *rvg_of(const ak_ghash *g)
{
    return (const rvk_ghash_key *)(const void *)g->data;
}

static void rvk_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    rvk_ghash_key *G = (rvk_ghash_key *)(void *)g->data;
    memset(g->data, 0, sizeof g->data);
    uint64_t hi = ak_load_be64(H), lo = ak_load_be64(H + 8);
    G->h[0][0] = hi;
    G->h[0][1] = lo;
    G->hx[0] = hi ^ lo;
    for (int i = 1; i < 4; i++) {
        uint64_t p[4] = {0, 0, 0, 0};
        clmul128_acc(p, G->h[i - 1][0], G->h[i - 1][1], hi, lo, hi ^ lo);
        ghash_reduce(p, &G->h[i][0], &G->h[i][1]);
        G->hx[i] = G->h[i][0] ^ G->h[i][1];
    }
}

/* A block word big-endian: byte loads and shifts at any alignment, or one
 * ld and a byte reversal (the base ISA has no rev8) when aligned. */
RVK_INLINE uint64_t ldbe(const uint8_t *p, int al)
{
    return al ? bswap64(lda(p, 1)) : ak_load_be64(p);
}

RVK_INLINE void ghash_r(const rvk_ghash_key *G, uint8_t Y[16], const uint8_t *in, size_t n, int al)
{
    uint64_t yhi = ak_load_be64(Y), ylo = ak_load_be64(Y + 8);
    for (; n >= 4; n -= 4, in += 64) {
        uint64_t p[4] = {0, 0, 0, 0};
        clmul128_acc(p, yhi ^ ldbe(in, al), ylo ^ ldbe(in + 8, al), G->h[3][0], G->h[3][1],
                     G->hx[3]);
        clmul128_acc(p, ldbe(in + 16, al), ldbe(in + 24, al), G->h[2][0], G->h[2][1], G->hx[2]);
        clmul128_acc(p, ldbe(in + 32, al), ldbe(in + 40, al), G->h[1][0], G->h[1][1], G->hx[1]);
        clmul128_acc(p, ldbe(in + 48, al), ldbe(in + 56, al), G->h[0][0], G->h[0][1], G->hx[0]);
        ghash_reduce(p, &yhi, &ylo);
    }
    for (; n; n--, in += 16) {
        uint64_t p[4] = {0, 0, 0, 0};
        clmul128_acc(p, yhi ^ ldbe(in, al), ylo ^ ldbe(in + 8, al), G->h[0][0], G->h[0][1],
                     G->hx[0]);
        ghash_reduce(p, &yhi, &ylo);
    }
    ak_store_be64(Y, yhi);
    ak_store_be64(Y + 8, ylo);
}

static void rvk_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t n)
{
    if (aligned8(in, in))
        ghash_r(rvg_of(g), Y, in, n, 1);
    else
        ghash_r(rvg_of(g), Y, in, n, 0);
}

/* Nothing else: CTR+GHASH fusion, GCM messages, CBC lanes, OCB, CFB and
 * GCM-SIV run the portable drivers over the primitives above. */
const ak_backend ak_backend_riscv64_zkn = {
    .name = "riscv64-zkn",
    .requires = "RISC-V Zkne, Zknd, Zbc or Zbkc (aes64*, clmul)",
    .priority = 30,
    .required_features = AK_CPU_RV_ZKNE | AK_CPU_RV_ZKND | AK_CPU_RV_CLMUL,
    /* The instructions are data-independent on hardware with Zkt (file
     * header); the code has no secret branch or index. */
    .constant_time = 1,
    .aes_setkey = rvk_setkey,
    .ecb_encrypt = rvk_ecb_encrypt,
    .ecb_decrypt = rvk_ecb_decrypt,
    .ctr32 = rvk_ctr32,
    .ctr128 = rvk_ctr128,
    .cbc_encrypt = rvk_cbc_encrypt,
    .cbc_decrypt = rvk_cbc_decrypt,
    .cbcmac = rvk_cbcmac,
    .xts_encrypt = rvk_xts_encrypt,
    .xts_decrypt = rvk_xts_decrypt,
    .ghash_init = rvk_ghash_init,
    .ghash = rvk_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
    .gcm_batch = ak_gcm_batch_primitives,
    .gcm_gather_max = 64,
};
#endif
