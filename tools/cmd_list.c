/* cmd_list.c - `aeskit list`: every backend compiled in and what this CPU runs. */
#include <stdio.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"

int aeskit_cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: aeskit list\n");
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
    printf("\ndefault backend: %s\n", aeskit_backend_default());
    aeskit_status env = aeskit_env_check();
    if (env != AESKIT_OK)
        printf("environment: %s (%s)\n",
               env == AESKIT_ERR_ENVIRONMENT ? "AESKIT_CPU holds a token that was ignored"
                                             : "AESKIT_BACKEND was ignored",
               aeskit_strerror(env));
    return 0;
}
