/*
 * isa_portable.c - the portable path of aeskit_isa: every instruction in
 * plain C, constant-time, no tables indexed by data.
 *
 * S-box (FIPS-197 5.1.1): SubBytes(x) = A(x^-1) with x^-1 = x^254 in
 * GF(2^8) = GF(2)[t]/(t^8 + t^4 + t^3 + t + 1) (0^-1 = 0 falls out of the
 * power), and A the affine map b'_i = b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^
 * b_{i+7} ^ c_i, c = 0x63, i.e. b ^ rotl(b,1..4) ^ 0x63 on a byte.  The
 * inverse S-box is x -> (A^-1(x))^254 with A^-1(y) = rotl(y,1) ^ rotl(y,3)
 * ^ rotl(y,6) ^ 0x05 (FIPS-197 5.3.2).
 *
 * All of it runs on 8 bytes at once in a uint64_t (SWAR): each byte is a
 * lane, a "lane mask" of bit i is ((x >> i) & 0x01..01) * 0xff, so
 * multiplications are sums of masked operands (no branch, no index).  The
 * power x^254 uses the addition chain
 *   x^2, x^3 = x^2*x, x^12 = (x^3)^4, x^15 = x^12*x^3, x^240 = (x^15)^16,
 *   x^252 = x^240*x^12, x^254 = x^252*x^2:
 * four general multiplications and three powers x^2, x^4, x^16, which are
 * GF(2)-linear (Frobenius): x^2 = sum x_i t^{2i}, with t^8..t^14 reduced
 * to 0x1b, 0x6c, 0xab, 0x9a, is a bit spread of the low nibble plus four
 * masked constants; x^4 and x^16 are eight masked constants each.
 *
 * MixColumns (FIPS-197 5.1.3) on two columns held as two 32-bit lanes
 * (byte r of a column at bits 8r): with a1, a2, a3 = the column rotated by
 * 1, 2, 3 bytes (a_{r+1} at row r, ...), out = 2(a ^ a1) ^ a1 ^ a2 ^ a3.
 * InvMixColumns = MixColumns after a -> a ^ 4(a ^ a2), because the inverse
 * polynomial 0b x^3 + 0d x^2 + 09 x + 0e = (03 x^3 + x^2 + x + 02) (04 x^2 +
 * 05) mod x^4 + 1 (Daemen and Rijmen, The Design of Rijndael, 4.1.3).
 *
 * Carry-less products: 32 x 32 by integer multiplication with holes and
 * 64 x 64 by Karatsuba over it (clmul32 below); the 8- and 16-bit element
 * products as sums over the bits of b of a shifted, masked by the bit (a
 * mask from the bit, not a branch).
 */
#include "isa_internal.h"

#define L8 0x0101010101010101ull

/* Two 64-bit words, i.e. the whole 16-byte state, per operation (GNU C
 * vector extension: SSE2 / NEON / VSX where the target has them, pairs of
 * scalar operations otherwise).  Only lane-wise shifts, AND, XOR and
 * subtraction are used. */
typedef uint64_t v2 __attribute__((vector_size(16)));
#define SPLAT(c) ((v2){(uint64_t)(c), (uint64_t)(c)})

/* 0xff in every byte lane whose bit i is set: m * 255 = (m << 8) - m for
 * m with only bit 0 of each lane set (exact modulo 2^64 as well). */
static inline v2 lane_mask(v2 x, int i)
{
    v2 m = (x >> i) & SPLAT(L8);
    return (m << 8) - m;
}

/* Multiplication by t in every lane: shift, and fold t^8 = 0x1b back in
 * under the lane mask of the carried-out bit. */
static inline v2 xt(v2 a)
{
    v2 c = (a >> 7) & SPLAT(L8);
    return ((a & SPLAT(0x7f7f7f7f7f7f7f7full)) << 1) ^ (((c << 8) - c) & SPLAT(0x1b * L8));
}

static inline v2 gmul(v2 a, v2 b)
{
    v2 r = a & lane_mask(b, 0);
    for (int i = 1; i < 8; i++) {
        a = xt(a);
        r ^= a & lane_mask(b, i);
    }
    return r;
}

static inline v2 gsq(v2 x)
{
    v2 t = x & SPLAT(0x0f0f0f0f0f0f0f0full);   /* t^0..t^3 -> t^0, t^2, t^4, t^6 */
    t = (t | (t << 2)) & SPLAT(0x3333333333333333ull);
    t = (t | (t << 1)) & SPLAT(0x5555555555555555ull);
    t ^= lane_mask(x, 4) & SPLAT(0x1b * L8);   /* t^8 */
    t ^= lane_mask(x, 5) & SPLAT(0x6c * L8);   /* t^10 */
    t ^= lane_mask(x, 6) & SPLAT(0xab * L8);   /* t^12 */
    t ^= lane_mask(x, 7) & SPLAT(0x9a * L8);   /* t^14 */
    return t;
}

