/*
 * test_isa.c - exactness of include/aeskit_isa.h (issue 17).
 *
 * Every instruction is checked on random inputs (AESKIT_ISA_TEST_N per
 * instruction, default 250000, times AESKIT_TEST_SCALE) plus edge cases
 * (all-zero, all-one, the FIPS-197 states below, every imm8 / rnum), three
 * ways:
 *   (a) against the real instruction, inline in this file, where this CPU
 *       has it (x86: AES-NI, PCLMULQDQ, VAES/VPCLMULQDQ on ymm and zmm);
 *   (b) against a reference model written here from the manuals, plainly:
 *       S-box tables computed from the definition (inverse by search, then
 *       the affine map), MixColumns by GF(2^8) multiplication, carry-less
 *       products bit by bit, element orders spelled out per ISA;
 *   (c) the host path against the portable path (aeskit_isa_use_portable).
 * Plus known-answer chains: whole AES-128 encryptions/decryptions built from
 * each architecture's instructions must give FIPS-197 Appendix B and C.1.
 * Under qemu-user (the cross builds) the host path is the emulated AArch64
 * or POWER instruction and (b)/(c) check it.
 *
 * Manuals: Intel SDM vol. 2 (AESENC ... PCLMULQDQ, VAESENC, VPCLMULQDQ);
 * Arm ARM A-profile C7.2 (AESE, AESD, AESMC, AESIMC, PMULL, PMULL2, PMUL);
 * Power ISA 3.0B Book I 6.11 (vcipher ... vsbox, vpmsumb/h/w/d); RISC-V
 * scalar cryptography v1.0.1 (aes64*), bit-manipulation v1.0.0 (clmul*).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit_isa.h"
#include "internal.h"

#if defined(AK_ARCH_X86_64)
#include <immintrin.h>
#endif
#if defined(__riscv) && __riscv_xlen == 64 && defined(AESKIT_ISA_TEST_RV_NATIVE)
#define RV_NATIVE 1
#include <setjmp.h>
#include <signal.h>
#endif

static unsigned long failures, checks;

static void hex(const char *tag, const uint8_t *p, int n)
{
    fprintf(stderr, "  %s ", tag);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, "\n");
}

static int expect(const char *what, const char *name, const uint8_t *got, const uint8_t *want, int n,
                  const uint8_t *in1, const uint8_t *in2, int inlen, unsigned imm)
{
    checks++;
    if (!memcmp(got, want, (size_t)n))
        return 1;
    if (failures++ < 20) {
        fprintf(stderr, "FAIL %s %s (imm %u)\n", name, what, imm);
        if (in1) hex("in1 ", in1, inlen);
        if (in2) hex("in2 ", in2, inlen);
        hex("got ", got, n);
        hex("want", want, n);
    }
    return 0;
}

/* ---- random numbers: splitmix64 ----------------------------------------- */
static uint64_t rng_state = 0x0123456789abcdefull;
static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static void rnd_bytes(uint8_t *p, int n)
{
    for (int i = 0; i < n; i += 8) {
        uint64_t v = rnd64();
        for (int j = 0; j < 8 && i + j < n; j++)
            p[i + j] = (uint8_t)(v >> (8 * j));
    }
}

/* ===========================================================================
 * Reference model (FIPS-197 and the manuals), deliberately plain.
 * ======================================================================== */
static uint8_t SBOX[256], INV_SBOX[256];

static uint8_t gmul(uint8_t a, uint8_t b) /* FIPS-197 4.2: modulo x^8+x^4+x^3+x+1 */
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

static void ref_init(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0; /* 0 maps to 0 (FIPS-197 5.1.1) */
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        uint8_t s = 0;
        for (int i = 0; i < 8; i++) { /* b'_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i */
            int bit = ((inv >> i) ^ (inv >> ((i + 4) % 8)) ^ (inv >> ((i + 5) % 8)) ^
                       (inv >> ((i + 6) % 8)) ^ (inv >> ((i + 7) % 8)) ^ (0x63 >> i)) & 1;
            s |= (uint8_t)(bit << i);
        }
        SBOX[x] = s;
    }
    for (int x = 0; x < 256; x++)
        INV_SBOX[SBOX[x]] = (uint8_t)x;
    /* FIPS-197 Figure 7 spot values. */
    if (SBOX[0x00] != 0x63 || SBOX[0x53] != 0xed || SBOX[0xff] != 0x16 || INV_SBOX[0x63] != 0x00) {
        fprintf(stderr, "reference S-box wrong\n");
        exit(1);
    }
}

/* state[r][c] = in[r + 4c] (FIPS-197 3.4) */
static void ref_sub(uint8_t s[16]) { for (int i = 0; i < 16; i++) s[i] = SBOX[s[i]]; }
static void ref_invsub(uint8_t s[16]) { for (int i = 0; i < 16; i++) s[i] = INV_SBOX[s[i]]; }
static void ref_shiftrows(uint8_t s[16]) /* s'[r][c] = s[r][(c + r) mod 4] */
{
    uint8_t t[16];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    memcpy(s, t, 16);
}
static void ref_invshiftrows(uint8_t s[16]) /* s'[r][(c + r) mod 4] = s[r][c] */
{
    uint8_t t[16];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];
    memcpy(s, t, 16);
}
static void ref_mixmat(uint8_t s[16], const uint8_t m[4]) /* circulant m0 m1 m2 m3 */
{
    for (int c = 0; c < 4; c++) {
        uint8_t a[4], *col = s + 4 * c;
        memcpy(a, col, 4);
        for (int r = 0; r < 4; r++)
            col[r] = gmul(m[0], a[r]) ^ gmul(m[1], a[(r + 1) % 4]) ^ gmul(m[2], a[(r + 2) % 4]) ^
                     gmul(m[3], a[(r + 3) % 4]);
    }
}
static void ref_mix(uint8_t s[16]) { static const uint8_t m[4] = {2, 3, 1, 1}; ref_mixmat(s, m); }
static void ref_invmix(uint8_t s[16]) { static const uint8_t m[4] = {0x0e, 0x0b, 0x0d, 0x09}; ref_mixmat(s, m); }
static void ref_xor(uint8_t *d, const uint8_t *k, int n) { for (int i = 0; i < n; i++) d[i] ^= k[i]; }

/* Carry-less product of w-bit a and b, bit by bit. */
static void ref_clmul(uint64_t a, uint64_t b, int w, uint64_t *lo, uint64_t *hi)
{
    *lo = *hi = 0;
    for (int i = 0; i < w; i++)
        if ((b >> i) & 1) {
            *lo ^= a << i;
            if (i)
                *hi ^= a >> (64 - i);
        }
}

