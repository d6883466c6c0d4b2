/*
 * vaes_gcm_multi.h - the x86-vaes-avx512 multi-message GCM kernel: up to
 * eight small messages of one call (ak_gcm_msg, src/internal.h) side by
 * side, one message per 128-bit lane.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX-512 F/BW/VL (AK_TGT of
 * vaes_width512.h).  Needs vaes_aes.h and vaes_ghash.h; compiled in
 * gcm_multi_vaes512.c, whose ak_vaes512_gcm_multi_group is called from
 * vaes_gcm_small.h's gcm_msgs entry (vaes_gcm_msgs_each).  Only the zmm
 * build has it (VAES_MULTI): the lane transposes are AVX-512 shuffles.
 *
 * The layout.  A group is four messages of NB data blocks each (the same
 * NB, lengths within the last block free, AAD at most one block, the same
 * round count), and vector b of a group holds block b of all four:
 *   AES vector 0      lane l = J0 of message l (the tag's E_K(J0)),
 *   AES vector 1 + b  lane l = inc32^(1+b)(J0_l), the counter of data block b,
 * so one round sequence encrypts NB + 1 blocks of four messages.  The data
 * is loaded as one window per message (the page-safe v_load_w) and
 * turned into the block-major layout by a 4x4 transpose of 128-bit lanes;
 * the output goes back the same way.
 *
 * GHASH per lane.  Message l hashes X = [A, C_0, .., C_{NB-1}, L]
 * (SP 800-38D 7.1 step 5, at most one AAD block), so with n = NB + 2
 * blocks, S = A H^n + C_0 H^(n-1) + ... + L H (vaes_ghash.h, section 6).
 * An empty AAD is a zero A: a leading zero block leaves Y_0 = 0 unchanged,
 * so it adds nothing.  The lanes of one product are independent (the
 * multiplies and the reduction of vaes_ghash.h, sections 4 and 6, act on
 * each 128-bit lane alone), so lane l of the products of vector b with the
 * power vector P_(n-1-b) (lane l = message l's K_(n-1-b)) accumulate
 * message l's sum, and ONE reduction of the accumulators gives the four
 * messages' S in their lanes, without a horizontal sum.  When all messages
 * of the call share one key the round keys and powers are broadcast
 * (SAME); otherwise each message's round key and power is gathered into
 * its lane.
 *
 * Each message's own direction is a lane mask: the hash takes the output
 * (seal) or the input (open) of that lane.  All inputs of a call's group
 * are read before any output or tag is written: a tag may overlap its own
 * message's in or aad (the descriptor rules), and outputs of one message
 * overlap no buffer of another (include/aeskit.h, "Batches").
 *
 * Constant time: branches on lengths, round counts, directions, key
 * pointers and lane counts only; the masks are built from lengths and
 * directions.
 */
#if !VAES_MULTI
#error "vaes_gcm_multi.h is the zmm build's (gcm_multi_vaes512.c)"
#endif

#define MX_MAXB 4   /* data blocks per message in the multi kernel */
#define MX_GROUPS 2 /* groups of four messages per kernel call */
_Static_assert(VAES_MULTI_LEN == 16 * MX_MAXB, "vaes_aes.h's bound for the gcm_batch entry");

/* ---- the two descriptor forms --------------------------------------------
 *
 * The kernel reads its messages in one of two forms, PUB a constant:
 *   PUB = 0  backend descriptors (ak_gcm_msg, gcm_msgs): src is an array of
 *            4 * G pointers, direction and tag per descriptor;
 *   PUB = 1  the caller's checked public descriptors (aeskit_gcm_msg,
 *            the gcm_batch hook, src/internal.h): src is the array itself,
 *            lane i message min(i, cnt - 1), J0 = IV || 0^31 || 1 from the
 *            12-byte IV, one direction for the call, the tag of lane i to
 *            T[i] when T is not NULL (expected tags of an open), else to the
 *            message's own 16-byte tag; dir's AK_GCM_UNIFORM: every
 *            message of the call has one len and aad_len.
 * A lane is named by a pointer to its descriptor in either form. */
VAES_INLINE const void *vaes_mx_at(const void *src, size_t cnt, size_t i, const int PUB)
{
    if (PUB)
        return (const aeskit_gcm_msg *)src + (i < cnt ? i : cnt - 1);
    return ((const ak_gcm_msg *const *)src)[i];
}

VAES_INLINE const aeskit_gcm_msg *vaes_mx_pub(const void *p) { return (const aeskit_gcm_msg *)p; }
VAES_INLINE const ak_gcm_msg *vaes_mx_int(const void *p) { return (const ak_gcm_msg *)p; }
VAES_INLINE const ak_gcm_key *vaes_mx_gkey(const void *p) { return (const ak_gcm_key *)(const void *)vaes_mx_pub(p)->key; }

VAES_INLINE const ak_aes *vaes_mx_aes(const void *p, const int PUB)
{
    return PUB ? &vaes_mx_gkey(p)->aes : vaes_mx_int(p)->aes;
}
VAES_INLINE const ak_ghash *vaes_mx_gh(const void *p, const int PUB)
{
    return PUB ? &vaes_mx_gkey(p)->gh : vaes_mx_int(p)->gh;
}
VAES_INLINE const uint8_t *vaes_mx_in(const void *p, const int PUB)
{
    return PUB ? vaes_mx_pub(p)->in : vaes_mx_int(p)->in;
}
VAES_INLINE uint8_t *vaes_mx_out(const void *p, const int PUB)
{
    return PUB ? vaes_mx_pub(p)->out : vaes_mx_int(p)->out;
}
VAES_INLINE size_t vaes_mx_len(const void *p, const int PUB)
{
    return PUB ? vaes_mx_pub(p)->len : vaes_mx_int(p)->len;
}
VAES_INLINE const uint8_t *vaes_mx_aad(const void *p, const int PUB)
{
    return PUB ? vaes_mx_pub(p)->aad : vaes_mx_int(p)->aad;
}
VAES_INLINE size_t vaes_mx_aad_len(const void *p, const int PUB)
{
    return PUB ? vaes_mx_pub(p)->aad_len : vaes_mx_int(p)->aad_len;
}
/* J0 in memory order: the 12-byte IV and the big-endian counter 1 (SP
 * 800-38D 7.1 step 2), or the descriptor's. */
