/*
 * ct_msan_mark.h - the marking macros of tests/trust/ct_valgrind.c for the
 * MemorySanitizer constant-time check (issue 18; docs/constant-time.md).
 *
 * Built as the target ct_msan, with clang -fsanitize=memory and
 * -DAESKIT_MSAN_CT=ON: the whole library is instrumented, secrets (keys,
 * plaintexts, tags) are poisoned as if freshly allocated, and MSan reports
 * every conditional branch, memory address and libc argument computed from
 * them.  Inside the library, AK_DECLASSIFY unpoisons the verdicts that are
 * public by design (src/internal.h), and src/ct_msan.h gives the x86
 * intrinsics that MSan does not model a sound shadow.
 *
 * Reports are recoverable (-fsanitize-recover=memory, MSAN_OPTIONS=
 * halt_on_error=0), so one run lists every site; scripts/check.d/
 * 55-ct-msan.sh counts "WARNING: MemorySanitizer" lines and requires 0 for
 * the check and exactly the planted number for `--self-test BACKEND`.
 *
 * STILL_SECRET(p, n) is what memcheck cannot do cheaply: it asserts that every
 * byte of an output computed from a secret is still poisoned.  A kernel
 * whose instructions MSan dropped the shadow of (an unmodelled intrinsic, an
 * asm block, a store MSan does not see) would make its outputs look public,
 * and everything downstream of it silently unchecked; this catches that.
 * The test queries the shadow (__msan_test_shadow), never the data, so it
 * is not itself a use of a secret.
 */
#ifndef AESKIT_CT_MSAN_MARK_H
#define AESKIT_CT_MSAN_MARK_H

#include <sanitizer/msan_interface.h>

#define CT_TOOL "MemorySanitizer"
#define CT_TOOL_ACTIVE 1
/* Two passes: the message secret, then public (the key alone). */
#define CT_PASSES 2
#define SECRET(p, n) __msan_allocated_memory((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))

static unsigned long ct_secret_bytes, ct_lost_bytes;

static void ct_still_secret(const void *p, size_t n, int line)
{
    size_t lost = 0;
    for (size_t i = 0; i < n; i++)
        lost += __msan_test_shadow((const char *)p + i, 1) == -1;
    ct_secret_bytes += n;
    if (lost && ct_lost_bytes < 10 * n)
        fprintf(stderr, "ct_msan: line %d: %zu of %zu output bytes computed from a secret "
                "are no longer marked secret\n", line, lost, n);
    ct_lost_bytes += lost;
}
#define STILL_SECRET(p, n) ct_still_secret((p), (n), __LINE__)

static int ct_still_secret_summary(void)
{
    printf("ct_msan: %lu output bytes computed from secrets checked still secret, %lu not\n",
           ct_secret_bytes, ct_lost_bytes);
    return ct_lost_bytes != 0;
}
#define CT_STILL_SECRET_SUMMARY ct_still_secret_summary

#endif
