/* test_formats.c - each output format of `aeskit speed` on a tiny run
 * (aeskit's generic backend only, no peers, two algorithms x two sizes):
 * CSV has the exact header and exactly one row per cell; JSON parses and
 * carries the fields; the openssl, tcrypt and bench-slope shapes are there;
 * the SVG plot is written and well-formed enough to hold one line. */
#ifdef AKS_NO_CJSON
#include <stdio.h>
int main(void)
{
    printf("SKIP: cJSON (libcjson-dev) was not found at build time\n");
    return 77;
}
#else
#include <cjson/cJSON.h>

#include "aeskit.h"
#include "harness.h"

#define BASE "--alg aes-128-gcm,aes-128-cmac --sizes 16,64 --seconds 0.01 --peers none " \
             "--backend generic --quiet "

static const char *const fields[] = {"impl", "backend", "alg", "op", "size", "update",
                                     "bytes_per_sec", "ns_per_byte", "cycles_per_byte",
                                     "cpu_mhz", "spread"};

static void test_csv(void)
{
    char *out;
    CHECK(run_line(BASE "--format csv", NULL, 0, &out, NULL) == 0, "csv run");
    const char *hdr =
        "impl,backend,alg,op,size,update,bytes_per_sec,ns_per_byte,cycles_per_byte,cpu_mhz,spread\n";
    CHECK(!strncmp(out, hdr, strlen(hdr)), "CSV header: %.120s", out);
    /* exactly one row per cell, each with 11 fields and the right keys */
    static const char *const cells[] = {"aeskit,generic,aes-128-gcm,enc,16,0,",
                                        "aeskit,generic,aes-128-gcm,enc,64,0,",
                                        "aeskit,generic,aes-128-cmac,mac,16,0,",
                                        "aeskit,generic,aes-128-cmac,mac,64,0,"};
    for (int i = 0; i < 4; i++)
        CHECK(count_lines_with(out, cells[i]) == 1, "row '%s' appears %zu times", cells[i],
              count_lines_with(out, cells[i]));
    size_t lines = count_lines_with(out, ",");
    CHECK(lines == 5, "header + 4 rows, got %zu lines", lines);
    for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        int commas = 0;
        for (const char *q = p + 1; *q && *q != '\n'; q++)
            commas += *q == ',';
        CHECK(commas == 10, "row with %d fields: %.80s", commas + 1, p + 1);
        double bps = 0;
        const char *q = p + 1;
        for (int k = 0; k < 6; k++)
            q = strchr(q, ',') + 1;
        bps = strtod(q, NULL);
        CHECK(bps > 0, "bytes_per_sec %g", bps);
    }
    free(out);
}

static void test_json(void)
{
    char *out;
    CHECK(run_line(BASE "--format json", NULL, 0, &out, NULL) == 0, "json run");
    cJSON *root = cJSON_Parse(out);
    CHECK(root != NULL, "JSON does not parse: %.200s", out);
    if (!root) {
        free(out);
        return;
    }
    cJSON *m = cJSON_GetObjectItem(root, "machine");
    CHECK(cJSON_IsObject(m), "machine object");
    CHECK(cJSON_IsString(cJSON_GetObjectItem(m, "cpu_model")), "machine.cpu_model");
    CHECK(cJSON_IsString(cJSON_GetObjectItem(m, "features")), "machine.features");
    cJSON *mhz = cJSON_GetObjectItem(m, "cpu_mhz");
    /* (not a range: under an emulator the add chain measures the emulator) */
    CHECK(cJSON_IsNumber(mhz) && mhz->valuedouble > 0, "machine.cpu_mhz positive");
    cJSON *res = cJSON_GetObjectItem(root, "results");
    CHECK(cJSON_IsArray(res) && cJSON_GetArraySize(res) == 4, "4 results, got %d",
          cJSON_GetArraySize(res));
    cJSON *r;
    cJSON_ArrayForEach(r, res)
    {
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            CHECK(cJSON_GetObjectItem(r, fields[i]) != NULL, "result lacks %s", fields[i]);
        CHECK(cJSON_IsString(cJSON_GetObjectItem(r, "impl")) &&
                  !strcmp(cJSON_GetObjectItem(r, "impl")->valuestring, "aeskit"),
              "impl aeskit");
        cJSON *bps = cJSON_GetObjectItem(r, "bytes_per_sec");
        cJSON *nsb = cJSON_GetObjectItem(r, "ns_per_byte");
        CHECK(cJSON_IsNumber(bps) && bps->valuedouble > 0, "bytes_per_sec > 0");
        /* the two figures must be the same measurement */
        if (cJSON_IsNumber(bps) && cJSON_IsNumber(nsb) && nsb->valuedouble > 0) {
            double prod = bps->valuedouble * nsb->valuedouble / 1e9;
            CHECK(prod > 0.99 && prod < 1.01, "bytes/s x ns/B = %g, want 1", prod);
        }
    }
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(root, "not_timed")), "not_timed array");
    cJSON_Delete(root);
    free(out);
}

