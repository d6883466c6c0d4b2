/*
 * vaes_gcm_chain_long.h - the messages of a uniform GCM batch (one key
 * object, one len above two batches, one aad_len, one direction) as one
 * chain: each message's first rounds run with the previous message's
 * last products, reduction and tag.  The x86-vaes-avx512 gcm_batch
 * entry's kernel (and x86-vaes-avx2's) for the uniform batches whose
 * single calls would go to vaes_gcm_long.
 *
 * CPU features: those of the width file (AK_TGT of vaes_width512.h or
 * aes_vaes_avx2.c).  Needs vaes_gcm_bulk.h (the body and its link,
 * vaes_gcm_link, which says why) and vaes_aes.h (vaes_j0_iv12).
 *
 * Each message is the single call's (vaes_gcm_long): its AAD hashed
 * first, E_K(J0) beside it, then vaes_gcm_body with the public counters
 * of a 96-bit IV.  The body, given the link, leaves its last products
 * waiting and runs the previous message's with its first rounds (a
 * seal's first batch, an open's tail keystream; with no tail, an open
 * runs them alone first), which stores that message's tag; the last
 * message's products run alone.
 *
 * Memory order: message i's tag is stored during message i + 1's first
 * rounds (after a seal's first batch is read and written).  Across
 * messages that order is free: no output of one message overlaps any
 * buffer of another (include/aeskit.h, "Batches").
 *
 * Constant time: branches on lengths, round counts and the message count
 * only.
 */

/* The lengths the chain takes: on zmm above the one-pass chain's
 * (vaes_gcm_chain.h), on ymm above 12 vectors of the single calls'
 * one-pass class (vaes_gcm_small.h): below that one message at a time is
 * the faster, above it (13-vector kernels spill) the chain
 * (docs/performance.md, "Zen 4: 44 powers on zmm" and "Zen 4: the AAD
 * and length products in one ymm").  Both leave at least one whole batch before the tail (the
 * link's rule, vaes_gcm_body).  The last batch, a tail of nt < BATCH
 * blocks and the length block take one fold of BATCH + nt + 1 <= NPOW
 * powers; a tail of BATCH blocks is folded apart (vaes_gcm_link_tail,
 * vaes_gcm_body). */
_Static_assert(2 * BATCH <= NPOW, "the link's fold within the powers");
#if AK_LANES == 4
#define VAES_CHAIN_LONG_MIN (16 * VAES_CHAIN_NC_MAX + 1)
#else
#define VAES_CHAIN_LONG_MIN (16 * AK_LANES * (VAES_ONEPASS_NVX_MAX - 1) + 1)
#endif
_Static_assert(VAES_CHAIN_LONG_MIN > 16 * BATCH, "a whole batch before the tail");
VAES_INLINE int vaes_chain_long_takes(size_t len) { return len >= VAES_CHAIN_LONG_MIN; }

/* The n >= 1 messages of m (uniform: m[0]'s len, which
 * vaes_chain_long_takes, and aad_len), tags to T[i] when T is not NULL
 * (an open's expected tags), else to m[i].tag; lag2 as vaes_gcm_body's. */
VAES_INLINE void vaes_gcm_chain_long(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, const aeskit_gcm_msg *m,
                                     size_t n, uint8_t (*T)[16], int enc, const int R, const int lag2)
{
    const size_t len = m[0].len, aad_len = m[0].aad_len;
    const __m128i l = _mm_set_epi64x((long long)aad_len * 8, (long long)len * 8);
    vaes_gcm_link ch;
    ch.live = 0; /* the rest is set by message 0's end */
    for (int j = 0; j < 2 * NV; j++)
        ch.pt[j] = v_zero();
    ch.np = 0;
    ch.pw = vaes_gh_pow(g, 1);
    vaes_gacc_zero(&ch.a);
    ch.e = _mm_setzero_si128();
    ch.tag = T ? T[0] : m[0].tag;
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        const __m128i j0 = _mm_shuffle_epi8(vaes_j0_iv12(mm->iv), x_bswap_mask());
        __m128i y = vaes_gcm_aad_y(g, mm->aad, aad_len);
        __m128i c = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));
        /* E(J0) where vaes_gcm_long puts it: before the body on zmm, after
         * it on ymm (whose body needs all 16 registers) */
        __m128i e = _mm_setzero_si128();
        if (AK_LANES == 4)
            e = vaes_gcm_ej0(ks, j0, R);
        vaes_gcm_body(ks, g, mm->out, mm->in, len, &c, &y, &l, enc, 1, R, &ch, lag2, 0);
        if (AK_LANES != 4)
            e = vaes_gcm_ej0(ks, j0, R);
        ch.e = e;
        ch.tag = T ? T[i] : mm->tag;
    }
    vaes_gcm_link_flush(&ch); /* the last message's products alone */
}

