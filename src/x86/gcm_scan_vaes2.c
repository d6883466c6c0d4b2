/*
 * gcm_scan_vaes2.c - the GCM batch front end's pass over the caller's
 * descriptors (src/modes/batch_gcm.c, "the common case") in ymm
 * registers, the x86-vaes-avx2 backend's gcm_batch_scan (src/internal.h):
 * gcm_scan_vaes512.c's test in AVX2, with its result for every input.
 *
 * CPU features: AVX2 (AK_SCAN2_TGT); reached only through
 * aes_vaes_avx2.c's descriptor, which the dispatcher picks on CPUs that
 * have it.  Every address and length here is public.
 *
 * Two messages a step.  One ymm load from a descriptor's tag field and
 * one from its iv field hold its four (pointer, length) pairs; per pair of
 * messages i, j two unpacks of each put the pointers and the lengths of
 * each kind side by side:
 *
 *     lane   0       1       2        3
 *     pa     tag_i   tag_j   in_i     in_j       la: their lengths
 *     pb     iv_i    iv_j    aad_i    aad_j      lb: their lengths
 *
 * AVX2 has no unsigned 64-bit compare, minimum or maximum.  The pointers
 * are kept with bit 63 flipped (XOR 2^63, which is adding 2^63 modulo
 * 2^64), where the signed VPCMPGTQ orders them as unsigned numbers, and a
 * span's end in that form is the flipped pointer plus its length, one
 * add.  So per pair: one XOR and one add each for pa and pb give the
 * starts and ends; a VPCMPGTQ and a VPBLENDVB give each minimum and
 * maximum for the input hulls (pb always; pa for an open's expected tags
 * and for ins not in place); (la XOR KA) and (lb XOR KB) ORed into two
 * accumulators gather every length test of the batch (g2_accept); and
 * the ends of pa moved on by one message (VPALIGNR with the previous
 * pair's) against its starts test the order of a seal's tags in lanes 0,
 * 1 and, in place, of the outputs in lanes 2, 3 (there in == out, which
 * the scalar side checks).  The scalar side keeps the outputs' order when
 * not in place, the key objects and the statuses.  An odd first message
 * makes a pair with itself; the first step starts the state, and at the
 * end each hull's two lanes are folded in the registers.
 *
 * The test is sufficient, never necessary: whatever it does not accept
 * (a length of 2^32 or more, a tag or IV of another length, in place in
 * some messages only, AAD in some messages only, outputs out of order)
 * goes to the front end's scalar passes, which decide it.  Its answer and
 * its ak_gcm_scan are the zmm version's for every input (the batch_gcm
 * test's test_scan_model holds both to the contract written out).
 */
#include <immintrin.h>
#include <stddef.h>

#include "../internal.h"

#define AK_SCAN2_TGT "avx2"
#define G2_FN static inline __attribute__((always_inline, target(AK_SCAN2_TGT)))

/* The two loads: the (pointer, length) pairs in their declared order. */
_Static_assert(offsetof(aeskit_gcm_msg, tag_len) == offsetof(aeskit_gcm_msg, tag) + 8, "tag load, lane 1");
_Static_assert(offsetof(aeskit_gcm_msg, in) == offsetof(aeskit_gcm_msg, tag) + 16, "tag load, lane 2");
_Static_assert(offsetof(aeskit_gcm_msg, len) == offsetof(aeskit_gcm_msg, tag) + 24, "tag load, lane 3");
_Static_assert(offsetof(aeskit_gcm_msg, iv_len) == offsetof(aeskit_gcm_msg, iv) + 8, "iv load, lane 1");
_Static_assert(offsetof(aeskit_gcm_msg, aad) == offsetof(aeskit_gcm_msg, iv) + 16, "iv load, lane 2");
_Static_assert(offsetof(aeskit_gcm_msg, aad_len) == offsetof(aeskit_gcm_msg, iv) + 24, "iv load, lane 3");
_Static_assert(sizeof(void *) == 8 && sizeof(size_t) == 8, "64-bit lanes");

/* Signed minimum and maximum of 64-bit lanes: on flipped values, the
 * unsigned ones. */
G2_FN __m256i g2_min(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}
G2_FN __m256i g2_max(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a));
}

/* The state of the pass: the hulls (flipped), the length tests, the
 * order test and the previous pair's ends of pa (flipped). */
typedef struct {
    __m256i lo_a, hi_a, lo_b, hi_b, acc_a, acc_b, bad, prev;
} g2_state;

/* Messages i and j into the state; open and in_place the constants of the
 * caller's loop.  step: G2_NEXT a pair after the first, G2_FIRST the first
 * pair (the state starts from it: nothing before i), G2_ALONE an odd first
 * message (j = i: nothing to compare). */