static void test_text_formats(void)
{
    char *out;
    CHECK(run_line(BASE "--format openssl", NULL, 0, &out, NULL) == 0, "openssl run");
    CHECK(strstr(out, "The 'numbers' are in 1000s of bytes per second processed.") != NULL,
          "openssl banner");
    CHECK(count_lines_with(out, "type ") == 2 && count_lines_with(out, "     16 bytes     64 bytes") == 2,
          "openssl size header:\n%s", out);
    /* the type is one word, as openssl's parsers expect */
    CHECK(count_lines_with(out, "AES-128-GCM/aeskit-generic ") == 1 &&
              count_lines_with(out, "AES-128-CMAC/aeskit-generic ") == 1,
          "openssl rows:\n%s", out);
    CHECK(count_lines_with(out, "k ") + count_lines_with(out, "k\n") >= 2, "k suffix");
    free(out);

    CHECK(run_line(BASE "--format tcrypt --update 0,16", NULL, 0, &out, NULL) == 0, "tcrypt run");
    /* a cipher: a heading per update size, the kernel's cipher lines */
    CHECK(count_lines_with(out, "testing speed of gcm(aes) (aeskit generic) encryption") == 2 &&
              count_lines_with(out, "(aeskit generic) encryption, streamed in 16-byte updates") ==
                  1,
          "tcrypt gcm headings:\n%s", out);
    CHECK(count_lines_with(out, "test 1 (128 bit key, 64 byte blocks): ") == 2 &&
              count_lines_with(out, " operations in 1 seconds (") == 4,
          "tcrypt gcm lines:\n%s", out);
    /* a MAC: the kernel's hash lines, in whole cycles */
    CHECK(count_lines_with(out, "testing speed of cmac(aes) (aeskit generic), 128 bit key") == 1,
          "tcrypt cmac heading");
    CHECK(count_lines_with(out, "test  3 (   64 byte blocks,   16 bytes per update,   4 updates): ") ==
              1,
          "tcrypt cmac 64/16 line:\n%s", out);
    CHECK(count_lines_with(out, " cycles/operation, ") == 4 &&
              count_lines_with(out, " cycles/byte") == 4 && count_lines_with(out, ".") <= 2,
          "tcrypt: 4 hash lines, no decimals:\n%s", out);
    free(out);

    CHECK(run_line(BASE "--format slope", NULL, 0, &out, NULL) == 0, "slope run");
    CHECK(count_lines_with(out, "|  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz") == 1,
          "slope header:\n%s", out);
    CHECK(count_lines_with(out, "B |  ") == 4, "slope: 4 sizes:\n%s", out);
    CHECK(count_lines_with(out, "(slope over 2 sizes") == 2, "slope: 2 fitted slopes:\n%s", out);
    CHECK(count_lines_with(out, "GCM enc 16B |") == 1 && count_lines_with(out, "CMAC mac 64B |") == 1,
          "slope rows");
    free(out);

    CHECK(run_line(BASE, NULL, 0, &out, NULL) == 0, "table run");
    CHECK(count_lines_with(out, "AES-128-GCM enc, one-shot calls") == 1, "table heading");
    CHECK(count_lines_with(out, "aeskit generic") == 2, "table rows");
    CHECK(strstr(out, "core clock estimate") != NULL, "clock printed");
    free(out);
}

