/*
 * gcm_multi_akv.h - the multi-message GCM kernel of the batch API for the
 * akv backends (arm64-ce, ppc64-p8): small messages of one gcm_batch call
 * (checked public descriptors, aeskit_gcm_msg; the contract is the comment
 * above gcm_batch in src/internal.h) side by side, one message per vector
 * register a block.
 *
 * Needs: what akv.h needs on the architecture (AArch64: AESE/AESMC and
 * PMULL; POWER8: vcipher and vpmsumd); every function carries AKV_TARGET.
 * Included by aes_gcm_akv.h after its kernels, whose key layouts
 * (akv_aes_key, akv_ghash_key) it reads.  Its design is that of the
 * x86-aesni kernel, src/x86/gcm_multi_aesni.h, written over akv words.
 *
 * The layout.  A call is G messages of NB data blocks each (1 <= NB <= 4,
 * lengths within the last block free, AAD at most one block, one round
 * count), and message l has NB + 1 AES blocks:
 *   x[l][0]      J0 of message l (the tag's E_K(J0)),
 *   x[l][1 + b]  inc32^(1+b)(J0_l), the counter of data block b,
 * so one round sequence encrypts G (NB + 1) independent blocks: one
 * message's NB + 1 blocks would leave the AES unit waiting for each
 * round's latency, G messages keep several rounds in flight (mxk_lanes).
 * J0 = IV || 0^31 || 1 (the call's 12-byte IVs), so the counters are J0
 * with the low byte 2 .. NB + 1: J0 XOR a constant, no add and no carry.
 * Each message takes its own key's round keys and powers of H, loaded
 * where a round or a product uses them (akv_enc_round_k: the rounds with
 * keys as values), so messages of different key objects (and one round
 * count) share a call; in a one-key call (ONEKEY) every load is the
 * first message's, made once.
 *
 * GHASH per message.  Message l hashes X = [A, C_0, .., C_{NB-1}, L]
 * (SP 800-38D 7.1 step 5, at most one AAD block), so with n = NB + 2
 * blocks, S = A H^n + C_0 H^(n-1) + ... + L H: every block times its
 * power from the key (akv_ghash_key: H^1..H^8, twisted), the products
 * summed unreduced (akv_ghacc) and ONE reduction per message
 * (akv_gh_reduce, whose comment in akv.h is the derivation; the
 * aggregation is that of akv_gh_fold8).  An empty AAD contributes
 * nothing and is skipped (its length is public).
 *
 * Partial blocks.  A message's last block, when it has fewer than 16
 * bytes, is read and written in pieces of 8, 4, 2 and 1 bytes (mxk_load_short,
 * mxk_store_short), nothing outside the message touched.  A seal hashes
 * its output's live bytes only (ANDed with a mask of the length); an open
 * hashes its input, whose bytes past the length load as zero.
 *
 * Order.  Every input of a call is read before any output or tag of it is
 * written: a tag may overlap its own message's in or aad, out may be its
 * in (the descriptor rules), and outputs of one message meet no buffer of
 * another (include/aeskit.h, "Batches").  An open's expected tags go to T;
 * the front end (src/modes/batch_gcm.c) compares them in constant time.
 *
 * Constant time: branches on lengths, the round count, the call's
 * direction, key pointers and counts only (all public); no memory index
 * depends on keys, data or tags.
 */
#ifndef AESKIT_SIMD_GCM_MULTI_AKV_H
#define AESKIT_SIMD_GCM_MULTI_AKV_H

/* As in gcm_multi_aesni.h: the loops' counts are constants once the
 * switches below are inlined, which clang's -O1 does not always do, so
 * under clang the loops keep its own unrolling heuristics. */
#if defined(__clang__)
#define MXK_UNROLL
#else
#define MXK_UNROLL AKV_UNROLL
#endif

#define MXK_LEN 64  /* the longest message the kernel takes */
#define MXK_MAXB 4  /* data blocks per message */
#define MXK_GMAX 4  /* messages per kernel call, at most */
_Static_assert(MXK_MAXB + 2 <= AKV_GH_POWERS, "the powers of H a message needs");

/* Messages per call for NB data blocks: G (NB + 1) blocks, 8 to 10, per
 * round sequence; the x86-aesni kernel's choice, which here also keeps the
 * blocks and a round's keys in the 32 vector registers of either
 * architecture. */
AKV_INLINE int mxk_lanes(int NB) { return NB == 1 ? 4 : NB == 2 ? 3 : 2; }

AKV_INLINE const ak_gcm_key *mxk_gkey(const aeskit_gcm_msg *p)
{
    return (const ak_gcm_key *)(const void *)p->key;
}