/* x -> x^(2^k) is GF(2)-linear (the Frobenius map): the sum over the set
 * bits i of x of the constant (t^i)^(2^k), one masked XOR per bit.
 * Columns for k = 2 (x^4) and k = 4 (x^16), reduced modulo the AES
 * polynomial. */
static inline v2 glin(v2 x, const uint8_t col[8])
{
    v2 r = lane_mask(x, 0) & SPLAT(col[0] * L8);
    for (int i = 1; i < 8; i++)
        r ^= lane_mask(x, i) & SPLAT(col[i] * L8);
    return r;
}
static const uint8_t POW4[8] = {0x01, 0x10, 0x1b, 0xab, 0x5e, 0x97, 0xb3, 0xc5};
static const uint8_t POW16[8] = {0x01, 0x5e, 0xe4, 0xe8, 0x4d, 0x91, 0x1d, 0x6c};

static inline v2 ginv(v2 x)
{
    v2 x2 = gsq(x);
    v2 x3 = gmul(x2, x);
    v2 x12 = glin(x3, POW4);
    v2 x15 = gmul(x12, x3);
    v2 x240 = glin(x15, POW16);
    v2 x252 = gmul(x240, x12);
    return gmul(x252, x2);
}

static inline v2 rotl8(v2 x, int n)
{
    uint64_t hi = (uint64_t)((0xffu << n) & 0xffu) * L8;
    uint64_t lo = (uint64_t)(0xffu >> (8 - n)) * L8;
    return ((x << n) & SPLAT(hi)) | ((x >> (8 - n)) & SPLAT(lo));
}

static inline v2 sub16(v2 x)
{
    v2 b = ginv(x);
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ SPLAT(0x63 * L8);
}

static inline v2 invsub16(v2 y)
{
    return ginv(rotl8(y, 1) ^ rotl8(y, 3) ^ rotl8(y, 6) ^ SPLAT(0x05 * L8));
}

/* Rotations of each 32-bit column: row r receives row r+1 (r8), r+2 (r16). */
static inline v2 col_r8(v2 x)
{
    return ((x >> 8) & SPLAT(0x00ffffff00ffffffull)) | ((x << 24) & SPLAT(0xff000000ff000000ull));
}
static inline v2 col_r16(v2 x)
{
    return ((x >> 16) & SPLAT(0x0000ffff0000ffffull)) | ((x << 16) & SPLAT(0xffff0000ffff0000ull));
}
static inline v2 mix16(v2 a)
{
    v2 a1 = col_r8(a), a2 = col_r16(a);
    return xt(a ^ a1) ^ a1 ^ a2 ^ col_r8(a2);
}
static inline v2 invmix16(v2 a)
{
    return mix16(a ^ xt(xt(a ^ col_r16(a))));
}

static inline v2 ldv(const uint8_t *p) { return (v2){ak_isa_ld64(p), ak_isa_ld64(p + 8)}; }
static inline void stv(uint8_t *p, v2 v)
{
    ak_isa_st64(p, v[0]);
    ak_isa_st64(p + 8, v[1]);
}
/* One word (8 bytes, two columns) through the same circuits. */
static inline uint64_t sub8(uint64_t x) { return sub16((v2){x, 0})[0]; }
static inline uint64_t invsub8(uint64_t x) { return invsub16((v2){x, 0})[0]; }
static inline uint64_t mix2(uint64_t x) { return mix16((v2){x, 0})[0]; }
static inline uint64_t invmix2(uint64_t x) { return invmix16((v2){x, 0})[0]; }

/* ShiftRows / InvShiftRows: state byte r + 4c moves by -r / +r columns.
 * The permutation is fixed; no index depends on data. */
