/*
 * th_drive.h - a test binary's bridge to the mode driver
 * (tools/vectors/drive.h): runs one case, adds the driver's checks and
 * failures to the binary's count (harness.h), reports the first failure
 * with the caller's description of the case.
 */
#ifndef AESKIT_TEST_TH_DRIVE_H
#define AESKIT_TEST_TH_DRIVE_H

#include <stdarg.h>

#include "drive.h"
#include "harness.h"

/* Runs driver mode on c (a zero seed is replaced by one from the test's
 * RNG); returns 1 if every check passed. */
TH_FN __attribute__((format(printf, 3, 4))) int th_drive(const char *mode, akd_case *c,
                                                         const char *fmt, ...)
{
    akd_report r;
    memset(&r, 0, sizeof r);
    if (!c->seed)
        c->seed = th_rand64() | 1;
    int rc = akd_run(mode, c, &r);
    if (rc < 0) {
        r.checks = r.failures = 1;
        snprintf(r.why, sizeof r.why, "no mode driver named %s", mode);
    }
    th_checks += r.checks;
    th_failures += r.failures;
    if (r.failures && th_failures - r.failures < 20) {
        va_list ap;
        fprintf(stderr, "FAIL %s driver: %s (%lu of %lu checks failed; ", mode, r.why, r.failures,
                r.checks);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, ", seed %llx)\n", (unsigned long long)c->seed);
    }
    return r.failures == 0;
}

#endif
