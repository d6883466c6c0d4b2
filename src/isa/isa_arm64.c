/*
 * isa_arm64.c - aeskit_isa's host path on AArch64: FEAT_AES (AESE, AESD,
 * AESMC, AESIMC), FEAT_PMULL (PMULL/PMULL2 .1Q) and the base NEON PMULL.8H
 * and PMUL (Arm ARM for A-profile, C7.2).
 *
 * The other architectures' instructions as compositions (Z = zero key):
 *   x86 AESENC(s, k)     = AESMC(AESE(s, Z)) ^ k;  AESENCLAST = AESE(s, Z) ^ k
 *   x86 AESDEC(s, k)     = AESIMC(AESD(s, Z)) ^ k; AESDECLAST = AESD(s, Z) ^ k
 *   x86 AESKEYGENASSIST  SubWord(X) = word 0 of AESE(X X X X, Z): with four
 *                        equal columns ShiftRows changes nothing
 *   POWER vncipher(a, b) = AESIMC(AESD(a, Z) ^ b)
 *   POWER vsbox(x)       = InvShiftRows(AESE(x, Z)), InvShiftRows a TBL
 *   POWER vpmsumb        = PMULL.8H/PMULL2.8H, even and odd products XORed
 *                        (UZP1/UZP2), bytes of each halfword swapped (REV16)
 *                        to the ISA's big-endian order
 *   POWER vpmsumd        = PMULL ^ PMULL2 on doublewords byte-reversed
 *                        (REV64) from the big-endian image
 *   RISC-V aes64*        = word 0..1 of the x86-shaped rounds on rs2:rs1
 * vpmsumh and vpmsumw stay portable.  Constant-time: the instructions take
 * data-independent time; immediates (imm8, rnum) are public.
 */
#include "isa_internal.h"

#include "internal.h"

#if defined(AK_ARCH_AARCH64)
#include "../simd/akv.h"

#define T AKV_TARGET
#define LD(p) vld1q_u8(p)
#define ST(p, v) vst1q_u8((p), (v))
#define Z vdupq_n_u8(0)

T static void h_arm_aese(uint8_t *d, const uint8_t *a, const uint8_t *b) { ST(d, vaeseq_u8(LD(a), LD(b))); }
T static void h_arm_aesd(uint8_t *d, const uint8_t *a, const uint8_t *b) { ST(d, vaesdq_u8(LD(a), LD(b))); }
T static void h_arm_aesmc(uint8_t *d, const uint8_t *a) { ST(d, vaesmcq_u8(LD(a))); }
T static void h_arm_aesimc(uint8_t *d, const uint8_t *a) { ST(d, vaesimcq_u8(LD(a))); }

T static inline uint8x16_t clmul(uint64_t a, uint64_t b)
{
    return vreinterpretq_u8_p128(vmull_p64((poly64_t)a, (poly64_t)b));
}
T static void h_arm_pmull_1q(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, clmul(ak_isa_ld64(a), ak_isa_ld64(b)));
}
T static void h_arm_pmull2_1q(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(LD(a)), vreinterpretq_p64_u8(LD(b)))));
}
/* Base NEON, no feature bit needed. */
static void h_arm_pmull_8h(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    poly8x16_t x = vreinterpretq_p8_u8(LD(a)), y = vreinterpretq_p8_u8(LD(b));
    ST(d, vreinterpretq_u8_p16(vmull_p8(vget_low_p8(x), vget_low_p8(y))));
}
static void h_arm_pmull2_8h(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, vreinterpretq_u8_p16(vmull_high_p8(vreinterpretq_p8_u8(LD(a)), vreinterpretq_p8_u8(LD(b)))));
}
static void h_arm_pmul_16b(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, vreinterpretq_u8_p8(vmulq_p8(vreinterpretq_p8_u8(LD(a)), vreinterpretq_p8_u8(LD(b)))));
}
static void h_ppc_vpmsumb(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    poly8x16_t x = vreinterpretq_p8_u8(LD(a)), y = vreinterpretq_p8_u8(LD(b));
    uint16x8_t lo = vreinterpretq_u16_p16(vmull_p8(vget_low_p8(x), vget_low_p8(y)));
    uint16x8_t hi = vreinterpretq_u16_p16(vmull_high_p8(x, y));
    uint16x8_t r = veorq_u16(vuzp1q_u16(lo, hi), vuzp2q_u16(lo, hi));
    ST(d, vrev16q_u8(vreinterpretq_u8_u16(r)));
}

