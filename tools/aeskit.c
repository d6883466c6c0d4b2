/* aeskit.c - the aeskit command: dispatches to its subcommands.
 *
 * Every command answers -h/--help (and `aeskit help COMMAND`) on stdout
 * with exit 0; a usage error prints the usage on stderr and exits 2. */
#include <stdio.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *help;
} commands[] = {
    {"list", aeskit_cmd_list, "list the backends compiled in and the CPU features detected"},
    {"vectors", aeskit_cmd_vectors, "run the built-in known answers and Wycheproof JSON files"},
    {"speed", aeskit_cmd_speed, "measure throughput against the peer libraries"},
    {"isa-speed", aeskit_cmd_isa_speed, "ns per emulated guest AES/CLMUL instruction (aeskit_isa)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: aeskit COMMAND [ARGS]\n"
               "       aeskit help COMMAND | -h | --help\n"
               "       aeskit version | -V | --version\n"
               "\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "  %-8s %s\n", "help", "show a command's options (`aeskit help speed`)");
    fprintf(f, "  %-8s %s\n", "version", "print the library version");
    fprintf(f, "\nenvironment:\n"
               "  AESKIT_CPU=generic | -FEATURE,...  mask CPU features (e.g. -avx512,-vaes)\n"
               "  AESKIT_BACKEND=NAME               the default backend (`aeskit list`)\n"
               "\nExit status: 0 success (and help), 1 a failure, 2 a usage error or a bad\n"
               "environment variable.  See aeskit(1).\n");
}

static int is_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "help");
}

static int find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name))
            return (int)i;
    return -1;
}

int main(int argc, char **argv)
{
    if (aeskit_abi_check() != AESKIT_OK) {
        fprintf(stderr, "aeskit: built for libaeskit %s, running with %s (ABI mismatch)\n",
                AESKIT_VERSION_STRING, aeskit_version());
        return 2;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (is_help(cmd)) {
        if (argc == 2) {
            usage(stdout);
            return 0;
        }
        int k = argc == 3 ? find(argv[2]) : -1;
        if (argc == 3 && (!strcmp(argv[2], "version") || is_help(argv[2]))) {
            usage(stdout);
            return 0;
        }
        if (k < 0) {
            fprintf(stderr, "aeskit help: unknown command '%s'\n\n", argv[2]);
            usage(stderr);
            return 2;
        }
        char *sub[] = {(char *)commands[k].name, "--help", NULL};
        return commands[k].run(2, sub);
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        if (argc > 2) {
            fprintf(stderr, "aeskit %s: unexpected argument '%s'\n\n", cmd, argv[2]);
            usage(stderr);
            return 2;
        }
        printf("aeskit %s\n", aeskit_version());
        return 0;
    }
    int k = find(cmd);
    if (k >= 0)
        return commands[k].run(argc - 1, argv + 1);
    if (cmd[0] == '-')
        fprintf(stderr, "aeskit: unknown option '%s'\n\n", cmd);
    else
        fprintf(stderr, "aeskit: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
