/*
 * vaes_gcm_bulk.h - the x86-vaes fused GCM loop: AES-CTR of one batch
 * stitched with the GHASH of another, for the streaming gcm_encrypt /
 * gcm_decrypt primitives and for whole messages longer than a batch
 * (vaes_gcm_long, called by vaes_gcm_small.h's dispatch).
 *
 * CPU features: VAES, VPCLMULQDQ, AVX2; on zmm AVX-512 F/BW/VL (AK_TGT of
 * the width file).  Needs vaes_aes.h, vaes_ghash.h (the math, the key
 * formats) and vaes_block.h (gctr).
 *
 * The loop steps, in the order one iteration runs them:
 * vaes_gcm_ctr_next (the batch's counter blocks), vaes_gcm_dec_load_4x
 * (opening: the ciphertext, which is also the GHASH input), vaes_gcm_stitch
 * (AES rounds with the GHASH multiplies of the pending batch and, every
 * other batch, the reduction), vaes_gcm_enc_store_4x / vaes_gcm_dec_store_4x
 * (last round, store; sealing: the ciphertext becomes the next GHASH input).
 */

/* ---- public counters (96-bit IV) ---------------------------------------- */

/* GCM counters when they are PUBLIC: only the whole-message path with a
 * 96-bit IV (vaes_gcm_long), where J0 = IV || 1 and the first data counter
 * is IV || 2 (SP 800-38D 7.1 step 2).  Never for the streaming API, whose
 * J0 may be GHASH_H(IV): the branches below read the counter value.
 *
 * A batch's counters are n + i, i < BATCH, with n = 2 (mod BATCH).  Write
 * n - 2 = h, a multiple of BATCH.  While the low byte of h is at most
 * 256 - 2*BATCH, no counter of the batch carries out of byte 15, and the
 * low byte of n + i is (h + BATCH*c_i) XOR t_i, where c_i = (2+i) >= BATCH
 * and t_i = (2+i) mod BATCH: the low bits of h + BATCH*c_i are zero.  So
 * with G = the block of h (big-endian, as AES takes it) and the constant
 * vectors T_j = t (per lane, byte 15), a batch's first-round inputs are
 * (K0 XOR G) XOR T_j, or K0 XOR (G + BATCH*c) XOR T_j in the one vector
 * holding the carried lanes, and G advances by BATCH in byte 15 (a 32-bit
 * add on the last dword, whose top byte is byte 15): about 1.5 vector
 * operations per vector instead of 3 (add, vpshufb, XOR).  Once in
 * 256/BATCH batches the low byte is too large: that batch is formed the
 * register-form way and G is recomputed from the scalar counter (a full
 * inc32, carries and the 2^32 wrap included). */
#define CT_LANE(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)((2 + (m)) & (BATCH - 1))
#define CT_CY(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)((2 + (m)) >= BATCH ? BATCH : 0)
#define CT_ST 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, BATCH
#if AK_LANES == 4
static const uint8_t vaes_gctrp_tab[NV + 2][VB] __attribute__((aligned(64))) = {
    {CT_LANE(0), CT_LANE(1), CT_LANE(2), CT_LANE(3)},
    {CT_LANE(4), CT_LANE(5), CT_LANE(6), CT_LANE(7)},
    {CT_LANE(8), CT_LANE(9), CT_LANE(10), CT_LANE(11)},
    {CT_LANE(12), CT_LANE(13), CT_LANE(14), CT_LANE(15)},
    {CT_CY(12), CT_CY(13), CT_CY(14), CT_CY(15)},
    {CT_ST, CT_ST, CT_ST, CT_ST},
};
#elif AK_LANES == 2
static const uint8_t vaes_gctrp_tab[NV + 2][VB] __attribute__((aligned(32))) = {
    {CT_LANE(0), CT_LANE(1)}, {CT_LANE(2), CT_LANE(3)}, {CT_LANE(4), CT_LANE(5)},
    {CT_LANE(6), CT_LANE(7)}, {CT_CY(6), CT_CY(7)},     {CT_ST, CT_ST},
};
#else
#error "vaes_gctrp_tab: AK_LANES must be 2 or 4"
#endif
#undef CT_LANE
#undef CT_CY
#undef CT_ST
/* Only the last vector holds carried lanes (2 + i >= BATCH for i >= BATCH-2). */
_Static_assert(AK_LANES >= 2, "the carried lanes fit in the last vector");

/* The constants T_j (vaes_gctrp_tab rows 0..NV-1) and the carry and step
 * rows (NV, NV + 1) stay in memory, read as operands where they are used,
 * so that the state holds no vector but G: the bulk loop needs its
 * registers for the batches and the GHASH sums. */
typedef struct {
    vec_t g;      /* block of the next batch's h, big-endian lanes */
    __m128i base; /* the entry counter, register form (upper 96 bits) */
    uint32_t c;   /* low word of the next batch's first counter */
    int lim;      /* fast batch iff (c & 0xff) <= lim; -1: never */
} gctrp;

VAES_INLINE __m128i vaes_gctrp_be(const gctrp *s, uint32_t w)
{
    return _mm_shuffle_epi8(_mm_insert_epi32(s->base, (int)w, 0), x_bswap_mask());
}

VAES_INLINE void vaes_gctrp_init(gctrp *s, __m128i le0)
{
    s->base = le0;
    s->c = (uint32_t)_mm_cvtsi128_si32(le0);
    s->lim = (s->c & (BATCH - 1)) == 2 ? 258 - 2 * BATCH : -1;
    /* = v_bcast_x(vaes_gctrp_be(s, s->c - 2)), in the order with the
     * shorter latency to the first batch (the small messages wait for it) */
    s->g = v_shuffle8(v_add32(v_bcast_x(le0), v_bcast_x(_mm_set_epi32(0, 0, 0, -2))), v_bcast_x(x_bswap_mask()));
}

/* A defined state for paths that never set up the public form (it is not
 * read there; this keeps the compiler's uninitialised-use analysis quiet). */
VAES_INLINE void vaes_gctrp_off(gctrp *s)
{
    s->g = v_zero();
    s->base = _mm_setzero_si128();
    s->c = 0;
    s->lim = -1;
}

/* The register-form counter of the next batch. */
VAES_INLINE __m128i vaes_gctrp_le(const gctrp *s) { return _mm_insert_epi32(s->base, (int)s->c, 0); }

VAES_INLINE void vaes_gctrp_next_4x(vec_t *x, gctrp *s, const vec_t *K, vec_t bsw, vec_t step)
{
    if (__builtin_expect((int)(s->c & 0xff) <= s->lim, 1)) {
        const vec_t kg = v_xor(K[0], s->g);
        for (int j = 0; j < NV - 1; j++)
            x[j] = v_xor(kg, v_loadu(vaes_gctrp_tab[j]));
        x[NV - 1] = v_xor(v_xor(K[0], v_add32(s->g, v_loadu(vaes_gctrp_tab[NV]))), v_loadu(vaes_gctrp_tab[NV - 1]));
        s->g = v_add32(s->g, v_loadu(vaes_gctrp_tab[NV + 1]));
    } else {
        gctr t;
        vaes_gctr_init(&t, vaes_gctrp_le(s));
        vaes_ctr_next_4x(x, &t, K, bsw, step);
        s->g = v_bcast_x(vaes_gctrp_be(s, s->c + BATCH - 2));
    }
    s->c += BATCH;
}