static inline void shiftrows(uint8_t o[16], const uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            o[4 * c + r] = s[4 * ((c + r) & 3) + r];
}
static inline void invshiftrows(uint8_t o[16], const uint8_t s[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            o[4 * ((c + r) & 3) + r] = s[4 * c + r];
}

/* The AES round shapes all instructions are made of. */
enum { ENC_MIX, ENC_LAST, DEC_MIX, DEC_LAST, DEC_KEY_MIX /* POWER vncipher */ };

static inline void aes_round(uint8_t *d, const uint8_t *s, const uint8_t *k, int shape)
{
    uint8_t t[16];
    v2 w, key = k ? ldv(k) : SPLAT(0);
    if (shape == ENC_MIX || shape == ENC_LAST) {
        shiftrows(t, s);
        w = sub16(ldv(t));
        if (shape == ENC_MIX)
            w = mix16(w);
        w ^= key;
    } else {
        invshiftrows(t, s);
        w = invsub16(ldv(t));
        if (shape == DEC_MIX)
            w = invmix16(w) ^ key;
        else if (shape == DEC_KEY_MIX)
            w = invmix16(w ^ key);
        else
            w ^= key;
    }
    stv(d, w);
}

static inline void xor16(uint8_t *o, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        o[i] = a[i] ^ b[i];
}

/* ---- carry-less products ------------------------------------------------ */

/* 32 x 32 -> 63-bit carry-less product by integer multiplication "with
 * holes": split each operand into the bits of each residue class mod 4
 * (masks 0x11.., 0x22.., 0x44.., 0x88..).  A product x_i * y_j has its
 * bits in class i + j mod 4; in every position at most 8 partial bits add
 * up (32 / 4 per operand), so the carries (< 16) stay inside the three
 * empty positions above and never reach the next bit of the same class.
 * Keeping class c of the four products that land there gives the XOR of
 * their partial bits, i.e. the carry-less product.  Constant-time where
 * integer multiplication is (every 64-bit core aeskit targets). */
static inline uint64_t clmul32(uint64_t x, uint64_t y)
{
    const uint64_t m0 = 0x1111111111111111ull, m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* 64 x 64 -> 128 by Karatsuba over 32-bit halves: three clmul32. */
void ak_isa_portable_clmul64(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t l = clmul32(a0, b0), h = clmul32(a1, b1);
    uint64_t m = clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    *lo = l ^ (m << 32);
    *hi = h ^ (m >> 32);
}

/* Four 8 x 8 -> 15-bit products at once, one per 16-bit lane (inputs < 256
 * in each lane). */
static inline uint64_t pmul8x4(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= (a << i) & (((b >> i) & 0x0001000100010001ull) * 0xffff);
    return r;
}

/* Two 16 x 16 -> 31-bit products, one per 32-bit lane. */
static inline uint64_t pmul16x2(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (int i = 0; i < 16; i++)
        r ^= (a << i) & (((b >> i) & 0x0000000100000001ull) * 0xffffffffull);
    return r;
}

/* Bytes p[0], p[st], p[2st], p[3st] into the four 16-bit lanes. */
static inline uint64_t spread8(const uint8_t *p, int st)
{
    return (uint64_t)p[0] | (uint64_t)p[st] << 16 | (uint64_t)p[2 * st] << 32 | (uint64_t)p[3 * st] << 48;
}

/* ---- x86 ------------------------------------------------------------------ */

static void p_x86_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k) { aes_round(d, s, k, ENC_MIX); }
static void p_x86_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { aes_round(d, s, k, ENC_LAST); }
static void p_x86_aesdec(uint8_t *d, const uint8_t *s, const uint8_t *k) { aes_round(d, s, k, DEC_MIX); }
static void p_x86_aesdeclast(uint8_t *d, const uint8_t *s, const uint8_t *k) { aes_round(d, s, k, DEC_LAST); }

static void p_x86_aesimc(uint8_t *d, const uint8_t *s) { stv(d, invmix16(ldv(s))); }

static inline uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void p_x86_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    uint64_t x1 = ak_isa_ld64(s) >> 32, x3 = ak_isa_ld64(s + 8) >> 32;
    uint64_t w = sub8(x1 | x3 << 32);
    uint32_t s1 = (uint32_t)w, s3 = (uint32_t)(w >> 32), rc = imm & 0xff;
    ak_isa_st64(d, s1 | (uint64_t)(ror32(s1, 8) ^ rc) << 32);
    ak_isa_st64(d + 8, s3 | (uint64_t)(ror32(s3, 8) ^ rc) << 32);
}

static void p_x86_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    uint64_t lo, hi;
    ak_isa_portable_clmul64(ak_isa_ld64(a + 8 * (imm & 1)), ak_isa_ld64(b + 8 * ((imm >> 4) & 1)), &lo, &hi);
    ak_isa_st64(d, lo);
    ak_isa_st64(d + 8, hi);
}

#define LANES(name, one, n)                                                    \
    static void p_x86_##name(uint8_t *d, const uint8_t *s, const uint8_t *k)   \
    {                                                                          \
        for (int l = 0; l < n; l++)                                            \
            one(d + 16 * l, s + 16 * l, k + 16 * l);                           \
    }
