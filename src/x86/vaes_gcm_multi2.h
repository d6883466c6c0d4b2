/*
 * vaes_gcm_multi2.h - the x86-vaes-avx2 multi-message GCM kernel of the
 * batch API: small messages of one gcm_batch call (checked public
 * descriptors, aeskit_gcm_msg) side by side, one message per 128-bit
 * lane, two per ymm.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX2 (AK_TGT of vaes_width256.h).  Needs
 * vaes_aes.h and vaes_ghash.h; compiled in gcm_multi_vaes2.c, whose
 * ak_vaes2_gcm_multi_run_pub is called from aes_vaes_avx2.c's gcm_batch
 * entry.  The zmm build's kernel (four messages per vector, and the
 * backend descriptors of gcm_msgs too) is vaes_gcm_multi.h; this one has
 * the same layout and math on two lanes, its partial blocks and lane
 * moves in AVX2 terms.
 *
 * The layout.  A group is two messages of NB data blocks each (1 <= NB <=
 * 4; the same NB, lengths within the last block free, AAD at most one
 * block, the same round count), and vector b of a group holds block b of
 * both:
 *   AES vector 0      lane l = J0 of message l (the tag's E_K(J0)),
 *   AES vector 1 + b  lane l = inc32^(1+b)(J0_l), the counter of data block b,
 * so one round sequence encrypts NB + 1 blocks of two messages.  A call
 * runs G groups (2G messages) through one round sequence: the AES rounds
 * have a latency of several cycles and start more than one vector a cycle,
 * so the G (NB + 1) independent vectors keep the unit busy where one
 * message's NB + 1 blocks leave it waiting.  Block b of message l enters
 * lane l of vector b by a 128-bit load (vinserti128 for lane 1) and
 * leaves by a 128-bit store (vextracti128): no transpose.
 *
 * GHASH per lane.  Message l hashes X = [A, C_0, .., C_{NB-1}, L]
 * (SP 800-38D 7.1 step 5, at most one AAD block), so with n = NB + 2
 * blocks, S = A H^n + C_0 H^(n-1) + ... + L H (vaes_ghash.h, section 6).
 * An empty AAD is a zero A: a leading zero block leaves Y_0 = 0 unchanged,
 * so it adds nothing.  The lanes of one product are independent (the
 * multiplies, Karatsuba's middle term and the reduction of vaes_ghash.h,
 * sections 4-6, act on each 128-bit lane alone), so lane l of the
 * products of vector b with a power vector whose lane l is message l's
 * K_(n-1-b) (and, for the middle term, its half-sum from the key's kk
 * table) accumulate message l's sum, and ONE reduction of the
 * accumulators gives both messages' S in their lanes, without a
 * horizontal sum.  When both messages share one key object the round keys
 * and powers are broadcast (SAME, every group of the call); otherwise each
 * message's round key and power is gathered into its lane (one group).
 *
 * Partial blocks.  AVX2 has no byte masks: a message's last block, when
 * it has fewer than 16 bytes, is read and written in pieces of 8, 4, 2 and
 * 1 bytes (ak_x86_load_short, ak_x86_store_short: x86_short_io.h),
 * nothing outside the message touched, so no page is reached that the
 * message does not lie on.  A
 * sealing lane hashes its output's live bytes only: the last block's
 * output is ANDed with a byte mask built from the length (the ff00 rows of
 * vaes_width256.h); an opening lane hashes its input, whose bytes past
 * the length load as zero.
 *
 * Order.  All inputs of a call are read before any output or tag is
 * written: a tag may overlap its own message's in or aad, out may be its
 * in (the descriptor rules), and outputs of one message overlap no buffer
 * of another (include/aeskit.h, "Batches").
 *
 * Constant time: branches on lengths, round counts, the call's direction,
 * key pointers and counts only; the byte masks' table offsets are lengths.
 */
#if AK_LANES != 2 || !AK_KARATSUBA
#error "vaes_gcm_multi2.h is the ymm build's (gcm_multi_vaes2.c)"
#endif

#define MX2_MAXB 4 /* data blocks per message */
#define MX2_GMAX 4 /* groups of two messages per kernel call, at most */
_Static_assert(VAES_MX2_LEN == 16 * MX2_MAXB, "vaes_aes.h's bound for the gcm_batch entry");

/* Groups per call for NB data blocks (the kernel's, and the chain's per
 * set): the round sequence of G groups is G (NB + 1) vectors; more of them
 * cover more of the AES latency and add register spills (16 ymm), and in
 * the chain the previous set's products fill the rounds' gaps instead.
 * Chosen by measurement: docs/performance.md, "Zen 4: the ymm batch
 * kernel". */
VAES_INLINE int mx2_groups(int NB) { return NB == 1 ? 4 : 2; }
VAES_INLINE int mx2_chain_groups(int NB) { return NB == 1 ? 2 : 1; }

