/*
 * gcm_scan_vaes512.c - the GCM batch front end's pass over the caller's
 * descriptors (src/modes/batch_gcm.c, "the common case") in zmm
 * registers, the x86-vaes-avx512 backend's gcm_batch_scan
 * (src/internal.h).
 *
 * CPU features: AVX-512F (AK_SCAN_TGT); reached only through
 * aes_vaes_avx512.c's descriptor, which the dispatcher picks on CPUs that
 * have it.  Every address and length here is public.
 *
 * The front end's scalar passes spend a compare and a conditional move
 * on the integer pipes for each end of each span; here one zmm load from
 * a descriptor's tag field holds four (pointer, length) pairs side by
 * side:
 *
 *     lane  0    1        2   3    4   5       6    7
 *           tag  tag_len  in  len  iv  iv_len  aad  aad_len
 *
 * so one in-lane swap and one add give every span's end in the pointer
 * lanes (0, 2, 4, 6), one ternary-logic OR of (v XOR K) gathers every
 * length test of the whole batch, and of a seal's tag order (gs_accept
 * says which bits must be clear), and one unsigned min and max fold the
 * input spans into their hulls, the scalar side keeping only the
 * outputs' order and the key.  No test carries a mask register or a
 * compare's result from message to message: each accumulator's chain is
 * one single-cycle vector operation a message.
 * The test is sufficient, never necessary: whatever it does not accept
 * (a length of 2^32 or more, a tag or IV of another length, in place in
 * some messages only, AAD in some messages only, outputs out of order)
 * goes to the front end's scalar passes, which decide it.
 */
#include <immintrin.h>
#include <stddef.h>

#include "../internal.h"

#define AK_SCAN_TGT "avx512f"

/* The lanes above are the descriptor's fields in their declared order. */
_Static_assert(offsetof(aeskit_gcm_msg, tag_len) == offsetof(aeskit_gcm_msg, tag) + 8, "lane 1");
_Static_assert(offsetof(aeskit_gcm_msg, in) == offsetof(aeskit_gcm_msg, tag) + 16, "lane 2");
_Static_assert(offsetof(aeskit_gcm_msg, len) == offsetof(aeskit_gcm_msg, tag) + 24, "lane 3");
_Static_assert(offsetof(aeskit_gcm_msg, iv) == offsetof(aeskit_gcm_msg, tag) + 32, "lane 4");
_Static_assert(offsetof(aeskit_gcm_msg, iv_len) == offsetof(aeskit_gcm_msg, tag) + 40, "lane 5");
_Static_assert(offsetof(aeskit_gcm_msg, aad) == offsetof(aeskit_gcm_msg, tag) + 48, "lane 6");
_Static_assert(offsetof(aeskit_gcm_msg, aad_len) == offsetof(aeskit_gcm_msg, tag) + 56, "lane 7");
_Static_assert(sizeof(void *) == 8 && sizeof(size_t) == 8, "64-bit lanes");

/* The accumulated OR of (v XOR K) over the batch, K = {0, 16, 0, len0, 0,
 * 12, 0, aad0} (a seal's lane 0: the tag order, gs_step), passes when
 * (acc AND M) is zero, M = {seal ? ~0 : 0, ~0, 0, hi, 0, ~0, 0, aad0 ? hi :
 * ~0} with hi = the bits from 2^32 up: every seal tag in order, every tag_len 16,
 * every iv_len 12, every len below 2^32 (len0 is, so a high bit of
 * len XOR len0 is one of len), every aad_len below 2^32, or 0 when aad0
 * is (the AAD hull then leaves AAD out).  The low bits of lanes 3 and 7
 * are zero exactly when every len is len0 and every aad_len aad0: the
 * uniform batch. */
static inline __attribute__((always_inline, target(AK_SCAN_TGT))) int gs_accept(__m512i acc, uint64_t aad0, int open)
{
    const uint64_t hi = ~(uint64_t)0xffffffffu;
    const __m512i M = _mm512_set_epi64((long long)(aad0 ? hi : ~(uint64_t)0), 0, -1, 0, (long long)hi, 0, -1,
                                       open ? 0 : -1);
    return _mm512_test_epi64_mask(acc, M) == 0;
}

/* What the pass carries from message to message (names as in the loop's
 * rules above). */
typedef struct gs_state {
    __m512i K, acc, lo, hi;
    __mmask8 hull;
    int open, in_place;
    uintptr_t key0, out_end, keys, not_in_place;
} gs_state;

