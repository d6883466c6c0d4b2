/*
 * vaes_gcm_chain.h - the messages of a uniform GCM batch (one key object,
 * one len of 5 to 40 blocks, one aad_len of at most a block, one
 * direction) as one chain: each message's AES rounds run with the
 * previous message's GHASH products, reduction and tag.  The
 * x86-vaes-avx512 gcm_batch entry's kernel for the uniform batches too
 * long for the multi-message kernel (vaes_gcm_multi.h) whose hash input
 * fits the powers.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX-512 F/BW/VL (AK_TGT of
 * vaes_width512.h).  Needs vaes_aes.h, vaes_ghash.h and vaes_gcm_small.h
 * (the one-pass layout's steps).
 *
 * Why a chain.  A single call of these sizes (vaes_gcm_onepass,
 * vaes_gcm_small.h) runs its rounds, then the products of the last
 * round's ciphertext and one reduction: the AES unit idles while the
 * multiplier works, and the other way round; only the AAD and length
 * products overlap the rounds.  The chain hashes message i - 1 while
 * encrypting message i, as the bulk loop hashes one batch while
 * encrypting the next (vaes_gcm_bulk.h), so both units have work
 * throughout.  Opening hashes its input the same way, one message late.
 *
 * The layout of each message is the one-pass kernel's: data block i in
 * lane i % AK_LANES of vector i / AK_LANES with counter inc32^(1+i)(J0)
 * (SP 800-38D 7.1 steps 3-4), NVX = ceil(nC / AK_LANES) vectors, all but
 * the last window whole; E_K(J0) runs beside them in a 128-bit register.
 * GHASH (7.1 step 5) of [A_0 .. A_{nA-1}, C_0 .. C_{nC-1}, L], n = nA + nC
 * + 1 <= NPOW blocks, as S = sum X_i K_(n-i) (vaes_ghash.h, section 6):
 * the AAD's products are summed when the message starts, its ciphertext's
 * during the next message's rounds (vector j's after round R - NVX + j),
 * then one reduction.  L is the same for every message of a uniform
 * batch, so its product is formed once per call, in every lane, and added
 * to each group of four messages' AAD products, one message a lane; a
 * message's sums start as its lane alone.  Counters add in the low 32-bit
 * word (inc32: it wraps within the word).
 *
 * Memory order: message i's inputs (IV, AAD, in) are read before its
 * output is stored, and its tag is stored after message i + 1's inputs
 * are read.  Across messages that order is free: no output of one message
 * overlaps any buffer of another (include/aeskit.h, "Batches"); a tag may
 * overlap its own message's inputs, which are read by then.
 *
 * Constant time: branches on lengths, round counts, the direction and the
 * message count only.
 */

#if AK_LANES != 4
#error "vaes_gcm_chain.h is the zmm build's (aes_vaes_avx512.c)"
#endif

/* The chain's vector counts: NVX data vectors per message (5 to 40
 * blocks: below 5 the multi-message kernel takes a batch). */
#define VAES_CHAIN_NVX_MIN 2
#define VAES_CHAIN_NVX_MAX 10
#define VAES_CHAIN_NC_MIN 5
#define VAES_CHAIN_NC_MAX 40

/* The hash input of its largest shape (one AAD block, nC blocks, L)
 * within the powers. */
_Static_assert(1 + VAES_CHAIN_NC_MAX + 1 <= NPOW, "the chain's powers");
_Static_assert(VAES_CHAIN_NC_MAX <= AK_LANES * VAES_CHAIN_NVX_MAX, "the chain's vectors");
_Static_assert(16 * (VAES_CHAIN_NC_MIN - 1) == VAES_MULTI_LEN, "the chain starts where the multi-message kernel stops");

/* The shape of a uniform batch the chain takes: NVX, or 0. */
VAES_INLINE int vaes_chain_nvx(size_t len, size_t aad_len)
{
    const size_t nC = (len + 15) / 16;
    if (aad_len <= 16 && nC >= VAES_CHAIN_NC_MIN && nC <= VAES_CHAIN_NC_MAX)
        return (int)((nC + AK_LANES - 1) / AK_LANES);
    return 0;
}

