/*
 * evp_runner.c - runs the cipher and MAC records of OpenSSL's evp_test data
 * files (test/recipes/30-test_evp_data/evpciph_aes_common.txt and the like) through the aeskit provider.
 *
 * Our own reader for that file format (Debian does not ship evp_test).  A
 * record is a block of "Keyword = value" lines ended by a blank line; the
 * first keyword names the test type.  For "Cipher" records every record whose
 * cipher the provider offers is run as evp_test runs it: encrypt and/or
 * decrypt (Operation), out-of-place and in-place, misaligned, and for
 * non-CCM/XTS modes also fed in fragments (1 byte, the middle, 1 byte); AEAD
 * tags set before or after the data (SetTagLate; OCB's always after, its
 * length before, as evp_test does); the expected failure
 * stage of a "Result =" record must be the stage that fails.  "MAC" records
 * of CMAC and GMAC run through EVP_MAC, one-shot and byte-by-byte, and again
 * after a re-init.  Everything else is counted as not covered, by name.
 *
 * All fetches use the property query "provider=aeskit", so nothing can fall
 * back to the default provider silently.
 *
 * usage: akp_evp_runner [--provider-path DIR] FILE...
 * exit: 0 all run records passed, 1 a failure, 77 the provider cannot load.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#define PQ "provider=aeskit"
#define MAXF 48

typedef struct {
    char *key[MAXF], *val[MAXF];
    int n, line;
} REC;

typedef struct {
    unsigned char *p;
    size_t n;
    int set;
} BIN;

static int n_run, n_pass, n_fail;
static char uncovered[8192];

static void note_uncovered(const char *what)
{
    /* "name xN" list, in first-seen order */
    char pat[128];
    char *hit;
    snprintf(pat, sizeof(pat), "%s x", what);
    hit = strstr(uncovered, pat);
    if (hit != NULL && (hit == uncovered || hit[-1] == ' ')) {
        char *num = hit + strlen(pat), *end;
        long v = strtol(num, &end, 10) + 1;
        char tmp[8192];
        snprintf(tmp, sizeof(tmp), "%.*s%ld%s", (int)(num - uncovered), uncovered, v, end);
        strcpy(uncovered, tmp);
        return;
    }
    if (strlen(uncovered) + strlen(pat) + 8 < sizeof(uncovered)) {
        strcat(uncovered, uncovered[0] ? ", " : "");
        strcat(uncovered, pat);
        strcat(uncovered, "1");
    }
}

static const char *get(const REC *r, const char *k)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->key[i], k) == 0)
            return r->val[i];
    return NULL;
}

static int unhex(const char *s, BIN *b)
{
    size_t len = strlen(s), j = 0;
    b->p = malloc(len / 2 + 1);
    b->set = 1;
    if (len >= 2 && s[0] == '"') {          /* quoted text */
        size_t n = len - 2;
        memcpy(b->p, s + 1, n);
        b->n = n;
        return 1;
    }
    if (len % 2 != 0)
        return 0;
    for (size_t i = 0; i < len; i += 2) {
        unsigned v;
        if (!isxdigit((unsigned char)s[i]) || !isxdigit((unsigned char)s[i + 1])
            || sscanf(s + i, "%2x", &v) != 1)
            return 0;
        b->p[j++] = (unsigned char)v;
    }
    b->n = j;
    return 1;
}

static void bin_get(const REC *r, const char *k, BIN *b)
{
    const char *v = get(r, k);
    memset(b, 0, sizeof(*b));
    if (v != NULL && !unhex(v, b)) {
        fprintf(stderr, "line %d: bad hex for %s\n", r->line, k);
        b->set = 0;
    }
}

/* ---- ciphers ---------------------------------------------------------------- */

typedef struct {
    EVP_CIPHER *c;
    int mode, aead;
    BIN key, iv, pt, ct, tag, aad[8];
    int naad, tag_late;
} CT;

