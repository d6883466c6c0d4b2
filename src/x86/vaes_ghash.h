/*
 * vaes_ghash.h - GHASH for the x86-vaes backends: the typed GHASH key
 * (ak_vaes_ghash_key, the powers of H), the unreduced multiply-accumulate
 * steps, the reduction, and GHASH over whole blocks.
 *
 * CPU features: VPCLMULQDQ on the width file's vectors, PCLMULQDQ for the
 * 128-bit key setup (AK_TGT of aes_vaes_avx2.c / aes_vaes_avx512.c).
 *
 * This comment is THE derivation of the GHASH math for every x86 backend
 * (x86-aesni's gcm_aesni.c and the rest of the VAES files point here).
 *
 * ==========================================================================
 * GHASH on carry-less multipliers: the math every x86 backend here uses
 * (x86-aesni points to this comment too).
 * ==========================================================================
 *
 * 1. The field (NIST SP 800-38D, section 6.3).  GHASH works in GF(2^128)
 *    defined by g(x) = x^128 + x^7 + x^2 + x + 1.  A 16-byte block is a
 *    polynomial whose FIRST bit (the most significant bit of byte 0) is the
 *    coefficient of x^0 and whose last bit (lsb of byte 15) is that of x^127.
 *    GHASH_H(X_1..X_n) is Y_n with Y_0 = 0 (or the running state) and
 *    Y_i = (Y_{i-1} + X_i) * H.
 *
 * 2. The bit-reflected register form (Gueron & Kounavis, "Intel Carry-Less
 *    Multiplication Instruction and its Usage for Computing the GCM Mode",
 *    Intel white paper, rev. 2.02, 2014).  We byte-swap each block (vpshufb)
 *    and read it as a little-endian 128-bit integer r(a).  Bit i of r(a)
 *    is then the coefficient of x^(127-i): the whole polynomial is stored
 *    bit-reversed.  PCLMULQDQ multiplies integers, and the carry-less product
 *    of two reversed operands is the reversed product, shifted: for
 *    Q = r(a) (x) r(b) (256 bits, top bit always 0), bit k of Q is the
 *    coefficient of x^(254-k) of a*b.
 *
 * 3. Absorbing the shift.  Rather than shift every product left by one bit
 *    (so that bit k means x^(255-k)), we multiply by b' = b * x^-1 instead of
 *    b: then Q read with "bit k <-> x^(255-k)" is x * a * b * x^-1 = a*b.
 *    Shifting r(b) left by one is exactly dividing by x; the bit pushed out
 *    (x^0) becomes x^-1 = x^127 + x^6 + x + 1, i.e. bits {0,121,126,127}:
 *    the constant 0xc2000000_00000000_00000000_00000001.  So the key
 *    schedule stores K_j = r(H^j * x^-1) = (r(H^j) << 1) ^ (msb ? 0xc2..01 : 0)
 *    (computed in vaes_ghash_init as K_1 this way, then K_j = mul(K_{j-1}, K_1), which is
 *    r(H^(j-1) x^-1 * H) by the same rule).
 *
 * 4. Reduction by two multiplications (Gueron, the "0xc2..01" trick).  Now
 *    the high half of Q (bits 128..255) holds degrees 127..0 in register
 *    form already; the low half L = L1:L0 (bits 0..127) holds degrees
 *    255..128 and must be folded with x^128 = x^7 + x^2 + x + 1.  A bit at
 *    position k < 64 (degree 255-k) lands at positions k+121, k+126, k+127,
 *    k+128, so L0 contributes (L0 << 128) ^ ((L0 (x) 0xc200000000000000) << 64).
 *    In 128-bit registers, with swap() exchanging the 64-bit halves:
 *        M' = M ^ swap(L) ^ clmul(L.lo, 0xc2<<56)      (L folded into the
 *                                                       middle frame, bits 64..191)
 *        Y  = H ^ swap(M') ^ clmul(M'.lo, 0xc2<<56)    (middle folded into the top)
 *    where M is the middle term of the product (bits 64..191).  Each step
 *    folds 64 bits; the second step's products land at bit 185 or above, so
 *    two steps finish the job.  No shifts are needed at all, and both three-
 *    way XORs are one vpternlogd on AVX-512.
 *
 * 5. Karatsuba (Gueron & Kounavis, ibid.): with a = a1:a0, b = b1:b0,
 *        a*b = a1b1 x^128 + [(a1+a0)(b1+b0) + a1b1 + a0b0] x^64 + a0b0.
 *    Three multiplications instead of four; (b1+b0) is precomputed per power
 *    ("kk" below), (a1+a0) is one vpshufd+xor per vector (or, in the ymm
 *    build's fused loop, unpacks shared by two vectors: vaes_gacc_mid2).  Whether that pays
 *    depends on the ports: measured on this machine, the ymm build
 *    (AK_KARATSUBA=1) gains from it, while on zmm, where 512-bit shuffles and
 *    carry-less multiplies compete for the same port, the schoolbook middle
 *    term a1b0 + a0b1 (two multiplies, one vpternlogd) is faster and leaves
 *    room in the table for more powers (AK_KARATSUBA=0).  On CPUs whose
 *    512-bit multiplier is the slow unit (AK_CPU_KARA512) the zmm build
 *    still takes Karatsuba's middle term where no AES runs beside the
 *    products, its half-sums made in registers (vaes_gacc_mul_k).
 *
 * 6. Aggregated reduction (Gueron, "AES-GCM software performance on the
 *    current high end CPUs as a performance baseline for CAESAR", 2013; and
 *    Drucker, Gueron, Krasnov, "Making AES great again: the forthcoming
 *    vectorized AES instruction", 2018, for the VPCLMULQDQ version).  Unrolled
 *    over n blocks, Y_n = (Y_0 + X_1) H^n + X_2 H^(n-1) + ... + X_n H.  The
 *    products are linear, so the lo/mid/hi terms of all n products (in all
 *    vector lanes) are XORed together unreduced and ONE reduction (plus one
 *    horizontal XOR of the lanes) finishes n blocks.  The table holds
 *    K_NPOW..K_1 in descending order, so n <= NPOW blocks starting at table
 *    entry NPOW-n line up with consecutive lanes, whatever the vector width.
 *    The fused GCM loops reduce once per two batches (2*BATCH blocks), or
 *    once per four on zmm while four remain, carrying the state between
 *    reductions "lane-scaled" (derived at vaes_gcm_body in vaes_gcm_bulk.h: lane l holds a value
 *    that counts as y_l * H^-l, so no horizontal sum is needed in the loop).
 *
 * The key (ak_vaes_ghash_key below) has one of two formats, chosen by the
 * width file's AK_KARATSUBA; both are descending tables of the K_j, so
 * n <= NPOW blocks starting at pow[NPOW - n] line up with consecutive
 * lanes at either width.  Why two: docs/design.md, "The VAES key layout"
 * (ymm measured slower with the zmm format).  Other work
 * with the same ideas, read for comparison (no code taken): Linux
 * arch/x86/crypto/aes-gcm-avx10-x86_64.S, Intel ipsec-mb, OpenSSL and
 * BoringSSL's VAES GCM.
 */

