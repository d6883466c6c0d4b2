/*
 * drive_internal.h - what the drive_<mode>.c files share: the per-call
 * context (case, report, seeded RNG, guarded scratch buffers), counted
 * checks, split patterns and bit flips.  Only the drivers include it.
 */
#ifndef AESKIT_TOOLS_DRIVE_INTERNAL_H
#define AESKIT_TOOLS_DRIVE_INTERNAL_H

#include <string.h>

#include "drive.h"

/* Bytes of 0xa5 after each scratch buffer; a driver that finds one changed
 * reports a write past the output. */
#define AKD_GUARD 16

typedef struct akd_ctx {
    const akd_case *c;
    akd_report *r;
    unsigned long failures_at_start;
    uint64_t rng;
    uint8_t *out, *out2; /* cap bytes each (room for 3 bytes of offset), then
                            AKD_GUARD guard bytes */
    size_t cap;
} akd_ctx;

/* Sets up x for one case (scratch of max(msg, ct) + 16 bytes).  Returns 0,
 * or -1 (a failure recorded) when out of memory. */
int akd_begin(akd_ctx *x, const akd_case *c, akd_report *r);
/* Checks the guard bytes, frees the scratch; returns the failures this
 * call recorded. */
int akd_end(akd_ctx *x);

/* One check: counted; a failure is counted and the first one described
 * (printf format).  Returns ok. */
int akd_check(akd_ctx *x, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* st == want, the status named in the description when it is not. */
int akd_status(akd_ctx *x, aeskit_status st, aeskit_status want, const char *what);

/* Split patterns: steps 1, 7, 15, 16, 17, 255, random short (0..40), random
 * long (1..600). */
#define AKD_NPATTERNS 8
/* 1 if pattern p is not run on total bytes (steps under 16 past
 * AKD_SMALL_STEP_MAX). */
int akd_pattern_skipped(size_t p, size_t total);
/* The next chunk of pattern p, at most left. */
size_t akd_chunk(akd_ctx *x, size_t p, size_t left);
/* A step name for failure messages ("random" for the random patterns). */
const char *akd_pattern_name(size_t p);

/* Uniform-ish in [0, bound) (0 if bound is 0). */
size_t akd_rand(akd_ctx *x, size_t bound);
/* The bits of an n-byte field a tamper check flips, in a loop
 *   for (size_t b = akd_bit_first(x, n); b < 8 * n; b = akd_bit_next(x, b, n))
 * one seeded random bit (tamper_stride 0) or every tamper_stride-th. */
size_t akd_bit_first(akd_ctx *x, size_t n);
size_t akd_bit_next(akd_ctx *x, size_t bit, size_t n);
static inline void akd_bit_flip(uint8_t *p, size_t bit)
{
    p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}
/* Seeded buffer layout for one streaming run: in at x->out2 + 0..3, out at
 * x->out + 0..3 or (one time in four) equal to in; in holds a copy of src. */
void akd_layout(akd_ctx *x, const uint8_t *src, size_t n, uint8_t **in, uint8_t **out);

static inline int akd_eq(const uint8_t *a, const uint8_t *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}
static inline void akd_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n)
        memcpy(dst, src, n);
}
static inline int akd_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* A valid case's init refused: a failure; an invalid or acceptable one:
 * refused by parameters, which passes.  Returns 1 (stop the case). */
int akd_init_refused(akd_ctx *x, aeskit_status st, const char *what);
/* The key reports the requested backend (when one was requested). */
void akd_check_backend(akd_ctx *x, const char *reported);
/* Sets up k from c's key on c's backend (c may be a case derived from
 * x's) and checks the backend it reports; 0 if it is set up, -1 if init
 * refused it (recorded as a failure for a valid case, as the expected
 * refusal otherwise). */
int akd_aes_key(akd_ctx *x, const akd_case *c, aeskit_aes_key *k);
/* akd_begin, then the shape of a 16-byte-IV stream-cipher case (CFB, OFB,
 * CBC-CTS: ct as long as msg), then akd_aes_key: 0 to go on, -1 when the
 * case is done (its outcome already checked); either way akd_end follows. */
int akd_begin_iv16(akd_ctx *x, const akd_case *c, akd_report *r, aeskit_aes_key *k);

/* ---- one-shot AEADs (drive_aead.c): GCM, CCM, RFC 4106, RFC 4309 -------- */

/* How to call one AEAD: seal msg (c->msg_len bytes) and open ct
 * (c->ct_len bytes) under c's IV and tag length, with the AAD given (the
 * tamper checks pass a flipped copy). */
typedef struct akd_aead_ops {
    const char *name;
    aeskit_status (*seal)(const void *k, const akd_case *c, const uint8_t *aad, uint8_t *out,
                          uint8_t *tag, const uint8_t *in);
    aeskit_status (*open)(const void *k, const akd_case *c, const uint8_t *aad, uint8_t *out,
                          const uint8_t *in, const uint8_t *tag);
} akd_aead_ops;

/* A valid or acceptable case: one-shot both ways, in-place both ways, and a
 * flipped bit of tag, ciphertext and AAD each refused with the output
 * zeroed (out-of-place) or restored (in-place).  Returns 1 when an
 * acceptable case was refused (it passes; nothing more to check), else 0. */
int akd_aead_valid(akd_ctx *x, const akd_case *c, const akd_aead_ops *ops, const void *k);
/* An invalid case: refused by its parameters at seal, or open refuses it
 * (and, refusing the tag, zeroes the output). */
void akd_aead_invalid(akd_ctx *x, const akd_case *c, const akd_aead_ops *ops, const void *k);

#endif
