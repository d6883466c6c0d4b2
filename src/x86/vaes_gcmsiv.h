/*
 * vaes_gcmsiv.h - AES-GCM-SIV's (RFC 8452) two passes on the x86-vaes
 * vectors: POLYVAL (the polyval_init and polyval entries) and the CTR pass
 * with the 32-bit little-endian counter (ctr32le).
 *
 * CPU features: VAES, VPCLMULQDQ, AVX2, PCLMULQDQ for the 128-bit key
 * steps; on zmm AVX-512 F/BW/VL (AK_TGT of the width file).  Needs
 * vaes_aes.h, vaes_ghash.h and vaes_block.h.
 *
 * POLYVAL natively.  RFC 8452 appendix A: POLYVAL(H, X_1..X_n) =
 * rev(GHASH(mulX_GHASH(rev(H)), rev(X_1), ..., rev(X_n))), rev the byte
 * reversal of a block.  vaes_ghash.h's register form of a GHASH block Z is
 * r(Z) = bswap(Z) = rev(Z) read as a little-endian integer, and its key is
 * K_1 = r(H_G * x^-1) (section 3 there).  So with H_G = mulX_GHASH(rev(H)) =
 * rev(H) * x:
 *   - the register form of the GHASH block rev(X) is X itself, as loaded;
 *   - the POLYVAL value rev(Y) of a GHASH state Y is r(Y), the register;
 *   - K_1 = r(rev(H) * x * x^-1) = r(rev(H)) = H as loaded.
 * POLYVAL is therefore vaes_ghash.h's products and reduction (sections 2-4
 * and 6 there) on the bytes as they are in memory: no byte shuffle on the
 * data, the state or the key, and K_j = K_{j-1} (x) K_1 by x_gmul.  The
 * products are schoolbook at both widths (this table has no Karatsuba
 * half-sums).
 *
 * Per message the key is new (RFC 8452 section 4 derives it from the
 * nonce), so the power table is built for the message's length only: at
 * most PV_NPOW powers, fewer for short messages (polyval_init's nblocks),
 * one 128-bit product for K_2 .. K_{AK_LANES}, then whole vectors at a
 * time, D_v = D_{v-p} (x) K_{AK_LANES*p} for the largest power of two
 * p <= v (D_v the descending vector K_{AK_LANES*(v+1)} .. K_{AK_LANES*v+1}),
 * so the chain is logarithmic in the number of powers, not linear.  The
 * blocks are folded PV chunk at a time (chunk <= the powers held), one
 * reduction per chunk; a partial last block is zero-padded by the windowed
 * load, which is POLYVAL's padding (section 4).
 *
 * The counter (section 4): the first 32 bits of the counter block are a
 * little-endian integer incremented modulo 2^32, the other 96 fixed.  In a
 * vector lane that word is the lane's low dword as loaded, so the counters
 * are a 32-bit lane add on the loaded block, with no byte shuffle; wrapping
 * modulo 2^32 is the add's own (appendix C.3's vectors).
 *
 * Constant time: the counter block comes from the tag, which is public in
 * GCM-SIV, and is still only added to, never branched on; lengths decide
 * the chunks and windows; the key powers, state and data reach only
 * carry-less multiplies, XORs and AES rounds.
 */

#define PV_NPOW (2 * BATCH) /* powers of the POLYVAL key at most: 32 (zmm), 16 (ymm) */

/* The backend-owned part of ak_ghash for POLYVAL: pow[PV_NPOW - j] = K_j for
 * j = 1 .. npow (descending, as vaes_ghash.h's table), and AK_LANES - 1
 * zero rows after them, which a window's vector load past the last power
 * reaches (their lanes meet zero data). */
typedef struct {
    uint8_t pow[PV_NPOW + AK_LANES - 1][16];
    uint32_t npow; /* 1 .. AK_LANES, or a multiple of AK_LANES up to PV_NPOW */
} ak_vaes_polyval_key;
_Static_assert(sizeof(ak_vaes_polyval_key) <= AESKIT_GHASH_KEY_SIZE, "ak_vaes_polyval_key fits ak_ghash.data");

/* The reduced product of two vectors of K-form values, lane by lane (the
 * same schoolbook product and reduction as x_gmul). */
