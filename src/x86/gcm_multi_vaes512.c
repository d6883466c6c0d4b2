/*
 * gcm_multi_vaes512.c - the x86-vaes-avx512 backend's multi-message GCM
 * kernel (vaes_gcm_multi.h: up to eight small messages of one batch call,
 * one per 128-bit lane), in a translation unit of its own.
 *
 * CPU features: VAES, VPCLMULQDQ, AVX-512 F/BW/VL (vaes_width512.h's
 * target attribute); reached only through aes_vaes_avx512.c's gcm_msgs
 * and gcm_batch entries, which the dispatcher picks on CPUs that have
 * them.
 *
 * A file of its own: the kernel is 15 fully specialised functions, and
 * apart from aes_vaes_avx512.c's other kernels the two units compile in
 * parallel (the sanitizer builds spend minutes on each).
 */
#include "vaes_width512.h"

#include "vaes_aes.h"
#include "vaes_ghash.h"
#include "vaes_gcm_multi.h"

__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_group(ak_gcm_msg *m, size_t n)
{
    return vaes_gcm_multi_group(m, n);
}

__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_group_pub(const aeskit_gcm_msg *m, size_t n,
                                                                      uint32_t dir, uint8_t (*T)[16])
{
    return vaes_gcm_multi_group_pub(m, n, dir, T);
}

__attribute__((target(AK_TGT))) size_t ak_vaes512_gcm_multi_run_pub(const aeskit_gcm_msg *m, size_t n, uint32_t dir,
                                                                    uint8_t (*T)[16])
{
    return vaes_gcm_multi_run_pub(m, n, dir, T);
}
