/*
 * isa_ppc64.c - aeskit_isa's host path on little-endian POWER8 and later:
 * vcipher, vcipherlast, vncipher, vncipherlast, vsbox, vpmsumb/h/w/d
 * (Power ISA 3.0B, Book I, 6.11).
 *
 * The POWER image is the register in the ISA's big-endian byte numbering,
 * which is also AES state order; akv_load/akv_store (src/simd/akv.h:
 * vec_xl_be / vec_xst_be) put image byte i in ISA byte i on a little-endian
 * system, so the x86/ARM/RISC-V AES images load the same way.  Compositions
 * (Z = zero key):
 *   x86 AESENC = vcipher, AESENCLAST = vcipherlast, AESDECLAST = vncipherlast
 *   x86 AESDEC(s, k) = vncipher(s, Z) ^ k     (vncipher adds its key before
 *                      InvMixColumns, so with Z it is x86's round unkeyed)
 *   x86 AESIMC(x)    = vncipher(vcipherlast(x, Z), Z)
 *   ARM AESE(d, n)   = vcipherlast(d ^ n, Z); AESD = vncipherlast(d ^ n, Z)
 *   ARM AESMC(x)     = vcipher(vncipherlast(x, Z), Z)
 *   x86 AESKEYGENASSIST: SubWord from vsbox, rotation and RCON in scalar
 *   carry-less 64 x 64 (PCLMULQDQ, PMULL, clmul*): vpmsumd with the other
 *                      doubleword pair zero; in the little-endian element
 *                      view element 0 is the ISA's low-order doubleword.
 * Constant-time: the instructions take data-independent time.
 */
#include "isa_internal.h"

#include "internal.h"

#if defined(AK_ARCH_PPC64LE)
#include "../simd/akv.h"

#define T AKV_TARGET
#define Z akv_zero()

T static void h_ppc_vcipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { akv_store(d, vec_cipher_be(akv_load(a), akv_load(b))); }
T static void h_ppc_vcipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { akv_store(d, vec_cipherlast_be(akv_load(a), akv_load(b))); }
T static void h_ppc_vncipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { akv_store(d, vec_ncipher_be(akv_load(a), akv_load(b))); }
T static void h_ppc_vncipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { akv_store(d, vec_ncipherlast_be(akv_load(a), akv_load(b))); }
T static void h_ppc_vsbox(uint8_t *d, const uint8_t *a) { akv_store(d, vec_sbox_be(akv_load(a))); }
T static void h_ppc_vpmsumb(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, (akv)vec_pmsum_be(akv_load(a), akv_load(b)));
}
T static void h_ppc_vpmsumh(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, (akv)vec_pmsum_be((__vector unsigned short)akv_load(a), (__vector unsigned short)akv_load(b)));
}
T static void h_ppc_vpmsumw(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, (akv)vec_pmsum_be((akv_u32)akv_load(a), (akv_u32)akv_load(b)));
}
T static void h_ppc_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, (akv)vec_pmsum_be((akv_u64)akv_load(a), (akv_u64)akv_load(b)));
}

/* ---- x86 / ARM AES on vcipher ---------------------------------------------- */
T static void h_x86_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k)
{
    akv_store(d, vec_xor(vec_ncipher_be(akv_load(s), Z), akv_load(k)));
}
T static void h_x86_aesimc(uint8_t *d, const uint8_t *s)
{
    akv_store(d, vec_ncipher_be(vec_cipherlast_be(akv_load(s), Z), Z));
}
T static void h_arm_aese(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, vec_cipherlast_be(vec_xor(akv_load(a), akv_load(b)), Z));
}
T static void h_arm_aesd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    akv_store(d, vec_ncipherlast_be(vec_xor(akv_load(a), akv_load(b)), Z));
}
T static void h_arm_aesmc(uint8_t *d, const uint8_t *s)
{
    akv_store(d, vec_cipher_be(vec_ncipherlast_be(akv_load(s), Z), Z));
}
static inline uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
T static void h_x86_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    uint8_t t[16];
    akv_store(t, vec_sbox_be(akv_load(s)));
    uint32_t s1 = (uint32_t)(ak_isa_ld64(t) >> 32), s3 = (uint32_t)(ak_isa_ld64(t + 8) >> 32), rc = imm & 0xff;
    ak_isa_st64(d, s1 | (uint64_t)(ror32(s1, 8) ^ rc) << 32);
    ak_isa_st64(d + 8, s3 | (uint64_t)(ror32(s3, 8) ^ rc) << 32);
}
#define LANES(name, one, n)                                                       \
    static void h_x86_##name(uint8_t *d, const uint8_t *s, const uint8_t *k)      \
    {                                                                             \
        for (int l = 0; l < n; l++)                                               \
            one(d + 16 * l, s + 16 * l, k + 16 * l);                              \
    }
LANES(vaesenc_x2, h_ppc_vcipher, 2)
LANES(vaesenclast_x2, h_ppc_vcipherlast, 2)
LANES(vaesdec_x2, h_x86_aesdec, 2)
LANES(vaesdeclast_x2, h_ppc_vncipherlast, 2)
LANES(vaesenc_x4, h_ppc_vcipher, 4)
LANES(vaesenclast_x4, h_ppc_vcipherlast, 4)
LANES(vaesdec_x4, h_x86_aesdec, 4)
LANES(vaesdeclast_x4, h_ppc_vncipherlast, 4)
#undef LANES