VAES_INLINE vec_t vaes_pv_vmul(vec_t a, vec_t b)
{
    const vec_t c = v_bcast_x(_mm_set1_epi64x((long long)0xc200000000000000ULL));
    vec_t lo = v_clmul(a, b, 0x00), hi = v_clmul(a, b, 0x11);
    vec_t mid = v_xor(v_clmul(a, b, 0x01), v_clmul(a, b, 0x10));
    mid = v_xor3(mid, v_swap64(lo), v_clmul(lo, c, 0x00));
    return v_xor3(hi, v_swap64(mid), v_clmul(mid, c, 0x00));
}

VAES_INLINE void vaes_polyval_init(ak_ghash *gk, const uint8_t H[16], size_t nblocks)
{
    ak_vaes_polyval_key *g = (ak_vaes_polyval_key *)(void *)gk->data;
    size_t want = nblocks < PV_NPOW ? nblocks : PV_NPOW;
    size_t nvec = (want + AK_LANES - 1) / AK_LANES;
    nvec = nvec ? nvec : 1;
    uint8_t(*pw)[16] = g->pow;
    for (int j = 0; j < AK_LANES - 1; j++)
        x_store(pw[PV_NPOW + j], _mm_setzero_si128());
    /* D_0: K_1 .. K_{AK_LANES} one 128-bit product at a time; a message of
     * fewer blocks takes only as many (a chunk never has more blocks than
     * the key has powers, and a vector load past K_1 meets the zero rows). */
    size_t first = want < AK_LANES ? (want ? want : 1) : AK_LANES;
    __m128i k1 = x_load(H), kj = k1;
    x_store(pw[PV_NPOW - 1], k1);
    for (size_t j = 2; j <= first; j++) {
        kj = x_gmul(kj, k1);
        x_store(pw[PV_NPOW - j], kj);
    }
    if (nvec == 1) {
        g->npow = (uint32_t)first;
        return;
    }
    vec_t D[PV_NPOW / AK_LANES];
    D[0] = v_loadu(pw[PV_NPOW - AK_LANES]);
    for (size_t v = 1; v < nvec; v++) {
        size_t p = 1;
        while (2 * p <= v)
            p *= 2;
        /* K_{AK_LANES*p} is the first lane of D_{p-1} */
        D[v] = vaes_pv_vmul(D[v - p], v_bcast_x(v_low128(D[p - 1])));
        v_storeu(pw[PV_NPOW - AK_LANES * (v + 1)], D[v]);
    }
    g->npow = (uint32_t)(AK_LANES * nvec);
}

/* a += x * (powers at pw), schoolbook middle term. */
VAES_INLINE void vaes_pv_acc(gacc *a, vec_t x, const uint8_t *pw)
{
    vec_t h = v_loadu(pw);
    a->lo = v_xor(a->lo, v_clmul(x, h, 0x00));
    a->hi = v_xor(a->hi, v_clmul(x, h, 0x11));
    a->mid = v_xor3(a->mid, v_clmul(x, h, 0x01), v_clmul(x, h, 0x10));
}

/* The two-multiply reduction (vaes_ghash.h section 4) of schoolbook sums,
 * then the lanes summed. */
VAES_INLINE __m128i vaes_pv_reduce(gacc a)
{
    const vec_t c = v_bcast_x(_mm_set1_epi64x((long long)0xc200000000000000ULL));
    vec_t mid = v_xor3(a.mid, v_swap64(a.lo), v_clmul(a.lo, c, 0x00));
    return v_hxor(v_xor3(a.hi, v_swap64(mid), v_clmul(mid, c, 0x00)));
}

/* The powers of a full chunk as the chunk loop holds them: h[j] the vector
 * K_{PV_NPOW - AK_LANES*j} .. K_{PV_NPOW - AK_LANES*(j+1) + 1} (descending,
 * as the table) and hs[j] its Karatsuba half-sums (vaes_ghash.h section 5:
 * k1 + k0 in each lane's low qword).  Loaded once per call: read from the
 * table again for every chunk (three loads of each power vector, one of
 * them split across cache lines) they made the loop bound by loads rather
 * than by the carry-less multiplies (docs/performance.md, "GCM-SIV's
 * POLYVAL pass"). */
