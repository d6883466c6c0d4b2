/*
 * vaes_gcm_small.h - the x86-vaes whole-message GCM kernels (ak_gcm_msg,
 * src/internal.h): one AES pass and one GHASH reduction for messages of up
 * to two batches (vaes_gcm_tiny_*, vaes_gcm_short_*, vaes_gcm_onepass_*),
 * vaes_gcm_long for the rest (vaes_gcm_bulk.h), and the gcm_msgs entry that
 * picks among them.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX2; on zmm AVX-512 F/BW/VL (AK_TGT of
 * the width file).  Needs vaes_aes.h, vaes_ghash.h, vaes_gcm_bulk.h.
 *
 * Every kernel sees only descriptors with AK_GCM_J0_IV12 (J0 = IV || 1),
 * so the counter blocks are public; it writes the full tag, the front end
 * compares or truncates it.
 */

/* The data windows of vaes_gcm_short: v_wmask_small where the kernel has
 * one or two vectors; with three or four, v_wmask's shifts come to fewer
 * instructions there (instruction counts of scripts/icount.sh). */
VAES_INLINE wmask_t vaes_short_wmask(ptrdiff_t off, size_t len, const int NVEC)
{
    return NVEC <= 2 ? v_wmask_small(off, len) : v_wmask(off, len);
}

/* Which data windows are whole.  Both classes pick NVEC so that len >=
 * 16 * AK_LANES * (NVEC - 2) (tiny: nC + 1 >= AK_LANES * (NVEC - 1), so len
 * > 16 * (AK_LANES * (NVEC - 1) - 2); short: nC >= AK_LANES * (NVEC - 1)),
 * so the windows j <= NVEC - 3 lie inside the data: plain loads and
 * stores, and masks the compiler knows.  Only the last two windows of a
 * kernel depend on len. */
VAES_INLINE int vaes_small_whole(int j, const int NVEC) { return j <= NVEC - 3; }

/* The AAD's products, its first block against H^m (nA blocks, so the
 * powers H^m .. H^(m - nA + 1)), into a.  The common single whole block
 * takes a plain load and no window mask. */
VAES_INLINE void vaes_gcm_aad_fold(gacc *a, const ak_vaes_ghash_key *g, const uint8_t *aad, size_t aad_len,
                                   size_t m, vec_t bsw)
{
    if (aad_len == 16) {
        vaes_gacc_mul(a, v_zext(_mm_shuffle_epi8(x_load(aad), x_bswap_mask())), vaes_gh_pow(g, m));
        return;
    }
    const size_t nA = (aad_len + 15) / 16;
    for (size_t i = 0; i < nA; i += AK_LANES) {
        vec_t t = v_shuffle8(v_load_window(aad, (ptrdiff_t)(16 * i), aad_len), bsw);
        vaes_gacc_mul(a, t, vaes_gh_pow(g, m - i));
    }
}

/* The AAD's products (powers from K_m down) and the length block's (K_1)
 * into the zeroed sums *a of a message of len bytes; one AAD block pairs
 * with the length block (vaes_gacc_mul_blocks2). */
VAES_INLINE void vaes_gcm_aad_len_fold(gacc *a, const ak_vaes_ghash_key *g, const uint8_t *aad, size_t aad_len,
                                       size_t len, size_t m, vec_t bsw)
{
    const __m128i lb = _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8);
    if (aad_len == 16) {
        vaes_gacc_mul_blocks2(a, _mm_shuffle_epi8(x_load(aad), x_bswap_mask()), vaes_gh_pow(g, m), lb,
                              vaes_gh_pow(g, 1));
        return;
    }
    vaes_gcm_aad_fold(a, g, aad, aad_len, m, bsw);
    vaes_gacc_mul(a, v_zext(lb), vaes_gh_pow(g, 1));
}

/* Everything in one AES pass and one reduction: the counter vectors carry
 * J0 in lane 0 of vector 0, so message block i sits at lane i+1, and its
 * power of H is taken one entry further on (the J0 lane is hashed as zero).
 * Needs nC + 1 <= NVEC*AK_LANES, nA + nC + 2 <= NPOW and len <= 240.  j0 is
 * J0 in register form (byte-swapped). */
VAES_INLINE void vaes_gcm_short(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i j0, const uint8_t *aad,
                                size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc,
                                const int NVEC, const int R)
{
    vec_t kbuf[15];
    const vec_t *K = vaes_kernel_keys(kbuf, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    size_t nA = (aad_len + 15) / 16, nC = (len + 15) / 16;
    vec_t cv = v_add32(v_bcast_x(j0), v_lane_idx());
    vec_t x[NV], d[NV], raw[NV];
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, v_lane_step());
        raw[j] = vaes_small_whole(j, NVEC) ? v_loadu(in + VB * j)
                                           : v_load_w(in, (ptrdiff_t)(VB * j), vaes_short_wmask((ptrdiff_t)(VB * j), len, NVEC));
        d[j] = v_prevblocks(raw[j], j ? raw[j - 1] : v_zero()); /* see vaes_gcm_tiny */
    }
    gacc a;
    vaes_gacc_zero(&a);
    size_t m = nA + nC + 1;
    vaes_gcm_aad_len_fold(&a, g, aad, aad_len, len, m, bsw);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVEC; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    __m128i ej0 = _mm_setzero_si128();
    const uint8_t *pc = vaes_gh_pow(g, nC + 2);
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        if (j == 0)
            ej0 = v_low128(x[0]);
        const size_t mlen = vaes_small_whole(j, NVEC) ? (size_t)(VB * NVEC) : len; /* a constant when whole */
        vec_t c = enc ? v_and_w(x[j], v_wmask((ptrdiff_t)(VB * j) - 16, mlen)) : d[j];
        vaes_gacc_mul(&a, v_shuffle8(c, bsw), pc + VB * j);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        vec_t o = v_nextblocks(x[j], j + 1 < NVEC ? x[j + 1] : v_zero());
        if (vaes_small_whole(j, NVEC))
            v_storeu(out + VB * j, o);
        else
            v_store_w(out, (ptrdiff_t)(VB * j), vaes_short_wmask((ptrdiff_t)(VB * j), len, NVEC), o);
    }
    __m128i y = vaes_gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), ej0));
}

/* The common small case, at most one AAD block: the hash input is exactly
 * the counter vectors' lanes, [A, C_0, ..., C_{nC-1}, L], with A in the J0
 * lane and the length block L in the lane after the last data block, so the
 * whole message is NVEC multiplies and one reduction, and only the
 * ciphertext's own multiply waits for AES.  Needs NVEC = (nC + 1) /
 * AK_LANES + 1 (so nC + 2 <= NVEC*AK_LANES, and L's lane is in the last
 * vector) and len <= 224.  j0b is J0 in byte order. */
VAES_INLINE void vaes_gcm_tiny(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i j0b, const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16], int enc,
                               const int NVEC, const int R)
{
    vec_t kbuf[15];
    const vec_t *K = vaes_kernel_keys(kbuf, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    size_t nC = (len + 15) / 16;
    const vec_t j0v = v_bcast_x(j0b);
    vec_t x[NV], d[NV], e[NV], raw[NV];
    wmask_t m[NV], mw[NV];
    const vec_t lv = v_bcast_x(_mm_set_epi64x((long long)aad_len * 8, (long long)len * 8));
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_xor3(j0v, v_loadu(vaes_tiny_ctr_words + VB * j), K[0]);
        /* Block i of the message sits in lane i+1 (lane 0 is J0), but the
         * memory windows start at the buffer: a window starting 16 bytes
         * before it would touch the page before an output that starts on a
         * page boundary (see v_load_w).  One lane shift each way instead. */
        if (vaes_small_whole(j, NVEC)) { /* constant masks, plain accesses */
            m[j] = v_wmask((ptrdiff_t)(VB * j) - 16, (size_t)(VB * NVEC));
            mw[j] = v_wmask((ptrdiff_t)(VB * j), (size_t)(VB * NVEC));
            raw[j] = v_loadu(in + VB * j);
        } else {
            m[j] = v_wmask_small((ptrdiff_t)(VB * j) - 16, len);
            mw[j] = v_wmask_small((ptrdiff_t)(VB * j), len);
            raw[j] = v_load_w(in, (ptrdiff_t)(VB * j), mw[j]);
        }
        d[j] = v_prevblocks(raw[j], j ? raw[j - 1] : v_zero());
        /* A and L, in register form, in their lanes.  L is in lane nC + 1
         * counting across vectors, which is in the last vector: the
         * entry picks NVEC = (nC + 1) / AK_LANES + 1. */
        e[j] = j == NVEC - 1 ? v_lane_select(lv, (ptrdiff_t)((nC + 1) % AK_LANES)) : v_zero();
        if (j == 0) { /* one whole AAD block (the common case) by a plain load */
            vec_t av = aad_len == 16 ? v_zext(x_load(aad)) : v_load_w(aad, 0, v_wmask_small(0, aad_len));
            e[0] = v_xor(e[0], v_shuffle8(av, bsw));
        }
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVEC; j++)
            x[j] = v_enc(x[j], K[r]);
    }
    gacc a;
    vaes_gacc_zero(&a);
    const uint8_t *pw = vaes_gh_pow(g, nC + 2);
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], d[j]));
        vec_t c = enc ? v_and_w(x[j], m[j]) : d[j];
        vaes_gacc_mul(&a, v_xor(v_shuffle8(c, bsw), e[j]), pw + VB * j);
    }
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVEC; j++) {
        vec_t o = v_nextblocks(x[j], j + 1 < NVEC ? x[j + 1] : v_zero());
        if (vaes_small_whole(j, NVEC))
            v_storeu(out + VB * j, o);
        else
            v_store_w(out, (ptrdiff_t)(VB * j), mw[j], o);
    }
    __m128i y = vaes_gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), v_low128(x[0])));
}

/* The one-pass layout's steps for one message (the batch chain,
 * vaes_gcm_chain.h, lays its messages out the same way and shares the
 * window mask and the stores).  Start: the NVX counter vectors XOR K0 in
 * x, J0's block XOR K0 in *e, and the AAD and length products in *a, for
 * the n = nA + nC + 1 blocks hashed. */
VAES_INLINE void vaes_onepass_start(vec_t *x, __m128i *e, gacc *a, const vec_t *K, const ak_vaes_ghash_key *g,
                                    __m128i j0, const uint8_t *aad, size_t aad_len, size_t len, vec_t bsw,
                                    const int NVX)
{
    const size_t n = (aad_len + 15) / 16 + (len + 15) / 16 + 1;
    vec_t cv = v_add32(v_add32(v_bcast_x(j0), v_lane_idx()), v_bcast_x(_mm_cvtsi32_si128(1)));
    *e = _mm_xor_si128(_mm_shuffle_epi8(j0, x_bswap_mask()), v_low128(K[0]));
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, v_lane_step());
    }
    vaes_gacc_zero(a);
    vaes_gcm_aad_len_fold(a, g, aad, aad_len, len, n, bsw);
}

/* The mask of the last window's bytes of a len-byte message, formed before
 * the rounds so that it is ready when the last round ends. */