/* Little-endian words of 8, 4 and 2 bytes at p (both akv targets are
 * little-endian: one load each). */
AKV_INLINE uint64_t mxk_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
AKV_INLINE uint32_t mxk_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
AKV_INLINE uint16_t mxk_le16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
_Static_assert(AK_LITTLE_ENDIAN, "akv targets are little-endian");

/* J0 = IV || 0^31 || 1 from a 12-byte IV, nothing past it read. */
AKV_INLINE akv mxk_j0(const uint8_t *iv)
{
    return akv_from_le64x2(mxk_le64(iv), mxk_le32(iv + 8) | (uint64_t)0x01000000u << 32);
}

/* inc32^(1+b)(J0) XOR J0: the low counter byte 1 becomes 2 + b. */
AKV_INLINE akv mxk_ctr_word(int b) { return akv_from_le64x2(0, (uint64_t)(1 ^ (2 + b)) << 56); }

/* The r bytes at p (1 <= r <= 15) in AES order, zero above. */
AKV_INLINE akv mxk_load_short(const uint8_t *p, size_t r)
{
    const uint8_t *q = p + (r & 8);
    uint64_t t = 0;
    unsigned s = 0;
    if (r & 4) {
        t = mxk_le32(q);
        q += 4;
        s = 32;
    }
    if (r & 2) {
        t |= (uint64_t)mxk_le16(q) << s;
        q += 2;
        s += 16;
    }
    if (r & 1)
        t |= (uint64_t)*q << s;
    return (r & 8) ? akv_from_le64x2(mxk_le64(p), t) : akv_from_le64x2(t, 0);
}

/* The first r bytes of v (1 <= r <= 15) to p. */
AKV_INLINE void mxk_store_short(uint8_t *p, size_t r, akv v)
{
    uint64_t w = akv_le64_lo(v);
    if (r & 8) {
        memcpy(p, &w, 8);
        p += 8;
        w = akv_le64_hi(v);
    }
    if (r & 4) {
        const uint32_t t = (uint32_t)w;
        memcpy(p, &t, 4);
        p += 4;
        w >>= 32;
    }
    if (r & 2) {
        const uint16_t t = (uint16_t)w;
        memcpy(p, &t, 2);
        p += 2;
        w >>= 16;
    }
    if (r & 1)
        *p = (uint8_t)w;
}

/* 0xff in bytes [0, r) of a block, 0 above (1 <= r <= 15). */
AKV_INLINE akv mxk_live(size_t r)
{
    const uint64_t part = ((uint64_t)1 << (8 * (r & 7))) - 1;
    return (r & 8) ? akv_from_le64x2(~(uint64_t)0, part) : akv_from_le64x2(part, 0);
}

/* Block b of a len-byte buffer at p (b < the block count): a plain load
 * when whole, else the live bytes, zero above. */
AKV_INLINE akv mxk_load_block(const uint8_t *p, size_t len, int b)
{
    const size_t r = len - 16 * (size_t)b;
    return r >= 16 ? akv_load(p + 16 * b) : mxk_load_short(p + 16 * b, r);
}

AKV_INLINE void mxk_store_block(uint8_t *p, size_t len, int b, akv v)
{
    const size_t r = len - 16 * (size_t)b;
    if (r >= 16)
        akv_store(p + 16 * b, v);
    else
        mxk_store_short(p + 16 * b, r, v);
}

/* Round key j of a schedule (register images, akv_aes_key.enc). */
AKV_INLINE akv mxk_rk(const uint8_t *ks, int j) { return akv_load_raw(ks + 16 * j); }

/* H^e of a GHASH key, 1 <= e <= AKV_GH_POWERS. */
AKV_INLINE akv_ghkey mxk_hpow(const ak_ghash *g, int e)
{
    return akv_ghkey_load_raw(akv_ghash_key_of(g)->pow[e - 1]);
}

/* The length block's product L H (a message's first term). */
AKV_INLINE akv_ghacc mxk_len_product(const ak_ghash *g, size_t aad_len, size_t len)
{
    return akv_gh_mul(akv_gh_from_u64((uint64_t)aad_len << 3, (uint64_t)len << 3), mxk_hpow(g, 1));
}

/* Messages m[min(l, cnt - 1)] for l < G (a lane at cnt or later repeats
 * the last message and is neither stored nor tagged).  Every message has
 * NB data blocks, aad_len <= 16 and R rounds; ONEKEY: every message has
 * m[0]'s key object.  lc: NULL, or (a uniform call: every message has
 * m[0]'s key object, len and aad_len) their length block's product.
 * dir's AK_GCM_OPEN: open; the tag of message l goes to T[l] when T is
 * not NULL (the expected tags of an open), else to its own tag. */
