/*
 * ct_msan.h - shadow-propagating replacements for the x86 intrinsics that
 * clang 14's MemorySanitizer does not model soundly, used ONLY in the
 * MemorySanitizer constant-time build (-DAESKIT_MSAN_CT=ON, which defines
 * AESKIT_MSAN_CT; tests/trust/ct_msan, scripts/check.d/55-ct-msan.sh).  In
 * every other build this header is empty.  It is included from internal.h,
 * so every backend file gets it without an edit of its own.
 *
 * Why.  The constant-time check marks secrets uninitialised and lets MSan
 * report every branch, address or libc argument computed from them.  That
 * only works if MSan's shadow (its "uninitialised" bits) follows the data
 * through every instruction.  For a target intrinsic it has no rule for,
 * clang 14 does one of two things (llvm/lib/Transforms/Instrumentation/
 * MemorySanitizer.cpp, observed in the instrumented IR of our files):
 *
 *   - "simple" intrinsics (no memory access, every operand of the result's
 *     type): shadow = bitwise OR of the operands' shadows.  Sound for
 *     bitwise operations, NOT for instructions that move or mix bits across
 *     positions: aesenc/aesenclast/aesdec/aesdeclast (128/256/512: ShiftRows
 *     and MixColumns move every byte), aesimc (InvMixColumns), pshufb with a
 *     run-time index (a byte comes from another position).  A poisoned byte
 *     would leave 12-15 bytes of its block looking initialised: secrets
 *     silently dropped.
 *   - everything else: a STRICT check (a report if any operand bit is
 *     poisoned, although the instruction is constant-time) and a clean
 *     result, so the secret is also dropped: aeskeygenassist (its i8
 *     immediate differs in type), vpternlog (i32 immediate; every width).
 *   - pclmulqdq (128/256/512) has a rule (handlePclmulIntrinsic): the
 *     shadow of the selected 64-bit halves, ORed bit by bit into both halves
 *     of the product.  A carry-less product's bit k depends on bits 0..k of
 *     both factors, so that too can drop a poisoned bit's effect.
 *
 * What MSan models exactly (no replacement): psllv/psrlv (shift rule; a
 * poisoned count poisons the element), llvm.masked.load/store (the shadow
 * moves under the same mask; a poisoned mask or address is reported),
 * shufflevector (pshufb with a constant index, palignr, byte shifts, lane
 * moves fold to it), bswap, funnel shifts, and plain vector arithmetic.
 * (MSan's add/mul rules are bitwise ORs too, which misses a carry out of a
 * poisoned byte into a clean one; the secrets our code adds or multiplies,
 * counters from a secret J0 and GHASH words, are secret in every byte.)
 * Saturating add/sub (llvm.usub.sat, from length arithmetic) take the
 * same OR rule as a simple intrinsic.  scripts/check.d/55-ct-msan.sh lists every target intrinsic left
 * in the instrumented objects and fails on one that is in neither list.
 *
 * The rule used here: each replaced intrinsic computes the real result on
 * unpoisoned copies of its operands (so MSan's strict check cannot fire),
 * then poisons each 16-byte lane of the result whose inputs had any poisoned
 * bit in that lane (for pclmulqdq: in the 64-bit halves the immediate
 * selects).  Every one of these instructions is lane-local (no 256/512-bit
 * form moves data between 128-bit lanes), so this over-approximates the real
 * dependency and never under-approximates it.  An index given to pshufb
 * that is poisoned poisons its lane, not a report: pshufb's timing does not
 * depend on its index.  The per-backend planted leak and the harness's
 * "every output is still secret" check (tests/trust/ct_msan.c) test that
 * the shadow arrives at the end of every kernel.
 */
#ifndef AK_CT_MSAN_H
#define AK_CT_MSAN_H

#if defined(AESKIT_MSAN_CT) && defined(__x86_64__)
#if !defined(__has_feature) || !__has_feature(memory_sanitizer)
#error "AESKIT_MSAN_CT needs clang with -fsanitize=memory"
#endif
#include <immintrin.h> /* before the macros below: they rename its functions */
#include <sanitizer/msan_interface.h>
#include <stddef.h>

/* Every wrapper is an out-of-line function (a few hundred bytes of MSan
 * code each): as macros expanded in place they made the instrumented VAES
 * files take ten times longer to compile (thousands of call sites). */
#define AKM_FN static __attribute__((noinline, unused))

/* Bit l set iff bytes [16l + off, 16l + off + w) of the n-byte object p
 * hold any poisoned bit (off/w pick a whole lane or one 64-bit half). */