/* ---- a report made by hand: exact figures, so the shapes can be checked
 * without timing anything ---------------------------------------------------- */

static const char *fake_version(void)
{
    return "3.0.19";
}
static const speed_peer fake_peer = {"openssl", fake_version, NULL, NULL, NULL, 0};

typedef struct synth {
    speed_opts o;
    speed_impl impls[2];
    speed_cell cells[64];
    speed_result res[128];
    speed_report r;
} synth;

/* ns[c] = ns per message of cell c for implementation 0; implementation 1
 * (a peer) takes twice as long. */
static void synth_init(synth *x, const char *const *algs, const size_t *sizes, const double *ns,
                       size_t ncells)
{
    memset(x, 0, sizeof *x);
    x->o.seconds = 0.5;
    x->o.aad_len = 16;
    snprintf(x->impls[0].label, sizeof x->impls[0].label, "aeskit x86-vaes-avx512");
    snprintf(x->impls[0].impl, sizeof x->impls[0].impl, "aeskit");
    snprintf(x->impls[0].backend, sizeof x->impls[0].backend, "x86-vaes-avx512");
    x->impls[0].is_aeskit = 1;
    x->impls[0].aeskit_backend = "x86-vaes-avx512";
    snprintf(x->impls[1].label, sizeof x->impls[1].label, "openssl 3.0.19");
    snprintf(x->impls[1].impl, sizeof x->impls[1].impl, "openssl");
    snprintf(x->impls[1].backend, sizeof x->impls[1].backend, "3.0.19");
    x->impls[1].peer = &fake_peer;
    for (size_t c = 0; c < ncells; c++) {
        x->cells[c].alg = speed_alg_find(algs[c]);
        x->cells[c].size = sizes[c];
        x->cells[c].aad_len = 16;
        for (size_t i = 0; i < 2; i++) {
            speed_result *y = &x->res[c * 2 + i];
            y->impl = &x->impls[i];
            y->cell = x->cells[c];
            y->status = SR_OK;
            y->ns_per_msg = ns[c] * (double)(i + 1);
            y->ns_per_byte = y->ns_per_msg / (double)sizes[c];
            y->bytes_per_sec = (double)sizes[c] * 1e9 / y->ns_per_msg;
            y->cycles_per_byte = y->ns_per_byte * 3000 / 1000.0;
        }
    }
    x->r.opts = &x->o;
    x->r.impls = x->impls;
    x->r.nimpls = 2;
    x->r.res = x->res;
    x->r.cells = x->cells;
    x->r.ncells = ncells;
    x->r.mhz = 3000;
    snprintf(x->r.cpu_model, sizeof x->r.cpu_model, "Test CPU");
    x->r.features = "aesni";
}

static char *synth_output(synth *x, enum speed_format fmt)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    x->o.format = fmt;
    speed_output(f, &x->r);
    fclose(f);
    return text;
}

/* The line of text starting with prefix (copied into buf), or NULL. */
static const char *line_starting(const char *text, const char *prefix, char *buf, size_t n)
{
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!strncmp(p, prefix, strlen(prefix))) {
            snprintf(buf, n, "%.*s", (int)len, p);
            return buf;
        }
        p = e ? e + 1 : p + len;
    }
    return NULL;
}

/* Ends (offsets one past) of the blank-separated words of line. */
static size_t word_ends(const char *line, size_t *ends, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; line[i]; i++)
        if (line[i] != ' ' && (line[i + 1] == ' ' || !line[i + 1]) && n < max)
            ends[n++] = i + 1;
    return n;
}

