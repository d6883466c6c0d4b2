/*
 * vaes_block.h - the x86-vaes block modes on whole vectors: ECB, CTR
 * (inc32 and 128-bit), CBC decryption (parallel), CBC encryption and
 * CBC-MAC (serial, on xmm), XTS; and the register-form counters the fused
 * GCM loop shares with CTR (gctr).
 *
 * CPU features: VAES (AES-NI for the serial chains), PCLMULQDQ on vectors
 * for the XTS tweak steps, AVX2; on zmm AVX-512 F/BW/VL (AK_TGT of the
 * width file).  Needs vaes_aes.h.
 *
 * Every body takes the round count R as a compile-time constant: the entry
 * points switch on ak_aes.rounds (10, 12, 14) once per call.  Batches are
 * NV vectors; a tail (fewer than BATCH blocks) takes only the vectors that
 * hold data, through windowed loads and stores that touch no byte outside
 * the buffer.  The last round key is XORed into the data, tweak or
 * chaining value, so VAESENCLAST does the final XOR for free.
 */

/* ---- tails -------------------------------------------------------------- */

/* A tail of n bytes (< one batch) through N vectors of whole-block ECB-like
 * work: x = AES(window ^ pre) with the last round's key XORed with fin, so
 * ECB passes pre = K[0], fin = 0 and XTS pre = t ^ K[0], fin = t. */
VAES_INLINE void vaes_window_tail_n(const vec_t *K, const vec_t *pre, const vec_t *fin, const uint8_t *in, uint8_t *out,
                                    size_t n, int dec, const int N, const int R)
{
    vec_t x[NV];
    for (int j = 0; j < N; j++)
        x[j] = v_xor(v_load_window(in, (ptrdiff_t)(VB * j), n), pre[j]);
    if (dec)
        vaes_aes_dec_n(x, K, fin, N, R);
    else
        vaes_aes_enc_n(x, K, fin, N, R);
    for (int j = 0; j < N; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
}

VAES_INLINE void vaes_window_tail(const vec_t *K, const vec_t *pre, const vec_t *fin, const uint8_t *in, uint8_t *out,
                                  size_t n, int dec, const int R)
{
    switch (vaes_tail_vectors(n)) {
    case 1: vaes_window_tail_n(K, pre, fin, in, out, n, dec, 1, R); break;
    case 2: vaes_window_tail_n(K, pre, fin, in, out, n, dec, 2, R); break;
    case 3: vaes_window_tail_n(K, pre, fin, in, out, n, dec, 3, R); break;
    default: vaes_window_tail_n(K, pre, fin, in, out, n, dec, 4, R); break;
    }
}

/* ---- ECB ---------------------------------------------------------------- */

VAES_INLINE void vaes_ecb_body(const uint8_t (*rk)[16], uint8_t *out, const uint8_t *in, size_t nb, int dec,
                               const int R)
{
    vec_t K[15];
    vaes_load_keys_bcast(K, rk, R);
    vec_t x[NV], zero[NV];
    for (int j = 0; j < NV; j++)
        zero[j] = v_zero();
    for (; nb >= BATCH; nb -= BATCH, in += 16 * BATCH, out += 16 * BATCH) {
        for (int j = 0; j < NV; j++)
            x[j] = v_xor(v_loadu(in + VB * j), K[0]);
        if (dec)
            vaes_aes_dec_n(x, K, zero, NV, R);
        else
            vaes_aes_enc_n(x, K, zero, NV, R);
        for (int j = 0; j < NV; j++)
            v_storeu(out + VB * j, x[j]);
    }
    if (nb) {
        vec_t k0[NV];
        for (int j = 0; j < NV; j++)
            k0[j] = K[0];
        vaes_window_tail(K, k0, zero, in, out, 16 * nb, dec, R);
    }
}

VAES_INLINE void vaes_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, int dec)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    const uint8_t(*rk)[16] = dec ? ks->dec : ks->enc;
    switch (k->rounds) {
    case 10: vaes_ecb_body(rk, out, in, nb, dec, 10); break;
    case 12: vaes_ecb_body(rk, out, in, nb, dec, 12); break;
    default: vaes_ecb_body(rk, out, in, nb, dec, 14); break;
    }
}

/* ---- CTR ---------------------------------------------------------------- */