/* ---- the GHASH key ------------------------------------------------------ */

#ifndef AK_KARATSUBA
#error "the width file says which GHASH key format it uses (AK_KARATSUBA)"
#endif

#if AK_KARATSUBA
#define NPOW 28 /* powers of H in the table */
/* ymm: Karatsuba (section 5). */
typedef struct {
    uint8_t pow[NPOW][16]; /* pow[e] = K_{NPOW-e}: descending */
    /* Karatsuba half-sums: low qword k1^k0 of pow[e], high qword that of
     * pow[e+2] (zero past the end), so the middle products of two vectors
     * one apart share one vector of data half-sums (vaes_gacc_mid2). */
    uint8_t kk[NPOW][16];
    /* A vector load at one of the last entries of kk reaches up to
     * AK_LANES - 1 entries past it; those lanes only meet zero data. */
    uint8_t overrun[AK_LANES - 1][16];
} ak_vaes_ghash_key;
_Static_assert(offsetof(ak_vaes_ghash_key, kk) == sizeof(((ak_vaes_ghash_key *)0)->pow), "kk follows pow");
#else
/* zmm: schoolbook middle term, and the four-batch powers.  44 powers: the
 * one-pass class's 40 blocks (VAES_ONEPASS_NVX_MAX, vaes_gcm_small.h)
 * with up to three AAD blocks and L. */
