/*
 * vaes_ocb.h - OCB3 (RFC 7253) over whole blocks on the x86-vaes vectors:
 * the backend's ocb_blocks entry (encryption, decryption and HASH's sum).
 *
 * CPU features: VAES and AVX2; on zmm AVX-512 F/BW/VL (AK_TGT of the width
 * file).  Needs vaes_aes.h and vaes_block.h.
 *
 * The offsets (RFC 7253 section 4.2): Offset_i = Offset_{i-1} ^ L[ntz(i)]
 * for the 1-based block index i.  A batch covers blocks b+1 .. b+BATCH with
 * b a multiple of BATCH, so for 0 < j < BATCH ntz(b + j) = ntz(j) and
 *     Offset_{b+j} = Offset_b ^ P_j,   P_j = L[ntz(1)] ^ ... ^ L[ntz(j)]
 * (P_j is the XOR of the L[k] for the bits k of the Gray code j ^ (j >> 1)),
 * the same P_j in every batch: computed once per call.  The batch's last
 * block takes L[ntz(b + BATCH)] on top of P_{BATCH-1}: ntz of a public block
 * index, a table index on a public value.  So per batch the offsets are one
 * broadcast of Offset_b and one XOR per vector, plus the last lane's L.
 * A call starts at any block index `first` (a stream's later pieces): the
 * blocks before the next multiple of BATCH (at most BATCH - 1, none when
 * first - 1 is a multiple, as for a whole message) form a head whose
 * offsets are built one by one, each a lane of its vector, and go through
 * as a tail does.
 *
 * Encryption:  C_i = Offset_i ^ E(P_i ^ Offset_i): the offset enters before
 *              round 1 (with K[0], one three-way XOR) and again through the
 *              last round's key (VAESENCLAST with K[R] ^ Offset_i);
 * decryption:  P_i = Offset_i ^ D(C_i ^ Offset_i) the same way on the
 *              Equivalent Inverse Cipher's keys;
 * HASH (4.1):  Sum ^= E(A_i ^ Offset_i), no output.
 * The checksum (of the plaintext) or Sum is one vector accumulator, summed
 * across lanes at the end.  A tail of fewer than BATCH blocks takes only the
 * vectors that hold data through windowed loads and stores; the lanes past
 * the data are masked out of the sum.
 *
 * Constant time: block counts and indices are public; L, the offsets, the
 * data and the sums reach only XORs, AES rounds and the stores.
 */

/* The per-call offset deltas in vector form: lane l of dv[j] holds
 * P_{AK_LANES*j + l + 1} for the first BATCH - 1 blocks, and the batch's
 * last lane P_{BATCH-1} (it takes L[ntz(b + BATCH)] on top); returns
 * P_{BATCH-1}.  Built in registers, lane by lane, so no vector load waits
 * on narrower stores. */
VAES_INLINE __m128i vaes_ocb_deltas(vec_t *dv, const uint8_t (*L)[16])
{
    __m128i acc = _mm_setzero_si128();
    for (int j = 0; j < NV; j++)
        dv[j] = v_zero();
    _Pragma("GCC unroll 16")
    for (int i = 1; i < BATCH; i++) {
        acc = _mm_xor_si128(acc, x_load(L[__builtin_ctz((unsigned)i)]));
        dv[(i - 1) / AK_LANES] = v_xor(dv[(i - 1) / AK_LANES], v_lane_select(v_bcast_x(acc), (i - 1) % AK_LANES));
    }
    dv[NV - 1] = v_xor(dv[NV - 1], v_lane_select(v_bcast_x(acc), AK_LANES - 1));
    return acc;
}

/* P_t for 0 < t < BATCH. */
VAES_INLINE __m128i vaes_ocb_delta(const uint8_t (*L)[16], size_t t)
{
    __m128i acc = _mm_setzero_si128();
    for (size_t i = 1; i <= t; i++)
        acc = _mm_xor_si128(acc, x_load(L[__builtin_ctzll((unsigned long long)i)]));
    return acc;
}

