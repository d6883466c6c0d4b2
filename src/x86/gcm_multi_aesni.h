/*
 * gcm_multi_aesni.h - the x86-aesni multi-message GCM kernel of the batch
 * API: small messages of one gcm_batch call (checked public descriptors,
 * aeskit_gcm_msg) side by side, one message per xmm register a block.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (AESNI_TARGET of
 * aesni_ops.h: legacy-SSE encodings, xmm0-xmm15; or the VEX build's
 * target, which gcm_multi_aesni_avx.c defines first).  Needs aesni_ops.h
 * and aesni_ghash.h; compiled in gcm_multi_aesni.c and, VEX-encoded, in
 * gcm_multi_aesni_avx.c, whose ak_aesni_gcm_multi(_avx) aes_aesni.c's
 * gcm_batch entry calls by the key's vex flag.  It follows the ymm
 * kernel, vaes_gcm_multi2.h: the same layout and math with one message,
 * not two, per vector.
 *
 * The layout.  A call is G messages of NB data blocks each (1 <= NB <= 4;
 * the same NB, lengths within the last block free, AAD at most one block,
 * the same round count), and message l has NB + 1 AES blocks:
 *   x[l][0]      J0 of message l (the tag's E_K(J0)),
 *   x[l][1 + b]  inc32^(1+b)(J0_l), the counter of data block b,
 * each in an xmm register, so one round sequence encrypts G (NB + 1)
 * blocks.  AESENC has a latency of several cycles and starts more than
 * one block a cycle, so one message's NB + 1 blocks leave the unit
 * waiting, and G messages side by side keep it busy (mxa_lanes: G per NB,
 * chosen by measurement, docs/performance.md "Zen 4: the xmm batch
 * kernel").  A uniform batch runs as a chain of sets instead (mxa_chain,
 * below): set i's rounds with set i - 1's GHASH products.  J0 = IV ||
 * 0^31 || 1 (AK_GCM_J0_IV12), so the counters are J0 with the low byte
 * 2 .. NB + 1: J0 XOR a constant, no add and no carry.  Each message takes its own key's round keys (memory operands
 * of AESENC) and powers of H, so messages of different key objects share
 * a call; in a uniform call (AK_GCM_UNIFORM) they are the first one's.
 *
 * GHASH per message.  Message l hashes X = [A, C_0, .., C_{NB-1}, L]
 * (SP 800-38D 7.1 step 5, at most one AAD block), so with n = NB + 2
 * blocks, S = A H^n + C_0 H^(n-1) + ... + L H: every block times its
 * power from the key (ak_aesni_ghash_key, aesni_ops.h: H'^1..H'^16 and
 * their Karatsuba half-sums), the products summed unreduced (acc_t) and
 * ONE reduction per message (aesni_ghash.h; the math is gcm_aesni.c's
 * head comment and, in full, vaes_ghash.h's sections 4 (reduction), 5
 * (Karatsuba) and 6 (aggregated reduction)).  An empty AAD is a zero A: Y_0 = 0, so a leading zero
 * block adds nothing.  In a uniform call every message's L is the same,
 * and so is L H: its products are formed once per call.
 *
 * Partial blocks.  A message's last block, when it has fewer than 16
 * bytes, is read and written in pieces of 8, 4, 2 and 1 bytes
 * (ak_x86_load_short, ak_x86_store_short: x86_short_io.h), nothing
 * outside the message touched, so no page is reached that the message
 * does not lie on.  A sealing
 * message hashes its output's live bytes only: the last block's output
 * is ANDed with a byte mask of its length (mxa_live); an opening one
 * hashes its input, whose bytes past the length load as zero.
 *
 * Order.  A message's inputs are all read before its output or tag is
 * written (mxa_kernel reads every input of its call first; the chain
 * reads a set's inputs before it stores that set's outputs and tags): a
 * tag may overlap its own message's in or aad, out may be its in (the
 * descriptor rules), and outputs of one message overlap no buffer of
 * another (include/aeskit.h, "Batches"), so across messages the order is
 * free.  An open's expected tags go
 * to T; the front end (src/modes/batch_gcm.c) compares them in constant
 * time and zeroes or restores a failed message's output (gcm.c's policy).
 *
 * Constant time: branches on lengths, round counts, the call's direction,
 * key pointers and counts only (all public); the byte mask's table offset
 * is a length.  No index depends on keys, data or tags.
 */