#define NPOW 44
typedef struct {
    uint8_t pow[NPOW][16]; /* pow[e] = K_{NPOW-e}: descending */
    /* quad[j] = K_{2*BATCH + AK_LANES*(2*NV - j)}, j < 2*NV (K_64, K_60,
     * .., K_36 on zmm): the one power per vector of the lane-scaled
     * four-batch folds (vaes_gcm_body), read broadcast.  A vector load at
     * one of the last entries of pow reaches up to AK_LANES - 1 entries
     * into quad; those lanes only meet zero data. */
    uint8_t quad[2 * NV][16];
    /* 1 if GHASH with no AES rounds beside it multiplies in Karatsuba form
     * (vaes_gacc_mul_k): AK_CPU_KARA512 at key set-up */
    uint32_t kara;
} ak_vaes_ghash_key;
_Static_assert(sizeof(((ak_vaes_ghash_key *)0)->quad) >= 16 * (AK_LANES - 1), "pow's overrun stays in the key");
#endif
_Static_assert(sizeof(ak_vaes_ghash_key) <= AESKIT_GHASH_KEY_SIZE, "ak_vaes_ghash_key fits ak_ghash.data");

VAES_INLINE const ak_vaes_ghash_key *vaes_ghash_key(const ak_ghash *g)
{
    return (const ak_vaes_ghash_key *)(const void *)g->data;
}
VAES_INLINE ak_vaes_ghash_key *vaes_ghash_key_w(ak_ghash *g) { return (ak_vaes_ghash_key *)(void *)g->data; }

/* The descending powers for n <= NPOW blocks: entry NPOW - n, so block i
 * (lane i counting across vectors) takes K_{n-i}. */
VAES_INLINE const uint8_t *vaes_gh_pow(const ak_vaes_ghash_key *g, size_t n)
{
    /* A byte pointer into the whole table, not g->pow[0] + ...: vector
     * loads from it run on past one 16-byte row (by design), and an
     * index into pow[0] beyond 16 is what -fsanitize=bounds reports. */
    return (const uint8_t *)(const void *)g->pow + 16 * (NPOW - n);
}

/* Vectors per GHASH-only batch (vaes_ghash_blocks): all the powers on
 * ymm; on zmm 32 of the 44, so that whole KiBs fold without a partial
 * batch (docs/performance.md, "Zen 4: 44 powers on zmm"). */
#if AK_KARATSUBA
#define NVG (NPOW / AK_LANES)
#else
#define NVG (2 * BATCH / AK_LANES)
#endif
_Static_assert(NVG * AK_LANES <= NPOW, "a GHASH-only batch within the powers");
_Static_assert(NPOW % 4 == 0, "vaes_ghash_init's four chains");
#if !AK_KARATSUBA
_Static_assert(NPOW >= 2 * BATCH + 2 * AK_LANES, "vaes_ghash_init: quad's chains start from two copied entries");
#endif

/* ---- unreduced products ------------------------------------------------- */

/* Unreduced product sums (sections 4-5): lo, mid, hi. */
typedef struct {
    vec_t lo, mid, hi;
} gacc;

/* The int flags of the accumulate steps and of vaes_gcm_stitch, named at
 * every call site: does a step start the sums or add to them; does a
 * stitched batch end with the reduction; are its powers the descending
 * table's (vector j of block i: K_{n-i}) or lane-scaled (one power per
 * vector, every lane the same distance from the reduction; vaes_gcm_body). */
enum { GACC_ADD = 0, GACC_FIRST = 1 };
enum { GACC_KEEP = 0, GACC_REDUCE = 1 };
enum { POW_DESCENDING = 0, POW_LANE_SCALED = 1 };

VAES_INLINE void vaes_gacc_zero(gacc *a)
{
    a->lo = v_zero();
    a->mid = v_zero();
    a->hi = v_zero();
}

#if AK_KARATSUBA
/* The half-sums of the power at pw (an entry of pow). */
VAES_INLINE const uint8_t *vaes_gh_kk(const uint8_t *pw) { return pw + sizeof(((ak_vaes_ghash_key *)0)->pow); }
#endif

/* a += x * (powers at pw), x already in register form. */
VAES_INLINE void vaes_gacc_mul(gacc *a, vec_t x, const uint8_t *pw)
{
    vec_t h = v_loadu(pw);
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
#if AK_KARATSUBA
    vec_t hk = v_loadu(vaes_gh_kk(pw));
    a->mid = v_xor(a->mid, v_clmul(v_xor(x, v_swap64(x)), hk, 0x00));
#else
    a->mid = v_xor3(a->mid, v_clmul(x, h, 0x01), v_clmul(x, h, 0x10));
#endif
}