typedef struct {
    vec_t h[PV_NPOW / AK_LANES], hs[PV_NPOW / AK_LANES];
} vaes_pv_chunk_key;

VAES_INLINE void vaes_pv_chunk_key_load(vaes_pv_chunk_key *ck, const uint8_t *pw)
{
    _Pragma("GCC unroll 8")
    for (int j = 0; j < PV_NPOW / AK_LANES; j++) {
        ck->h[j] = v_loadu(pw + VB * j);
        ck->hs[j] = v_xor(ck->h[j], v_loadu(pw + VB * j + 8));
    }
}

/* One full chunk (PV_NPOW blocks at in, powers ck) folded into y, with
 * Karatsuba's middle term (vaes_ghash.h section 5): per lane, mid =
 * (x1 + x0)(k1 + k0) + x1 k1 + x0 k0.  The state y enters the first block
 * (X_1 + y) like data: a separate 128-bit product y K costs as much as a
 * whole vector's where the carry-less multiply has one throughput at every
 * width (Zen 4), and the chain from one chunk's y to the next (a product,
 * the sums, the reduction) stays well under the chunk's multiplies.  The
 * data's half-sums come from unaligned loads 8 bytes on, not from
 * shuffles: lane l of the load at p + 8 has, as its low qword, the high
 * qword of lane l at p, so v_xor(v, load(p + 8)) holds x1 + x0 in every
 * lane's low qword (its high qword is not used: the product takes the low
 * qwords, imm 0x00).  The first vector (it holds y) and the last (a load
 * past it could leave the buffer) take a shuffle instead. */
VAES_INLINE __m128i vaes_pv_chunk(const vaes_pv_chunk_key *ck, __m128i y, const uint8_t *in)
{
    enum { NVP = PV_NPOW / AK_LANES };
    vec_t lo = v_zero(), hi = v_zero(), mid = v_zero();
    _Pragma("GCC unroll 8")
    for (int j = 0; j < NVP; j++) {
        vec_t x = v_loadu(in + VB * j);
        if (j == 0)
            x = v_xor(x, v_zext(y));
        vec_t xs = (j == 0 || j == NVP - 1) ? v_xor(x, v_swap64(x)) : v_xor(x, v_loadu(in + VB * j + 8));
        lo = v_xor(lo, v_clmul(x, ck->h[j], 0x00));
        hi = v_xor(hi, v_clmul(x, ck->h[j], 0x11));
        mid = v_xor(mid, v_clmul(xs, ck->hs[j], 0x00));
    }
    gacc a;
    a.lo = lo;
    a.hi = hi;
    a.mid = v_xor3(mid, lo, hi);
    return vaes_pv_reduce(a);
}

/* Folds the len bytes at in into y: the whole chunks first, on powers held
 * in registers, then what is left in chunks of at most npow blocks (a key
 * of fewer powers takes only this second loop). */
VAES_INLINE __m128i vaes_polyval_bytes(const ak_vaes_polyval_key *g, __m128i y, const uint8_t *in, size_t len)
{
    if (g->npow == PV_NPOW && len >= 16 * PV_NPOW) {
        vaes_pv_chunk_key ck;
        vaes_pv_chunk_key_load(&ck, g->pow[0]);
        do {
            y = vaes_pv_chunk(&ck, y, in);
            len -= 16 * PV_NPOW;
            in += 16 * PV_NPOW;
        } while (len >= 16 * PV_NPOW);
    }
    const size_t cap = 16 * (size_t)g->npow;
    while (len) {
        size_t n = len < cap ? len : cap;
        size_t m = (n + 15) / 16;
        const uint8_t *pw = (const uint8_t *)(const void *)g->pow + 16 * (PV_NPOW - m);
        gacc a;
        vaes_gacc_zero(&a);
        for (size_t j = 0; j * AK_LANES < m; j++) {
            vec_t x = v_load_window(in, (ptrdiff_t)(VB * j), n);
            if (j == 0)
                x = v_xor(x, v_zext(y));
            vaes_pv_acc(&a, x, pw + VB * j);
        }
        y = vaes_pv_reduce(a);
        len -= n;
        in += n;
    }
    return y;
}