VAES_INLINE __m128i vaes_mx_j0(const void *p, const int PUB)
{
    if (PUB)
        return vaes_j0_iv12(vaes_mx_pub(p)->iv);
    return x_load(vaes_mx_int(p)->j0);
}
/* Where lane i's full tag goes. */
VAES_INLINE uint8_t *vaes_mx_tag(const void *p, uint8_t (*T)[16], size_t i, const int PUB)
{
    if (PUB)
        return T ? T[i] : vaes_mx_pub(p)->tag;
    return vaes_mx_int(p)->tag;
}

/* The window mask of bytes [0, n) of a buffer, n <= 64 (v_wmask at
 * offset 0, without its general bounds). */
VAES_INLINE wmask_t vaes_mx_wmask(size_t n) { return n ? (wmask_t)(~(uint64_t)0 >> (64 - n)) : 0; }

/* The first 16 * NB bytes at p (NB <= 4 whole blocks: plain loads, the
 * rest of the vector zero). */
VAES_INLINE vec_t vaes_mx_load_full(const uint8_t *p, const int NB)
{
    switch (NB) {
    case 1: return _mm512_zextsi128_si512(x_load(p));
    case 2: return _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p));
    case 3:
        return _mm512_inserti32x4(_mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p)),
                                  x_load(p + 32), 2);
    default: return v_loadu(p);
    }
}

/* Stores the first 16 * NB bytes of v at p (plain stores). */
VAES_INLINE void vaes_mx_store_full(uint8_t *p, vec_t v, const int NB)
{
    switch (NB) {
    case 1: x_store(p, _mm512_castsi512_si128(v)); break;
    case 2: _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v)); break;
    case 3:
        _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v));
        x_store(p + 32, _mm512_extracti32x4_epi32(v, 2));
        break;
    default: v_storeu(p, v); break;
    }
}

/* Lane l = the 16 bytes at p_l. */
VAES_INLINE vec_t vaes_mx_lanes(const void *p0, const void *p1, const void *p2, const void *p3)
{
    return v_lanes4(x_load(p0), x_load(p1), x_load(p2), x_load(p3));
}

/* The same by one load per lane: lane 0 a plain load (which clears lanes
 * 1-3), each other lane a broadcast of its 16 bytes merged under a lane
 * mask; no byte outside the four blocks is read.  Four instructions where
 * v_lanes4's inserts take five. */
VAES_INLINE vec_t vaes_mx_lanes_m(const void *p0, const void *p1, const void *p2, const void *p3)
{
    vec_t v = _mm512_zextsi128_si512(x_load(p0));
    v = _mm512_mask_broadcast_i32x4(v, 0x00f0, x_load(p1));
    v = _mm512_mask_broadcast_i32x4(v, 0x0f00, x_load(p2));
    return _mm512_mask_broadcast_i32x4(v, 0xf000, x_load(p3));
}

/* Stores lane l of v (a constant) at p: GCC makes one VEXTRACTI32X4 to
 * memory of the memcpy form, where _mm_storeu_si128 of the extract is an
 * extract to a register and a store. */
VAES_INLINE void vaes_mx_store_lane(void *p, vec_t v, const int l)
{
    __m128i x;
    switch (l) {
    case 0: x = _mm512_castsi512_si128(v); break;
    case 1: x = _mm512_extracti32x4_epi32(v, 1); break;
    case 2: x = _mm512_extracti32x4_epi32(v, 2); break;
    default: x = _mm512_extracti32x4_epi32(v, 3); break;
    }
    __builtin_memcpy(p, &x, 16);
}

/* w[i] lane j <-> w[j] lane i: message-major windows to block-major
 * vectors and back (the transpose is its own inverse). */
VAES_INLINE void vaes_mx_transpose(vec_t w[4])
{
    vec_t t0 = _mm512_shuffle_i64x2(w[0], w[1], 0x44), t1 = _mm512_shuffle_i64x2(w[0], w[1], 0xee);
    vec_t t2 = _mm512_shuffle_i64x2(w[2], w[3], 0x44), t3 = _mm512_shuffle_i64x2(w[2], w[3], 0xee);
    w[0] = _mm512_shuffle_i64x2(t0, t2, 0x88);
    w[1] = _mm512_shuffle_i64x2(t0, t2, 0xdd);
    w[2] = _mm512_shuffle_i64x2(t1, t3, 0x88);
    w[3] = _mm512_shuffle_i64x2(t1, t3, 0xdd);
}

/* Lane l = lane 0 of w[l]. */
VAES_INLINE vec_t vaes_mx_first_lanes(const vec_t w[4])
{
    vec_t u0 = _mm512_shuffle_i64x2(w[0], w[1], 0x00), u1 = _mm512_shuffle_i64x2(w[2], w[3], 0x00);
    return _mm512_shuffle_i64x2(u0, u1, 0x88);
}

/* The round keys of the four lanes p[0..3], lane by lane (SAME: all one
 * key, read as the broadcast copies). */
VAES_INLINE void vaes_mx_keys(vec_t K[15], const void *const *p, const int SAME, const int R, const int PUB)
{
    if (SAME) {
        vaes_load_enc_keys(K, vaes_aes_key(vaes_mx_aes(p[0], PUB)), R);
        return;
    }
    const ak_vaes_aes_key *k0 = vaes_aes_key(vaes_mx_aes(p[0], PUB)), *k1 = vaes_aes_key(vaes_mx_aes(p[1], PUB));
    const ak_vaes_aes_key *k2 = vaes_aes_key(vaes_mx_aes(p[2], PUB)), *k3 = vaes_aes_key(vaes_mx_aes(p[3], PUB));
    _Pragma("GCC unroll 15")
    for (int r = 0; r <= R; r++)
        K[r] = vaes_mx_lanes(k0->enc[r], k1->enc[r], k2->enc[r], k3->enc[r]);
}