/* Data block i's counter block XOR J0 is lane 1 + i of
 * vaes_tiny_ctr_words (vaes_aes.h), whose vector loads here read up to
 * lane AK_LANES * VAES_CHAIN_NVX_MAX. */
_Static_assert(AK_LANES * VAES_CHAIN_NVX_MAX < VAES_CTR_WORDS, "the counter words of the largest shape");

/* The length block's product in every lane (L * K_1; L is the same for
 * every message of a uniform batch): a message's sums take one lane of a
 * vector with it in all four (vaes_chain_start), so whichever lane that
 * is, L's product is counted once. */
VAES_INLINE gacc vaes_chain_len4(size_t len, size_t aad_len, const ak_vaes_ghash_key *g)
{
    const vec_t lv = v_bcast_x(_mm_set_epi64x((long long)aad_len * 8, (long long)len * 8));
    const vec_t h = v_bcast(vaes_gh_pow(g, 1));
    gacc a;
    a.lo = v_clmul(lv, h, 0x00);
    a.hi = v_clmul(lv, h, 0x11);
    a.mid = v_xor(v_clmul(lv, h, 0x01), v_clmul(lv, h, 0x10));
    return a;
}

/* The start sums of four messages, i .. i + 3 (the last of the n repeated
 * past the end), one per lane: lane l = A_(i+l) * hA + L * K_1 (lc from
 * vaes_chain_len4), hA the power K_n in every lane.  A message's sums
 * take its lane alone (vaes_chain_start): the lanes of a message's sums
 * are added up at its reduction, so a product may sit in any lane. */
VAES_INLINE gacc vaes_chain_aad4(const aeskit_gcm_msg *m, size_t i, size_t n, size_t aad_len, vec_t hA, vec_t bsw,
                                 const gacc *lc)
{
    __m128i t[4];
    _Pragma("GCC unroll 4")
    for (int l = 0; l < 4; l++) {
        const uint8_t *aad = m[i + (size_t)l < n ? i + (size_t)l : n - 1].aad;
        t[l] = aad_len == 16 ? x_load(aad) : _mm512_castsi512_si128(v_load_w(aad, 0, (wmask_t)((1u << aad_len) - 1)));
    }
    const vec_t av = v_shuffle8(v_lanes4(t[0], t[1], t[2], t[3]), bsw);
    gacc a;
    a.lo = v_xor(lc->lo, v_clmul(av, hA, 0x00));
    a.hi = v_xor(lc->hi, v_clmul(av, hA, 0x11));
    a.mid = v_xor3(lc->mid, v_clmul(av, hA, 0x01), v_clmul(av, hA, 0x10));
    return a;
}

/* A message's counter blocks XOR K0 less its IV: data vector j's lanes are
 * the counter words (vaes_tiny_ctr_words, from lane 1) XOR J0's own word
 * 1 (IV || 0^31 || 1 = the IV's 12 bytes and zeros, OR that word, which
 * XOR adds) XOR K0, formed once per call: per message only the IV's
 * broadcast is XORed in (vaes_chain_start). */
VAES_INLINE void vaes_chain_ctr_keys(vec_t *ck, vec_t *k1, const vec_t *K, const int NVX)
{
    *k1 = v_xor(K[0], v_bcast_x(_mm_set_epi32(0x01000000, 0, 0, 0)));
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++)
        ck[j] = v_xor(*k1, v_loadu(vaes_tiny_ctr_words + 16 + VB * j));
}

/* A message's start (as vaes_onepass_start): its counter blocks XOR K0 in
 * x (the IV broadcast XOR ck: no add and no byte swap), its J0 block XOR
 * K0 in *e (k1 from vaes_chain_ctr_keys), and its start sums in *a: lane l
 * of *aa (vaes_chain_aad4: its AAD's product and L's), or *lc when the AAD
 * is empty (L's product in lane 0). */