VAES_INLINE wmask_t vaes_onepass_wl(size_t len, const int NVX) { return v_wmask((ptrdiff_t)(VB * (NVX - 1)), len); }

/* Last round: the data in (plaintext or ciphertext) folded into the last
 * round key, each output vector stored as it is done (with in == out each
 * vector is read before its store), and the ciphertext's products into
 * *a; wl from vaes_onepass_wl.  Stored at once, the outputs need no
 * registers while the products are formed (on ymm, held to the end they
 * went to the stack frame). */
VAES_INLINE void vaes_onepass_last(vec_t *x, gacc *a, vec_t klast, const ak_vaes_ghash_key *g, const uint8_t *in,
                                   uint8_t *out, size_t len, wmask_t wl, int enc, vec_t bsw, const int NVX)
{
    const ptrdiff_t last = (ptrdiff_t)(VB * (NVX - 1));
    const uint8_t *pc = vaes_gh_pow(g, (len + 15) / 16 + 1);
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++) {
        vec_t d = j < NVX - 1 ? v_loadu(in + VB * j) : v_load_w(in, last, wl);
        x[j] = v_enclast(x[j], v_xor(klast, d));
        if (j < NVX - 1)
            v_storeu(out + VB * j, x[j]);
        else
            v_store_w(out, last, wl, x[j]);
        vec_t c = enc ? (j < NVX - 1 ? x[j] : v_and_w(x[j], wl)) : d;
        vaes_gacc_mul(a, v_shuffle8(c, bsw), pc + VB * j);
    }
}

/* Store: the output vectors, all but the last window whole. */
VAES_INLINE void vaes_onepass_store(uint8_t *out, wmask_t wl, const vec_t *x, const int NVX)
{
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX - 1; j++)
        v_storeu(out + VB * j, x[j]);
    v_store_w(out, (ptrdiff_t)(VB * (NVX - 1)), wl, x[NVX - 1]);
}

/* The one-pass class's largest vector count: on zmm two more than two
 * batches (40 blocks), on ymm as many as the key's 28 powers hold with an
 * AAD block and L (26 blocks).  Up to there one pass ran faster than the
 * long kernel, whose first batch runs its AES with nothing to hash beside
 * it (docs/performance.md, "Zen 4: 44 powers on zmm" and "Zen 4: the
 * AAD and length products in one ymm"). */
#if AK_LANES == 4
#define VAES_ONEPASS_NVX_MAX (2 * NV + 2)
#else
#define VAES_ONEPASS_NVX_MAX ((NPOW - 2) / AK_LANES)
#endif
_Static_assert(1 + AK_LANES * VAES_ONEPASS_NVX_MAX + 1 <= NPOW, "a one-pass message with an AAD block");

/* A message of a batch of blocks or more (BATCH <= nC, NVX = ceil(nC /
 * AK_LANES) vectors, NV <= NVX <= VAES_ONEPASS_NVX_MAX) whose AAD, data
 * and length block fit the powers (nA + nC + 1 <= NPOW): too long for the
 * short class, whose counter vectors give lane 0 to J0.  Here data block i
 * sits in lane i % AK_LANES of vector i / AK_LANES (counter J0 + 1 + i, no
 * lane shifts), and J0's block, the tag mask, runs its rounds in a 128-bit
 * register beside them.  One pass, one reduction: the AAD and length
 * products go first, only the ciphertext's wait for AES.  The windows but
 * the last are whole (nC > AK_LANES * (NVX - 1)).  j0 is J0 in register
 * form (byte-swapped). */
VAES_INLINE void vaes_gcm_onepass(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i j0,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                                  uint8_t tag[16], int enc, const int NVX, const int R)
{
    vec_t kbuf[15];
    const vec_t *K = vaes_kernel_keys(kbuf, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const wmask_t wl = vaes_onepass_wl(len, NVX);
    vec_t x[VAES_ONEPASS_NVX_MAX];
    __m128i e;
    gacc a;
    vaes_onepass_start(x, &e, &a, K, g, j0, aad, aad_len, len, bsw, NVX);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 16")
        for (int j = 0; j < NVX; j++)
            x[j] = v_enc(x[j], K[r]);
        e = _mm_aesenc_si128(e, v_low128(K[r]));
    }
    e = _mm_aesenclast_si128(e, v_low128(K[R]));
    vaes_onepass_last(x, &a, K[R], g, in, out, len, wl, enc, bsw, NVX);
    __m128i y = vaes_gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), e));
}

/* Seals of 257-767 B on zmm (17-48 data blocks) and 385-640 B on ymm (25-40
 * blocks), the one-pass class and just above it, with AAD of no block or one
 * whole block: two groups of one pass each.  Group A is the first NA
 * vectors (AK_LANES NA blocks), group B the rest, NB = NVX - NA vectors.
 * With X_1..X_n the hashed blocks (A's block if any, the ciphertext, L)
 * and m the last one of group A,
 *     Y = sum_{i<=m} X_i H^(n+1-i) + sum_{i>m} X_i H^(n+1-i)
 *       = Y_A * H^(n-m) + sum_{i>m} X_i H^(n+1-i),
 *     Y_A = sum_{i<=m} X_i H^(m+1-i),
 * so group A takes the powers K_m..K_1 (m <= 1 + AK_LANES NA), group B and
 * Y_A's product K_(n-m)..K_1 (n - m <= AK_LANES NB + 1): both within the
 * key's powers (28 on ymm, 44 on zmm).  Group A's rounds run first; its
 * products are formed during group B's rounds, VAES_TWOPASS_PA vectors a
 * round (the ciphertext reloaded from the output, the store forwarding
 * it), Y_A is reduced and multiplied beside B's last rounds, and one more
 * reduction ends the message.  In the one-pass kernel every product waits
 * for the last round of every vector; here only group B's do.  Seals only:
 * an open's products need no AES result, and the one-pass and long kernels
 * already run them beside the rounds.  The split (VAES_TWOPASS_NA): halves
 * on zmm, B the larger; ten vectors in A on ymm.  The bounds: on zmm from
 * the one-pass class's first size to 767 B (the long kernel was faster at
 * 768 B, three whole batches, and from 769 B); on ymm from 13 vectors
 * (below that one pass).  docs/performance.md, "Sapphire Rapids class: two groups on
 * zmm", has the measurements. */
#if AK_LANES == 2
#define VAES_TWOPASS_NVX_MIN 13 /* 25 blocks */
#define VAES_TWOPASS_NVX_MAX 20
#define VAES_TWOPASS_LEN_MAX 640
#define VAES_TWOPASS_PA 2
#else
#define VAES_TWOPASS_NVX_MIN 5 /* 17 blocks */
#define VAES_TWOPASS_NVX_MAX 12
#define VAES_TWOPASS_LEN_MAX 767 /* 768 B, three whole batches: the long kernel */
#define VAES_TWOPASS_PA 1
#endif
_Static_assert(VAES_TWOPASS_LEN_MAX <= 16 * AK_LANES * VAES_TWOPASS_NVX_MAX, "a kernel for every length");
/* Group A's vector count for NVX vectors (see above). */
#define VAES_TWOPASS_NA(NVX) (AK_LANES == 2 ? 10 : (NVX) / 2)
_Static_assert(VAES_TWOPASS_NA(VAES_TWOPASS_NVX_MAX) <= VAES_TWOPASS_PA * 9, "group A's products fit in group B's rounds 1-9");
_Static_assert(1 + AK_LANES * ((VAES_TWOPASS_NVX_MAX + 1) / 2) + 1 <= NPOW, "the powers of each group");
VAES_INLINE void vaes_gcm_twopass(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i j0,
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                                  uint8_t tag[16], const int NVX, const int R)
{
    const int NA = VAES_TWOPASS_NA(NVX), NB = NVX - NA;
    vec_t kbuf[15];
    const vec_t *K = vaes_kernel_keys(kbuf, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const size_t nC = (len + 15) / 16, nA = aad_len ? 1 : 0;
    const size_t m = nA + (size_t)(AK_LANES * NA), nb = nC - (size_t)(AK_LANES * NA) + 1;
    const size_t lenb = len - (size_t)(VB * NA); /* group B's bytes */
    const uint8_t *inb = in + VB * NA;
    uint8_t *outb = out + VB * NA;
    vec_t cv = v_add32(v_add32(v_bcast_x(j0), v_lane_idx()), v_bcast_x(_mm_cvtsi32_si128(1)));
    __m128i e = _mm_xor_si128(_mm_shuffle_epi8(j0, x_bswap_mask()), v_low128(K[0]));
    vec_t x[(VAES_TWOPASS_NVX_MAX + 1) / 2]; /* the larger group */
    _Pragma("GCC unroll 10")
    for (int j = 0; j < NA; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, v_lane_step());
    }
    gacc a, b;
    vaes_gacc_zero(&a);
    vaes_gacc_zero(&b);
    if (aad_len)
        vaes_gacc_mul(&a, v_zext(_mm_shuffle_epi8(x_load(aad), x_bswap_mask())), vaes_gh_pow(g, m));
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 10")
        for (int j = 0; j < NA; j++)
            x[j] = v_enc(x[j], K[r]);
        e = _mm_aesenc_si128(e, v_low128(K[r]));
    }
    e = _mm_aesenclast_si128(e, v_low128(K[R]));
    _Pragma("GCC unroll 10")
    for (int j = 0; j < NA; j++)
        v_storeu(out + VB * j, v_enclast(x[j], v_xor(K[R], v_loadu(in + VB * j))));
    const uint8_t *pa = vaes_gh_pow(g, (size_t)(AK_LANES * NA));
    _Pragma("GCC unroll 10")
    for (int j = 0; j < NB; j++) {
        x[j] = v_xor(v_shuffle8(cv, bsw), K[0]);
        cv = v_add32(cv, v_lane_step());
    }
    const wmask_t wl = v_wmask((ptrdiff_t)(VB * (NB - 1)), lenb);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 10")
        for (int j = 0; j < NB; j++)
            x[j] = v_enc(x[j], K[r]);
        /* group A's ciphertext, VAES_TWOPASS_PA vectors a round */
        _Pragma("GCC unroll 10")
        for (int j = 0; j < NA; j++)
            if (j / VAES_TWOPASS_PA == r - 1)
                vaes_gacc_mul(&a, v_shuffle8(v_loadu(out + VB * j), bsw), pa + VB * j);
    }
    vaes_gacc_mul_blocks2(&b, vaes_gacc_reduce(a), vaes_gh_pow(g, nb),
                          _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8), vaes_gh_pow(g, 1));
    const uint8_t *pb = vaes_gh_pow(g, nb);
    _Pragma("GCC unroll 10")
    for (int j = 0; j < NB; j++) {
        const vec_t d = j < NB - 1 ? v_loadu(inb + VB * j) : v_load_w(inb, (ptrdiff_t)(VB * (NB - 1)), wl);
        x[j] = v_enclast(x[j], v_xor(K[R], d));
        vaes_gacc_mul(&b, v_shuffle8(j < NB - 1 ? x[j] : v_and_w(x[j], wl), bsw), pb + VB * j);
    }
    _Pragma("GCC unroll 10")
    for (int j = 0; j < NB - 1; j++)
        v_storeu(outb + VB * j, x[j]);
    v_store_w(outb, (ptrdiff_t)(VB * (NB - 1)), wl, x[NB - 1]);
    __m128i y = vaes_gacc_reduce(b);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), e));
}

