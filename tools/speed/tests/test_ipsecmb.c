/* test_ipsecmb.c - choosing the ipsec-mb library: the options that point the
 * peer at one (--ipsecmb-lib, --preset ipsecmb, the per-architecture peer
 * names), and the version check (the library's version must equal the
 * header's; anything else is refused with a message, never run).
 *
 * The option checks always run.  The version check needs an ipsec-mb 2.x
 * library pointed at: AESKIT_IPSECMB_LIB in the environment, or the one
 * CMake found under -DAESKIT_IPSECMB_PREFIX.  Without one (CI: Debian has
 * 1.3 only) the test says so and exits 77, a skip. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#endif
#include <dlfcn.h>
#include <stdlib.h>

#include "harness.h"

static void opts_checks(void)
{
    speed_opts o;
    char *msg = NULL;

    CHECK(parse_line("--ipsecmb-lib /nonexistent/libIPSec_MB.so.2", &o, NULL) == 0,
          "--ipsecmb-lib PATH");
    CHECK(o.ipsecmb_lib && !strcmp(o.ipsecmb_lib, "/nonexistent/libIPSec_MB.so.2"),
          "--ipsecmb-lib value");
    const char *env = getenv(SPEED_IPSECMB_LIB_ENV);
    CHECK(env && !strcmp(env, "/nonexistent/libIPSec_MB.so.2"), "--ipsecmb-lib sets %s",
          SPEED_IPSECMB_LIB_ENV);
    CHECK(parse_line("--ipsecmb-lib=/x/y.so", &o, NULL) == 0 && o.ipsecmb_lib &&
              !strcmp(o.ipsecmb_lib, "/x/y.so"),
          "--ipsecmb-lib=PATH");
    CHECK(parse_line("--ipsecmb-lib", &o, &msg) == 2 && msg && strstr(msg, "needs a value"),
          "--ipsecmb-lib without a value: %s", msg ? msg : "");
    free(msg);
    CHECK(parse_line("", &o, NULL) == 0 && !o.ipsecmb_lib, "no --ipsecmb-lib by default");

    CHECK(parse_line("--peers ipsec-mb-sse,ipsec-mb-avx2,ipsec-mb-avx512", &o, NULL) == 0 &&
              o.npeer_names == 3 && !strcmp(o.peer_names[2], "ipsec-mb-avx512"),
          "per-architecture peer names");
    CHECK(parse_line("--peers ipsec-mb-avx9", &o, &msg) == 2 && msg &&
              strstr(msg, "unknown peer 'ipsec-mb-avx9'"),
          "unknown architecture: %s", msg ? msg : "");
    free(msg);

    /* --preset ipsecmb: 4 tables of the 7 default sizes, the three x86
       backends (soft: a CPU without one skips it), ipsec-mb rows only */
    CHECK(parse_line("--preset ipsecmb", &o, NULL) == 0, "--preset ipsecmb");
    CHECK(o.ncells == 28, "preset ipsecmb: %zu cells, want 28", o.ncells);
    if (o.ncells == 28) {
        CHECK(!strcmp(o.cells[0].alg->name, "aes-128-gcm") && !o.cells[0].decrypt &&
                  o.cells[0].size == 16 && o.cells[6].size == 16384,
              "preset ipsecmb: AES-128-GCM enc first");
        CHECK(o.cells[7].decrypt && !strcmp(o.cells[7].alg->name, "aes-128-gcm"),
              "preset ipsecmb: then decryption");
        CHECK(!strcmp(o.cells[14].alg->name, "aes-256-gcm") &&
                  !strcmp(o.cells[21].alg->name, "aes-128-ctr") && o.cells[27].size == 16384,
              "preset ipsecmb: AES-256-GCM, CTR");
    }
    CHECK(o.nbackends == 3 && o.backends_soft && !strcmp(o.backends[0], "x86-aesni") &&
              !strcmp(o.backends[1], "x86-vaes-avx2") && !strcmp(o.backends[2], "x86-vaes-avx512"),
          "preset ipsecmb backends");
    CHECK(o.npeer_names >= 1 && !strncmp(o.peer_names[0], "ipsec-mb", 8),
          "preset ipsecmb peers");
    CHECK(parse_line("--preset ipsecmb --peers all --backend x86-aesni", &o, NULL) == 0 &&
              o.npeer_names == 0 && o.nbackends == 1,
          "preset ipsecmb: --peers / --backend still apply");
    CHECK(parse_line("--preset ipsecmb --decrypt", &o, &msg) == 2 && msg &&
              strstr(msg, "cannot be combined"),
          "preset ipsecmb --decrypt: %s", msg ? msg : "");
    free(msg);
    CHECK(parse_line("--preset nosuch", &o, &msg) == 2 && msg && strstr(msg, "ipsecmb"),
          "unknown preset names ipsecmb: %s", msg ? msg : "");
    free(msg);

    CHECK(!strcmp(speed_same_isa_peer("x86-aesni"), "ipsec-mb-sse") &&
              !strcmp(speed_same_isa_peer("x86-vaes-avx2"), "ipsec-mb-avx2") &&
              !strcmp(speed_same_isa_peer("x86-vaes-avx512"), "ipsec-mb-avx512") &&
              !speed_same_isa_peer("generic"),
          "backend -> same-instruction ipsec-mb row");
}

