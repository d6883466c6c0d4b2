/*
 * gcm_multi_aesni_avx.c - gcm_multi_aesni.c's multi-message GCM kernel
 * again, VEX-encoded, for x86-aesni keys set up on CPUs with AVX
 * (ak_aesni_key.vex), as gcm_aesni_avx.c builds gcm_aesni.c.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 and AVX (AESNI_TARGET,
 * defined here before aesni_ops.h would define it; no -m flag).  The code,
 * the bytes computed and the constant-time argument are gcm_multi_aesni.h's.
 */
#define AESNI_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1,avx")))
#define ak_aesni_gcm_multi ak_aesni_gcm_multi_avx
#include "gcm_multi_aesni.c"
