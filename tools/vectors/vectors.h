/*
 * vectors.h - the Wycheproof JSON runner behind `aeskit vectors`.
 *
 * aeskit_vectors_run_buffer() takes a whole JSON file in memory, so a fuzz
 * target can feed it arbitrary bytes without files: it validates everything
 * it reads (JSON shape, hex, sizes) and never crashes on bad input.
 */
#ifndef AESKIT_TOOLS_VECTORS_H
#define AESKIT_TOOLS_VECTORS_H

#include <stddef.h>
#include <stdio.h>

enum {
    AESKIT_VECTORS_OK = 0,       /* every test passed (or was skipped) */
    AESKIT_VECTORS_FAILED = 1,   /* at least one test failed */
    AESKIT_VECTORS_BAD_FILE = 2, /* not a Wycheproof file we can read (counted as one failure) */
    AESKIT_VECTORS_NO_JSON = 3   /* built without cJSON: JSON files are refused */
};

typedef struct aeskit_vectors_result {
    unsigned long passed, failed, skipped; /* tests */
    char algorithm[48];                    /* the file's "algorithm", "" if none */
    int supported;                         /* 0: unknown algorithm, its tests skipped */
} aeskit_vectors_result;

/* Runs the Wycheproof tests in json[0..len) under backend (NULL: the
 * library default).  Failing tests are described on log (NULL: quiet).
 * res is overwritten.  Returns one of the AESKIT_VECTORS_* codes. */
int aeskit_vectors_run_buffer(const char *json, size_t len, const char *backend, FILE *log,
                              aeskit_vectors_result *res);

/* 1 if this build can read JSON (cJSON was found at configure time). */
int aeskit_vectors_have_json(void);

#endif