LANES(vaesenc_x2, p_x86_aesenc, 2)
LANES(vaesenclast_x2, p_x86_aesenclast, 2)
LANES(vaesdec_x2, p_x86_aesdec, 2)
LANES(vaesdeclast_x2, p_x86_aesdeclast, 2)
LANES(vaesenc_x4, p_x86_aesenc, 4)
LANES(vaesenclast_x4, p_x86_aesenclast, 4)
LANES(vaesdec_x4, p_x86_aesdec, 4)
LANES(vaesdeclast_x4, p_x86_aesdeclast, 4)
#undef LANES

static void p_x86_vpclmulqdq_x2(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 2; l++)
        p_x86_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm);
}
static void p_x86_vpclmulqdq_x4(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    for (int l = 0; l < 4; l++)
        p_x86_pclmulqdq(d + 16 * l, a + 16 * l, b + 16 * l, imm);
}

/* ---- AArch64 -------------------------------------------------------------- */

static void p_arm_aese(uint8_t *d, const uint8_t *vd, const uint8_t *vn)
{
    uint8_t t[16];
    xor16(t, vd, vn);
    aes_round(d, t, NULL, ENC_LAST);
}
static void p_arm_aesd(uint8_t *d, const uint8_t *vd, const uint8_t *vn)
{
    uint8_t t[16];
    xor16(t, vd, vn);
    aes_round(d, t, NULL, DEC_LAST);
}
static void p_arm_aesmc(uint8_t *d, const uint8_t *s) { stv(d, mix16(ldv(s))); }
static void p_arm_aesimc(uint8_t *d, const uint8_t *s) { p_x86_aesimc(d, s); }

static void p_arm_pmull_1q(uint8_t *d, const uint8_t *n, const uint8_t *m) { p_x86_pclmulqdq(d, n, m, 0x00); }
static void p_arm_pmull2_1q(uint8_t *d, const uint8_t *n, const uint8_t *m) { p_x86_pclmulqdq(d, n, m, 0x11); }

static void pmull8h_at(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    uint64_t r0 = pmul8x4(spread8(n, 1), spread8(m, 1));
    uint64_t r1 = pmul8x4(spread8(n + 4, 1), spread8(m + 4, 1));
    ak_isa_st64(d, r0);
    ak_isa_st64(d + 8, r1);
}
static void p_arm_pmull_8h(uint8_t *d, const uint8_t *n, const uint8_t *m) { pmull8h_at(d, n, m); }
static void p_arm_pmull2_8h(uint8_t *d, const uint8_t *n, const uint8_t *m) { pmull8h_at(d, n + 8, m + 8); }

static void p_arm_pmul_16b(uint8_t *d, const uint8_t *n, const uint8_t *m)
{
    uint64_t r[4];
    for (int g = 0; g < 4; g++)
        r[g] = pmul8x4(spread8(n + 4 * g, 1), spread8(m + 4 * g, 1));
    for (int g = 0; g < 4; g++)
        for (int j = 0; j < 4; j++)
            d[4 * g + j] = (uint8_t)(r[g] >> (16 * j));
}

/* ---- POWER (images in the ISA's big-endian numbering) --------------------- */

static void p_ppc_vcipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { aes_round(d, a, b, ENC_MIX); }
static void p_ppc_vcipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { aes_round(d, a, b, ENC_LAST); }
static void p_ppc_vncipher(uint8_t *d, const uint8_t *a, const uint8_t *b) { aes_round(d, a, b, DEC_KEY_MIX); }
static void p_ppc_vncipherlast(uint8_t *d, const uint8_t *a, const uint8_t *b) { aes_round(d, a, b, DEC_LAST); }
static void p_ppc_vsbox(uint8_t *d, const uint8_t *a) { stv(d, sub16(ldv(a))); }

static void p_ppc_vpmsumb(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    uint64_t r[2];
    for (int g = 0; g < 2; g++) /* halfwords 4g..4g+3 from bytes 8g..8g+7 */
        r[g] = pmul8x4(spread8(a + 8 * g, 2), spread8(b + 8 * g, 2)) ^
               pmul8x4(spread8(a + 8 * g + 1, 2), spread8(b + 8 * g + 1, 2));
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 4; j++) {
            d[8 * g + 2 * j] = (uint8_t)(r[g] >> (16 * j + 8));
            d[8 * g + 2 * j + 1] = (uint8_t)(r[g] >> (16 * j));
        }
}