/* One message: its span ends go to *end (a seal's tag order is checked
 * against prev, the previous message's ends); 0 when its out starts below
 * the previous out's end (the scalar passes decide the batch).  Two
 * messages an iteration with the ends in alternate variables, so no
 * register copy carries them. */
static inline __attribute__((always_inline, target(AK_SCAN_TGT))) int gs_step(gs_state *g, aeskit_gcm_msg *mm,
                                                                            __m512i prev, __m512i *end)
{
    const __m512i v = _mm512_loadu_si512((const void *)&mm->tag);
    const __m512i e = _mm512_add_epi64(v, _mm512_shuffle_epi32(v, _MM_PERM_BADC));
    /* a seal's tag order in lane 0: v XOR max(prev, v) is 0 exactly when
     * the tag starts at or above the previous one's end (unsigned) */
    const __m512i w = g->open ? g->K : _mm512_mask_max_epu64(g->K, 1, prev, v);
    g->acc = _mm512_ternarylogic_epi64(g->acc, v, w, 0xF6); /* acc | (v ^ w) */
    g->lo = _mm512_min_epu64(g->lo, v);
    g->hi = _mm512_max_epu64(g->hi, e);
    *end = e;
    const uintptr_t out = (uintptr_t)mm->out;
    if (__builtin_expect(out < g->out_end, 0))
        return 0;
    g->out_end = out + mm->len;
    g->keys |= (uintptr_t)mm->key ^ g->key0;
    if (g->in_place)
        g->not_in_place |= (uintptr_t)mm->in ^ out;
    mm->status = AESKIT_OK;
    return 1;
}

__attribute__((target(AK_SCAN_TGT))) int ak_vaes512_gcm_batch_scan(aeskit_gcm_msg *m, size_t n, int open,
                                                                  ak_gcm_scan *s)
{
    gs_state g;
    g.key0 = (uintptr_t)m[0].key;
    const uint64_t len0 = m[0].len, aad0 = m[0].aad_len;
    g.in_place = m[0].in == m[0].out;
    g.open = open;
    /* the input lanes that go into the hulls: in unless in place, the
     * expected tag of an open, the IV, the AAD when there is some */
    g.hull = (__mmask8)(1u << 4 | (g.in_place ? 0u : 1u << 2) | (open ? 1u : 0u) | (aad0 ? 1u << 6 : 0u));
    g.K = _mm512_set_epi64((long long)aad0, 0, 12, 0, (long long)len0, 0, 16, 0);
    g.acc = _mm512_setzero_si512();
    g.lo = _mm512_set1_epi64(-1);
    g.hi = _mm512_setzero_si512();
    g.out_end = g.keys = g.not_in_place = 0;
    __m512i e0, tag_end = _mm512_setzero_si512(); /* the previous message's ends; a seal's tag end in lane 0 */
    aeskit_gcm_msg *mm = m;
    _Pragma("GCC unroll 2")
    for (size_t i = n / 2; i; i--, mm += 2)
        if (!gs_step(&g, mm, tag_end, &e0) || !gs_step(&g, mm + 1, e0, &tag_end))
            return 0;
    if ((n & 1) && !gs_step(&g, mm, tag_end, &tag_end))
        return 0;
    /* the lanes outside the hull mask folded every message too: empty */
    const __m512i acc = g.acc, lo = _mm512_mask_mov_epi64(_mm512_set1_epi64(-1), g.hull, g.lo),
                  hi = _mm512_maskz_mov_epi64(g.hull, g.hi);
    const uintptr_t out_end = g.out_end, keys = g.keys, not_in_place = g.not_in_place;
    if (not_in_place || !gs_accept(acc, aad0, open))
        return 0;
    uint64_t l[8], h[8], e[8];
    _mm512_storeu_si512((void *)l, lo);
    _mm512_storeu_si512((void *)h, hi);
    _mm512_storeu_si512((void *)e, tag_end);
    s->out_end = out_end;
    s->tag_end = open ? 0 : (uintptr_t)e[0];
    const unsigned lane[AK_GCM_SCAN_INPUTS] = {2, 0, 4, 6}; /* in, open's tag, iv, aad */
    for (unsigned k = 0; k < AK_GCM_SCAN_INPUTS; k++) {
        s->in_lo[k] = (uintptr_t)l[lane[k]];
        s->in_hi[k] = (uintptr_t)h[lane[k]];
    }
    const __m512i lens = _mm512_and_si512(acc, _mm512_set_epi64(0xffffffff, 0, 0, 0, 0xffffffff, 0, 0, 0));
    s->uniform = !keys && _mm512_test_epi64_mask(lens, lens) == 0;
    s->other_keys = keys != 0;
    return 1;
}