/* The first n <= 16 bytes at p, zero above, and their store: a plain
 * access for a whole block (it takes data from a store still in flight,
 * where a masked load waits), else a masked one (zmm build; the ymm build
 * has no byte masks, and its callers pass n = 0 or 16 only, see
 * vaes_gcm_one_fits).  The caller has checked
 * x_window_one_page for the partial windows: a masked-off byte on a page
 * that is not mapped writable would cost a microcode assist per access
 * (see v_window_on_live_pages), and such messages take the tiny kernel,
 * whose windows bounce through the stack.  Branches on lengths only. */
VAES_INLINE int x_window_one_page(const void *p, size_t n)
{
    const uintptr_t q = (uintptr_t)p;
    return n == 16 || ((q ^ (q + 15)) >> 12) == 0;
}
VAES_INLINE __m128i x_load_n(const uint8_t *p, size_t n)
{
    if (n == 0) /* p may be NULL: no access at all, not even a masked one */
        return _mm_setzero_si128();
#if AK_LANES == 4
    return n == 16 ? x_load(p) : _mm_maskz_loadu_epi8((__mmask16)((1u << n) - 1), p);
#else
    return x_load(p); /* n == 16 */
#endif
}
VAES_INLINE void x_store_n(uint8_t *p, size_t n, __m128i v)
{
#if AK_LANES == 4
    if (n == 16)
        x_store(p, v);
    else
        _mm_mask_storeu_epi8(p, (__mmask16)((1u << n) - 1), v);
#else
    (void)n; /* n == 16 */
    x_store(p, v);
#endif
}
/* v with the bytes from n on cleared (zmm build; n == 16 on ymm). */
VAES_INLINE __m128i x_keep_n(__m128i v, size_t n)
{
#if AK_LANES == 4
    return _mm_maskz_mov_epi8((__mmask16)((1u << n) - 1), v);
#else
    (void)n;
    return v;
#endif
}
/* a ^ b ^ c: one VPTERNLOG where AVX-512 VL is there. */
VAES_INLINE __m128i x_xor3(__m128i a, __m128i b, __m128i c)
{
#if AK_LANES == 4
    return _mm_ternarylogic_epi64(a, b, c, 0x96);
#else
    return _mm_xor_si128(_mm_xor_si128(a, b), c);
#endif
}
VAES_INLINE __m256i y_xor3(__m256i a, __m256i b, __m256i c)
{
#if AK_LANES == 4
    return _mm256_ternarylogic_epi64(a, b, c, 0x96);
#else
    return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
#endif
}

/* One data block and at most one AAD block (1 <= len <= 16, aad_len <= 16),
 * on the shortest chain (both builds; on ymm only len 16 and aad_len 0 or
 * 16, which need no byte masks): no zmm lane fold and no cross-lane
 * shuffle after the rounds.  The two counter blocks are one ymm filled by a
 * broadcast load (lane 0 the data's counter J0 + 1, lane 1 J0), and GHASH
 * is
 *     A * H^3 + C * H^2 + L * H            (A = 0 when there is no AAD:
 *                                            a zero block adds nothing)
 * in 128-bit registers: the A and L products are summed while the rounds
 * run, so only C's multiply, one reduction, the byte swap and the XOR with
 * E(J0) follow the last round (on open not even the multiply: C is the
 * input).  No byte outside the message is read or written (x_load_n,
 * x_store_n).  Math: vaes_ghash.h, sections 2-4. */
VAES_INLINE void vaes_gcm_one(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i jb, const int jz,
                              const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                              uint8_t tag[16], int enc, const int R)
{
    const __m128i bsw = x_bswap_mask(), c = _mm_set1_epi64x((long long)0xc200000000000000ULL);
    /* jb is J0 (counter byte 1) or, with jz, IV || 0^32 (counter byte 0):
     * lane 0 wants counter 2, lane 1 counter 1, so their counter bytes are
     * XORed by 3 and 0, or by 2 and 1 (vaes_aes.h, "GCM counter words"). */
    const __m256i inc = jz ? _mm256_set_epi64x(0x0100000000000000LL, 0, 0x0200000000000000LL, 0)
                           : _mm256_set_epi64x(0, 0, 0x0300000000000000LL, 0);
    __m256i x = y_xor3(_mm256_broadcastsi128_si256(jb), inc,
                       _mm256_load_si256((const __m256i *)(const void *)ks->enc_v[0]));
    const __m128i d = x_load_n(in, len);
    const __m128i a = x_load_n(aad, aad_len);
    const __m128i lv = _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8);
    /* Descending powers of three blocks: K_3, K_2, K_1. */
    const uint8_t *pw = vaes_gh_pow(g, 3);
    const __m128i k3 = x_load(pw), k2 = x_load(pw + 16), k1 = x_load(pw + 32);
    const __m128i ar = _mm_shuffle_epi8(a, bsw);
    __m128i lo = _mm_xor_si128(_mm_clmulepi64_si128(ar, k3, 0x00), _mm_clmulepi64_si128(lv, k1, 0x00));
    __m128i hi = _mm_xor_si128(_mm_clmulepi64_si128(ar, k3, 0x11), _mm_clmulepi64_si128(lv, k1, 0x11));
    __m128i mid = x_xor3(_mm_clmulepi64_si128(ar, k3, 0x01), _mm_clmulepi64_si128(ar, k3, 0x10),
                         _mm_xor_si128(_mm_clmulepi64_si128(lv, k1, 0x01), _mm_clmulepi64_si128(lv, k1, 0x10)));
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++)
        x = _mm256_aesenc_epi128(x, _mm256_load_si256((const __m256i *)(const void *)ks->enc_v[r]));
    /* The data enters through the last round key of lane 0 (lane 1 keeps
     * E(J0)): lane 0 leaves the rounds as E(J0 + 1) ^ d. */
    x = _mm256_aesenclast_epi128(x, _mm256_xor_si256(_mm256_load_si256((const __m256i *)(const void *)ks->enc_v[R]),
                                                     _mm256_zextsi128_si256(d)));
    const __m128i o = _mm256_castsi256_si128(x);
    x_store_n(out, len, o);
    const __m128i cr = _mm_shuffle_epi8(enc ? x_keep_n(o, len) : d, bsw);
    lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(cr, k2, 0x00));
    hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(cr, k2, 0x11));
    mid = x_xor3(mid, _mm_clmulepi64_si128(cr, k2, 0x01), _mm_clmulepi64_si128(cr, k2, 0x10));
    mid = x_xor3(mid, _mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, c, 0x00));
    const __m128i y = x_xor3(hi, _mm_shuffle_epi32(mid, 0x4e), _mm_clmulepi64_si128(mid, c, 0x00));
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, bsw), _mm256_extracti128_si256(x, 1)));
}

#if AK_LANES == 4
/* The same rule as x_window_one_page for a window of n <= 64 bytes. */
VAES_INLINE int z_window_one_page(const void *p, size_t n)
{
    const uintptr_t q = (uintptr_t)p;
    return n == 64 || ((q ^ (q + 63)) >> 12) == 0;
}

/* The end of vaes_gcm_four and vaes_gcm_fourn: the Montgomery reduction in
 * every lane of the sums (it is linear, so reducing the lanes and then
 * adding them equals reducing their sum), the fold of the four lanes, the
 * byte swap and the XOR with E(J0) in e; the tag stored. */
VAES_INLINE void vaes_four_tag(__m512i lo, __m512i mid, __m512i hi, __m128i e, uint8_t tag[16])
{
    const __m512i c = _mm512_set1_epi64((long long)0xc200000000000000ULL);
    mid = _mm512_ternarylogic_epi32(mid, _mm512_shuffle_epi32(lo, 0x4e), _mm512_clmulepi64_epi128(lo, c, 0x00), 0x96);
    const __m512i y4 = _mm512_ternarylogic_epi32(hi, _mm512_shuffle_epi32(mid, 0x4e), _mm512_clmulepi64_epi128(mid, c, 0x00), 0x96);
    const __m256i y2 = _mm256_xor_si256(_mm512_castsi512_si256(y4), _mm512_extracti64x4_epi64(y4, 1));
    const __m128i y = _mm_xor_si128(_mm256_castsi256_si128(y2), _mm256_extracti128_si256(y2, 1));
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, x_bswap_mask()), e));
}

/* Two to four data blocks (16 < len <= 64) and at most one AAD block, zmm
 * build only: vaes_gcm_one's shape one vector wider.  The data counters
 * J0 + 1 .. J0 + 4 are one zmm (lanes past the data encrypt counters no
 * byte uses) and J0 is an xmm beside it, both fed their round keys as
 * memory operands.  With nC = ceil(len / 16) data blocks GHASH is
 *     A * H^(nC+2) + sum_{i<nC} C_i * H^(nC+1-i) + L * H
 * (A = 0 when there is no AAD).  [A | L] times [K_(nC+2) | K_1] (a zmm
 * with two zero lanes) is formed while the rounds run; after the last round come the
 * data's four products (the zmm of descending powers from K_(nC+1); lanes
 * past nC meet zero data), one Montgomery reduction in every lane at once
 * (it is linear, so reducing the lanes and then adding them equals
 * reducing their sum), the fold of the four lanes, the byte swap and the
 * XOR with E(J0).  No byte outside the message is read or written (masked
 * accesses; the caller has checked z_window_one_page).  Math: vaes_ghash.h,
 * sections 2-4. */