/* Counters in register form: little-endian lanes, a 32-bit vector add is
 * inc32, one vpshufb per vector turns them into blocks.  No branch looks
 * at the counter value: for IVs other than 96 bits, J0 = GHASH_H(IV)
 * (SP 800-38D 7.1 step 2), so a GCM counter is as secret as H.  (The
 * previous form added to byte 15 of big-endian blocks and took the slow
 * path only when that byte could carry: a branch on the counter.  Measured
 * in the same run, dropping it cost nothing visible on this CPU: vpshufb
 * and vaesenc do not compete for a port.) */
typedef struct {
    vec_t le; /* the next batch's first vector of counters, register form */
} gctr;

VAES_INLINE void vaes_gctr_init(gctr *s, __m128i le0) { s->le = v_add32(v_bcast_x(le0), v_lane_idx()); }

/* x[0..NV) = the next batch's counter blocks XOR K[0]. */
VAES_INLINE void vaes_ctr_next_4x(vec_t *x, gctr *s, const vec_t *K, vec_t bsw, vec_t step)
{
    vec_t cv = s->le;
    for (int j = 0; j < NV; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, step);
    }
    s->le = cv;
}

/* The CTR tail: x holds the counter blocks (XOR K[0]) of N vectors. */
VAES_INLINE void vaes_ctr_tail_n(vec_t *x, const vec_t *K, const uint8_t *in, uint8_t *out, size_t n, const int N,
                                 const int R)
{
    vec_t d[NV];
    for (int j = 0; j < N; j++)
        d[j] = v_load_window(in, (ptrdiff_t)(VB * j), n);
    vaes_aes_enc_n(x, K, d, N, R);
    for (int j = 0; j < N; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
}

/* Public counters (the ctr128 entry: CTR and CCM) in block form.  While
 * the low byte b of a batch's first counter c is at most 256 - BATCH, the
 * batch's counters c + i differ from c in byte 15 only, by i with no carry:
 * with G = the block of c in every lane and ctrp_off[j] = i in byte 15 of
 * each lane (a 32-bit add on the last dword, whose top byte is byte 15),
 * the first-round inputs are (G + off_j) XOR K0, two vector operations
 * instead of the register form's three (add, VPSHUFB, XOR); G advances by
 * BATCH in byte 15.  Otherwise (and after byte 15 wrapped) the batch is
 * formed the register way and G rebuilt from the scalar counter.  These
 * branches read the counter: only public counters come here. */
#define CP_LANE(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)(m)
#if AK_LANES == 4
static const uint8_t vaes_ctrp_tab[NV + 1][VB] __attribute__((aligned(64))) = {
    {CP_LANE(0), CP_LANE(1), CP_LANE(2), CP_LANE(3)},     {CP_LANE(4), CP_LANE(5), CP_LANE(6), CP_LANE(7)},
    {CP_LANE(8), CP_LANE(9), CP_LANE(10), CP_LANE(11)},   {CP_LANE(12), CP_LANE(13), CP_LANE(14), CP_LANE(15)},
    {CP_LANE(16), CP_LANE(16), CP_LANE(16), CP_LANE(16)},
};
#elif AK_LANES == 2
static const uint8_t vaes_ctrp_tab[NV + 1][VB] __attribute__((aligned(32))) = {
    {CP_LANE(0), CP_LANE(1)}, {CP_LANE(2), CP_LANE(3)}, {CP_LANE(4), CP_LANE(5)},
    {CP_LANE(6), CP_LANE(7)}, {CP_LANE(8), CP_LANE(8)},
};
#else
#error "vaes_ctrp_tab: AK_LANES must be 2 or 4"
#endif
#undef CP_LANE

/* The block of the counter whose register form is le0 with low word c, in
 * every lane. */
VAES_INLINE vec_t vaes_ctrp_block(__m128i le0, uint32_t c)
{
    return v_bcast_x(_mm_shuffle_epi8(_mm_insert_epi32(le0, (int)c, 0), x_bswap_mask()));
}

/* x[0..NV) = the batch at counter low word *c (block form *G) XOR K[0]. */
VAES_INLINE void vaes_ctrp_next_4x(vec_t *x, vec_t *G, uint32_t *c, __m128i le0, const vec_t *K, vec_t bsw,
                                   vec_t step)
{
    if (__builtin_expect((*c & 0xff) <= 256 - BATCH, 1)) {
        for (int j = 0; j < NV; j++)
            x[j] = v_xor(v_add32(*G, v_loadu(vaes_ctrp_tab[j])), K[0]);
        *G = v_add32(*G, v_loadu(vaes_ctrp_tab[NV]));
    } else {
        gctr t;
        vaes_gctr_init(&t, _mm_insert_epi32(le0, (int)*c, 0));
        vaes_ctr_next_4x(x, &t, K, bsw, step);
    }
    *c += BATCH;
    if ((*c & 0xff) < BATCH)
        *G = vaes_ctrp_block(le0, *c);
}

#if AK_LANES == 2
/* Two batches of public counters a step on ymm: eight independent
 * VAESENC chains.  A ymm VAESENC has a latency of about 4 cycles and two
 * issue each cycle, so 8 chains keep both units busy from one step's own
 * work, where one batch's four chains leave half the slots to whatever
 * the out-of-order window finds of the next step.  Sixteen ymm registers
 * do not hold eight states and R + 1 keys: each round key is loaded once
 * a step into one register (vaes_key_reg) and used by the eight chains,
 * one load per round instead of one per VAESENC.  Lane l of vector j
 * (j < 2 NV) adds 2 j + l to byte 15 of G; the last vector steps G by
 * 2 BATCH. */
#define CP_LANE(m) 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (uint8_t)(m)
static const uint8_t vaes_ctrp2_tab[2 * NV + 1][VB] __attribute__((aligned(32))) = {
    {CP_LANE(0), CP_LANE(1)},   {CP_LANE(2), CP_LANE(3)},   {CP_LANE(4), CP_LANE(5)},
    {CP_LANE(6), CP_LANE(7)},   {CP_LANE(8), CP_LANE(9)},   {CP_LANE(10), CP_LANE(11)},
    {CP_LANE(12), CP_LANE(13)}, {CP_LANE(14), CP_LANE(15)}, {CP_LANE(16), CP_LANE(16)},
};
#undef CP_LANE

/* Round key r of the key object, loaded where the round needs it: the
 * volatile asm gives each load a pointer of its own that the compiler
 * cannot see through, so it neither hoists the R + 1 loads to the top of
 * the step (where they do not fit in registers and go to the stack frame)
 * nor keeps keys live across steps.  Eight VAESENC use the value, so it
 * is one vector load, not eight memory operands. */
VAES_INLINE vec_t vaes_key_reg(const ak_vaes_aes_key *ks, int r)
{
    __asm__ volatile("" : "+r"(ks));
    return v_loadu(ks->enc_v[r]);
}

/* Whole steps of 2 BATCH blocks while nb allows; the state (G, *c) is the
 * batch loop's (vaes_ctrp_next_4x), which takes what is left.  Like that
 * function's, these branches read the counter: only the ctr128 entry's
 * public counters come here. */
VAES_INLINE void vaes_ctrp_pairs(const ak_vaes_aes_key *ks, uint8_t **outp, const uint8_t **inp, size_t *nbp,
                                 vec_t *G, uint32_t *c, __m128i le0, const int R)
{
    uint8_t *out = *outp;
    const uint8_t *in = *inp;
    size_t nb = *nbp;
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    for (; nb >= 2 * BATCH; nb -= 2 * BATCH, in += 32 * BATCH, out += 32 * BATCH) {
        vec_t x[2 * NV];
        vec_t k = vaes_key_reg(ks, 0);
        if (__builtin_expect((*c & 0xff) <= 256 - 2 * BATCH, 1)) {
            for (int j = 0; j < 2 * NV; j++)
                x[j] = v_xor(v_add32(*G, v_loadu(vaes_ctrp2_tab[j])), k);
            *G = v_add32(*G, v_loadu(vaes_ctrp2_tab[2 * NV]));
        } else {
            /* byte 15 carries within the step: the register form */
            vec_t cv = v_add32(v_bcast_x(_mm_insert_epi32(le0, (int)*c, 0)), v_lane_idx());
            const vec_t step = v_lane_step();
            for (int j = 0; j < 2 * NV; j++) {
                x[j] = v_xor(v_shuffle8(cv, bsw), k);
                cv = v_add32(cv, step);
            }
        }
        *c += 2 * BATCH;
        if ((*c & 0xff) < 2 * BATCH)
            *G = vaes_ctrp_block(le0, *c);
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++) {
            k = vaes_key_reg(ks, r);
            _Pragma("GCC unroll 8")
            for (int j = 0; j < 2 * NV; j++)
                x[j] = v_enc(x[j], k);
        }
        k = vaes_key_reg(ks, R);
        _Pragma("GCC unroll 8")
        for (int j = 0; j < 2 * NV; j++)
            x[j] = v_enclast(x[j], v_xor(k, v_loadu(in + VB * j)));
        _Pragma("GCC unroll 8")
        for (int j = 0; j < 2 * NV; j++)
            v_storeu(out + VB * j, x[j]);
    }
    *outp = out;
    *inp = in;
    *nbp = nb;
}
#endif