static void test_synthetic(void)
{
    synth x;
    char a[512], b[512];
    size_t ea[16], eb[16];

    /* openssl: a figure wider than openssl's 13 columns (2.5 TB/s) widens
     * every column; each row is the type word and one word per size, right
     * edges under the header's "bytes" */
    {
        static const char *const algs[] = {"aes-128-gcm", "aes-128-gcm", "aes-128-gcm"};
        static const size_t sizes[] = {16, 1024, 16384};
        static const double ns[] = {20, 100, 16384 / 2500.0};
        synth_init(&x, algs, sizes, ns, 3);
        char *out = synth_output(&x, SF_OPENSSL);
        const char *hdr = line_starting(out, "type ", a, sizeof a);
        const char *row = line_starting(out, "AES-128-GCM/aeskit-x86-vaes-avx512 ", b, sizeof b);
        CHECK(hdr && row, "openssl header and row:\n%s", out);
        if (hdr && row) {
            size_t nh = word_ends(hdr, ea, 16), nr = word_ends(row, eb, 16);
            CHECK(nh == 7 && nr == 4, "openssl: header words %zu (want 7), row words %zu (want 4):\n%s",
                  nh, nr, out);
            if (nh == 7 && nr == 4)
                for (size_t k = 0; k < 3; k++)
                    CHECK(ea[2 + 2 * k] == eb[1 + k], "openssl column %zu: header ends at %zu, "
                          "figure at %zu:\n%s", k, ea[2 + 2 * k], eb[1 + k], out);
            CHECK(strstr(row, " 2500000000.00k") != NULL, "the 2.5 TB/s figure whole:\n%s", out);
        }
        CHECK(line_starting(out, "AES-128-GCM/openssl-3.0.19 ", a, sizeof a) != NULL,
              "openssl: peer row one word:\n%s", out);
        free(out);
    }

    /* tcrypt: the kernel's cipher line, exactly; the hash line for a MAC */
    {
        static const char *const algs[] = {"aes-128-gcm", "aes-128-gcm", "aes-256-cmac"};
        static const size_t sizes[] = {16, 1024, 16};
        static const double ns[] = {20, 64, 10};
        synth_init(&x, algs, sizes, ns, 3);
        char *out = synth_output(&x, SF_TCRYPT);
        CHECK(count_lines_with(out, "testing speed of gcm(aes) (aeskit x86-vaes-avx512) encryption") == 1,
              "tcrypt heading:\n%s", out);
        CHECK(line_starting(out, "test 0 (128 bit key, 16 byte blocks): 50000000 operations in 1 "
                                 "seconds (800000000 bytes)", a, sizeof a) != NULL,
              "tcrypt cipher line:\n%s", out);
        CHECK(line_starting(out, "test 1 (128 bit key, 1024 byte blocks): 15625000 operations in 1 "
                                 "seconds (16000000000 bytes)", a, sizeof a) != NULL,
              "tcrypt cipher line 2:\n%s", out);
        CHECK(count_lines_with(out, "testing speed of cmac(aes) (aeskit x86-vaes-avx512), 256 bit key") == 1,
              "tcrypt cmac heading:\n%s", out);
        CHECK(line_starting(out, "test  0 (   16 byte blocks,   16 bytes per update,   1 updates):     "
                                 "30 cycles/operation,    1 cycles/byte", a, sizeof a) != NULL,
              "tcrypt hash line:\n%s", out);
        free(out);
    }

    /* slope: sizes whose straight line would cross below 0 at size 0 (the
     * CMAC case of issue 12): never a negative per-call cost, and a poor fit
     * is said */
    {
        static const char *const algs[] = {"aes-128-cmac", "aes-128-cmac", "aes-128-cmac"};
        static const size_t sizes[] = {16, 64, 1024};
        static const double ns[] = {10, 12, 300};
        synth_init(&x, algs, sizes, ns, 3);
        char *out = synth_output(&x, SF_SLOPE);
        CHECK(count_lines_with(out, "(slope over 3 sizes; ") == 2, "slope lines:\n%s", out);
        int negative = 0;
        for (const char *p = strstr(out, " -"); p; p = strstr(p + 1, " -"))
            negative |= p[2] >= '0' && p[2] <= '9';
        CHECK(!negative, "a negative figure:\n%s", out);
        CHECK(count_lines_with(out, "fitted through 0") == 2, "fit through 0 said:\n%s", out);
        CHECK(count_lines_with(out, "poor fit") == 2, "poor fit said:\n%s", out);
        free(out);
        /* a clean line: its per-call cost, no warning */
        static const double ns2[] = {40 + 16 * 0.5, 40 + 64 * 0.5, 40 + 1024 * 0.5};
        synth_init(&x, algs, sizes, ns2, 3);
        out = synth_output(&x, SF_SLOPE);
        CHECK(count_lines_with(out, "(slope over 3 sizes; 40 ns per call)") == 1 &&
                  count_lines_with(out, "(slope over 3 sizes; 80 ns per call)") == 1,
              "clean fit:\n%s", out);
        CHECK(!strstr(out, "poor fit"), "clean fit is not poor:\n%s", out);
        free(out);
    }

    /* plot: log y axis by default, every line its own (colour, dash), the x
     * label under the x axis even when a long legend makes the picture
     * taller */
    {
        const char *algs[32];
        size_t sizes[32];
        double ns[32];
        for (size_t k = 0; k < 32; k++) {
            algs[k] = speed_algs[k / 2].name;
            sizes[k] = k % 2 ? 16384 : 16;
            ns[k] = k % 2 ? 2000 : 20;
        }
        synth_init(&x, algs, sizes, ns, 32);
        char *svg = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&svg, &len);
        CHECK(speed_plot_file(f, &x.r) == 0, "plot written");
        CHECK(count_lines_with(svg, "<polyline") == 32, "32 lines");
        CHECK(strstr(svg, "(10^9 bytes/s), log scale</text>") != NULL, "log y axis by default");
        /* (stroke, dash) pairs all distinct */
        char styles[32][96];
        size_t ns_ = 0;
        for (const char *p = strstr(svg, "<polyline"); p && ns_ < 32; p = strstr(p + 1, "<polyline")) {
            const char *q = strstr(p, " points=");
            snprintf(styles[ns_++], sizeof styles[0], "%.*s", (int)(q ? q - p : 0), p);
        }
        int dup = 0;
        for (size_t i = 0; i < ns_; i++)
            for (size_t j = i + 1; j < ns_; j++)
                dup |= !strcmp(styles[i], styles[j]);
        CHECK(ns_ == 32 && !dup, "distinct line styles");
        double ry = 0, rh = 0, ly = 0;
        const char *rect = strstr(svg, "<rect x=");
        const char *xl = strstr(svg, ">message size, bytes");
        CHECK(rect && sscanf(rect, "<rect x=\"%*f\" y=\"%lf\" width=\"%*f\" height=\"%lf\"", &ry,
                             &rh) == 2,
              "plot frame");
        if (xl) {
            const char *t = xl;
            while (t > svg && strncmp(t, "<text", 5))
                t--;
            const char *y = strstr(t, " y=\"");
            if (y)
                ly = strtod(y + 4, NULL);
        }
        double height = 0;
        const char *h = strstr(svg, "height=\"");
        if (h)
            height = strtod(h + 8, NULL);
        CHECK(height > ry + rh + 100, "a long legend makes the picture taller (%g)", height);
        CHECK(ly > ry + rh + 16 && ly < ry + rh + 50, "x label at %g, the axis at %g", ly, ry + rh);
        free(svg); /* speed_plot_file closed f */

        x.o.plot_linear = 1;
        svg = NULL;
        f = open_memstream(&svg, &len);
        CHECK(speed_plot_file(f, &x.r) == 0, "linear plot written");
        CHECK(!strstr(svg, "bytes/s), log scale</text>") && strstr(svg, "(10^9 bytes/s)</text>"),
              "--plot-y linear");
        free(svg);
    }
}

