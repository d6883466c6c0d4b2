/*
 * test_wycheproof_modes2.c - the five Wycheproof files of the SIV/EAX/KW/
 * KWP modes through aeskit_modes2_vectors_run_buffer, under the backend
 * named by AESKIT_BACKEND: every test must pass.  The folder is argv[1]
 * (ctest passes the shared folder beside the source tree) or
 * AESKIT_WYCHEPROOF_DIR; the test says why and exits 77 when it is absent
 * or this build has no cJSON.
 */
#include <sys/stat.h>

#include "harness.h"
#include "wycheproof_modes2.h"

static const char *files[5] = {"aes_eax_test.json", "aes_siv_cmac_test.json",
                               "aead_aes_siv_cmac_test.json", "aes_wrap_test.json",
                               "aes_kwp_test.json"};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        char *nb = realloc(b, cap *= 2);
        if (!nb)
            free(b);
        b = nb;
    }
    fclose(f);
    *len = n;
    return b;
}

int main(int argc, char **argv)
{
    const char *be = th_backend();
    const char *env = getenv("AESKIT_WYCHEPROOF_DIR");
    const char *dir = env && *env ? env : argc > 1 ? argv[1] : NULL;
    struct stat sb;
    if (!dir || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        printf("SKIP: no Wycheproof vectors: %s does not exist (the shared/vectors/wycheproof "
               "folder beside the source tree, or AESKIT_WYCHEPROOF_DIR)\n",
               dir ? dir : "(no folder given)");
        return 77;
    }
    unsigned long passed = 0, failed = 0;
    for (int i = 0; i < 5; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        size_t len = 0;
        char *json = slurp(path, &len);
        TH_CHECK(json != NULL, "cannot read %s", path);
        if (!json)
            continue;
        aeskit_vectors_result res;
        int rc = aeskit_modes2_vectors_run_buffer(json, len, be, stderr, &res);
        free(json);
        if (rc == AESKIT_VECTORS_NO_JSON) {
            printf("SKIP: this build has no cJSON (none found, or a MemorySanitizer build, where an\n"
                   "uninstrumented cJSON cannot be used), so it cannot read the Wycheproof JSON files\n");
            return 77;
        }
        TH_CHECK(rc == AESKIT_VECTORS_OK, "%s: rc %d, %lu passed, %lu failed", files[i], rc,
                 res.passed, res.failed);
        TH_CHECK(res.passed > 0, "%s: no test ran", files[i]);
        printf("%s (%s): %lu passed, %lu failed\n", files[i], res.algorithm, res.passed,
               res.failed);
        passed += res.passed;
        failed += res.failed;
    }
    printf("wycheproof_modes2: %lu passed, %lu failed\n", passed, failed);
    return th_finish("wycheproof_modes2");
}