/* Lane l = K_e of lane l's GHASH key (vaes_ghash.h's table; e <= NPOW). */
VAES_INLINE vec_t vaes_mx_pow(const void *const *p, size_t e, const int SAME, const int PUB)
{
    if (SAME)
        return v_bcast(vaes_gh_pow(vaes_ghash_key(vaes_mx_gh(p[0], PUB)), e));
    return vaes_mx_lanes(vaes_gh_pow(vaes_ghash_key(vaes_mx_gh(p[0], PUB)), e),
                         vaes_gh_pow(vaes_ghash_key(vaes_mx_gh(p[1], PUB)), e),
                         vaes_gh_pow(vaes_ghash_key(vaes_mx_gh(p[2], PUB)), e),
                         vaes_gh_pow(vaes_ghash_key(vaes_mx_gh(p[3], PUB)), e));
}

/* a += x * h lane by lane, h a vector of powers (schoolbook middle term,
 * vaes_ghash.h section 5). */
VAES_INLINE void vaes_mx_gacc_mul(gacc *a, vec_t x, vec_t h)
{
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
    a->mid = v_xor3(a->mid, v_clmul(x, h, 0x01), v_clmul(x, h, 0x10));
}

/* *a = x * h lane by lane (vaes_mx_gacc_mul on a zero sum, without the
 * zero). */
VAES_INLINE void vaes_mx_gacc_set(gacc *a, vec_t x, vec_t h)
{
    a->lo = v_clmul(x, h, 0x00);
    a->hi = v_clmul(x, h, 0x11);
    a->mid = v_xor(v_clmul(x, h, 0x01), v_clmul(x, h, 0x10));
}

/* Lane l's length block [len(A)]_64 || [len(C)]_64, in register form (the
 * low qword is len * 8, the high one aad_len * 8). */
VAES_INLINE __m128i vaes_mx_lenblock(const void *p, const int PUB)
{
    return _mm_set_epi64x((long long)vaes_mx_aad_len(p, PUB) * 8, (long long)vaes_mx_len(p, PUB) * 8);
}

VAES_INLINE vec_t vaes_mx_lenblocks(const void *const *p, const int PUB)
{
    return v_lanes4(vaes_mx_lenblock(p[0], PUB), vaes_mx_lenblock(p[1], PUB), vaes_mx_lenblock(p[2], PUB),
                           vaes_mx_lenblock(p[3], PUB));
}

/* The byte mask of the sealing lanes (16 bits per lane): per descriptor,
 * or (PUB) the call's direction dir. */
VAES_INLINE __mmask64 vaes_mx_seal_lanes(const void *const *p, uint32_t dir, const int PUB)
{
    if (PUB)
        return (__mmask64)((uint64_t)(dir & AK_GCM_OPEN) - 1);
    uint64_t s = 0;
    for (int l = 0; l < 4; l++)
        s |= ((uint64_t)(vaes_mx_int(p[l])->flags & AK_GCM_OPEN) - 1) & ((uint64_t)0xffff << (16 * l));
    return (__mmask64)s;
}

/* The live bytes of block b in every lane: byte k of lane l is live iff
 * 16 b + k < len_l.  lenb holds len_l (at most 16 * MX_MAXB, so it fits a
 * byte) in every byte of lane l.  (An unsigned compare: the MSan
 * constant-time suite's intrinsic inventory knows it; a saturating
 * subtract it does not.) */
VAES_INLINE __mmask64 vaes_mx_live(vec_t lenb, int b)
{
    const vec_t k = _mm512_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9,
                                    8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_cmplt_epu8_mask(_mm512_add_epi8(k, _mm512_set1_epi8((char)(16 * b))), lenb);
}

/* G groups of four messages, lane l of group g the message vaes_mx_at(src,
 * cnt, 4g + l) (lanes at cnt or later repeat a message and are neither
 * stored nor tagged).  Every message has NB data blocks, aad_len <= 16, R
 * rounds; SAME: all share lane 0's key (G = 1 otherwise).  dir and T: the
 * PUB form's direction and expected tags (see above). */