/* cm: 0 = inc32 (GCM: the counter may be secret), 1 = 128-bit increment,
 * 2 = inc32 of a public counter (vaes_ctrp_next_4x).  Counters are
 * byte-swapped (little-endian integers) in the lanes. */
VAES_INLINE void vaes_ctr_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                               const uint8_t ctr[16], int cm, const int R)
{
    const int c128 = cm == 1;
    vec_t K[15];
    if (cm != 2)
        vaes_load_enc_keys(K, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    __m128i c0 = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    vec_t cv = v_add128(v_bcast_x(c0), v_lane_idx());
    gctr g;
    vaes_gctr_init(&g, c0);
    const vec_t step = v_lane_step();
    uint32_t cp = (uint32_t)_mm_cvtsi128_si32(c0);
    vec_t G = cm == 2 ? vaes_ctrp_block(c0, cp) : v_zero();
    vec_t x[NV], d[NV];
    if (cm == 2) {
#if AK_LANES == 2
        /* the steps load their keys themselves (vaes_key_reg): K only for
         * what they leave */
        vaes_ctrp_pairs(ks, &out, &in, &nb, &G, &cp, c0, R);
        if (!nb)
            return;
#endif
        vaes_load_enc_keys(K, ks, R);
    }
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (c128) {
            for (int j = 0; j < NV; j++) {
                x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
                cv = v_add128(cv, step);
            }
        } else if (cm == 2 && n == 16 * BATCH) {
            vaes_ctrp_next_4x(x, &G, &cp, c0, K, bsw, step);
        } else {
            if (cm == 2) /* the tail after whole batches in block form */
                vaes_gctr_init(&g, _mm_insert_epi32(c0, (int)cp, 0));
            vaes_ctr_next_4x(x, &g, K, bsw, step);
        }
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                d[j] = v_loadu(in + VB * j);
            vaes_aes_enc_n(x, K, d, NV, R);
            for (int j = 0; j < NV; j++)
                v_storeu(out + VB * j, x[j]);
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
            switch (vaes_tail_vectors(n)) {
            case 1: vaes_ctr_tail_n(x, K, in, out, n, 1, R); break;
            case 2: vaes_ctr_tail_n(x, K, in, out, n, 2, R); break;
            case 3: vaes_ctr_tail_n(x, K, in, out, n, 3, R); break;
            default: vaes_ctr_tail_n(x, K, in, out, n, 4, R); break;
            }
            break;
        }
    }
}