static uint64_t le64(const uint8_t *p) { uint64_t v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | p[i]; return v; }
static void putle64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint64_t beN(const uint8_t *p, int n) { uint64_t v = 0; for (int i = 0; i < n; i++) v = v << 8 | p[i]; return v; }
static void putbeN(uint8_t *p, uint64_t v, int n) { for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * (n - 1 - i))); }

/* ---- x86 ---- */
static void r_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k) { uint8_t t[16]; memcpy(t, s, 16); ref_shiftrows(t); ref_sub(t); ref_mix(t); ref_xor(t, k, 16); memcpy(d, t, 16); }
static void r_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { uint8_t t[16]; memcpy(t, s, 16); ref_shiftrows(t); ref_sub(t); ref_xor(t, k, 16); memcpy(d, t, 16); }
static void r_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k) { uint8_t t[16]; memcpy(t, s, 16); ref_invshiftrows(t); ref_invsub(t); ref_invmix(t); ref_xor(t, k, 16); memcpy(d, t, 16); }
static void r_aesdeclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { uint8_t t[16]; memcpy(t, s, 16); ref_invshiftrows(t); ref_invsub(t); ref_xor(t, k, 16); memcpy(d, t, 16); }
static void r_aesimc(uint8_t *d, const uint8_t *s) { uint8_t t[16]; memcpy(t, s, 16); ref_invmix(t); memcpy(d, t, 16); }
static void r_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    /* SDM: X3 = SRC[127:96], X1 = SRC[63:32]; DEST = (RotWord(SubWord(X3)) ^ RCON, SubWord(X3),
     * RotWord(SubWord(X1)) ^ RCON, SubWord(X1)) from the top; RotWord(X) = ROR(X, 8). */
    uint8_t t[16];
    for (int w = 0; w < 2; w++) {
        const uint8_t *x = s + 4 + 8 * w;
        uint8_t sw[4] = {SBOX[x[0]], SBOX[x[1]], SBOX[x[2]], SBOX[x[3]]};
        memcpy(t + 8 * w, sw, 4);
        t[8 * w + 4] = sw[1] ^ (uint8_t)imm;
        t[8 * w + 5] = sw[2];
        t[8 * w + 6] = sw[3];
        t[8 * w + 7] = sw[0];
    }
    memcpy(d, t, 16);
}
static void r_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    uint64_t lo, hi;
    ref_clmul(le64(a + ((imm & 0x01) ? 8 : 0)), le64(b + ((imm & 0x10) ? 8 : 0)), 64, &lo, &hi);
    putle64(d, lo);
    putle64(d + 8, hi);
}
#define RLANES(name, one, n) \
    static void r_##name(uint8_t *d, const uint8_t *s, const uint8_t *k) { for (int l = 0; l < n; l++) one(d + 16 * l, s + 16 * l, k + 16 * l); }
RLANES(vaesenc_x2, r_aesenc, 2)
RLANES(vaesenclast_x2, r_aesenclast, 2)
RLANES(vaesdec_x2, r_aesdec, 2)
RLANES(vaesdeclast_x2, r_aesdeclast, 2)
RLANES(vaesenc_x4, r_aesenc, 4)
RLANES(vaesenclast_x4, r_aesenclast, 4)
RLANES(vaesdec_x4, r_aesdec, 4)
RLANES(vaesdeclast_x4, r_aesdeclast, 4)
static void r_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm) { for (int l = 0; l < 2; l++) r_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm); }
static void r_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm) { for (int l = 0; l < 4; l++) r_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm); }

/* ---- AArch64 (Arm ARM: AESE: operand1 EOR operand2, AESSubBytes, AESShiftRows) ---- */
static void r_aese(uint8_t *d, const uint8_t *vd, const uint8_t *vn) { uint8_t t[16]; memcpy(t, vd, 16); ref_xor(t, vn, 16); ref_sub(t); ref_shiftrows(t); memcpy(d, t, 16); }
static void r_aesd(uint8_t *d, const uint8_t *vd, const uint8_t *vn) { uint8_t t[16]; memcpy(t, vd, 16); ref_xor(t, vn, 16); ref_invsub(t); ref_invshiftrows(t); memcpy(d, t, 16); }
static void r_aesmc(uint8_t *d, const uint8_t *s) { uint8_t t[16]; memcpy(t, s, 16); ref_mix(t); memcpy(d, t, 16); }
static void r_pmull_1q(uint8_t *d, const uint8_t *n, const uint8_t *m) { r_pclmulqdq(d, n, m, 0x00); }
static void r_pmull2_1q(uint8_t *d, const uint8_t *n, const uint8_t *m) { r_pclmulqdq(d, n, m, 0x11); }
static void r_pmull_8h_at(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    uint8_t t[16];
    for (int i = 0; i < 8; i++) { /* PolynomialMult(element1, element2), 16-bit result */
        uint64_t lo, hi;
        ref_clmul(n[i], m[i], 8, &lo, &hi);
        t[2 * i] = (uint8_t)lo;
        t[2 * i + 1] = (uint8_t)(lo >> 8);
    }
    memcpy(d, t, 16);
}
static void r_pmull_8h(uint8_t *d, const uint8_t *n, const uint8_t *m) { r_pmull_8h_at(d, n, m); }
static void r_pmull2_8h(uint8_t *d, const uint8_t *n, const uint8_t *m) { r_pmull_8h_at(d, n + 8, m + 8); }
static void r_pmul_16b(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    uint8_t t[16];
    for (int i = 0; i < 16; i++) {
        uint64_t lo, hi;
        ref_clmul(n[i], m[i], 8, &lo, &hi);
        t[i] = (uint8_t)lo;
    }
    memcpy(d, t, 16);
}

/* ---- POWER (ISA byte 0 = most significant; vcipher: SubBytes, ShiftRows, MixColumns, ^key;
 *      vncipher: InvShiftRows, InvSubBytes, ^key, InvMixColumns) ---- */
