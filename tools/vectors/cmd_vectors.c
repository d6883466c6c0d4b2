/* cmd_vectors.c - placeholder until `aeskit vectors` lands. */
#include <stdio.h>

#include "commands.h"

int aeskit_cmd_vectors(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "aeskit vectors: not built in this tree yet\n");
    return 2;
}
