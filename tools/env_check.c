/*
 * env_check.c - the tool's own check of AESKIT_CPU and AESKIT_BACKEND, so
 * that a typo is reported instead of silently ignored (AESKIT_CPU) or
 * turned into a benchmark row for no backend (AESKIT_BACKEND).
 *
 * AESKIT_CPU is a list separated by commas or spaces of "generic" (or
 * "none"), which masks every feature, "-TOKEN", which masks one, and
 * "+TOKEN" for a tuning token, which sets it; the tokens are those of
 * src/cpu.c.  AESKIT_BACKEND names a backend of
 * `aeskit list` that this CPU can run; empty means unset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"

/* The feature names AESKIT_CPU accepts after '-' (src/cpu.c mask_tokens). */
static const char *const cpu_tokens[] = {
    "aesni", "pclmul", "ssse3",    "sse4.1",   "avx",      "avx2",     "vaes",    "vpclmulqdq",
    "avx512", "avx512f", "avx512bw", "avx512vl", "bmi2", "asimd", "arm-aes", "pmull", "altivec", "vcrypto",
    "zkn", "zkne", "zknd", "clmul", "kara512",
};

/* The tuning tokens among them, which "+TOKEN" sets (src/cpu.c AK_CPU_TUNE). */
static const char *const cpu_tune_tokens[] = {"kara512"};

const char *aeskit_tool_cpu_tokens(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof cpu_tokens / sizeof cpu_tokens[0]; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? " " : "", cpu_tokens[i]);
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

static int check_cpu(const char *prog, const char *spec, FILE *err)
{
    const char *p = spec;
    while (*p) {
        size_t n = strcspn(p, ", ");
        if (n) {
            char tok[64];
            snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
            int ok = !strcmp(tok, "generic") || !strcmp(tok, "none");
            for (size_t i = 0; !ok && tok[0] == '-' && i < sizeof cpu_tokens / sizeof cpu_tokens[0];
                 i++)
                ok = !strcmp(tok + 1, cpu_tokens[i]);
            for (size_t i = 0;
                 !ok && tok[0] == '+' && i < sizeof cpu_tune_tokens / sizeof cpu_tune_tokens[0]; i++)
                ok = !strcmp(tok + 1, cpu_tune_tokens[i]);
            if (!ok) {
                char list[256];
                fprintf(err,
                        "%s: AESKIT_CPU=\"%s\": unknown token '%s'%s\n"
                        "  (known: generic, none, -FEATURE to mask one of: %s; +kara512 to set that tuning)\n",
                        prog, spec, tok,
                        tok[0] != '-' && tok[0] != '+' ? " (a feature is masked with a leading '-')" : "",
                        aeskit_tool_cpu_tokens(list, sizeof list));
                return 2;
            }
        }
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return 0;
}

int aeskit_tool_check_env(const char *prog, FILE *err)
{
    const char *cpu = getenv("AESKIT_CPU");
    if (cpu && check_cpu(prog, cpu, err))
        return 2;
    const char *be = getenv("AESKIT_BACKEND");
    if (be && *be) {
        aeskit_status st = aeskit_backend_check(be);
        if (st != AESKIT_OK) {
            fprintf(err, "%s: AESKIT_BACKEND=\"%s\": %s (the backends are listed by `aeskit list`)\n",
                    prog, be, aeskit_strerror(st));
            return 2;
        }
    }
    /* The library's own verdict as well: should this list and src/cpu.c's
     * ever differ, a token the library ignores still fails here. */
    if (aeskit_env_check() == AESKIT_ERR_ENVIRONMENT) {
        fprintf(err, "%s: AESKIT_CPU=\"%s\": the library ignored a token of it\n", prog,
                cpu ? cpu : "");
        return 2;
    }
    return 0;
}