static void r_vcipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { uint8_t t[16]; memcpy(t, a, 16); ref_sub(t); ref_shiftrows(t); ref_mix(t); ref_xor(t, b, 16); memcpy(d, t, 16); }
static void r_vcipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { uint8_t t[16]; memcpy(t, a, 16); ref_sub(t); ref_shiftrows(t); ref_xor(t, b, 16); memcpy(d, t, 16); }
static void r_vncipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { uint8_t t[16]; memcpy(t, a, 16); ref_invshiftrows(t); ref_invsub(t); ref_xor(t, b, 16); ref_invmix(t); memcpy(d, t, 16); }
static void r_vncipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { uint8_t t[16]; memcpy(t, a, 16); ref_invshiftrows(t); ref_invsub(t); ref_xor(t, b, 16); memcpy(d, t, 16); }
static void r_vsbox(uint8_t *d, const uint8_t *a) { uint8_t t[16]; memcpy(t, a, 16); ref_sub(t); memcpy(d, t, 16); }
/* vpmsum for element width e bytes: result element j (2e bytes) = xor of
 * products of the source element pairs 2j, 2j+1; all big-endian. */
static void r_vpmsum(uint8_t *d, const uint8_t *a, const uint8_t *b, int e)
{
    uint8_t t[16];
    for (int j = 0; j < 16 / (2 * e); j++) {
        uint64_t lo = 0, hi = 0;
        for (int k = 0; k < 2; k++) {
            uint64_t l, h;
            int off = (2 * j + k) * e;
            ref_clmul(beN(a + off, e), beN(b + off, e), 8 * e, &l, &h);
            lo ^= l;
            hi ^= h;
        }
        if (e == 8) {
            putbeN(t, hi, 8);
            putbeN(t + 8, lo, 8);
        } else {
            putbeN(t + 2 * e * j, lo, 2 * e);
        }
    }
    memcpy(d, t, 16);
}
static void r_vpmsumb(uint8_t *d, const uint8_t *a, const uint8_t *b) { r_vpmsum(d, a, b, 1); }
static void r_vpmsumh(uint8_t *d, const uint8_t *a, const uint8_t *b) { r_vpmsum(d, a, b, 2); }
static void r_vpmsumw(uint8_t *d, const uint8_t *a, const uint8_t *b) { r_vpmsum(d, a, b, 4); }
static void r_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b) { r_vpmsum(d, a, b, 8); }

/* ---- RISC-V (Sail of the scalar crypto spec, transcribed) ---- */
static uint64_t rv_state_op(uint64_t rs1, uint64_t rs2, int enc, int mix)
{
    uint8_t s[16];
    putle64(s, rs1);
    putle64(s + 8, rs2);
    if (enc) { /* aes_rv64_shiftrows_fwd, then sbox, then mixcolumn_fwd per word */
        ref_shiftrows(s);
        ref_sub(s);
        if (mix) ref_mix(s);
    } else {
        ref_invshiftrows(s);
        ref_invsub(s);
        if (mix) ref_invmix(s);
    }
    return le64(s);
}
static uint64_t r_aes64es(uint64_t a, uint64_t b) { return rv_state_op(a, b, 1, 0); }
static uint64_t r_aes64esm(uint64_t a, uint64_t b) { return rv_state_op(a, b, 1, 1); }
static uint64_t r_aes64ds(uint64_t a, uint64_t b) { return rv_state_op(a, b, 0, 0); }
static uint64_t r_aes64dsm(uint64_t a, uint64_t b) { return rv_state_op(a, b, 0, 1); }
static uint64_t r_aes64im(uint64_t a) { uint8_t s[16] = {0}; putle64(s, a); ref_invmix(s); return le64(s); }
static uint64_t r_aes64ks1i(uint64_t rs1, unsigned rnum)
{
    static const uint8_t rc[11] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36, 0x00};
    rnum &= 0xf;
    uint32_t t1 = (uint32_t)(rs1 >> 32);
    uint32_t t2 = rnum == 0xa ? t1 : (t1 >> 8 | t1 << 24);
    uint32_t t3 = 0;
    for (int i = 0; i < 4; i++)
        t3 |= (uint32_t)SBOX[(t2 >> (8 * i)) & 0xff] << (8 * i);
    uint32_t w = t3 ^ (rnum <= 10 ? rc[rnum] : 0);
    return (uint64_t)w << 32 | w;
}
static uint64_t r_aes64ks2(uint64_t rs1, uint64_t rs2)
{
    uint32_t w0 = (uint32_t)(rs1 >> 32) ^ (uint32_t)rs2;
    uint32_t w1 = (uint32_t)(rs1 >> 32) ^ (uint32_t)rs2 ^ (uint32_t)(rs2 >> 32);
    return (uint64_t)w1 << 32 | w0;
}
static uint64_t r_clmul(uint64_t a, uint64_t b) { uint64_t r = 0; for (int i = 0; i < 64; i++) if ((b >> i) & 1) r ^= a << i; return r; }
static uint64_t r_clmulh(uint64_t a, uint64_t b) { uint64_t r = 0; for (int i = 1; i < 64; i++) if ((b >> i) & 1) r ^= a >> (64 - i); return r; }
static uint64_t r_clmulr(uint64_t a, uint64_t b) { uint64_t r = 0; for (int i = 0; i < 64; i++) if ((b >> i) & 1) r ^= a >> (63 - i); return r; }

/* ===========================================================================
 * Real x86 instructions (the third opinion where this CPU has them)
 * ======================================================================== */