#ifndef AESKIT_X86_GCM_MULTI_AESNI_H
#define AESKIT_X86_GCM_MULTI_AESNI_H

#include "aesni_ops.h"
#include "aesni_ghash.h"
#include "x86_short_io.h"

/* The kernel's loops run over its messages, blocks and rounds, whose
 * counts are constants only once the callers' switches are inlined, which
 * clang's -O1 (the sanitizer builds) does not always do; there a full
 * unroll it cannot make is an error (-Wpass-failed), so under clang the
 * loops keep its own unrolling heuristics.  GCC's builds are those of
 * AESNI_UNROLL. */
#if defined(__clang__)
#define MXA_UNROLL
#else
#define MXA_UNROLL AESNI_UNROLL
#endif

#define MXA_MAXB (AESNI_MX_LEN / 16) /* data blocks per message */
#define MXA_GMAX 4 /* messages per kernel call, at most */

/* Messages per call for NB data blocks (the kernel's), and per set (the
 * chain's): the round sequence is G (NB + 1) blocks; more of them cover
 * more of the AES latency and add register spills (16 xmm), and in the
 * chain the previous set's products fill the rounds' gaps instead.
 * Chosen by measurement (docs/performance.md, "Zen 4: the xmm batch
 * kernel"). */
AESNI_INLINE int mxa_lanes(int NB) { return NB == 1 ? 4 : NB == 2 ? 3 : 2; }
AESNI_INLINE int mxa_chain_lanes(int NB) { return NB <= 2 ? 2 : 1; }

AESNI_INLINE const ak_gcm_key *mxa_gkey(const aeskit_gcm_msg *p)
{
    return (const ak_gcm_key *)(const void *)p->key;
}

/* J0 = IV || 0^31 || 1 from a 12-byte IV, nothing past it read. */
AESNI_INLINE __m128i mxa_j0(const uint8_t *iv)
{
    uint32_t w;
    memcpy(&w, iv + 8, 4);
    const __m128i v = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)iv), (int)w, 2);
    return _mm_insert_epi32(v, 0x01000000, 3);
}

/* inc32^(1+b)(J0) XOR J0: the low counter byte 1 becomes 2 + b. */
AESNI_INLINE __m128i mxa_ctr_word(int b) { return _mm_set_epi32((1 ^ (2 + b)) << 24, 0, 0, 0); }

/* Block b of a len-byte buffer at p (b < the block count): a plain load
 * when whole, else the live bytes, zero above. */
AESNI_INLINE __m128i mxa_load_block(const uint8_t *p, size_t len, int b)
{
    const size_t r = len - 16 * (size_t)b;
    return r >= 16 ? aesni_loadu(p + 16 * b) : ak_x86_load_short(p + 16 * b, r);
}

AESNI_INLINE void mxa_store_block(uint8_t *p, size_t len, int b, __m128i v)
{
    const size_t r = len - 16 * (size_t)b;
    if (r >= 16)
        aesni_storeu(p + 16 * b, v);
    else
        ak_x86_store_short(p + 16 * b, r, v);
}

/* The AAD block of at most 16 bytes (zero when there is none). */
AESNI_INLINE __m128i mxa_load_aad(const uint8_t *aad, size_t aad_len)
{
    return aad_len == 16 ? aesni_loadu(aad) : ak_x86_load_short(aad, aad_len);
}

/* 16 bytes 0xff then 16 bytes 0: bytes [0, r) of a block set, r <= 16. */
static const uint8_t mxa_ff00[32] __attribute__((aligned(16))) = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

AESNI_INLINE __m128i mxa_live(size_t r) { return aesni_loadu(mxa_ff00 + 16 - r); }

/* The length block [len(A)]_64 || [len(C)]_64, reflected (gcm_aesni.c's
 * len_block). */
AESNI_INLINE __m128i mxa_lenblock(size_t aad_len, size_t len)
{
    return _mm_set_epi64x((long long)((uint64_t)aad_len << 3), (long long)((uint64_t)len << 3));
}

/* Messages m[min(l, cnt - 1)] for l < G (a lane at cnt or later repeats
 * the last message and is neither stored nor tagged).  Every message has
 * NB data blocks, aad_len <= 16 and R rounds; UNI: every message has
 * m[0]'s key object, len and aad_len (the call's AK_GCM_UNIFORM).  dir's
 * AK_GCM_OPEN: open; the tag of message i goes to T[i] when T is not NULL
 * (the expected tags of an open), else to its own tag. */
