/*
 * wp_gcmsiv.c - the Wycheproof AES-GCM-SIV runner (wp_gcmsiv.h), on cJSON.
 * The schema (aead_test_schema_v1, see SOURCE.md next to the vectors):
 * testGroups[] with keySize, ivSize, tagSize (bits) and tests[] with tcId,
 * comment, hex key, iv, aad, msg, ct, tag and result.
 */
#include "wp_gcmsiv.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

/* Hex string field -> malloc'd bytes (at least 1 byte allocated). */
static int get_hex(const cJSON *t, const char *name, uint8_t **out, size_t *len)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(t, name);
    *out = NULL;
    *len = 0;
    if (!cJSON_IsString(f) || !f->valuestring)
        return 0;
    size_t n = strlen(f->valuestring);
    if (n % 2)
        return 0;
    uint8_t *b = malloc(n / 2 + 1);
    if (!b)
        return 0;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(f->valuestring + 2 * i, "%2x", &v) != 1) {
            free(b);
            return 0;
        }
        b[i] = (uint8_t)v;
    }
    *out = b;
    *len = n / 2;
    return 1;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* One test; returns NULL if it passed, else why it failed. */
static const char *one_test(const cJSON *jt, const char *backend)
{
    static aeskit_gcmsiv_key k;
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(jt, "result");
    if (!cJSON_IsString(res) || !res->valuestring)
        return "no result";
    int valid = !strcmp(res->valuestring, "valid");
    int invalid = !strcmp(res->valuestring, "invalid");
    uint8_t *key, *iv, *aad, *msg, *ct, *tag;
    size_t kl, nl, al, ml, cl, tl;
    const char *why = NULL;
    if (!get_hex(jt, "key", &key, &kl) + !get_hex(jt, "iv", &iv, &nl) +
        !get_hex(jt, "aad", &aad, &al) + !get_hex(jt, "msg", &msg, &ml) +
        !get_hex(jt, "ct", &ct, &cl) + !get_hex(jt, "tag", &tag, &tl)) {
        why = "malformed hex field";
        goto done;
    }
    if (aeskit_gcmsiv_init_backend(&k, key, kl, backend) != AESKIT_OK) {
        if (!invalid && kl != 16 && kl != 32)
            why = "init refused the key";
        else if (valid)
            why = "init refused a valid key";
        goto done;
    }
    uint8_t *out = malloc(ml + cl + 1);
    uint8_t t16[16];
    if (!out) {
        why = "out of memory";
        goto done;
    }
    if (valid) {
        int st = aeskit_gcmsiv_seal(&k, out, t16, 16, msg, ml, iv, nl, aad, al);
        if (st != AESKIT_OK || tl != 16 || cl != ml || memcmp(out, ct, cl) || memcmp(t16, tag, 16))
            why = "seal does not give ct and tag";
        else if (aeskit_gcmsiv_open(&k, out, ct, cl, tag, tl, iv, nl, aad, al) != AESKIT_OK ||
                 memcmp(out, msg, ml))
            why = "open does not give msg";
        else {
            memcpy(out, ct, cl);
            if (aeskit_gcmsiv_open(&k, out, out, cl, tag, tl, iv, nl, aad, al) != AESKIT_OK ||
                memcmp(out, msg, ml))
                why = "in-place open does not give msg";
        }
    } else {
        memset(out, 0xa5, cl + 1);
        int st = aeskit_gcmsiv_open(&k, out, ct, cl, tag, tl, iv, nl, aad, al);
        if (invalid && st == AESKIT_OK)
            why = "open accepted an invalid test";
        else if (st == AESKIT_ERR_AUTH && !all_zero(out, cl))
            why = "failed open left output";
    }
    free(out);
    aeskit_gcmsiv_wipe(&k);
done:
    free(key), free(iv), free(aad), free(msg), free(ct), free(tag);
    return why;
}

int aeskit_wp_gcmsiv_run(const char *json, size_t len, const char *backend, FILE *log,
                         unsigned long *passed, unsigned long *failed)
{
    *passed = *failed = 0;
    cJSON *root = json ? cJSON_ParseWithLength(json, len) : NULL;
    const cJSON *alg = root ? cJSON_GetObjectItemCaseSensitive(root, "algorithm") : NULL;
    const cJSON *groups = root ? cJSON_GetObjectItemCaseSensitive(root, "testGroups") : NULL;
    if (!cJSON_IsString(alg) || !alg->valuestring || strcmp(alg->valuestring, "AES-GCM-SIV") ||
        !cJSON_IsArray(groups)) {
        if (log)
            fprintf(log, "  not a Wycheproof AES-GCM-SIV file\n");
        cJSON_Delete(root);
        *failed = 1;
        return 2;
    }
    const cJSON *g, *jt;
    cJSON_ArrayForEach(g, groups)
    {
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests");
        cJSON_ArrayForEach(jt, tests)
        {
            const char *why = one_test(jt, backend);
            if (!why) {
                (*passed)++;
                continue;
            }
            (*failed)++;
            if (log) {
                const cJSON *id = cJSON_GetObjectItemCaseSensitive(jt, "tcId");
                fprintf(log, "  FAIL tcId %d: %s\n", cJSON_IsNumber(id) ? id->valueint : -1, why);
            }
        }
    }
    cJSON_Delete(root);
    return *failed ? 1 : 0;
}