/* Batches a seal runs at lag two (vaes_gcm_enc_fold4_lag2) when it would
 * run at least this many after the first.  Two batches run without a
 * partner (vaes_gcm_lag2_start and vaes_gcm_lag2_end), which costs about
 * what lag two saves on four to eight batches (docs/performance.md,
 * "Sealing at lag two"). */
#define VAES_GCM_LAG2_MIN 16
/* Seals longer than this many bytes (more than VAES_GCM_LAG2_MIN batches)
 * go to the lag-two kernels, vaes_gcm_long_seal_msg and
 * vaes_gcm_chain_long_seal_lag2. */
#define VAES_GCM_LAG2_LEN (16 * BATCH * VAES_GCM_LAG2_MIN)

/* ---- loop steps --------------------------------------------------------- */

/* The next batch's counter blocks (XOR K[0]): the public form while a run
 * of the bulk loop has it set up (pub, a compile-time constant), else the
 * register form. */
VAES_INLINE void vaes_gcm_ctr_next(vec_t *x, gctr *cv, gctrp *cp, const vec_t *K, vec_t bsw, vec_t step,
                                   const int pub)
{
    if (pub)
        vaes_gctrp_next_4x(x, cp, K, bsw, step);
    else
        vaes_ctr_next_4x(x, cv, K, bsw, step);
}

/* Before a run of at least two batches: the public counter form, if pub;
 * returns whether it is on (vaes_gcm_pub_off brings cv up to date).  Set
 * up only for such runs: for one batch its set-up costs more than it saves
 * (docs/performance.md, "Measurements behind the code"). */
VAES_INLINE int vaes_gcm_pub_on(gctrp *cp, const gctr *cv, size_t len, const int pub)
{
    if (pub && len >= 2 * 16 * BATCH) {
        vaes_gctrp_init(cp, v_low128(cv->le));
        return 1;
    }
    vaes_gctrp_off(cp);
    return 0;
}

VAES_INLINE void vaes_gcm_pub_off(gctr *cv, const gctrp *cp, int *pon, const int pub)
{
    if (pub && *pon) {
        vaes_gctr_init(cv, vaes_gctrp_le(cp));
        *pon = 0;
    }
}

/* Sealing: last round with the plaintext as the key's XOR, store; the
 * ciphertext in register form becomes the next GHASH input p. */
VAES_INLINE void vaes_gcm_enc_store_4x(vec_t *x, vec_t *p, vec_t klast, const uint8_t *in, uint8_t *out, vec_t bsw)
{
    for (int j = 0; j < NV; j++) {
        x[j] = v_enclast(x[j], v_xor(klast, v_loadu(in + VB * j)));
        v_storeu(out + VB * j, x[j]);
        p[j] = v_shuffle8(x[j], bsw);
    }
}

/* Opening: the ciphertext in register form, the GHASH input p.  The
 * ciphertext itself is not held through the rounds (four registers the
 * rounds need; on ymm, with 16, the compiler moves it to the stack frame):
 * vaes_gcm_dec_store_4x reads it again, an L1 hit folded into its XOR. */
VAES_INLINE void vaes_gcm_dec_load_4x(vec_t *p, const uint8_t *in, vec_t bsw)
{
    for (int j = 0; j < NV; j++)
        p[j] = v_shuffle8(v_loadu(in + VB * j), bsw);
}

/* The last round with the ciphertext at in as the key's XOR, store.  Vector
 * j reads in before it writes out at the same offset, so in == out works. */
VAES_INLINE void vaes_gcm_dec_store_4x(vec_t *x, vec_t klast, const uint8_t *in, uint8_t *out)
{
    for (int j = 0; j < NV; j++) {
        x[j] = v_enclast(x[j], v_xor(klast, v_loadu(in + VB * j)));
        v_storeu(out + VB * j, x[j]);
    }
}

/* One stitched batch: AES rounds 1..R-1 on x (already XORed with K[0]),
 * with the NV GHASH multiplies of p against the powers at pw (vector j's
 * at pw + pstep*j: pstep = VB in the descending table, 16 in quad), p[0]
 * (which carries the state) last; `first` starts the sums in *a; if red,
 * the reduction follows, into *yv (lanes unsummed); uni: lane-scaled
 * powers (see vaes_gcm_body).  For 10 rounds the GHASH work sits in the
 * LAST rounds in program order: the scheduler then holds the batch's early
 * AES rounds instead of multiplies still waiting for their inputs (for
 * sealing, p is the previous batch's ciphertext, ready only at its last
 * round).  For 12 and 14 rounds the work sits around the middle (the zmm
 * pairs after rounds R/2 - 2 and R/2 + 2, the ymm vectors after R/2 - 3,
 * R/2 - 1, R/2 + 1 and R/2 + 3): the longer batch leaves enough AES work
 * behind it, and the late spots left the multiplies queued behind the
 * rounds.  The placements tried: docs/performance.md,
 * "Measurements behind the code". */
VAES_INLINE void vaes_gcm_stitch(vec_t *x, const vec_t *K, const vec_t *p, const uint8_t *pw, const int pstep, gacc *a,
                                 vec_t *yv, const int first, const int red, const int uni, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        vaes_aes_round_4x(x, K[r]);
#if AK_KARATSUBA
        /* ymm: one vector's multiplies after each of rounds
         * and R-2 (10 rounds; for 12 and 14 two rounds apart around the
         * middle, R/2-3 .. R/2+3, as the zmm pairs below) instead of two
         * vectors' after.  Without vpternlogd the pairing
         * saves no XOR, and smaller groups between the rounds keep the
         * scheduler from running out of AES work while a burst of six
         * multiplies and their XORs waits for port 5 (the schedules tried:
         * docs/performance.md, "Measurements behind the code").
         * vaes_gacc_mid2 takes the half-sums of two vectors one
         * apart from one entry, so pstep is VB here.  The sums are pinned
         * after each group but the last (vaes_gacc_pin; the first group
         * forms lo and hi only): with 16 ymm registers, products held for
         * one XOR tree at the end would go to the stack.  zmm, with 32,
         * does not pin. */
        if (r == (R == 10 ? R - 7 : R / 2 - 3)) {
            vaes_gacc_lohi(a, p[3], pw + pstep * 3, first, uni);
            vaes_gacc_pin_lohi(a);
        }
        if (r == (R == 10 ? R - 5 : R / 2 - 1)) {
            vaes_gacc_lohi(a, p[2], pw + pstep * 2, GACC_ADD, uni);
            vaes_gacc_mid2(a, p[2], p[3], pw + pstep * 2, first, uni);
            vaes_gacc_pin(a);
        }
        if (r == (R == 10 ? R - 3 : R / 2 + 1)) {
            vaes_gacc_lohi(a, p[1], pw + pstep * 1, GACC_ADD, uni);
            vaes_gacc_pin(a);
        }
        if (r == (R == 10 ? R - 2 : R / 2 + 3)) {
            vaes_gacc_lohi(a, p[0], pw, GACC_ADD, uni);
            vaes_gacc_mid2(a, p[0], p[1], pw, GACC_ADD, uni);
        }
#else
        if (r == (R == 10 ? R - 5 : R / 2 - 2))
            vaes_gacc_mul2(a, p[3], pw + pstep * 3, p[2], pw + pstep * 2, first, uni);
        if (r == (R == 10 ? R - 2 : R / 2 + 2))
            vaes_gacc_mul2(a, p[1], pw + pstep * 1, p[0], pw, GACC_ADD, uni);
#endif
        if (red && r == R - 1)
            *yv = vaes_gacc_reduce_v(*a);
    }
}

