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
    CHECK(count_lines_with(out, "      16 bytes      64 bytes") == 2, "openssl size header");
    CHECK(count_lines_with(out, "AES-128-GCM aeskit generic") == 1 &&
              count_lines_with(out, "AES-128-CMAC aeskit generic") == 1,
          "openssl rows:\n%s", out);
    CHECK(count_lines_with(out, "k ") + count_lines_with(out, "k\n") >= 2, "k suffix");
    free(out);

    CHECK(run_line(BASE "--format tcrypt --update 0,16", NULL, 0, &out, NULL) == 0, "tcrypt run");
    CHECK(count_lines_with(out, "testing speed of gcm(aes) (aeskit generic) encryption") == 1,
          "tcrypt gcm heading:\n%s", out);
    CHECK(count_lines_with(out, "testing speed of cmac(aes) (aeskit generic)") == 1,
          "tcrypt cmac heading");
    CHECK(count_lines_with(out, "(128 bit key,     64 byte blocks,     16 bytes per update,    4 "
                                "updates):") == 2,
          "tcrypt 64/16 lines:\n%s", out);
    CHECK(count_lines_with(out, "cycles/operation,") == 8 &&
              count_lines_with(out, "cycles/byte") == 8,
          "tcrypt: 8 measured lines");
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
    return finish("test_formats");
}
#endif
