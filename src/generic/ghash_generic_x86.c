/*
 * ghash_generic_x86.c - the portable GHASH source (ghash_generic_core.h)
 * compiled for 32-byte (AVX2: 4 lanes) and 64-byte (AVX-512F/BW/VL: 8
 * lanes) vectors.  CPU features: AVX2 / AVX-512, per function (target
 * pragmas); chosen once per key from ak_cpu_features().  The only
 * intrinsic is the 32x32->64 lane multiply, which GCC does not derive from
 * the generic C (it would emit three multiplies per lane).
 */
#include "generic.h"

#ifdef AK_GEN_X86
#include <immintrin.h>

AK_TARGET_PUSH("avx2")
#if !defined(__clang__)
#define AKGH_MUL32(a, b) ((akgh_v)_mm256_mul_epu32((__m256i)(a), (__m256i)(b)))
#endif
#define AKGH_W 32
#define AKGH_NAME(x) akgh32_##x
#include "ghash_generic_core.h"
AK_TARGET_POP
const ak_gen_ghash_fn ak_gen_ghash_avx2 = akgh32_ghash_groups;

AK_TARGET_PUSH("avx512f,avx512bw,avx512vl")
#if !defined(__clang__)
#define AKGH_MUL32(a, b) ((akgh_v)_mm512_mul_epu32((__m512i)(a), (__m512i)(b)))
#endif
#define AKGH_W 64
#define AKGH_NAME(x) akgh64_##x
#include "ghash_generic_core.h"
AK_TARGET_POP
const ak_gen_ghash_fn ak_gen_ghash_avx512 = akgh64_ghash_groups;
#endif