AESNI_INLINE void mxa_kernel(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16], const int NB,
                             const int G, const int UNI, const unsigned R)
{
    const aeskit_gcm_msg *P[MXA_GMAX];
    const __m128i *K[MXA_GMAX];
    const ak_aesni_ghash_key *H[MXA_GMAX];
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        P[l] = &m[(size_t)l < cnt ? (size_t)l : cnt - 1];
        const ak_gcm_key *g = mxa_gkey(UNI ? &m[0] : P[l]);
        K[l] = aesni_key(&g->aes)->enc;
        H[l] = aesni_ghash_key(&g->gh);
    }
    const int open = (dir & AK_GCM_OPEN) != 0;
    __m128i x[MXA_GMAX][MXA_MAXB + 1];
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        x[l][0] = _mm_xor_si128(mxa_j0(P[l]->iv), K[l][0]);
        MXA_UNROLL
        for (int b = 0; b < NB; b++)
            x[l][b + 1] = _mm_xor_si128(x[l][0], mxa_ctr_word(b));
    }
    for (unsigned r = 1; r < R; r++) {
        MXA_UNROLL
        for (int l = 0; l < G; l++) {
            MXA_UNROLL
            for (int b = 0; b <= NB; b++)
                x[l][b] = _mm_aesenc_si128(x[l][b], K[l][r]);
        }
    }
    /* a uniform call's length block products, the same for every message */
    acc_t lc = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    if (UNI)
        acc_init(&lc, mxa_lenblock(m[0].aad_len, m[0].len), H[0], 1);
    /* The rest of each message after the rounds in program order: the
     * data and AAD loads and the A and L products need no AES output and
     * start as early as the out-of-order window reaches them, while the
     * rounds keep their blocks in registers. */
    __m128i t[MXA_GMAX];
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        const aeskit_gcm_msg *p = P[l];
        const size_t len = UNI ? m[0].len : p->len, aad_len = UNI ? m[0].aad_len : p->aad_len;
        const int full = len == 16 * (size_t)NB;
        acc_t a;
        if (UNI)
            a = lc;
        else
            acc_init(&a, mxa_lenblock(aad_len, len), H[l], 1);
        acc_add(&a, aesni_bswap128(mxa_load_aad(p->aad, aad_len)), H[l], (size_t)(NB + 2));
        x[l][0] = _mm_aesenclast_si128(x[l][0], K[l][R]);
        MXA_UNROLL
        for (int b = 0; b < NB; b++) {
            const int whole = full || b < NB - 1;
            const __m128i d = whole ? aesni_loadu(p->in + 16 * b) : mxa_load_block(p->in, len, b);
            x[l][b + 1] = _mm_aesenclast_si128(x[l][b + 1], _mm_xor_si128(K[l][R], d));
            /* C: the output of a seal (its live bytes), the input of an
             * open */
            __m128i c = open ? d : x[l][b + 1];
            if (!open && !whole)
                c = _mm_and_si128(c, mxa_live(len - 16 * (size_t)b));
            acc_add(&a, aesni_bswap128(c), H[l], (size_t)(NB + 1 - b));
        }
        t[l] = _mm_xor_si128(aesni_bswap128(acc_reduce(&a)), x[l][0]);
    }
    /* every input is read: the outputs, then the tags; the pointers first
     * (a store could alias the descriptors, as far as the compiler knows) */
    uint8_t *out[MXA_GMAX], *tag[MXA_GMAX];
    size_t len[MXA_GMAX];
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        out[l] = P[l]->out;
        len[l] = UNI ? m[0].len : P[l]->len;
        tag[l] = T ? T[l] : P[l]->tag;
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        if ((size_t)l >= cnt)
            break;
        MXA_UNROLL
        for (int b = 0; b < NB; b++) {
            if (len[l] == 16 * (size_t)NB || b < NB - 1)
                aesni_storeu(out[l] + 16 * b, x[l][b + 1]);
            else
                mxa_store_block(out[l], len[l], b, x[l][b + 1]);
        }
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        if ((size_t)l >= cnt)
            break;
        aesni_storeu(tag[l], t[l]);
    }
}

/* ---- one kernel per block count and form --------------------------------- */

/* A kernel: m, cnt (1 .. mxa_lanes(NB)), dir and T as for mxa_kernel. */
typedef void mxa_kernel_fn(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16]);

