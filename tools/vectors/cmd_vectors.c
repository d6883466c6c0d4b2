/*
 * cmd_vectors.c - `aeskit vectors`: runs Wycheproof JSON files and the
 * built-in known-answer tests (tests/kat/kat_vectors.c) under one backend,
 * the default one, or every backend this machine can run.
 *
 * Output: one line per file (per backend with --all-backends), the failing
 * tests described under it, then exactly "N passed, N failed, N skipped".
 * Exit status: 0 all passed; 1 any failure; 2 usage error; 3 a JSON file
 * was given to a build without cJSON (and nothing failed).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"
#include "kat_vectors.h"
#include "vectors.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: aeskit vectors [--backend NAME | --all-backends] [--builtin] [FILE...]\n"
            "\n"
            "Runs Wycheproof JSON test files (AES-GCM, AES-GMAC, AES-CCM, AES-CMAC,\n"
            "AES-XTS, AES-CBC-PKCS5, AES-CTR; other algorithms are skipped and named)\n"
            "and, with --builtin or without FILE, the built-in known-answer tests\n"
            "typed in from the standards.\n"
            "\n"
            "  --backend NAME   run under that backend (see `aeskit list`)\n"
            "  --all-backends   run under every backend this CPU can run\n"
            "  --builtin        run the built-in known-answer tests too\n"
            "\n"
            "Ends with the line \"N passed, N failed, N skipped\"; exits non-zero on\n"
            "any failure.\n");
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
            }
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int aeskit_cmd_vectors(int argc, char **argv)
{
    const char *one_backend = NULL;
    int all = 0, builtin = 0, nfiles = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(files);
            return 0;
        } else if (!strcmp(argv[i], "--backend")) {
            if (++i >= argc) {
                usage(stderr);
                free(files);
                return 2;
            }
            one_backend = argv[i];
        } else if (!strncmp(argv[i], "--backend=", 10)) {
            one_backend = argv[i] + 10;
        } else if (!strcmp(argv[i], "--all-backends")) {
            all = 1;
        } else if (!strcmp(argv[i], "--builtin")) {
            builtin = 1;
        } else if (!strcmp(argv[i], "--")) {
            while (++i < argc)
                files[nfiles++] = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "aeskit vectors: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            free(files);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (all && one_backend) {
        fprintf(stderr, "aeskit vectors: --backend and --all-backends exclude each other\n");
        free(files);
        return 2;
    }
    if (!nfiles)
        builtin = 1;

    /* The backends to run: NULL stands for the library default. */
    size_t nb = 0, count = aeskit_backend_count();
    const char **backends = calloc(count + 1, sizeof *backends);
    if (!backends) {
        free(files);
        return 2;
    }
    if (all) {
        for (size_t i = 0; i < count; i++) {
            aeskit_backend_info bi;
            if (aeskit_backend_get(&bi, i) != AESKIT_OK)
                continue;
            if (bi.available)
                backends[nb++] = bi.name;
            else
                printf("backend %s: not run (this CPU cannot run it)\n", bi.name);
        }
    } else if (one_backend) {
        int st = aeskit_backend_check(one_backend);
        if (st != AESKIT_OK) {
            fprintf(stderr, "aeskit vectors: backend %s: %s\n", one_backend, aeskit_strerror(st));
            free(backends);
            free(files);
            return 2;
        }
        backends[nb++] = one_backend;
    } else {
        backends[nb++] = NULL;
    }

    unsigned long passed = 0, failed = 0, skipped = 0;
    int no_json = 0;
    for (size_t b = 0; b < nb; b++) {
        const char *be = backends[b];
        const char *shown = be ? be : aeskit_backend_default();
        if (builtin) {
            unsigned p = 0, f = 0;
            kat_run_all(be, stdout, &p, &f);
            printf("built-in known answers [%s]: %u passed, %u failed (%zu vectors)\n", shown, p, f,
                   kat_vector_count);
            passed += p;
            failed += f;
        }
        for (int i = 0; i < nfiles; i++) {
            const char *path = files[i];
            size_t len = 0;
            char *json = read_file(path, &len);
            if (!json) {
                printf("%s [%s]: cannot read: %s\n", base_name(path), shown, "no such file or I/O error");
                failed++;
                continue;
            }
            /* The failures' details go under the file's line: collect them. */
            aeskit_vectors_result r;
            char *details = NULL;
            size_t details_len = 0;
            FILE *log = open_memstream(&details, &details_len);
            int rc = aeskit_vectors_run_buffer(json, len, be, log ? log : stdout, &r);
            if (log)
                fclose(log);
            free(json);
            if (rc == AESKIT_VECTORS_NO_JSON) {
                printf("%s [%s]: refused: this aeskit was built without cJSON, only --builtin works\n",
                       base_name(path), shown);
                no_json = 1;
                free(details);
                continue;
            }
            if (rc == AESKIT_VECTORS_BAD_FILE)
                printf("%s [%s]: not a Wycheproof test file\n", base_name(path), shown);
            else if (!r.supported)
                printf("%s [%s] %s: not supported, %lu tests skipped\n", base_name(path), shown,
                       r.algorithm, r.skipped);
            else
                printf("%s [%s] %s: %lu passed, %lu failed, %lu skipped\n", base_name(path), shown,
                       r.algorithm, r.passed, r.failed, r.skipped);
            if (details && rc != AESKIT_VECTORS_NO_JSON)
                fputs(details, stdout);
            free(details);
            passed += r.passed;
            failed += r.failed;
            skipped += r.skipped;
        }
    }
    free(backends);
    free(files);
    printf("%lu passed, %lu failed, %lu skipped\n", passed, failed, skipped);
    if (failed)
        return 1;
    return no_json ? 3 : 0;
}
