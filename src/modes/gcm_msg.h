/*
 * gcm_msg.h - what the one-shot GCM calls (gcm.c) and the batch calls
 * (batch_gcm.c) share inline: the descriptor of a checked message and the
 * checks of the common case (12-byte IV, 16-byte tag).  Portable C11.
 * The protocol around them (J0, tags, failed opens) is gcm.c's.
 */
#ifndef AESKIT_GCM_MSG_H
#define AESKIT_GCM_MSG_H

#include "modes.h"

/* The descriptor of one checked message; tag and j0 are the caller's to
 * fill. */
static inline void gcm_msg_init(ak_gcm_msg *m, const ak_gcm_key *g, uint32_t flags,
                                const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                size_t len, uint8_t *out)
{
    m->aes = &g->aes;
    m->gh = &g->gh;
    m->in = in;
    m->out = out;
    m->len = len;
    m->aad = aad;
    m->aad_len = aad_len;
    m->flags = flags;
}

/* The common case.
 *
 * A 12-byte IV and a 16-byte tag: the checks of gcm_checks (gcm.c) in the
 * order that lets a valid call leave soonest, then the descriptor and the
 * backend's kernel, in a small function instead of the general path's large
 * stack frame.  The test branches (a branch-free form is a chain of setcc and
 * or).  Anything the test rejects goes to the general path,
 * which checks again and names the exact error; it is called with the
 * constants 12 and 16 once those are known, so iv_len and tag_len need no
 * register during the remaining checks.  Lengths of 2^32 bytes or more take
 * the general path too: below that no sum of two lengths wraps.
 *
 * Non-empty [a, a+al) and [b, b+bl) meet iff a - b lies in (-al, bl),
 * that is iff (a - b + al - 1) mod 2^n < al + bl - 1: for ranges that do not
 * wrap the address space (and lengths whose sum does not) this is
 * mo_any_overlap in one compare. */
static inline int ranges_meet(const void *a, size_t al, const void *b, size_t bl)
{
    return (uintptr_t)a - (uintptr_t)b + (al - 1) < al + (bl - 1);
}

/* Which register entry a route may take (gcm_fast_route's reg). */
enum { GCM_REG_NONE = 0, GCM_REG_SEAL = 1, GCM_REG_OPEN = 2 };

/* The checks of gcm_checks for iv_len == 12 and tag_len == 16 (0: the
 * general path), then the route of a message that passes them: 2 for a
 * message the backend's register entry takes (reg, a constant: the
 * one-shot seal's gcm_seal12 for 1 <= len <= gcm_reg_max, the one-shot
 * open's gcm_open12 for 1 <= len <= gcm_open_reg_max, aad_len <= 16 for
 * both; src/internal.h), else 1.  The length test comes after the test of
 * len == 0, which leaves one compare for it. */
static inline int gcm_fast_route(const ak_gcm_key *g, const uint8_t *iv, const uint8_t *aad,
                                 size_t aad_len, const uint8_t *in, size_t len,
                                 const uint8_t *out, const uint8_t *tag, const int reg)
{
    if (!g || !ak_mo_ready(&g->aes, AK_MAGIC_GCM) || !iv || !tag)
        return 0;
    if ((((uint64_t)len | (uint64_t)aad_len) >> 32) != 0 || (!aad && aad_len))
        return 0;
    if (len == 0) /* GMAC: nothing is written but the tag */
        return 1;
    if (!in || !out || (in != out && ranges_meet(in, len, out, len)))
        return 0;
    if (ranges_meet(tag, 16, out, len) || ranges_meet(iv, 12, out, len))
        return 0;
    if (aad_len && ranges_meet(aad, aad_len, out, len))
        return 0;
    return reg && len <= (reg == GCM_REG_SEAL ? g->aes.be->gcm_reg_max : g->aes.be->gcm_open_reg_max) &&
                   aad_len <= 16
               ? 2
               : 1;
}

/* The checks alone (the batch calls). */
static inline int gcm_fast_args(const ak_gcm_key *g, const uint8_t *iv, const uint8_t *aad,
                                size_t aad_len, const uint8_t *in, size_t len, const uint8_t *out,
                                const uint8_t *tag)
{
    return gcm_fast_route(g, iv, aad, aad_len, in, len, out, tag, GCM_REG_NONE) != 0;
}

/* The one-shot seal's route. */
static inline int gcm_seal_route(const ak_gcm_key *g, const uint8_t *iv, const uint8_t *aad,
                                 size_t aad_len, const uint8_t *in, size_t len,
                                 const uint8_t *out, const uint8_t *tag)
{
    return gcm_fast_route(g, iv, aad, aad_len, in, len, out, tag, GCM_REG_SEAL);
}

/* The one-shot open's route. */
static inline int gcm_open_route(const ak_gcm_key *g, const uint8_t *iv, const uint8_t *aad,
                                 size_t aad_len, const uint8_t *in, size_t len,
                                 const uint8_t *out, const uint8_t *tag)
{
    return gcm_fast_route(g, iv, aad, aad_len, in, len, out, tag, GCM_REG_OPEN);
}

/* IV || 0^32 in a register (J0 less its counter word, SP 800-38D byte
 * order), for the gcm_seal12 and gcm_open12 hooks. */
static inline ak_v2u64 gcm_ivz(const uint8_t iv[12])
{
    uint64_t w0;
    uint32_t w2;
    memcpy(&w0, iv, 8);
    memcpy(&w2, iv + 8, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (ak_v2u64){w0, (uint64_t)w2 << 32};
#else
    return (ak_v2u64){w0, w2};
#endif
}

#endif /* AESKIT_GCM_MSG_H */