/* a (+)= x0 * K(pw0) + x1 * K(pw1) for two single blocks in register form
 * (an AAD block and the length block, say) whose powers sit anywhere in the
 * table: both in one 256-bit product set.  On zmm (schoolbook key format)
 * that is four ymm multiplies zero-extended into the sums, where two zmm
 * product sets with one live lane each would be eight zmm multiplies (on
 * Zen 4 each takes the pipes VAESENC needs for both 256-bit halves,
 * docs/performance.md); on ymm (Karatsuba format) one product set instead
 * of two. */
VAES_INLINE void vaes_gacc_mul_blocks2(gacc *a, __m128i x0, const uint8_t *pw0, __m128i x1, const uint8_t *pw1)
{
    const __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(x0), x1, 1);
    const __m256i h = _mm256_inserti128_si256(_mm256_castsi128_si256(x_load(pw0)), x_load(pw1), 1);
#if AK_LANES == 4
    _Static_assert(!AK_KARATSUBA, "the zmm key is schoolbook");
    a->lo = v_xor(a->lo, _mm512_zextsi256_si512(_mm256_clmulepi64_epi128(x, h, 0x00)));
    a->hi = v_xor(a->hi, _mm512_zextsi256_si512(_mm256_clmulepi64_epi128(x, h, 0x11)));
    a->mid = v_xor3(a->mid, _mm512_zextsi256_si512(_mm256_clmulepi64_epi128(x, h, 0x01)),
                    _mm512_zextsi256_si512(_mm256_clmulepi64_epi128(x, h, 0x10)));
#else
    _Static_assert(AK_KARATSUBA, "the ymm key is Karatsuba");
    const __m256i hk = _mm256_inserti128_si256(_mm256_castsi128_si256(x_load(vaes_gh_kk(pw0))), x_load(vaes_gh_kk(pw1)), 1);
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
    a->mid = v_xor(a->mid, v_clmul(v_xor(x, v_swap64(x)), hk, 0x00));
#endif
}

/* a (+)= x0 * (powers at pw0) + x1 * (powers at pw1).  Two products at a
 * time so that each accumulator takes both products' terms in one three-way
 * XOR (one vpternlogd on AVX-512): 4 XORs per 8 multiplies instead of 6, on
 * the ports the AES rounds need.  `first` (a compile-time constant) starts
 * the sums instead of adding to them; uni: every lane of x takes lane 0's
 * power (the lane-scaled folds of vaes_gcm_body). */
VAES_INLINE void vaes_gacc_mul2(gacc *a, vec_t x0, const uint8_t *pw0, vec_t x1, const uint8_t *pw1, const int first,
                                const int uni)
{
    vec_t h0 = uni ? v_bcast(pw0) : v_loadu(pw0), h1 = uni ? v_bcast(pw1) : v_loadu(pw1);
    vec_t l0 = v_clmul(x0, h0, 0x00), l1 = v_clmul(x1, h1, 0x00);
    vec_t u0 = v_clmul(x0, h0, 0x11), u1 = v_clmul(x1, h1, 0x11);
#if AK_KARATSUBA
    vec_t k0 = uni ? v_bcast(vaes_gh_kk(pw0)) : v_loadu(vaes_gh_kk(pw0));
    vec_t k1 = uni ? v_bcast(vaes_gh_kk(pw1)) : v_loadu(vaes_gh_kk(pw1));
    vec_t m0 = v_clmul(v_xor(x0, v_swap64(x0)), k0, 0x00);
    vec_t m1 = v_clmul(v_xor(x1, v_swap64(x1)), k1, 0x00);
    a->mid = first ? v_xor(m0, m1) : v_xor3(a->mid, m0, m1);
#else
    vec_t m0a = v_clmul(x0, h0, 0x01), m0b = v_clmul(x0, h0, 0x10);
    vec_t m1a = v_clmul(x1, h1, 0x01), m1b = v_clmul(x1, h1, 0x10);
    a->mid = first ? v_xor(v_xor3(m0a, m0b, m1a), m1b) : v_xor3(v_xor3(a->mid, m0a, m0b), m1a, m1b);
#endif
    a->lo = first ? v_xor(l0, l1) : v_xor3(a->lo, l0, l1);
    a->hi = first ? v_xor(u0, u1) : v_xor3(a->hi, u0, u1);
}