/* The offsets of the batch after Offset_b (= o, register of one block): the
 * whole-batch form; the last lane gets L[ntz(b + BATCH)] = lb on top of
 * plast = P_{BATCH-1}.  Returns
 * Offset_{b+BATCH} as one block. */
VAES_INLINE __m128i vaes_ocb_offsets_4x(vec_t *off, const vec_t *dv, __m128i plast, __m128i o, __m128i lb)
{
    vec_t ob = v_bcast_x(o);
    for (int j = 0; j < NV; j++)
        off[j] = v_xor(ob, dv[j]);
    off[NV - 1] = v_xor(off[NV - 1], v_lane_select(v_bcast_x(lb), AK_LANES - 1));
    return _mm_xor_si128(o, _mm_xor_si128(plast, lb));
}

enum { VAES_OCB_ENC = 0, VAES_OCB_DEC = 1, VAES_OCB_HASH = 2 };

/* One batch (N = NV) or a tail (N vectors, n bytes in the window) of op on
 * offsets off[0..N); adds to *sum. */
VAES_INLINE void vaes_ocb_step_n(const vec_t *K, const vec_t *off, const uint8_t *in, uint8_t *out, size_t n,
                                 vec_t *sum, const int op, const int whole, const int N, const int R)
{
    vec_t d[NV], x[NV], zero[NV];
    for (int j = 0; j < N; j++) {
        d[j] = whole ? v_loadu(in + VB * j) : v_load_window(in, (ptrdiff_t)(VB * j), n);
        x[j] = v_xor3(d[j], off[j], K[0]);
        zero[j] = v_zero();
    }
    if (op == VAES_OCB_DEC)
        vaes_aes_dec_n(x, K, off, N, R);
    else
        vaes_aes_enc_n(x, K, op == VAES_OCB_HASH ? zero : off, N, R);
    if (op != VAES_OCB_HASH) {
        for (int j = 0; j < N; j++) {
            if (whole)
                v_storeu(out + VB * j, x[j]);
            else
                v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
        }
    }
    /* The checksum is of the plaintext: the input when encrypting, else the
     * output, whose lanes past the data are masked off in a tail. */
    vec_t s = *sum;
    for (int j = 0; j < N; j++) {
        vec_t t = op == VAES_OCB_ENC ? d[j] : whole ? x[j] : v_and_window(x[j], (ptrdiff_t)(VB * j), n);
        s = v_xor(s, t);
    }
    *sum = s;
}

/* The offsets of the h < BATCH blocks b+1 .. b+h (b not a multiple of
 * BATCH), from o = Offset_b: block b+1+i in lane i % AK_LANES of off[i /
 * AK_LANES], the lanes past h zero.  Unrolled over the batch so every lane
 * index is a constant; the loop bound h is a public length.  Returns
 * Offset_{b+h}. */
VAES_INLINE __m128i vaes_ocb_head_offsets(vec_t *off, const uint8_t (*L)[16], size_t h, uint64_t b, __m128i o)
{
    for (int j = 0; j < NV; j++)
        off[j] = v_zero();
    _Pragma("GCC unroll 16")
    for (int i = 0; i < BATCH - 1; i++) {
        if ((size_t)i < h) {
            o = _mm_xor_si128(o, x_load(L[__builtin_ctzll((unsigned long long)(b + (uint64_t)i + 1))]));
            off[i / AK_LANES] = v_xor(off[i / AK_LANES], v_lane_select(v_bcast_x(o), i % AK_LANES));
        }
    }
    return o;
}

/* A head or a tail: t < BATCH blocks (16 * t bytes) on offsets off[]. */
VAES_INLINE void vaes_ocb_part(const vec_t *K, const vec_t *off, const uint8_t *in, uint8_t *out, size_t t,
                               vec_t *s, const int op, const int R)
{
    switch (vaes_tail_vectors(16 * t)) {
    case 1: vaes_ocb_step_n(K, off, in, out, 16 * t, s, op, 0, 1, R); break;
    case 2: vaes_ocb_step_n(K, off, in, out, 16 * t, s, op, 0, 2, R); break;
    case 3: vaes_ocb_step_n(K, off, in, out, 16 * t, s, op, 0, 3, R); break;
    default: vaes_ocb_step_n(K, off, in, out, 16 * t, s, op, 0, 4, R); break;
    }
}