static inline uint64_t be16(const uint8_t *p) { return (uint64_t)p[0] << 8 | p[1]; }
static inline uint64_t be32(const uint8_t *p) { return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]; }

static void p_ppc_vpmsumh(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    uint64_t r[2];
    for (int g = 0; g < 2; g++) { /* words 2g, 2g+1 from halfwords 4g..4g+3 */
        const uint8_t *pa = a + 8 * g, *pb = b + 8 * g;
        uint64_t ae = be16(pa) | be16(pa + 4) << 32, ao = be16(pa + 2) | be16(pa + 6) << 32;
        uint64_t be = be16(pb) | be16(pb + 4) << 32, bo = be16(pb + 2) | be16(pb + 6) << 32;
        r[g] = pmul16x2(ae, be) ^ pmul16x2(ao, bo);
    }
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 4; i++)
                d[8 * g + 4 * j + i] = (uint8_t)(r[g] >> (32 * j + 24 - 8 * i));
}

static void p_ppc_vpmsumw(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    uint64_t r0 = clmul32(be32(a), be32(b)) ^ clmul32(be32(a + 4), be32(b + 4));
    uint64_t r1 = clmul32(be32(a + 8), be32(b + 8)) ^ clmul32(be32(a + 12), be32(b + 12));
    ak_isa_st64be(d, r0);
    ak_isa_st64be(d + 8, r1);
}

static void p_ppc_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    uint64_t l0, h0, l1, h1;
    ak_isa_portable_clmul64(ak_isa_ld64be(a), ak_isa_ld64be(b), &l0, &h0);
    ak_isa_portable_clmul64(ak_isa_ld64be(a + 8), ak_isa_ld64be(b + 8), &l1, &h1);
    ak_isa_st64be(d, h0 ^ h1);
    ak_isa_st64be(d + 8, l0 ^ l1);
}

/* ---- RISC-V RV64 ---------------------------------------------------------- */

/* Bytes 0..7 of the ShiftRows (fwd) / InvShiftRows (inv) of rs2:rs1. */
static inline uint64_t rv_rows(uint64_t rs1, uint64_t rs2, int inv)
{
    uint8_t s[16], t[16];
    ak_isa_st64(s, rs1);
    ak_isa_st64(s + 8, rs2);
    if (inv)
        invshiftrows(t, s);
    else
        shiftrows(t, s);
    return ak_isa_ld64(t);
}

static uint64_t p_rv_aes64es(uint64_t rs1, uint64_t rs2) { return sub8(rv_rows(rs1, rs2, 0)); }
static uint64_t p_rv_aes64esm(uint64_t rs1, uint64_t rs2) { return mix2(sub8(rv_rows(rs1, rs2, 0))); }
static uint64_t p_rv_aes64ds(uint64_t rs1, uint64_t rs2) { return invsub8(rv_rows(rs1, rs2, 1)); }
static uint64_t p_rv_aes64dsm(uint64_t rs1, uint64_t rs2) { return invmix2(invsub8(rv_rows(rs1, rs2, 1))); }
static uint64_t p_rv_aes64im(uint64_t rs1) { return invmix2(rs1); }

static uint64_t p_rv_aes64ks1i(uint64_t rs1, unsigned rnum)
{
    /* rnum is an immediate of the encoding: public, so it may index. */
    static const uint8_t rcon[16] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    rnum &= 0xf;
    uint32_t t = (uint32_t)(rs1 >> 32);
    if (rnum != 10)
        t = ror32(t, 8);
    uint32_t w = (uint32_t)sub8(t) ^ rcon[rnum];
    return (uint64_t)w << 32 | w;
}

static uint64_t p_rv_aes64ks2(uint64_t rs1, uint64_t rs2)
{
    uint32_t w0 = (uint32_t)(rs1 >> 32) ^ (uint32_t)rs2;
    uint32_t w1 = w0 ^ (uint32_t)(rs2 >> 32);
    return (uint64_t)w1 << 32 | w0;
}

static uint64_t p_rv_clmul(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    ak_isa_portable_clmul64(a, b, &lo, &hi);
    return lo;
}
static uint64_t p_rv_clmulh(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    ak_isa_portable_clmul64(a, b, &lo, &hi);
    return hi;
}
static uint64_t p_rv_clmulr(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    ak_isa_portable_clmul64(a, b, &lo, &hi);
    return hi << 1 | lo >> 63;
}

const struct ak_isa_ops ak_isa_portable_ops = {
#define AK_ISA_INIT(kind, name, n) .name = p_##name,
    AK_ISA_LIST(AK_ISA_INIT)
#undef AK_ISA_INIT
};
