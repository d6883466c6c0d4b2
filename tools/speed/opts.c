/* opts.c - the options of `aeskit speed`.  Every error exits 2 with a message. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

void speed_usage(FILE *f)
{
    fprintf(f,
            "usage: aeskit speed [OPTIONS]\n"
            "       aeskit speed -h | --help\n"
            "\n"
            "Measures aeskit against the AES libraries installed here, in one run:\n"
            "implementations interleaved round by round, best of several repetitions.\n"
            "With no options: AES-128-GCM and AES-256-GCM encryption at 16, 64, 256,\n"
            "1024, 1420, 8192 and 16384 bytes, aeskit's best and generic backends and\n"
            "every peer library found.\n"
            "\n"
            "  --alg LIST         algorithms, comma-separated: aes-{128,192,256}-MODE with\n"
            "                     MODE gcm gmac rfc4106 ccm cmac cbc-mac ctr cbc xts ecb\n"
            "                     gcm-siv (128, 256) ocb eax siv kw kwp cfb cfb8 ofb\n"
            "                     cbc-cts (a bare MODE means AES-128; 'all' is every one)\n"
            "  --decrypt          decrypt (verify for MACs) instead of encrypt\n"
            "  --backend LIST|all aeskit backend(s) to measure, comma-separated; 'best' is\n"
            "                     the one aeskit picks here (default: best and generic)\n"
            "  --sizes LIST       message sizes in bytes (suffix k = 1024)\n"
            "  --update LIST      stream each message in pieces of these sizes (the\n"
            "                     kernel tcrypt grid); 0 = one-shot call (default)\n"
            "  --aad N            bytes of AAD per AEAD message (default 16)\n"
            "  --batch N          N messages per call (1..1024): aeskit's batch API for\n"
            "                     gcm, gmac, ccm, cmac, cbc-mac, cbc and ctr (each message\n"
            "                     its own output and tag), ipsec-mb-multibuf with N jobs\n"
            "                     in flight (submit N, then flush); one-shot only\n"
            "  --seconds S        measuring time per implementation and cell (default 0.5)\n"
            "  --peers LIST|all|none  peer libraries: " SPEED_PEERS_ALL_NAMES "\n"
            "  --format F         table (default), openssl, tcrypt, slope, csv, json\n"
            "  --plot FILE.svg    also draw GB/s against message size as SVG (the file is\n"
            "                     opened before measuring: a bad path fails at once)\n"
            "  --plot-y log|linear  the plot's y axis (default log: small messages stay\n"
            "                     readable beside large ones)\n"
            "  --quiet            no progress on stderr\n"
            "  --preset x86       the issue-3 rows in one run: AES-128-GCM 16/64/1420/16384 B,\n"
            "                     AES-256-GCM 16 KiB, AES-128-GCM decrypt 16 KiB, GMAC 16 KiB,\n"
            "                     CTR 16 KiB, XTS 4 KiB, CMAC 8 KiB one-shot and in 16-byte\n"
            "                     updates; backends best,x86-aesni,x86-vaes-avx2 (those this\n"
            "                     CPU has) and peers ipsec-mb,libgcrypt,openssl unless\n"
            "                     --backend / --peers say otherwise; not combinable with\n"
            "                     --alg, --sizes, --update, --decrypt, --plot\n"
            "  --preset ipsecmb   each aeskit x86 backend against ipsec-mb's code for the\n"
            "                     same instructions (x86-aesni / ipsec-mb-sse, x86-vaes-avx2 /\n"
            "                     ipsec-mb-avx2, x86-vaes-avx512 / ipsec-mb-avx512):\n"
            "                     AES-128-GCM enc and dec, AES-256-GCM enc, AES-128-CTR at\n"
            "                     the default sizes\n"
            "  --ipsecmb-lib PATH the libIPSec_MB.so the ipsec-mb peer loads (same as the\n"
            "                     environment variable " SPEED_IPSECMB_LIB_ENV "); its version must\n"
            "                     equal the header aeskit was built with\n"
            "\n"
            "Per message: key set up once per implementation, fresh 12-byte IV (8 for\n"
            "rfc4106, 16 for ctr/cbc/xts/cfb/cfb8/ofb/cbc-cts, none for kw/kwp), AAD,\n"
            "separate output buffer, 16-byte tag.\n"
            "Each peer must produce aeskit's output on the same input before it is timed.\n"
            "\n"
            "Exit status: 0 done (no speed is judged); 1 the plot could not be written;\n"
            "2 a usage error, a --plot path that cannot be opened, or a bad AESKIT_CPU or\n"
            "AESKIT_BACKEND.\n");
}

static const char *const peer_names[] = {"openssl",         "libgcrypt",     "nettle",
                                         "ipsec-mb",        "libsodium",     "wolfssl",
                                         "ipsec-mb-sse",    "ipsec-mb-avx2", "ipsec-mb-avx512",
                                         "ipsec-mb-multibuf", "boringssl"};

static int bad(FILE *err, const char *fmt, const char *a, const char *b)
{
    fprintf(err, "aeskit speed: ");
    fprintf(err, fmt, a, b);
    fprintf(err, "\n(try `aeskit speed --help`)\n");
    return 2;
}

/* Parses one unsigned size: digits, optional k/K (x1024). */
static int parse_size(const char *s, size_t *out, int allow_zero)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    if (*end == 'k' || *end == 'K') {
        v *= 1024;
        end++;
    }
    if (*end || v > (64u << 20) || (!allow_zero && v == 0))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* Splits a comma list in place into items (at most SPEED_MAX_LIST);
 * -1 for an empty item or too many. */