VAES_INLINE void vaes_ctr_rounds(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, const uint8_t ctr[16],
                                 int cm)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_ctr_body(ks, out, in, nb, ctr, cm, 10); break;
    case 12: vaes_ctr_body(ks, out, in, nb, ctr, cm, 12); break;
    default: vaes_ctr_body(ks, out, in, nb, ctr, cm, 14); break;
    }
}

/* ctr += nb as a 128-bit big-endian integer, in one 16-byte store: the
 * caller's next use of the counter is a 16-byte load (a tail's keystream
 * block, the next streaming update), which a CPU forwards from one store
 * of the same bytes but not from two narrower ones. */
VAES_INLINE void vaes_ctr128_advance(uint8_t ctr[16], size_t nb)
{
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    uint64_t lo2 = lo + (uint64_t)nb;
    hi += lo2 < lo;
    _mm_storeu_si128((__m128i *)(void *)ctr, _mm_shuffle_epi8(_mm_set_epi64x((long long)hi, (long long)lo2), x_bswap_mask()));
}

#if AK_LANES == 2
/* The ctr128 entry's public-counter path (cm 2) from two batches on, the
 * counter's advance included, a function of its own per round count that
 * the entry tail-calls: inlined into the entry beside the one- and
 * two-batch paths, its eight states and key register changed how GCC
 * allocated registers and laid out those paths, which never take it. */