/* vaes_tiny_ctr_words' lanes 1 .. MX2_MAXB (inc32^(1+b)(J0) ^ J0), each
 * in both lanes of a vector: a memory operand of the XOR that forms the
 * counters, where a broadcast would be a load and a lane insert. */
static const uint8_t mx2_ctr_words[MX2_MAXB][32] __attribute__((aligned(32))) = {
    {[15] = 0x02 ^ 0x01, [31] = 0x02 ^ 0x01},
    {[15] = 0x03 ^ 0x01, [31] = 0x03 ^ 0x01},
    {[15] = 0x04 ^ 0x01, [31] = 0x04 ^ 0x01},
    {[15] = 0x05 ^ 0x01, [31] = 0x05 ^ 0x01}};

VAES_INLINE vec_t mx2_ctr(int b) { return _mm256_load_si256((const __m256i *)(const void *)mx2_ctr_words[b]); }

VAES_INLINE const ak_gcm_key *mx2_gkey(const aeskit_gcm_msg *p) { return (const ak_gcm_key *)(const void *)p->key; }

/* Lane l = x_l. */
VAES_INLINE vec_t mx2_lanes(__m128i x0, __m128i x1)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(x0), x1, 1);
}
VAES_INLINE vec_t mx2_lanes_at(const void *p0, const void *p1) { return mx2_lanes(x_load(p0), x_load(p1)); }

/* Block b (of NB) of a len-byte buffer at p: a plain load when whole, else
 * the live bytes, zero above. */
VAES_INLINE __m128i mx2_load_block(const uint8_t *p, size_t len, int b)
{
    const size_t r = len - 16 * (size_t)b; /* >= 1: b < NB */
    return r >= 16 ? x_load(p + 16 * b) : ak_x86_load_short(p + 16 * b, r);
}

VAES_INLINE void mx2_store_block(uint8_t *p, size_t len, int b, __m128i v)
{
    const size_t r = len - 16 * (size_t)b;
    if (r >= 16)
        x_store(p + 16 * b, v);
    else
        ak_x86_store_short(p + 16 * b, r, v);
}

/* The AAD block of at most 16 bytes (zero when there is none). */
VAES_INLINE __m128i mx2_load_aad(const aeskit_gcm_msg *p)
{
    return p->aad_len == 16 ? x_load(p->aad) : ak_x86_load_short(p->aad, p->aad_len);
}

/* Bytes [0, r) of a lane set, the rest clear, r <= 16 (ff00's rows). */
VAES_INLINE __m128i mx2_live(size_t r) { return x_load(ff00 + 32 - r); }

/* Lane l's length block [len(A)]_64 || [len(C)]_64, in register form (the
 * low qword is len * 8, the high one aad_len * 8). */
VAES_INLINE __m128i mx2_lenblock(const aeskit_gcm_msg *p)
{
    return _mm_set_epi64x((long long)p->aad_len * 8, (long long)p->len * 8);
}

/* A power of H for both lanes of a product: h lane l = lane l's K_e, hk
 * lane l's low qword its Karatsuba half-sum (vaes_ghash.h, the kk table). */
typedef struct {
    vec_t h, hk;
} mx2_pow;

/* One key object's powers K_1 .. K_(MX2_MAXB + 2) and their half-sums,
 * each broadcast to both lanes once for a run of kernel calls (the
 * kernel's multiplies take them as memory operands, where a broadcast per
 * group and product would be an instruction more each); and lc, the
 * length block's products when every message of the run has NB = shape
 * whole blocks and one whole AAD block (shape 0: none). */
typedef struct {
    vec_t h[MX2_MAXB + 2], hk[MX2_MAXB + 2];
    gacc lc;
    int shape;
} mx2_keyctx;

VAES_INLINE void mx2_keyctx_set(mx2_keyctx *kc, const aeskit_gcm_msg *p)
{
    const ak_vaes_ghash_key *g = vaes_ghash_key(&mx2_gkey(p)->gh);
    _Pragma("GCC unroll 6")
    for (int e = 1; e <= MX2_MAXB + 2; e++) {
        kc->h[e - 1] = v_bcast(vaes_gh_pow(g, (size_t)e));
        kc->hk[e - 1] = v_bcast(vaes_gh_kk(vaes_gh_pow(g, (size_t)e)));
    }
    kc->shape = 0;
}

/* Makes the pointer to the broadcast powers opaque to the compiler at the
 * start of each group's products.  Without it GCC loads the powers the
 * groups share into registers once, before the first group, where they
 * do not fit beside the AES states: it copies them to the stack frame
 * and back, two instructions more per power and group than the memory
 * operand it replaces.  A public pointer; the MSan build goes without
 * (the barrier only schedules). */