AKM_FN unsigned akm_lanes(const void *p, size_t n, size_t off, size_t w)
{
    unsigned m = 0;
    for (size_t l = 0; l < n / 16; l++)
        m |= (unsigned)(__msan_test_shadow((const char *)p + 16 * l + off, w) != -1) << l;
    return m;
}
/* Shadow of the n-byte result p: lane l fully poisoned iff bit l of m. */
AKM_FN void akm_set_lanes(void *p, size_t n, unsigned m)
{
    __msan_unpoison(p, n);
    for (size_t l = 0; l < n / 16; l++)
        if ((m >> l) & 1)
            __msan_poison((char *)p + 16 * l, 16);
}

/* NAME(a, b): lane-local in both operands.  The copies a, b (parameters)
 * carry the callers' shadow; their lane masks are taken, then they are
 * cleaned and CALL computes on them. */
#define AKM_WRAP2(NAME, T, TGT, CALL)                                                          \
    AKM_FN __attribute__((target(TGT))) T NAME(T a, T b)                                       \
    {                                                                                          \
        unsigned m = akm_lanes(&a, sizeof a, 0, 16) | akm_lanes(&b, sizeof b, 0, 16);          \
        __msan_unpoison(&a, sizeof a);                                                         \
        __msan_unpoison(&b, sizeof b);                                                         \
        T r = (CALL);                                                                          \
        akm_set_lanes(&r, sizeof r, m);                                                        \
        return r;                                                                              \
    }

/* AES rounds: every output byte of a lane depends on the whole lane of the
 * state and of the round key. */
AKM_WRAP2(akm_aesenc128, __m128i, "aes", (__m128i)__builtin_ia32_aesenc128((__v2di)a, (__v2di)b))
AKM_WRAP2(akm_aesenclast128, __m128i, "aes", (__m128i)__builtin_ia32_aesenclast128((__v2di)a, (__v2di)b))
AKM_WRAP2(akm_aesdec128, __m128i, "aes", (__m128i)__builtin_ia32_aesdec128((__v2di)a, (__v2di)b))
AKM_WRAP2(akm_aesdeclast128, __m128i, "aes", (__m128i)__builtin_ia32_aesdeclast128((__v2di)a, (__v2di)b))
AKM_WRAP2(akm_aesenc256, __m256i, "vaes,avx2", (__m256i)__builtin_ia32_aesenc256((__v4di)a, (__v4di)b))
AKM_WRAP2(akm_aesenclast256, __m256i, "vaes,avx2", (__m256i)__builtin_ia32_aesenclast256((__v4di)a, (__v4di)b))
AKM_WRAP2(akm_aesdec256, __m256i, "vaes,avx2", (__m256i)__builtin_ia32_aesdec256((__v4di)a, (__v4di)b))
AKM_WRAP2(akm_aesdeclast256, __m256i, "vaes,avx2", (__m256i)__builtin_ia32_aesdeclast256((__v4di)a, (__v4di)b))
AKM_WRAP2(akm_aesenc512, __m512i, "vaes,avx512f", (__m512i)__builtin_ia32_aesenc512((__v8di)a, (__v8di)b))
AKM_WRAP2(akm_aesenclast512, __m512i, "vaes,avx512f", (__m512i)__builtin_ia32_aesenclast512((__v8di)a, (__v8di)b))
AKM_WRAP2(akm_aesdec512, __m512i, "vaes,avx512f", (__m512i)__builtin_ia32_aesdec512((__v8di)a, (__v8di)b))
AKM_WRAP2(akm_aesdeclast512, __m512i, "vaes,avx512f", (__m512i)__builtin_ia32_aesdeclast512((__v8di)a, (__v8di)b))
#define _mm_aesenc_si128(A, B) akm_aesenc128((A), (B))
#define _mm_aesenclast_si128(A, B) akm_aesenclast128((A), (B))
#define _mm_aesdec_si128(A, B) akm_aesdec128((A), (B))
#define _mm_aesdeclast_si128(A, B) akm_aesdeclast128((A), (B))
#define _mm256_aesenc_epi128(A, B) akm_aesenc256((A), (B))
#define _mm256_aesenclast_epi128(A, B) akm_aesenclast256((A), (B))
#define _mm256_aesdec_epi128(A, B) akm_aesdec256((A), (B))
#define _mm256_aesdeclast_epi128(A, B) akm_aesdeclast256((A), (B))
#define _mm512_aesenc_epi128(A, B) akm_aesenc512((A), (B))
#define _mm512_aesenclast_epi128(A, B) akm_aesenclast512((A), (B))
#define _mm512_aesdec_epi128(A, B) akm_aesdec512((A), (B))
#define _mm512_aesdeclast_epi128(A, B) akm_aesdeclast512((A), (B))