/* The GHASH products of vaes_gcm_stitch for one batch p without AES
 * rounds beside them, then the reduction into *yv. */
VAES_INLINE void vaes_gcm_hash_batch(const vec_t *p, const uint8_t *pw, const int pstep, gacc *a, vec_t *yv,
                                     const int first, const int uni)
{
#if AK_KARATSUBA
    vaes_gacc_lohi(a, p[3], pw + pstep * 3, first, uni);
    vaes_gacc_lohi(a, p[2], pw + pstep * 2, GACC_ADD, uni);
    vaes_gacc_mid2(a, p[2], p[3], pw + pstep * 2, first, uni);
    vaes_gacc_lohi(a, p[1], pw + pstep * 1, GACC_ADD, uni);
    vaes_gacc_lohi(a, p[0], pw, GACC_ADD, uni);
    vaes_gacc_mid2(a, p[0], p[1], pw, GACC_ADD, uni);
#else
    vaes_gacc_mul2(a, p[3], pw + pstep * 3, p[2], pw + pstep * 2, first, uni);
    vaes_gacc_mul2(a, p[1], pw + pstep * 1, p[0], pw, GACC_ADD, uni);
#endif
    *yv = vaes_gacc_reduce_v(*a);
}

/* Sealing at lag two: a batch's rounds alone (it and the batch before it
 * wait unhashed), see vaes_gcm_enc_fold4_lag2 and vaes_gcm_body. */
VAES_INLINE void vaes_gcm_lag2_start(vec_t *x, gctr *cv, gctrp *cp, const vec_t *K, const uint8_t *in, uint8_t *out,
                                     vec_t bsw, vec_t step, const int pub, const int R)
{
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++)
        vaes_aes_round_4x(x, K[r]);
    vaes_gcm_dec_store_4x(x, K[R], in, out);
}

/* Sealing back from lag two to lag one: the batch two behind out hashed
 * alone (lane-scaled, powers H^BATCH..), the one behind reloaded into p. */
VAES_INLINE void vaes_gcm_lag2_end(vec_t *p, gacc *a, vec_t *yv, const uint8_t *pwb, const uint8_t *out, vec_t bsw)
{
    vaes_gcm_dec_load_4x(p, out - 2 * 16 * BATCH, bsw);
    p[0] = v_xor(p[0], *yv);
    vaes_gcm_hash_batch(p, pwb, VB, a, yv, GACC_FIRST, POW_LANE_SCALED);
    vaes_gcm_dec_load_4x(p, out - 16 * BATCH, bsw);
}

/* Sealing at lag two, one batch: its AES with the products of the
 * ciphertext two batches behind it (at out - 2 * 16 * BATCH, reloaded),
 * powers at pw (stride pstep); `first` folds the state yv in and starts the
 * sums, `red` ends with the reduction. */
VAES_INLINE void vaes_gcm_lag2_step(vec_t *x, vec_t *p, gacc *a, vec_t *yv, gctr *cv, gctrp *cp, const vec_t *K,
                                    const uint8_t *pw, const int pstep, const uint8_t *in, uint8_t *out, vec_t bsw,
                                    vec_t step, const int first, const int red, const int pub, const int R)
{
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    vaes_gcm_dec_load_4x(p, out - 2 * 16 * BATCH, bsw);
    if (first)
        p[0] = v_xor(p[0], *yv);
    vaes_gcm_stitch(x, K, p, pw, pstep, a, yv, first, red, POW_LANE_SCALED, R);
    vaes_gcm_dec_store_4x(x, K[R], in, out);
}

/* Sealing at lag two, the two batches of one fold (powers H^(2*BATCH)..,
 * H^BATCH..). */
VAES_INLINE void vaes_gcm_enc_fold2_lag2(vec_t *x, vec_t *p, gacc *a, vec_t *yv, gctr *cv, gctrp *cp, const vec_t *K,
                                         const uint8_t *pw2, const uint8_t *pwb, const uint8_t *in, uint8_t *out,
                                         vec_t bsw, vec_t step, const int pub, const int R)
{
    const size_t B = 16 * BATCH;
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, pw2, VB, in, out, bsw, step, GACC_FIRST, GACC_KEEP, pub, R);
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, pwb, VB, in + B, out + B, bsw, step, GACC_ADD, GACC_REDUCE, pub, R);
}

/* Opening, two batches: the first folds p[0] ^ yv if `first` (with the
 * powers at pw0), the second ends with the reduction if `red` (pw1). */
VAES_INLINE void vaes_gcm_dec_pair(vec_t *x, vec_t *p, const vec_t *K, gctr *cv, gctrp *cp, vec_t bsw,
                                   vec_t step, const uint8_t *in, uint8_t *out, const uint8_t *pw0, const uint8_t *pw1,
                                   const int pstep, gacc *a, vec_t *yv, const int first, const int red, const int uni,
                                   const int pub, const int R)
{
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    vaes_gcm_dec_load_4x(p, in, bsw);
    if (first)
        p[0] = v_xor(p[0], *yv);
    vaes_gcm_stitch(x, K, p, pw0, pstep, a, yv, first, GACC_KEEP, uni, R);
    vaes_gcm_dec_store_4x(x, K[R], in, out);
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    vaes_gcm_dec_load_4x(p, in + 16 * BATCH, bsw);
    vaes_gcm_stitch(x, K, p, pw1, pstep, a, yv, GACC_ADD, red, uni, R);
    vaes_gcm_dec_store_4x(x, K[R], in + 16 * BATCH, out + 16 * BATCH);
}

#if !AK_KARATSUBA
/* Sealing, zmm: the last three batches of a lane-scaled four-batch fold
 * (powers quad[NV], then H^(2*BATCH).., then H^BATCH..), each hashing the
 * batch before it (p) while encrypting the next, ending with the
 * reduction into *yv; first: they open the sums (a fold of three batches,
 * yv entering with the first), else they add to a fold's first batch. */