VAES_INLINE void mx2_keyctx_opaque(const mx2_keyctx **kc)
{
#ifndef AESKIT_MSAN_CT
    __asm__("" : "+r"(*kc));
#else
    (void)kc;
#endif
}

/* Lane l = K_e of lane l's key: from kc (SAME: one key object), else
 * gathered from the two messages' keys. */
VAES_INLINE mx2_pow mx2_power(const mx2_keyctx *kc, const aeskit_gcm_msg *p0, const aeskit_gcm_msg *p1, size_t e,
                              const int SAME)
{
    if (SAME)
        return (mx2_pow){kc->h[e - 1], kc->hk[e - 1]};
    const uint8_t *w0 = vaes_gh_pow(vaes_ghash_key(&mx2_gkey(p0)->gh), e);
    const uint8_t *w1 = vaes_gh_pow(vaes_ghash_key(&mx2_gkey(p1)->gh), e);
    return (mx2_pow){mx2_lanes_at(w0, w1), mx2_lanes_at(vaes_gh_kk(w0), vaes_gh_kk(w1))};
}

/* a += x * k lane by lane, Karatsuba's three multiplies (vaes_ghash.h,
 * section 5). */
VAES_INLINE void mx2_gacc_mul(gacc *a, vec_t x, mx2_pow k)
{
    a->lo = v_xor(a->lo, v_clmul(x, k.h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, k.h, 0x11));
    a->mid = v_xor(a->mid, v_clmul(v_xor(x, v_swap64(x)), k.hk, 0x00));
}

/* kc->lc for messages of NB whole blocks and one whole AAD block. */
VAES_INLINE void mx2_keyctx_shape(mx2_keyctx *kc, int NB)
{
    vaes_gacc_zero(&kc->lc);
    mx2_gacc_mul(&kc->lc, v_bcast_x(_mm_set_epi64x(16 * 8, (long long)(16 * 8 * NB))), (mx2_pow){kc->h[0], kc->hk[0]});
    kc->shape = NB;
}

/* G groups of two messages, lane l of group g the message m[min(2g + l,
 * cnt - 1)] (a lane at cnt or later repeats the last message and is
 * neither stored nor tagged).  Every message has NB data blocks,
 * aad_len <= 16, R rounds; SAME: all share m[0]'s key object (G = 1
 * otherwise).  dir: the call's direction (AK_GCM_OPEN) and AK_GCM_UNIFORM
 * (every message has m[0]'s key, len and aad_len); the tag of message i
 * goes to T[i] when T is not NULL (the expected tags of an open), else to
 * its own tag. */