AESNI_INLINE void mxa_kernel_r(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16], const int NB,
                               const int UNI)
{
    switch (mxa_gkey(&m[0])->aes.rounds) {
    case 10: mxa_kernel(m, cnt, dir, T, NB, mxa_lanes(NB), UNI, 10); break;
    case 12: mxa_kernel(m, cnt, dir, T, NB, mxa_lanes(NB), UNI, 12); break;
    default: mxa_kernel(m, cnt, dir, T, NB, mxa_lanes(NB), UNI, 14); break;
    }
}

AESNI_NOINLINE void mxa_kernel_1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 1, 0);
}
AESNI_NOINLINE void mxa_kernel_2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 2, 0);
}
AESNI_NOINLINE void mxa_kernel_3(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 3, 0);
}
AESNI_NOINLINE void mxa_kernel_4(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 4, 0);
}
AESNI_NOINLINE void mxa_kernel_1u(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 1, 1);
}
AESNI_NOINLINE void mxa_kernel_2u(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 2, 1);
}
AESNI_NOINLINE void mxa_kernel_3u(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 3, 1);
}
AESNI_NOINLINE void mxa_kernel_4u(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16])
{
    mxa_kernel_r(m, c, d, T, 4, 1);
}

/* Indexed [uniform][data blocks - 1]. */
static mxa_kernel_fn *const mxa_kernels[2][MXA_MAXB] = {
    {mxa_kernel_1, mxa_kernel_2, mxa_kernel_3, mxa_kernel_4},
    {mxa_kernel_1u, mxa_kernel_2u, mxa_kernel_3u, mxa_kernel_4u}};

/* ---- the chain: a uniform one-key batch, set after set ---------------------
 *
 * mxa_kernel runs its messages' rounds, then their products and
 * reductions: the AES unit and the multiplier take turns.  For a uniform
 * batch (AK_GCM_UNIFORM: one key object, len and aad_len) the chain runs
 * set i's rounds (a set: G messages) with set i - 1's ciphertext products,
 * one after each round, then set i - 1's reductions and tags.  Every
 * message has one len and aad_len, so the length block's products, the
 * live-byte mask and the store shape are the batch's.  Set i's inputs are
 * read before its outputs are stored; set i - 1's tags are stored before
 * set i's data is read (across messages the order is free: the
 * descriptor rules, above). */

/* A set's start: x[l][0] = J0 XOR K0, x[l][1 + b] block b's counter XOR
 * K0, a[l] = *lc plus the AAD's products. */
AESNI_INLINE void mxa_chain_start(__m128i (*x)[MXA_MAXB + 1], acc_t *a, const aeskit_gcm_msg *p, const __m128i *K,
                                  const ak_aesni_ghash_key *H, const acc_t *lc, size_t aad_len, const int NB,
                                  const int G)
{
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        x[l][0] = _mm_xor_si128(mxa_j0(p[l].iv), K[0]);
        MXA_UNROLL
        for (int b = 0; b < NB; b++)
            x[l][b + 1] = _mm_xor_si128(x[l][0], mxa_ctr_word(b));
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        a[l] = *lc;
        acc_add(&a[l], aesni_bswap128(mxa_load_aad(p[l].aad, aad_len)), H, (size_t)(NB + 2));
    }
}

/* Rounds 1 .. R - 1 of a set, with hash (a constant) the previous set's
 * ciphertext products (c against H^(NB+1-b)) into ap, q after each round;
 * then the last round of the J0 blocks. */
AESNI_INLINE void mxa_chain_rounds(__m128i (*x)[MXA_MAXB + 1], const __m128i *K, acc_t *ap,
                                   const __m128i (*c)[MXA_MAXB], const ak_aesni_ghash_key *H, const int hash,
                                   const int NB, const int G, const unsigned R)
{
    const int q = (G * NB + (int)R - 2) / ((int)R - 1);
    MXA_UNROLL
    for (unsigned r = 1; r < R; r++) {
        MXA_UNROLL
        for (int l = 0; l < G; l++) {
            MXA_UNROLL
            for (int b = 0; b <= NB; b++)
                x[l][b] = _mm_aesenc_si128(x[l][b], K[r]);
        }
        /* products k = q (r - 1) .. q r - 1 of the G * NB (message k / NB,
         * block k % NB) */
        MXA_UNROLL
        for (int k = q * (int)(r - 1); k < q * (int)r; k++) {
            if (hash && k < G * NB)
                acc_add(&ap[k / NB], c[k / NB][k % NB], H, (size_t)(NB + 1 - k % NB));
        }
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++)
        x[l][0] = _mm_aesenclast_si128(x[l][0], K[R]);
}