VAES_INLINE void vaes_gcm_enc_fold3(vec_t *x, vec_t *p, gacc *a, vec_t *yv, gctr *cv, gctrp *cp, const vec_t *K,
                                    const ak_vaes_ghash_key *g, const uint8_t *in, uint8_t *out, vec_t bsw,
                                    vec_t step, const int first, const int pub, const int R)
{
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    if (first)
        p[0] = v_xor(p[0], *yv);
    vaes_gcm_stitch(x, K, p, g->quad[NV], 16, a, yv, first, GACC_KEEP, POW_LANE_SCALED, R);
    vaes_gcm_enc_store_4x(x, p, K[R], in, out, bsw);
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    vaes_gcm_stitch(x, K, p, vaes_gh_pow(g, 2 * BATCH), VB, a, yv, GACC_ADD, GACC_KEEP, POW_LANE_SCALED, R);
    vaes_gcm_enc_store_4x(x, p, K[R], in + 16 * BATCH, out + 16 * BATCH, bsw);
    vaes_gcm_ctr_next(x, cv, cp, K, bsw, step, pub);
    vaes_gcm_stitch(x, K, p, vaes_gh_pow(g, BATCH), VB, a, yv, GACC_ADD, GACC_REDUCE, POW_LANE_SCALED, R);
    vaes_gcm_enc_store_4x(x, p, K[R], in + 2 * 16 * BATCH, out + 2 * 16 * BATCH, bsw);
}

/* Sealing at lag two, zmm: one four-batch fold (the powers of the fold
 * above: quad[0], quad[NV], H^(2*BATCH).., H^BATCH..) whose batches are
 * the ciphertexts two batches behind the AES: batch b of the four hashes
 * the ciphertext at out - 2 batches + b, reloaded (written a batch ago)
 * while the AES runs batch b.  At lag one a batch's products wait for the
 * previous batch's last round; at lag two their input is ready before the
 * batch starts (docs/performance.md, "Sealing at lag two").  Each batch's
 * store reads in before it writes out at the same offset, and the reload
 * reads only out's bytes behind the current batch, so in == out works. */
VAES_INLINE void vaes_gcm_enc_fold4_lag2(vec_t *x, vec_t *p, gacc *a, vec_t *yv, gctr *cv, gctrp *cp, const vec_t *K,
                                         const ak_vaes_ghash_key *g, const uint8_t *in, uint8_t *out, vec_t bsw,
                                         vec_t step, const int pub, const int R)
{
    const size_t B = 16 * BATCH;
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, g->quad[0], 16, in, out, bsw, step, GACC_FIRST, GACC_KEEP, pub, R);
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, g->quad[NV], 16, in + B, out + B, bsw, step, GACC_ADD, GACC_KEEP, pub,
                       R);
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, vaes_gh_pow(g, 2 * BATCH), VB, in + 2 * B, out + 2 * B, bsw, step,
                       GACC_ADD, GACC_KEEP, pub, R);
    vaes_gcm_lag2_step(x, p, a, yv, cv, cp, K, vaes_gh_pow(g, BATCH), VB, in + 3 * B, out + 3 * B, bsw, step, GACC_ADD,
                       GACC_REDUCE, pub, R);
}
#endif

/* ---- the link between two messages of a chain ---------------------------
 *
 * A message ends with products only: its last batch's and its tail's
 * (and the length block's), then one reduction, the AES unit idle; the
 * next message starts with rounds only (sealing: its first batch's;
 * opening: its tail's keystream, vaes_gcm_tail_ks_n).  Issued one after
 * the other they do not overlap: the scheduler fills with multiplies
 * waiting on one another before the next message's rounds are decoded
 * (measured: docs/performance.md, "Zen 4: long messages in a batch as a
 * chain").  A chain of messages
 * (vaes_gcm_chain_long.h) therefore interleaves them: vaes_gcm_body with a
 * link (ch non-NULL) leaves its last products in the link and runs the
 * waiting message's products, reduction and tag with its own first
 * rounds.  Sealing also encrypts its tail beside its last batch's
 * products (vaes_gcm_link_tail), so that only the tail's wait. */
typedef struct {
    /* the waiting message's hash inputs in register form: vector j takes
     * the powers at pw + VB * j (vaes_gcm_body's tail fold: the pending
     * batch with p[0] holding the state, then the tail and the length
     * block, zero past them; the table is descending, so the tail's
     * powers follow the batch's) */
    vec_t pt[2 * NV];
    int np;            /* vectors of pt in use, 1 .. 2 * NV */
    const uint8_t *pw;
    gacc a;            /* the sums of its products formed already */
    int live;          /* a message waits */
    __m128i e;         /* its E_K(J0) */
    uint8_t *tag;      /* and where its tag goes */
} vaes_gcm_link;

/* The waiting message's products, reduction and tag (SP 800-38D 7.1
 * step 6) alone. */
VAES_INLINE void vaes_gcm_link_flush(vaes_gcm_link *ch)
{
    _Pragma("GCC unroll 8")
    for (int j = 0; j < 2 * NV; j++)
        if (j < ch->np)
            vaes_gacc_mul(&ch->a, ch->pt[j], ch->pw + VB * j);
    x_store(ch->tag, _mm_xor_si128(_mm_shuffle_epi8(vaes_gacc_reduce(ch->a), x_bswap_mask()), ch->e));
    ch->live = 0;
}

/* Rounds 1 .. R - 1 of NX vectors (x: blocks XOR K0) with the waiting
 * message's products, vector j's after round 1 + j (pt is ready long
 * before: no reason to wait), then its reduction and tag; the caller
 * runs the last round. */
VAES_INLINE void vaes_gcm_link_rounds(vec_t *x, const vec_t *K, vaes_gcm_link *ch, const int NX, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NX; j++)
            x[j] = v_enc(x[j], K[r]);
        if (r - 1 < 2 * NV && r - 1 < ch->np)
            vaes_gacc_mul(&ch->a, ch->pt[r - 1], ch->pw + VB * (r - 1));
    }
    _Static_assert(2 * NV <= 9, "every product of the link before round 10");
    x_store(ch->tag, _mm_xor_si128(_mm_shuffle_epi8(vaes_gacc_reduce(ch->a), x_bswap_mask()), ch->e));
    ch->live = 0;
}

/* A sealed message's end when its tail has blocks (nt >= 1, len < 16 *
 * BATCH bytes, NVT = ceil(nt / AK_LANES) vectors, counters from cv): the
 * tail encrypted with the last batch's products (p, p[0] already holding
 * the state) against the powers at pp, as vaes_gcm_stitch places them;
 * the tail's ciphertext and the length block lb wait in ch->pt, zero past
 * them, with the powers at pw = K_(nt+1).. (vaes_gcm_body's tail layout).
 * A tail of nt = BATCH blocks leaves no lane for lb (and on zmm the fold
 * would need powers past NPOW): there the batch's products (pp =
 * K_BATCH..) are reduced at once, the state enters the tail's first
 * block, and lb waits alone in vector NV (lane 0, the power K_1 after the
 * tail's).  A whole batch lies behind in and out. */
