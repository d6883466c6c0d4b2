/* commands.h - the subcommands of the aeskit tool; each returns the exit code. */
#ifndef AESKIT_TOOLS_COMMANDS_H
#define AESKIT_TOOLS_COMMANDS_H

int aeskit_cmd_list(int argc, char **argv);    /* tools/cmd_list.c */
int aeskit_cmd_vectors(int argc, char **argv); /* tools/vectors/ */
int aeskit_cmd_speed(int argc, char **argv);   /* tools/speed/ */
int aeskit_cmd_isa_speed(int argc, char **argv); /* tools/isa/ */

#endif
