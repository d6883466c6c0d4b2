/*
 * test_wycheproof_modes2.c - the five Wycheproof files of the SIV/EAX/KW/
 * KWP modes through `aeskit vectors`' runner (aeskit_vectors_run_buffer,
 * tools/vectors/vectors.h: the mode drivers drive_siv.c and drive_kw.c),
 * under the backend named by AESKIT_BACKEND: every test must pass, and the
 * file must name the algorithm the runner expects.  The folder is argv[1]
 * (ctest passes the shared folder beside the source tree) or
 * AESKIT_WYCHEPROOF_DIR; the test says why and exits 77 when it is absent
 * or this build has no cJSON.
 */
#include <sys/stat.h>

#include "harness.h"
#include "vectors.h"

static const char *const files[5][2] = {
    {"aes_eax_test.json", "AES-EAX"},
    {"aes_siv_cmac_test.json", "AES-SIV-CMAC"},
    {"aead_aes_siv_cmac_test.json", "AEAD-AES-SIV-CMAC"},
    {"aes_wrap_test.json", "AES-WRAP"},
    {"aes_kwp_test.json", "AES-KWP"},
};

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
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        size_t len = 0;
        char *json = slurp(path, &len);
        TH_CHECK(json != NULL, "cannot read %s", path);
        if (!json)
            continue;
        aeskit_vectors_result res;
        int rc = aeskit_vectors_run_buffer(json, len, be, stderr, &res);
        free(json);
        if (rc == AESKIT_VECTORS_NO_JSON) {
            printf("SKIP: this build has no cJSON (none found, or a MemorySanitizer build, where an\n"
                   "uninstrumented cJSON cannot be used), so it cannot read the Wycheproof JSON files\n");
            return 77;
        }
        TH_CHECK(rc == AESKIT_VECTORS_OK, "%s: rc %d, %lu passed, %lu failed", files[i][0], rc,
                 res.passed, res.failed);
        TH_CHECK(res.supported && !strcmp(res.algorithm, files[i][1]),
                 "%s: algorithm \"%s\" (want %s), supported %d", files[i][0], res.algorithm,
                 files[i][1], res.supported);
        TH_CHECK(res.passed > 0 && res.skipped == 0, "%s: %lu tests passed, %lu skipped",
                 files[i][0], res.passed, res.skipped);
        printf("%s (%s): %lu passed, %lu failed\n", files[i][0], res.algorithm, res.passed,
               res.failed);
        passed += res.passed;
        failed += res.failed;
    }
    printf("wycheproof_modes2: %lu passed, %lu failed\n", passed, failed);
    return th_finish("wycheproof_modes2");
}