VAES_NOINLINE void vaes_ctrp_body10(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                    uint8_t ctr[16])
{
    vaes_ctr_body(ks, out, in, nb, ctr, 2, 10);
    vaes_ctr128_advance(ctr, nb);
}

VAES_NOINLINE void vaes_ctrp_body12(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                    uint8_t ctr[16])
{
    vaes_ctr_body(ks, out, in, nb, ctr, 2, 12);
    vaes_ctr128_advance(ctr, nb);
}

VAES_NOINLINE void vaes_ctrp_body14(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                    uint8_t ctr[16])
{
    vaes_ctr_body(ks, out, in, nb, ctr, 2, 14);
    vaes_ctr128_advance(ctr, nb);
}
#endif

VAES_INLINE void vaes_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr_rounds(k, out, in, nb, ctr, 0);
    /* inc32^nb in one 16-byte store (see vaes_ctr128_advance) */
    __m128i c = _mm_shuffle_epi8(x_load(ctr), x_bswap_mask());
    c = _mm_add_epi32(c, _mm_cvtsi32_si128((int)(uint32_t)nb));
    _mm_storeu_si128((__m128i *)(void *)ctr, _mm_shuffle_epi8(c, x_bswap_mask()));
}

VAES_INLINE void vaes_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    /* If the low 32 bits do not wrap within this call, the 128-bit
     * increment is inc32.  This branch reads the counter: ctr128 serves
     * only CTR (the caller's IV) and CCM (flags || nonce || count), whose
     * counters are public, never GCM.  The 128-bit lane add is taken only
     * when the low word wraps: its carry is a serial chain per vector
     * (docs/performance.md, "Measurements behind the code"). */
    int c128 = (uint64_t)ak_load_be32(ctr + 12) + (uint64_t)nb > ((uint64_t)1 << 32);
    /* The block form from two batches on (one step of eight chains,
     * vaes_ctrp_pairs), and only on ymm: on zmm it is no faster than the
     * register form (performance.md, "Zen 4"). */
#if AK_LANES == 2
    if (!c128 && nb >= 2 * BATCH) {
        const ak_vaes_aes_key *ks = vaes_aes_key(k);
        switch (k->rounds) {
        case 10: vaes_ctrp_body10(ks, out, in, nb, ctr); return;
        case 12: vaes_ctrp_body12(ks, out, in, nb, ctr); return;
        default: vaes_ctrp_body14(ks, out, in, nb, ctr); return;
        }
    }
#endif
    vaes_ctr_rounds(k, out, in, nb, ctr, c128 ? 1 : 0);
    vaes_ctr128_advance(ctr, nb);
}

/* ---- CBC decrypt (parallel) --------------------------------------------- */

/* The blocks before vector j of a whole batch at in (c = its vectors, prev
 * = the vector before c[0]).  On ymm, vector 0 by one cross-lane shift and
 * the others as one unaligned load from in + VB j - 16, which the batch has
 * not overwritten yet (in place, its stores follow all its loads): fewer
 * values live across the rounds, and no VPERM2I128 beside them (measured:
 * docs/performance.md, "Shifted loads").  On zmm (32 registers, so no
 * spills either way) the shift by VALIGNQ stays: the load form is no
 * faster there (performance.md, "Zen 4"). */
VAES_INLINE vec_t vaes_prev_in_batch(const uint8_t *in, const vec_t *c, vec_t prev, int j)
{
#if AK_LANES == 2
    if (j)
        return v_loadu(in + VB * j - 16);
#else
    (void)in;
#endif
    return v_prevblocks(c[j], j ? c[j - 1] : prev);
}

/* N vectors of CBC decryption: c the ciphertext, prev the vector before
 * c[0] (its last lane is the chaining value of c[0]'s first block).  For a
 * whole batch, whole is its input (the chaining blocks by
 * vaes_prev_in_batch); for a tail, whose loads are windows, NULL. */