#if AK_KARATSUBA
/* The lo and hi products of x (the middle one comes from vaes_gacc_mid2). */
VAES_INLINE void vaes_gacc_lohi(gacc *a, vec_t x, const uint8_t *pw, const int first, const int uni)
{
    vec_t h = uni ? v_bcast(pw) : v_loadu(pw);
    vec_t l = v_clmul(x, h, 0x00), u = v_clmul(x, h, 0x11);
    a->lo = first ? l : v_xor(a->lo, l);
    a->hi = first ? u : v_xor(a->hi, u);
}

/* The Karatsuba middle products of xa (powers at pw) and xb (powers at
 * pw + VB, i.e. table entries two further on) from ONE vector of half-sums:
 * t = [xa1^xa0, xb1^xb0] per lane by two unpacks and one XOR, where each
 * vector alone takes a vpshufd and an XOR (3 instructions for two vectors
 * instead of 4), against [kk_e, kk_{e+2}] from the half-sum table: the
 * fused loop is bound by its vector ALU ports, so an instruction saved
 * there is time saved (docs/performance.md, "Measurements behind the
 * code"). */
VAES_INLINE void vaes_gacc_mid2(gacc *a, vec_t xa, vec_t xb, const uint8_t *pw, const int first, const int uni)
{
    vec_t t = v_xor(v_unpacklo64(xa, xb), v_unpackhi64(xa, xb));
    vec_t k = uni ? v_bcast(vaes_gh_kk(pw)) : v_loadu(vaes_gh_kk(pw));
    vec_t ma = v_clmul(t, k, 0x00), mb = v_clmul(t, k, 0x11);
    a->mid = first ? v_xor(ma, mb) : v_xor(v_xor(a->mid, ma), mb);
}
#endif

/* The sums as they stand, in registers, at this point of the code.  GCC
 * re-associates a chain of XORs of independent products into one tree at
 * its end, so that every product of a stitched batch stays live until all
 * are formed; where the AES states fill the registers, products go to the
 * stack and back.  An empty asm that takes and gives the three values
 * keeps each fold where the source puts it; it emits no instruction.
 * MSan checks asm operands as uses, and the sums are secret: its build
 * goes without (the barrier only schedules). */
VAES_INLINE void vaes_gacc_pin(gacc *a)
{
#ifndef AESKIT_MSAN_CT
    __asm__("" : "+v"(a->lo), "+v"(a->mid), "+v"(a->hi));
#else
    (void)a;
#endif
}

/* The same for lo and hi alone: after a step that formed only those (the
 * middle sum may not exist yet, and an asm operand is a use). */
VAES_INLINE void vaes_gacc_pin_lohi(gacc *a)
{
#ifndef AESKIT_MSAN_CT
    __asm__("" : "+v"(a->lo), "+v"(a->hi));
#else
    (void)a;
#endif
}

/* ---- reduction ---------------------------------------------------------- */

/* (Karatsuba fix-up,) the two-multiply reduction of section 4 in every
 * lane; the lanes are left unsummed (vaes_gcm_body carries them
 * lane-scaled; v_hxor sums them). */
VAES_INLINE vec_t vaes_gacc_reduce_v(gacc a)
{
    const vec_t c = v_bcast_x(_mm_set1_epi64x((long long)0xc200000000000000ULL));
#if AK_KARATSUBA
    vec_t mid = v_xor3(a.mid, a.lo, a.hi);
#else
    vec_t mid = a.mid;
#endif
    mid = v_xor3(mid, v_swap64(a.lo), v_clmul(a.lo, c, 0x00));
    return v_xor3(a.hi, v_swap64(mid), v_clmul(mid, c, 0x00));
}

VAES_INLINE __m128i vaes_gacc_reduce(gacc a) { return v_hxor(vaes_gacc_reduce_v(a)); }