static int split(char *s, char **items)
{
    int n = 0;
    for (char *p = s;; ) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        if (!*p || n == SPEED_MAX_LIST)
            return -1;
        items[n++] = p;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static char list_store[8][1024];

/* --preset x86: the rows of issue 3 (x86-64 at the hardware limit), each
 * group of cells one table. */
static const struct preset_row {
    const char *alg;
    int decrypt;
    size_t size, update;
} preset_x86[] = {
    {"aes-128-gcm", 0, 16, 0},     {"aes-128-gcm", 0, 64, 0},   {"aes-128-gcm", 0, 1420, 0},
    {"aes-128-gcm", 0, 16384, 0},  {"aes-256-gcm", 0, 16384, 0}, {"aes-128-gcm", 1, 16384, 0},
    {"aes-128-gmac", 0, 16384, 0}, {"aes-128-ctr", 0, 16384, 0}, {"aes-128-xts", 0, 4096, 0},
    {"aes-128-cmac", 0, 8192, 0},  {"aes-128-cmac", 0, 8192, 16},
};

/* --preset ipsecmb: issue 13's rows, each aeskit x86 backend against the
 * ipsec-mb architecture that uses the same instructions. */
static const struct preset_row preset_ipsecmb[] = {
#define AKS_SIZES(alg, dec)                                                                        \
    {alg, dec, 16, 0}, {alg, dec, 64, 0}, {alg, dec, 256, 0}, {alg, dec, 1024, 0},                 \
        {alg, dec, 1420, 0}, {alg, dec, 8192, 0}, {alg, dec, 16384, 0}
    AKS_SIZES("aes-128-gcm", 0), AKS_SIZES("aes-128-gcm", 1), AKS_SIZES("aes-256-gcm", 0),
    AKS_SIZES("aes-128-ctr", 0),
#undef AKS_SIZES
};

static int apply_preset(speed_opts *o, const char *name, const int given[4], int peers_given,
                        FILE *err)
{
    static const char *const flags[4] = {"--alg", "--sizes", "--update", "--decrypt"};
    int mb = !strcmp(name, "ipsecmb");
    if (!mb && strcmp(name, "x86") != 0)
        return bad(err, "unknown preset '%s' (known: x86, ipsecmb)%s", name, "");
    const struct preset_row *rows = mb ? preset_ipsecmb : preset_x86;
    size_t nrows = mb ? sizeof preset_ipsecmb / sizeof preset_ipsecmb[0]
                      : sizeof preset_x86 / sizeof preset_x86[0];
    for (int k = 0; k < 4; k++)
        if (given[k])
            return bad(err, "--preset sets the cells; %s cannot be combined with it%s", flags[k],
                       "");
    if (o->plot)
        return bad(err, "--preset cannot be combined with --plot%s%s", "", "");
    o->preset = name;
    for (size_t i = 0; i < nrows; i++) {
        speed_cell *c = &o->cells[o->ncells++];
        c->alg = speed_alg_find(rows[i].alg);
        c->decrypt = rows[i].decrypt;
        c->size = rows[i].size;
        c->update = rows[i].update;
        c->aad_len = o->aad_len;
        if (!c->alg)
            return bad(err, "preset: unknown algorithm '%s'%s", rows[i].alg, "");
    }
    if (!o->backend && !o->backend_all) {
        static const char *const be[] = {"best", "x86-aesni", "x86-vaes-avx2"};
        static const char *const be_mb[] = {"x86-aesni", "x86-vaes-avx2", "x86-vaes-avx512"};
        for (size_t i = 0; i < 3; i++)
            o->backends[i] = mb ? be_mb[i] : be[i];
        o->nbackends = 3;
        o->backend = o->backends[0];
        o->backends_soft = 1;
    }
    if (!peers_given && mb) {
#ifdef AKS_IPSECMB_ARCHS
        o->peer_names[0] = "ipsec-mb-sse";
        o->peer_names[1] = "ipsec-mb-avx2";
        o->peer_names[2] = "ipsec-mb-avx512";
        o->npeer_names = 3;
#else
        o->peer_names[0] = "ipsec-mb";
        o->npeer_names = 1;
#endif
    } else if (!peers_given) {
        o->peer_names[0] = "ipsec-mb";
        o->peer_names[1] = "libgcrypt";
        o->peer_names[2] = "openssl";
        o->npeer_names = 3;
    }
    return 0;
}

int speed_parse_opts(int argc, char **argv, speed_opts *o, FILE *err)
{
    static const size_t default_sizes[] = {16, 64, 256, 1024, 1420, 8192, 16384};
    memset(o, 0, sizeof *o);
    o->aad_len = 16;
    o->seconds = 0.5;
    o->format = SF_TABLE;
    int nstore = 0;
    int given[4] = {0, 0, 0, 0}; /* --alg --sizes --update --decrypt seen */
    const char *preset = NULL;
    int peers_given = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        char name[32];
        if (!strcmp(arg, "-h")) {
            o->help = 1;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0)
            return bad(err, "unexpected argument '%s'%s", arg, "");
        const char *eq = strchr(arg, '=');
        size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (nlen >= sizeof name)
            return bad(err, "unknown option '%s'%s", arg, "");
        memcpy(name, arg, nlen);
        name[nlen] = 0;

        /* flags */
        if (!strcmp(name, "--help") || !strcmp(name, "--decrypt") || !strcmp(name, "--quiet")) {
            if (eq)
                return bad(err, "option %s takes no value%s", name, "");
            if (!strcmp(name, "--help"))
                o->help = 1;
            else if (!strcmp(name, "--decrypt"))
                o->decrypt = 1, given[3] = 1;
            else
                o->quiet = 1;
            continue;
        }
        static const char *const with_value[] = {"--alg", "--backend", "--sizes", "--update",
                                                 "--aad", "--batch", "--seconds", "--peers", "--format",
                                                 "--plot", "--preset", "--ipsecmb-lib",
                                                 "--plot-y"};
        int known = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            known |= !strcmp(name, with_value[k]);
        if (!known)
            return bad(err, "unknown option '%s'%s", name, "");
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return bad(err, "option %s needs a value%s", name, "");
        if (!*val)
            return bad(err, "option %s needs a value%s", name, "");

        char *items[SPEED_MAX_LIST];
        int n = 0;
        if (!strcmp(name, "--alg") || !strcmp(name, "--sizes") || !strcmp(name, "--update") ||
            !strcmp(name, "--peers") || !strcmp(name, "--backend")) {
            if (nstore == 8 || strlen(val) >= sizeof list_store[0])
                return bad(err, "option %s: list too long%s", name, "");
            strcpy(list_store[nstore], val);
            n = split(list_store[nstore++], items);
            if (n <= 0)
                return bad(err, "option %s: empty or too long list '%s'", name, val);
        }

        if (!strcmp(name, "--alg")) {
            given[0] = 1;
            o->nalgs = 0;
            for (int k = 0; k < n; k++) {
                if (!strcmp(items[k], "all")) {
                    for (size_t a = 0; a < speed_nalgs && o->nalgs < SPEED_MAX_LIST; a++)
                        o->algs[o->nalgs++] = &speed_algs[a];
                    continue;
                }
                const speed_alg *a = speed_alg_find(items[k]);
                if (!a)
                    return bad(err, "unknown algorithm '%s'%s", items[k], "");
                if (o->nalgs == SPEED_MAX_LIST)
                    return bad(err, "too many algorithms%s%s", "", "");
                o->algs[o->nalgs++] = a;
            }
        } else if (!strcmp(name, "--sizes") || !strcmp(name, "--update")) {
            int upd = !strcmp(name, "--update");
            given[upd ? 2 : 1] = 1;
            size_t *dst = upd ? o->updates : o->sizes;
            for (int k = 0; k < n; k++)
                if (parse_size(items[k], &dst[k], upd))
                    return bad(err, upd ? "bad update size '%s' (0 or bytes, at most 64M)%s"
                                        : "bad size '%s' (1 byte to 64M)%s",
                               items[k], "");
            *(upd ? &o->nupdates : &o->nsizes) = (size_t)n;
        } else if (!strcmp(name, "--batch")) {
            if (parse_size(val, &o->batch, 0) || o->batch > 1024)
                return bad(err, "bad --batch '%s' (1..1024 messages per call)%s", val, "");
        } else if (!strcmp(name, "--aad")) {
            if (parse_size(val, &o->aad_len, 1) || o->aad_len > 65536)
                return bad(err, "bad AAD length '%s' (0..65536)%s", val, "");
        } else if (!strcmp(name, "--seconds")) {
            char *end;
            errno = 0;
            double s = strtod(val, &end);
            if (errno || *end || !(s > 0) || s > 60)
                return bad(err, "bad --seconds '%s' (more than 0, at most 60)%s", val, "");
            o->seconds = s;
        } else if (!strcmp(name, "--backend")) {
            o->backend_all = 0;
            o->nbackends = 0;
            o->backend = NULL;
            for (int k = 0; k < n; k++) {
                if (!strcmp(items[k], "all")) {
                    if (n != 1)
                        return bad(err, "--backend: 'all' stands alone%s%s", "", "");
                    o->backend_all = 1;
                    break;
                }
                o->backends[o->nbackends++] = items[k];
            }
            o->backend = o->nbackends ? o->backends[0] : NULL;
        } else if (!strcmp(name, "--preset")) {
            preset = val;
        } else if (!strcmp(name, "--ipsecmb-lib")) {
            /* read by peer_ipsecmb.c when the peer is first used */
            o->ipsecmb_lib = val;
            if (setenv(SPEED_IPSECMB_LIB_ENV, val, 1) != 0)
                return bad(err, "--ipsecmb-lib: cannot set %s%s", SPEED_IPSECMB_LIB_ENV, "");
        } else if (!strcmp(name, "--peers")) {
            peers_given = 1;
            o->peers_none = 0;
            o->npeer_names = 0;
            if (n == 1 && !strcmp(items[0], "none")) {
                o->peers_none = 1;
            } else if (!(n == 1 && !strcmp(items[0], "all"))) {
                for (int k = 0; k < n; k++) {
                    const char *p = items[k];
                    if (!strcmp(p, "gcrypt"))
                        p = "libgcrypt";
                    else if (!strcmp(p, "sodium"))
                        p = "libsodium";
                    else if (!strcmp(p, "ipsecmb"))
                        p = "ipsec-mb";
                    int ok = 0;
                    for (size_t q = 0; q < sizeof peer_names / sizeof peer_names[0]; q++)
                        ok |= !strcmp(p, peer_names[q]);
                    if (!ok)
                        return bad(err, "unknown peer '%s' (known: %s, all, none)", items[k],
                                   SPEED_PEERS_ALL_NAMES);
                    o->peer_names[o->npeer_names++] = p;
                }
            }
        } else if (!strcmp(name, "--format")) {
            static const char *const fm[] = {"table", "openssl", "tcrypt", "slope", "csv", "json"};
            int f = -1;
            for (int k = 0; k < 6; k++)
                if (!strcmp(val, fm[k]))
                    f = k;
            if (f < 0)
                return bad(err, "unknown format '%s' (table, openssl, tcrypt, slope, csv, json)%s",
                           val, "");
            o->format = (enum speed_format)f;
        } else if (!strcmp(name, "--plot")) {
            o->plot = val;
        } else if (!strcmp(name, "--plot-y")) {
            if (strcmp(val, "log") && strcmp(val, "linear"))
                return bad(err, "unknown --plot-y '%s' (log or linear)%s", val, "");
            o->plot_linear = !strcmp(val, "linear");
        }
    }

    if (preset) {
        int rc = apply_preset(o, preset, given, peers_given, err);
        if (rc)
            return rc;
    }
    if (!o->nalgs) {
        o->algs[0] = speed_alg_find("aes-128-gcm");
        o->algs[1] = speed_alg_find("aes-256-gcm");
        o->nalgs = 2;
    }
    if (!o->nsizes) {
        memcpy(o->sizes, default_sizes, sizeof default_sizes);
        o->nsizes = sizeof default_sizes / sizeof default_sizes[0];
    }
    if (!o->nupdates) {
        o->updates[0] = 0;
        o->nupdates = 1;
    }
    if (o->batch)
        for (size_t u = 0; u < o->nupdates; u++)
            if (o->updates[u])
                return bad(err, "--batch takes one-shot calls only (no --update)%s%s", "", "");
    return 0;
}