#if defined(AK_ARCH_X86_64)
#define TN __attribute__((target("aes,pclmul,sse4.1")))
#define TV __attribute__((target("aes,pclmul,avx2,vaes,vpclmulqdq")))
#define TZ __attribute__((target("aes,pclmul,avx2,vaes,vpclmulqdq,avx512f")))
#define L1(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define S1(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
TN static void n_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k) { S1(d, _mm_aesenc_si128(L1(s), L1(k))); }
TN static void n_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { S1(d, _mm_aesenclast_si128(L1(s), L1(k))); }
TN static void n_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k) { S1(d, _mm_aesdec_si128(L1(s), L1(k))); }
TN static void n_aesdeclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { S1(d, _mm_aesdeclast_si128(L1(s), L1(k))); }
TN static void n_aesimc(uint8_t *d, const uint8_t *s) { S1(d, _mm_aesimc_si128(L1(s))); }
/* AESKEYGENASSIST needs a constant imm8: a fixed set of them. */
#define KGA(imm) case imm: S1(d, _mm_aeskeygenassist_si128(L1(s), imm)); return 1;
TN static int n_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    switch (imm) {
        KGA(0x00) KGA(0x01) KGA(0x02) KGA(0x04) KGA(0x08) KGA(0x10) KGA(0x20) KGA(0x40) KGA(0x80)
        KGA(0x1b) KGA(0x36) KGA(0x6c) KGA(0xd8) KGA(0xab) KGA(0x4d) KGA(0x9a) KGA(0xff) KGA(0x5a)
    default: return 0;
    }
}
TN static void n_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    switch (imm & 0x11) {
    case 0x00: S1(d, _mm_clmulepi64_si128(L1(a), L1(b), 0x00)); break;
    case 0x01: S1(d, _mm_clmulepi64_si128(L1(a), L1(b), 0x01)); break;
    case 0x10: S1(d, _mm_clmulepi64_si128(L1(a), L1(b), 0x10)); break;
    default: S1(d, _mm_clmulepi64_si128(L1(a), L1(b), 0x11)); break;
    }
}
#define L2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define S2(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
TV static void n_vaesenc_x2(uint8_t *d, const uint8_t *s, const uint8_t *k) { S2(d, _mm256_aesenc_epi128(L2(s), L2(k))); }
TV static void n_vaesenclast_x2(uint8_t *d, const uint8_t *s, const uint8_t *k) { S2(d, _mm256_aesenclast_epi128(L2(s), L2(k))); }
TV static void n_vaesdec_x2(uint8_t *d, const uint8_t *s, const uint8_t *k) { S2(d, _mm256_aesdec_epi128(L2(s), L2(k))); }
TV static void n_vaesdeclast_x2(uint8_t *d, const uint8_t *s, const uint8_t *k) { S2(d, _mm256_aesdeclast_epi128(L2(s), L2(k))); }
TV static void n_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    switch (imm & 0x11) {
    case 0x00: S2(d, _mm256_clmulepi64_epi128(L2(a), L2(b), 0x00)); break;
    case 0x01: S2(d, _mm256_clmulepi64_epi128(L2(a), L2(b), 0x01)); break;
    case 0x10: S2(d, _mm256_clmulepi64_epi128(L2(a), L2(b), 0x10)); break;
    default: S2(d, _mm256_clmulepi64_epi128(L2(a), L2(b), 0x11)); break;
    }
}
#define L4(p) _mm512_loadu_si512((const void *)(p))
#define S4(p, v) _mm512_storeu_si512((void *)(p), v)
TZ static void n_vaesenc_x4(uint8_t *d, const uint8_t *s, const uint8_t *k) { S4(d, _mm512_aesenc_epi128(L4(s), L4(k))); }
TZ static void n_vaesenclast_x4(uint8_t *d, const uint8_t *s, const uint8_t *k) { S4(d, _mm512_aesenclast_epi128(L4(s), L4(k))); }
TZ static void n_vaesdec_x4(uint8_t *d, const uint8_t *s, const uint8_t *k) { S4(d, _mm512_aesdec_epi128(L4(s), L4(k))); }
TZ static void n_vaesdeclast_x4(uint8_t *d, const uint8_t *s, const uint8_t *k) { S4(d, _mm512_aesdeclast_epi128(L4(s), L4(k))); }
TZ static void n_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    switch (imm & 0x11) {
    case 0x00: S4(d, _mm512_clmulepi64_epi128(L4(a), L4(b), 0x00)); break;
    case 0x01: S4(d, _mm512_clmulepi64_epi128(L4(a), L4(b), 0x01)); break;
    case 0x10: S4(d, _mm512_clmulepi64_epi128(L4(a), L4(b), 0x10)); break;
    default: S4(d, _mm512_clmulepi64_epi128(L4(a), L4(b), 0x11)); break;
    }
}
#endif

/* ===========================================================================
 * Real RISC-V instructions (under qemu-riscv64 -cpu rv64,zbc=true,zkne=true,
 * zknd=true; this file alone is built with -march=..._zbc_zkne_zknd there).
 * Probed once with a SIGILL handler: a CPU without them skips this check.
 * ======================================================================== */
#if defined(RV_NATIVE)
#define RVN(op) \
    static uint64_t n_##op(uint64_t a, uint64_t b) { uint64_t r; __asm__(#op " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
RVN(aes64es)
RVN(aes64esm)
RVN(aes64ds)
RVN(aes64dsm)
RVN(aes64ks2)
RVN(clmul)
RVN(clmulh)
RVN(clmulr)
static uint64_t n_aes64im(uint64_t a) { uint64_t r; __asm__("aes64im %0, %1" : "=r"(r) : "r"(a)); return r; }
#define KS1I(n) case n: __asm__("aes64ks1i %0, %1, " #n : "=r"(r) : "r"(a)); break;
static uint64_t n_aes64ks1i(uint64_t a, unsigned rnum)
{
    uint64_t r = 0;
    switch (rnum & 0xf) { /* 11..15 are reserved encodings: not executed */
        KS1I(0) KS1I(1) KS1I(2) KS1I(3) KS1I(4) KS1I(5) KS1I(6) KS1I(7) KS1I(8) KS1I(9) KS1I(10)
    default: r = r_aes64ks1i(a, rnum); break;
    }
    return r;
}
static sigjmp_buf probe_jmp;
static void probe_sigill(int sig) { (void)sig; siglongjmp(probe_jmp, 1); }
static int rv_probe(void)
{
    struct sigaction sa, old_ill;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = probe_sigill;
    sigaction(SIGILL, &sa, &old_ill);
    volatile int ok = 0;
    volatile uint64_t x = 1, sink;
    if (!sigsetjmp(probe_jmp, 1)) {
        /* Results used, so the (non-volatile) asm is not optimised away. */
        sink = n_aes64es(x, 2) ^ n_aes64ds(x, 2) ^ n_clmul(x, 2);
        (void)sink;
        ok = 1;
    }
    sigaction(SIGILL, &old_ill, NULL);
    return ok;
}
#endif

/* ===========================================================================
 * The driver: per instruction, edge cases then random inputs.
 * ======================================================================== */
typedef void f_b3(uint8_t *, const uint8_t *, const uint8_t *);
typedef void f_b3i(uint8_t *, const uint8_t *, const uint8_t *, unsigned);
typedef void f_b2(uint8_t *, const uint8_t *);
typedef void f_b2i(uint8_t *, const uint8_t *, unsigned);
typedef uint64_t f_r2(uint64_t, uint64_t);
typedef uint64_t f_r1(uint64_t);
typedef uint64_t f_r1i(uint64_t, unsigned);

enum { B3, B3I, B2, B2I, R2, R1, R1I };
struct op {
    const char *name;
    int kind, n;
    void *lib, *ref, *nat;  /* nat: NULL when this CPU lacks the instruction */
    uint32_t nat_needs;
};