/* The last round of a set's data blocks with its input, what their hash
 * takes (the output of a seal, its live bytes only; the input of an
 * open) into c reflected, and the set's outputs stored. */
AESNI_INLINE void mxa_chain_last(__m128i (*x)[MXA_MAXB + 1], __m128i (*c)[MXA_MAXB], const aeskit_gcm_msg *p,
                                 __m128i klast, int open, size_t len, __m128i live, const int NB, const int G)
{
    const int full = len == 16 * (size_t)NB;
    const uint8_t *in[MXA_GMAX];
    uint8_t *out[MXA_GMAX];
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        in[l] = p[l].in;
        out[l] = p[l].out;
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        MXA_UNROLL
        for (int b = 0; b < NB; b++) {
            const int whole = full || b < NB - 1;
            const __m128i d = whole ? aesni_loadu(in[l] + 16 * b) : mxa_load_block(in[l], len, b);
            x[l][b + 1] = _mm_aesenclast_si128(x[l][b + 1], _mm_xor_si128(klast, d));
            __m128i h = open ? d : x[l][b + 1];
            if (!open && !whole)
                h = _mm_and_si128(h, live);
            c[l][b] = aesni_bswap128(h);
        }
    }
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        MXA_UNROLL
        for (int b = 0; b < NB; b++) {
            if (full || b < NB - 1)
                aesni_storeu(out[l] + 16 * b, x[l][b + 1]);
            else
                mxa_store_block(out[l], len, b, x[l][b + 1]);
        }
    }
}

/* The tags of a set (batch index i of its first message) from their sums
 * and E_K(J0) in ej. */
AESNI_INLINE void mxa_chain_tags(const aeskit_gcm_msg *p, uint8_t (*T)[16], size_t i, const acc_t *a,
                                 const __m128i *ej, const int G)
{
    MXA_UNROLL
    for (int l = 0; l < G; l++)
        aesni_storeu(T ? T[i + (size_t)l] : p[l].tag, _mm_xor_si128(aesni_bswap128(acc_reduce(&a[l])), ej[l]));
}

/* The first G * floor(n / G) (n >= 2G) of the checked public descriptors
 * m, a uniform one-key batch of NB data blocks, aad_len <= 16 and R
 * rounds in direction dir (T as for mxa_kernel); returns how many it ran. */
AESNI_INLINE size_t mxa_chain(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16], const int NB,
                              const int G, const unsigned R)
{
    const size_t sets = n / (size_t)G;
    const ak_gcm_key *g = mxa_gkey(&m[0]);
    const __m128i *K = aesni_key(&g->aes)->enc;
    const ak_aesni_ghash_key *H = aesni_ghash_key(&g->gh);
    const int open = (dir & AK_GCM_OPEN) != 0;
    const size_t len = m[0].len, aad_len = m[0].aad_len;
    const __m128i live = mxa_live(len - 16 * (size_t)(NB - 1));
    acc_t lc;
    acc_init(&lc, mxa_lenblock(aad_len, len), H, 1);
    __m128i x[MXA_GMAX][MXA_MAXB + 1], c[MXA_GMAX][MXA_MAXB], ej[MXA_GMAX];
    acc_t a[MXA_GMAX], ap[MXA_GMAX];
    /* set 0: its rounds alone */
    mxa_chain_start(x, a, m, K, H, &lc, aad_len, NB, G);
    mxa_chain_rounds(x, K, ap, (const __m128i(*)[MXA_MAXB])c, H, 0, NB, G, R);
    mxa_chain_last(x, c, m, K[R], open, len, live, NB, G);
    for (size_t i = 1; i < sets; i++) {
        const aeskit_gcm_msg *p = m + (size_t)G * i;
        MXA_UNROLL
        for (int l = 0; l < G; l++) {
            ap[l] = a[l];
            ej[l] = x[l][0];
        }
        mxa_chain_start(x, a, p, K, H, &lc, aad_len, NB, G);
        mxa_chain_rounds(x, K, ap, (const __m128i(*)[MXA_MAXB])c, H, 1, NB, G, R);
        mxa_chain_tags(p - G, T, (size_t)G * (i - 1), ap, ej, G);
        mxa_chain_last(x, c, p, K[R], open, len, live, NB, G);
    }
    /* the last set's products alone */
    MXA_UNROLL
    for (int l = 0; l < G; l++) {
        MXA_UNROLL
        for (int b = 0; b < NB; b++)
            acc_add(&a[l], c[l][b], H, (size_t)(NB + 1 - b));
        ej[l] = x[l][0];
    }
    mxa_chain_tags(m + (size_t)G * (sets - 1), T, (size_t)G * (sets - 1), a, ej, G);
    return (size_t)G * sets;
}