/* One encryption or decryption the way evp_test does it; returns NULL on
 * success or the name of the stage that failed. */
static const char *cipher_once(const CT *t, int enc, int inplace, size_t misalign, int frag)
{
    const BIN *in = enc ? &t->pt : &t->ct, *exp = enc ? &t->ct : &t->pt;
    unsigned char *buf = malloc(in->n * 2 + 64 + misalign), *inp, *out;
    const char *err = NULL;
    EVP_CIPHER_CTX *base = EVP_CIPHER_CTX_new(), *ctx = NULL;
    int len, total = 0, fl = 0;
    out = buf + misalign;
    inp = inplace ? out : buf + in->n + 32 + (misalign ^ 1);
    if (in->n)
        memcpy(inp, in->p, in->n);

    if (!EVP_CipherInit_ex(base, t->c, NULL, NULL, NULL, enc)) {
        err = "CIPHERINIT_ERROR";
        goto done;
    }
    if (t->iv.set && t->aead) {
        if (EVP_CIPHER_CTX_ctrl(base, EVP_CTRL_AEAD_SET_IVLEN, (int)t->iv.n, NULL) <= 0) {
            err = "INVALID_IV_LENGTH";
            goto done;
        }
    } else if (t->iv.set && (int)t->iv.n != EVP_CIPHER_CTX_get_iv_length(base)) {
        err = "INVALID_IV_LENGTH";
        goto done;
    }
    if (t->aead) {
        /* As evp_test: OCB (like SetTagLate) takes the tag length first
           and the decrypting tag's value after the data. */
        int late = t->tag_late || t->mode == EVP_CIPH_OCB_MODE;
        int set_value = !enc && !late;
        if ((set_value || t->mode != EVP_CIPH_GCM_MODE)
            && EVP_CIPHER_CTX_ctrl(base, EVP_CTRL_AEAD_SET_TAG, (int)t->tag.n,
                                   set_value ? t->tag.p : NULL) <= 0) {
            err = set_value ? "TAG_SET_ERROR" : "TAG_LENGTH_SET_ERROR";
            goto done;
        }
    }
    if (!EVP_CIPHER_CTX_set_key_length(base, (int)t->key.n)) {
        err = "INVALID_KEY_LENGTH";
        goto done;
    }
    if (!EVP_CipherInit_ex(base, NULL, NULL, t->key.p, t->iv.set ? t->iv.p : NULL, -1)) {
        err = "KEY_SET_ERROR";
        goto done;
    }
    /* work on a copy, as evp_test does (dupctx must work) */
    ctx = EVP_CIPHER_CTX_new();
    if (!EVP_CIPHER_CTX_copy(ctx, base)) {
        err = "COPY_ERROR";
        goto done;
    }
    if (t->mode == EVP_CIPH_CCM_MODE && !EVP_CipherUpdate(ctx, NULL, &len, NULL, (int)in->n)) {
        err = "CCM_PLAINTEXT_LENGTH_SET_ERROR";
        goto done;
    }
    for (int i = 0; i < t->naad; i++) {
        const BIN *a = &t->aad[i];
        if (!frag || a->n < 3) {
            if (!EVP_CipherUpdate(ctx, NULL, &len, a->p, (int)a->n)) {
                err = "AAD_SET_ERROR";
                goto done;
            }
        } else if (!EVP_CipherUpdate(ctx, NULL, &len, a->p, 1)
                   || !EVP_CipherUpdate(ctx, NULL, &len, a->p + 1, (int)a->n - 2)
                   || !EVP_CipherUpdate(ctx, NULL, &len, a->p + a->n - 1, 1)) {
            err = "AAD_SET_ERROR";
            goto done;
        }
    }
    if (t->aead && !enc && (t->tag_late || t->mode == EVP_CIPH_OCB_MODE)
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)t->tag.n, t->tag.p) <= 0) {
        err = "TAG_SET_ERROR";
        goto done;
    }
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    if (!frag || in->n < 3) {
        if (!EVP_CipherUpdate(ctx, out, &len, inp, (int)in->n)) {
            err = "CIPHERUPDATE_ERROR";
            goto done;
        }
        total = len;
    } else {
        size_t pieces[3] = { 1, in->n - 2, 1 }, off = 0;
        for (int i = 0; i < 3; i++) {
            if (!EVP_CipherUpdate(ctx, out + total, &len, inp + off, (int)pieces[i])) {
                err = "CIPHERUPDATE_ERROR";
                goto done;
            }
            total += len;
            off += pieces[i];
        }
    }
    if (!EVP_CipherFinal_ex(ctx, out + total, &fl)) {
        err = "CIPHERFINAL_ERROR";
        goto done;
    }
    total += fl;
    if ((size_t)total != exp->n || (exp->n && memcmp(out, exp->p, exp->n) != 0)) {
        err = "VALUE_MISMATCH";
        goto done;
    }
    if (enc && t->aead) {
        unsigned char rtag[16];
        if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)t->tag.n, rtag) <= 0) {
            err = "TAG_RETRIEVE_ERROR";
            goto done;
        }
        if (memcmp(rtag, t->tag.p, t->tag.n) != 0) {
            err = "TAG_VALUE_MISMATCH";
            goto done;
        }
    }
done:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_CTX_free(base);
    free(buf);
    ERR_clear_error();
    return err;
}

static void run_cipher(const REC *r, OSSL_LIB_CTX *lib)
{
    CT t;
    const char *name = get(r, "Cipher"), *op = get(r, "Operation"), *result = get(r, "Result");
    const char *stl = get(r, "SetTagLate");
    int ok = 1, encs[2], nenc = 0;
    char why[160] = "";
    memset(&t, 0, sizeof(t));
    if (get(r, "CTSMode") || get(r, "TLSAAD") || get(r, "MACKey") || get(r, "TLSVersion")
        || get(r, "Rounds") || get(r, "KeyBits")) {
        note_uncovered("Cipher record with keywords this runner does not take");
        return;
    }
    t.c = EVP_CIPHER_fetch(lib, name, PQ);
    if (t.c == NULL) {
        char nm[96];
        snprintf(nm, sizeof(nm), "%s (not in the provider)", name);
        for (char *p = nm; *p && *p != ' '; p++)
            *p = (char)toupper((unsigned char)*p);
        note_uncovered(nm);
        ERR_clear_error();
        return;
    }
    t.mode = EVP_CIPHER_get_mode(t.c);
    t.aead = (EVP_CIPHER_get_flags(t.c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;
    bin_get(r, "Key", &t.key);
    bin_get(r, "IV", &t.iv);
    bin_get(r, "Plaintext", &t.pt);
    bin_get(r, "Ciphertext", &t.ct);
    bin_get(r, "Tag", &t.tag);
    t.tag_late = stl != NULL && strcmp(stl, "TRUE") == 0;
    for (int i = 0; i < r->n && t.naad < 8; i++)
        if (strcmp(r->key[i], "AAD") == 0)
            unhex(r->val[i], &t.aad[t.naad++]);
    if (op == NULL || strcmp(op, "ENCRYPT") == 0)
        encs[nenc++] = 1;
    if (op == NULL || strcmp(op, "DECRYPT") == 0)
        encs[nenc++] = 0;

    n_run++;
    /* evp_test's variants: in-place / out-of-place, aligned / misaligned,
     * whole / fragmented (not for CCM and XTS) */
    for (int frag = 0; frag <= 1 && ok; frag++) {
        if (frag && (t.mode == EVP_CIPH_CCM_MODE || t.mode == EVP_CIPH_XTS_MODE))
            break;
        for (int v = 0; v < 4 && ok; v++) {
            for (int e = 0; e < nenc && ok; e++) {
                const char *err = cipher_once(&t, encs[e], v < 2, (size_t)(v & 1), frag);
                if (result == NULL && err != NULL) {
                    snprintf(why, sizeof(why), "%s %s: %s", encs[e] ? "encrypt" : "decrypt",
                             v < 2 ? "in-place" : "out-of-place", err);
                    ok = 0;
                } else if (result != NULL) {
                    if (err == NULL || strcmp(err, result) != 0) {
                        snprintf(why, sizeof(why), "expected %s, got %s", result,
                                 err ? err : "success");
                        ok = 0;
                    }
                    /* an expected failure stops the record, as in evp_test */
                    goto out;
                }
            }
        }
    }
out:
    if (ok) {
        n_pass++;
    } else {
        n_fail++;
        fprintf(stderr, "FAIL line %d: %s: %s\n", r->line, name, why);
    }
    EVP_CIPHER_free(t.c);
    free(t.key.p); free(t.iv.p); free(t.pt.p); free(t.ct.p); free(t.tag.p);
    for (int i = 0; i < t.naad; i++)
        free(t.aad[i].p);
}

/* ---- MACs -------------------------------------------------------------------- */

static int mac_once(EVP_MAC *mac, const char *alg, const BIN *key, const BIN *iv,
                    const BIN *in, const BIN *exp, int bytewise, const char **why)
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    OSSL_PARAM ps[4];
    int n = 0, ok = 0;
    unsigned char out[64];
    size_t outl = 0;
    ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)alg, 0);
    if (iv->set)
        ps[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv->p, iv->n);
    ps[n] = OSSL_PARAM_construct_end();
    *why = "init";
    if (ctx == NULL || !EVP_MAC_CTX_set_params(ctx, ps) || !EVP_MAC_init(ctx, key->p, key->n, NULL))
        goto done;
    for (int round = 0; round < 2; round++) {   /* second round: re-init, same key */
        if (round == 1 && !EVP_MAC_init(ctx, NULL, 0, NULL))
            goto done;
        *why = "update";
        if (bytewise) {
            for (size_t i = 0; i < in->n; i++)
                if (!EVP_MAC_update(ctx, in->p + i, 1))
                    goto done;
        } else if (!EVP_MAC_update(ctx, in->p, in->n)) {
            goto done;
        }
        *why = "final";
        if (!EVP_MAC_final(ctx, out, &outl, sizeof(out)))
            goto done;
        *why = "value mismatch";
        if (outl != exp->n || memcmp(out, exp->p, outl) != 0)
            goto done;
    }
    ok = 1;