typedef void vaes_gcm_chain_long_kernel(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16]);

VAES_INLINE void vaes_gcm_chain_long_r(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16],
                                       int enc, const int lag2)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_chain_long(ks, g, m, n, T, enc, 10, lag2); break;
    case 12: vaes_gcm_chain_long(ks, g, m, n, T, enc, 12, lag2); break;
    default: vaes_gcm_chain_long(ks, g, m, n, T, enc, 14, lag2); break;
    }
}

/* Seals of more than VAES_GCM_LAG2_MIN batches chain at lag two
 * (vaes_gcm_body), in a kernel of their own, as the single calls do
 * (vaes_gcm_long_seal_msg): the lag-two code would cost the shorter
 * messages' kernel its registers. */
VAES_NOINLINE void vaes_gcm_chain_long_seal_lag1(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n,
                                                 uint8_t (*T)[16])
{
    vaes_gcm_chain_long_r(gk, m, n, T, 1, 0);
}
VAES_NOINLINE void vaes_gcm_chain_long_seal_lag2(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n,
                                                 uint8_t (*T)[16])
{
    vaes_gcm_chain_long_r(gk, m, n, T, 1, 1);
}
VAES_NOINLINE void vaes_gcm_chain_long_seal(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    if (m[0].len > VAES_GCM_LAG2_LEN)
        vaes_gcm_chain_long_seal_lag2(gk, m, n, T);
    else
        vaes_gcm_chain_long_seal_lag1(gk, m, n, T);
}
#if AK_LANES == 4
/* Opens chain on zmm only: x86-vaes-avx2 sends its opens to the front
 * end's descriptors (ak_vaes2_gcm_batch). */
VAES_NOINLINE void vaes_gcm_chain_long_open(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_long_r(gk, m, n, T, 0, 0);
}

/* Indexed by the AK_GCM_OPEN bit. */
static vaes_gcm_chain_long_kernel *const vaes_gcm_chain_long_kernels[2] = {vaes_gcm_chain_long_seal,
                                                                          vaes_gcm_chain_long_open};
#endif

/* ---- the gcm_batch entry's messages one at a time -------------------------
 *
 * A checked message of a gcm_batch call (src/internal.h) that no batch
 * kernel takes gets a backend descriptor on the stack for vaes_gcm_msg,
 * the single call's dispatch, with nothing else per message.  An empty
 * message's in and out are never read: the descriptor names none, a small
 * zeroed buffer (GMAC's in and out are not even valid pointers); so does
 * an empty AAD.  The kernels do not write the descriptor. */
VAES_INLINE void vaes_gcm_batch_msg(const aeskit_gcm_msg *mm, uint32_t dir, uint8_t *tag, const uint8_t *none)
{
    const ak_gcm_key *g = (const ak_gcm_key *)(const void *)mm->key;
    ak_gcm_msg d;
    d.flags = (dir & AK_GCM_OPEN) | AK_GCM_J0_IV12;
    d.aes = &g->aes;
    d.gh = &g->gh;
    d.len = mm->len;
    d.in = mm->len ? mm->in : none;
    d.out = mm->len ? mm->out : (uint8_t *)(uintptr_t)none;
    d.aad = mm->aad_len ? mm->aad : none;
    d.aad_len = mm->aad_len;
    d.tag = tag;
    x_store(d.j0, vaes_j0_iv12(mm->iv));
    vaes_gcm_msg(&d);
}
