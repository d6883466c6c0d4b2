/*
 * fuzz_common.h - what the libFuzzer targets share: input decoding, and
 * running a case through the mode driver (tools/vectors/drive.h) under
 * every backend.  The expected answers come from the one OpenSSL oracle
 * (tests/common/oracle.h).  The fuzzer's bytes are read front to back;
 * running out of input yields zeros, so every input is a valid (if short)
 * test case.
 */
#ifndef AESKIT_FUZZ_COMMON_H
#define AESKIT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "drive.h"
#include "oracle.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_reader;

static inline uint8_t fz_byte(fz_reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static inline size_t fz_take(fz_reader *r, uint8_t *out, size_t want)
{
    size_t n = want < r->n ? want : r->n;
    memcpy(out, r->p, n);
    memset(out + n, 0, want - n);
    r->p += n;
    r->n -= n;
    return want;
}

/* Aborts (a crash is what libFuzzer reports) with a message. */
#define FZ_ASSERT(cond, ...)                                                      \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz assertion failed at %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* Runs the mode driver (tools/vectors/drive.h) on c; aborts, saying why,
 * if a check failed. */
static inline void fz_drive(const char *mode, const akd_case *c)
{
    akd_report r;
    memset(&r, 0, sizeof r);
    int rc = akd_run(mode, c, &r);
    FZ_ASSERT(rc == 0, "%s driver [%s]: %s (%lu of %lu checks failed; key %zu iv %zu aad %zu "
              "msg %zu ct %zu tag %zu)", mode, c->backend ? c->backend : "default",
              rc < 0 ? "no such driver" : r.why, r.failures, r.checks, c->key_len, c->iv_len,
              c->aad_len, c->msg_len, c->ct_len, c->tag_len);
}

/* Calls each(name) for every backend this CPU can run. */
static inline void fz_each_backend(void (*each)(const char *name, void *arg), void *arg)
{
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get %zu", b);
        if (bi.available)
            each(bi.name, arg);
    }
}

#endif