VAES_INLINE void vaes_ocb_body(const ak_vaes_aes_key *ks, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in,
                               size_t nb, uint64_t first, uint8_t offset[16], uint8_t sum[16], const int op,
                               const int R)
{
    vec_t K[15];
    if (op == VAES_OCB_DEC)
        vaes_load_keys_bcast(K, ks->dec, R);
    else
        vaes_load_enc_keys(K, ks, R);
    vec_t dv[NV], off[NV], s = v_zero();
    __m128i o = x_load(offset);
    uint64_t b = first - 1; /* the index of the last block before the next one */
    size_t r = (size_t)(b % BATCH);
    if (r) {
        size_t h = BATCH - r < nb ? BATCH - r : nb;
        o = vaes_ocb_head_offsets(off, L, h, b, o);
        vaes_ocb_part(K, off, in, out, h, &s, op, R);
        b += h;
        nb -= h;
        in += 16 * h;
        if (op != VAES_OCB_HASH)
            out += 16 * h;
    }
    /* The per-call deltas only when a whole batch follows: a message
     * shorter than a batch builds its few offsets lane by lane, as a head
     * does, instead of all BATCH - 1 deltas. */
    if (nb >= BATCH) {
        const __m128i plast = vaes_ocb_deltas(dv, L);
        for (; nb >= BATCH; b += BATCH, nb -= BATCH, in += 16 * BATCH) {
            __m128i lb = x_load(L[__builtin_ctzll((unsigned long long)(b + BATCH))]);
            o = vaes_ocb_offsets_4x(off, dv, plast, o, lb);
            vaes_ocb_step_n(K, off, in, out, 16 * BATCH, &s, op, 1, NV, R);
            if (op != VAES_OCB_HASH)
                out += 16 * BATCH;
        }
        if (nb) {
            vec_t ob = v_bcast_x(o);
            for (int j = 0; j < NV; j++)
                off[j] = v_xor(ob, dv[j]);
            vaes_ocb_part(K, off, in, out, nb, &s, op, R);
            o = _mm_xor_si128(o, vaes_ocb_delta(L, nb));
        }
    } else if (nb) {
        o = vaes_ocb_head_offsets(off, L, nb, b, o);
        vaes_ocb_part(K, off, in, out, nb, &s, op, R);
    }
    x_store(offset, o);
    x_store(sum, _mm_xor_si128(x_load(sum), v_hxor(s)));
}

VAES_INLINE void vaes_ocb_rounds(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in, size_t nb,
                                 uint64_t first, uint8_t offset[16], uint8_t sum[16], const int op)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_ocb_body(ks, L, out, in, nb, first, offset, sum, op, 10); break;
    case 12: vaes_ocb_body(ks, L, out, in, nb, first, offset, sum, op, 12); break;
    default: vaes_ocb_body(ks, L, out, in, nb, first, offset, sum, op, 14); break;
    }
}

/* The ocb_blocks entry (internal.h): op is AK_OCB_ENCRYPT, AK_OCB_DECRYPT
 * or AK_OCB_HASH; each direction is its own specialised body. */
VAES_INLINE void vaes_ocb(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in, size_t nb,
                          uint64_t first, uint8_t offset[16], uint8_t sum[16], int op)
{
    if (!nb)
        return;
    if (op == AK_OCB_DECRYPT)
        vaes_ocb_rounds(k, L, out, in, nb, first, offset, sum, VAES_OCB_DEC);
    else if (op == AK_OCB_HASH)
        vaes_ocb_rounds(k, L, out, in, nb, first, offset, sum, VAES_OCB_HASH);
    else
        vaes_ocb_rounds(k, L, out, in, nb, first, offset, sum, VAES_OCB_ENC);
}