#ifdef AKS_HAVE_IPSECMB
/* The library's own version string, read without the peer's code.
 * RTLD_DEEPBIND: without it, a 2.x library loaded into this program (linked
 * against Debian's 1.3) reads 1.3's exported imb_version_str and says
 * "1.3.0".  (ASan refuses RTLD_DEEPBIND.) */
static int lib_version(const char *path, char *buf, size_t n)
{
#if defined(__SANITIZE_ADDRESS__)
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
#else
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#endif
    if (!h)
        return -1;
    const char *(*vs)(void);
    *(void **)&vs = dlsym(h, "imb_get_version_str");
    if (!vs)
        return -1;
    snprintf(buf, n, "%s", vs());
    return 0;
}

/* check(path) must accept exactly when the library's version is the header's. */
static void check_one(const char *path)
{
    char libv[64], ver[64] = "", msg[512] = "";
    const char *hdr = speed_ipsecmb_header_version();
    if (lib_version(path, libv, sizeof libv) != 0) {
        CHECK(0, "%s does not load as an ipsec-mb library: %s", path, dlerror());
        return;
    }
    int rc = speed_ipsecmb_check(path, ver, sizeof ver, msg, sizeof msg);
    if (!strcmp(libv, hdr)) {
        CHECK(rc == 0, "%s (%s) refused against the %s header: %s", path, libv, hdr, msg);
        CHECK(rc != 0 || !strcmp(ver, libv), "version read as '%s', want '%s'", ver, libv);
        printf("ok: %s is %s, the header's version: accepted\n", path, libv);
    } else {
        CHECK(rc == -1, "%s (%s) accepted against the %s header", path, libv, hdr);
        CHECK(strstr(msg, "refused") && strstr(msg, libv) && strstr(msg, hdr),
              "the refusal names both versions: '%s'", msg);
        printf("ok: %s is %s, the header is %s: refused (%s)\n", path, libv, hdr, msg);
    }
}
#endif

int main(void)
{
    const char *given = getenv(SPEED_IPSECMB_LIB_ENV);
    char lib[1024] = "";
    if (given && *given)
        snprintf(lib, sizeof lib, "%s", given);
#ifdef AKS_IPSECMB_PREFIX_LIB
    else
        snprintf(lib, sizeof lib, "%s", AKS_IPSECMB_PREFIX_LIB);
#endif

    opts_checks(); /* sets the variable: put back below */
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok: ipsec-mb options\n");
    unsetenv(SPEED_IPSECMB_LIB_ENV);

#ifndef AKS_HAVE_IPSECMB
    printf("SKIP: this build has no ipsec-mb peer (no libIPSec_MB found); the option checks "
           "passed, the version check did not run\n");
    return 77;
#else
    char v[64];
    if (!lib[0] || lib_version(lib, v, sizeof v) != 0 || v[0] < '2') {
        printf("SKIP: no ipsec-mb 2.x pointed at (configure with -DAESKIT_IPSECMB_PREFIX=DIR or "
               "set %s=PATH/libIPSec_MB.so; %s%s): the option checks passed, the version "
               "check did not run\n",
               SPEED_IPSECMB_LIB_ENV, lib[0] ? "given: " : "none given", lib);
        return 77;
    }
    printf("ipsec-mb 2.x: %s (%s); peer header %s\n", lib, v, speed_ipsecmb_header_version());

    /* the library pointed at, and the others at hand: each accepted exactly
       when it is the header's version */
    check_one(lib);
    static const char *const others[] = {"libIPSec_MB.so.1", "libIPSec_MB.so.2"};
    for (size_t i = 0; i < 2; i++) {
        char ov[64];
        if (lib_version(others[i], ov, sizeof ov) == 0)
            check_one(others[i]);
    }
    /* what is not an ipsec-mb library at all */
    char ver[64], msg[512];
    CHECK(speed_ipsecmb_check("/nonexistent/libIPSec_MB.so.2", ver, sizeof ver, msg,
                              sizeof msg) == -1 &&
              strstr(msg, "cannot load"),
          "a missing file: '%s'", msg);
    CHECK(speed_ipsecmb_check("libm.so.6", ver, sizeof ver, msg, sizeof msg) == -1 &&
              strstr(msg, "not an ipsec-mb library"),
          "a library that is not ipsec-mb: '%s'", msg);

    /* the whole command pointed at it: the version is printed in the table,
       or the refusal on stderr */
    char line[1200], *out = NULL, *errtext = NULL;
    snprintf(line, sizeof line,
             "--ipsecmb-lib %s --peers ipsec-mb --alg aes-128-gcm --sizes 64 --seconds 0.01 "
             "--quiet",
             lib);
    int rc = run_line(line, NULL, 0, &out, &errtext);
    CHECK(rc == 0, "run: exit %d: %s", rc, errtext ? errtext : "");
    if (!strcmp(v, speed_ipsecmb_header_version())) {
        char lab[96];
        snprintf(lab, sizeof lab, " %s", v);
        CHECK(out && strstr(out, "ipsec-mb") && strstr(out, lab),
              "the table names ipsec-mb %s:\n%s", v, out ? out : "");
    } else {
        /* (the reason itself goes to the process's stderr, above) */
        CHECK(out && !strstr(out, v), "a refused library is not timed:\n%s", out ? out : "");
    }
    free(out);
    free(errtext);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok: version check\n");
    return 0;
#endif
}