VAES_INLINE void vaes_gcm_link_tail(vaes_gcm_link *ch, const vec_t *p, const uint8_t *pp, const uint8_t *pw, gctr *cv,
                                    const vec_t *K, vec_t bsw, vec_t step, const uint8_t *in, uint8_t *out, size_t len,
                                    size_t nt, __m128i lb, const int NVT, const int R)
{
    vec_t x[NV];
    vaes_ctr_next_4x(x, cv, K, bsw, step);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVT; j++)
            x[j] = v_enc(x[j], K[r]);
        if (r == R - 5)
            vaes_gacc_mul2(&ch->a, p[3], pp + VB * 3, p[2], pp + VB * 2, GACC_FIRST, POW_DESCENDING);
        if (r == R - 2)
            vaes_gacc_mul2(&ch->a, p[1], pp + VB, p[0], pp, GACC_ADD, POW_DESCENDING);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NV; j++) {
        if (j < NVT) {
            wmask_t m = v_wmask((ptrdiff_t)(VB * j), len);
            vec_t d = v_load_w_behind(in + VB * j, m);
            vec_t c = v_enclast(x[j], v_xor(K[R], d));
            v_store_w_behind(out + VB * j, m, c);
            ch->pt[j] = v_shuffle8(v_and_w(c, m), bsw);
        } else {
            ch->pt[j] = v_zero();
        }
        if ((size_t)j == nt / AK_LANES)
            ch->pt[j] = v_xor(ch->pt[j], v_lane_select(v_bcast_x(lb), (ptrdiff_t)nt - AK_LANES * j));
    }
    ch->np = (int)((nt + AK_LANES) / AK_LANES);
    if (nt == BATCH) {
        ch->pt[0] = v_xor(ch->pt[0], v_zext(vaes_gacc_reduce(ch->a)));
        ch->pt[NV] = v_zext(lb);
        vaes_gacc_zero(&ch->a);
    }
    ch->pw = pw;
    ch->live = 1;
}

/* ---- the tail ----------------------------------------------------------- */

/* The tail's AES: only the NVT vectors that hold data, one window mask per
 * vector; p receives the ciphertext in register form, zero past the end. */