VAES_INLINE void vaes_cbc_dec_n(vec_t *x, const vec_t *c, vec_t prev, const uint8_t *whole, const vec_t *K,
                                const int N, const int R)
{
    vec_t f[NV];
    for (int j = 0; j < N; j++) {
        x[j] = v_xor(c[j], K[0]);
        f[j] = whole ? vaes_prev_in_batch(whole, c, prev, j) : v_prevblocks(c[j], j ? c[j - 1] : prev);
    }
    vaes_aes_dec_n(x, K, f, N, R);
}

VAES_INLINE void vaes_cbc_dec_tail_n(const vec_t *K, vec_t prev, const uint8_t *in, uint8_t *out, size_t n,
                                     const int N, const int R)
{
    vec_t c[NV], x[NV];
    for (int j = 0; j < N; j++)
        c[j] = v_load_window(in, (ptrdiff_t)(VB * j), n);
    vaes_cbc_dec_n(x, c, prev, NULL, K, N, R);
    for (int j = 0; j < N; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
}

VAES_INLINE void vaes_cbc_dec_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t iv[16], const int R)
{
    vec_t K[15];
    vaes_load_keys_bcast(K, ks->dec, R);
    __m128i last = x_load(in + 16 * (nb - 1)); /* read before in-place writes */
    vec_t prev = v_bcast(iv), c[NV], x[NV];
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                c[j] = v_loadu(in + VB * j);
            vaes_cbc_dec_n(x, c, prev, in, K, NV, R);
            for (int j = 0; j < NV; j++)
                v_storeu(out + VB * j, x[j]);
            prev = c[NV - 1];
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
            switch (vaes_tail_vectors(n)) {
            case 1: vaes_cbc_dec_tail_n(K, prev, in, out, n, 1, R); break;
            case 2: vaes_cbc_dec_tail_n(K, prev, in, out, n, 2, R); break;
            case 3: vaes_cbc_dec_tail_n(K, prev, in, out, n, 3, R); break;
            default: vaes_cbc_dec_tail_n(K, prev, in, out, n, 4, R); break;
            }
            break;
        }
    }
    x_store(iv, last);
}

VAES_INLINE void vaes_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    if (!nb)
        return;
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_cbc_dec_body(ks, out, in, nb, iv, 10); break;
    case 12: vaes_cbc_dec_body(ks, out, in, nb, iv, 12); break;
    default: vaes_cbc_dec_body(ks, out, in, nb, iv, 14); break;
    }
}

/* ---- CBC encrypt and CBC-MAC (serial: AES latency bound) ----------------- */

VAES_INLINE void vaes_cbc_serial_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                      uint8_t st[16], const int R)
{
    if (!nb)
        return;
    __m128i K[15];
    /* Each key into a register of its own (the empty asm): left alone, GCC
     * copies the schedule to the stack with 64-byte moves and reloads each
     * key as a 16-byte slice of one, a load that AMD Zen 5 does not forward
     * from the wider store (about 70 cycles a call).  MSan checks asm
     * operands as uses, and the keys are secret: its build goes without. */
    for (int i = 0; i <= R; i++) {
        K[i] = x_load(ks->enc[i]);
#ifndef AESKIT_MSAN_CT
        __asm__("" : "+x"(K[i]));
#endif
    }
    /* The chain carries t = (state before the last round); the next block's
     * input enters through the last round key: AESENCLAST(t, K[R] ^ K[0] ^ p)
     * = E(s) ^ p ^ K[0], so no XOR waits on the chain (the CBC loop of
     * aes_aesni.c does the same). */
    const __m128i klast0 = _mm_xor_si128(K[R], K[0]);
    __m128i t = _mm_xor_si128(x_load(st), _mm_xor_si128(x_load(in), K[0])); /* st last: it is the chain */
    for (size_t b = 0;;) {
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            t = _mm_aesenc_si128(t, K[r]);
        if (out)
            x_store(out + 16 * b, _mm_aesenclast_si128(t, K[R]));
        if (++b == nb)
            break;
        t = _mm_aesenclast_si128(t, _mm_xor_si128(klast0, x_load(in + 16 * b)));
    }
    x_store(st, _mm_aesenclast_si128(t, K[R]));
}

/* out == NULL: CBC-MAC (st is the MAC state), else CBC encryption (st is the IV). */
VAES_INLINE void vaes_cbc_serial(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t st[16])
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_cbc_serial_body(ks, out, in, nb, st, 10); break;
    case 12: vaes_cbc_serial_body(ks, out, in, nb, st, 12); break;
    default: vaes_cbc_serial_body(ks, out, in, nb, st, 14); break;
    }
}