done:
    EVP_MAC_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

static void run_mac(const REC *r, OSSL_LIB_CTX *lib)
{
    const char *type = get(r, "MAC"), *alg = get(r, "Algorithm"), *why = "";
    char name[64];
    EVP_MAC *mac;
    BIN key, iv, in, out;
    int ok;
    snprintf(name, sizeof(name), "%s", type);
    if (strncmp(name, "CMAC by EVP_PKEY", 16) == 0)
        name[4] = '\0';     /* the same MAC; this runner drives it through EVP_MAC */
    if (strcmp(name, "CMAC") != 0 && strcmp(name, "GMAC") != 0) {
        char nm[96];
        snprintf(nm, sizeof(nm), "MAC %s", type);
        note_uncovered(nm);
        return;
    }
    if (get(r, "Ctrl") || get(r, "Custom") || get(r, "Salt") || get(r, "XOF")
        || get(r, "Result")) {
        note_uncovered("MAC record with Ctrl/Result lines");
        return;
    }
    mac = EVP_MAC_fetch(lib, name, PQ);
    if (mac == NULL) {
        note_uncovered(name);
        ERR_clear_error();
        return;
    }
    bin_get(r, "Key", &key);
    bin_get(r, "IV", &iv);
    bin_get(r, "Input", &in);
    bin_get(r, "Output", &out);
    n_run++;
    ok = mac_once(mac, alg, &key, &iv, &in, &out, 0, &why)
         && mac_once(mac, alg, &key, &iv, &in, &out, 1, &why);
    if (ok) {
        n_pass++;
    } else {
        n_fail++;
        fprintf(stderr, "FAIL line %d: MAC %s %s: %s\n", r->line, type, alg, why);
    }
    EVP_MAC_free(mac);
    free(key.p); free(iv.p); free(in.p); free(out.p);
}