static long iterations;

/* FIPS-197 Appendix B (cipher example): input, key, round-1 states. */
static const uint8_t fips_b_in[16] = {0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34};
static const uint8_t fips_b_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t fips_b_r1_start[16] = {0x19, 0x3d, 0xe3, 0xbe, 0xa0, 0xf4, 0xe2, 0x2b, 0x9a, 0xc6, 0x8d, 0x2a, 0xe9, 0xf8, 0x48, 0x08};
static const uint8_t fips_b_r1_sub[16] = {0xd4, 0x27, 0x11, 0xae, 0xe0, 0xbf, 0x98, 0xf1, 0xb8, 0xb4, 0x5d, 0xe5, 0x1e, 0x41, 0x52, 0x30};
static const uint8_t fips_b_r1_shift[16] = {0xd4, 0xbf, 0x5d, 0x30, 0xe0, 0xb4, 0x52, 0xae, 0xb8, 0x41, 0x11, 0xf1, 0x1e, 0x27, 0x98, 0xe5};
static const uint8_t fips_b_r1_mix[16] = {0x04, 0x66, 0x81, 0xe5, 0xe0, 0xcb, 0x19, 0x9a, 0x48, 0xf8, 0xd3, 0x7a, 0x28, 0x06, 0x26, 0x4c};
static const uint8_t fips_b_rk1[16] = {0xa0, 0xfa, 0xfe, 0x17, 0x88, 0x54, 0x2c, 0xb1, 0x23, 0xa3, 0x39, 0x39, 0x2a, 0x6c, 0x76, 0x05};
static const uint8_t fips_b_r2_start[16] = {0xa4, 0x9c, 0x7f, 0xf2, 0x68, 0x9f, 0x35, 0x2b, 0x6b, 0x5b, 0xea, 0x43, 0x02, 0x6a, 0x50, 0x49};
static const uint8_t fips_b_out[16] = {0x39, 0x25, 0x84, 0x1d, 0x02, 0xdc, 0x09, 0xfb, 0xdc, 0x11, 0x85, 0x97, 0x19, 0x6a, 0x0b, 0x32};
/* FIPS-197 Appendix C.1 (AES-128). */
static const uint8_t fips_c1_pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
static const uint8_t fips_c1_key[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
static const uint8_t fips_c1_ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};

static const uint8_t *const fips_states[] = {fips_b_in, fips_b_key, fips_b_r1_start, fips_b_r1_sub, fips_b_r1_shift,
                                             fips_b_r1_mix, fips_b_rk1, fips_b_r2_start, fips_b_out, fips_c1_pt,
                                             fips_c1_key, fips_c1_ct};
#define NFIPS (int)(sizeof fips_states / sizeof fips_states[0])

/* Input number i of a run: the edge cases first, then random. */
static void make_input(uint8_t *p, int n, long i, int which)
{
    long e = i;
    if (e == 0) { memset(p, 0, (size_t)n); return; }
    if (e == 1) { memset(p, 0xff, (size_t)n); return; }
    if (e == 2) { memset(p, which ? 0 : 0xff, (size_t)n); return; }
    if (e == 3) { memset(p, which ? 0xff : 0, (size_t)n); return; }
    e -= 4;
    if (e < NFIPS * NFIPS) {
        for (int l = 0; l < n; l += 16)
            memcpy(p + l, fips_states[which ? (e / NFIPS + l / 16) % NFIPS : (e % NFIPS + l / 16) % NFIPS], 16);
        return;
    }
    rnd_bytes(p, n);
    if ((i & 15) == 0) /* sparse inputs: single bits, to catch carries and shifts */
        for (int j = 0; j < n; j++)
            p[j] = (rnd64() & 7) ? 0 : (uint8_t)(1u << (rnd64() & 7));
}
#define N_EDGE (4 + NFIPS * NFIPS)

static unsigned pick_imm(const struct op *o, long i)
{
    if (o->kind == R1I)
        return (unsigned)(i % 16);
    return (unsigned)(i < 256 ? i : (long)(rnd64() & 0xff));
}

static void run_op(const struct op *o)
{
    unsigned long before = failures;
    uint8_t a[64], b[64], got_h[64], got_p[64], want[64], nat[64];
    int n = o->n;
    for (long i = 0; i < iterations + N_EDGE; i++) {
        make_input(a, n, i, 0);
        make_input(b, n, i, 1);
        unsigned imm = pick_imm(o, i);
        int have_nat = o->nat != NULL;
        switch (o->kind) {
        case B3:
            aeskit_isa_use_portable(0);
            ((f_b3 *)o->lib)(got_h, a, b);
            aeskit_isa_use_portable(1);
            ((f_b3 *)o->lib)(got_p, a, b);
            ((f_b3 *)o->ref)(want, a, b);
            if (have_nat) ((f_b3 *)o->nat)(nat, a, b);
            break;
        case B3I:
            aeskit_isa_use_portable(0);
            ((f_b3i *)o->lib)(got_h, a, b, imm);
            aeskit_isa_use_portable(1);
            ((f_b3i *)o->lib)(got_p, a, b, imm);
            ((f_b3i *)o->ref)(want, a, b, imm);
            if (have_nat) ((f_b3i *)o->nat)(nat, a, b, imm);
            break;
        case B2:
            aeskit_isa_use_portable(0);
            ((f_b2 *)o->lib)(got_h, a);
            aeskit_isa_use_portable(1);
            ((f_b2 *)o->lib)(got_p, a);
            ((f_b2 *)o->ref)(want, a);
            if (have_nat) ((f_b2 *)o->nat)(nat, a);
            break;
        case B2I:
            aeskit_isa_use_portable(0);
            ((f_b2i *)o->lib)(got_h, a, imm);
            aeskit_isa_use_portable(1);
            ((f_b2i *)o->lib)(got_p, a, imm);
            ((f_b2i *)o->ref)(want, a, imm);
            if (have_nat) have_nat = ((int (*)(uint8_t *, const uint8_t *, unsigned))o->nat)(nat, a, imm);
            break;
        default: {
            uint64_t x = le64(a), y = le64(b), h, p, r;
            aeskit_isa_use_portable(0);
            h = o->kind == R2 ? ((f_r2 *)o->lib)(x, y) : o->kind == R1 ? ((f_r1 *)o->lib)(x) : ((f_r1i *)o->lib)(x, imm);
            aeskit_isa_use_portable(1);
            p = o->kind == R2 ? ((f_r2 *)o->lib)(x, y) : o->kind == R1 ? ((f_r1 *)o->lib)(x) : ((f_r1i *)o->lib)(x, imm);
            r = o->kind == R2 ? ((f_r2 *)o->ref)(x, y) : o->kind == R1 ? ((f_r1 *)o->ref)(x) : ((f_r1i *)o->ref)(x, imm);
            putle64(got_h, h);
            putle64(got_p, p);
            putle64(want, r);
            if (have_nat) {
                uint64_t q = o->kind == R2 ? ((f_r2 *)o->nat)(x, y) : o->kind == R1 ? ((f_r1 *)o->nat)(x) : ((f_r1i *)o->nat)(x, imm);
                putle64(nat, q);
            }
            n = 8;
            break;
        }
        }
        expect("host path vs reference", o->name, got_h, want, n, a, b, n, imm);
        expect("portable path vs reference", o->name, got_p, want, n, a, b, n, imm);
        if (have_nat)
            expect("reference vs the real instruction", o->name, want, nat, n, a, b, n, imm);
        /* In place: d == a must give the same result (host path). */
        if (i < 64 && (o->kind == B3 || o->kind == B3I)) {
            uint8_t t[64];
            memcpy(t, a, (size_t)n);
            aeskit_isa_use_portable(i & 1);
            if (o->kind == B3) ((f_b3 *)o->lib)(t, t, b); else ((f_b3i *)o->lib)(t, t, b, imm);
            expect("in place (d == a)", o->name, t, want, n, a, b, n, imm);
            memcpy(t, b, (size_t)n);
            if (o->kind == B3) ((f_b3 *)o->lib)(t, a, t); else ((f_b3i *)o->lib)(t, a, t, imm);
            expect("in place (d == b)", o->name, t, want, n, a, b, n, imm);
        }
    }
    aeskit_isa_use_portable(0);
    printf("  %-22s %s%s\n", o->name, failures == before ? "ok" : "FAILED",
           o->nat ? ", matches the real instruction" : "");
}