VAES_INLINE void vaes_gcm_tail_aes_n(vec_t *p, gctr *cv, const vec_t *K, vec_t bsw, vec_t step, const uint8_t *in,
                                     uint8_t *out, size_t len, int enc, const int NVT, const int R)
{
    wmask_t m[NV];
    vec_t x[NV], d[NV];
    vaes_ctr_next_4x(x, cv, K, bsw, step);
    for (int j = 0; j < NVT; j++) {
        m[j] = v_wmask((ptrdiff_t)(VB * j), len);
        d[j] = v_load_w(in, (ptrdiff_t)(VB * j), m[j]);
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVT; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    for (int j = 0; j < NVT; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        v_store_w(out, (ptrdiff_t)(VB * j), m[j], x[j]);
        p[j] = v_shuffle8(enc ? v_and_w(x[j], m[j]) : d[j], bsw);
    }
    for (int j = NVT; j < NV; j++)
        p[j] = v_zero();
}

/* The tail's keystream (NVT vectors from the register-form counter le0),
 * into ks.  vaes_gcm_body computes it before the bulk when a bulk precedes
 * the tail: issued last, the tail's ten dependent rounds started only once
 * the last batch had drained the AES unit (the scheduler serves the oldest
 * ready instruction first), and their latency showed at the end of every
 * message that does not end on a batch boundary.  With a waiting message
 * (ch, an opened message's chain) its rounds run that message's products
 * (vaes_gcm_link_rounds). */
VAES_INLINE void vaes_gcm_tail_ks_n(uint8_t *ks, __m128i le0, const vec_t *K, vec_t bsw, vec_t step, vaes_gcm_link *ch,
                                    const int NVT, const int R)
{
    gctr c;
    vec_t x[NV], zero[NV];
    vaes_gctr_init(&c, le0);
    vaes_ctr_next_4x(x, &c, K, bsw, step);
    for (int j = 0; j < NV; j++)
        zero[j] = v_zero();
    if (ch && ch->live) {
        vaes_gcm_link_rounds(x, K, ch, NVT, R);
        for (int j = 0; j < NVT; j++)
            x[j] = v_enclast(x[j], K[R]);
    } else {
        vaes_aes_enc_n(x, K, zero, NVT, R);
    }
    for (int j = 0; j < NVT; j++)
        v_storeu(ks + VB * j, x[j]);
}

/* The tail from a precomputed keystream: as vaes_gcm_tail_aes_n after its
 * rounds.  A whole batch lies behind in and out, which the width file's
 * v_load_w_behind / v_store_w_behind may use. */
VAES_INLINE void vaes_gcm_tail_xor_n(vec_t *p, const uint8_t *ks, vec_t bsw, const uint8_t *in, uint8_t *out,
                                     size_t len, int enc, const int NVT)
{
    for (int j = 0; j < NVT; j++) {
        wmask_t m = v_wmask((ptrdiff_t)(VB * j), len);
        vec_t d = v_load_w_behind(in + VB * j, m);
        vec_t c = v_xor(v_loadu(ks + VB * j), d);
        v_store_w_behind(out + VB * j, m, c);
        p[j] = v_shuffle8(enc ? v_and_w(c, m) : d, bsw);
    }
    for (int j = NVT; j < NV; j++)
        p[j] = v_zero();
}

/* ---- the body ----------------------------------------------------------- */

/* Encrypts or decrypts `len` bytes (a partial last block allowed) with the
 * counters in *pc (register form, advanced by the blocks used) and folds the
 * ciphertext into *pY; if lenblk is non-NULL, the length block *lenblk
 * (register form) is folded in as well.  Encryption hashes the previous
 * batch while encrypting the next one; decryption hashes the batch it is
 * decrypting.  Two batches share one reduction (powers H^(2*BATCH)..H), on
 * zmm four while they last (quad), and the tail (< BATCH blocks, plus the
 * length block) is hashed with encryption's last batch in one more.
 * pub (a compile-time constant): the counters are public (see gctrp).
 *
 * The GHASH state between batches is a vector yv in "lane-scaled" form:
 * Y = sum over lanes l of y_l * H^-l.  It enters the next fold whole,
 * XORed into the first vector (lane l of a batch's first vector is its
 * block l).  In the steady-state loops every lane of pair vector j is
 * multiplied by the same power H^(2*BATCH - AK_LANES*j), the power of its
 * lane 0, which is H^l times the power block l of that vector needs
 * (vaes_ghash.h, section 6): the products, and so the reduced lanes, come
 * out scaled by H^l again, and no horizontal lane sum is needed between
 * pairs.  A fold with the ordinary descending powers (lane l of the first
 * vector times H^(n-l)) takes the scaled state and returns true partial
 * sums (their lane sum is Y): that ends every run of folds before anything
 * that needs Y itself.  y_0 = Y, y_l = 0 is valid. */
VAES_INLINE void vaes_gcm_body(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, uint8_t *out, const uint8_t *in,
                               size_t len, __m128i *pc, __m128i *pY, const __m128i *lenblk, int enc, const int pub,
                               const int R, vaes_gcm_link *ch, const int lag2, const int kara_ok)
{
    /* round keys as memory operands (vaes_enc_keys_mem): this body is
     * inlined with every size class and direction into one kernel, whose
     * registers go to the batches and the GHASH sums */
    const vec_t *K = vaes_enc_keys_mem(ks);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const vec_t step = v_lane_step();
    const uint8_t *pwb = vaes_gh_pow(g, BATCH), *pw2 = vaes_gh_pow(g, 2 * BATCH);
    gctr cv;
    gctrp cp;
    vaes_gctr_init(&cv, *pc);
    /* A tail behind at least one whole batch: its keystream first (see
     * vaes_gcm_tail_ks_n); it waits in ks_early, wiped after use. */
    const size_t tail_len = len % (16 * BATCH);
    const int early = (!ch || !enc) && len >= 16 * BATCH && tail_len != 0;
    AK_ALIGN64 uint8_t ks_early[16 * BATCH];
    if (early) {
        __m128i le = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)((len - tail_len) / 16)));
        switch (vaes_tail_vectors(tail_len)) {
        case 1: vaes_gcm_tail_ks_n(ks_early, le, K, bsw, step, ch, 1, R); break;
        case 2: vaes_gcm_tail_ks_n(ks_early, le, K, bsw, step, ch, 2, R); break;
        case 3: vaes_gcm_tail_ks_n(ks_early, le, K, bsw, step, ch, 3, R); break;
        default: vaes_gcm_tail_ks_n(ks_early, le, K, bsw, step, ch, 4, R); break;
        }
    }
    if (ch && ch->live && !enc && !early)
        vaes_gcm_link_flush(ch);
    cp.base = _mm_setzero_si128(); /* read only when pon (vaes_gcm_pub_off) */
    cp.c = 0;
    int pon = 0;
    __m128i Y = *pY;
    vec_t x[NV], p[NV];
    size_t nblk = (len + 15) / 16;
    int have_p = 0; /* a last full batch not hashed yet: sealing's, or opening's single */
    gacc a;
    vec_t yv = v_zext(Y);
    /* The closing GHASH products' form (vaes_ghash.h, "Karatsuba on the
     * schoolbook key"): Karatsuba where the caller compiled this body for a
     * CPU that wants it (kara_ok, a compile-time constant, as that section
     * requires), since they run with no AES beside them.  The fused loops
     * keep the schoolbook form, whose multiplies share the time with the
     * rounds (docs/performance.md, "Measurements behind the code"); so does
     * a link, whose products the next message's rounds finish in that form
     * (vaes_gcm_link_rounds).  Each reduction sums products of one form. */
    const int kara = kara_ok && !ch;

    if (enc && len >= 16 * BATCH) {
        /* the first batch's rounds alone (or with a waiting message's
         * products), its last round and stores as the loop's */
        vaes_ctr_next_4x(x, &cv, K, bsw, step);
        if (ch && ch->live) {
            vaes_gcm_link_rounds(x, K, ch, NV, R);
        } else {
            _Pragma("GCC unroll 14")
            for (int r = 1; r < R; r++)
                vaes_aes_round_4x(x, K[r]);
        }
        vaes_gcm_enc_store_4x(x, p, K[R], in, out, bsw);
        len -= 16 * BATCH;
        in += 16 * BATCH;
        out += 16 * BATCH;
        pon = vaes_gcm_pub_on(&cp, &cv, len, pub);
        /* Steady state: two batches per iteration and one reduction, the
         * loop body straight-line so the registers carried around it (p, yv,
         * counters) stay put.  The pending batch p is hashed by the tail
         * below with descending powers, so every fold here may be
         * lane-scaled. */
        /* Long seals at lag two (lag2, a compile-time constant: only
         * vaes_gcm_long_seal_msg has this code, whose registers would
         * cost the other sizes' kernels 1-3%): a second batch's rounds
         * alone, the folds of vaes_gcm_enc_fold4_lag2 (zmm) or
         * vaes_gcm_enc_fold2_lag2 (ymm), then vaes_gcm_lag2_end, which
         * leaves the loops below at lag one. */
        if (lag2 && len >= VAES_GCM_LAG2_MIN * 16 * BATCH) {
            vaes_gcm_lag2_start(x, &cv, &cp, K, in, out, bsw, step, pub, R);
            len -= 16 * BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
#if !AK_KARATSUBA
            do {
                vaes_gcm_enc_fold4_lag2(x, p, &a, &yv, &cv, &cp, K, g, in, out, bsw, step, pub, R);
                len -= 4 * 16 * BATCH;
                in += 4 * 16 * BATCH;
                out += 4 * 16 * BATCH;
            } while (len >= 4 * 16 * BATCH);
#else
            do {
                vaes_gcm_enc_fold2_lag2(x, p, &a, &yv, &cv, &cp, K, pw2, pwb, in, out, bsw, step, pub, R);
                len -= 2 * 16 * BATCH;
                in += 2 * 16 * BATCH;
                out += 2 * 16 * BATCH;
            } while (len >= 2 * 16 * BATCH);
#endif
            vaes_gcm_lag2_end(p, &a, &yv, pwb, out, bsw);
        }
#if !AK_KARATSUBA
        /* four batches per reduction while they last (powers H^(4*BATCH)..) */
        while (len >= 4 * 16 * BATCH) {
            vaes_gcm_ctr_next(x, &cv, &cp, K, bsw, step, pub);
            p[0] = v_xor(p[0], yv);
            vaes_gcm_stitch(x, K, p, g->quad[0], 16, &a, &yv, GACC_FIRST, GACC_KEEP, POW_LANE_SCALED, R);
            vaes_gcm_enc_store_4x(x, p, K[R], in, out, bsw);
            vaes_gcm_enc_fold3(x, p, &a, &yv, &cv, &cp, K, g, in + 16 * BATCH, out + 16 * BATCH, bsw, step, GACC_ADD,
                               pub, R);
            len -= 4 * 16 * BATCH;
            in += 4 * 16 * BATCH;
            out += 4 * 16 * BATCH;
        }
        /* three batches left: the last three steps of the four-batch
         * fold, one reduction for the three */
        if (__builtin_expect(len >= 3 * 16 * BATCH, 0)) {
            vaes_gcm_enc_fold3(x, p, &a, &yv, &cv, &cp, K, g, in, out, bsw, step, GACC_FIRST, pub, R);
            len -= 3 * 16 * BATCH;
            in += 3 * 16 * BATCH;
            out += 3 * 16 * BATCH;
        }
#endif
        while (len >= 2 * 16 * BATCH) {
            vaes_gcm_ctr_next(x, &cv, &cp, K, bsw, step, pub);
            p[0] = v_xor(p[0], yv);
            vaes_gcm_stitch(x, K, p, pw2, VB, &a, &yv, GACC_FIRST, GACC_KEEP, POW_LANE_SCALED, R);
            vaes_gcm_enc_store_4x(x, p, K[R], in, out, bsw);
            vaes_gcm_ctr_next(x, &cv, &cp, K, bsw, step, pub);
            vaes_gcm_stitch(x, K, p, pwb, VB, &a, &yv, GACC_ADD, GACC_REDUCE, POW_LANE_SCALED, R);
            vaes_gcm_enc_store_4x(x, p, K[R], in + 16 * BATCH, out + 16 * BATCH, bsw);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
        }
        vaes_gcm_pub_off(&cv, &cp, &pon, pub);
        if (len >= 16 * BATCH) {
            vaes_ctr_next_4x(x, &cv, K, bsw, step);
            p[0] = v_xor(p[0], yv);
            vaes_gcm_stitch(x, K, p, pwb, VB, &a, &yv, GACC_FIRST, GACC_REDUCE, POW_DESCENDING, R);
            vaes_gcm_enc_store_4x(x, p, K[R], in, out, bsw);
            yv = v_zext(v_hxor(yv)); /* true partials -> Y in lane 0 */
            len -= 16 * BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        }
        have_p = 1;
    } else if (!enc && len >= 16 * BATCH) {
        pon = vaes_gcm_pub_on(&cp, &cv, len, pub);
        /* lane-scaled while at least one more batch follows; the last one
         * or two batches fold with descending powers */
#if !AK_KARATSUBA
        while (len >= 5 * 16 * BATCH) {
            vaes_gcm_dec_pair(x, p, K, &cv, &cp, bsw, step, in, out, g->quad[0], g->quad[NV], 16, &a, &yv, GACC_FIRST,
                              GACC_KEEP, POW_LANE_SCALED, pub, R);
            vaes_gcm_dec_pair(x, p, K, &cv, &cp, bsw, step, in + 2 * 16 * BATCH, out + 2 * 16 * BATCH, pw2, pwb,
                              VB, &a, &yv, GACC_ADD, GACC_REDUCE, POW_LANE_SCALED, pub, R);
            len -= 4 * 16 * BATCH;
            in += 4 * 16 * BATCH;
            out += 4 * 16 * BATCH;
        }
#endif
        while (len >= 3 * 16 * BATCH) {
            vaes_gcm_dec_pair(x, p, K, &cv, &cp, bsw, step, in, out, pw2, pwb, VB, &a, &yv, GACC_FIRST, GACC_REDUCE,
                              POW_LANE_SCALED, pub, R);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
        }
        if (len >= 2 * 16 * BATCH) {
            vaes_gcm_dec_pair(x, p, K, &cv, &cp, bsw, step, in, out, pw2, pwb, VB, &a, &yv, GACC_FIRST, GACC_REDUCE,
                              POW_DESCENDING, pub, R);
            len -= 2 * 16 * BATCH;
            in += 2 * 16 * BATCH;
            out += 2 * 16 * BATCH;
        } else {
            /* one batch (after a run, in the public form; the tail syncs
             * cv): its rounds alone, its ciphertext left in p for the
             * tail's fold, as sealing's pending batch: one reduction for
             * it, the tail and the length block instead of two, and the
             * products need no AES result, so they run beside the rounds */
            if (pub && pon)
                vaes_gctrp_next_4x(x, &cp, K, bsw, step);
            else
                vaes_ctr_next_4x(x, &cv, K, bsw, step);
            vaes_gcm_dec_load_4x(p, in, bsw);
            _Pragma("GCC unroll 14")
            for (int r = 1; r < R; r++)
                vaes_aes_round_4x(x, K[r]);
            vaes_gcm_dec_store_4x(x, K[R], in, out);
            len -= 16 * BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
            have_p = 1;
        }
        if (!have_p)
            Y = v_hxor(yv);
    }

    /* Tail: len < 16*BATCH bytes and the optional length block, hashed
     * together with encryption's pending batch in one reduction when the
     * powers reach that far.  The length block goes in the lane after the
     * last data block, so it costs no multiply of its own. */
    size_t nt = (len + 15) / 16;
    size_t m = nt + (lenblk != NULL);
    /* Encryption's pending batch takes the (possibly lane-scaled) yv whole
     * and is always folded with descending powers; otherwise Y is exact. */
    if (ch && enc && have_p && nt) {
        /* a sealed link with a tail: at least one whole batch before it
         * (the chain's rule, so have_p), lenblk set */
        const uint8_t *pp = vaes_gh_pow(g, nt < BATCH ? m + BATCH : BATCH);
        p[0] = v_xor(p[0], yv);
        switch ((nt + AK_LANES - 1) / AK_LANES) {
        case 1: vaes_gcm_link_tail(ch, p, pp, vaes_gh_pow(g, m), &cv, K, bsw, step, in, out, len, nt, *lenblk, 1, R); break;
        case 2: vaes_gcm_link_tail(ch, p, pp, vaes_gh_pow(g, m), &cv, K, bsw, step, in, out, len, nt, *lenblk, 2, R); break;
        case 3: vaes_gcm_link_tail(ch, p, pp, vaes_gh_pow(g, m), &cv, K, bsw, step, in, out, len, nt, *lenblk, 3, R); break;
        default: vaes_gcm_link_tail(ch, p, pp, vaes_gh_pow(g, m), &cv, K, bsw, step, in, out, len, nt, *lenblk, 4, R); break;
        }
        *pc = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblk));
        return;
    }
    if (have_p && BATCH + m > NPOW) {
        p[0] = v_xor(p[0], yv);
        vaes_gacc_zero(&a);
        for (int j = 0; j < NV; j++)
            vaes_gacc_mul_sel(&a, p[j], pwb + VB * j, kara);
        Y = vaes_gacc_reduce_sel(a, kara);
        have_p = 0;
    }
    if (m || have_p) {
        __m128i yin = Y; /* goes into the first block hashed */
        vaes_gacc_zero(&a);
        if (have_p) {
            const uint8_t *pp = vaes_gh_pow(g, m + BATCH);
            p[0] = v_xor(p[0], yv);
            yin = _mm_setzero_si128();
            for (int j = 0; j < NV; j++) {
                if (ch)
                    ch->pt[j] = p[j];
                else
                    vaes_gacc_mul_sel(&a, p[j], pp + VB * j, kara);
            }
        }
        if (m) {
            const uint8_t *pw = vaes_gh_pow(g, m);
            if (nt && early) {
                switch (vaes_tail_vectors(len)) {
                case 1: vaes_gcm_tail_xor_n(p, ks_early, bsw, in, out, len, enc, 1); break;
                case 2: vaes_gcm_tail_xor_n(p, ks_early, bsw, in, out, len, enc, 2); break;
                case 3: vaes_gcm_tail_xor_n(p, ks_early, bsw, in, out, len, enc, 3); break;
                default: vaes_gcm_tail_xor_n(p, ks_early, bsw, in, out, len, enc, 4); break;
                }
                for (int j = 0; j < NV; j++)
                    v_storeu(ks_early + VB * j, v_zero());
                __asm__ volatile("" : : "r"(ks_early) : "memory");
            } else if (nt) {
                vaes_gcm_pub_off(&cv, &cp, &pon, pub);
                switch ((nt + AK_LANES - 1) / AK_LANES) {
                case 1: vaes_gcm_tail_aes_n(p, &cv, K, bsw, step, in, out, len, enc, 1, R); break;
                case 2: vaes_gcm_tail_aes_n(p, &cv, K, bsw, step, in, out, len, enc, 2, R); break;
                case 3: vaes_gcm_tail_aes_n(p, &cv, K, bsw, step, in, out, len, enc, 3, R); break;
                default: vaes_gcm_tail_aes_n(p, &cv, K, bsw, step, in, out, len, enc, 4, R); break;
                }
            } else {
                for (int j = 0; j < NV; j++)
                    p[j] = v_zero();
            }
            if (lenblk && nt < BATCH) {
                vec_t lv = v_bcast_x(*lenblk);
                _Pragma("GCC unroll 4")
                for (int j = 0; j < NV; j++)
                    if ((size_t)j == nt / AK_LANES)
                        p[j] = v_xor(p[j], v_lane_select(lv, (ptrdiff_t)nt - AK_LANES * j));
            } else if (lenblk) {
                vaes_gacc_mul_sel(&a, v_zext(*lenblk), vaes_gh_pow(g, 1), kara);
            }
            p[0] = v_xor(p[0], v_zext(yin));
            /* a constant trip count (unrolled, p stays in registers) and a
             * test of the length per vector */
            _Pragma("GCC unroll 4")
            for (int j = 0; j < NV; j++) {
                if ((size_t)j * AK_LANES >= m)
                    continue;
                if (ch)
                    ch->pt[have_p ? NV + j : j] = p[j];
                else
                    vaes_gacc_mul_sel(&a, p[j], pw + VB * j, kara);
            }
        }
        if (ch) {
            /* a link (the chain's rule: lenblk set): everything waits;
             * with nt = BATCH the batch was folded above and the length
             * block's product is in a */
            ch->np = (have_p ? NV : 0) + (int)(((nt < BATCH ? m : nt) + AK_LANES - 1) / AK_LANES);
            ch->pw = vaes_gh_pow(g, have_p ? m + BATCH : m);
            ch->a = a;
            ch->live = 1;
            *pc = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblk));
            return;
        }
        Y = vaes_gacc_reduce_sel(a, kara);
    }
    *pc = _mm_add_epi32(*pc, _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblk));
    *pY = Y;
}

