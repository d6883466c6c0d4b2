/*
 * wycheproof.c - runs Wycheproof JSON test files (C2SP/wycheproof,
 * testvectors_v1) against aeskit: AES-GCM, AES-GMAC, AES-CCM, AES-CMAC,
 * AES-XTS, AES-CBC-PKCS5, AES-CTR, AES-GCM-SIV, AES-EAX, AES-SIV-CMAC,
 * AEAD-AES-SIV-CMAC, AES-WRAP and AES-KWP.  Other algorithms are skipped
 * and named.
 *
 * Each test goes to the mode driver of its algorithm (drive.h; the table
 * wp_algs[] below says which, and which fields the schema carries), with
 * what it must do:
 *   valid      seal/encrypt to exactly ct/tag, open/decrypt back to msg,
 *              the same result streamed in every split pattern (where the
 *              mode streams) and in-place, flipped bits refused; the IPsec
 *              helpers (RFC 4106 for a 12-byte GCM IV, RFC 4309 for an
 *              11-byte CCM nonce) too.
 *   invalid    refused: a bad tag rejected (and the output wiped), or
 *              parameters the library rejects (key, IV, nonce, tag length).
 *   acceptable either way.  We run it as a valid test; if aeskit refuses it
 *              (we lean strict where the standard leaves room) it counts as
 *              passed, but if aeskit accepts it the bytes must match exactly.
 *              (The files in shared/ carry no acceptable AES tests today.)
 *
 * Everything read from the JSON is validated: a missing field, a non-string
 * where hex is expected, odd-length or non-hex strings, an IV longer than the
 * mode takes: the test fails with a reason, never a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "drive.h"
#include "vectors.h"

#ifdef AESKIT_HAVE_CJSON
#include <cJSON.h>

enum { R_VALID, R_INVALID, R_ACCEPTABLE };

struct blob {
    uint8_t *p;
    size_t n;
};

struct tcase {
    double id;
    int result;
    struct blob key, iv, aad, msg, ct, tag;
};

struct ctx {
    const char *be;
    FILE *log;
    unsigned logged;
    uint64_t seed;
    const char *why; /* first reason the current test failed */
    char whybuf[192];
};

/* ---- helpers -------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes t[name] (a hex string) into b; the buffer is never NULL and has
 * 32 spare bytes.  Returns 0, or -1 if the field is missing or bad. */
