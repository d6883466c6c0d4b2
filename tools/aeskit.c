/* aeskit.c - the aeskit command: dispatches to its subcommands. */
#include <stdio.h>
#include <string.h>

#include "aeskit.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *help;
} commands[] = {
    {"speed", aeskit_cmd_speed, "measure throughput against the peer libraries (`aeskit speed --help`)"},
    {"vectors", aeskit_cmd_vectors, "run Wycheproof JSON vector files (`aeskit vectors --help`)"},
    {"isa-speed", aeskit_cmd_isa_speed, "ns per emulated guest AES/CLMUL instruction (aeskit_isa; `--help`)"},
    {"list", aeskit_cmd_list, "list the backends compiled in and the CPU features detected"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: aeskit COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "  %-8s %s\n", "version", "print the library version");
    fprintf(f, "\nenvironment: AESKIT_CPU=generic|-avx512,-vaes,... masks CPU features;\n"
               "             AESKIT_BACKEND=NAME forces the default backend.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
        printf("aeskit %s\n", aeskit_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "aeskit: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
