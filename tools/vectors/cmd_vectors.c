/*
 * cmd_vectors.c - `aeskit vectors`: runs Wycheproof JSON files and the
 * built-in known-answer tests (kat_vectors.c) under one backend,
 * the default one, or every backend this machine can run.
 *
 * Output (stdout): one line per file and backend, the failing tests
 * described under it, then exactly
 *   "N passed, N failed, N skipped, N files not understood".
 * Errors (stderr, the path as given): a file that cannot be read (missing,
 * a directory, a read error, larger than --max-size), is not a Wycheproof
 * file, names an algorithm this tool does not know, or has no test that
 * ran.  Such a file is "not understood": it makes the run fail.  A
 * Wycheproof file of an AES algorithm aeskit does not implement (AES-FF1,
 * the C2SP chunked encryption) is named, its tests counted as skipped.
 *
 * Exit status: 0 all passed; 1 a test failed or a file was not understood;
 * 2 usage error; 3 a JSON file was given to a build without cJSON (and
 * nothing else went wrong).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aeskit.h"
#include "commands.h"
#include "kat_vectors.h"
#include "vectors.h"

#define DEFAULT_MAX_SIZE ((size_t)64 << 20) /* 64 MiB: the largest Wycheproof file is < 1 MB */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: aeskit vectors [--backend NAME | --all-backends] [--builtin]\n"
            "                      [--max-size N] [FILE...]\n"
            "\n"
            "Runs Wycheproof JSON test files (AES-GCM, AES-GMAC, AES-CCM, AES-CMAC,\n"
            "AES-XTS, AES-CBC-PKCS5, AES-CTR, AES-GCM-SIV, AES-EAX, AES-SIV-CMAC,\n"
            "AEAD-AES-SIV-CMAC, AES-WRAP, AES-KWP) and, with --builtin or without\n"
            "FILE, the built-in known-answer tests typed in from the standards.\n"
            "Wycheproof files of AES algorithms aeskit does not implement (AES-FF1,\n"
            "the C2SP chunked encryption) are named and their tests skipped.\n"
            "\n"
            "  --backend NAME   run under that backend (see `aeskit list`)\n"
            "  --all-backends   run under every backend this CPU can run\n"
            "  --builtin        run the built-in known-answer tests too\n"
            "  --max-size N     refuse files larger than N bytes (suffix k, M, G;\n"
            "                   default 64M)\n"
            "\n"
            "Ends with the line \"N passed, N failed, N skipped, N files not understood\".\n"
            "A file that cannot be read, is not a Wycheproof file, names an unknown\n"
            "algorithm or has no test that ran is not understood (said on stderr).\n"
            "Exit status: 0 all passed; 1 a test failed or a file was not understood;\n"
            "2 usage error; 3 JSON files given to a build without cJSON.\n");
}

/* Wycheproof algorithms of the AES family that aeskit does not implement:
 * their files are skipped by name, not "not understood". */
static const char *const not_implemented[] = {
    "AES-FF1", "Cobblestone-128", "Cobblestone-256",
};

static int known_unimplemented(const char *alg)
{
    for (size_t i = 0; i < sizeof not_implemented / sizeof not_implemented[0]; i++)
        if (!strcmp(alg, not_implemented[i]))
            return 1;
    return 0;
}