enum { G2_NEXT, G2_FIRST, G2_ALONE };
G2_FN void g2_pair(g2_state *t, const aeskit_gcm_msg *i, const aeskit_gcm_msg *j, __m256i S, __m256i KA,
                   __m256i KB, const int open, const int in_place, const int step)
{
    const __m256i ai = _mm256_loadu_si256((const __m256i *)(const void *)&i->tag);
    const __m256i aj = _mm256_loadu_si256((const __m256i *)(const void *)&j->tag);
    const __m256i bi = _mm256_loadu_si256((const __m256i *)(const void *)&i->iv);
    const __m256i bj = _mm256_loadu_si256((const __m256i *)(const void *)&j->iv);
    const __m256i la = _mm256_unpackhi_epi64(ai, aj), lb = _mm256_unpackhi_epi64(bi, bj);
    const __m256i pa = _mm256_xor_si256(_mm256_unpacklo_epi64(ai, aj), S);
    const __m256i pb = _mm256_xor_si256(_mm256_unpacklo_epi64(bi, bj), S);
    const __m256i ea = _mm256_add_epi64(pa, la), eb = _mm256_add_epi64(pb, lb);
    const __m256i xa = _mm256_xor_si256(la, KA), xb = _mm256_xor_si256(lb, KB);
    if (step != G2_NEXT) {
        t->acc_a = xa;
        t->acc_b = xb;
        t->lo_a = pa;
        t->hi_a = ea;
        t->lo_b = pb;
        t->hi_b = eb;
        t->bad = _mm256_setzero_si256();
    } else {
        t->acc_a = _mm256_or_si256(t->acc_a, xa);
        t->acc_b = _mm256_or_si256(t->acc_b, xb);
        t->lo_b = g2_min(t->lo_b, pb);
        t->hi_b = g2_max(t->hi_b, eb);
        if (open || !in_place) {
            t->lo_a = g2_min(t->lo_a, pa);
            t->hi_a = g2_max(t->hi_a, ea);
        }
    }
    if (!open || in_place) {
        /* each message's starts against the ends before it: i's against
         * the previous pair's j (the first pair's against the flipped 0),
         * j's against i's */
        if (step != G2_ALONE) {
            const __m256i before = _mm256_alignr_epi8(ea, step == G2_FIRST ? S : t->prev, 8);
            t->bad = _mm256_or_si256(t->bad, _mm256_cmpgt_epi64(before, pa));
        }
        t->prev = ea;
    }
}

/* The scalar side of one message: its output's order (not in place) or
 * in == out (in place), whether its key object is m[0]'s (a compare and a
 * conditional move), its status. */
G2_FN int g2_scalar(aeskit_gcm_msg *mm, uintptr_t key0, const int in_place, uintptr_t *out_end, uintptr_t *keys,
                    uintptr_t *not_in_place)
{
    const uintptr_t out = (uintptr_t)mm->out;
    if (in_place) {
        *not_in_place |= (uintptr_t)mm->in ^ out;
    } else {
        if (__builtin_expect(out < *out_end, 0))
            return 0;
        *out_end = out + mm->len;
    }
    if (__builtin_expect((uintptr_t)mm->key != key0, 0))
        *keys = 1;
    mm->status = AESKIT_OK;
    return 1;
}

/* The accumulated ORs pass when (acc_a AND MA) and (acc_b AND MB) are zero
 * (gcm_scan_vaes512.c's gs_accept, its lanes 1, 3 in acc_a, 5, 7 in
 * acc_b, each twice): MA = {~0, ~0, hi, hi}, MB = {~0, ~0, m7, m7}, m7 =
 * hi when aad0 is not 0, else ~0, hi the bits from 2^32 up. */
G2_FN int g2_accept(__m256i acc_a, __m256i acc_b, uint64_t aad0)
{
    const long long hi = (long long)~(uint64_t)0xffffffffu, m7 = aad0 ? hi : -1;
    const __m256i MA = _mm256_set_epi64x(hi, hi, -1, -1), MB = _mm256_set_epi64x(m7, m7, -1, -1);
    return _mm256_testz_si256(acc_a, MA) & _mm256_testz_si256(acc_b, MB);
}

/* The hulls of the four input kinds in ak_gcm_scan's order (in, open's
 * tag, iv, aad) from the state's pairs of lanes (flipped; f the minimum
 * or the maximum): each pair folded, (tag, iv, in, aad) unpacked, then
 * put in order and unflipped. */
_Static_assert(sizeof ((ak_gcm_scan *)0)->in_lo == 32 && sizeof ((ak_gcm_scan *)0)->in_hi == 32, "one ymm each");
G2_FN __m256i g2_hulls(__m256i a, __m256i b, __m256i S, __m256i (*f)(__m256i, __m256i))
{
    a = f(a, _mm256_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2)));
    b = f(b, _mm256_shuffle_epi32(b, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm256_xor_si256(_mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), _MM_SHUFFLE(3, 1, 0, 2)), S);
}