/* One function per block count (R by the key's round count), G =
 * mxa_chain_lanes(NB) messages a set. */
typedef size_t mxa_chain_fn(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);

AESNI_INLINE size_t mxa_chain_r(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16], const int NB)
{
    switch (mxa_gkey(&m[0])->aes.rounds) {
    case 10: return mxa_chain(m, n, dir, T, NB, mxa_chain_lanes(NB), 10);
    case 12: return mxa_chain(m, n, dir, T, NB, mxa_chain_lanes(NB), 12);
    default: return mxa_chain(m, n, dir, T, NB, mxa_chain_lanes(NB), 14);
    }
}
AESNI_NOINLINE size_t mxa_chain_1(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16])
{
    return mxa_chain_r(m, n, d, T, 1);
}
AESNI_NOINLINE size_t mxa_chain_2(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16])
{
    return mxa_chain_r(m, n, d, T, 2);
}
AESNI_NOINLINE size_t mxa_chain_3(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16])
{
    return mxa_chain_r(m, n, d, T, 3);
}
AESNI_NOINLINE size_t mxa_chain_4(const aeskit_gcm_msg *m, size_t n, uint32_t d, uint8_t (*T)[16])
{
    return mxa_chain_r(m, n, d, T, 4);
}

/* Indexed [data blocks - 1]. */
static mxa_chain_fn *const mxa_chains[MXA_MAXB] = {mxa_chain_1, mxa_chain_2, mxa_chain_3, mxa_chain_4};

/* ---- grouping ------------------------------------------------------------ */

/* The kernel's class of a message: its data block count 1..MXA_MAXB, or 0
 * when it takes no such message (empty, longer, or more than one AAD
 * block). */
AESNI_INLINE int mxa_class(const aeskit_gcm_msg *p)
{
    return (p->len - 1 < (size_t)AESNI_MX_LEN && p->aad_len <= 16) ? (int)((p->len + 15) / 16) : 0;
}

/* Call after call, the longest run of the checked public descriptors
 * m[0..n) of direction dir (and AK_GCM_UNIFORM) the kernel takes: in a
 * uniform batch of its class every whole call, and a last one of two or
 * more; otherwise prefixes of two or more messages of the first one's
 * class and round count (keys free).  Returns how many messages it ran, 0
 * if the first two do not make a call; a message it stops at is the
 * caller's.  T as for mxa_kernel. */
AESNI_INLINE size_t mxa_run(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    size_t i = 0;
    const int c0 = mxa_class(&m[0]);
    if ((dir & AK_GCM_UNIFORM) && c0) {
        mxa_kernel_fn *const kf = mxa_kernels[1][c0 - 1];
        const size_t whole = (size_t)mxa_lanes(c0);
        /* two sets or more: the chain */
        if (n >= 2 * (size_t)mxa_chain_lanes(c0))
            i = mxa_chains[c0 - 1](m, n, dir, T);
        for (; n - i >= whole; i += whole)
            kf(m + i, whole, dir, T ? T + i : NULL);
        if (n - i >= 2) {
            kf(m + i, n - i, dir, T ? T + i : NULL);
            i = n;
        }
        return i;
    }
    while (n - i >= 2) {
        const int c = mxa_class(&m[i]);
        if (!c)
            break;
        const size_t most = (size_t)mxa_lanes(c), cap = n - i < most ? n - i : most;
        const uint32_t rounds = mxa_gkey(&m[i])->aes.rounds;
        size_t k = 1;
        for (; k < cap; k++) {
            const aeskit_gcm_msg *q = &m[i + k];
            if (mxa_class(q) != c || (q->key != m[i].key && mxa_gkey(q)->aes.rounds != rounds))
                break;
        }
        if (k < 2)
            break;
        mxa_kernels[0][c - 1](m + i, k, dir & AK_GCM_OPEN, T ? T + i : NULL);
        i += k;
    }
    return i;
}

#endif /* AESKIT_X86_GCM_MULTI_AESNI_H */