VAES_INLINE void vaes_gcm_four(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i jb, const int jz,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                               uint8_t tag[16], int enc, const int R)
{
    vaes_keys_opaque(&ks);
    const __m128i bsx = x_bswap_mask();
    const __m512i bsw = _mm512_broadcast_i32x4(bsx);
    /* jb is J0 (counter word 1) or, with jz, IV || 0^32 (counter word 0).
     * J0 + i (i <= 4) is jb with byte 15 XORed by 1 ^ (1 + i): 3, 2, 5, 4
     * for lanes 0..3, or by 1 + i: 2, 3, 4, 5; J0 itself by 0, or by 1
     * (vaes_aes.h, "GCM counter words"). */
    const __m512i inc = jz ? _mm512_set_epi64(0x0500000000000000LL, 0, 0x0400000000000000LL, 0, 0x0300000000000000LL, 0,
                                              0x0200000000000000LL, 0)
                           : _mm512_set_epi64(0x0400000000000000LL, 0, 0x0500000000000000LL, 0, 0x0200000000000000LL, 0,
                                              0x0300000000000000LL, 0);
    __m512i x = _mm512_ternarylogic_epi32(_mm512_broadcast_i32x4(jb), inc, _mm512_load_si512(ks->enc_v[0]), 0x96);
    __m128i e = jz ? x_xor3(jb, x_load(ks->enc_v[0]), _mm_set_epi64x(0x0100000000000000LL, 0))
                   : _mm_xor_si128(jb, x_load(ks->enc_v[0]));
    const __mmask64 km = ~(__mmask64)0 >> (64 - len);
    const __m512i d = len == 64 ? _mm512_loadu_si512(in) : _mm512_maskz_loadu_epi8(km, in);
    /* K_(nC+1), K_nC, ..: the data's powers; K_(nC+2) is the entry before */
    const uint8_t *pc = vaes_gh_pow(g, (len + 15) / 16 + 1);
    /* [A | L] times [K_(nC+2) | K_1]: ymm products (vaes_gacc_mul_blocks2),
     * zero-extended into the data's zmm sums. */
    gacc al;
    vaes_gacc_zero(&al);
    vaes_gacc_mul_blocks2(&al, _mm_shuffle_epi8(x_load_n(aad, aad_len), bsx), pc - 16,
                          _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8), vaes_gh_pow(g, 1));
    const __m512i lo2 = al.lo, hi2 = al.hi, mid2 = al.mid;
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        x = _mm512_aesenc_epi128(x, _mm512_load_si512(ks->enc_v[r]));
        e = _mm_aesenc_si128(e, x_load(ks->enc_v[r]));
    }
    /* The data enters through the last round key: x leaves as the output. */
    x = _mm512_aesenclast_epi128(x, _mm512_xor_si512(_mm512_load_si512(ks->enc_v[R]), d));
    e = _mm_aesenclast_si128(e, x_load(ks->enc_v[R]));
    if (len == 64)
        _mm512_storeu_si512(out, x);
    else
        _mm512_mask_storeu_epi8(out, km, x);
    const __m512i cr = _mm512_shuffle_epi8(enc ? _mm512_maskz_mov_epi8(km, x) : d, bsw);
    const __m512i pw = _mm512_loadu_si512(pc);
    __m512i lo = _mm512_xor_si512(_mm512_clmulepi64_epi128(cr, pw, 0x00), lo2);
    const __m512i hi = _mm512_xor_si512(_mm512_clmulepi64_epi128(cr, pw, 0x11), hi2);
    __m512i mid = _mm512_ternarylogic_epi32(_mm512_clmulepi64_epi128(cr, pw, 0x01), _mm512_clmulepi64_epi128(cr, pw, 0x10),
                                            mid2, 0x96);
    vaes_four_tag(lo, mid, hi, e, tag);
}

/* vaes_gcm_four's shape NVD = 2 to 4 vectors wide: 64 * (NVD - 1) < len <=
 * 64 * NVD and at most one AAD block (zmm build only).
 * The data counters J0 + 1 .. J0 + 4 NVD are NVD zmm (lanes past the data
 * encrypt counters no byte uses), each formed from J0 by one three-way XOR
 * (vaes_four_inc), and J0 is an xmm beside them, all fed their round keys
 * as memory operands.  With nC = ceil(len / 16) data blocks GHASH is
 *     A * H^(nC+2) + sum_{i<nC} C_i * H^(nC+1-i) + L * H
 * (A = 0 when there is no AAD).  [A | L] times [K_(nC+2) | K_1] (one ymm
 * product set, vaes_gacc_mul_blocks2) is formed while the rounds run;
 * after the last round come the data's products (vector j against the
 * descending powers from K_(nC+1-4j); lanes past nC meet zero data), one
 * Montgomery reduction in every lane at once (it is linear, so reducing
 * the lanes and then adding them equals reducing their sum), the fold of
 * the four lanes, the byte swap and the XOR with E(J0).  No byte outside
 * the message is read or written (the last vector's accesses masked; the
 * caller has checked z_window_one_page for its window).  Math:
 * vaes_ghash.h, sections 2-4. */
#define VAES_FOUR_NVD_MAX 4

/* The XOR that turns J0 (jz: IV || 0^32) into the counters of data vector
 * j: lane l holds block i = 4j + l + 1, counter word 1 + i (at most 17, so
 * only byte 15 moves), i.e. byte 15 XORed by (1 + i) ^ 1, or by 1 + i from
 * a zero counter word (vaes_aes.h, "GCM counter words"). */
VAES_INLINE __m512i vaes_four_inc(const int jz, const int j)
{
    const long long b = 4 * j + 2;
    return _mm512_set_epi64((jz ? b + 3 : 1 ^ (b + 3)) << 56, 0, (jz ? b + 2 : 1 ^ (b + 2)) << 56, 0,
                            (jz ? b + 1 : 1 ^ (b + 1)) << 56, 0, (jz ? b : 1 ^ b) << 56, 0);
}

VAES_INLINE void vaes_gcm_fourn(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i jb, const int jz,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                               uint8_t tag[16], int enc, const int NVD, const int R)
{
    const __m128i bsx = x_bswap_mask();
    const __m512i bsw = _mm512_broadcast_i32x4(bsx);
    const __m512i jv = _mm512_broadcast_i32x4(jb), k0 = _mm512_load_si512(ks->enc_v[0]);
    __m512i x[VAES_FOUR_NVD_MAX], d[VAES_FOUR_NVD_MAX];
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVD; j++)
        x[j] = _mm512_ternarylogic_epi32(jv, vaes_four_inc(jz, j), k0, 0x96);
    __m128i e = jz ? x_xor3(jb, x_load(ks->enc_v[0]), _mm_set_epi64x(0x0100000000000000LL, 0))
                   : _mm_xor_si128(jb, x_load(ks->enc_v[0]));
    /* the last vector's bytes: 1..64 */
    const size_t lastn = len - (size_t)(64 * (NVD - 1));
    const __mmask64 km = ~(__mmask64)0 >> (64 - lastn);
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVD - 1; j++)
        d[j] = _mm512_loadu_si512(in + 64 * j);
    d[NVD - 1] = lastn == 64 ? _mm512_loadu_si512(in + 64 * (NVD - 1)) : _mm512_maskz_loadu_epi8(km, in + 64 * (NVD - 1));
    /* K_(nC+1), K_nC, ..: the data's powers; K_(nC+2) is the entry before */
    const uint8_t *pc = vaes_gh_pow(g, (len + 15) / 16 + 1);
    /* [A | L] times [K_(nC+2) | K_1]: ymm products, zero-extended into the
     * data's zmm sums. */
    gacc al;
    vaes_gacc_zero(&al);
    vaes_gacc_mul_blocks2(&al, _mm_shuffle_epi8(x_load_n(aad, aad_len), bsx), pc - 16,
                          _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8), vaes_gh_pow(g, 1));
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int j = 0; j < NVD; j++)
            x[j] = _mm512_aesenc_epi128(x[j], _mm512_load_si512(ks->enc_v[r]));
        e = _mm_aesenc_si128(e, x_load(ks->enc_v[r]));
    }
    /* The data enters through the last round key: x leaves as the output. */
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVD; j++)
        x[j] = _mm512_aesenclast_epi128(x[j], _mm512_xor_si512(_mm512_load_si512(ks->enc_v[R]), d[j]));
    e = _mm_aesenclast_si128(e, x_load(ks->enc_v[R]));
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVD - 1; j++)
        _mm512_storeu_si512(out + 64 * j, x[j]);
    if (lastn == 64)
        _mm512_storeu_si512(out + 64 * (NVD - 1), x[NVD - 1]);
    else
        _mm512_mask_storeu_epi8(out + 64 * (NVD - 1), km, x[NVD - 1]);
    __m512i lo = al.lo, hi = al.hi, mid = al.mid;
    _Pragma("GCC unroll 4")
    for (int j = 0; j < NVD; j++) {
        const __m512i cv = enc ? (j == NVD - 1 ? _mm512_maskz_mov_epi8(km, x[j]) : x[j]) : d[j];
        const __m512i cr = _mm512_shuffle_epi8(cv, bsw);
        const __m512i pw = _mm512_loadu_si512(pc + 64 * j);
        lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(cr, pw, 0x00));
        hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(cr, pw, 0x11));
        mid = _mm512_ternarylogic_epi32(mid, _mm512_clmulepi64_epi128(cr, pw, 0x01),
                                        _mm512_clmulepi64_epi128(cr, pw, 0x10), 0x96);
    }
    vaes_four_tag(lo, mid, hi, e, tag);
}
#endif

/* ---- one kernel per size class, vector count and direction --------------- */

VAES_INLINE void vaes_gcm_tiny_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVEC)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0b = x_load(m->j0);
    switch (m->aes->rounds) {
    case 10: vaes_gcm_tiny(ks, g, j0b, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 10); break;
    case 12: vaes_gcm_tiny(ks, g, j0b, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 12); break;
    default: vaes_gcm_tiny(ks, g, j0b, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 14); break;
    }
}

#if AK_LANES == 4
VAES_INLINE void vaes_gcm_four_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVD)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = x_load(m->j0);
    if (NVD == 1) {
        switch (m->aes->rounds) {
        case 10: vaes_gcm_four(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 10); break;
        case 12: vaes_gcm_four(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 12); break;
        default: vaes_gcm_four(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 14); break;
        }
        return;
    }
    switch (m->aes->rounds) {
    case 10: vaes_gcm_fourn(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVD, 10); break;
    case 12: vaes_gcm_fourn(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVD, 12); break;
    default: vaes_gcm_fourn(ks, g, j0, 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVD, 14); break;
    }
}
#endif
VAES_INLINE void vaes_gcm_one_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    switch (m->aes->rounds) {
    case 10: vaes_gcm_one(ks, g, x_load(m->j0), 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 10); break;
    case 12: vaes_gcm_one(ks, g, x_load(m->j0), 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 12); break;
    default: vaes_gcm_one(ks, g, x_load(m->j0), 0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, 14); break;
    }
}

VAES_INLINE void vaes_gcm_short_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVEC)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    switch (m->aes->rounds) {
    case 10: vaes_gcm_short(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 10); break;
    case 12: vaes_gcm_short(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 12); break;
    default: vaes_gcm_short(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVEC, 14); break;
    }
}

VAES_INLINE void vaes_gcm_onepass_msg(ak_gcm_msg *m, size_t len, size_t aad_len, int enc, const int NVX)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    switch (m->aes->rounds) {
    case 10: vaes_gcm_onepass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVX, 10); break;
    case 12: vaes_gcm_onepass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVX, 12); break;
    default: vaes_gcm_onepass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, enc, NVX, 14); break;
    }
}

VAES_INLINE void vaes_gcm_twopass_msg(ak_gcm_msg *m, size_t len, size_t aad_len, const int NVX)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    switch (m->aes->rounds) {
    case 10: vaes_gcm_twopass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, NVX, 10); break;
    case 12: vaes_gcm_twopass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, NVX, 12); break;
    default: vaes_gcm_twopass(ks, g, j0, m->aad, aad_len, m->in, len, m->out, m->tag, NVX, 14); break;
    }
}

/* Each size class is its own function, so the common small messages pay
 * only their own prologue (the long path's stack frame is large).  The
 * long path stays one function for both directions (it is large, and a few
 * instructions of call do not show at its sizes), except seals of more
 * than VAES_GCM_LAG2_MIN batches (vaes_gcm_long_seal_msg), and once more
 * for the other form of its closing GHASH products (vaes_gh_kara; kara, a
 * compile-time constant, names the form). */