VAES_INLINE void vaes_gcm_mx2(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                              const mx2_keyctx *kc, const int NB, const int G, const int SAME, const int R)
{
    const aeskit_gcm_msg *P[MX2_GMAX][2];
    _Pragma("GCC unroll 8")
    for (int i = 0; i < 2 * G; i++)
        P[i / 2][i % 2] = &m[(size_t)i < cnt ? (size_t)i : cnt - 1];
    const int open = (dir & AK_GCM_OPEN) != 0, uni = (dir & AK_GCM_UNIFORM) != 0;
    /* the length block's products from kc: a uniform batch of its shape */
    const int shaped = SAME && uni && kc->shape == NB;
    /* round keys: the broadcast copies as memory operands (the group's
     * vectors and sums fill the registers); two keys gathered lane by
     * lane */
    vec_t kbuf[15];
    const vec_t *K = kbuf;
    if (SAME) {
        K = vaes_enc_keys_mem(vaes_aes_key(&mx2_gkey(P[0][0])->aes));
    } else {
        const ak_vaes_aes_key *k0 = vaes_aes_key(&mx2_gkey(P[0][0])->aes);
        const ak_vaes_aes_key *k1 = vaes_aes_key(&mx2_gkey(P[0][1])->aes);
        _Pragma("GCC unroll 15")
        for (int r = 0; r <= R; r++)
            kbuf[r] = mx2_lanes_at(k0->enc[r], k1->enc[r]);
    }
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    vec_t x[MX2_GMAX][MX2_MAXB + 1];
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const vec_t j0 = mx2_lanes(vaes_j0_iv12(P[g][0]->iv), vaes_j0_iv12(P[g][1]->iv));
        x[g][0] = v_xor(j0, K[0]);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++)
            x[g][b + 1] = v_xor(x[g][0], mx2_ctr(b));
    }
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int g = 0; g < G; g++) {
            _Pragma("GCC unroll 5")
            for (int b = 0; b <= NB; b++)
                x[g][b] = v_enc(x[g][b], K[r]);
        }
    }
    /* The rest of each group after its rounds in program order: the data
     * and AAD loads, the A and L products (which need no AES output) and
     * their sums are not live across the rounds, so the rounds keep their
     * vectors in registers; the loads and products are independent of the
     * rounds and start as early as the out-of-order window reaches them. */
    vec_t t[MX2_GMAX];
    int full[MX2_GMAX];
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const aeskit_gcm_msg *p0 = P[g][0], *p1 = P[g][1];
        mx2_keyctx_opaque(&kc);
        /* whole blocks in both lanes (the common uniform batch): plain
         * loads and stores, no masks */
        full[g] = p0->len == 16 * (size_t)NB && (uni || p1->len == 16 * (size_t)NB);
        const int aad16 = p0->aad_len == 16 && (uni || p1->aad_len == 16);
        const vec_t av = aad16 ? mx2_lanes_at(p0->aad, p1->aad) : mx2_lanes(mx2_load_aad(p0), mx2_load_aad(p1));
        gacc a;
        if (shaped) {
            a = kc->lc;
        } else {
            /* both lanes of one shape: the length block is a constant */
            const vec_t lv = full[g] && aad16 ? v_bcast_x(_mm_set_epi64x(16 * 8, (long long)(16 * 8 * NB)))
                                              : mx2_lanes(mx2_lenblock(p0), mx2_lenblock(p1));
            vaes_gacc_zero(&a);
            mx2_gacc_mul(&a, lv, mx2_power(kc, p0, p1, 1, SAME));
        }
        mx2_gacc_mul(&a, v_shuffle8(av, bsw), mx2_power(kc, p0, p1, (size_t)(NB + 2), SAME));
        x[g][0] = v_enclast(x[g][0], K[R]);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            const int whole = full[g] || b < NB - 1;
            const vec_t d = whole ? mx2_lanes_at(p0->in + 16 * b, p1->in + 16 * b)
                                  : mx2_lanes(mx2_load_block(p0->in, p0->len, b), mx2_load_block(p1->in, p1->len, b));
            x[g][b + 1] = v_enclast(x[g][b + 1], v_xor(K[R], d));
            /* C: the output of a seal (its live bytes: the last block's
             * AND a mask of the lengths), the input of an open */
            vec_t c = open ? d : x[g][b + 1];
            if (!open && !whole)
                c = _mm256_and_si256(c, mx2_lanes(mx2_live(p0->len - 16 * (size_t)b), mx2_live(p1->len - 16 * (size_t)b)));
            mx2_gacc_mul(&a, v_shuffle8(c, bsw), mx2_power(kc, p0, p1, (size_t)(NB + 1 - b), SAME));
        }
        t[g] = v_xor(v_shuffle8(vaes_gacc_reduce_v(a), bsw), x[g][0]);
    }
    /* every input is read: the outputs, then the tags */
    uint8_t *out[MX2_GMAX][2];
    size_t len[MX2_GMAX][2];
    _Pragma("GCC unroll 8")
    for (int i = 0; i < 2 * G; i++) {
        out[i / 2][i % 2] = P[i / 2][i % 2]->out;
        len[i / 2][i % 2] = P[i / 2][i % 2]->len;
    }
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const int two = (size_t)(2 * g + 1) < cnt;
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            const __m128i o0 = _mm256_castsi256_si128(x[g][b + 1]), o1 = _mm256_extracti128_si256(x[g][b + 1], 1);
            if (full[g] || b < NB - 1) {
                x_store(out[g][0] + 16 * b, o0);
                if (two)
                    x_store(out[g][1] + 16 * b, o1);
            } else {
                mx2_store_block(out[g][0], len[g][0], b, o0);
                if (two)
                    mx2_store_block(out[g][1], len[g][1], b, o1);
            }
        }
    }
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const size_t i = 2 * (size_t)g;
        x_store(T ? T[i] : P[g][0]->tag, _mm256_castsi256_si128(t[g]));
        if (i + 1 < cnt)
            x_store(T ? T[i + 1] : P[g][1]->tag, _mm256_extracti128_si256(t[g], 1));
    }
}

/* ---- the chain: a uniform one-key batch, set after set ---------------------
 *
 * vaes_gcm_mx2 runs its groups' rounds, then their ciphertext products and
 * reductions: the AES unit and the multiplier take turns, and a call's
 * products (three multiplies a block) take about as long as its rounds.
 * For a uniform batch under one key object (AK_GCM_UNIFORM) the chain
 * runs set i's rounds (a set: G groups, 2G messages) with set i - 1's
 * ciphertext products, one block vector's after each round, then set
 * i - 1's reductions and tags.  Every lane has one len and aad_len, so
 * the length block's products, the live-byte mask and the store shape are
 * the batch's.  Set i's inputs are read before its outputs are stored,
 * and set i - 1's tags are stored after set i's inputs are read (across
 * messages the order is free: the descriptor rules, above). */