/* The polyval entry: S = POLYVAL state (byte order of RFC 8452), folded
 * with len bytes, the last block zero-padded. */
VAES_INLINE void vaes_polyval(const ak_ghash *gk, uint8_t S[16], const uint8_t *in, size_t len)
{
    const ak_vaes_polyval_key *g = (const ak_vaes_polyval_key *)(const void *)gk->data;
    x_store(S, vaes_polyval_bytes(g, x_load(S), in, len));
}

/* ---- CTR with the little-endian 32-bit counter ---------------------------- */

VAES_INLINE void vaes_ctr32le_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t len,
                                   const uint8_t ctr[16], const int R)
{
    vec_t K[15];
    vaes_load_enc_keys(K, ks, R);
    const vec_t step = v_lane_step();
    vec_t cv = v_add32(v_bcast(ctr), v_lane_idx()), x[NV], d[NV];
    for (; len >= 16 * BATCH; len -= 16 * BATCH, in += 16 * BATCH, out += 16 * BATCH) {
        for (int j = 0; j < NV; j++) {
            x[j] = v_xor(cv, K[0]);
            cv = v_add32(cv, step);
            d[j] = v_loadu(in + VB * j);
        }
        vaes_aes_enc_n(x, K, d, NV, R);
        for (int j = 0; j < NV; j++)
            v_storeu(out + VB * j, x[j]);
    }
    if (len) {
        for (int j = 0; j < NV; j++) {
            x[j] = v_xor(cv, K[0]);
            cv = v_add32(cv, step);
        }
        switch (vaes_tail_vectors(len)) {
        case 1: vaes_ctr_tail_n(x, K, in, out, len, 1, R); break;
        case 2: vaes_ctr_tail_n(x, K, in, out, len, 2, R); break;
        case 3: vaes_ctr_tail_n(x, K, in, out, len, 3, R); break;
        default: vaes_ctr_tail_n(x, K, in, out, len, 4, R); break;
        }
    }
}

/* The ctr32le entry: out = in ^ E(ctr), E(ctr + 1), ... over len bytes. */
VAES_INLINE void vaes_ctr32le(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t ctr[16])
{
    if (!len)
        return;
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_ctr32le_body(ks, out, in, len, ctr, 10); break;
    case 12: vaes_ctr32le_body(ks, out, in, len, ctr, 12); break;
    default: vaes_ctr32le_body(ks, out, in, len, ctr, 14); break;
    }
}

/* ---- open in one pass: the CTR pass and POLYVAL of its output ------------ */

/* One batch's AES rounds 1..R-1 on x (already XORed with K[0]), with the
 * POLYVAL products of the previous batch's plaintext p against the powers
 * at pw in the last rounds (p[0], which may carry the state, last): as
 * vaes_gcm_stitch does for GCM sealing, whose GHASH input is likewise the
 * previous batch's output, ready only at its last round. */
VAES_INLINE void vaes_pv_stitch(vec_t *x, const vec_t *K, const vec_t *p, const uint8_t *pw, gacc *a, const int R)
{
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        vaes_aes_round_4x(x, K[r]);
        if (r == R - 7)
            vaes_pv_acc(a, p[3], pw + VB * 3);
        if (r == R - 5)
            vaes_pv_acc(a, p[2], pw + VB * 2);
        if (r == R - 3)
            vaes_pv_acc(a, p[1], pw + VB * 1);
        if (r == R - 2)
            vaes_pv_acc(a, p[0], pw);
    }
}

/* The batch of counters cv (advanced), its keystream XORed onto in, stored
 * at out and kept in x (the plaintext, for the next batch's products). */
VAES_INLINE void vaes_pv_ctr_start(vec_t *x, vec_t *cv, const vec_t *K, const vec_t step)
{
    for (int j = 0; j < NV; j++) {
        x[j] = v_xor(*cv, K[0]);
        *cv = v_add32(*cv, step);
    }
}
VAES_INLINE void vaes_pv_ctr_finish(vec_t *x, const vec_t *K, const uint8_t *in, uint8_t *out, const int R)
{
    for (int j = 0; j < NV; j++) {
        x[j] = v_enclast(x[j], v_xor(K[R], v_loadu(in + VB * j)));
        v_storeu(out + VB * j, x[j]);
    }
}