VAES_INLINE void vaes_gcm_multi(const void *src, size_t cnt, uint32_t dir, uint8_t (*T)[16], const int NB,
                                const int G, const int SAME, const int R, const int PUB)
{
    const void *P[MX_GROUPS][4];
    _Pragma("GCC unroll 8")
    for (int i = 0; i < 4 * G; i++)
        P[i / 4][i % 4] = vaes_mx_at(src, cnt, (size_t)i, PUB);
    vec_t K[15];
    vaes_mx_keys(K, P[0], SAME, R, PUB);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    /* one len and aad_len in every lane (the public form's AK_GCM_UNIFORM) */
    const int uni = PUB && (dir & AK_GCM_UNIFORM);
    vec_t x[MX_GROUPS][MX_MAXB + 1], d[MX_GROUPS][MX_MAXB];
    gacc a[MX_GROUPS];
    vec_t lenb[MX_GROUPS];
    __mmask64 seal[MX_GROUPS];
    int full[MX_GROUPS];
    _Pragma("GCC unroll 2")
    for (int g = 0; g < G; g++) {
        const void *const *p = P[g];
        const vec_t j0 = v_lanes4(vaes_mx_j0(p[0], PUB), vaes_mx_j0(p[1], PUB), vaes_mx_j0(p[2], PUB),
                                         vaes_mx_j0(p[3], PUB));
        x[g][0] = v_xor(j0, K[0]);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++)
            x[g][b + 1] = v_xor3(j0, v_bcast(vaes_tiny_ctr_words + 16 * (b + 1)), K[0]);
        /* whole blocks in every lane (the common uniform batch): plain
         * loads and stores, no masks */
        full[g] = vaes_mx_len(p[0], PUB) == 16 * (size_t)NB &&
                  (uni || (vaes_mx_len(p[1], PUB) == 16 * (size_t)NB && vaes_mx_len(p[2], PUB) == 16 * (size_t)NB &&
                           vaes_mx_len(p[3], PUB) == 16 * (size_t)NB));
        vec_t w[4];
        if (NB == 1 && full[g]) {
            d[g][0] = vaes_mx_lanes(vaes_mx_in(p[0], PUB), vaes_mx_in(p[1], PUB), vaes_mx_in(p[2], PUB),
                                    vaes_mx_in(p[3], PUB));
        } else if (NB) {
            _Pragma("GCC unroll 4")
            for (int l = 0; l < 4; l++)
                w[l] = full[g] ? vaes_mx_load_full(vaes_mx_in(p[l], PUB), NB)
                               : v_load_w(vaes_mx_in(p[l], PUB), 0, vaes_mx_wmask(vaes_mx_len(p[l], PUB)));
            vaes_mx_transpose(w);
            _Pragma("GCC unroll 4")
            for (int b = 0; b < NB; b++)
                d[g][b] = w[b];
        }
        vec_t av;
        const int aad16 = vaes_mx_aad_len(p[0], PUB) == 16 &&
                          (uni || (vaes_mx_aad_len(p[1], PUB) == 16 && vaes_mx_aad_len(p[2], PUB) == 16 &&
                                   vaes_mx_aad_len(p[3], PUB) == 16));
        if (aad16) {
            av = vaes_mx_lanes(vaes_mx_aad(p[0], PUB), vaes_mx_aad(p[1], PUB), vaes_mx_aad(p[2], PUB),
                               vaes_mx_aad(p[3], PUB));
        } else {
            _Pragma("GCC unroll 4")
            for (int l = 0; l < 4; l++)
                w[l] = v_load_w(vaes_mx_aad(p[l], PUB), 0, vaes_mx_wmask(vaes_mx_aad_len(p[l], PUB)));
            av = vaes_mx_first_lanes(w);
        }
        /* every lane of one shape (the common uniform batch): the length
         * blocks and the byte lengths are constants */
        vec_t lv;
        if (full[g] && aad16) {
            lv = v_bcast_x(_mm_set_epi64x(16 * 8, (long long)(16 * 8 * NB)));
            lenb[g] = _mm512_set1_epi8((char)(16 * NB));
        } else {
            lv = vaes_mx_lenblocks(p, PUB);
            lenb[g] = v_shuffle8(_mm512_srli_epi64(lv, 3), v_zero());
        }
        seal[g] = vaes_mx_seal_lanes(p, dir, PUB);
        /* the A and L products need no AES output */
        vaes_gacc_zero(&a[g]);
        vaes_mx_gacc_mul(&a[g], v_shuffle8(av, bsw), vaes_mx_pow(p, (size_t)(NB + 2), SAME, PUB));
        vaes_mx_gacc_mul(&a[g], lv, vaes_mx_pow(p, 1, SAME, PUB));
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 2")
        for (int g = 0; g < G; g++) {
            _Pragma("GCC unroll 5")
            for (int b = 0; b <= NB; b++)
                x[g][b] = v_enc(x[g][b], K[r]);
        }
    }
    vec_t t[MX_GROUPS];
    _Pragma("GCC unroll 2")
    for (int g = 0; g < G; g++) {
        const void *const *p = P[g];
        x[g][0] = v_enclast(x[g][0], K[R]);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            x[g][b + 1] = v_enclast(x[g][b + 1], v_xor(K[R], d[g][b]));
            /* C: the masked output of a sealing lane, the input of an opening one */
            vec_t c = _mm512_mask_mov_epi8(d[g][b], seal[g] & vaes_mx_live(lenb[g], b), x[g][b + 1]);
            vaes_mx_gacc_mul(&a[g], v_shuffle8(c, bsw), vaes_mx_pow(p, (size_t)(NB + 1 - b), SAME, PUB));
        }
        t[g] = v_xor(v_shuffle8(vaes_gacc_reduce_v(a[g]), bsw), x[g][0]);
    }
    /* every input is read: the outputs, then the tags */
    _Pragma("GCC unroll 2")
    for (int g = 0; g < G; g++) {
        if (!NB)
            break;
        const void *const *p = P[g];
        if (NB == 1 && full[g]) {
            x_store(vaes_mx_out(p[0], PUB), _mm512_castsi512_si128(x[g][1]));
            if ((size_t)(4 * g + 1) < cnt)
                x_store(vaes_mx_out(p[1], PUB), _mm512_extracti32x4_epi32(x[g][1], 1));
            if ((size_t)(4 * g + 2) < cnt)
                x_store(vaes_mx_out(p[2], PUB), _mm512_extracti32x4_epi32(x[g][1], 2));
            if ((size_t)(4 * g + 3) < cnt)
                x_store(vaes_mx_out(p[3], PUB), _mm512_extracti32x4_epi32(x[g][1], 3));
            continue;
        }
        vec_t w[4];
        _Pragma("GCC unroll 4")
        for (int b = 0; b < 4; b++)
            w[b] = b < NB ? x[g][b + 1] : v_zero();
        vaes_mx_transpose(w);
        _Pragma("GCC unroll 4")
        for (int l = 0; l < 4; l++) {
            if ((size_t)(4 * g + l) >= cnt)
                break;
            if (full[g])
                vaes_mx_store_full(vaes_mx_out(p[l], PUB), w[l], NB);
            else
                v_store_w(vaes_mx_out(p[l], PUB), 0, vaes_mx_wmask(vaes_mx_len(p[l], PUB)), w[l]);
        }
    }
    _Pragma("GCC unroll 2")
    for (int g = 0; g < G; g++) {
        const void *const *p = P[g];
        x_store(vaes_mx_tag(p[0], T, (size_t)(4 * g), PUB), _mm512_castsi512_si128(t[g]));
        if ((size_t)(4 * g + 1) < cnt)
            x_store(vaes_mx_tag(p[1], T, (size_t)(4 * g + 1), PUB), _mm512_extracti32x4_epi32(t[g], 1));
        if ((size_t)(4 * g + 2) < cnt)
            x_store(vaes_mx_tag(p[2], T, (size_t)(4 * g + 2), PUB), _mm512_extracti32x4_epi32(t[g], 2));
        if ((size_t)(4 * g + 3) < cnt)
            x_store(vaes_mx_tag(p[3], T, (size_t)(4 * g + 3), PUB), _mm512_extracti32x4_epi32(t[g], 3));
    }
}