/* A set's start: x[g][0] = J0 XOR K0 and x[g][1 + b] block b's counters
 * XOR K0, d[g][b] the data of block b, a[g] = *lc plus the AAD's products. */
VAES_INLINE void mx2_chain_start(vec_t (*x)[MX2_MAXB + 1], vec_t (*d)[MX2_MAXB], gacc *a, const aeskit_gcm_msg *p,
                                 const vec_t *K, const gacc *lc, const mx2_keyctx *kc, vec_t bsw, const int NB,
                                 const int G)
{
    const size_t len = p[0].len, aad_len = p[0].aad_len;
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const aeskit_gcm_msg *p0 = &p[2 * g], *p1 = &p[2 * g + 1];
        const vec_t j0 = mx2_lanes(vaes_j0_iv12(p0->iv), vaes_j0_iv12(p1->iv));
        x[g][0] = v_xor(j0, K[0]);
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            x[g][b + 1] = v_xor(x[g][0], mx2_ctr(b));
            d[g][b] = (len == 16 * (size_t)NB || b < NB - 1)
                          ? mx2_lanes_at(p0->in + 16 * b, p1->in + 16 * b)
                          : mx2_lanes(mx2_load_block(p0->in, len, b), mx2_load_block(p1->in, len, b));
        }
        const vec_t av = aad_len == 16 ? mx2_lanes_at(p0->aad, p1->aad) : mx2_lanes(mx2_load_aad(p0), mx2_load_aad(p1));
        a[g] = *lc;
        mx2_gacc_mul(&a[g], v_shuffle8(av, bsw), mx2_power(kc, p0, p1, (size_t)(NB + 2), 1));
    }
}

/* Rounds 1 .. R - 1 of a set's vectors, with hash (a constant) the
 * previous set's ciphertext products (c against K_(NB+1-b)) into ap, one
 * block vector's after each round; then the last round of the J0
 * vectors. */
VAES_INLINE void mx2_chain_rounds(vec_t (*x)[MX2_MAXB + 1], const vec_t *K, gacc *ap, const vec_t (*c)[MX2_MAXB],
                                  const mx2_keyctx *kc, const int hash, const int NB, const int G, const int R)
{
    /* q products after each round: all G * NB by round R - 1 */
    const int q = (G * NB + R - 2) / (R - 1);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 4")
        for (int g = 0; g < G; g++) {
            _Pragma("GCC unroll 5")
            for (int b = 0; b <= NB; b++)
                x[g][b] = v_enc(x[g][b], K[r]);
        }
        /* products k = q (r - 1) .. q r - 1 of the G * NB (group k / NB,
         * block k % NB) */
        _Pragma("GCC unroll 2")
        for (int k = q * (r - 1); k < q * r; k++) {
            if (hash && k < G * NB)
                mx2_gacc_mul(&ap[k / NB], c[k / NB][k % NB], mx2_power(kc, NULL, NULL, (size_t)(NB + 1 - k % NB), 1));
        }
    }
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++)
        x[g][0] = v_enclast(x[g][0], K[R]);
}

/* The last round of a set's data blocks, and what their hash takes (the
 * output of a seal, its live bytes only; the input of an open) into c in
 * register form. */
VAES_INLINE void mx2_chain_last(vec_t (*x)[MX2_MAXB + 1], vec_t (*c)[MX2_MAXB], const vec_t (*d)[MX2_MAXB], vec_t klast,
                                int open, int full, vec_t live, vec_t bsw, const int NB, const int G)
{
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            x[g][b + 1] = v_enclast(x[g][b + 1], v_xor(klast, d[g][b]));
            vec_t h = open ? d[g][b] : x[g][b + 1];
            if (!open && !full && b == NB - 1)
                h = _mm256_and_si256(h, live);
            c[g][b] = v_shuffle8(h, bsw);
        }
    }
}

/* The outputs of a set's messages (the block vectors x[g][1..NB]). */
VAES_INLINE void mx2_chain_store(const aeskit_gcm_msg *p, vec_t (*x)[MX2_MAXB + 1], const int NB, const int G)
{
    const size_t len = p[0].len;
    /* the pointers first: a store could alias the descriptors, as far as
     * the compiler knows */
    uint8_t *out[2 * MX2_GMAX];
    _Pragma("GCC unroll 8")
    for (int l = 0; l < 2 * G; l++)
        out[l] = p[l].out;
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++) {
            const __m128i o0 = _mm256_castsi256_si128(x[g][b + 1]), o1 = _mm256_extracti128_si256(x[g][b + 1], 1);
            if (len == 16 * (size_t)NB || b < NB - 1) {
                x_store(out[2 * g] + 16 * b, o0);
                x_store(out[2 * g + 1] + 16 * b, o1);
            } else {
                mx2_store_block(out[2 * g], len, b, o0);
                mx2_store_block(out[2 * g + 1], len, b, o1);
            }
        }
    }
}

