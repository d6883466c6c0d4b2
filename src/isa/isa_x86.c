/*
 * isa_x86.c - aeskit_isa's host path on x86-64: AES-NI, PCLMULQDQ, and
 * VAES / VPCLMULQDQ (ymm) for the 2- and 4-lane forms.
 *
 * Intel SDM vol. 2 gives the x86 instructions; the other architectures'
 * instructions are compositions of them, each an identity of the AES
 * round functions (FIPS-197 5.1, 5.3), with Z = the all-zero key:
 *   ARM AESE(d, n)     = AESENCLAST(d ^ n, Z)
 *   ARM AESD(d, n)     = AESDECLAST(d ^ n, Z)
 *   ARM AESMC(x)       = AESENC(AESDECLAST(x, Z), Z)   (the inverse S-box and
 *                        ShiftRows undo the forward ones, leaving MixColumns)
 *   POWER vcipher      = AESENC, vcipherlast = AESENCLAST, vncipherlast =
 *                        AESDECLAST (the ISA image is in AES state order)
 *   POWER vncipher(a,b)= AESIMC(AESDECLAST(a, b))     (key before InvMix)
 *   POWER vsbox(x)     = AESENCLAST(InvShiftRows(x), Z), InvShiftRows a PSHUFB
 *                        (SubBytes commutes with the byte permutation)
 *   RISC-V aes64es/esm/ds/dsm = low half of AESENCLAST/AESENC/AESDECLAST/
 *                        AESDEC(rs2:rs1, Z); aes64im = AESIMC; aes64ks1i =
 *                        AESKEYGENASSIST's doubleword 1 (rotated) or 0
 *                        (rnum 10: no rotation) of rs1, XOR rcon.
 * Carry-less products use PCLMULQDQ (POWER vpmsumw/vpmsumd, ARM PMULL.1Q,
 * RISC-V clmul*); the 8- and 16-bit element products (ARM PMULL.8H/PMUL,
 * POWER vpmsumb/vpmsumh) have no x86 counterpart and stay portable.
 * The runtime imm8 of AESKEYGENASSIST and PCLMULQDQ is public: a branch on
 * it (or RCON XORed afterwards) is allowed.  Constant-time: the
 * instructions take data-independent time.
 */
#include "isa_internal.h"

#include "internal.h"

#if defined(AK_ARCH_X86_64)
#include <immintrin.h>

#define T_AES __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#define T_VAES __attribute__((target("aes,pclmul,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")))

#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

T_AES static void h_x86_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, _mm_aesenc_si128(LD(s), LD(k))); }
T_AES static void h_x86_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, _mm_aesenclast_si128(LD(s), LD(k))); }
T_AES static void h_x86_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, _mm_aesdec_si128(LD(s), LD(k))); }
T_AES static void h_x86_aesdeclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, _mm_aesdeclast_si128(LD(s), LD(k))); }
T_AES static void h_x86_aesimc(uint8_t *d, const uint8_t *s) { ST(d, _mm_aesimc_si128(LD(s))); }

T_AES static void h_x86_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    /* AESKEYGENASSIST(x, imm) = AESKEYGENASSIST(x, 0) ^ (imm in doublewords 1, 3). */
    __m128i rc = _mm_set_epi32((int)(imm & 0xff), 0, (int)(imm & 0xff), 0);
    ST(d, _mm_xor_si128(_mm_aeskeygenassist_si128(LD(s), 0), rc));
}

T_AES static inline __m128i clmul_sel(__m128i a, __m128i b, unsigned imm)
{
    switch (imm & 0x11) {
    case 0x00: return _mm_clmulepi64_si128(a, b, 0x00);
    case 0x01: return _mm_clmulepi64_si128(a, b, 0x01);
    case 0x10: return _mm_clmulepi64_si128(a, b, 0x10);
    default: return _mm_clmulepi64_si128(a, b, 0x11);
    }
}
T_AES static void h_x86_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    ST(d, clmul_sel(LD(a), LD(b), imm));
}

/* Lane forms without VAES: the xmm instruction per lane. */
#define LANES(name, one, n)                                                      \
    T_AES static void h_x86_##name(uint8_t *d, const uint8_t *s, const uint8_t *k) \
    {                                                                            \
        for (int l = 0; l < n; l++)                                              \
            ST(d + 16 * l, one(LD(s + 16 * l), LD(k + 16 * l)));                 \
    }