static int get_hex(const cJSON *t, const char *name, struct blob *b)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(t, name);
    if (!cJSON_IsString(f) || !f->valuestring)
        return -1;
    const char *s = f->valuestring;
    size_t h = strlen(s);
    if (h % 2)
        return -1;
    b->n = h / 2;
    b->p = malloc(b->n + 32);
    if (!b->p)
        return -1;
    for (size_t i = 0; i < b->n; i++) {
        int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        b->p[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

static int bad(struct ctx *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return 1;
}

/* ---- the algorithms: one line each ----------------------------------------- */

/* Fields a schema carries beyond key and msg (hex strings). */
enum { F_IV = 1, F_AAD = 2, F_CT = 4, F_TAG = 8 };
/* How the test's fields become a driver case. */
enum {
    ADAPT_NONE,
    ADAPT_MSG_IS_AAD,  /* MacWithIvTest: msg is authenticated only (GMAC) */
    ADAPT_PAD_TWEAK16, /* XTS: iv is the tweak, zero-padded to 16 bytes */
    ADAPT_SIV_V_IN_CT, /* DaeadTest (RFC 5297 2.6): ct is V || C, tag = V */
};

struct wp_alg {
    const char *algorithm; /* the file's "algorithm" */
    const char *driver;    /* drive.h akd_modes[] */
    unsigned fields;
    int adapt;
};

static const struct wp_alg wp_algs[] = {
    {"AES-GCM", "gcm", F_IV | F_AAD | F_CT | F_TAG, ADAPT_NONE},        /* AeadTest */
    {"AES-GMAC", "gmac", F_IV | F_TAG, ADAPT_MSG_IS_AAD},               /* MacWithIvTest */
    {"AES-CCM", "ccm", F_IV | F_AAD | F_CT | F_TAG, ADAPT_NONE},        /* AeadTest */
    {"AES-CMAC", "cmac", F_TAG, ADAPT_NONE},                            /* MacTest */
    {"AES-XTS", "xts", F_IV | F_CT, ADAPT_PAD_TWEAK16},                 /* IndCpaTest */
    {"AES-CBC-PKCS5", "cbc-pkcs7", F_IV | F_CT, ADAPT_NONE},            /* IndCpaTest */
    {"AES-CTR", "ctr", F_IV | F_CT, ADAPT_NONE}, /* IndCpaTest, iv = initial counter block */
    {"AES-GCM-SIV", "gcm-siv", F_IV | F_AAD | F_CT | F_TAG, ADAPT_NONE}, /* AeadTest */
    {"AES-EAX", "eax", F_IV | F_AAD | F_CT | F_TAG, ADAPT_NONE},         /* AeadTest */
    {"AEAD-AES-SIV-CMAC", "siv-aead", F_IV | F_AAD | F_CT | F_TAG, ADAPT_NONE}, /* AeadTest */
    {"AES-SIV-CMAC", "siv", F_AAD | F_CT, ADAPT_SIV_V_IN_CT},            /* DaeadTest */
    {"AES-WRAP", "kw", F_CT, ADAPT_NONE},                                /* KeywrapTest */
    {"AES-KWP", "kwp", F_CT, ADAPT_NONE},                                /* KeywrapTest */
};

static const struct wp_alg *alg_of(const char *name)
{
    for (size_t i = 0; i < sizeof wp_algs / sizeof wp_algs[0]; i++)
        if (!strcmp(name, wp_algs[i].algorithm))
            return &wp_algs[i];
    return NULL;
}

/* Runs one decoded test through its driver; 0 pass, 1 fail (c->why). */
static int drive_test(struct ctx *c, const struct wp_alg *a, const struct tcase *t)
{
    enum akd_expect ex = t->result == R_VALID ? AKD_VALID
                       : t->result == R_INVALID ? AKD_INVALID : AKD_ACCEPTABLE;
    akd_case k = {.backend = c->be, .key = t->key.p, .key_len = t->key.n, .iv = t->iv.p,
                  .iv_len = t->iv.n, .aad = t->aad.p, .aad_len = t->aad.n, .msg = t->msg.p,
                  .msg_len = t->msg.n, .ct = t->ct.p, .ct_len = t->ct.n, .tag = t->tag.p,
                  .tag_len = t->tag.n, .expect = ex, .seed = c->seed};
    uint8_t tweak[16] = {0};
    if (a->adapt == ADAPT_MSG_IS_AAD) {
        k.aad = t->msg.p;
        k.aad_len = t->msg.n;
        k.msg = NULL;
        k.msg_len = 0;
    } else if (a->adapt == ADAPT_PAD_TWEAK16) {
        if (t->iv.n > 16)
            return ex == AKD_VALID ? bad(c, "tweak longer than 16 bytes") : 0;
        memcpy(tweak, t->iv.p, t->iv.n);
        k.iv = tweak;
        k.iv_len = 16;
    } else if (a->adapt == ADAPT_SIV_V_IN_CT) {
        /* shorter than V: the whole ct as a short tag, which the driver
           refuses by its length (drive_siv.c) */
        size_t vl = t->ct.n < 16 ? t->ct.n : 16;
        k.tag = t->ct.p;
        k.tag_len = vl;
        k.ct = t->ct.p + vl;
        k.ct_len = t->ct.n - vl;
    }
    akd_report r;
    memset(&r, 0, sizeof r);
    int rc = akd_run(a->driver, &k, &r);
    if (rc < 0)
        return bad(c, "no mode driver for this algorithm");
    if (rc) {
        snprintf(c->whybuf, sizeof c->whybuf, "%s", r.why);
        return bad(c, c->whybuf);
    }
    return 0;
}

/* ---- the file ------------------------------------------------------------- */

static void blob_free(struct blob *b)
{
    free(b->p);
    b->p = NULL;
    b->n = 0;
}

/* Runs one test object; returns 0 pass, 1 fail (c->why says why). */
static int run_test(struct ctx *c, const struct wp_alg *a, const cJSON *jt, struct tcase *t)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(jt, "tcId");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(jt, "result");
    if (!cJSON_IsNumber(id))
        return bad(c, "malformed test: no numeric tcId");
    t->id = id->valuedouble;
    if (!cJSON_IsString(res) || !res->valuestring)
        return bad(c, "malformed test: no result");
    if (!strcmp(res->valuestring, "valid"))
        t->result = R_VALID;
    else if (!strcmp(res->valuestring, "invalid"))
        t->result = R_INVALID;
    else if (!strcmp(res->valuestring, "acceptable"))
        t->result = R_ACCEPTABLE;
    else
        return bad(c, "malformed test: result is not valid/invalid/acceptable");

    /* the fields each schema carries */
    unsigned f = a->fields;
    if (get_hex(jt, "key", &t->key) || get_hex(jt, "msg", &t->msg) ||
        ((f & F_IV) && get_hex(jt, "iv", &t->iv)) || ((f & F_AAD) && get_hex(jt, "aad", &t->aad)) ||
        ((f & F_CT) && get_hex(jt, "ct", &t->ct)) || ((f & F_TAG) && get_hex(jt, "tag", &t->tag)))
        return bad(c, "malformed test: a hex field is missing or not hex");
    /* absent optional fields still get a valid, empty buffer */
    struct blob *opt[] = {&t->iv, &t->aad, &t->ct, &t->tag};
    for (size_t i = 0; i < 4; i++)
        if (!opt[i]->p && !(opt[i]->p = malloc(32)))
            return bad(c, "out of memory");
    return drive_test(c, a, t);
}

int aeskit_vectors_have_json(void) { return 1; }

int aeskit_vectors_run_buffer(const char *json, size_t len, const char *backend, FILE *log,
                              aeskit_vectors_result *res)
{
    memset(res, 0, sizeof *res);
    cJSON *root = json ? cJSON_ParseWithLength(json, len) : NULL;
    const cJSON *alg = root ? cJSON_GetObjectItemCaseSensitive(root, "algorithm") : NULL;
    const cJSON *groups = root ? cJSON_GetObjectItemCaseSensitive(root, "testGroups") : NULL;
    if (!cJSON_IsObject(root) || !cJSON_IsString(alg) || !alg->valuestring || !cJSON_IsArray(groups)) {
        if (log)
            fprintf(log, "  not a Wycheproof test file (%s)\n",
                    !root ? "JSON parse error" : "no \"algorithm\" string or \"testGroups\" array");
        cJSON_Delete(root);
        res->failed = 1;
        return AESKIT_VECTORS_BAD_FILE;
    }
    snprintf(res->algorithm, sizeof res->algorithm, "%s", alg->valuestring);
    const struct wp_alg *a = alg_of(alg->valuestring);
    res->supported = a != NULL;

    struct ctx c = {.be = backend, .log = log};
    const cJSON *g;
    cJSON_ArrayForEach(g, groups)
    {
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests");
        if (!cJSON_IsArray(tests)) {
            res->failed++;
            if (log && c.logged++ < 10)
                fprintf(log, "  malformed test group: no \"tests\" array\n");
            continue;
        }
        const cJSON *jt;
        cJSON_ArrayForEach(jt, tests)
        {
            if (!a) {
                res->skipped++;
                continue;
            }
            struct tcase t;
            memset(&t, 0, sizeof t);
            t.id = -1;
            c.why = NULL;
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(jt, "tcId");
            /* Seeded per test so a failing split pattern reproduces. */
            c.seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(cJSON_IsNumber(id) ? id->valueint : 0) * 0x100000001b3ull;
            if (!cJSON_IsObject(jt) ? bad(&c, "malformed test: not an object") : run_test(&c, a, jt, &t)) {
                res->failed++;
                if (log && c.logged++ < 10) {
                    const cJSON *cm = cJSON_GetObjectItemCaseSensitive(jt, "comment");
                    char idbuf[32] = "?";
                    if (t.id >= 0)
                        snprintf(idbuf, sizeof idbuf, "%.0f", t.id);
                    fprintf(log, "  FAIL tcId %s%s%s%s [%s]: %s\n", idbuf,
                            cJSON_IsString(cm) && cm->valuestring && *cm->valuestring ? " (" : "",
                            cJSON_IsString(cm) && cm->valuestring ? cm->valuestring : "",
                            cJSON_IsString(cm) && cm->valuestring && *cm->valuestring ? ")" : "",
                            t.result == R_VALID ? "valid" : t.result == R_INVALID ? "invalid" : "acceptable",
                            c.why ? c.why : "?");
                }
            } else {
                res->passed++;
            }
            blob_free(&t.key), blob_free(&t.iv), blob_free(&t.aad);
            blob_free(&t.msg), blob_free(&t.ct), blob_free(&t.tag);
        }
    }
    if (log && c.logged > 10)
        fprintf(log, "  ... %u failures in all\n", c.logged);
    cJSON_Delete(root);
    return res->failed ? AESKIT_VECTORS_FAILED : AESKIT_VECTORS_OK;
}

#else /* !AESKIT_HAVE_CJSON */

int aeskit_vectors_have_json(void) { return 0; }

int aeskit_vectors_run_buffer(const char *json, size_t len, const char *backend, FILE *log,
                              aeskit_vectors_result *res)
{
    (void)json, (void)len, (void)backend;
    memset(res, 0, sizeof *res);
    if (log)
        fprintf(log, "  this build has no JSON support (cJSON was not found at configure time)\n");
    return AESKIT_VECTORS_NO_JSON;
}

#endif