/* The tags of a set's messages (batch index i of the first) from their
 * sums and E_K(J0) in ej. */
VAES_INLINE void mx2_chain_tags(const aeskit_gcm_msg *p, uint8_t (*T)[16], size_t i, const gacc *a, const vec_t *ej,
                                vec_t bsw, const int G)
{
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        const vec_t t = v_xor(v_shuffle8(vaes_gacc_reduce_v(a[g]), bsw), ej[g]);
        x_store(T ? T[i + (size_t)(2 * g)] : p[2 * g].tag, _mm256_castsi256_si128(t));
        x_store(T ? T[i + (size_t)(2 * g + 1)] : p[2 * g + 1].tag, _mm256_extracti128_si256(t, 1));
    }
}

/* The first 2G * floor(n / 2G) (n >= 4G) of the checked public descriptors
 * m, a uniform one-key batch of NB data blocks, aad_len <= 16 and R rounds
 * in direction dir (T and kc as for vaes_gcm_mx2); returns how many it
 * ran. */
VAES_INLINE size_t vaes_gcm_mx2_chain(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16],
                                      const mx2_keyctx *kc, const int NB, const int G, const int R)
{
    const size_t per = 2 * (size_t)G, sets = n / per;
    const vec_t *K = vaes_enc_keys_mem(vaes_aes_key(&mx2_gkey(&m[0])->aes));
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const int open = (dir & AK_GCM_OPEN) != 0;
    const size_t len = m[0].len;
    const int full = len == 16 * (size_t)NB;
    const vec_t live = full ? v_zero() : v_bcast_x(mx2_live(len - 16 * (size_t)(NB - 1)));
    /* the length block's products: the same in every lane and set */
    gacc lc;
    if (kc->shape == NB) {
        lc = kc->lc;
    } else {
        vaes_gacc_zero(&lc);
        mx2_gacc_mul(&lc, v_bcast_x(mx2_lenblock(&m[0])), mx2_power(kc, NULL, NULL, 1, 1));
    }
    vec_t x[MX2_GMAX][MX2_MAXB + 1], d[MX2_GMAX][MX2_MAXB], c[MX2_GMAX][MX2_MAXB], ej[MX2_GMAX];
    gacc a[MX2_GMAX], ap[MX2_GMAX];
    /* set 0: its rounds alone */
    mx2_chain_start(x, d, a, m, K, &lc, kc, bsw, NB, G);
    mx2_chain_rounds(x, K, ap, (const vec_t(*)[MX2_MAXB])c, kc, 0, NB, G, R);
    mx2_chain_last(x, c, (const vec_t(*)[MX2_MAXB])d, K[R], open, full, live, bsw, NB, G);
    mx2_chain_store(m, x, NB, G);
    /* set i's rounds with set i - 1's products, reductions and tags; set
     * i's inputs are read before set i - 1's tags and set i's outputs are
     * stored */
    for (size_t i = 1; i < sets; i++) {
        const aeskit_gcm_msg *p = m + per * i;
        mx2_keyctx_opaque(&kc);
        _Pragma("GCC unroll 4")
        for (int g = 0; g < G; g++) {
            ap[g] = a[g];
            ej[g] = x[g][0];
        }
        mx2_chain_start(x, d, a, p, K, &lc, kc, bsw, NB, G);
        mx2_chain_rounds(x, K, ap, (const vec_t(*)[MX2_MAXB])c, kc, 1, NB, G, R);
        mx2_chain_tags(p - per, T, per * (i - 1), ap, ej, bsw, G);
        mx2_chain_last(x, c, (const vec_t(*)[MX2_MAXB])d, K[R], open, full, live, bsw, NB, G);
        mx2_chain_store(p, x, NB, G);
    }
    /* the last set's products alone */
    _Pragma("GCC unroll 4")
    for (int g = 0; g < G; g++) {
        _Pragma("GCC unroll 4")
        for (int b = 0; b < NB; b++)
            mx2_gacc_mul(&a[g], c[g][b], mx2_power(kc, NULL, NULL, (size_t)(NB + 1 - b), 1));
        ej[g] = x[g][0];
    }
    mx2_chain_tags(m + per * (sets - 1), T, per * (sets - 1), a, ej, bsw, G);
    return per * sets;
}

/* ---- one kernel per block count, group count and key form ---------------- */

/* A kernel: m, cnt, dir, T and kc (NULL for two keys) as for vaes_gcm_mx2. */
typedef void vaes_gcm_mx2_kernel(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                                 const mx2_keyctx *kc);