/* ---- XTS ---------------------------------------------------------------- */

/* Tweak times alpha^BATCH in every lane (IEEE 1619 little-endian doubling,
 * BATCH times at once): BATCH is a multiple of 8, so the shift is a byte
 * shift, and the bits shifted out (fewer than 17) times 0x87 fit one
 * carry-less multiply. */
VAES_INLINE vec_t vaes_xts_mul_batch(vec_t t)
{
    const vec_t p = v_bcast_x(_mm_set_epi64x(0, 0x87));
    return v_xor(v_bslli(t, BATCH / 8), v_clmul(v_bsrli(t, 16 - BATCH / 8), p, 0x00));
}

/* T * alpha^c for c < 64: a 128-bit left shift by c, the c bits pushed out
 * of the top folded back times 0x87 (x^128 = x^7 + x^2 + x + 1). */
VAES_INLINE __m128i x_xts_mul_pow(__m128i t, int c)
{
    __m128i cnt = _mm_set1_epi64x(c), cnt2 = _mm_set1_epi64x(64 - c);
    __m128i cr = _mm_srlv_epi64(t, cnt2); /* 0 when c == 0 */
    __m128i sh = _mm_xor_si128(_mm_sllv_epi64(t, cnt), _mm_slli_si128(cr, 8));
    return _mm_xor_si128(sh, _mm_clmulepi64_si128(_mm_srli_si128(cr, 8), _mm_set_epi64x(0, 0x87), 0x00));
}

/* The tweaks of vector j of a batch: T * alpha^(j*AK_LANES + lane). */
VAES_INLINE vec_t vaes_xts_first_tweaks(__m128i T, int j)
{
    vec_t t = v_bcast_x(T);
    vec_t c = v_add64(v_lane_idx64(), v_set1_64(j * AK_LANES));
    vec_t cr = v_srlv64(t, v_sub64(v_set1_64(64), c));
    vec_t sh = v_xor(v_sllv64(t, c), v_bslli(cr, 8));
    return v_xor(sh, v_clmul(v_bsrli(cr, 8), v_bcast_x(_mm_set_epi64x(0, 0x87)), 0x00));
}

VAES_INLINE void vaes_xts_body(const uint8_t (*rk)[16], uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16],
                               int dec, const int R)
{
    vec_t K[15];
    vaes_load_keys_bcast(K, rk, R);
    __m128i T = x_load(tweak);
    vec_t t[NV], x[NV];
    for (int j = 0; j < NV; j++)
        t[j] = vaes_xts_first_tweaks(T, j);
    size_t rem = 0;
    for (;;) {
        size_t n = nb >= BATCH ? 16 * BATCH : 16 * nb;
        if (!n)
            break;
        if (n == 16 * BATCH) {
            for (int j = 0; j < NV; j++)
                x[j] = v_xor3(v_loadu(in + VB * j), t[j], K[0]);
            if (dec)
                vaes_aes_dec_n(x, K, t, NV, R);
            else
                vaes_aes_enc_n(x, K, t, NV, R);
            for (int j = 0; j < NV; j++) {
                v_storeu(out + VB * j, x[j]);
                t[j] = vaes_xts_mul_batch(t[j]);
            }
            nb -= BATCH;
            in += 16 * BATCH;
            out += 16 * BATCH;
        } else {
            vec_t tk[NV];
            for (int j = 0; j < NV; j++)
                tk[j] = v_xor(t[j], K[0]);
            vaes_window_tail(K, tk, t, in, out, n, dec, R);
            rem = nb;
            break;
        }
    }
    /* The next tweak: the current batch's first one times alpha^rem. */
    x_store(tweak, x_xts_mul_pow(v_low128(t[0]), (int)rem));
}

VAES_INLINE void vaes_xts(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16], int dec)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    const uint8_t(*rk)[16] = dec ? ks->dec : ks->enc;
    switch (k->rounds) {
    case 10: vaes_xts_body(rk, out, in, nb, tweak, dec, 10); break;
    case 12: vaes_xts_body(rk, out, in, nb, tweak, dec, 12); break;
    default: vaes_xts_body(rk, out, in, nb, tweak, dec, 14); break;
    }
}