VAES_INLINE void vaes_gcm_long_msg_form(ak_gcm_msg *m, const int kara)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    const int enc = !(m->flags & AK_GCM_OPEN);
    switch (m->aes->rounds) {
    case 10: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, enc, 10, 0, kara); break;
    case 12: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, enc, 12, 0, kara); break;
    default: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, enc, 14, 0, kara); break;
    }
}

VAES_NOINLINE void vaes_gcm_long_msg(ak_gcm_msg *m) { vaes_gcm_long_msg_form(m, 0); }

#if !AK_KARATSUBA
/* The same with the Karatsuba form, for the CPUs that want it: a function
 * of its own, so that the schoolbook form's register allocation is the one
 * it has alone (docs/performance.md, "GHASH with no AES beside it in
 * Karatsuba form"). */
VAES_NOINLINE void vaes_gcm_long_kara_msg(ak_gcm_msg *m) { vaes_gcm_long_msg_form(m, 1); }
#endif

/* Seals of more than VAES_GCM_LAG2_MIN batches: the long path at lag two
 * (vaes_gcm_body), a function of its own. */
VAES_NOINLINE void vaes_gcm_long_seal_msg(ak_gcm_msg *m)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(m->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(m->gh);
    const __m128i j0 = _mm_shuffle_epi8(x_load(m->j0), x_bswap_mask());
    switch (m->aes->rounds) {
    case 10: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 1, 10, 1, 0); break;
    case 12: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 1, 12, 1, 0); break;
    default: vaes_gcm_long(ks, g, j0, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 1, 14, 1, 0); break;
    }
}

/* A size class's kernel for one vector count and direction: the entry
 * jumps to it with the descriptor and the two lengths it has already
 * loaded from it. */
typedef void vaes_gcm_msg_kernel(ak_gcm_msg *m, size_t len, size_t aad_len);

VAES_NOINLINE void vaes_gcm_tiny_seal1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 1, 1); }
VAES_NOINLINE void vaes_gcm_tiny_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 1, 2); }
VAES_NOINLINE void vaes_gcm_tiny_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 1, 3); }
VAES_NOINLINE void vaes_gcm_tiny_seal4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 1, 4); }
VAES_NOINLINE void vaes_gcm_tiny_open1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 0, 1); }
VAES_NOINLINE void vaes_gcm_tiny_open2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 0, 2); }
VAES_NOINLINE void vaes_gcm_tiny_open3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 0, 3); }
VAES_NOINLINE void vaes_gcm_tiny_open4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_tiny_msg(m, len, aad_len, 0, 4); }
#if AK_LANES == 4
/* The zmm build's first tiny entry (len <= 32): one data block whose
 * partial windows stay on one page takes vaes_gcm_one, the rest the tiny
 * kernel; the choice sits here so that longer messages do not pay for it. */
VAES_INLINE int vaes_gcm_one_fits_at(const uint8_t *in, const uint8_t *out, const uint8_t *aad, size_t len,
                                     size_t aad_len)
{
    return len - 1 < 16 && x_window_one_page(in, len) && x_window_one_page(out, len) &&
           (aad_len == 0 || x_window_one_page(aad, aad_len));
}
VAES_INLINE int vaes_gcm_one_fits(const ak_gcm_msg *m, size_t len, size_t aad_len)
{
    return vaes_gcm_one_fits_at(m->in, m->out, m->aad, len, aad_len);
}
/* vaes_gcm_four's messages: 16 < len <= 64, windows on one page. */
VAES_INLINE int vaes_gcm_four_fits_at(const uint8_t *in, const uint8_t *out, const uint8_t *aad, size_t len,
                                      size_t aad_len)
{
    return len - 17 < 48 && z_window_one_page(in, len) && z_window_one_page(out, len) &&
           (aad_len == 0 || x_window_one_page(aad, aad_len));
}
VAES_INLINE int vaes_gcm_four_fits(const ak_gcm_msg *m, size_t len, size_t aad_len)
{
    return vaes_gcm_four_fits_at(m->in, m->out, m->aad, len, aad_len);
}
/* vaes_gcm_fourn's messages (64 < len <= 256, aad_len <= 16): the last
 * window on one page (the whole ones need no test; the others go on to the
 * kernel their slot had before).  Seals take it in every slot of those
 * lengths (tiny 2-4, short 4, one pass 0); opens only where the tiny
 * layout needs one vector more than it (nC = 7, 8, 11, 12: J0, A and L
 * take lanes there), since elsewhere the tiny kernel's opens, whose
 * products need no AES result, measured as fast or faster
 * (docs/performance.md, "Zen 4: the AAD and length products in one
 * ymm"). */
VAES_INLINE int vaes_gcm_fourn_fits_at(const uint8_t *in, const uint8_t *out, const uint8_t *aad, size_t len,
                                       size_t aad_len)
{
    const size_t last = (len - 1) & ~(size_t)63, lastn = len - last;
    return len - 65 < 192 && aad_len <= 16 && z_window_one_page(in + last, lastn) &&
           z_window_one_page(out + last, lastn) && (aad_len == 0 || x_window_one_page(aad, aad_len));
}
VAES_INLINE int vaes_gcm_fourn_fits(const ak_gcm_msg *m, size_t len, size_t aad_len)
{
    return vaes_gcm_fourn_fits_at(m->in, m->out, m->aad, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_four2_seal(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_four_msg(m, len, aad_len, 1, 2); }
VAES_NOINLINE void vaes_gcm_four3_seal(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_four_msg(m, len, aad_len, 1, 3); }
VAES_NOINLINE void vaes_gcm_four4_seal(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_four_msg(m, len, aad_len, 1, 4); }
VAES_NOINLINE void vaes_gcm_four2_open(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_four_msg(m, len, aad_len, 0, 2); }
VAES_NOINLINE void vaes_gcm_four3_open(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_four_msg(m, len, aad_len, 0, 3); }
/* The first tiny slot's kernels start on a 64-byte boundary: where a
 * straight-line kernel of a one-block message starts decides how many
 * 64-byte fetch blocks it spans, which would otherwise move with every
 * change to the code before it. */
#define VAES_ONE_ALIGN __attribute__((aligned(64)))
VAES_ONE_ALIGN VAES_NOINLINE void vaes_gcm_one_seal(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_one_fits(m, len, aad_len))
        vaes_gcm_one_msg(m, len, aad_len, 1);
    else if (vaes_gcm_four_fits(m, len, aad_len))
        vaes_gcm_four_msg(m, len, aad_len, 1, 1);
    else
        vaes_gcm_tiny_seal1(m, len, aad_len);
}
VAES_ONE_ALIGN VAES_NOINLINE void vaes_gcm_one_open(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (__builtin_expect(vaes_gcm_one_fits(m, len, aad_len), 1))
        vaes_gcm_one_msg(m, len, aad_len, 0);
    else if (vaes_gcm_four_fits(m, len, aad_len))
        vaes_gcm_four_msg(m, len, aad_len, 0, 1);
    else
        vaes_gcm_tiny_open1(m, len, aad_len);
}
/* The second tiny entry (32 < len <= 96): up to 64 bytes in vaes_gcm_four. */
VAES_NOINLINE void vaes_gcm_four_seal(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_four_fits(m, len, aad_len))
        vaes_gcm_four_msg(m, len, aad_len, 1, 1);
    else if (vaes_gcm_fourn_fits(m, len, aad_len))
        vaes_gcm_four2_seal(m, len, aad_len);
    else
        vaes_gcm_tiny_seal2(m, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_four_open(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_four_fits(m, len, aad_len))
        vaes_gcm_four_msg(m, len, aad_len, 0, 1);
    else
        vaes_gcm_tiny_open2(m, len, aad_len);
}
/* Opening, the tiny table's slots 3 and 4: vaes_gcm_fourn for nC = 7, 8
 * and 11, 12 where it fits (vaes_gcm_fourn_fits), else the tiny kernel. */
VAES_NOINLINE void vaes_gcm_fourn_open3(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (len <= 16 * 8 && vaes_gcm_fourn_fits(m, len, aad_len))
        vaes_gcm_four2_open(m, len, aad_len);
    else
        vaes_gcm_tiny_open3(m, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_fourn_open4(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (len <= 16 * 12 && vaes_gcm_fourn_fits(m, len, aad_len))
        vaes_gcm_four3_open(m, len, aad_len);
    else
        vaes_gcm_tiny_open4(m, len, aad_len);
}
#define VAES_TINY_SEAL2 vaes_gcm_four_seal
#define VAES_TINY_OPEN2 vaes_gcm_four_open
#define VAES_TINY_SEAL1 vaes_gcm_one_seal
#define VAES_TINY_OPEN1 vaes_gcm_one_open
#else
/* The ymm build's second tiny entry (0 < len <= 32): one whole data block
 * and no AAD or one whole AAD block (no byte masks on ymm) takes
 * vaes_gcm_one, the rest the tiny kernel. */
VAES_INLINE int vaes_gcm_one_fits(size_t len, size_t aad_len) { return len == 16 && (aad_len | 16) == 16; }
VAES_NOINLINE void vaes_gcm_one_seal(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_one_fits(len, aad_len))
        vaes_gcm_one_msg(m, len, aad_len, 1);
    else
        vaes_gcm_tiny_seal2(m, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_one_open(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_one_fits(len, aad_len))
        vaes_gcm_one_msg(m, len, aad_len, 0);
    else
        vaes_gcm_tiny_open2(m, len, aad_len);
}
#define VAES_TINY_SEAL1 vaes_gcm_tiny_seal1
#define VAES_TINY_OPEN1 vaes_gcm_tiny_open1
#define VAES_TINY_SEAL2 vaes_gcm_one_seal
#define VAES_TINY_OPEN2 vaes_gcm_one_open
#endif
VAES_NOINLINE void vaes_gcm_short_seal1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 1, 1); }
VAES_NOINLINE void vaes_gcm_short_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 1, 2); }
VAES_NOINLINE void vaes_gcm_short_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 1, 3); }
VAES_NOINLINE void vaes_gcm_short_seal4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 1, 4); }
VAES_NOINLINE void vaes_gcm_short_open1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 0, 1); }
VAES_NOINLINE void vaes_gcm_short_open2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 0, 2); }
VAES_NOINLINE void vaes_gcm_short_open3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 0, 3); }
VAES_NOINLINE void vaes_gcm_short_open4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_short_msg(m, len, aad_len, 0, 4); }
VAES_NOINLINE void vaes_gcm_onepass_seal0(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 0); }
VAES_NOINLINE void vaes_gcm_onepass_seal1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 1); }
VAES_NOINLINE void vaes_gcm_onepass_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 2); }
VAES_NOINLINE void vaes_gcm_onepass_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 3); }
VAES_NOINLINE void vaes_gcm_onepass_seal4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 4); }
VAES_NOINLINE void vaes_gcm_onepass_open0(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 0); }
VAES_NOINLINE void vaes_gcm_onepass_open1(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 1); }
VAES_NOINLINE void vaes_gcm_onepass_open2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 2); }
VAES_NOINLINE void vaes_gcm_onepass_open3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 3); }
VAES_NOINLINE void vaes_gcm_onepass_open4(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 4); }
VAES_NOINLINE void vaes_gcm_onepass_seal5(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 5); }
VAES_NOINLINE void vaes_gcm_onepass_seal6(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 6); }
VAES_NOINLINE void vaes_gcm_onepass_open5(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 5); }
VAES_NOINLINE void vaes_gcm_onepass_open6(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 6); }
#if AK_LANES == 2
VAES_NOINLINE void vaes_gcm_onepass_seal7(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 7); }
VAES_NOINLINE void vaes_gcm_onepass_seal8(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 8); }
VAES_NOINLINE void vaes_gcm_onepass_seal9(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, NV + 9); }
VAES_NOINLINE void vaes_gcm_onepass_open7(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 7); }
VAES_NOINLINE void vaes_gcm_onepass_open8(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 8); }
VAES_NOINLINE void vaes_gcm_onepass_open9(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 0, NV + 9); }
#define VAES_ONEPASS_SEAL_7_9 , vaes_gcm_onepass_seal7, vaes_gcm_onepass_seal8, vaes_gcm_onepass_seal9
#define VAES_ONEPASS_OPEN_7_9 , vaes_gcm_onepass_open7, vaes_gcm_onepass_open8, vaes_gcm_onepass_open9
#else
#define VAES_ONEPASS_SEAL_7_9
#define VAES_ONEPASS_OPEN_7_9
#endif