VAES_INLINE void vaes_chain_start(vec_t *x, __m128i *e, gacc *a, const vec_t *ck, vec_t k1, const uint8_t *iv,
                                  const gacc *aa, unsigned l, size_t aad_len, const gacc *lc, const int NVX)
{
    const __m128i ivz = vaes_ivz_iv12(iv);
    const vec_t jv = v_bcast_x(ivz);
    *e = _mm_xor_si128(ivz, v_low128(k1));
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++)
        x[j] = v_xor(jv, ck[j]);
    if (aad_len) {
        const __mmask8 k = (__mmask8)(3u << (2 * l));
        a->lo = _mm512_maskz_mov_epi64(k, aa->lo);
        a->mid = _mm512_maskz_mov_epi64(k, aa->mid);
        a->hi = _mm512_maskz_mov_epi64(k, aa->hi);
    } else {
        *a = *lc;
    }
}

/* A message's last round, the data in (plaintext or ciphertext) folded
 * into the last round key, and what its hash takes (the ciphertext, the
 * part past len zero) into p in register form; wl from vaes_onepass_wl,
 * wr the same with each block's 16 bits reversed (vaes_chain_wr): a
 * seal's last vector is swapped and cut to len in one zero-masked
 * shuffle. */
VAES_INLINE void vaes_chain_last(vec_t *x, vec_t *p, vec_t klast, const uint8_t *in, wmask_t wl, wmask_t wr, int enc,
                                 vec_t bsw, const int NVX)
{
    const ptrdiff_t last = (ptrdiff_t)(VB * (NVX - 1));
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++) {
        vec_t d = j < NVX - 1 ? v_loadu(in + VB * j) : v_load_w(in, last, wl);
        x[j] = v_enclast(x[j], v_xor(klast, d));
        if (enc && j == NVX - 1)
            p[j] = _mm512_maskz_shuffle_epi8(wr, x[j], bsw);
        else
            p[j] = v_shuffle8(enc ? x[j] : d, bsw);
    }
}

/* wl with the bits of each block's 16 bytes in reverse order: byte b of
 * a block is live in the byte-swapped vector iff byte 15 - b is in the
 * data's. */
VAES_INLINE wmask_t vaes_chain_wr(wmask_t wl, vec_t bsw)
{
    return _mm512_movepi8_mask(v_shuffle8(_mm512_movm_epi8(wl), bsw));
}

/* One vector's four products against the powers at pw, not yet summed
 * (vaes_chain_fold2 sums two vectors' in four three-way XORs, where one
 * vector at a time takes three XORs). */
typedef struct {
    vec_t lo, m0, m1, hi;
} vaes_chain_prod;

VAES_INLINE vaes_chain_prod vaes_chain_mul(vec_t x, const uint8_t *pw)
{
    const vec_t h = v_loadu(pw);
    vaes_chain_prod t;
    t.lo = v_clmul(x, h, 0x00);
    t.hi = v_clmul(x, h, 0x11);
    t.m0 = v_clmul(x, h, 0x01);
    t.m1 = v_clmul(x, h, 0x10);
    return t;
}

VAES_INLINE void vaes_chain_fold2(gacc *a, const vaes_chain_prod *u, const vaes_chain_prod *v)
{
    a->lo = v_xor3(a->lo, u->lo, v->lo);
    a->hi = v_xor3(a->hi, u->hi, v->hi);
    a->mid = v_xor3(v_xor3(a->mid, u->m0, u->m1), v->m0, v->m1);
}

VAES_INLINE void vaes_chain_fold1(gacc *a, const vaes_chain_prod *u)
{
    a->lo = v_xor(a->lo, u->lo);
    a->hi = v_xor(a->hi, u->hi);
    a->mid = v_xor3(a->mid, u->m0, u->m1);
}

/* Vector j's products (the previous message's ciphertext p against the
 * powers at pc): held in *u when j is even and j + 1 < NVX, else summed
 * into *a with the held ones (vectors j - 1 and j) or alone. */
VAES_INLINE void vaes_chain_hash_vec(gacc *a, vaes_chain_prod *u, const vec_t *p, const uint8_t *pc, int j,
                                     const int NVX)
{
    vaes_chain_prod t = vaes_chain_mul(p[j], pc + VB * j);
    if (j % 2 == 0 && j + 1 < NVX)
        *u = t;
    else if (j % 2 == 1)
        vaes_chain_fold2(a, u, &t);
    else
        vaes_chain_fold1(a, &t);
}