/* ---- x86 on FEAT_AES / FEAT_PMULL ----------------------------------------- */
T static void h_x86_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, veorq_u8(vaesmcq_u8(vaeseq_u8(LD(s), Z)), LD(k))); }
T static void h_x86_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, veorq_u8(vaeseq_u8(LD(s), Z), LD(k))); }
T static void h_x86_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, veorq_u8(vaesimcq_u8(vaesdq_u8(LD(s), Z)), LD(k))); }
T static void h_x86_aesdeclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { ST(d, veorq_u8(vaesdq_u8(LD(s), Z), LD(k))); }

/* SubWord of the word in every lane of v (all four lanes equal). */
T static inline uint32_t subword(uint32x4_t v)
{
    return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(vreinterpretq_u8_u32(v), Z)), 0);
}
static inline uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

T static void h_x86_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    uint32x4_t w = vreinterpretq_u32_u8(LD(s));
    uint32_t s1 = subword(vdupq_laneq_u32(w, 1)), s3 = subword(vdupq_laneq_u32(w, 3)), rc = imm & 0xff;
    ak_isa_st64(d, s1 | (uint64_t)(ror32(s1, 8) ^ rc) << 32);
    ak_isa_st64(d + 8, s3 | (uint64_t)(ror32(s3, 8) ^ rc) << 32);
}
T static void h_x86_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    ST(d, clmul(ak_isa_ld64(a + 8 * (imm & 1)), ak_isa_ld64(b + 8 * ((imm >> 4) & 1))));
}
#define LANES(name, one, n)                                                       \
    static void h_x86_##name(uint8_t *d, const uint8_t *s, const uint8_t *k)      \
    {                                                                             \
        for (int l = 0; l < n; l++)                                               \
            one(d + 16 * l, s + 16 * l, k + 16 * l);                              \
    }
LANES(vaesenc_x2, h_x86_aesenc, 2)
LANES(vaesenclast_x2, h_x86_aesenclast, 2)
LANES(vaesdec_x2, h_x86_aesdec, 2)
LANES(vaesdeclast_x2, h_x86_aesdeclast, 2)
LANES(vaesenc_x4, h_x86_aesenc, 4)
LANES(vaesenclast_x4, h_x86_aesenclast, 4)
LANES(vaesdec_x4, h_x86_aesdec, 4)
LANES(vaesdeclast_x4, h_x86_aesdeclast, 4)
#undef LANES
static void h_x86_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 2; l++)
        h_x86_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm);
}
static void h_x86_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 4; l++)
        h_x86_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm);
}

/* ---- POWER ----------------------------------------------------------------- */
T static void h_ppc_vncipher(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    ST(d, vaesimcq_u8(veorq_u8(vaesdq_u8(LD(a), Z), LD(b))));
}
T static void h_ppc_vsbox(uint8_t *d, const uint8_t *a)
{
    /* InvShiftRows as a gather: out[j] = in[isr[j]], out[4((c+r)&3)+r] = in[4c+r]. */
    static const uint8_t isr[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};
    ST(d, vqtbl1q_u8(vaeseq_u8(LD(a), Z), vld1q_u8(isr)));
}
T static void h_ppc_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    poly64x2_t x = vreinterpretq_p64_u8(vrev64q_u8(LD(a))), y = vreinterpretq_p64_u8(vrev64q_u8(LD(b)));
    uint8x16_t p = veorq_u8(vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64(x, 0), vgetq_lane_p64(y, 0))),
                            vreinterpretq_u8_p128(vmull_high_p64(x, y)));
    uint8x16_t r = vrev64q_u8(p); /* full 16-byte reversal: REV64 then swap halves */
    ST(d, vextq_u8(r, r, 8));
}

