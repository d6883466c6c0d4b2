/* harness.h - small helpers shared by the speed tests. */
#ifndef SPEED_TEST_HARNESS_H
#define SPEED_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

static int failures;

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            failures++;                                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                       \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fprintf(stderr, "\n");                                                                \
        }                                                                                         \
    } while (0)

/* Parses a command line given as one string (split on spaces) into o;
 * returns the parser's code and the text it printed in *msg (caller frees). */
static inline int parse_line(const char *line, speed_opts *o, char **msg)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = "speed";
    for (char *p = strtok(buf, " "); p && argc < 63; p = strtok(NULL, " "))
        argv[argc++] = p;
    argv[argc] = NULL;
    size_t len = 0;
    char *text = NULL;
    FILE *err = open_memstream(&text, &len);
    int rc = speed_parse_opts(argc, argv, o, err);
    fclose(err);
    if (msg)
        *msg = text;
    else
        free(text);
    return rc;
}

/* Runs the benchmark with the options of line; returns speed_run's code
 * and the output and error text (caller frees). */
static inline int run_line(const char *line, const speed_peer *const *extra, size_t nextra, char **out,
                    char **errtext)
{
    speed_opts o;
    char *msg = NULL;
    int rc = parse_line(line, &o, &msg);
    if (rc) {
        fprintf(stderr, "bad test command line '%s': %s\n", line, msg);
        free(msg);
        return rc;
    }
    free(msg);
    size_t l1 = 0, l2 = 0;
    char *t1 = NULL, *t2 = NULL;
    FILE *fo = open_memstream(&t1, &l1), *fe = open_memstream(&t2, &l2);
    rc = speed_run(&o, extra, nextra, fo, fe);
    fclose(fo);
    fclose(fe);
    *out = t1;
    if (errtext)
        *errtext = t2;
    else
        free(t2);
    return rc;
}

static inline size_t count_lines_with(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        if (strstr(line, needle))
            n++;
        p = e ? e + 1 : p + len;
    }
    return n;
}

static inline int finish(const char *name)
{
    if (failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
