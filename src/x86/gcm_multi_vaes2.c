/*
 * gcm_multi_vaes2.c - the x86-vaes-avx2 backend's multi-message GCM
 * kernel (vaes_gcm_multi2.h: small messages of one batch call, two per
 * ymm, one per 128-bit lane), in a translation unit of its own.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX2 (vaes_width256.h's target
 * attribute); reached only through aes_vaes_avx2.c's gcm_batch entry,
 * which the dispatcher picks on CPUs that have them.
 *
 * A file of its own: apart from aes_vaes_avx2.c's other kernels the two
 * units compile in parallel (the sanitizer builds spend minutes on each),
 * and the code of the backend's single-call kernels keeps its layout.
 */
#include "vaes_width256.h"

#include "vaes_aes.h"
#include "vaes_ghash.h"
#include "x86_short_io.h"
#include "vaes_gcm_multi2.h"

__attribute__((target(AK_TGT))) size_t ak_vaes2_gcm_multi_run_pub(const aeskit_gcm_msg *m, size_t n, uint32_t dir,
                                                                  uint8_t (*T)[16])
{
    return vaes_gcm_mx2_run(m, n, dir, T);
}