LANES(vaesenc_x2, _mm_aesenc_si128, 2)
LANES(vaesenclast_x2, _mm_aesenclast_si128, 2)
LANES(vaesdec_x2, _mm_aesdec_si128, 2)
LANES(vaesdeclast_x2, _mm_aesdeclast_si128, 2)
LANES(vaesenc_x4, _mm_aesenc_si128, 4)
LANES(vaesenclast_x4, _mm_aesenclast_si128, 4)
LANES(vaesdec_x4, _mm_aesdec_si128, 4)
LANES(vaesdeclast_x4, _mm_aesdeclast_si128, 4)
#undef LANES
T_AES static void h_x86_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 2; l++)
        ST(d + 16 * l, clmul_sel(LD(a + 16 * l), LD(b + 16 * l), imm));
}
T_AES static void h_x86_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 4; l++)
        ST(d + 16 * l, clmul_sel(LD(a + 16 * l), LD(b + 16 * l), imm));
}

/* With VAES: one ymm instruction per two lanes (ymm rather than zmm, so the
 * 4-lane form needs no AVX-512 and no frequency licence change). */
#define LD2(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define ST2(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define VLANES(name, one, n)                                                       \
    T_VAES static void v_x86_##name(uint8_t *d, const uint8_t *s, const uint8_t *k) \
    {                                                                              \
        __m256i r[n / 2];                                                          \
        for (int l = 0; l < n / 2; l++)                                            \
            r[l] = one(LD2(s + 32 * l), LD2(k + 32 * l));                          \
        for (int l = 0; l < n / 2; l++)                                            \
            ST2(d + 32 * l, r[l]);                                                 \
    }
VLANES(vaesenc_x2, _mm256_aesenc_epi128, 2)
VLANES(vaesenclast_x2, _mm256_aesenclast_epi128, 2)
VLANES(vaesdec_x2, _mm256_aesdec_epi128, 2)
VLANES(vaesdeclast_x2, _mm256_aesdeclast_epi128, 2)
VLANES(vaesenc_x4, _mm256_aesenc_epi128, 4)
VLANES(vaesenclast_x4, _mm256_aesenclast_epi128, 4)
VLANES(vaesdec_x4, _mm256_aesdec_epi128, 4)
VLANES(vaesdeclast_x4, _mm256_aesdeclast_epi128, 4)
#undef VLANES
T_VAES static inline __m256i vclmul_sel(__m256i a, __m256i b, unsigned imm)
{
    switch (imm & 0x11) {
    case 0x00: return _mm256_clmulepi64_epi128(a, b, 0x00);
    case 0x01: return _mm256_clmulepi64_epi128(a, b, 0x01);
    case 0x10: return _mm256_clmulepi64_epi128(a, b, 0x10);
    default: return _mm256_clmulepi64_epi128(a, b, 0x11);
    }
}
T_VAES static void v_x86_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    ST2(d, vclmul_sel(LD2(a), LD2(b), imm));
}
T_VAES static void v_x86_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    __m256i r0 = vclmul_sel(LD2(a), LD2(b), imm), r1 = vclmul_sel(LD2(a + 32), LD2(b + 32), imm);
    ST2(d, r0);
    ST2(d + 32, r1);
}

/* ---- AArch64 instructions on AES-NI ------------------------------------- */
T_AES static void h_arm_aese(uint8_t *d, const uint8_t *vd, const uint8_t *vn)
{
    ST(d, _mm_aesenclast_si128(_mm_xor_si128(LD(vd), LD(vn)), _mm_setzero_si128()));
}
T_AES static void h_arm_aesd(uint8_t *d, const uint8_t *vd, const uint8_t *vn)
{
    ST(d, _mm_aesdeclast_si128(_mm_xor_si128(LD(vd), LD(vn)), _mm_setzero_si128()));
}
T_AES static void h_arm_aesmc(uint8_t *d, const uint8_t *s)
{
    __m128i z = _mm_setzero_si128();
    ST(d, _mm_aesenc_si128(_mm_aesdeclast_si128(LD(s), z), z));
}
T_AES static void h_arm_pmull_1q(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    ST(d, _mm_clmulepi64_si128(LD(n), LD(m), 0x00));
}
T_AES static void h_arm_pmull2_1q(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    ST(d, _mm_clmulepi64_si128(LD(n), LD(m), 0x11));
}