/* ---- known-answer chains ------------------------------------------------- */
static void expand128(const uint8_t key[16], uint8_t rk[11][16])
{
    /* FIPS-197 5.2 with AESKEYGENASSIST: doubleword 3 of its result is
     * RotWord(SubWord(w[i-1])) ^ Rcon. */
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    memcpy(rk[0], key, 16);
    for (int r = 1; r <= 10; r++) {
        uint8_t t[16];
        aeskit_isa_x86_aeskeygenassist(t, rk[r - 1], rcon[r - 1]);
        for (int j = 0; j < 4; j++)
            rk[r][j] = rk[r - 1][j] ^ t[12 + j];
        for (int j = 4; j < 16; j++)
            rk[r][j] = rk[r - 1][j] ^ rk[r][j - 4];
    }
}

static void chains(const char *path)
{
    uint8_t rk[11][16], s[16], t[16], z[16] = {0};
    const uint8_t *pt[2] = {fips_b_in, fips_c1_pt}, *key[2] = {fips_b_key, fips_c1_key}, *ct[2] = {fips_b_out, fips_c1_ct};
    for (int v = 0; v < 2; v++) {
        expand128(key[v], rk);
        if (v == 0)
            expect("FIPS-197 B round key 1 (AESKEYGENASSIST)", path, rk[1], fips_b_rk1, 16, 0, 0, 0, 0);
        /* x86 */
        memcpy(s, pt[v], 16);
        ref_xor(s, rk[0], 16);
        if (v == 0)
            expect("FIPS-197 B round 1 start", path, s, fips_b_r1_start, 16, 0, 0, 0, 0);
        for (int r = 1; r <= 9; r++) {
            aeskit_isa_x86_aesenc(s, s, rk[r]);
            if (v == 0 && r == 1)
                expect("FIPS-197 B round 2 start (AESENC)", path, s, fips_b_r2_start, 16, 0, 0, 0, 0);
        }
        aeskit_isa_x86_aesenclast(s, s, rk[10]);
        expect("FIPS-197 x86 AESENC chain", path, s, ct[v], 16, 0, 0, 0, 0);
        ref_xor(s, rk[10], 16);
        for (int r = 9; r >= 1; r--) {
            aeskit_isa_x86_aesimc(t, rk[r]);
            aeskit_isa_x86_aesdec(s, s, t);
        }
        aeskit_isa_x86_aesdeclast(s, s, rk[0]);
        expect("FIPS-197 x86 AESDEC chain", path, s, pt[v], 16, 0, 0, 0, 0);
        /* AArch64: AESE/AESMC, AESD/AESIMC (equivalent inverse cipher) */
        memcpy(s, pt[v], 16);
        for (int r = 0; r <= 8; r++) {
            aeskit_isa_arm_aese(s, s, rk[r]);
            aeskit_isa_arm_aesmc(s, s);
        }
        aeskit_isa_arm_aese(s, s, rk[9]);
        ref_xor(s, rk[10], 16);
        expect("FIPS-197 ARM AESE chain", path, s, ct[v], 16, 0, 0, 0, 0);
        aeskit_isa_arm_aesd(s, s, rk[10]);
        for (int r = 9; r >= 1; r--) {
            aeskit_isa_arm_aesimc(s, s);
            aeskit_isa_arm_aesimc(t, rk[r]);
            aeskit_isa_arm_aesd(s, s, t);
        }
        ref_xor(s, rk[0], 16);
        expect("FIPS-197 ARM AESD chain", path, s, pt[v], 16, 0, 0, 0, 0);
        /* POWER: vcipher / vncipher with the plain inverse cipher's key order */
        memcpy(s, pt[v], 16);
        ref_xor(s, rk[0], 16);
        for (int r = 1; r <= 9; r++)
            aeskit_isa_ppc_vcipher(s, s, rk[r]);
        aeskit_isa_ppc_vcipherlast(s, s, rk[10]);
        expect("FIPS-197 POWER vcipher chain", path, s, ct[v], 16, 0, 0, 0, 0);
        ref_xor(s, rk[10], 16);
        for (int r = 9; r >= 1; r--)
            aeskit_isa_ppc_vncipher(s, s, rk[r]);
        aeskit_isa_ppc_vncipherlast(s, s, rk[0]);
        expect("FIPS-197 POWER vncipher chain", path, s, pt[v], 16, 0, 0, 0, 0);
        aeskit_isa_ppc_vsbox(s, fips_b_r1_start);
        if (v == 0)
            expect("FIPS-197 B round 1 SubBytes (vsbox)", path, s, fips_b_r1_sub, 16, 0, 0, 0, 0);
        /* RISC-V: key schedule with aes64ks1i/ks2, rounds with aes64esm/es, aes64dsm/ds/im */
        uint64_t k[11][2];
        k[0][0] = le64(key[v]);
        k[0][1] = le64(key[v] + 8);
        for (int r = 1; r <= 10; r++) {
            uint64_t tt = aeskit_isa_rv_aes64ks1i(k[r - 1][1], (unsigned)(r - 1));
            k[r][0] = aeskit_isa_rv_aes64ks2(tt, k[r - 1][0]);
            k[r][1] = aeskit_isa_rv_aes64ks2(k[r][0], k[r - 1][1]);
        }
        putle64(t, k[1][0]);
        putle64(t + 8, k[1][1]);
        if (v == 0)
            expect("FIPS-197 B round key 1 (aes64ks1i/ks2)", path, t, fips_b_rk1, 16, 0, 0, 0, 0);
        uint64_t s0 = le64(pt[v]) ^ k[0][0], s1 = le64(pt[v] + 8) ^ k[0][1];
        for (int r = 1; r <= 10; r++) {
            uint64_t n0 = r < 10 ? aeskit_isa_rv_aes64esm(s0, s1) : aeskit_isa_rv_aes64es(s0, s1);
            uint64_t n1 = r < 10 ? aeskit_isa_rv_aes64esm(s1, s0) : aeskit_isa_rv_aes64es(s1, s0);
            s0 = n0 ^ k[r][0];
            s1 = n1 ^ k[r][1];
        }
        putle64(t, s0);
        putle64(t + 8, s1);
        expect("FIPS-197 RISC-V aes64esm chain", path, t, ct[v], 16, 0, 0, 0, 0);
        s0 ^= k[10][0];
        s1 ^= k[10][1];
        for (int r = 9; r >= 0; r--) {
            uint64_t n0 = r > 0 ? aeskit_isa_rv_aes64dsm(s0, s1) : aeskit_isa_rv_aes64ds(s0, s1);
            uint64_t n1 = r > 0 ? aeskit_isa_rv_aes64dsm(s1, s0) : aeskit_isa_rv_aes64ds(s1, s0);
            s0 = n0 ^ (r > 0 ? aeskit_isa_rv_aes64im(k[r][0]) : k[r][0]);
            s1 = n1 ^ (r > 0 ? aeskit_isa_rv_aes64im(k[r][1]) : k[r][1]);
        }
        putle64(t, s0);
        putle64(t + 8, s1);
        expect("FIPS-197 RISC-V aes64dsm chain", path, t, pt[v], 16, 0, 0, 0, 0);
    }
    (void)z;
    printf("  FIPS-197 B and C.1 chains (x86, ARM, POWER, RISC-V) on the %s path\n", path);
}