static void test_plot(void)
{
    const char *path = "speed_test_plot.svg";
    char *out, line[256];
    snprintf(line, sizeof line, BASE "--format csv --plot %s", path);
    remove(path);
    CHECK(run_line(line, NULL, 0, &out, NULL) == 0, "plot run");
    free(out);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "plot file written");
    if (!f)
        return;
    static char svg[1 << 16];
    size_t n = fread(svg, 1, sizeof svg - 1, f);
    svg[n] = 0;
    fclose(f);
    CHECK(strstr(svg, "<svg") && strstr(svg, "</svg>"), "svg element");
    CHECK(count_lines_with(svg, "<polyline") == 2, "one line per implementation and algorithm");
    CHECK(strstr(svg, "aeskit generic") != NULL, "legend");
    CHECK(strstr(svg, "log scale") != NULL, "log axis label");
    remove(path);
}

/* A stand-in peer named "openssl" (aeskit's generic backend underneath:
 * it passes the cross-check), so the preset's per-backend ratio lines
 * have a peer to divide by without any library installed. */
static const char *fk_version(void)
{
    return "fake";
}
static void *fk_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return speed_aeskit_setup(c, key, "generic", why, whylen);
}
static const speed_peer fake_openssl = {"openssl", fk_version, fk_setup, speed_aeskit_run,
                                        speed_aeskit_done, 0};

