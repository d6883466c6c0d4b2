/*
 * batch_common.h - what the batch tests share: arenas that hold every
 * message's buffers, a second copy of the output arenas for the reference
 * (the same messages done one by one with the single-message calls), and
 * the random shapes of a batch.
 *
 * Outputs (message outputs, tags, chaining values) are carved from the
 * output arena A in increasing order with random gaps; the reference runs
 * on arena R, a byte-for-byte copy of A made before the batch call, with
 * every output pointer moved by R - A.  After both, A and R must be equal
 * byte for byte, gaps included (so an argument error that writes anything,
 * or a message that writes past its end, shows), and every status must
 * equal the single call's.
 */
#ifndef AESKIT_BATCH_COMMON_H
#define AESKIT_BATCH_COMMON_H

#include "harness.h"

#define BT_ARENA (1u << 21)

static uint8_t bt_A[BT_ARENA], bt_R[BT_ARENA]; /* outputs: batch, reference */
static uint8_t bt_I[BT_ARENA];                 /* inputs */
static size_t bt_a_used, bt_i_used;

static void bt_reset(void) { bt_a_used = bt_i_used = 0; }

/* n bytes of output arena (a random gap of 0..40 bytes before it), or NULL
 * if full; the caller fills it if it is an input too (in place). */
static uint8_t *bt_out(size_t n)
{
    size_t gap = th_randn(41);
    if (bt_a_used + gap + n + 64 > BT_ARENA)
        return NULL;
    uint8_t *p = bt_A + bt_a_used + gap;
    th_fill(bt_A + bt_a_used, gap + n + 64); /* canary: gaps must survive */
    bt_a_used += gap + n;
    return p;
}

/* n random bytes of input arena. */
static const uint8_t *bt_in(size_t n)
{
    size_t gap = th_randn(17);
    if (bt_i_used + gap + n > BT_ARENA)
        return NULL;
    uint8_t *p = bt_I + bt_i_used + gap;
    th_fill(p, n);
    bt_i_used += gap + n;
    return p;
}

/* Copies the output arena for the reference; call right before the batch. */
static void bt_snapshot(void) { memcpy(bt_R, bt_A, bt_a_used + 64); }

/* An output pointer of the batch moved to the reference arena (inputs and
 * NULL stay as they are). */
static void *bt_ref(const void *p)
{
    const uint8_t *q = (const uint8_t *)p;
    if (q >= bt_A && q < bt_A + BT_ARENA)
        return bt_R + (q - bt_A);
    return (void *)(uintptr_t)q;
}

/* The two output arenas equal, gaps included. */
static void bt_compare(const char *what, size_t n)
{
    TH_CHECK_MEM(bt_A, bt_R, bt_a_used + 64, "%s: batch of %zu differs from the single calls", what, n);
}

/* A message length: mostly 0..4 KiB, with a tail of larger ones. */
static size_t bt_len(void)
{
    size_t r = th_randn(100);
    if (r < 10)
        return th_randn(17);
    if (r < 95)
        return th_randn(4097);
    return 4097 + th_randn(60000);
}

/* The batch's message count: 0..100. */
static size_t bt_count(void) { return th_randn(101); }

/* Shuffles an array of n elements of size sz (Fisher-Yates), so the
 * outputs are no longer in increasing order in the array. */
static void bt_shuffle(void *a, size_t n, size_t sz)
{
    uint8_t tmp[256], *p = (uint8_t *)a;
    if (sz > sizeof tmp)
        return;
    for (size_t i = n; i > 1; i--) {
        size_t j = th_randn(i);
        memcpy(tmp, p + (i - 1) * sz, sz);
        memcpy(p + (i - 1) * sz, p + j * sz, sz);
        memcpy(p + j * sz, tmp, sz);
    }
}

#endif