/* The round after which vector j of the previous message's ciphertext is
 * multiplied: one vector after each of the last NVX rounds before the
 * last, the first ones after round 1 where NVX >= R (AES-128 with ten
 * vectors). */
VAES_INLINE int vaes_chain_hash_round(int j, int NVX, int R) { return R - NVX + j >= 1 ? R - NVX + j : 1; }

/* Rounds 1 .. R of a message (its blocks x, its J0 block e), with hash
 * (a constant) the previous message's ciphertext products (p against the
 * powers at pc) into *ap, vector j's after round vaes_chain_hash_round. */
VAES_INLINE void vaes_chain_rounds(vec_t *x, __m128i *e, const vec_t *K, gacc *ap, const vec_t *p, const uint8_t *pc,
                                   const int hash, const int NVX, const int R)
{
    vaes_chain_prod u;
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 16")
        for (int j = 0; j < NVX; j++)
            x[j] = v_enc(x[j], K[r]);
        *e = _mm_aesenc_si128(*e, v_low128(K[r]));
        _Pragma("GCC unroll 16")
        for (int j = 0; j < NVX; j++)
            if (hash && vaes_chain_hash_round(j, NVX, R) == r)
                vaes_chain_hash_vec(ap, &u, p, pc, j, NVX);
    }
    *e = _mm_aesenclast_si128(*e, v_low128(K[R]));
}

/* The tag of a message from its sums and E_K(J0) (7.1 step 6). */
VAES_INLINE void vaes_chain_tag(uint8_t *tag, gacc a, __m128i e)
{
    x_store(tag, _mm_xor_si128(_mm_shuffle_epi8(vaes_gacc_reduce(a), x_bswap_mask()), e));
}

/* The n >= 1 messages of m (uniform: m[0]'s len and aad_len), tags to T[i]
 * when T is not NULL (an open's expected tags), else to m[i].tag. */
VAES_INLINE void vaes_gcm_chain(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, const aeskit_gcm_msg *m,
                                size_t n, uint8_t (*T)[16], int enc, const int NVX, const int R)
{
    const size_t len = m[0].len, aad_len = m[0].aad_len;
    const size_t nh = (aad_len + 15) / 16 + (len + 15) / 16 + 1;
    /* round keys as memory operands: two messages' vectors (x, p), their
     * sums and the AAD and length terms fill the register file, and a
     * register copy of the keys went to the stack frame */
    const vec_t *K = vaes_enc_keys_mem(ks);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const wmask_t wl = vaes_onepass_wl(len, NVX);
    const wmask_t wr = vaes_chain_wr(wl, bsw);
    const uint8_t *pc = vaes_gh_pow(g, (len + 15) / 16 + 1);
    vec_t x[VAES_CHAIN_NVX_MAX], p[VAES_CHAIN_NVX_MAX], ck[VAES_CHAIN_NVX_MAX], k1;
    gacc a, ap, lc, aa;
    __m128i e, ep;
    vaes_chain_ctr_keys(ck, &k1, K, NVX);
    const gacc l4 = vaes_chain_len4(len, aad_len, g);
    lc.lo = _mm512_maskz_mov_epi64(0x03, l4.lo);
    lc.mid = _mm512_maskz_mov_epi64(0x03, l4.mid);
    lc.hi = _mm512_maskz_mov_epi64(0x03, l4.hi);
    const vec_t hA = v_bcast(vaes_gh_pow(g, nh));
    vaes_gacc_zero(&aa);
    if (aad_len)
        aa = vaes_chain_aad4(m, 0, n, aad_len, hA, bsw, &l4);
    /* message 0: its rounds alone */
    vaes_chain_start(x, &e, &a, ck, k1, m[0].iv, &aa, 0, aad_len, &lc, NVX);
    vaes_chain_rounds(x, &e, K, &ap, p, pc, 0, NVX, R);
    vaes_chain_last(x, p, K[R], m[0].in, wl, wr, enc, bsw, NVX);
    vaes_onepass_store(m[0].out, wl, x, NVX);
    /* message i's rounds with message i - 1's products (one vector after
     * each of the last rounds, vaes_chain_hash_round), reduction and tag */
    for (size_t i = 1; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        ap = a;
        ep = e;
        if (aad_len && i % 4 == 0)
            aa = vaes_chain_aad4(m, i, n, aad_len, hA, bsw, &l4);
        vaes_chain_start(x, &e, &a, ck, k1, mm->iv, &aa, (unsigned)(i % 4), aad_len, &lc, NVX);
        vaes_chain_rounds(x, &e, K, &ap, p, pc, 1, NVX, R);
        vaes_chain_last(x, p, K[R], mm->in, wl, wr, enc, bsw, NVX);
        vaes_onepass_store(mm->out, wl, x, NVX);
        vaes_chain_tag(T ? T[i - 1] : m[i - 1].tag, ap, ep);
    }
    /* the last message's products alone */
    vaes_chain_prod u;
    _Pragma("GCC unroll 16")
    for (int j = 0; j < NVX; j++)
        vaes_chain_hash_vec(&a, &u, p, pc, j, NVX);
    vaes_chain_tag(T ? T[n - 1] : m[n - 1].tag, a, e);
}