/* Parses N with an optional k/M/G suffix (powers of 1024); 0 on success. */
static int parse_bytes(const char *s, size_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10, end++;
    else if (*end == 'm' || *end == 'M')
        shift = 20, end++;
    else if (*end == 'g' || *end == 'G')
        shift = 30, end++;
    if (*end || v == 0 || v > ((unsigned long long)SIZE_MAX >> shift) - 1)
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* Reads at most max bytes of path.  Returns the buffer (its length in *len)
 * or NULL with the reason in why. */
static char *read_file(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, whylen, "%s", errno == ENOENT ? "no such file" : strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "is a directory");
        return NULL;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
        snprintf(why, whylen, "too large: %lld bytes, the limit is %zu (--max-size N raises it)",
                 (long long)st.st_size, max);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    /* Not every file has a size (pipes, devices such as /dev/zero): read in
     * growing steps and stop one byte past the limit. */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t want = cap - n;
        if (n + want > max + 1)
            want = max + 1 - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want) {
            if (ferror(f)) {
                snprintf(why, whylen, "read error: %s", strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (n > max) {
            snprintf(why, whylen, "too large: more than %zu bytes, the limit (--max-size N raises it)",
                     max);
            free(buf);
            buf = NULL;
            break;
        }
        if (n == cap) {
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(why, whylen, "out of memory");
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
    }
    if (!buf && !why[0])
        snprintf(why, whylen, "out of memory");
    fclose(f);
    *len = n;
    return buf;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "aeskit vectors: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try `aeskit vectors --help`)\n");
    return 2;
}

int aeskit_cmd_vectors(int argc, char **argv)
{
    const char *one_backend = NULL;
    int all = 0, builtin = 0, nfiles = 0;
    size_t max_size = DEFAULT_MAX_SIZE;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files)
        return 2;
    int rc = -1;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            rc = 0;
        } else if (!strcmp(a, "--backend") || !strcmp(a, "--max-size")) {
            if (++i >= argc) {
                rc = usage_error("option %s needs a value", a);
                break;
            }
            if (!strcmp(a, "--backend"))
                one_backend = argv[i];
            else if (parse_bytes(argv[i], &max_size))
                rc = usage_error("bad --max-size '%s' (bytes, suffix k, M or G)", argv[i]);
        } else if (!strncmp(a, "--backend=", 10)) {
            one_backend = a + 10;
        } else if (!strncmp(a, "--max-size=", 11)) {
            if (parse_bytes(a + 11, &max_size))
                rc = usage_error("bad --max-size '%s' (bytes, suffix k, M or G)", a + 11);
        } else if (!strcmp(a, "--all-backends")) {
            all = 1;
        } else if (!strcmp(a, "--builtin")) {
            builtin = 1;
        } else if (!strcmp(a, "--")) {
            while (++i < argc)
                files[nfiles++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error("unknown option '%s'", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (rc < 0 && all && one_backend)
        rc = usage_error("--backend and --all-backends exclude each other%s", "");
    if (rc >= 0) {
        free(files);
        return rc;
    }
    if (!nfiles)
        builtin = 1;
    /* AESKIT_CPU / AESKIT_BACKEND with a typo: say so rather than run
       something else than asked (or no backend at all) */
    if (aeskit_tool_check_env("aeskit vectors", stderr)) {
        free(files);
        return 2;
    }

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
    } else {
        if (one_backend) {
            int st = aeskit_backend_check(one_backend);
            if (st != AESKIT_OK) {
                fprintf(stderr, "aeskit vectors: backend %s: %s (see `aeskit list`)\n",
                        one_backend, aeskit_strerror(st));
                free(backends);
                free(files);
                return 2;
            }
        }
        backends[nb++] = one_backend;
    }

    unsigned long passed = 0, failed = 0, skipped = 0, not_understood = 0;
    int no_json = 0;
    if (builtin)
        for (size_t b = 0; b < nb; b++) {
            const char *be = backends[b];
            unsigned p = 0, f = 0;
            unsigned long checks = 0;
            kat_run_all(be, stdout, &p, &f, &checks);
            printf("built-in known answers [%s]: %u passed, %u failed (%zu vectors, %lu checks)\n",
                   be ? be : aeskit_backend_default(), p, f, kat_vector_count, checks);
            passed += p;
            failed += f;
        }
    for (int i = 0; i < nfiles; i++) {
        const char *path = files[i];
        size_t len = 0;
        char why[256] = "";
        char *json = read_file(path, max_size, &len, why, sizeof why);
        if (!json) {
            fprintf(stderr, "aeskit vectors: %s: %s\n", path, why);
            not_understood++;
            continue;
        }
        for (size_t b = 0; b < nb; b++) {
            const char *be = backends[b];
            const char *shown = be ? be : aeskit_backend_default();
            /* The failures' details go under the file's line: collect them. */
            aeskit_vectors_result r;
            char *details = NULL;
            size_t details_len = 0;
            FILE *log = open_memstream(&details, &details_len);
            int vr = aeskit_vectors_run_buffer(json, len, be, log ? log : stdout, &r);
            if (log)
                fclose(log);
            if (vr == AESKIT_VECTORS_NO_JSON) {
                fprintf(stderr, "aeskit vectors: %s: refused: this aeskit was built without "
                                "cJSON, only --builtin works\n", path);
                no_json = 1;
                free(details);
                break;
            }
            const char *bad = NULL;
            if (vr == AESKIT_VECTORS_BAD_FILE)
                bad = "not a Wycheproof test file";
            else if (!r.supported && !known_unimplemented(r.algorithm))
                bad = "unknown algorithm";
            else if (r.supported && r.passed + r.failed == 0)
                bad = "no test in it ran";
            if (bad) {
                /* the same for every backend: said once */
                if (b == 0) {
                    /* the reader's own reason, e.g. "not a Wycheproof test
                       file (JSON parse error)", when it gave one */
                    const char *d = details ? details : "";
                    while (*d == ' ')
                        d++;
                    if (vr == AESKIT_VECTORS_BAD_FILE && *d)
                        fprintf(stderr, "aeskit vectors: %s: not understood: %s", path, d);
                    else
                        fprintf(stderr, "aeskit vectors: %s: not understood: %s (\"algorithm\": "
                                        "\"%s\", %lu tests)\n",
                                path, bad, r.algorithm, r.skipped + r.passed + r.failed);
                    not_understood++;
                }
                free(details);
                break;
            }
            if (!r.supported)
                printf("%s [%s] %s: aeskit does not implement it, %lu tests skipped\n", path,
                       shown, r.algorithm, r.skipped);
            else
                printf("%s [%s] %s: %lu passed, %lu failed, %lu skipped\n", path, shown,
                       r.algorithm, r.passed, r.failed, r.skipped);
            if (details)
                fputs(details, stdout);
            free(details);
            passed += r.passed;
            failed += r.failed;
            skipped += r.skipped;
            if (!r.supported)
                break; /* skipped once, not once per backend */
        }
        free(json);
    }
    free(backends);
    free(files);
    printf("%lu passed, %lu failed, %lu skipped, %lu file%s not understood\n", passed, failed,
           skipped, not_understood, not_understood == 1 ? "" : "s");
    if (failed || not_understood)
        return 1;
    return no_json ? 3 : 0;
}