/* ---- the chain: a uniform one-key batch, group after group --------------
 *
 * vaes_gcm_multi runs a group's rounds, then its ciphertext products and
 * the reduction: the AES unit and the multiplier take turns.  For a
 * uniform batch under one key object (the public form's AK_GCM_UNIFORM)
 * the chain runs group i's rounds with group i - 1's ciphertext products
 * (one block vector's after each of the last NB rounds), reduction and
 * tags, as vaes_gcm_chain.h does for longer messages.  The length block
 * is the same in every lane and group, so its product is formed once; the
 * AAD's products are summed when a group starts.  Group i's inputs are
 * read before its outputs are stored, and its tags are stored after group
 * i + 1's inputs are read (across messages the order is free: the
 * descriptor rules, above). */

/* A group's start: x[0] = J0 XOR K0 and x[1 + b] block b's counters XOR
 * K0 (kc: vaes_gcm_mx_chain's), d[b] the data of block b (block-major),
 * *a the AAD's products (power hA); full: every lane's len is 16 * NB,
 * aad16: every lane's aad_len is 16 (uniform: the same in every lane). */
VAES_INLINE void vaes_mx_chain_start(vec_t *x, vec_t *d, gacc *a, const aeskit_gcm_msg *p, const vec_t *kc, vec_t hA,
                                     vec_t bsw, int full, int aad16, const int NB)
{
    const vec_t iv = v_lanes4(vaes_ivz_iv12(p[0].iv), vaes_ivz_iv12(p[1].iv), vaes_ivz_iv12(p[2].iv),
                              vaes_ivz_iv12(p[3].iv));
    _Pragma("GCC unroll 5")
    for (int b = 0; b <= NB; b++)
        x[b] = v_xor(iv, kc[b]);
    if (NB == 1 && full) {
        d[0] = vaes_mx_lanes_m(p[0].in, p[1].in, p[2].in, p[3].in);
    } else if (NB) {
        vec_t w[4];
        const wmask_t wm = vaes_mx_wmask(p[0].len);
        _Pragma("GCC unroll 4")
        for (int l = 0; l < 4; l++)
            w[l] = full ? vaes_mx_load_full(p[l].in, NB) : v_load_w(p[l].in, 0, wm);
        vaes_mx_transpose(w);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++)
            d[b] = w[b];
    }
    vec_t av;
    if (aad16) {
        av = vaes_mx_lanes_m(p[0].aad, p[1].aad, p[2].aad, p[3].aad);
    } else {
        vec_t w[4];
        const wmask_t am = vaes_mx_wmask(p[0].aad_len);
        _Pragma("GCC unroll 4")
        for (int l = 0; l < 4; l++)
            w[l] = v_load_w(p[l].aad, 0, am);
        av = vaes_mx_first_lanes(w);
    }
    vaes_mx_gacc_set(a, v_shuffle8(av, bsw), hA);
}

/* The outputs of a group's four messages (the block vectors x[1..NB]). */
VAES_INLINE void vaes_mx_chain_store(const aeskit_gcm_msg *p, const vec_t *x, int full, const int NB)
{
    if (NB == 1 && full) {
        vaes_mx_store_lane(p[0].out, x[1], 0);
        vaes_mx_store_lane(p[1].out, x[1], 1);
        vaes_mx_store_lane(p[2].out, x[1], 2);
        vaes_mx_store_lane(p[3].out, x[1], 3);
        return;
    }
    if (!NB)
        return;
    vec_t w[4];
    _Pragma("GCC unroll 4")
    for (int b = 0; b < 4; b++)
        w[b] = b < NB ? x[b + 1] : v_zero();
    vaes_mx_transpose(w);
    const wmask_t wm = vaes_mx_wmask(p[0].len);
    _Pragma("GCC unroll 4")
    for (int l = 0; l < 4; l++) {
        if (full)
            vaes_mx_store_full(p[l].out, w[l], NB);
        else
            v_store_w(p[l].out, 0, wm, w[l]);
    }
}

/* The tags of a group's messages (first index i of the batch) from its
 * sums and ej, E_K(J0) plus the length block's share of the tag (see
 * vaes_gcm_mx_chain): T's four consecutive tags in one store, else each
 * message's own. */
VAES_INLINE void vaes_mx_chain_tags(const aeskit_gcm_msg *p, uint8_t (*T)[16], size_t i, gacc a, vec_t ej, vec_t bsw)
{
    const vec_t t = v_xor(v_shuffle8(vaes_gacc_reduce_v(a), bsw), ej);
    if (T) {
        v_storeu(T[i], t);
        return;
    }
    vaes_mx_store_lane(p[0].tag, t, 0);
    vaes_mx_store_lane(p[1].tag, t, 1);
    vaes_mx_store_lane(p[2].tag, t, 2);
    vaes_mx_store_lane(p[3].tag, t, 3);
}

/* Rounds 1 .. R of a group's vectors x[0 .. NB], with hash (a constant)
 * the previous group's ciphertext products (c against the powers hC) into
 * *ap, block b's after round R - NB + b; then the last round of x[0], the
 * J0 vector, with its own last round key kj (vaes_gcm_mx_chain).  The
 * data blocks' last round takes their data (the caller's). */
VAES_INLINE void vaes_mx_chain_rounds(vec_t *x, const vec_t *K, vec_t kj, gacc *ap, const vec_t *c, const vec_t *hC,
                                      const int hash, const int NB, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 5")
        for (int b = 0; b <= NB; b++)
            x[b] = v_enc(x[b], K[r]);
        if (hash && r >= R - NB)
            vaes_mx_gacc_mul(ap, c[r - (R - NB)], hC[r - (R - NB)]);
    }
    x[0] = v_enclast(x[0], kj);
}