#if AK_LANES == 4
/* The one-pass layout for a few blocks (zmm).  With aad_len <= 16 and len
 * <= 16 * (BATCH - 2) the tiny kernel puts J0/A and L in lanes of the
 * counter vectors: nC + 2 lanes, (nC + 1) / AK_LANES + 1 vectors.  The
 * one-pass layout gives the data nC lanes, ceil(nC / AK_LANES) vectors, and
 * hashes A and L in two products of their own beside the rounds, with
 * E(J0) in a 128-bit register.  Where the tiny count is one vector more
 * (nC % AK_LANES is 0 or AK_LANES - 1) that saves a vector of rounds and
 * its product for the two small products; elsewhere it saves nothing and
 * costs them.  Hence nC = 7, 8, 11 or 12 (2 or 3 vectors; nC = 3 and 4
 * would save too, but their seals have a kernel of their own,
 * vaes_gcm_four, and their batches the multi-message kernel).  Branches on
 * lengths only. */
#define VAES_FEW_NC_MASK ((1u << 7) | (1u << 8) | (1u << 11) | (1u << 12))
#define VAES_FEW_NVX_MIN 2
#define VAES_FEW_NVX_MAX 3
VAES_INLINE int vaes_onepass_few_nvx(size_t len, size_t aad_len)
{
    const size_t nC = (len + 15) / 16;
    if (aad_len > 16 || nC > 12 || !((VAES_FEW_NC_MASK >> nC) & 1))
        return 0;
    return nC <= 8 ? 2 : 3;
}
VAES_NOINLINE void vaes_gcm_onepass_few_seal2(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, 2); }
VAES_NOINLINE void vaes_gcm_onepass_few_seal3(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_onepass_msg(m, len, aad_len, 1, 3); }
/* Sealing, the tiny table's slots 3 and 4 (nC = 7..10 and 11..14):
 * vaes_gcm_fourn where its windows fit, else the one-pass shapes above
 * (nC <= 8 and nC <= 12 within the slots) and the tiny kernel for the
 * others. */
VAES_NOINLINE void vaes_gcm_few_seal3(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_fourn_fits(m, len, aad_len)) {
        if (len <= 128)
            vaes_gcm_four2_seal(m, len, aad_len);
        else
            vaes_gcm_four3_seal(m, len, aad_len);
    } else if (len <= 16 * 8)
        vaes_gcm_onepass_few_seal2(m, len, aad_len);
    else
        vaes_gcm_tiny_seal3(m, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_few_seal4(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_fourn_fits(m, len, aad_len)) {
        if (len <= 192)
            vaes_gcm_four3_seal(m, len, aad_len);
        else
            vaes_gcm_four4_seal(m, len, aad_len);
    } else if (len <= 16 * 12)
        vaes_gcm_onepass_few_seal3(m, len, aad_len);
    else
        vaes_gcm_tiny_seal4(m, len, aad_len);
}
#define VAES_TINY_SEAL3 vaes_gcm_few_seal3
#define VAES_TINY_SEAL4 vaes_gcm_few_seal4
#define VAES_TINY_OPEN3 vaes_gcm_fourn_open3
#define VAES_TINY_OPEN4 vaes_gcm_fourn_open4
#else
#define VAES_TINY_SEAL3 vaes_gcm_tiny_seal3
#define VAES_TINY_SEAL4 vaes_gcm_tiny_seal4
#define VAES_TINY_OPEN3 vaes_gcm_tiny_open3
#define VAES_TINY_OPEN4 vaes_gcm_tiny_open4
#endif

#if AK_LANES == 4
/* Seals of 225-256 B (the short class's last slot, the one-pass class's
 * first) with at most one AAD block: vaes_gcm_fourn where it fits. */
VAES_NOINLINE void vaes_gcm_fourn_seal_s4(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_fourn_fits(m, len, aad_len))
        vaes_gcm_four4_seal(m, len, aad_len);
    else
        vaes_gcm_short_seal4(m, len, aad_len);
}
VAES_NOINLINE void vaes_gcm_fourn_seal_o0(ak_gcm_msg *m, size_t len, size_t aad_len)
{
    if (vaes_gcm_fourn_fits(m, len, aad_len))
        vaes_gcm_four4_seal(m, len, aad_len);
    else
        vaes_gcm_onepass_seal0(m, len, aad_len);
}
#define VAES_SHORT_SEAL4 vaes_gcm_fourn_seal_s4
#define VAES_ONEPASS_SEAL0 vaes_gcm_fourn_seal_o0
#else
#define VAES_SHORT_SEAL4 vaes_gcm_short_seal4
#define VAES_ONEPASS_SEAL0 vaes_gcm_onepass_seal0
#endif
/* Indexed [AK_GCM_OPEN bit][vectors - 1]. */
_Static_assert(AK_GCM_OPEN == 1, "the direction bit indexes the kernel tables");
static vaes_gcm_msg_kernel *const vaes_gcm_tiny_kernels[2][NV] = {
    {VAES_TINY_SEAL1, VAES_TINY_SEAL2, VAES_TINY_SEAL3, VAES_TINY_SEAL4},
    {VAES_TINY_OPEN1, VAES_TINY_OPEN2, VAES_TINY_OPEN3, VAES_TINY_OPEN4}};
static vaes_gcm_msg_kernel *const vaes_gcm_short_kernels[2][NV] = {
    {vaes_gcm_short_seal1, vaes_gcm_short_seal2, vaes_gcm_short_seal3, VAES_SHORT_SEAL4},
    {vaes_gcm_short_open1, vaes_gcm_short_open2, vaes_gcm_short_open3, vaes_gcm_short_open4}};
/* [AK_GCM_OPEN bit][vectors - NV]. */
static vaes_gcm_msg_kernel *const vaes_gcm_onepass_kernels[2][VAES_ONEPASS_NVX_MAX - NV + 1] = {
    {VAES_ONEPASS_SEAL0, vaes_gcm_onepass_seal1, vaes_gcm_onepass_seal2, vaes_gcm_onepass_seal3,
     vaes_gcm_onepass_seal4, vaes_gcm_onepass_seal5, vaes_gcm_onepass_seal6 VAES_ONEPASS_SEAL_7_9},
    {vaes_gcm_onepass_open0, vaes_gcm_onepass_open1, vaes_gcm_onepass_open2, vaes_gcm_onepass_open3,
     vaes_gcm_onepass_open4, vaes_gcm_onepass_open5, vaes_gcm_onepass_open6 VAES_ONEPASS_OPEN_7_9}};
_Static_assert(VAES_ONEPASS_NVX_MAX == NV + 6 + 3 * (AK_LANES == 2), "one one-pass kernel per vector count");
#if AK_LANES == 4
VAES_NOINLINE void vaes_gcm_twopass_seal5(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 5); }
VAES_NOINLINE void vaes_gcm_twopass_seal6(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 6); }
VAES_NOINLINE void vaes_gcm_twopass_seal7(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 7); }
VAES_NOINLINE void vaes_gcm_twopass_seal8(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 8); }
VAES_NOINLINE void vaes_gcm_twopass_seal9(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 9); }
VAES_NOINLINE void vaes_gcm_twopass_seal10(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 10); }
VAES_NOINLINE void vaes_gcm_twopass_seal11(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 11); }
VAES_NOINLINE void vaes_gcm_twopass_seal12(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 12); }
#endif
#if AK_LANES == 2
VAES_NOINLINE void vaes_gcm_twopass_seal13(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 13); }
VAES_NOINLINE void vaes_gcm_twopass_seal14(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 14); }
VAES_NOINLINE void vaes_gcm_twopass_seal15(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 15); }
VAES_NOINLINE void vaes_gcm_twopass_seal16(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 16); }
VAES_NOINLINE void vaes_gcm_twopass_seal17(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 17); }
VAES_NOINLINE void vaes_gcm_twopass_seal18(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 18); }
VAES_NOINLINE void vaes_gcm_twopass_seal19(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 19); }
VAES_NOINLINE void vaes_gcm_twopass_seal20(ak_gcm_msg *m, size_t len, size_t aad_len) { vaes_gcm_twopass_msg(m, len, aad_len, 20); }
#endif
/* [vectors - VAES_TWOPASS_NVX_MIN]. */
static vaes_gcm_msg_kernel *const vaes_gcm_twopass_seals[] = {
#if AK_LANES == 4
    vaes_gcm_twopass_seal5, vaes_gcm_twopass_seal6, vaes_gcm_twopass_seal7, vaes_gcm_twopass_seal8,
    vaes_gcm_twopass_seal9, vaes_gcm_twopass_seal10, vaes_gcm_twopass_seal11, vaes_gcm_twopass_seal12,
#endif
#if AK_LANES == 2
    vaes_gcm_twopass_seal13, vaes_gcm_twopass_seal14, vaes_gcm_twopass_seal15,
    vaes_gcm_twopass_seal16, vaes_gcm_twopass_seal17, vaes_gcm_twopass_seal18, vaes_gcm_twopass_seal19,
    vaes_gcm_twopass_seal20,
#endif
};
_Static_assert(sizeof vaes_gcm_twopass_seals / sizeof vaes_gcm_twopass_seals[0] ==
                   VAES_TWOPASS_NVX_MAX - VAES_TWOPASS_NVX_MIN + 1,
               "one two-pass kernel per vector count");

/* ---- the gcm_msgs entry ------------------------------------------------- */

/* The size classes: tiny (at most one AAD block; lanes for J0/A, the data
 * blocks and L: nC + 2 <= BATCH; on zmm a seal of 65 bytes or more, and an
 * open of 7, 8, 11 or 12 blocks, takes vaes_gcm_fourn instead, see
 * vaes_gcm_fourn_fits, as do the seals of 225-256 B with one AAD block
 * or none), short (J0 and
 * the data in one pass, the AAD beside it: nC + 1 <= BATCH), one pass (BATCH <= nC <= AK_LANES * VAES_ONEPASS_NVX_MAX
 * and the powers suffice, J0 beside the data), long.  The vector count of nC + 2 lanes
 * is (nC + 1) / AK_LANES + 1, where nC + 1 = (len + 31) / 16; of nC + 1
 * lanes nC / AK_LANES + 1.  A small class's call is the last act, with the
 * descriptor pointer unchanged: a jump.  Branches on lengths only. */