/* ---- the streaming primitives (gcm_encrypt / gcm_decrypt) ---------------- */

/* ctr and Yb in the byte order of SP 800-38D; the counter may be secret
 * (pub = 0: no branch on it).  Encryption runs long inputs at lag two:
 * each direction has a kernel of its own (ak_vaes512_gcm_encrypt and
 * the ymm backend's), so the lag-two code costs no other kernel its
 * registers (see vaes_gcm_body). */
VAES_INLINE void vaes_gcm_stream(const ak_aes *k, const ak_ghash *gk, uint8_t *out, const uint8_t *in, size_t nb,
                                 uint8_t ctr[16], uint8_t Yb[16], int enc)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    const ak_vaes_ghash_key *g = vaes_ghash_key(gk);
    __m128i c = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    __m128i y = _mm_shuffle_epi8(x_load(Yb), x_bswap_mask());
    switch (k->rounds) {
    case 10: vaes_gcm_body(ks, g, out, in, 16 * nb, &c, &y, NULL, enc, 0, 10, NULL, enc, 0); break;
    case 12: vaes_gcm_body(ks, g, out, in, 16 * nb, &c, &y, NULL, enc, 0, 12, NULL, enc, 0); break;
    default: vaes_gcm_body(ks, g, out, in, 16 * nb, &c, &y, NULL, enc, 0, 14, NULL, enc, 0); break;
    }
    x_store(ctr, _mm_shuffle_epi8(c, x_bswap_mask()));
    x_store(Yb, _mm_shuffle_epi8(y, x_bswap_mask()));
}