/* The last round of a group's data blocks, and what their hash takes (the
 * output of a sealing lane, its live bytes only; the input of an opening
 * one) into c in register form. */
VAES_INLINE void vaes_mx_chain_last(vec_t *x, vec_t *c, const vec_t *d, vec_t klast, __mmask64 seal, vec_t lenb,
                                    vec_t bsw, const int NB)
{
    _Pragma("GCC unroll 4")
    for (int b = 0; b < NB; b++) {
        x[b + 1] = v_enclast(x[b + 1], v_xor(klast, d[b]));
        c[b] = v_shuffle8(_mm512_mask_mov_epi8(d[b], seal & vaes_mx_live(lenb, b), x[b + 1]), bsw);
    }
}

/* The first 4 * floor(n / 4) (n >= 4) of the checked public descriptors
 * m, a uniform one-key batch of NB data blocks and R rounds in direction
 * dir (T as for vaes_gcm_multi); returns how many it ran.  WHOLE (a
 * constant): the caller has seen len = 16 NB and aad_len = 16, so the
 * loop holds no test of the shape. */
VAES_INLINE size_t vaes_gcm_mx_chain_s(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16], const int NB,
                                       const int R, const int WHOLE)
{
    const size_t groups = n / 4;
    const ak_gcm_key *gk = vaes_mx_gkey(&m[0]);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    /* round keys: from three blocks a message on as memory operands (the
     * group's vectors, the next group's and the sums fill the registers,
     * and a register copy of the keys went to the stack frame), in
     * registers below that (measured: docs/performance.md) */
    vec_t kbuf[15];
    if (NB < 3)
        vaes_load_enc_keys(kbuf, vaes_aes_key(&gk->aes), R);
    const vec_t *K = NB < 3 ? kbuf : vaes_enc_keys_mem(vaes_aes_key(&gk->aes));
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const size_t len = m[0].len, aad_len = m[0].aad_len;
    const int full = WHOLE || len == 16 * (size_t)NB, aad16 = WHOLE || aad_len == 16;
    const __mmask64 seal = vaes_mx_seal_lanes(NULL, dir, 1);
    const vec_t lenb = _mm512_set1_epi8((char)len);
    /* the powers (every lane the same): A's, block b's, L's product */
    const vec_t hA = v_bcast(vaes_gh_pow(g, (size_t)(NB + 2)));
    vec_t hC[MX_MAXB];
    _Pragma("GCC unroll 4")
    for (int b = 0; b < NB; b++)
        hC[b] = v_bcast(vaes_gh_pow(g, (size_t)(NB + 1 - b)));
    /* The length block is the same in every lane and group, and the
     * reduction (vaes_ghash.h, section 6) and the byte swap are linear:
     * the tag bswap(reduce(a + lc)) XOR E_K(J0) is bswap(reduce(a)) XOR
     * (E_K(J0) XOR bswap(reduce(lc))).  So lc's share is formed once and
     * added by the last round of J0's block (its AddRoundKey), kj = K_R
     * XOR that share, and a group's sum starts at its AAD's product. */
    gacc lc;
    vaes_gacc_zero(&lc);
    vaes_mx_gacc_mul(&lc, v_bcast_x(vaes_mx_lenblock(&m[0], 1)), v_bcast(vaes_gh_pow(g, 1)));
    const vec_t kj = v_xor(K[R], v_shuffle8(vaes_gacc_reduce_v(lc), bsw));
    /* x[b] = IV || 0^32 XOR kc[b]: kc[b] is K_0 XOR the counter word of
     * J0 (b = 0: IV || 0^31 || 1, SP 800-38D 7.1 step 2) or of data block
     * b - 1 (inc32^b(J0), b <= MX_MAXB: the low byte, no carry) */
    vec_t kc[MX_MAXB + 1];
    const vec_t one = v_bcast_x(_mm_set_epi32(0x01000000, 0, 0, 0));
    _Pragma("GCC unroll 5")
    for (int b = 0; b <= NB; b++)
        kc[b] = v_xor3(K[0], one, v_bcast(vaes_tiny_ctr_words + 16 * b));
    vec_t x[MX_MAXB + 1], d[MX_MAXB], c[MX_MAXB], ej;
    gacc a, ap;
    /* group 0: its rounds alone */
    vaes_mx_chain_start(x, d, &a, m, kc, hA, bsw, full, aad16, NB);
    vaes_mx_chain_rounds(x, K, kj, &ap, c, hC, 0, NB, R);
    vaes_mx_chain_last(x, c, d, K[R], seal, lenb, bsw, NB);
    /* group i's rounds with group i - 1's products, reduction and tags;
     * group i's inputs are read before group i - 1's outputs are stored */
    for (size_t i = 1; i < groups; i++) {
        const aeskit_gcm_msg *p = m + 4 * i;
        vec_t o[MX_MAXB + 1];
        _Pragma("GCC unroll 5")
        for (int b = 0; b <= NB; b++)
            o[b] = x[b];
        ap = a;
        ej = x[0];
        vaes_mx_chain_start(x, d, &a, p, kc, hA, bsw, full, aad16, NB);
        vaes_mx_chain_store(p - 4, o, full, NB);
        vaes_mx_chain_rounds(x, K, kj, &ap, c, hC, 1, NB, R);
        vaes_mx_chain_last(x, c, d, K[R], seal, lenb, bsw, NB);
        vaes_mx_chain_tags(p - 4, T, 4 * i - 4, ap, ej, bsw);
    }
    vaes_mx_chain_store(m + 4 * (groups - 1), x, full, NB);
    /* the last group's products alone */
    _Pragma("GCC unroll 4")
    for (int b = 0; b < NB; b++)
        vaes_mx_gacc_mul(&a, c[b], hC[b]);
    vaes_mx_chain_tags(m + 4 * (groups - 1), T, 4 * (groups - 1), a, x[0], bsw);
    return 4 * groups;
}

