/* test_smoke.c - every algorithm, encrypt and decrypt/verify, one-shot and
 * streamed, tiny sizes, --seconds 0.001, every peer compiled in: the run
 * completes, and no implementation disagrees with aeskit or fails (a
 * disagreement is either an aeskit bug or a bug in our peer glue).
 * Cells a library cannot do ("unsupported") are fine.  Speed is not
 * asserted. */
#ifdef AKS_NO_CJSON
#include <stdio.h>
int main(void)
{
    printf("SKIP: cJSON (libcjson-dev) was not found at build time\n");
    return 77;
}
#else
#include <cjson/cJSON.h>

#include "harness.h"

static void smoke(const char *line)
{
    char *out, *err;
    int rc = run_line(line, NULL, 0, &out, &err);
    CHECK(rc == 0, "'%s' exit %d: %s", line, rc, err);
    cJSON *root = cJSON_Parse(out);
    CHECK(root != NULL, "'%s': JSON does not parse", line);
    if (root) {
        int timed = cJSON_GetArraySize(cJSON_GetObjectItem(root, "results"));
        CHECK(timed > 0, "'%s': nothing timed", line);
        cJSON *x;
        int aeskit_timed = 0;
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(root, "results"))
        {
            const char *impl = cJSON_GetObjectItem(x, "impl")->valuestring;
            aeskit_timed += !strcmp(impl, "aeskit");
        }
        CHECK(aeskit_timed > 0, "'%s': aeskit itself was never timed", line);
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(root, "not_timed"))
        {
            const char *st = cJSON_GetObjectItem(x, "status")->valuestring;
            CHECK(!strcmp(st, "unsupported"), "'%s': %s %s %s %s %d B update %d: %s: %s", line,
                  cJSON_GetObjectItem(x, "impl")->valuestring,
                  cJSON_GetObjectItem(x, "backend")->valuestring,
                  cJSON_GetObjectItem(x, "alg")->valuestring,
                  cJSON_GetObjectItem(x, "op")->valuestring,
                  cJSON_GetObjectItem(x, "size")->valueint,
                  cJSON_GetObjectItem(x, "update")->valueint, st,
                  cJSON_GetObjectItem(x, "note")->valuestring);
        }
        printf("%s: %d measurements\n", line, timed);
        cJSON_Delete(root);
    }
    free(out);
    free(err);
}

int main(void)
{
    smoke("--alg all --sizes 16,64,100 --seconds 0.001 --format json --quiet");
    smoke("--alg all --sizes 16,64,100 --seconds 0.001 --format json --quiet --decrypt");
    smoke("--alg all --sizes 64,100 --update 16,48 --seconds 0.001 --format json --quiet");
    smoke("--alg all --sizes 64 --update 32 --seconds 0.001 --format json --quiet --decrypt");
    /* pieces that split blocks: each library's partial-block buffering */
    smoke("--alg gcm,aes-256-gmac,aes-192-cmac,aes-256-ctr --sizes 100 --update 7 --seconds 0.001 "
          "--format json --quiet");
    smoke("--alg gcm,aes-256-gmac,aes-192-cmac --sizes 100 --update 7 --seconds 0.001 "
          "--format json --quiet --decrypt");
    /* --batch: aeskit's batch calls (5 messages per call, so the timed
     * counts end in a short call) and ipsec-mb-multibuf's N jobs in flight */
    smoke("--alg all --sizes 16,64,100 --batch 5 --seconds 0.001 --format json --quiet");
    smoke("--alg all --sizes 16,64,100 --batch 5 --seconds 0.001 --format json --quiet --decrypt");
    return finish("test_smoke");
}
#endif