int main(void)
{
    ref_init();
    double scale = 1.0;
    const char *e = getenv("AESKIT_TEST_SCALE");
    if (e && atof(e) > 0)
        scale = atof(e);
    long base = 250000;
    e = getenv("AESKIT_ISA_TEST_N");
    if (e && atol(e) > 0)
        base = atol(e);
    iterations = (long)(base * scale);
    if (iterations < 300)
        iterations = 300; /* every imm8 at least once, plus random ones */

    uint32_t f = ak_cpu_features();
    void *nat[64] = {0};
    (void)f;
#if defined(AK_ARCH_X86_64)
    int aes = (f & AK_CPU_AESNI) != 0, clm = (f & AK_CPU_PCLMUL) != 0;
    int vaes = (f & AK_CPU_VAES) && (f & AK_CPU_AVX2), vclm = (f & AK_CPU_VPCLMUL) && (f & AK_CPU_AVX2);
    int z = (f & AK_CPU_AVX512F) != 0;
#define NAT(cond, fn) ((cond) ? (void *)(fn) : NULL)
#else
#define NAT(cond, fn) NULL
#endif
#if defined(RV_NATIVE)
    int rv = rv_probe();
    printf("RISC-V Zkne/Zknd/Zbc instructions: %s\n", rv ? "present, checked against the reference" : "absent (SIGILL), not checked natively");
#define RVNAT(fn) (rv ? (void *)(fn) : NULL)
#else
#define RVNAT(fn) NULL
#endif
    (void)nat;
    struct op ops[] = {
        {"x86_aesenc", B3, 16, (void *)aeskit_isa_x86_aesenc, (void *)r_aesenc, NAT(aes, n_aesenc), 0},
        {"x86_aesenclast", B3, 16, (void *)aeskit_isa_x86_aesenclast, (void *)r_aesenclast, NAT(aes, n_aesenclast), 0},
        {"x86_aesdec", B3, 16, (void *)aeskit_isa_x86_aesdec, (void *)r_aesdec, NAT(aes, n_aesdec), 0},
        {"x86_aesdeclast", B3, 16, (void *)aeskit_isa_x86_aesdeclast, (void *)r_aesdeclast, NAT(aes, n_aesdeclast), 0},
        {"x86_aesimc", B2, 16, (void *)aeskit_isa_x86_aesimc, (void *)r_aesimc, NAT(aes, n_aesimc), 0},
        {"x86_aeskeygenassist", B2I, 16, (void *)aeskit_isa_x86_aeskeygenassist, (void *)r_aeskeygenassist, NAT(aes, n_aeskeygenassist), 0},
        {"x86_pclmulqdq", B3I, 16, (void *)aeskit_isa_x86_pclmulqdq, (void *)r_pclmulqdq, NAT(clm, n_pclmulqdq), 0},
        {"x86_vaesenc_x2", B3, 32, (void *)aeskit_isa_x86_vaesenc_x2, (void *)r_vaesenc_x2, NAT(vaes, n_vaesenc_x2), 0},
        {"x86_vaesenclast_x2", B3, 32, (void *)aeskit_isa_x86_vaesenclast_x2, (void *)r_vaesenclast_x2, NAT(vaes, n_vaesenclast_x2), 0},
        {"x86_vaesdec_x2", B3, 32, (void *)aeskit_isa_x86_vaesdec_x2, (void *)r_vaesdec_x2, NAT(vaes, n_vaesdec_x2), 0},
        {"x86_vaesdeclast_x2", B3, 32, (void *)aeskit_isa_x86_vaesdeclast_x2, (void *)r_vaesdeclast_x2, NAT(vaes, n_vaesdeclast_x2), 0},
        {"x86_vpclmulqdq_x2", B3I, 32, (void *)aeskit_isa_x86_vpclmulqdq_x2, (void *)r_vpclmulqdq_x2, NAT(vclm, n_vpclmulqdq_x2), 0},
        {"x86_vaesenc_x4", B3, 64, (void *)aeskit_isa_x86_vaesenc_x4, (void *)r_vaesenc_x4, NAT(vaes && z, n_vaesenc_x4), 0},
        {"x86_vaesenclast_x4", B3, 64, (void *)aeskit_isa_x86_vaesenclast_x4, (void *)r_vaesenclast_x4, NAT(vaes && z, n_vaesenclast_x4), 0},
        {"x86_vaesdec_x4", B3, 64, (void *)aeskit_isa_x86_vaesdec_x4, (void *)r_vaesdec_x4, NAT(vaes && z, n_vaesdec_x4), 0},
        {"x86_vaesdeclast_x4", B3, 64, (void *)aeskit_isa_x86_vaesdeclast_x4, (void *)r_vaesdeclast_x4, NAT(vaes && z, n_vaesdeclast_x4), 0},
        {"x86_vpclmulqdq_x4", B3I, 64, (void *)aeskit_isa_x86_vpclmulqdq_x4, (void *)r_vpclmulqdq_x4, NAT(vclm && z, n_vpclmulqdq_x4), 0},
        {"arm_aese", B3, 16, (void *)aeskit_isa_arm_aese, (void *)r_aese, NULL, 0},
        {"arm_aesd", B3, 16, (void *)aeskit_isa_arm_aesd, (void *)r_aesd, NULL, 0},
        {"arm_aesmc", B2, 16, (void *)aeskit_isa_arm_aesmc, (void *)r_aesmc, NULL, 0},
        {"arm_aesimc", B2, 16, (void *)aeskit_isa_arm_aesimc, (void *)r_aesimc, NULL, 0},
        {"arm_pmull_1q", B3, 16, (void *)aeskit_isa_arm_pmull_1q, (void *)r_pmull_1q, NULL, 0},
        {"arm_pmull2_1q", B3, 16, (void *)aeskit_isa_arm_pmull2_1q, (void *)r_pmull2_1q, NULL, 0},
        {"arm_pmull_8h", B3, 16, (void *)aeskit_isa_arm_pmull_8h, (void *)r_pmull_8h, NULL, 0},
        {"arm_pmull2_8h", B3, 16, (void *)aeskit_isa_arm_pmull2_8h, (void *)r_pmull2_8h, NULL, 0},
        {"arm_pmul_16b", B3, 16, (void *)aeskit_isa_arm_pmul_16b, (void *)r_pmul_16b, NULL, 0},
        {"ppc_vcipher", B3, 16, (void *)aeskit_isa_ppc_vcipher, (void *)r_vcipher, NULL, 0},
        {"ppc_vcipherlast", B3, 16, (void *)aeskit_isa_ppc_vcipherlast, (void *)r_vcipherlast, NULL, 0},
        {"ppc_vncipher", B3, 16, (void *)aeskit_isa_ppc_vncipher, (void *)r_vncipher, NULL, 0},
        {"ppc_vncipherlast", B3, 16, (void *)aeskit_isa_ppc_vncipherlast, (void *)r_vncipherlast, NULL, 0},
        {"ppc_vsbox", B2, 16, (void *)aeskit_isa_ppc_vsbox, (void *)r_vsbox, NULL, 0},
        {"ppc_vpmsumb", B3, 16, (void *)aeskit_isa_ppc_vpmsumb, (void *)r_vpmsumb, NULL, 0},
        {"ppc_vpmsumh", B3, 16, (void *)aeskit_isa_ppc_vpmsumh, (void *)r_vpmsumh, NULL, 0},
        {"ppc_vpmsumw", B3, 16, (void *)aeskit_isa_ppc_vpmsumw, (void *)r_vpmsumw, NULL, 0},
        {"ppc_vpmsumd", B3, 16, (void *)aeskit_isa_ppc_vpmsumd, (void *)r_vpmsumd, NULL, 0},
        {"rv_aes64es", R2, 8, (void *)aeskit_isa_rv_aes64es, (void *)r_aes64es, RVNAT(n_aes64es), 0},
        {"rv_aes64esm", R2, 8, (void *)aeskit_isa_rv_aes64esm, (void *)r_aes64esm, RVNAT(n_aes64esm), 0},
        {"rv_aes64ds", R2, 8, (void *)aeskit_isa_rv_aes64ds, (void *)r_aes64ds, RVNAT(n_aes64ds), 0},
        {"rv_aes64dsm", R2, 8, (void *)aeskit_isa_rv_aes64dsm, (void *)r_aes64dsm, RVNAT(n_aes64dsm), 0},
        {"rv_aes64im", R1, 8, (void *)aeskit_isa_rv_aes64im, (void *)r_aes64im, RVNAT(n_aes64im), 0},
        {"rv_aes64ks1i", R1I, 8, (void *)aeskit_isa_rv_aes64ks1i, (void *)r_aes64ks1i, RVNAT(n_aes64ks1i), 0},
        {"rv_aes64ks2", R2, 8, (void *)aeskit_isa_rv_aes64ks2, (void *)r_aes64ks2, RVNAT(n_aes64ks2), 0},
        {"rv_clmul", R2, 8, (void *)aeskit_isa_rv_clmul, (void *)r_clmul, RVNAT(n_clmul), 0},
        {"rv_clmulh", R2, 8, (void *)aeskit_isa_rv_clmulh, (void *)r_clmulh, RVNAT(n_clmulh), 0},
        {"rv_clmulr", R2, 8, (void *)aeskit_isa_rv_clmulr, (void *)r_clmulr, RVNAT(n_clmulr), 0},
    };
    aeskit_isa_use_portable(0);
    printf("aeskit_isa: host path \"%s\"; CPU features %s; %ld random inputs per instruction + %d edge cases\n",
           aeskit_isa_path(), aeskit_cpu_features(), iterations, N_EDGE);
    chains(aeskit_isa_path());
    aeskit_isa_use_portable(1);
    chains("portable");
    aeskit_isa_use_portable(0);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        run_op(&ops[i]);
    printf("%lu checks, %lu failures\n", checks, failures);
    return failures ? 1 : 0;
}