VAES_INLINE size_t vaes_gcm_mx_chain(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16], const int NB,
                                     const int R)
{
    if (m[0].len == 16 * (size_t)NB && m[0].aad_len == 16)
        return vaes_gcm_mx_chain_s(m, n, dir, T, NB, R, 1);
    return vaes_gcm_mx_chain_s(m, n, dir, T, NB, R, 0);
}

/* ---- one kernel per block count, key form and descriptor form ----------- */

/* The kernel variants: [0] one key, one group; [1] one key, two groups;
 * [2] keys gathered per lane, one group.  src, cnt, dir and T as for
 * vaes_gcm_multi (dir and T unused by the backend-descriptor form). */
typedef void vaes_gcm_multi_kernel(const void *src, size_t cnt, uint32_t dir, uint8_t (*T)[16]);

VAES_INLINE void vaes_gcm_multi_r(const void *src, size_t cnt, uint32_t dir, uint8_t (*T)[16], const int NB,
                                  const int G, const int SAME, const int PUB)
{
    /* the public form's full two-group call (a long uniform batch) with
     * the count a constant: no per-lane count tests */
    const size_t full = 4 * MX_GROUPS;
    const uint32_t R = vaes_mx_aes(vaes_mx_at(src, cnt, 0, PUB), PUB)->rounds;
    if (PUB && G == MX_GROUPS && cnt == full) {
        switch (R) {
        case 10: vaes_gcm_multi(src, full, dir, T, NB, G, SAME, 10, PUB); break;
        case 12: vaes_gcm_multi(src, full, dir, T, NB, G, SAME, 12, PUB); break;
        default: vaes_gcm_multi(src, full, dir, T, NB, G, SAME, 14, PUB); break;
        }
        return;
    }
    switch (R) {
    case 10: vaes_gcm_multi(src, cnt, dir, T, NB, G, SAME, 10, PUB); break;
    case 12: vaes_gcm_multi(src, cnt, dir, T, NB, G, SAME, 12, PUB); break;
    default: vaes_gcm_multi(src, cnt, dir, T, NB, G, SAME, 14, PUB); break;
    }
}

VAES_NOINLINE void vaes_gcm_multi0_same1(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi0_same2(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi0_lanes(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 1, 0, 0);
}
VAES_NOINLINE void vaes_gcm_multi1_same1(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi1_same2(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi1_lanes(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 1, 0, 0);
}
VAES_NOINLINE void vaes_gcm_multi2_same1(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi2_same2(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi2_lanes(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 1, 0, 0);
}
VAES_NOINLINE void vaes_gcm_multi3_same1(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi3_same2(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi3_lanes(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 1, 0, 0);
}
VAES_NOINLINE void vaes_gcm_multi4_same1(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi4_same2(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_multi4_lanes(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 1, 0, 0);
}
VAES_NOINLINE void vaes_gcm_multi0_same1_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi0_same2_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi0_lanes_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 0, 1, 0, 1);
}
VAES_NOINLINE void vaes_gcm_multi1_same1_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi1_same2_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi1_lanes_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 1, 1, 0, 1);
}
VAES_NOINLINE void vaes_gcm_multi2_same1_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi2_same2_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi2_lanes_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 2, 1, 0, 1);
}
VAES_NOINLINE void vaes_gcm_multi3_same1_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi3_same2_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi3_lanes_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 3, 1, 0, 1);
}
VAES_NOINLINE void vaes_gcm_multi4_same1_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi4_same2_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_multi4_lanes_pub(const void *s, size_t c, uint32_t d, uint8_t (*T)[16])
{
    vaes_gcm_multi_r(s, c, d, T, 4, 1, 0, 1);
}

/* Indexed [descriptor form][data blocks][variant]. */
static vaes_gcm_multi_kernel *const vaes_gcm_multi_kernels[2][MX_MAXB + 1][3] = {
    {{vaes_gcm_multi0_same1, vaes_gcm_multi0_same2, vaes_gcm_multi0_lanes},
     {vaes_gcm_multi1_same1, vaes_gcm_multi1_same2, vaes_gcm_multi1_lanes},
     {vaes_gcm_multi2_same1, vaes_gcm_multi2_same2, vaes_gcm_multi2_lanes},
     {vaes_gcm_multi3_same1, vaes_gcm_multi3_same2, vaes_gcm_multi3_lanes},
     {vaes_gcm_multi4_same1, vaes_gcm_multi4_same2, vaes_gcm_multi4_lanes}},
    {{vaes_gcm_multi0_same1_pub, vaes_gcm_multi0_same2_pub, vaes_gcm_multi0_lanes_pub},
     {vaes_gcm_multi1_same1_pub, vaes_gcm_multi1_same2_pub, vaes_gcm_multi1_lanes_pub},
     {vaes_gcm_multi2_same1_pub, vaes_gcm_multi2_same2_pub, vaes_gcm_multi2_lanes_pub},
     {vaes_gcm_multi3_same1_pub, vaes_gcm_multi3_same2_pub, vaes_gcm_multi3_lanes_pub},
     {vaes_gcm_multi4_same1_pub, vaes_gcm_multi4_same2_pub, vaes_gcm_multi4_lanes_pub}}};

/* The chain, one function per block count (R by the key's round count). */
typedef size_t vaes_gcm_mx_chain_kernel(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);

VAES_INLINE size_t vaes_gcm_mx_chain_r(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16], const int NB)
{
    switch (vaes_mx_aes(&m[0], 1)->rounds) {
    case 10: return vaes_gcm_mx_chain(m, n, dir, T, NB, 10);
    case 12: return vaes_gcm_mx_chain(m, n, dir, T, NB, 12);
    default: return vaes_gcm_mx_chain(m, n, dir, T, NB, 14);
    }
}
VAES_NOINLINE size_t vaes_gcm_mx_chain0(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_mx_chain_r(m, n, dir, T, 0);
}
VAES_NOINLINE size_t vaes_gcm_mx_chain1(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_mx_chain_r(m, n, dir, T, 1);
}
VAES_NOINLINE size_t vaes_gcm_mx_chain2(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_mx_chain_r(m, n, dir, T, 2);
}
VAES_NOINLINE size_t vaes_gcm_mx_chain3(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_mx_chain_r(m, n, dir, T, 3);
}
VAES_NOINLINE size_t vaes_gcm_mx_chain4(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_mx_chain_r(m, n, dir, T, 4);
}