/* ---- Karatsuba on the schoolbook key (zmm, AK_CPU_KARA512) ---------------
 *
 * Where a CPU's 512-bit VPCLMULQDQ issues at half the rate of its shuffles
 * (Zen 5: one every 1.95 cycles; a shuffle, unpack or XOR beside it costs
 * nothing, measured) the multiplies are the time wherever no AES rounds
 * run beside them: GHASH alone (vaes_ghash_blocks) and the products a long
 * message ends with (vaes_gcm_body).  There each vector takes three
 * multiplies instead of four, section 5's middle term from ONE vector of
 * half-sums built in registers, the schoolbook key having no table of
 * them:
 *     t = unpacklo64(x, h) ^ unpackhi64(x, h) = [x0 ^ x1, h0 ^ h1] per lane,
 *     (x0 ^ x1)(h0 ^ h1) = clmul(t, t, 0x10),
 * two unpacks and a XOR for the multiply saved.  Where the unpacks share the
 * multiplier's port (Intel: port 5) that is a loss, so the form is chosen
 * per CPU (vaes_gh_kara), and per call site as a compile-time constant:
 * a run-time choice among the products costs the other form more than it
 * saves.  An accumulator holds products of one form only: the Karatsuba
 * sum's middle term is fixed up (mid ^= lo ^ hi) before the reduction
 * (vaes_gacc_reduce_v_sel). */
#if !AK_KARATSUBA
VAES_INLINE int vaes_gh_kara(const ak_vaes_ghash_key *g) { return g->kara != 0; }

VAES_INLINE void vaes_gacc_mul_k(gacc *a, vec_t x, const uint8_t *pw)
{
    vec_t h = v_loadu(pw);
    vec_t t = v_xor(v_unpacklo64(x, h), v_unpackhi64(x, h));
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
    a->mid = v_xor(a->mid, v_clmul(t, t, 0x10));
}
#else
/* The ymm key is Karatsuba's already (vaes_gacc_mul). */
VAES_INLINE int vaes_gh_kara(const ak_vaes_ghash_key *g)
{
    (void)g;
    return 0;
}
#endif

/* a += x * (powers at pw) in the form kara names (0: vaes_gacc_mul). */
VAES_INLINE void vaes_gacc_mul_sel(gacc *a, vec_t x, const uint8_t *pw, int kara)
{
#if !AK_KARATSUBA
    if (kara) {
        vaes_gacc_mul_k(a, x, pw);
        return;
    }
#endif
    (void)kara;
    vaes_gacc_mul(a, x, pw);
}

/* vaes_gacc_reduce_v of an accumulator of products in the form kara names. */
VAES_INLINE vec_t vaes_gacc_reduce_v_sel(gacc a, int kara)
{
#if !AK_KARATSUBA
    if (kara)
        a.mid = v_xor3(a.mid, a.lo, a.hi);
#endif
    (void)kara;
    return vaes_gacc_reduce_v(a);
}

/* The reduction of an accumulator of vaes_gacc_mul_sel's products. */
VAES_INLINE __m128i vaes_gacc_reduce_sel(gacc a, int kara) { return v_hxor(vaes_gacc_reduce_v_sel(a, kara)); }

/* 128-bit multiply, for key setup and single blocks: r(a*b') with b' = K. */
VAES_INLINE __m128i x_gmul(__m128i a, __m128i k)
{
    const __m128i c = _mm_set1_epi64x((long long)0xc200000000000000ULL);
    __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x01), _mm_clmulepi64_si128(a, k, 0x10));
    mid = _mm_xor_si128(mid, _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, c, 0x00)));
    return _mm_xor_si128(hi, _mm_xor_si128(_mm_shuffle_epi32(mid, 0x4e), _mm_clmulepi64_si128(mid, c, 0x00)));
}

/* ---- key setup ---------------------------------------------------------- */

VAES_INLINE void vaes_ghash_init(ak_ghash *gk, const uint8_t H[16])
{
    ak_vaes_ghash_key *g = vaes_ghash_key_w(gk);
    __m128i h = _mm_shuffle_epi8(x_load(H), x_bswap_mask());
    /* K_1 = r(H) << 1, folding the pushed-out x^0 back as x^-1 (section 3);
     * the carry is an arithmetic-shift mask, not a branch. */
    __m128i carry = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
    __m128i sh = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    __m128i k1 = _mm_xor_si128(sh, _mm_and_si128(carry, _mm_set_epi64x((long long)0xc200000000000000ULL, 1)));
    memset(gk->data, 0, sizeof gk->data);
    /* K_1..K_4 in turn, then four independent chains K_{j+4} = K_j * K_4
     * (x_gmul(K_a, K_b) = K_{a+b}): a quarter of one chain's latency. */
    __m128i kc[4];
    kc[0] = k1;
    for (int l = 1; l < 4; l++)
        kc[l] = x_gmul(kc[l - 1], k1);
    const __m128i k4 = kc[3];
    for (int j = 1; j <= NPOW; j += 4) {
        for (int l = 0; l < 4; l++) {
            x_store(g->pow[NPOW - j - l], kc[l]);
            if (j + 4 <= NPOW)
                kc[l] = x_gmul(kc[l], k4);
        }
    }
#if AK_KARATSUBA
    for (int e = 0; e < NPOW; e++) {
        __m128i k = x_load(g->pow[e]);
        __m128i kn = e + 2 < NPOW ? x_load(g->pow[e + 2]) : _mm_setzero_si128();
        __m128i kk = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));
        __m128i kkn = _mm_xor_si128(kn, _mm_shuffle_epi32(kn, 0x4e));
        x_store(g->kk[e], _mm_unpacklo_epi64(kk, kkn));
    }
