/* cmd_speed.c - placeholder until `aeskit speed` lands. */
#include <stdio.h>

#include "commands.h"

int aeskit_cmd_speed(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "aeskit speed: not built in this tree yet\n");
    return 2;
}
