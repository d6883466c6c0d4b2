/* cmd_list.c - `aeskit list`: every backend compiled in and what this CPU runs. */
#include <stdio.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: aeskit list\n"
               "\n"
               "Lists the backends compiled in (priority, whether this CPU runs them, whether\n"
               "they are constant-time, what they need), the CPU features detected after the\n"
               "AESKIT_CPU mask, and the backend chosen by default (AESKIT_BACKEND forces it).\n"
               "Exits 2 if AESKIT_CPU or AESKIT_BACKEND is invalid, after the list.\n");
}

int aeskit_cmd_list(int argc, char **argv)
{
    if (argc > 1) {
        if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, "aeskit list: unexpected argument '%s'\n\n", argv[1]);
        usage(stderr);
        return 2;
    }
    printf("aeskit %s\n", aeskit_version());
    printf("CPU features: %s\n\n", aeskit_cpu_features());
    printf("%-16s %-9s %-13s %-8s %s\n", "backend", "priority", "available", "const-t", "requires");
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        aeskit_backend_info bi;
        if (aeskit_backend_get(&bi, i) != AESKIT_OK)
            continue;
        const char *avail = bi.available ? "yes" : "no (CPU)";
        printf("%-16s %-9d %-13s %-8s %s%s\n", bi.name, bi.priority, avail,
               bi.constant_time ? "yes" : "no", bi.requires, bi.chosen ? "   <- chosen" : "");
        if (bi.variant && *bi.variant)
            printf("%-16s variant: %s\n", "", bi.variant);
    }
    /* the list is what a user needs to fix a bad variable: print it first */
    fflush(stdout);
    if (aeskit_tool_check_env("aeskit list", stderr))
        return 2;
    printf("\ndefault backend: %s\n", aeskit_backend_default());
    aeskit_status env = aeskit_env_check();
    if (env != AESKIT_OK)
        printf("environment: %s (%s)\n",
               env == AESKIT_ERR_ENVIRONMENT ? "AESKIT_CPU holds a token that was ignored"
                                             : "AESKIT_BACKEND was ignored",
               aeskit_strerror(env));
    return 0;
}