#else
    /* quad[j] = K_{2*BATCH + AK_LANES*(2*NV - j)}: copied from pow while
     * the exponent is within NPOW, then two interleaved chains stepping by
     * K_{2*AK_LANES} (quad[j] = quad[j + 2] * K_{2*AK_LANES}) */
    const __m128i k2 = x_load(vaes_gh_pow(g, 2 * AK_LANES));
    for (int j = 2 * NV - 1; j >= 0; j--) {
        const int e = 2 * BATCH + AK_LANES * (2 * NV - j);
        if (e <= NPOW)
            x_store(g->quad[j], x_load(vaes_gh_pow(g, (size_t)e)));
        else
            x_store(g->quad[j], x_gmul(x_load(g->quad[j + 2]), k2));
    }
    g->kara = (ak_cpu_features() & AK_CPU_KARA512) != 0;
#endif
}

/* ---- GHASH over whole blocks -------------------------------------------- */

/* Folds nb blocks into Y (register form); one reduction per NVG vectors;
 * kara (a compile-time constant): the products' form. */
VAES_INLINE __m128i vaes_ghash_blocks_form(const ak_vaes_ghash_key *g, __m128i Y, const uint8_t *in, size_t nb,
                                           const int kara)
{
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    while (nb) {
        size_t m = nb < (NVG * AK_LANES) ? nb : (NVG * AK_LANES);
        const uint8_t *pw = vaes_gh_pow(g, m);
        gacc a;
        vaes_gacc_zero(&a);
        if (m == NVG * AK_LANES) {
            _Pragma("GCC unroll 16")
            for (int j = 0; j < NVG; j++) {
                vec_t x = v_shuffle8(v_loadu(in + VB * j), bsw);
                if (j == 0)
                    x = v_xor(x, v_zext(Y));
                vaes_gacc_mul_sel(&a, x, pw + VB * j, kara);
            }
        } else {
            for (int j = 0; j < NVG && (size_t)j * AK_LANES < m; j++) {
                vec_t x = v_shuffle8(v_load_window(in, (ptrdiff_t)(VB * j), 16 * m), bsw);
                if (j == 0)
                    x = v_xor(x, v_zext(Y));
                vaes_gacc_mul_sel(&a, x, pw + VB * j, kara);
            }
        }
        Y = vaes_gacc_reduce_sel(a, kara);
        nb -= m;
        in += 16 * m;
    }
    return Y;
}

/* vaes_ghash_blocks_form in the CPU's form, chosen once per call, not per
 * product (see "Karatsuba on the schoolbook key"). */
VAES_INLINE __m128i vaes_ghash_blocks(const ak_vaes_ghash_key *g, __m128i Y, const uint8_t *in, size_t nb)
{
    if (vaes_gh_kara(g))
        return vaes_ghash_blocks_form(g, Y, in, nb, 1);
    return vaes_ghash_blocks_form(g, Y, in, nb, 0);
}

/* The ghash primitive: Y = GHASH_H(Y, in), Y in the byte order of SP 800-38D. */
VAES_INLINE void vaes_ghash(const ak_ghash *gk, uint8_t Y[16], const uint8_t *in, size_t nb)
{
    __m128i y = _mm_shuffle_epi8(x_load(Y), x_bswap_mask());
    y = vaes_ghash_blocks(vaes_ghash_key(gk), y, in, nb);
    x_store(Y, _mm_shuffle_epi8(y, x_bswap_mask()));
}