AKV_INLINE void mxk_kernel(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                           const akv_ghacc *lc, const int NB, const int G, const int ONEKEY, const int R)
{
    const aeskit_gcm_msg *P[MXK_GMAX];
    const uint8_t *ks[MXK_GMAX];
    const ak_ghash *gh[MXK_GMAX];
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        P[l] = &m[(size_t)l < cnt ? (size_t)l : cnt - 1];
        const ak_gcm_key *g = mxk_gkey(ONEKEY ? &m[0] : P[l]);
        ks[l] = akv_key(&g->aes)->enc[0];
        gh[l] = &g->gh;
    }
    const int open = (dir & AK_GCM_OPEN) != 0;
    akv x[MXK_GMAX][MXK_MAXB + 1];
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        const akv k0 = mxk_rk(ks[ONEKEY ? 0 : l], 0);
        x[l][0] = akv_enc_first_k(mxk_j0(P[l]->iv), k0);
        MXK_UNROLL
        for (int b = 0; b < NB; b++)
            x[l][b + 1] = akv_xor(x[l][0], mxk_ctr_word(b));
    }
    /* the rounds before the last, message by message within each round */
    MXK_UNROLL
    for (int i = 0; i < R - 1; i++) {
        MXK_UNROLL
        for (int l = 0; l < G; l++) {
            const akv k = mxk_rk(ks[ONEKEY ? 0 : l], i + AKV_RK_BASE);
            MXK_UNROLL
            for (int b = 0; b <= NB; b++)
                x[l][b] = akv_enc_round_k(x[l][b], k);
        }
    }
    /* Each message's last round, data and hash: the AAD and length
     * products need no AES output and overlap the rounds' tails. */
    akv t[MXK_GMAX];
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        const aeskit_gcm_msg *p = P[l];
        const ak_ghash *g = gh[ONEKEY ? 0 : l];
        const uint8_t *k = ks[ONEKEY ? 0 : l];
        const size_t len = p->len, aad_len = p->aad_len;
        const int full = len == 16 * (size_t)NB;
        akv_ghacc a = lc ? *lc : mxk_len_product(g, aad_len, len);
        if (aad_len) {
            const akv A = aad_len == 16 ? akv_load(p->aad) : mxk_load_short(p->aad, aad_len);
            akv_gh_mul_acc(&a, akv_gh_swap(A), mxk_hpow(g, NB + 2));
        }
        const akv kp = mxk_rk(k, R - 1 + AKV_RK_BASE), kl = mxk_rk(k, R);
        x[l][0] = akv_enc_last_k(x[l][0], kp, kl);
        MXK_UNROLL
        for (int b = 0; b < NB; b++) {
            const int whole = full || b < NB - 1;
            const akv d = whole ? akv_load(p->in + 16 * b) : mxk_load_block(p->in, len, b);
            x[l][b + 1] = akv_enc_last_k(x[l][b + 1], kp, akv_xor(kl, d));
            /* C: the output of a seal (its live bytes), the input of an open */
            akv c = open ? d : x[l][b + 1];
            if (!open && !whole)
                c = akv_and(c, mxk_live(len - 16 * (size_t)b));
            akv_gh_mul_acc(&a, akv_gh_swap(c), mxk_hpow(g, NB + 1 - b));
        }
        t[l] = akv_xor(akv_gh_swap(akv_gh_reduce(a)), x[l][0]);
    }
    /* every input is read: the outputs, then the tags; the pointers first
     * (a store could alias the descriptors, as far as the compiler knows) */
    uint8_t *out[MXK_GMAX], *tag[MXK_GMAX];
    size_t len[MXK_GMAX];
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        out[l] = P[l]->out;
        len[l] = P[l]->len;
        tag[l] = T ? T[l] : P[l]->tag;
    }
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        if ((size_t)l >= cnt)
            break;
        MXK_UNROLL
        for (int b = 0; b < NB; b++) {
            if (len[l] == 16 * (size_t)NB || b < NB - 1)
                akv_store(out[l] + 16 * b, x[l][b + 1]);
            else
                mxk_store_block(out[l], len[l], b, x[l][b + 1]);
        }
    }
    MXK_UNROLL
    for (int l = 0; l < G; l++) {
        if ((size_t)l >= cnt)
            break;
        akv_store(tag[l], t[l]);
    }
}

/* ---- one kernel per block count and key form ------------------------------ */

/* A kernel: m, cnt (1 .. mxk_lanes(NB)), dir and T as for mxk_kernel. */
typedef void mxk_kernel_fn(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                           const akv_ghacc *lc);