/* ---- the file format ---------------------------------------------------------- */

static void run_record(REC *r, OSSL_LIB_CTX *lib)
{
    const char *avail = get(r, "Availablein");
    const char *type;
    int first = 0;
    if (r->n == 0)
        return;
    while (first < r->n && (strcmp(r->key[first], "Availablein") == 0
                            || strcmp(r->key[first], "FIPSversion") == 0))
        first++;
    if (first == r->n || strcmp(r->key[first], "Title") == 0)
        return;
    type = r->key[first];
    if (avail != NULL && strcmp(avail, "default") != 0) {
        char nm[96];
        snprintf(nm, sizeof(nm), "%s record only for the %s provider", type, avail);
        note_uncovered(nm);
        return;
    }
    if (strcmp(type, "Cipher") == 0)
        run_cipher(r, lib);
    else if (strcmp(type, "MAC") == 0)
        run_mac(r, lib);
    else
        note_uncovered(type);
}

static void free_rec(REC *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->key[i]);
        free(r->val[i]);
    }
    r->n = 0;
}

static int run_file(const char *path, OSSL_LIB_CTX *lib)
{
    FILE *f = fopen(path, "r");
    char line[65536];
    REC r = { .n = 0 };
    int lineno = 0;
    if (f == NULL) {
        perror(path);
        return 0;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char *eq, *k, *v, *end;
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#')
            continue;
        for (k = line; isspace((unsigned char)*k); k++)
            ;
        if (*k == '\0') {
            run_record(&r, lib);
            free_rec(&r);
            continue;
        }
        eq = strchr(k, '=');
        if (eq == NULL)
            continue;
        for (end = eq; end > k && isspace((unsigned char)end[-1]); end--)
            ;
        *end = '\0';
        for (v = eq + 1; isspace((unsigned char)*v); v++)
            ;
        for (end = v + strlen(v); end > v && isspace((unsigned char)end[-1]); end--)
            ;
        *end = '\0';
        if (r.n == 0)
            r.line = lineno;
        if (r.n < MAXF) {
            r.key[r.n] = strdup(k);
            r.val[r.n] = strdup(v);
            r.n++;
        }
    }
    run_record(&r, lib);
    free_rec(&r);
    fclose(f);
    return 1;
}

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pa, *pd;
    int i = 1;
    if (argc > 2 && strcmp(argv[1], "--provider-path") == 0) {
        OSSL_PROVIDER_set_default_search_path(lib, argv[2]);
        i = 3;
    }
    pa = OSSL_PROVIDER_load(lib, "aeskit");
    pd = OSSL_PROVIDER_load(lib, "default");   /* for EVP's own needs; never fetched from */
    if (pa == NULL) {
        ERR_print_errors_fp(stderr);
        printf("SKIP: the aeskit provider does not load\n");
        return 77;
    }
    for (; i < argc; i++) {
        int r0 = n_run, p0 = n_pass;
        if (!run_file(argv[i], lib))
            return 1;
        printf("%s: %d records run, %d passed\n", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1
                                                                      : argv[i],
               n_run - r0, n_pass - p0);
    }
    printf("evp-data: %d records run, %d passed, %d failed\n", n_run, n_pass, n_fail);
    printf("not covered: %s\n", uncovered[0] ? uncovered : "none");
    OSSL_PROVIDER_unload(pa);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(lib);
    return n_fail == 0 && n_run > 0 ? 0 : 1;
}