/* out = in ^ E(ctr), E(ctr + 1), ... (as vaes_ctr32le_body) and the
 * plaintext out folded into the POLYVAL state y, in one pass over whole
 * chunks of PV_NPOW blocks when the key holds that many powers: batch b's
 * AES runs with batch b-1's products (vaes_pv_stitch), batch 2c's first
 * product carries y and batch 2c+1's products end with the reduction.  The
 * rest (a part chunk, or a key of fewer powers) goes through the two
 * passes, from the counter the loop reached. */
VAES_INLINE __m128i vaes_ctr32le_polyval_body(const ak_vaes_aes_key *ks, const ak_vaes_polyval_key *g, uint8_t *out,
                                              const uint8_t *in, size_t len, const uint8_t ctr[16], __m128i y,
                                              const int R)
{
    vec_t cv = v_add32(v_bcast(ctr), v_lane_idx());
    size_t nchunk = g->npow == PV_NPOW ? len / (16 * PV_NPOW) : 0;
    if (nchunk) {
        vec_t K[15];
        vaes_load_enc_keys(K, ks, R);
        const vec_t step = v_lane_step();
        const uint8_t *pw = g->pow[0];
        vec_t x[NV], p[NV];
        gacc a;
        /* batch 0: its AES alone */
        vaes_pv_ctr_start(x, &cv, K, step);
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            vaes_aes_round_4x(x, K[r]);
        const uint8_t *ip = in;
        uint8_t *op = out;
        vaes_pv_ctr_finish(x, K, ip, op, R);
        for (size_t c = 0; c < nchunk; c++) {
            for (int j = 0; j < NV; j++)
                p[j] = x[j];
            ip += 16 * BATCH;
            op += 16 * BATCH;
            /* batch 2c + 1, with the products of batch 2c (the chunk's first) */
            p[0] = v_xor(p[0], v_zext(y));
            vaes_gacc_zero(&a);
            vaes_pv_ctr_start(x, &cv, K, step);
            vaes_pv_stitch(x, K, p, pw, &a, R);
            vaes_pv_ctr_finish(x, K, ip, op, R);
            for (int j = 0; j < NV; j++)
                p[j] = x[j];
            ip += 16 * BATCH;
            op += 16 * BATCH;
            /* batch 2c + 2 if there is one, with the products of batch 2c + 1 */
            if (c + 1 < nchunk) {
                vaes_pv_ctr_start(x, &cv, K, step);
                vaes_pv_stitch(x, K, p, pw + VB * NV, &a, R);
                vaes_pv_ctr_finish(x, K, ip, op, R);
            } else {
                for (int j = 0; j < NV; j++)
                    vaes_pv_acc(&a, p[j], pw + VB * (NV + j));
            }
            y = vaes_pv_reduce(a);
        }
    }
    size_t done = nchunk * 16 * PV_NPOW;
    if (len > done) {
        uint8_t cb[16];
        x_store(cb, v_low128(cv));
        vaes_ctr32le_body(ks, out + done, in + done, len - done, cb, R);
        y = vaes_polyval_bytes(g, y, out + done, len - done);
    }
    return y;
}

/* The ctr32le_polyval entry: out = in ^ the keystream of ctr over len
 * bytes, and S (POLYVAL state, RFC byte order) folded with out. */
VAES_INLINE void vaes_ctr32le_polyval(const ak_aes *k, const ak_ghash *gk, uint8_t *out, const uint8_t *in, size_t len,
                                      const uint8_t ctr[16], uint8_t S[16])
{
    if (!len)
        return;
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    const ak_vaes_polyval_key *g = (const ak_vaes_polyval_key *)(const void *)gk->data;
    __m128i y = x_load(S);
    switch (k->rounds) {
    case 10: y = vaes_ctr32le_polyval_body(ks, g, out, in, len, ctr, y, 10); break;
    case 12: y = vaes_ctr32le_polyval_body(ks, g, out, in, len, ctr, y, 12); break;
    default: y = vaes_ctr32le_polyval_body(ks, g, out, in, len, ctr, y, 14); break;
    }
    x_store(S, y);
}