/* ---- whole messages longer than the small kernels take ------------------ */

/* E(J0), the tag mask, one block; j0 in register form. */
VAES_INLINE __m128i vaes_gcm_ej0(const ak_vaes_aes_key *ks, __m128i j0, const int R)
{
    __m128i e = _mm_xor_si128(_mm_shuffle_epi8(j0, x_bswap_mask()), x_load(ks->enc[0]));
    for (int r = 1; r < R; r++)
        e = _mm_aesenc_si128(e, x_load(ks->enc[r]));
    return _mm_aesenclast_si128(e, x_load(ks->enc[R]));
}

/* GHASH of the AAD (zero-padded), register form. */
VAES_INLINE __m128i vaes_gcm_aad_y(const ak_vaes_ghash_key *g, const uint8_t *aad, size_t aad_len)
{
    __m128i y = _mm_setzero_si128();
    size_t fa = aad_len / 16;
    if (aad_len == 16) {
        /* The common single AAD block by one 128-bit multiply, not through
         * vaes_ghash_blocks (a 512-bit product, its reduction and a lane
         * sum for one block). */
        y = x_gmul(_mm_shuffle_epi8(x_load(aad), x_bswap_mask()), x_load(vaes_gh_pow(g, 1)));
        fa = 0;
    }
    y = vaes_ghash_blocks(g, y, aad, fa);
    if (aad_len % 16) {
        __m128i t = _mm_shuffle_epi8(v_low128(v_load_window(aad + 16 * fa, 0, aad_len % 16)), x_bswap_mask());
        y = x_gmul(_mm_xor_si128(y, t), x_load(vaes_gh_pow(g, 1)));
    }
    return y;
}

VAES_INLINE void vaes_gcm_long(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i j0, const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc,
                               const int R, const int lag2, const int kara)
{
    __m128i y = vaes_gcm_aad_y(g, aad, aad_len);
    __m128i c = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));
    __m128i l = _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8);
    /* 96-bit IV: the counters are IV || 2, IV || 3, ..., public (pub = 1) */
    vaes_gcm_body(ks, g, out, in, len, &c, &y, &l, enc, 1, R, NULL, lag2, kara);
    /* E(J0) after the body, where its rounds fill the AES unit beside the
     * final GHASH instead of taking slots from the first batch (the order
     * is measured per core: docs/performance.md, "Sapphire Rapids class:
     * two groups on zmm"). */
    const __m128i e = vaes_gcm_ej0(ks, j0, R);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), e));
}
