/*
 * test_kat.c - the known-answer tests (tools/vectors/kat_vectors.c, through
 * the mode driver tools/vectors/drive.h) under the backend named by
 * AESKIT_BACKEND (ctest registers one run per backend).  A backend
 * this CPU cannot run exits 77, which ctest reports as skipped.
 */
#include <stdio.h>
#include <stdlib.h>

#include "aeskit.h"
#include "kat_vectors.h"

int main(void)
{
    const char *be = getenv("AESKIT_BACKEND");
    if (be && !*be)
        be = NULL;
    if (be) {
        int st = aeskit_backend_check(be);
        if (st == AESKIT_ERR_BACKEND_UNKNOWN) {
            /* a name no build knows is a mistake in the registration, not a
             * CPU that lacks something: fail loudly */
            printf("FAIL: no backend named %s in this build\n", be);
            return 1;
        }
        if (st != AESKIT_OK) {
            printf("SKIP: backend %s cannot run here: %s (CPU features: %s)\n", be,
                   aeskit_strerror(st), aeskit_cpu_features());
            return 77;
        }
    }
    unsigned passed = 0, failed = 0;
    unsigned long checks = 0;
    int rc = kat_run_all(be, stderr, &passed, &failed, &checks);
    if (rc == 77) {
        printf("SKIP: backend %s cannot run here\n", be);
        return 77;
    }
    printf("known-answer tests [%s]: %zu vectors, %lu checks\n",
           be ? be : aeskit_backend_default(), kat_vector_count, checks);
    printf("%u passed, %u failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