typedef void vaes_gcm_chain_kernel(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16]);

/* The chain of one direction and NVX, by the key's round count. */
VAES_INLINE void vaes_gcm_chain_r(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16], int enc,
                                  const int NVX)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_chain(ks, g, m, n, T, enc, NVX, 10); break;
    case 12: vaes_gcm_chain(ks, g, m, n, T, enc, NVX, 12); break;
    default: vaes_gcm_chain(ks, g, m, n, T, enc, NVX, 14); break;
    }
}

VAES_NOINLINE void vaes_gcm_chain_seal2(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 2);
}
VAES_NOINLINE void vaes_gcm_chain_open2(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 2);
}
VAES_NOINLINE void vaes_gcm_chain_seal3(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 3);
}
VAES_NOINLINE void vaes_gcm_chain_open3(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 3);
}
VAES_NOINLINE void vaes_gcm_chain_seal4(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 4);
}
VAES_NOINLINE void vaes_gcm_chain_open4(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 4);
}
VAES_NOINLINE void vaes_gcm_chain_seal5(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 5);
}
VAES_NOINLINE void vaes_gcm_chain_open5(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 5);
}
VAES_NOINLINE void vaes_gcm_chain_seal6(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 6);
}
VAES_NOINLINE void vaes_gcm_chain_open6(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 6);
}
VAES_NOINLINE void vaes_gcm_chain_seal7(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 7);
}
VAES_NOINLINE void vaes_gcm_chain_open7(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 7);
}
VAES_NOINLINE void vaes_gcm_chain_seal8(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 8);
}
VAES_NOINLINE void vaes_gcm_chain_open8(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 8);
}
VAES_NOINLINE void vaes_gcm_chain_seal9(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 9);
}
VAES_NOINLINE void vaes_gcm_chain_open9(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 9);
}
VAES_NOINLINE void vaes_gcm_chain_seal10(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 1, 10);
}
VAES_NOINLINE void vaes_gcm_chain_open10(const ak_gcm_key *gk, const aeskit_gcm_msg *m, size_t n, uint8_t (*T)[16])
{
    vaes_gcm_chain_r(gk, m, n, T, 0, 10);
}

/* Indexed [AK_GCM_OPEN bit][NVX - VAES_CHAIN_NVX_MIN]. */
static vaes_gcm_chain_kernel *const vaes_gcm_chain_kernels[2][VAES_CHAIN_NVX_MAX - VAES_CHAIN_NVX_MIN + 1] = {
    {vaes_gcm_chain_seal2, vaes_gcm_chain_seal3, vaes_gcm_chain_seal4, vaes_gcm_chain_seal5, vaes_gcm_chain_seal6,
     vaes_gcm_chain_seal7, vaes_gcm_chain_seal8, vaes_gcm_chain_seal9, vaes_gcm_chain_seal10},
    {vaes_gcm_chain_open2, vaes_gcm_chain_open3, vaes_gcm_chain_open4, vaes_gcm_chain_open5, vaes_gcm_chain_open6,
     vaes_gcm_chain_open7, vaes_gcm_chain_open8, vaes_gcm_chain_open9, vaes_gcm_chain_open10}};