VAES_INLINE void vaes_gcm_msg(ak_gcm_msg *m)
{
    const size_t len = m->len, aad_len = m->aad_len;
    const unsigned open = m->flags & AK_GCM_OPEN;
    if (aad_len <= 16 && len <= 16 * (BATCH - 2)) {
        vaes_gcm_tiny_kernels[open][(len + 31) / (16 * AK_LANES)](m, len, aad_len);
        return;
    }
    const size_t nA = (aad_len + 15) / 16, nC = (len + 15) / 16;
    if (len <= 16 * (BATCH - 1) && nA + nC + 2 <= NPOW) {
        vaes_gcm_short_kernels[open][nC / AK_LANES](m, len, aad_len);
        return;
    }
    if (!open && nC > AK_LANES * (VAES_TWOPASS_NVX_MIN - 1) && len <= VAES_TWOPASS_LEN_MAX && (aad_len | 16) == 16) {
        vaes_gcm_twopass_seals[(nC + AK_LANES - 1) / AK_LANES - VAES_TWOPASS_NVX_MIN](m, len, aad_len);
        return;
    }
    if (nC >= BATCH && nC <= AK_LANES * VAES_ONEPASS_NVX_MAX && nA + nC + 1 <= NPOW) {
        vaes_gcm_onepass_kernels[open][(nC + AK_LANES - 1) / AK_LANES - NV](m, len, aad_len);
        return;
    }
    if (!open && len > VAES_GCM_LAG2_LEN) {
        vaes_gcm_long_seal_msg(m);
        return;
    }
#if !AK_KARATSUBA
    if (vaes_gh_kara(vaes_ghash_key(m->gh))) {
        vaes_gcm_long_kara_msg(m);
        return;
    }
#endif
    vaes_gcm_long_msg(m);
}

/* ---- the gcm_seal12 entry (src/internal.h) -------------------------------
 *
 * A one-shot seal the front end has checked, with a 12-byte IV, a 16-byte
 * tag, 1 <= len <= gcm_reg_max and aad_len <= 16 (lens = len | aad_len
 * << AK_GCM_LENS_SHIFT, VAES_LENS), and J0 less its counter word in a register (ivz = IV || 0^32: the
 * kernels XOR in the counter words).  No descriptor; the kernel is picked
 * on lens, the rounds on the key.  A message whose partial windows would
 * touch another page (the rules of vaes_gcm_one_fits and
 * vaes_gcm_four_fits), or that no register kernel of this width covers,
 * goes through a descriptor to vaes_gcm_msg.  Branches on lengths and
 * pointers only. */
#define VAES_LENS(len, aad_len) ((size_t)(len) | (size_t)(aad_len) << AK_GCM_LENS_SHIFT)
#define VAES_LENS_LEN(lens) ((lens) & (((size_t)1 << AK_GCM_LENS_SHIFT) - 1))
#define VAES_LENS_AAD(lens) ((lens) >> AK_GCM_LENS_SHIFT)

/* The descriptor path of both register entries; flags: AK_GCM_J0_IV12,
 * with AK_GCM_OPEN for gcm_open12 (tag: the expected tag). */
VAES_INLINE void vaes_gcm_reg12_msg(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                    const uint8_t *aad, size_t lens, __m128i ivz, uint32_t flags)
{
    ak_gcm_msg d;
    d.aes = &gk->aes;
    d.gh = &gk->gh;
    d.in = in;
    d.out = out;
    d.len = VAES_LENS_LEN(lens);
    d.aad = aad;
    d.aad_len = VAES_LENS_AAD(lens);
    d.flags = flags;
    d.tag = tag;
    x_store(d.j0, _mm_or_si128(ivz, _mm_set_epi32(0x01000000, 0, 0, 0)));
    vaes_gcm_msg(&d);
}
VAES_NOINLINE aeskit_status vaes_gcm_seal12_msg(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                                const uint8_t *aad, size_t lens, __m128i ivz)
{
    vaes_gcm_reg12_msg(gk, out, tag, in, aad, lens, ivz, AK_GCM_J0_IV12);
    return AESKIT_OK;
}

/* The end of every open through the register entry (gcm_open12,
 * src/internal.h): the expected tag at T against the caller's tag in
 * constant time (ak_ct_eq_mask, whose result alone is branched on), T
 * wiped, and a mismatch to the front end's failure handling. */
VAES_INLINE aeskit_status vaes_gcm_open12_end(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag, uint8_t T[16],
                                              const uint8_t *in, size_t lens, __m128i ivz)
{
    const uint32_t eq = ak_ct_eq_mask(T, tag, 16);
    x_store(T, _mm_setzero_si128());
    __asm__ volatile("" : : "r"(T) : "memory"); /* the wipe stays */
    if (__builtin_expect(eq != 0, 1))
        return AESKIT_OK;
    return ak_mo_gcm_open12_fail(gk, out, in, lens, (ak_v2u64)ivz);
}

/* enc: 1 seal, 0 open (tag: the expected tag) */
VAES_INLINE void vaes_gcm_one_iv12(const ak_gcm_key *gk, __m128i ivz, const uint8_t *aad, size_t aad_len,
                                   const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, int enc)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_one(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 10); break;
    case 12: vaes_gcm_one(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 12); break;
    default: vaes_gcm_one(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 14); break;
    }
}

#if AK_LANES == 4
VAES_INLINE void vaes_gcm_four_iv12(const ak_gcm_key *gk, __m128i ivz, const uint8_t *aad, size_t aad_len,
                                    const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, int enc)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_four(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 10); break;
    case 12: vaes_gcm_four(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 12); break;
    default: vaes_gcm_four(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, enc, 14); break;
    }
}

VAES_INLINE void vaes_gcm_fourn_iv12(const ak_gcm_key *gk, __m128i ivz, const uint8_t *aad, size_t aad_len,
                                     const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, const int NVD)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_fourn(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, 1, NVD, 10); break;
    case 12: vaes_gcm_fourn(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, 1, NVD, 12); break;
    default: vaes_gcm_fourn(ks, g, ivz, 1, aad, aad_len, in, len, out, tag, 1, NVD, 14); break;
    }
}

/* Seals of 65-256 B in the register entry: vaes_gcm_fourn (two to four
 * vectors) where vaes_gcm_fourn_fits_at allows, else the descriptor path.
 * A function of its own, reached by a tail call, so that the 1-64 B
 * kernels' frame and block layout stay as they are. */
VAES_NOINLINE aeskit_status vaes_gcm_seal12_fourn(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                                  const uint8_t *aad, size_t lens, __m128i ivz)
{
    const size_t len = VAES_LENS_LEN(lens), aad_len = VAES_LENS_AAD(lens);
    if (__builtin_expect(!vaes_gcm_fourn_fits_at(in, out, aad, len, aad_len), 0))
        return vaes_gcm_seal12_msg(gk, out, tag, in, aad, lens, ivz);
    if (len <= 128)
        vaes_gcm_fourn_iv12(gk, ivz, aad, aad_len, in, len, out, tag, 2);
    else if (len <= 192)
        vaes_gcm_fourn_iv12(gk, ivz, aad, aad_len, in, len, out, tag, 3);
    else
        vaes_gcm_fourn_iv12(gk, ivz, aad, aad_len, in, len, out, tag, 4);
    return AESKIT_OK;
}

/* 1-64 B other than the two fixed cases of vaes_gcm_seal12: vaes_gcm_one
 * or vaes_gcm_four where their windows fit, else the descriptor path.  A
 * function of its own, so that the entry's fixed cases and its tail calls
 * need no frame. */
VAES_NOINLINE aeskit_status vaes_gcm_seal12_small(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                                  const uint8_t *aad, size_t lens, __m128i ivz)
{
    const size_t len = VAES_LENS_LEN(lens), aad_len = VAES_LENS_AAD(lens);
    if (__builtin_expect(vaes_gcm_one_fits_at(in, out, aad, len, aad_len), 1)) {
        vaes_gcm_one_iv12(gk, ivz, aad, aad_len, in, len, out, tag, 1);
        return AESKIT_OK;
    }
    if (__builtin_expect(vaes_gcm_four_fits_at(in, out, aad, len, aad_len), 1)) {
        vaes_gcm_four_iv12(gk, ivz, aad, aad_len, in, len, out, tag, 1);
        return AESKIT_OK;
    }
    return vaes_gcm_seal12_msg(gk, out, tag, in, aad, lens, ivz);
}

#define VAES_GCM_REG_MAX 256
/* The zmm build: 1 <= len <= 256 (gcm_reg_max 256).  16 and 64 bytes with
 * one whole AAD block, whose windows are all whole, each have a kernel
 * with no mask and no page test; 65-256 B go on to vaes_gcm_seal12_fourn. */
VAES_INLINE aeskit_status vaes_gcm_seal12(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                          const uint8_t *aad, size_t lens, __m128i ivz)
{
    if (lens == VAES_LENS(16, 16)) {
        vaes_gcm_one_iv12(gk, ivz, aad, 16, in, 16, out, tag, 1);
        return AESKIT_OK;
    }
    if (lens == VAES_LENS(64, 16)) {
        vaes_gcm_four_iv12(gk, ivz, aad, 16, in, 64, out, tag, 1);
        return AESKIT_OK;
    }
    if (VAES_LENS_LEN(lens) > 64)
        return vaes_gcm_seal12_fourn(gk, out, tag, in, aad, lens, ivz);
    return vaes_gcm_seal12_small(gk, out, tag, in, aad, lens, ivz);
}

/* Opens whose windows would cross a page (vaes_gcm_open12_small): a
 * descriptor. */
VAES_NOINLINE aeskit_status vaes_gcm_open12_msg(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag,
                                                const uint8_t *in, const uint8_t *aad, size_t lens, __m128i ivz)
{
    AESKIT_ALIGN(16) uint8_t T[16];
    vaes_gcm_reg12_msg(gk, out, T, in, aad, lens, ivz, AK_GCM_J0_IV12 | AK_GCM_OPEN);
    return vaes_gcm_open12_end(gk, out, tag, T, in, lens, ivz);
}

/* Opens of 1-64 B other than the fixed cases of vaes_gcm_open12: the
 * kernels and rules of vaes_gcm_seal12_small, opening. */
VAES_NOINLINE aeskit_status vaes_gcm_open12_small(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag,
                                                  const uint8_t *in, const uint8_t *aad, size_t lens, __m128i ivz)
{
    const size_t len = VAES_LENS_LEN(lens), aad_len = VAES_LENS_AAD(lens);
    AESKIT_ALIGN(16) uint8_t T[16];
    if (__builtin_expect(vaes_gcm_one_fits_at(in, out, aad, len, aad_len), 1))
        vaes_gcm_one_iv12(gk, ivz, aad, aad_len, in, len, out, T, 0);
    else if (__builtin_expect(vaes_gcm_four_fits_at(in, out, aad, len, aad_len), 1))
        vaes_gcm_four_iv12(gk, ivz, aad, aad_len, in, len, out, T, 0);
    else
        return vaes_gcm_open12_msg(gk, out, tag, in, aad, lens, ivz);
    return vaes_gcm_open12_end(gk, out, tag, T, in, lens, ivz);
}