/* pshufb: output byte i of a lane is a byte of the same lane of A chosen by
 * byte i of B (or zero): lane-local in A and B. */
AKM_WRAP2(akm_pshufb128, __m128i, "ssse3", (__m128i)__builtin_ia32_pshufb128((__v16qi)a, (__v16qi)b))
AKM_WRAP2(akm_pshufb256, __m256i, "avx2", (__m256i)__builtin_ia32_pshufb256((__v32qi)a, (__v32qi)b))
AKM_WRAP2(akm_pshufb512, __m512i, "avx512bw", (__m512i)__builtin_ia32_pshufb512((__v64qi)a, (__v64qi)b))
#define _mm_shuffle_epi8(A, B) akm_pshufb128((A), (B))
#define _mm256_shuffle_epi8(A, B) akm_pshufb256((A), (B))
#define _mm512_shuffle_epi8(A, B) akm_pshufb512((A), (B))

/* The immediates must be constants for the instruction; the wrappers take
 * them as (public) arguments and switch over every value. */
#define AKM_C4(C, i) C(i) C((i) + 1) C((i) + 2) C((i) + 3)
#define AKM_C16(C, i) AKM_C4(C, i) AKM_C4(C, (i) + 4) AKM_C4(C, (i) + 8) AKM_C4(C, (i) + 12)
#define AKM_C256(C)                                                                            \
    AKM_C16(C, 0) AKM_C16(C, 16) AKM_C16(C, 32) AKM_C16(C, 48) AKM_C16(C, 64) AKM_C16(C, 80)   \
    AKM_C16(C, 96) AKM_C16(C, 112) AKM_C16(C, 128) AKM_C16(C, 144) AKM_C16(C, 160)             \
    AKM_C16(C, 176) AKM_C16(C, 192) AKM_C16(C, 208) AKM_C16(C, 224) AKM_C16(C, 240)

/* aesimc and aeskeygenassist: one lane, every output byte from all 16. */
AKM_FN __attribute__((target("aes"))) __m128i akm_aesimc(__m128i a)
{
    unsigned m = akm_lanes(&a, sizeof a, 0, 16);
    __msan_unpoison(&a, sizeof a);
    __m128i r = (__m128i)__builtin_ia32_aesimc128((__v2di)a);
    akm_set_lanes(&r, sizeof r, m);
    return r;
}
AKM_FN __attribute__((target("aes"))) __m128i akm_aeskeygenassist(__m128i a, int imm)
{
    unsigned m = akm_lanes(&a, sizeof a, 0, 16);
    __msan_unpoison(&a, sizeof a);
    __m128i r = a;
    switch (imm & 0xff) {
#define AKM_KGA(i)                                                                             \
    case (i):                                                                                  \
        r = (__m128i)__builtin_ia32_aeskeygenassist128((__v2di)a, (char)(i));                        \
        break;
        AKM_C256(AKM_KGA)
#undef AKM_KGA
    }
    akm_set_lanes(&r, sizeof r, m);
    return r;
}
#define _mm_aesimc_si128(A) akm_aesimc((A))
#undef _mm_aeskeygenassist_si128
#define _mm_aeskeygenassist_si128(A, R) akm_aeskeygenassist((A), (R))

/* Carry-less multiply: lane l of the product depends on the 64-bit half of
 * lane l of A that bit 0 of the immediate picks and on the half of B that
 * bit 4 picks. */
#define AKM_CLMUL(NAME, T, VT, TGT, BUILTIN)                                                   \
    AKM_FN __attribute__((target(TGT))) T NAME(T a, T b, int imm)                              \
    {                                                                                          \
        unsigned m = akm_lanes(&a, sizeof a, (imm & 0x01) ? 8 : 0, 8) |                        \
                     akm_lanes(&b, sizeof b, (imm & 0x10) ? 8 : 0, 8);                         \
        __msan_unpoison(&a, sizeof a);                                                         \
        __msan_unpoison(&b, sizeof b);                                                         \
        T r;                                                                                   \
        switch (imm & 0x11) {                                                                  \
        case 0x00: r = (T)BUILTIN((VT)a, (VT)b, 0x00); break;                                  \
        case 0x01: r = (T)BUILTIN((VT)a, (VT)b, 0x01); break;                                  \
        case 0x10: r = (T)BUILTIN((VT)a, (VT)b, 0x10); break;                                  \
        default: r = (T)BUILTIN((VT)a, (VT)b, 0x11); break;                                    \
        }                                                                                      \
        akm_set_lanes(&r, sizeof r, m);                                                        \
        return r;                                                                              \
    }