/* ---- POWER instructions on AES-NI ---------------------------------------- */
T_AES static void h_ppc_vncipher(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, _mm_aesimc_si128(_mm_aesdeclast_si128(LD(a), LD(b))));
}
T_AES static void h_ppc_vsbox(uint8_t *d, const uint8_t *a)
{
    /* InvShiftRows as a byte gather: out[4((c+r)&3)+r] = in[4c+r], i.e.
     * out[j] = in[isr[j]]; then AESENCLAST's ShiftRows puts every byte back. */
    const __m128i isr = _mm_setr_epi8(0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3);
    ST(d, _mm_aesenclast_si128(_mm_shuffle_epi8(LD(a), isr), _mm_setzero_si128()));
}
/* The ISA image is big-endian: doubleword j of a 16-byte image is bytes
 * 8j..8j+7 most significant first, so a byte reversal of each 64-bit half
 * gives x86 quadwords (in swapped order for the 128-bit result). */
T_AES static void h_ppc_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m128i x = _mm_shuffle_epi8(LD(a), rev), y = _mm_shuffle_epi8(LD(b), rev);
    __m128i p = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x00), _mm_clmulepi64_si128(x, y, 0x11));
    ST(d, _mm_shuffle_epi8(p, rev));
}
T_AES static void h_ppc_vpmsumw(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    /* Words w[0..3] (big-endian) to zero-extended quadwords: after the full
     * reversal, little-endian doubleword i holds w[3-i]. */
    const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m128i x = _mm_shuffle_epi8(LD(a), rev), y = _mm_shuffle_epi8(LD(b), rev);
    __m128i x31 = _mm_cvtepu32_epi64(x), y31 = _mm_cvtepu32_epi64(y);                     /* w3, w2 */
    __m128i x10 = _mm_cvtepu32_epi64(_mm_srli_si128(x, 8)), y10 = _mm_cvtepu32_epi64(_mm_srli_si128(y, 8)); /* w1, w0 */
    __m128i lo = _mm_xor_si128(_mm_clmulepi64_si128(x31, y31, 0x00), _mm_clmulepi64_si128(x31, y31, 0x11));
    __m128i hi = _mm_xor_si128(_mm_clmulepi64_si128(x10, y10, 0x00), _mm_clmulepi64_si128(x10, y10, 0x11));
    /* doubleword 1 of the result (bytes 8..15) = w2 w3 products = lo; doubleword 0 = hi. */
    ST(d, _mm_shuffle_epi8(_mm_unpacklo_epi64(lo, hi), rev));
}

/* ---- RISC-V instructions on AES-NI -------------------------------------- */
#define RV_STATE(rs1, rs2) _mm_set_epi64x((long long)(rs2), (long long)(rs1))
#define LOW64(v) ((uint64_t)_mm_cvtsi128_si64(v))
T_AES static uint64_t h_rv_aes64es(uint64_t rs1, uint64_t rs2) { return LOW64(_mm_aesenclast_si128(RV_STATE(rs1, rs2), _mm_setzero_si128())); }
T_AES static uint64_t h_rv_aes64esm(uint64_t rs1, uint64_t rs2) { return LOW64(_mm_aesenc_si128(RV_STATE(rs1, rs2), _mm_setzero_si128())); }
T_AES static uint64_t h_rv_aes64ds(uint64_t rs1, uint64_t rs2) { return LOW64(_mm_aesdeclast_si128(RV_STATE(rs1, rs2), _mm_setzero_si128())); }
T_AES static uint64_t h_rv_aes64dsm(uint64_t rs1, uint64_t rs2) { return LOW64(_mm_aesdec_si128(RV_STATE(rs1, rs2), _mm_setzero_si128())); }
T_AES static uint64_t h_rv_aes64im(uint64_t rs1) { return LOW64(_mm_aesimc_si128(_mm_cvtsi64_si128((long long)rs1))); }
T_AES static uint64_t h_rv_aes64ks1i(uint64_t rs1, unsigned rnum)
{
    static const uint8_t rcon[16] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    rnum &= 0xf;
    /* rs1[63:32] is doubleword 1 = X1: doubleword 0 of the result is
     * SubWord(X1), doubleword 1 is RotWord(SubWord(X1)) = SubWord(ror(X1, 8)). */
    __m128i r = _mm_aeskeygenassist_si128(_mm_cvtsi64_si128((long long)rs1), 0);
    uint64_t v = LOW64(r);
    uint32_t w = (uint32_t)(rnum == 10 ? v : v >> 32) ^ rcon[rnum];
    return (uint64_t)w << 32 | w;
}
T_AES static uint64_t h_rv_clmul(uint64_t a, uint64_t b)
{
    return LOW64(_mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0));
}
T_AES static uint64_t h_rv_clmulh(uint64_t a, uint64_t b)
{
    __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0);
    return (uint64_t)_mm_extract_epi64(p, 1);
}
T_AES static uint64_t h_rv_clmulr(uint64_t a, uint64_t b)
{
    __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0);
    return (uint64_t)_mm_extract_epi64(p, 1) << 1 | LOW64(p) >> 63;
}