VAES_INLINE void vaes_gcm_mx2_r(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                                const mx2_keyctx *kc, const int NB, const int G, const int SAME)
{
    /* a whole call (a long uniform batch) with the count a constant: no
     * per-lane count tests */
    const size_t whole = 2 * (size_t)G;
    if (cnt == whole) {
        switch (mx2_gkey(&m[0])->aes.rounds) {
        case 10: vaes_gcm_mx2(m, whole, dir, T, kc, NB, G, SAME, 10); break;
        case 12: vaes_gcm_mx2(m, whole, dir, T, kc, NB, G, SAME, 12); break;
        default: vaes_gcm_mx2(m, whole, dir, T, kc, NB, G, SAME, 14); break;
        }
        return;
    }
    switch (mx2_gkey(&m[0])->aes.rounds) {
    case 10: vaes_gcm_mx2(m, cnt, dir, T, kc, NB, G, SAME, 10); break;
    case 12: vaes_gcm_mx2(m, cnt, dir, T, kc, NB, G, SAME, 12); break;
    default: vaes_gcm_mx2(m, cnt, dir, T, kc, NB, G, SAME, 14); break;
    }
}

/* [G - 1]: one key, G groups (G up to mx2_groups(NB)); [MX2_GMAX]: two keys
 * gathered lane by lane, one group. */
#define MX2_LANES MX2_GMAX

VAES_NOINLINE void vaes_gcm_mx2_1g1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 1, 1, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_1g2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 1, 2, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_1g3(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 1, 3, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_1g4(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 1, 4, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_1lanes(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                       const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 1, 1, 0);
}
VAES_NOINLINE void vaes_gcm_mx2_2g1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 2, 1, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_2g2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 2, 2, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_2lanes(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                       const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 2, 1, 0);
}
VAES_NOINLINE void vaes_gcm_mx2_3g1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 3, 1, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_3g2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 3, 2, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_3lanes(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                       const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 3, 1, 0);
}
VAES_NOINLINE void vaes_gcm_mx2_4g1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 4, 1, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_4g2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                    const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 4, 2, 1);
}
VAES_NOINLINE void vaes_gcm_mx2_4lanes(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                                       const mx2_keyctx *kc)
{
    vaes_gcm_mx2_r(m, c, d, T, kc, 4, 1, 0);
}

/* Indexed [data blocks - 1][G - 1, or MX2_LANES]. */
static vaes_gcm_mx2_kernel *const vaes_gcm_mx2_kernels[MX2_MAXB][MX2_GMAX + 1] = {
    {vaes_gcm_mx2_1g1, vaes_gcm_mx2_1g2, vaes_gcm_mx2_1g3, vaes_gcm_mx2_1g4, vaes_gcm_mx2_1lanes},
    {vaes_gcm_mx2_2g1, vaes_gcm_mx2_2g2, NULL, NULL, vaes_gcm_mx2_2lanes},
    {vaes_gcm_mx2_3g1, vaes_gcm_mx2_3g2, NULL, NULL, vaes_gcm_mx2_3lanes},
    {vaes_gcm_mx2_4g1, vaes_gcm_mx2_4g2, NULL, NULL, vaes_gcm_mx2_4lanes}};

/* The chain, one function per block count (R by the key's round count),
 * G = mx2_chain_groups(NB) groups a set. */

typedef size_t vaes_gcm_mx2_chain_kernel(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16],
                                         const mx2_keyctx *kc);

VAES_INLINE size_t vaes_gcm_mx2_chain_r(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16],
                                        const mx2_keyctx *kc, const int NB, const int G)
{
    switch (mx2_gkey(&m[0])->aes.rounds) {
    case 10: return vaes_gcm_mx2_chain(m, n, dir, T, kc, NB, G, 10);
    case 12: return vaes_gcm_mx2_chain(m, n, dir, T, kc, NB, G, 12);
    default: return vaes_gcm_mx2_chain(m, n, dir, T, kc, NB, G, 14);
    }
}
VAES_NOINLINE size_t vaes_gcm_mx2_chain1(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16],
                                         const mx2_keyctx *kc)
{
    return vaes_gcm_mx2_chain_r(m, n, d, T, kc, 1, mx2_chain_groups(1));
}
VAES_NOINLINE size_t vaes_gcm_mx2_chain2(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16],
                                         const mx2_keyctx *kc)
{
    return vaes_gcm_mx2_chain_r(m, n, d, T, kc, 2, mx2_chain_groups(2));
}
VAES_NOINLINE size_t vaes_gcm_mx2_chain3(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16],
                                         const mx2_keyctx *kc)
{
    return vaes_gcm_mx2_chain_r(m, n, d, T, kc, 3, mx2_chain_groups(3));
}
VAES_NOINLINE size_t vaes_gcm_mx2_chain4(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16],
                                         const mx2_keyctx *kc)
{
    return vaes_gcm_mx2_chain_r(m, n, d, T, kc, 4, mx2_chain_groups(4));
}