AKM_CLMUL(akm_clmul128, __m128i, __v2di, "pclmul", __builtin_ia32_pclmulqdq128)
AKM_CLMUL(akm_clmul256, __m256i, __v4di, "vpclmulqdq,avx2", __builtin_ia32_pclmulqdq256)
AKM_CLMUL(akm_clmul512, __m512i, __v8di, "vpclmulqdq,avx512f", __builtin_ia32_pclmulqdq512)
#undef _mm_clmulepi64_si128
#undef _mm256_clmulepi64_epi128
#undef _mm512_clmulepi64_epi128
#define _mm_clmulepi64_si128(A, B, I) akm_clmul128((A), (B), (I))
#define _mm256_clmulepi64_epi128(A, B, I) akm_clmul256((A), (B), (I))
#define _mm512_clmulepi64_epi128(A, B, I) akm_clmul512((A), (B), (I))

/* vpternlogd: bit j of the result depends on bit j of A, B and C only. */
AKM_FN __attribute__((target("avx512f"))) __m512i akm_ternlog512(__m512i a, __m512i b, __m512i c, int imm)
{
    unsigned m = akm_lanes(&a, sizeof a, 0, 16) | akm_lanes(&b, sizeof b, 0, 16) |
                 akm_lanes(&c, sizeof c, 0, 16);
    __msan_unpoison(&a, sizeof a);
    __msan_unpoison(&b, sizeof b);
    __msan_unpoison(&c, sizeof c);
    __m512i r = a;
    switch (imm & 0xff) {
#define AKM_TL(i)                                                                              \
    case (i):                                                                                  \
        r = (__m512i)__builtin_ia32_pternlogd512_mask((__v16si)a, (__v16si)b, (__v16si)c, (i), \
                                                      (__mmask16)-1);                          \
        break;
        AKM_C256(AKM_TL)
#undef AKM_TL
    }
    akm_set_lanes(&r, sizeof r, m);
    return r;
}
#undef _mm512_ternarylogic_epi32
#define _mm512_ternarylogic_epi32(A, B, C, I) akm_ternlog512((A), (B), (C), (I))

/* The xmm and ymm forms (AVX512VL).  Bitwise too, so the 32- and 64-bit
 * element forms are the same function of the bits. */
AKM_FN __attribute__((target("avx512f,avx512vl"))) __m256i akm_ternlog256(__m256i a, __m256i b, __m256i c, int imm)
{
    unsigned m = akm_lanes(&a, sizeof a, 0, 16) | akm_lanes(&b, sizeof b, 0, 16) |
                 akm_lanes(&c, sizeof c, 0, 16);
    __msan_unpoison(&a, sizeof a);
    __msan_unpoison(&b, sizeof b);
    __msan_unpoison(&c, sizeof c);
    __m256i r = a;
    switch (imm & 0xff) {
#define AKM_TL(i)                                                                              \
    case (i):                                                                                  \
        r = (__m256i)__builtin_ia32_pternlogd256_mask((__v8si)a, (__v8si)b, (__v8si)c, (i),    \
                                                      (__mmask8)-1);                           \
        break;
        AKM_C256(AKM_TL)
#undef AKM_TL
    }
    akm_set_lanes(&r, sizeof r, m);
    return r;
}
AKM_FN __attribute__((target("avx512f,avx512vl"))) __m128i akm_ternlog128(__m128i a, __m128i b, __m128i c, int imm)
{
    __m256i r = akm_ternlog256(_mm256_zextsi128_si256(a), _mm256_zextsi128_si256(b), _mm256_zextsi128_si256(c), imm);
    return _mm256_castsi256_si128(r);
}
#undef _mm256_ternarylogic_epi32
#undef _mm256_ternarylogic_epi64
#undef _mm_ternarylogic_epi32
#undef _mm_ternarylogic_epi64
#define _mm256_ternarylogic_epi32(A, B, C, I) akm_ternlog256((A), (B), (C), (I))
#define _mm256_ternarylogic_epi64(A, B, C, I) akm_ternlog256((A), (B), (C), (I))
#define _mm_ternarylogic_epi32(A, B, C, I) akm_ternlog128((A), (B), (C), (I))
#define _mm_ternarylogic_epi64(A, B, C, I) akm_ternlog128((A), (B), (C), (I))

#endif /* AESKIT_MSAN_CT && __x86_64__ */
#endif /* AK_CT_MSAN_H */