G2_FN int g2_scan(aeskit_gcm_msg *m, size_t n, ak_gcm_scan *s, const int open, const int in_place)
{
    const uintptr_t key0 = (uintptr_t)m[0].key;
    const uint64_t len0 = m[0].len, aad0 = m[0].aad_len;
    const __m256i S = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const __m256i KA = _mm256_set_epi64x((long long)len0, (long long)len0, 16, 16);
    const __m256i KB = _mm256_set_epi64x((long long)aad0, (long long)aad0, 12, 12);
    g2_state t;
    uintptr_t out_end = 0, keys = 0, not_in_place = 0;
    aeskit_gcm_msg *mm = m;
    if (n & 1) {
        g2_pair(&t, mm, mm, S, KA, KB, open, in_place, G2_ALONE);
        if (!in_place)
            out_end = (uintptr_t)mm->out + mm->len;
        mm->status = AESKIT_OK;
        mm++;
    } else {
        g2_pair(&t, mm, mm + 1, S, KA, KB, open, in_place, G2_FIRST);
        if (!g2_scalar(mm, key0, in_place, &out_end, &keys, &not_in_place) ||
            !g2_scalar(mm + 1, key0, in_place, &out_end, &keys, &not_in_place))
            return 0;
        mm += 2;
    }
    _Pragma("GCC unroll 2")
    for (aeskit_gcm_msg *const mend = m + n; mm != mend; mm += 2) {
        g2_pair(&t, mm, mm + 1, S, KA, KB, open, in_place, G2_NEXT);
        if (!g2_scalar(mm, key0, in_place, &out_end, &keys, &not_in_place) ||
            !g2_scalar(mm + 1, key0, in_place, &out_end, &keys, &not_in_place))
            return 0;
    }
    /* the order test's lanes: the tags of a seal, the outputs in place */
    const int bad_lanes = (open ? 0 : 3) | (in_place ? 12 : 0);
    if ((bad_lanes && (_mm256_movemask_pd(_mm256_castsi256_pd(t.bad)) & bad_lanes)) || not_in_place ||
        !g2_accept(t.acc_a, t.acc_b, aad0))
        return 0;
    /* the last message's ends are lane j's of prev: 1 its tag, 3 its in */
    if (!open || in_place) {
        const __m256i e = _mm256_xor_si256(t.prev, S);
        if (in_place)
            out_end = (uintptr_t)_mm256_extract_epi64(e, 3);
        if (!open)
            s->tag_end = (uintptr_t)_mm256_extract_epi64(e, 1);
    }
    s->out_end = out_end;
    if (open)
        s->tag_end = 0;
    /* a kind without spans: lo = UINTPTR_MAX, hi = 0 */
    const __m256i none = _mm256_set_epi64x(aad0 ? 0 : -1, 0, open ? 0 : -1, in_place ? -1 : 0);
    _mm256_storeu_si256((__m256i *)(void *)s->in_lo,
                        _mm256_or_si256(g2_hulls(t.lo_a, t.lo_b, S, g2_min), none));
    _mm256_storeu_si256((__m256i *)(void *)s->in_hi,
                        _mm256_andnot_si256(none, g2_hulls(t.hi_a, t.hi_b, S, g2_max)));
    /* uniform: the low 32 bits of the len and aad_len lanes */
    const __m256i L = _mm256_set_epi64x(0xffffffff, 0xffffffff, 0, 0);
    s->uniform = !keys && _mm256_testz_si256(_mm256_or_si256(t.acc_a, t.acc_b), L);
    s->other_keys = keys != 0;
    return 1;
}

/* Each direction and form (in place or not) its own loop with its
 * constants. */
static __attribute__((noinline, target(AK_SCAN2_TGT))) int g2_seal(aeskit_gcm_msg *m, size_t n, ak_gcm_scan *s)
{
    return g2_scan(m, n, s, 0, 0);
}
static __attribute__((noinline, target(AK_SCAN2_TGT))) int g2_seal_in_place(aeskit_gcm_msg *m, size_t n,
                                                                           ak_gcm_scan *s)
{
    return g2_scan(m, n, s, 0, 1);
}
static __attribute__((noinline, target(AK_SCAN2_TGT))) int g2_open(aeskit_gcm_msg *m, size_t n, ak_gcm_scan *s)
{
    return g2_scan(m, n, s, 1, 0);
}
static __attribute__((noinline, target(AK_SCAN2_TGT))) int g2_open_in_place(aeskit_gcm_msg *m, size_t n,
                                                                           ak_gcm_scan *s)
{
    return g2_scan(m, n, s, 1, 1);
}

__attribute__((target(AK_SCAN2_TGT))) int ak_vaes2_gcm_batch_scan(aeskit_gcm_msg *m, size_t n, int open,
                                                                 ak_gcm_scan *s)
{
    const int in_place = m[0].in == m[0].out;
    if (open)
        return in_place ? g2_open_in_place(m, n, s) : g2_open(m, n, s);
    return in_place ? g2_seal_in_place(m, n, s) : g2_seal(m, n, s);
}