/* Indexed [data blocks]. */
static vaes_gcm_mx_chain_kernel *const vaes_gcm_mx_chain_kernels[MX_MAXB + 1] = {
    vaes_gcm_mx_chain0, vaes_gcm_mx_chain1, vaes_gcm_mx_chain2, vaes_gcm_mx_chain3, vaes_gcm_mx_chain4};

/* ---- grouping ------------------------------------------------------------ */

/* The multi kernel's class of a message: its data block count, or -1 when
 * it is too long for it (more than MX_MAXB data blocks or one AAD block). */
VAES_INLINE int vaes_mx_class(size_t len, size_t aad_len)
{
    return (len <= 16 * MX_MAXB && aad_len <= 16) ? (int)((len + 15) / 16) : -1;
}

/* The longest prefix of the n messages at src (form PUB) the multi kernel
 * takes in one call: the messages of the first one's class and round
 * count, up to 4 * MX_GROUPS with one key, four with several; returns how
 * many (0 if fewer than two) and the kernel variant in *v. */
VAES_INLINE size_t vaes_mx_prefix(const void *src, size_t n, int *cls, int *v, const int PUB)
{
    const void *p0 = vaes_mx_at(src, n, 0, PUB);
    const int c = vaes_mx_class(vaes_mx_len(p0, PUB), vaes_mx_aad_len(p0, PUB));
    if (c < 0 || n < 2)
        return 0;
    const size_t cap = n < 4 * MX_GROUPS ? n : 4 * MX_GROUPS;
    const ak_aes *a0 = vaes_mx_aes(p0, PUB);
    const ak_ghash *g0 = vaes_mx_gh(p0, PUB);
    size_t k = 1, same = 1;
    for (; k < cap; k++) {
        const void *pk = PUB ? (const void *)(vaes_mx_pub(p0) + k) : ((const ak_gcm_msg *const *)src)[k];
        if (vaes_mx_class(vaes_mx_len(pk, PUB), vaes_mx_aad_len(pk, PUB)) != c)
            break;
        /* a public descriptor names the whole key: one pointer compare */
        int sk = PUB ? vaes_mx_pub(pk)->key == vaes_mx_pub(p0)->key
                     : vaes_mx_aes(pk, PUB) == a0 && vaes_mx_gh(pk, PUB) == g0;
        if (!sk && vaes_mx_aes(pk, PUB)->rounds != a0->rounds) /* one key: one round count, no load */
            break;
        same += same == k && sk;
    }
    if (k < 2)
        return 0;
    if (same >= (k < 4 ? k : 4)) { /* one key for a whole group */
        k = same;
        *v = k > 4;
    } else {
        k = k < 4 ? k : 4;
        *v = 2;
    }
    *cls = c;
    return k;
}

/* Runs the multi kernel on the longest prefix of the backend descriptors
 * m[0..n) it takes; returns how many, 0 if fewer than two. */
VAES_INLINE size_t vaes_gcm_multi_group(ak_gcm_msg *m, size_t n)
{
    const ak_gcm_msg *q[4 * MX_GROUPS];
    size_t cap = n < 4 * MX_GROUPS ? n : 4 * MX_GROUPS;
    for (size_t i = 0; i < cap; i++)
        q[i] = &m[i];
    int c, v;
    size_t k = vaes_mx_prefix(q, cap, &c, &v, 0);
    if (!k)
        return 0;
    for (size_t i = k; i < 4 * MX_GROUPS; i++)
        q[i] = &m[k - 1];
    vaes_gcm_multi_kernels[0][c][v](q, k, 0, NULL);
    return k;
}

/* The same on the checked public descriptors m[0..n) of one direction dir,
 * the expected tags of an open to T[0..) (NULL: the tags of a seal to the
 * messages' own); no lane array is built. */
VAES_INLINE size_t vaes_gcm_multi_group_pub(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    int c, v;
    size_t k = vaes_mx_prefix(m, n, &c, &v, 1);
    if (k)
        vaes_gcm_multi_kernels[1][c][v](m, k, dir, T);
    return k;
}

/* The same, call after call, on the longest run of the checked public
 * descriptors m[0..n) the multi kernel takes (the gcm_batch entry,
 * aes_vaes_avx512.c): returns how many messages it ran, 0 if the first
 * two do not make a group.  A message it stops at is the caller's. */
VAES_INLINE size_t vaes_gcm_multi_run_pub(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    size_t i = 0;
    /* one key, len and aad_len throughout (AK_GCM_UNIFORM): whole groups of
     * one class, one key, without the prefix scan */
    const int c0 = vaes_mx_class(m[0].len, m[0].aad_len);
    if ((dir & AK_GCM_UNIFORM) && c0 >= 0) {
        const size_t full = 4 * MX_GROUPS;
        if (n >= 2 * 4) /* two groups or more: the chain */
            i = vaes_gcm_mx_chain_kernels[c0](m, n, dir, T);
        for (; n - i >= full; i += full)
            vaes_gcm_multi_kernels[1][c0][1](m + i, full, dir, T ? T + i : NULL);
        if (n - i >= 2) {
            vaes_gcm_multi_kernels[1][c0][n - i > 4](m + i, n - i, dir, T ? T + i : NULL);
            i = n;
        }
        return i;
    }
    while (n - i >= 2) {
        int c, v;
        size_t k = vaes_mx_prefix(m + i, n - i, &c, &v, 1);
        if (!k)
            break;
        vaes_gcm_multi_kernels[1][c][v](m + i, k, dir, T ? T + i : NULL);
        i += k;
    }
    return i;
}