/* ---- 64 x 64 carry-less products on vpmsumd --------------------------------- */
T static inline void clmul(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    akv_u64 x = {a, 0}, y = {b, 0};
    akv_u64 p = (akv_u64)vec_pmsum_be(x, y);
    *lo = p[0];
    *hi = p[1];
}
static void h_x86_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    uint64_t lo, hi;
    clmul(ak_isa_ld64(a + 8 * (imm & 1)), ak_isa_ld64(b + 8 * ((imm >> 4) & 1)), &lo, &hi);
    ak_isa_st64(d, lo);
    ak_isa_st64(d + 8, hi);
}
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
static void h_arm_pmull_1q(uint8_t *d, const uint8_t *a, const uint8_t *b) { h_x86_pclmulqdq(d, a, b, 0x00); }
static void h_arm_pmull2_1q(uint8_t *d, const uint8_t *a, const uint8_t *b) { h_x86_pclmulqdq(d, a, b, 0x11); }
static uint64_t h_rv_clmul(uint64_t a, uint64_t b) { uint64_t l, h; clmul(a, b, &l, &h); return l; }
static uint64_t h_rv_clmulh(uint64_t a, uint64_t b) { uint64_t l, h; clmul(a, b, &l, &h); return h; }
static uint64_t h_rv_clmulr(uint64_t a, uint64_t b) { uint64_t l, h; clmul(a, b, &l, &h); return h << 1 | l >> 63; }

/* ---- RISC-V AES: rounds on the rs2:rs1 image --------------------------------- */
typedef void round_fn(uint8_t *, const uint8_t *, const uint8_t *);
static inline uint64_t rv_round(round_fn *f, uint64_t rs1, uint64_t rs2)
{
    static const uint8_t zero[16];
    uint8_t s[16];
    ak_isa_st64(s, rs1);
    ak_isa_st64(s + 8, rs2);
    f(s, s, zero);
    return ak_isa_ld64(s);
}
static uint64_t h_rv_aes64es(uint64_t a, uint64_t b) { return rv_round(h_ppc_vcipherlast, a, b); }
static uint64_t h_rv_aes64esm(uint64_t a, uint64_t b) { return rv_round(h_ppc_vcipher, a, b); }
static uint64_t h_rv_aes64ds(uint64_t a, uint64_t b) { return rv_round(h_ppc_vncipherlast, a, b); }
static uint64_t h_rv_aes64dsm(uint64_t a, uint64_t b) { return rv_round(h_x86_aesdec, a, b); }
static uint64_t h_rv_aes64im(uint64_t a)
{
    uint8_t s[16] = {0};
    ak_isa_st64(s, a);
    h_x86_aesimc(s, s);
    return ak_isa_ld64(s);
}

const char *ak_isa_host_ppc64(struct ak_isa_ops *o, uint32_t f)
{
    if (!(f & AK_CPU_PPC_VCRYPTO))
        return "";
    o->ppc_vcipher = h_ppc_vcipher;
    o->ppc_vcipherlast = h_ppc_vcipherlast;
    o->ppc_vncipher = h_ppc_vncipher;
    o->ppc_vncipherlast = h_ppc_vncipherlast;
    o->ppc_vsbox = h_ppc_vsbox;
    o->ppc_vpmsumb = h_ppc_vpmsumb;
    o->ppc_vpmsumh = h_ppc_vpmsumh;
    o->ppc_vpmsumw = h_ppc_vpmsumw;
    o->ppc_vpmsumd = h_ppc_vpmsumd;
    o->x86_aesenc = h_ppc_vcipher;
    o->x86_aesenclast = h_ppc_vcipherlast;
    o->x86_aesdec = h_x86_aesdec;
    o->x86_aesdeclast = h_ppc_vncipherlast;
    o->x86_aesimc = h_x86_aesimc;
    o->x86_aeskeygenassist = h_x86_aeskeygenassist;
    o->x86_pclmulqdq = h_x86_pclmulqdq;
    o->x86_vaesenc_x2 = h_x86_vaesenc_x2;
    o->x86_vaesenclast_x2 = h_x86_vaesenclast_x2;
    o->x86_vaesdec_x2 = h_x86_vaesdec_x2;
    o->x86_vaesdeclast_x2 = h_x86_vaesdeclast_x2;
    o->x86_vpclmulqdq_x2 = h_x86_vpclmulqdq_x2;
    o->x86_vaesenc_x4 = h_x86_vaesenc_x4;
    o->x86_vaesenclast_x4 = h_x86_vaesenclast_x4;
    o->x86_vaesdec_x4 = h_x86_vaesdec_x4;
    o->x86_vaesdeclast_x4 = h_x86_vaesdeclast_x4;
    o->x86_vpclmulqdq_x4 = h_x86_vpclmulqdq_x4;
    o->arm_aese = h_arm_aese;
    o->arm_aesd = h_arm_aesd;
    o->arm_aesmc = h_arm_aesmc;
    o->arm_aesimc = h_x86_aesimc;
    o->arm_pmull_1q = h_arm_pmull_1q;
    o->arm_pmull2_1q = h_arm_pmull2_1q;
    o->rv_aes64es = h_rv_aes64es;
    o->rv_aes64esm = h_rv_aes64esm;
    o->rv_aes64ds = h_rv_aes64ds;
    o->rv_aes64dsm = h_rv_aes64dsm;
    o->rv_aes64im = h_rv_aes64im;
    o->rv_clmul = h_rv_clmul;
    o->rv_clmulh = h_rv_clmulh;
    o->rv_clmulr = h_rv_clmulr;
    return "vcipher vncipher vsbox vpmsumb/h/w/d";
}
#endif
