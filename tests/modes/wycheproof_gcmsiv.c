/*
 * wycheproof_gcmsiv.c - runs Wycheproof's aes_gcm_siv_test.json through
 * aeskit_wp_gcmsiv_run under the backend named by AESKIT_BACKEND.  The
 * vectors live outside the repository (../shared/vectors/wycheproof/ from
 * the source tree, or $AESKIT_WYCHEPROOF_DIR): where they are absent the
 * test says so and exits 77 (skipped), never 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "wp_gcmsiv.h"

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
    unsigned long passed, failed;
    int rc = aeskit_wp_gcmsiv_run(buf, n, be, stderr, &passed, &failed);
    printf("wycheproof_gcmsiv [%s]: %s: %lu tests passed, %lu failed\n",
           be ? be : aeskit_backend_default(), path, passed, failed);
    return rc == 0 && passed > 0 ? 0 : 1;
}