AKV_INLINE void mxk_kernel_r(const aeskit_gcm_msg *m, size_t cnt, uint32_t dir, uint8_t (*T)[16],
                             const akv_ghacc *lc, const int NB, const int ONEKEY)
{
    switch (mxk_gkey(&m[0])->aes.rounds) {
    case 10: mxk_kernel(m, cnt, dir, T, lc, NB, mxk_lanes(NB), ONEKEY, 10); break;
    case 12: mxk_kernel(m, cnt, dir, T, lc, NB, mxk_lanes(NB), ONEKEY, 12); break;
    default: mxk_kernel(m, cnt, dir, T, lc, NB, mxk_lanes(NB), ONEKEY, 14); break;
    }
}

#define MXK_NOINLINE static __attribute__((noinline)) AKV_TARGET
MXK_NOINLINE void mxk_kernel_1(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 1, 0);
}
MXK_NOINLINE void mxk_kernel_2(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 2, 0);
}
MXK_NOINLINE void mxk_kernel_3(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 3, 0);
}
MXK_NOINLINE void mxk_kernel_4(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 4, 0);
}
MXK_NOINLINE void mxk_kernel_1k(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 1, 1);
}
MXK_NOINLINE void mxk_kernel_2k(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 2, 1);
}
MXK_NOINLINE void mxk_kernel_3k(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 3, 1);
}
MXK_NOINLINE void mxk_kernel_4k(const aeskit_gcm_msg *m, size_t c, uint32_t d, uint8_t (*T)[16],
                               const akv_ghacc *lc)
{
    mxk_kernel_r(m, c, d, T, lc, 4, 1);
}

/* Indexed [one key][data blocks - 1]. */
static mxk_kernel_fn *const mxk_kernels[2][MXK_MAXB] = {
    {mxk_kernel_1, mxk_kernel_2, mxk_kernel_3, mxk_kernel_4},
    {mxk_kernel_1k, mxk_kernel_2k, mxk_kernel_3k, mxk_kernel_4k}};

/* The kernel's class of a message: its data block count 1..MXK_MAXB, or 0
 * when it takes no such message (empty, longer, or more than one AAD
 * block). */
AKV_INLINE int mxk_class(const aeskit_gcm_msg *p)
{
    return (p->len - 1 < (size_t)MXK_LEN && p->aad_len <= 16) ? (int)((p->len + 15) / 16) : 0;
}

/* The gcm_batch entry (src/internal.h).  A uniform call (AK_GCM_UNIFORM)
 * of the kernel's class runs whole, mxk_lanes messages a kernel call and
 * the rest in one more, through the ONEKEY kernel with the length block's
 * product formed once.  Otherwise call after call the longest prefix of
 * the rest, at most mxk_lanes of the class, of messages of the first
 * one's class and round count (keys free; one key object: the ONEKEY
 * kernel); a message that makes no longer run (the last one, or one
 * between messages of other classes or round counts) runs alone, its lane
 * repeated.  From the first message of another kind (empty, longer, more
 * AAD) on, the entry declines: those take the front end's descriptors
 * through gcm_msgs, and a batch of them goes there whole. */
AKV_TARGET static size_t akv_be_gcm_batch(const aeskit_gcm_msg *m, size_t n, uint32_t dir,
                                          uint8_t (*T)[16])
{
    size_t i = 0;
    if ((dir & AK_GCM_UNIFORM) && n) {
        const int c = mxk_class(&m[0]);
        if (!c)
            return 0;
        const size_t G = (size_t)mxk_lanes(c);
        mxk_kernel_fn *const kf = mxk_kernels[1][c - 1];
        const akv_ghacc lc = mxk_len_product(&mxk_gkey(&m[0])->gh, m[0].aad_len, m[0].len);
        dir &= AK_GCM_OPEN;
        for (; i < n; i += G)
            kf(m + i, n - i < G ? n - i : G, dir, T ? T + i : NULL, &lc);
        return n;
    }
    dir &= AK_GCM_OPEN;
    while (i < n) {
        const int c = mxk_class(&m[i]);
        if (!c)
            return i;
        const size_t most = (size_t)mxk_lanes(c), cap = n - i < most ? n - i : most;
        const uint32_t rounds = mxk_gkey(&m[i])->aes.rounds;
        size_t k = 1;
        int onekey = 1;
        for (; k < cap; k++) {
            const aeskit_gcm_msg *q = &m[i + k];
            if (mxk_class(q) != c)
                break;
            if (q->key != m[i].key) {
                if (mxk_gkey(q)->aes.rounds != rounds)
                    break;
                onekey = 0;
            }
        }
        mxk_kernels[onekey][c - 1](m + i, k, dir, T ? T + i : NULL, NULL);
        i += k;
    }
    return n;
}

#endif /* AESKIT_SIMD_GCM_MULTI_AKV_H */