/* --preset x86: exactly its 11 cells, in 8 tables. */
static void test_preset(void)
{
    char *out;
    CHECK(run_line("--preset x86 --peers none --backend generic --seconds 0.01 --quiet "
                   "--format csv",
                   NULL, 0, &out, NULL) == 0,
          "preset csv run");
    static const char *const rows[] = {
        "aeskit,generic,aes-128-gcm,enc,16,0,",    "aeskit,generic,aes-128-gcm,enc,64,0,",
        "aeskit,generic,aes-128-gcm,enc,1420,0,",  "aeskit,generic,aes-128-gcm,enc,16384,0,",
        "aeskit,generic,aes-256-gcm,enc,16384,0,", "aeskit,generic,aes-128-gcm,dec,16384,0,",
        "aeskit,generic,aes-128-gmac,mac,16384,0,", "aeskit,generic,aes-128-ctr,enc,16384,0,",
        "aeskit,generic,aes-128-xts,enc,4096,0,",  "aeskit,generic,aes-128-cmac,mac,8192,0,",
        "aeskit,generic,aes-128-cmac,mac,8192,16,"};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        CHECK(count_lines_with(out, rows[i]) == 1, "preset row '%s' appears %zu times", rows[i],
              count_lines_with(out, rows[i]));
    CHECK(count_lines_with(out, ",") == 12, "preset csv: header + 11 rows, got %zu lines",
          count_lines_with(out, ","));
    CHECK(count_lines_with(out, "impl,backend,alg,") == 1, "one CSV header");
    free(out);

    const speed_peer *extra[] = {&fake_openssl};
    CHECK(run_line("--preset x86 --peers none --backend generic,best --seconds 0.01 --quiet",
                   extra, 1, &out, NULL) == 0,
          "preset table run");
    CHECK(count_lines_with(out, ", one-shot calls;") == 7 &&
              count_lines_with(out, ", streamed 16 B per update;") == 1,
          "preset: 8 tables:\n%s", out);
    CHECK(count_lines_with(out, "aeskit/best peer") == 8, "a ratio line per table");
    int two = strcmp(aeskit_backend_default(), "generic") != 0;
    CHECK(count_lines_with(out, "generic/best peer") == (two ? 8u : 0u) &&
              count_lines_with(out, "generic/openssl") == (two ? 8u : 0u),
          "per-backend ratio lines (two backends: %d):\n%s", two, out);
    if (two) {
        char lab[96];
        snprintf(lab, sizeof lab, "%s/openssl", aeskit_backend_default());
        CHECK(count_lines_with(out, lab) == 8, "'%s' lines", lab);
    }
    free(out);
}

int main(void)
{
    test_preset();
    test_csv();
    test_json();
    test_text_formats();
    test_plot();
    test_synthetic();
    return finish("test_formats");
}
#endif