const char *ak_isa_host_x86(struct ak_isa_ops *o, uint32_t f)
{
    int aes = (f & AK_CPU_AESNI) && (f & AK_CPU_SSSE3) && (f & AK_CPU_SSE41);
    int clmul = (f & AK_CPU_PCLMUL) && (f & AK_CPU_SSSE3) && (f & AK_CPU_SSE41);
    int vaes = aes && (f & AK_CPU_VAES) && (f & AK_CPU_AVX2);
    int vclmul = clmul && (f & AK_CPU_VPCLMUL) && (f & AK_CPU_AVX2);
    if (aes) {
        o->x86_aesenc = h_x86_aesenc;
        o->x86_aesenclast = h_x86_aesenclast;
        o->x86_aesdec = h_x86_aesdec;
        o->x86_aesdeclast = h_x86_aesdeclast;
        o->x86_aesimc = h_x86_aesimc;
        o->x86_aeskeygenassist = h_x86_aeskeygenassist;
        o->x86_vaesenc_x2 = vaes ? v_x86_vaesenc_x2 : h_x86_vaesenc_x2;
        o->x86_vaesenclast_x2 = vaes ? v_x86_vaesenclast_x2 : h_x86_vaesenclast_x2;
        o->x86_vaesdec_x2 = vaes ? v_x86_vaesdec_x2 : h_x86_vaesdec_x2;
        o->x86_vaesdeclast_x2 = vaes ? v_x86_vaesdeclast_x2 : h_x86_vaesdeclast_x2;
        o->x86_vaesenc_x4 = vaes ? v_x86_vaesenc_x4 : h_x86_vaesenc_x4;
        o->x86_vaesenclast_x4 = vaes ? v_x86_vaesenclast_x4 : h_x86_vaesenclast_x4;
        o->x86_vaesdec_x4 = vaes ? v_x86_vaesdec_x4 : h_x86_vaesdec_x4;
        o->x86_vaesdeclast_x4 = vaes ? v_x86_vaesdeclast_x4 : h_x86_vaesdeclast_x4;
        o->arm_aese = h_arm_aese;
        o->arm_aesd = h_arm_aesd;
        o->arm_aesmc = h_arm_aesmc;
        o->arm_aesimc = h_x86_aesimc;
        o->ppc_vcipher = h_x86_aesenc;
        o->ppc_vcipherlast = h_x86_aesenclast;
        o->ppc_vncipher = h_ppc_vncipher;
        o->ppc_vncipherlast = h_x86_aesdeclast;
        o->ppc_vsbox = h_ppc_vsbox;
        o->rv_aes64es = h_rv_aes64es;
        o->rv_aes64esm = h_rv_aes64esm;
        o->rv_aes64ds = h_rv_aes64ds;
        o->rv_aes64dsm = h_rv_aes64dsm;
        o->rv_aes64im = h_rv_aes64im;
        o->rv_aes64ks1i = h_rv_aes64ks1i;
    }
    if (clmul) {
        o->x86_pclmulqdq = h_x86_pclmulqdq;
        o->x86_vpclmulqdq_x2 = vclmul ? v_x86_vpclmulqdq_x2 : h_x86_vpclmulqdq_x2;
        o->x86_vpclmulqdq_x4 = vclmul ? v_x86_vpclmulqdq_x4 : h_x86_vpclmulqdq_x4;
        o->arm_pmull_1q = h_arm_pmull_1q;
        o->arm_pmull2_1q = h_arm_pmull2_1q;
        o->ppc_vpmsumw = h_ppc_vpmsumw;
        o->ppc_vpmsumd = h_ppc_vpmsumd;
        o->rv_clmul = h_rv_clmul;
        o->rv_clmulh = h_rv_clmulh;
        o->rv_clmulr = h_rv_clmulr;
    }
    if (vaes && vclmul)
        return "aes-ni pclmulqdq vaes vpclmulqdq (ymm)";
    if (vaes)
        return clmul ? "aes-ni pclmulqdq vaes (ymm)" : "aes-ni vaes (ymm)";
    if (aes)
        return clmul ? "aes-ni pclmulqdq" : "aes-ni";
    return clmul ? "pclmulqdq" : "";
}
#endif