/* Indexed [data blocks - 1]. */
static vaes_gcm_mx2_chain_kernel *const vaes_gcm_mx2_chain_kernels[MX2_MAXB] = {
    vaes_gcm_mx2_chain1, vaes_gcm_mx2_chain2, vaes_gcm_mx2_chain3, vaes_gcm_mx2_chain4};

/* ---- grouping ------------------------------------------------------------ */

/* The kernel's class of a message: its data block count 1..MX2_MAXB, or 0
 * when it takes no such message (empty, longer, or more than one AAD
 * block). */
VAES_INLINE int mx2_class(const aeskit_gcm_msg *p)
{
    return (p->len - 1 < 16 * MX2_MAXB && p->aad_len <= 16) ? (int)((p->len + 15) / 16) : 0;
}

/* The longest prefix of m[0..n) one kernel call takes: the messages of
 * the first one's class and round count, up to 2 * mx2_groups with its key
 * object, two with two keys; returns how many (0 if fewer than two), the
 * kernel in *kf and in *same whether it takes one key object. */
VAES_INLINE size_t mx2_prefix(const aeskit_gcm_msg *m, size_t n, vaes_gcm_mx2_kernel **kf, int *same)
{
    const int c = mx2_class(&m[0]);
    if (!c || n < 2)
        return 0;
    const size_t most = 2 * (size_t)mx2_groups(c), cap = n < most ? n : most;
    const uint32_t rounds = mx2_gkey(&m[0])->aes.rounds;
    size_t k = 1, ns = 1;
    for (; k < cap; k++) {
        if (mx2_class(&m[k]) != c)
            break;
        const int sk = m[k].key == m[0].key; /* a public descriptor names the whole key */
        if (!sk && mx2_gkey(&m[k])->aes.rounds != rounds)
            break;
        ns += ns == k && sk;
    }
    if (k < 2)
        return 0;
    *same = ns >= 2;
    if (ns >= 2) {
        *kf = vaes_gcm_mx2_kernels[c - 1][(ns + 1) / 2 - 1];
        return ns;
    }
    *kf = vaes_gcm_mx2_kernels[c - 1][MX2_LANES];
    return 2;
}

/* Call after call, the longest run of the checked public descriptors
 * m[0..n) of direction dir the kernel takes (the gcm_batch entry,
 * aes_vaes_avx2.c; T as for vaes_gcm_mx2): returns how many messages it
 * ran, 0 if the first two do not make a group.  A message it stops at is
 * the caller's.  The broadcast powers (mx2_keyctx) are formed once per key
 * object met in turn, and wiped at the end. */
VAES_INLINE size_t vaes_gcm_mx2_run(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    size_t i = 0;
    mx2_keyctx kc;
    const aeskit_gcm_key *kc_key = NULL;
    /* one key, len and aad_len throughout (AK_GCM_UNIFORM): whole calls of
     * one class, without the prefix scan, then one call for the rest */
    const int c0 = mx2_class(&m[0]);
    if ((dir & AK_GCM_UNIFORM) && c0) {
        mx2_keyctx_set(&kc, &m[0]);
        if (m[0].len == 16 * (size_t)c0 && m[0].aad_len == 16)
            mx2_keyctx_shape(&kc, c0);
        kc_key = m[0].key;
        /* two sets or more: the chain */
        if (n >= 4 * (size_t)mx2_chain_groups(c0))
            i = vaes_gcm_mx2_chain_kernels[c0 - 1](m, n, dir, T, &kc);
        const int gm = mx2_groups(c0);
        const size_t whole = 2 * (size_t)gm;
        for (; n - i >= whole; i += whole)
            vaes_gcm_mx2_kernels[c0 - 1][gm - 1](m + i, whole, dir, T ? T + i : NULL, &kc);
        if (n - i >= 2) {
            vaes_gcm_mx2_kernels[c0 - 1][(n - i + 1) / 2 - 1](m + i, n - i, dir, T ? T + i : NULL, &kc);
            i = n;
        }
    } else {
        while (n - i >= 2) {
            vaes_gcm_mx2_kernel *kf;
            int same;
            size_t k = mx2_prefix(m + i, n - i, &kf, &same);
            if (!k)
                break;
            if (same && m[i].key != kc_key) {
                mx2_keyctx_set(&kc, &m[i]);
                kc_key = m[i].key;
            }
            kf(m + i, k, dir, T ? T + i : NULL, same ? &kc : NULL);
            i += k;
        }
    }
    if (kc_key) {
        /* the stack copy of the powers is key material */
        memset(&kc, 0, sizeof kc);
        __asm__ volatile("" : : "r"(&kc) : "memory");
    }
    return i;
}