/* ---- RISC-V ---------------------------------------------------------------- */
#define RV_STATE(rs1, rs2) vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(rs1), vcreate_u64(rs2)))
#define LOW64(v) vgetq_lane_u64(vreinterpretq_u64_u8(v), 0)
T static uint64_t h_rv_aes64es(uint64_t a, uint64_t b) { return LOW64(vaeseq_u8(RV_STATE(a, b), Z)); }
T static uint64_t h_rv_aes64esm(uint64_t a, uint64_t b) { return LOW64(vaesmcq_u8(vaeseq_u8(RV_STATE(a, b), Z))); }
T static uint64_t h_rv_aes64ds(uint64_t a, uint64_t b) { return LOW64(vaesdq_u8(RV_STATE(a, b), Z)); }
T static uint64_t h_rv_aes64dsm(uint64_t a, uint64_t b) { return LOW64(vaesimcq_u8(vaesdq_u8(RV_STATE(a, b), Z))); }
T static uint64_t h_rv_aes64im(uint64_t a) { return LOW64(vaesimcq_u8(RV_STATE(a, 0))); }
T static uint64_t h_rv_aes64ks1i(uint64_t rs1, unsigned rnum)
{
    static const uint8_t rcon[16] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    rnum &= 0xf;
    uint32_t t = (uint32_t)(rs1 >> 32);
    if (rnum != 10)
        t = ror32(t, 8);
    uint32_t w = subword(vdupq_n_u32(t)) ^ rcon[rnum];
    return (uint64_t)w << 32 | w;
}
T static uint64_t h_rv_clmul(uint64_t a, uint64_t b) { return LOW64(clmul(a, b)); }
T static uint64_t h_rv_clmulh(uint64_t a, uint64_t b) { return vgetq_lane_u64(vreinterpretq_u64_u8(clmul(a, b)), 1); }
T static uint64_t h_rv_clmulr(uint64_t a, uint64_t b)
{
    uint64x2_t p = vreinterpretq_u64_u8(clmul(a, b));
    return vgetq_lane_u64(p, 1) << 1 | vgetq_lane_u64(p, 0) >> 63;
}

const char *ak_isa_host_arm64(struct ak_isa_ops *o, uint32_t f)
{
    int aes = (f & AK_CPU_ARM_AES) != 0, pmull = (f & AK_CPU_ARM_PMULL) != 0;
    o->arm_pmull_8h = h_arm_pmull_8h;
    o->arm_pmull2_8h = h_arm_pmull2_8h;
    o->arm_pmul_16b = h_arm_pmul_16b;
    o->ppc_vpmsumb = h_ppc_vpmsumb;
    if (aes) {
        o->arm_aese = h_arm_aese;
        o->arm_aesd = h_arm_aesd;
        o->arm_aesmc = h_arm_aesmc;
        o->arm_aesimc = h_arm_aesimc;
        o->x86_aesenc = h_x86_aesenc;
        o->x86_aesenclast = h_x86_aesenclast;
        o->x86_aesdec = h_x86_aesdec;
        o->x86_aesdeclast = h_x86_aesdeclast;
        o->x86_aesimc = h_arm_aesimc;
        o->x86_aeskeygenassist = h_x86_aeskeygenassist;
        o->x86_vaesenc_x2 = h_x86_vaesenc_x2;
        o->x86_vaesenclast_x2 = h_x86_vaesenclast_x2;
        o->x86_vaesdec_x2 = h_x86_vaesdec_x2;
        o->x86_vaesdeclast_x2 = h_x86_vaesdeclast_x2;
        o->x86_vaesenc_x4 = h_x86_vaesenc_x4;
        o->x86_vaesenclast_x4 = h_x86_vaesenclast_x4;
        o->x86_vaesdec_x4 = h_x86_vaesdec_x4;
        o->x86_vaesdeclast_x4 = h_x86_vaesdeclast_x4;
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
    if (pmull) {
        o->x86_pclmulqdq = h_x86_pclmulqdq;
        o->x86_vpclmulqdq_x2 = h_x86_vpclmulqdq_x2;
        o->x86_vpclmulqdq_x4 = h_x86_vpclmulqdq_x4;
        o->arm_pmull_1q = h_arm_pmull_1q;
        o->arm_pmull2_1q = h_arm_pmull2_1q;
        o->ppc_vpmsumd = h_ppc_vpmsumd;
        o->rv_clmul = h_rv_clmul;
        o->rv_clmulh = h_rv_clmulh;
        o->rv_clmulr = h_rv_clmulr;
    }
    if (aes && pmull)
        return "aese aesd aesmc aesimc pmull pmull.8h";
    if (aes)
        return "aese aesd aesmc aesimc pmull.8h";
    return pmull ? "pmull pmull.8h" : "pmull.8h";
}
#endif
