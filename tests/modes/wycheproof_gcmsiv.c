/*
 * wycheproof_gcmsiv.c - runs Wycheproof's aes_gcm_siv_test.json through
 * `aeskit vectors`' runner (aeskit_vectors_run_buffer, tools/vectors; the
 * mode driver drive_siv.c) under the backend named by AESKIT_BACKEND: every
 * test must pass and the file must be AES-GCM-SIV.  The vectors live outside
 * the repository (../shared/vectors/wycheproof/ from the source tree, or
 * $AESKIT_WYCHEPROOF_DIR): where they are absent, or the build cannot read
 * JSON, the test says so and exits 77 (skipped), never 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vectors.h"

#ifndef AESKIT_WYCHEPROOF_DEFAULT_DIR
#define AESKIT_WYCHEPROOF_DEFAULT_DIR "../shared/vectors/wycheproof"
#endif

int main(void)
{
    const char *be = th_backend();
    const char *dir = getenv("AESKIT_WYCHEPROOF_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/aes_gcm_siv_test.json",
             dir && *dir ? dir : AESKIT_WYCHEPROOF_DEFAULT_DIR);
    if (!aeskit_vectors_have_json()) {
        printf("SKIP: this build has no cJSON (none found, a cross or a MemorySanitizer build), "
               "so it cannot read %s\n", path);
        return 77;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("SKIP: %s not found (set AESKIT_WYCHEPROOF_DIR to the Wycheproof vectors)\n", path);
        return 77;
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    int too_big = !feof(f);
    fclose(f);
    if (too_big) {
        printf("FAIL: %s is larger than %zu bytes\n", path, sizeof buf);
        return 1;
    }
    aeskit_vectors_result res;
    int rc = aeskit_vectors_run_buffer(buf, n, be, stderr, &res);
    printf("wycheproof_gcmsiv [%s]: %s: %s, %lu tests passed, %lu failed, %lu skipped\n",
           be ? be : aeskit_backend_default(), path, res.algorithm, res.passed, res.failed,
           res.skipped);
    TH_CHECK(rc == AESKIT_VECTORS_OK, "runner returned %d", rc);
    TH_CHECK(res.supported && !strcmp(res.algorithm, "AES-GCM-SIV"), "algorithm \"%s\"",
             res.algorithm);
    TH_CHECK(res.passed > 0 && res.skipped == 0, "%lu passed, %lu skipped", res.passed,
             res.skipped);
    return th_finish("wycheproof_gcmsiv");
}