/* The zmm open entry, 1 <= len <= 64 (gcm_open_reg_max 64): 16 and 64
 * bytes with one whole AAD block in vaes_gcm_one and vaes_gcm_four, other
 * lengths through vaes_gcm_open12_small.  The bound: longer opens are
 * faster through the front end's descriptor than through one built here
 * (docs/performance.md, "Sapphire Rapids class, register opens"). */
#define VAES_GCM_OPEN_REG_MAX 64
VAES_INLINE aeskit_status vaes_gcm_open12(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                          const uint8_t *aad, size_t lens, __m128i ivz)
{
    AESKIT_ALIGN(16) uint8_t T[16];
    if (lens == VAES_LENS(16, 16))
        vaes_gcm_one_iv12(gk, ivz, aad, 16, in, 16, out, T, 0);
    else if (lens == VAES_LENS(64, 16))
        vaes_gcm_four_iv12(gk, ivz, aad, 16, in, 64, out, T, 0);
    else
        return vaes_gcm_open12_small(gk, out, tag, in, aad, lens, ivz);
    return vaes_gcm_open12_end(gk, out, tag, T, in, lens, ivz);
}
#else
/* Seals of 32, 48 or 64 bytes (nC = 2..4 whole blocks) with no AAD or one
 * whole AAD block, ymm build: vaes_gcm_four's shape in NVY = 1 or 2 ymm of
 * data counters (J0 + 1 .. J0 + 2 NVY; a lane past the data encrypts a
 * counter no byte uses) beside J0 in an xmm, round keys as memory
 * operands.  With whole blocks there is no partial window, so no byte
 * mask (AVX2 has none): the third block of 48 bytes moves by a 128-bit
 * access.  ivz is IV || 0^32; J0 + i (i <= 4) is ivz with byte 15 XORed
 * by 1 + i (vaes_aes.h, "GCM counter words").  GHASH is
 *     A * H^(nC+2) + sum_{i<nC} C_i * H^(nC+1-i) + L * H
 * ([A | L] times [K_(nC+2) | K_1] while the rounds run, the data's
 * products after them, one reduction).  Math: vaes_ghash.h, sections 2-5. */
VAES_INLINE void vaes_gcm_four_y(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, __m128i ivz,
                                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                                 uint8_t tag[16], const int NVY, const int R)
{
    const __m128i bsx = x_bswap_mask();
    const __m256i bsw = _mm256_broadcastsi128_si256(bsx);
    const __m256i jb = _mm256_broadcastsi128_si256(ivz);
    const __m256i k0 = _mm256_load_si256((const __m256i *)(const void *)ks->enc_v[0]);
    __m256i x0 = _mm256_xor_si256(_mm256_xor_si256(jb, _mm256_set_epi64x(0x0300000000000000LL, 0, 0x0200000000000000LL, 0)), k0);
    __m256i x1 = _mm256_xor_si256(_mm256_xor_si256(jb, _mm256_set_epi64x(0x0500000000000000LL, 0, 0x0400000000000000LL, 0)), k0);
    __m128i e = _mm_xor_si128(_mm_xor_si128(ivz, _mm_set_epi64x(0x0100000000000000LL, 0)), x_load(ks->enc_v[0]));
    const __m256i d0 = v_loadu(in);
    const __m256i d1 = NVY == 1 ? _mm256_setzero_si256() : len == 64 ? v_loadu(in + 32) : v_zext(x_load(in + 32));
    const size_t nc = len / 16;
    const uint8_t *pc = vaes_gh_pow(g, nc + 1); /* K_(nC+1), K_nC, ..; K_(nC+2) the entry before */
    gacc a;
    vaes_gacc_zero(&a);
    vaes_gacc_mul_blocks2(&a, _mm_shuffle_epi8(aad_len ? x_load(aad) : _mm_setzero_si128(), bsx), pc - 16,
                          _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8), vaes_gh_pow(g, 1));
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        const __m256i kr = _mm256_load_si256((const __m256i *)(const void *)ks->enc_v[r]);
        x0 = _mm256_aesenc_epi128(x0, kr);
        if (NVY == 2)
            x1 = _mm256_aesenc_epi128(x1, kr);
        e = _mm_aesenc_si128(e, x_load(ks->enc_v[r]));
    }
    const __m256i kl = _mm256_load_si256((const __m256i *)(const void *)ks->enc_v[R]);
    x0 = _mm256_aesenclast_epi128(x0, _mm256_xor_si256(kl, d0));
    e = _mm_aesenclast_si128(e, x_load(ks->enc_v[R]));
    v_storeu(out, x0);
    vaes_gacc_mul(&a, _mm256_shuffle_epi8(x0, bsw), pc);
    if (NVY == 2) {
        x1 = _mm256_aesenclast_epi128(x1, _mm256_xor_si256(kl, d1));
        if (len == 64) {
            v_storeu(out + 32, x1);
        } else {
            x_store(out + 32, _mm256_castsi256_si128(x1));
            x1 = v_zext(_mm256_castsi256_si128(x1)); /* the lane past the data hashes as zero */
        }
        vaes_gacc_mul(&a, _mm256_shuffle_epi8(x1, bsw), pc + 32);
    }
    const __m128i y = vaes_gacc_reduce(a);
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(y, bsx), e));
}

VAES_NOINLINE void vaes_gcm_four_y_iv12(const ak_gcm_key *gk, __m128i ivz, const uint8_t *aad, size_t aad_len,
                                        const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    if (len == 32) {
        switch (gk->aes.rounds) {
        case 10: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 1, 10); break;
        case 12: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 1, 12); break;
        default: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 1, 14); break;
        }
        return;
    }
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 2, 10); break;
    case 12: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 2, 12); break;
    default: vaes_gcm_four_y(ks, g, ivz, aad, aad_len, in, len, out, tag, 2, 14); break;
    }
}

/* The ymm register entry's messages other than its 16-byte ones: whole
 * blocks (32, 48, 64 B) with no AAD or one whole AAD block take
 * vaes_gcm_four_y, the rest a descriptor.  A function of its own, so that
 * the entry keeps the 16-byte kernels' frame and layout. */
VAES_NOINLINE aeskit_status vaes_gcm_seal12_rest(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                                 const uint8_t *aad, size_t lens, __m128i ivz)
{
    const size_t len = VAES_LENS_LEN(lens), aad_len = VAES_LENS_AAD(lens);
    if ((len & 15) == 0 && len >= 32 && (aad_len | 16) == 16) {
        vaes_gcm_four_y_iv12(gk, ivz, aad, aad_len, in, len, out, tag);
        return AESKIT_OK;
    }
    return vaes_gcm_seal12_msg(gk, out, tag, in, aad, lens, ivz);
}

/* The ymm build: 1 <= len <= 64 (gcm_reg_max 64).  16 bytes with no AAD
 * or one whole AAD block take vaes_gcm_one, 32, 48 and 64 bytes so
 * vaes_gcm_four_y (no byte masks needed); any other length the
 * descriptor path. */
#define VAES_GCM_REG_MAX 64
VAES_INLINE aeskit_status vaes_gcm_seal12(const ak_gcm_key *gk, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                          const uint8_t *aad, size_t lens, __m128i ivz)
{
    if (lens == VAES_LENS(16, 16)) {
        vaes_gcm_one_iv12(gk, ivz, aad, 16, in, 16, out, tag, 1);
        return AESKIT_OK;
    }
    if (lens == VAES_LENS(16, 0)) {
        vaes_gcm_one_iv12(gk, ivz, aad, 0, in, 16, out, tag, 1);
        return AESKIT_OK;
    }
    return vaes_gcm_seal12_rest(gk, out, tag, in, aad, lens, ivz);
}

/* The ymm open entry's other messages (1-16 B, AAD of at most a block):
 * the tiny kernel of two vectors (J0, the data block, L), as the
 * descriptor path would pick (vaes_gcm_tiny_open2), J0 from ivz.  A
 * function of its own, so that the entry keeps the 16-byte kernels' frame. */
VAES_NOINLINE aeskit_status vaes_gcm_open12_tiny(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag,
                                                 const uint8_t *in, const uint8_t *aad, size_t lens, __m128i ivz)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    const size_t len = VAES_LENS_LEN(lens), aad_len = VAES_LENS_AAD(lens);
    const __m128i j0b = _mm_or_si128(ivz, _mm_set_epi32(0x01000000, 0, 0, 0));
    AESKIT_ALIGN(16) uint8_t T[16];
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_tiny(ks, g, j0b, aad, aad_len, in, len, out, T, 0, 2, 10); break;
    case 12: vaes_gcm_tiny(ks, g, j0b, aad, aad_len, in, len, out, T, 0, 2, 12); break;
    default: vaes_gcm_tiny(ks, g, j0b, aad, aad_len, in, len, out, T, 0, 2, 14); break;
    }
    return vaes_gcm_open12_end(gk, out, tag, T, in, lens, ivz);
}

/* The ymm open entry, 1 <= len <= 16 (gcm_open_reg_max 16): 16 bytes with
 * no AAD or one whole AAD block in vaes_gcm_one, the rest in
 * vaes_gcm_open12_tiny.  The bound: as on zmm, longer opens are faster
 * through the front end's descriptor. */
#define VAES_GCM_OPEN_REG_MAX 16
VAES_INLINE aeskit_status vaes_gcm_open12(const ak_gcm_key *gk, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                          const uint8_t *aad, size_t lens, __m128i ivz)
{
    AESKIT_ALIGN(16) uint8_t T[16];
    if (lens == VAES_LENS(16, 16))
        vaes_gcm_one_iv12(gk, ivz, aad, 16, in, 16, out, T, 0);
    else if (lens == VAES_LENS(16, 0))
        vaes_gcm_one_iv12(gk, ivz, aad, 0, in, 16, out, T, 0);
    else
        return vaes_gcm_open12_tiny(gk, out, tag, in, aad, lens, ivz);
    return vaes_gcm_open12_end(gk, out, tag, T, in, lens, ivz);
}
#endif

/* A call with other than one message: runs of small messages of one class
 * through the multi-message kernel where the width has one
 * (ak_vaes512_gcm_multi_group, vaes_gcm_multi.h), the others each in turn. */
VAES_NOINLINE void vaes_gcm_msgs_each(ak_gcm_msg *m, size_t n)
{
    size_t i = 0;
    while (i < n) {
#ifdef VAES_MULTI
        size_t k = ak_vaes512_gcm_multi_group(m + i, n - i);
        if (k) {
            i += k;
            continue;
        }
#endif
        vaes_gcm_msg(&m[i]);
        i++;
    }
}

VAES_INLINE void vaes_gcm_msgs(ak_gcm_msg *m, size_t n)
{
    if (n != 1) {
        vaes_gcm_msgs_each(m, n);
        return;
    }
    vaes_gcm_msg(m);
}

