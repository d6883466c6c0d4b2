/* commands.h - the subcommands of the aeskit tool; each returns the exit code
 * (0 success or help, 1 failure, 2 usage error or a bad environment). */
#ifndef AESKIT_TOOLS_COMMANDS_H
#define AESKIT_TOOLS_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int aeskit_cmd_list(int argc, char **argv);    /* tools/cmd_list.c */
int aeskit_cmd_vectors(int argc, char **argv); /* tools/vectors/ */
int aeskit_cmd_speed(int argc, char **argv);   /* tools/speed/ */
int aeskit_cmd_isa_speed(int argc, char **argv); /* tools/isa/ */

/* tools/env_check.c: checks AESKIT_CPU (every token known) and
 * AESKIT_BACKEND (a backend this CPU can run).  Returns 0, or 2 after
 * saying on err, prefixed with prog, what is wrong. */
int aeskit_tool_check_env(const char *prog, FILE *err);
/* The feature tokens AESKIT_CPU accepts after '-', space-separated. */
const char *aeskit_tool_cpu_tokens(char *buf, size_t n);

#endif
