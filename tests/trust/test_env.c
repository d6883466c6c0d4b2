/*
 * test_env.c - AESKIT_BACKEND and AESKIT_CPU can make a program slower,
 * never make it fail, and aeskit_env_check() says what was made of them.
 *
 * The library reads the environment once, so each setting runs in a child
 * process: this binary spawns itself (posix_spawn, /proc/self/exe) with
 * `--child` and an environment of its choosing, and the child checks
 *   - aeskit_env_check() returns the status expected for that setting;
 *   - aeskit_gcm_init / aeskit_aes_init succeed, with the expected default
 *     backend (the best one where the setting was ignored);
 *   - the key works: its seal equals the generic backend's, and it opens.
 * Registered once, not per backend: it sets AESKIT_BACKEND itself.
 */
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

/* ---- the child ------------------------------------------------------------ */

static int child(const char *label, int want_env, const char *want_default)
{
    const char *be_env = getenv("AESKIT_BACKEND"), *cpu_env = getenv("AESKIT_CPU");
    printf("  child %s: AESKIT_BACKEND=%s AESKIT_CPU=%s\n", label, be_env ? be_env : "(unset)",
           cpu_env ? cpu_env : "(unset)");
    /* The first call that reads the environment is a key set-up, as in a
     * program that never asks. */
    static aeskit_gcm_key gk, gg;
    static const uint8_t key[32] = {0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe};
    int st = aeskit_gcm_init(&gk, key, 16);
    TH_CHECK(st == AESKIT_OK, "%s: aeskit_gcm_init: %s", label, aeskit_strerror(st));
    st = aeskit_env_check();
    TH_CHECK((int)st == want_env, "%s: aeskit_env_check() %d (%s), want %d (%s)", label, (int)st,
             aeskit_strerror(st), want_env, aeskit_strerror(want_env));
    TH_CHECK((int)aeskit_env_check() == st, "%s: aeskit_env_check() changed between calls", label);
    const char *def = aeskit_backend_default();
    /* want_default "*": any backend (one AESKIT_CPU masks depends on the CPU). */
    TH_CHECK(def && (!strcmp(want_default, "*") || !strcmp(def, want_default)),
             "%s: default backend %s, want %s", label, def ? def : "(null)", want_default);
    TH_CHECK(!strcmp(aeskit_gcm_backend(&gk), def), "%s: aeskit_gcm_init chose %s, default %s",
             label, aeskit_gcm_backend(&gk), def);
    TH_CHECK(aeskit_backend_check(def) == AESKIT_OK, "%s: default backend %s cannot run", label,
             def);
    size_t chosen = 0;
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        aeskit_backend_info bi;
        TH_CHECK(aeskit_backend_get(&bi, i) == AESKIT_OK, "%s: aeskit_backend_get(%zu)", label, i);
        if (bi.chosen) {
            chosen++;
            TH_CHECK(!strcmp(bi.name, def) && bi.available, "%s: backend %s marked chosen, default %s",
                     label, bi.name, def);
        }
    }
    TH_CHECK(chosen == 1, "%s: %zu backends marked chosen", label, chosen);

    /* The key works, and agrees with the generic backend. */
    uint8_t iv[12] = {1, 2, 3}, aad[20] = {4}, pt[100], ct[100], ct2[100], back[100], t1[16],
            t2[16];
    for (size_t i = 0; i < sizeof pt; i++)
        pt[i] = (uint8_t)(i * 7 + 1);
    st = aeskit_gcm_init_backend(&gg, key, 16, "generic");
    TH_CHECK(st == AESKIT_OK, "%s: generic init: %s", label, aeskit_strerror(st));
    st = aeskit_gcm_seal(&gk, ct, t1, 16, pt, sizeof pt, iv, 12, aad, sizeof aad);
    TH_CHECK(st == AESKIT_OK, "%s: seal: %s", label, aeskit_strerror(st));
    st = aeskit_gcm_seal(&gg, ct2, t2, 16, pt, sizeof pt, iv, 12, aad, sizeof aad);
    TH_CHECK(st == AESKIT_OK, "%s: generic seal: %s", label, aeskit_strerror(st));
    TH_CHECK(!memcmp(ct, ct2, sizeof ct) && !memcmp(t1, t2, 16), "%s: %s and generic disagree",
             label, def);
    st = aeskit_gcm_open(&gk, back, ct2, sizeof ct2, t2, 16, iv, 12, aad, sizeof aad);
    TH_CHECK(st == AESKIT_OK && !memcmp(back, pt, sizeof pt), "%s: open: %s", label,
             aeskit_strerror(st));
    aeskit_aes_key ak;
    st = aeskit_aes_init(&ak, key, 32);
    TH_CHECK(st == AESKIT_OK, "%s: aeskit_aes_init: %s", label, aeskit_strerror(st));
    TH_CHECK(!strcmp(aeskit_aes_backend(&ak), def), "%s: aeskit_aes_init chose %s, default %s",
             label, aeskit_aes_backend(&ak), def);
    /* *_init_backend is not affected by AESKIT_BACKEND. */
    st = aeskit_aes_init_backend(&ak, key, 32, "generic");
    TH_CHECK(st == AESKIT_OK && !strcmp(aeskit_aes_backend(&ak), "generic"),
             "%s: aeskit_aes_init_backend(generic): %s, backend %s", label, aeskit_strerror(st),
             aeskit_aes_backend(&ak));
    aeskit_aes_wipe(&ak);
    aeskit_gcm_wipe(&gk);
    aeskit_gcm_wipe(&gg);
    return th_finish(label);
}

/* ---- the parent ----------------------------------------------------------- */

/* Runs this binary as a child with the inherited environment minus every
 * AESKIT_BACKEND / AESKIT_CPU, plus `set` (NULL-terminated "NAME=value"). */
static void run_child(const char *label, const char *const *set, int want_env,
                      const char *want_default)
{
    size_t n = 0;
    printf("%s:\n", label);
    while (environ[n])
        n++;
    const char **envp = calloc(n + 8, sizeof *envp);
    if (!envp) {
        TH_CHECK(0, "calloc");
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "AESKIT_BACKEND=", 15) && strncmp(environ[i], "AESKIT_CPU=", 11))
            envp[k++] = environ[i];
    for (size_t i = 0; set[i]; i++)
        envp[k++] = set[i];
    envp[k] = NULL;
    char want_env_s[16];
    snprintf(want_env_s, sizeof want_env_s, "%d", want_env);
    char *argv[] = {(char *)"test_env", (char *)"--child", (char *)label, want_env_s,
                    (char *)want_default, NULL};
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, (char *const *)envp);
    free(envp);
    TH_CHECK(rc == 0, "%s: posix_spawn: %s", label, strerror(rc));
    if (rc != 0)
        return;
    int ws = 0;
    TH_CHECK(waitpid(pid, &ws, 0) == pid, "%s: waitpid", label);
    TH_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "%s: child %s (status %d)", label,
             WIFEXITED(ws) ? "failed" : "crashed", ws);
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--child"))
        return child(argv[2], atoi(argv[3]), argv[4]);
    if (argc == 2 && !strcmp(argv[1], "--probe"))
        return 0;

    /* Every case runs in a copy of this binary.  Under qemu-user an
     * execve of /proc/self/exe starts the emulator itself, not the guest
     * binary, so the copy cannot run: say so and skip (the cases run
     * natively on x86). */
    {
        char *pargv[] = {(char *)"test_env", (char *)"--probe", NULL};
        pid_t pid;
        int ws = 0;
        if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, pargv, environ) != 0 ||
            waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            printf("SKIP: this binary cannot start a copy of itself here (an emulator such as "
                   "qemu-user?), so the environment cases cannot run\n");
            return 77;
        }
    }

    /* This process: neither variable set (ctest sets none for this test). */
    if (getenv("AESKIT_BACKEND") || getenv("AESKIT_CPU")) {
        printf("SKIP: run test_env without AESKIT_BACKEND and AESKIT_CPU\n");
        return 77;
    }
    TH_CHECK(aeskit_env_check() == AESKIT_OK, "aeskit_env_check() with nothing set: %s",
             aeskit_strerror(aeskit_env_check()));
    const char *best = aeskit_backend_default();
    printf("best backend here: %s\n", best);

    {
        const char *set[] = {NULL};
        run_child("unset", set, AESKIT_OK, best);
    }
    {
        const char *set[] = {"AESKIT_BACKEND=", "AESKIT_CPU=", NULL};
        run_child("empty", set, AESKIT_OK, best);
    }
    {
        const char *set[] = {"AESKIT_BACKEND=nonexistent", NULL};
        run_child("backend-unknown", set, AESKIT_ERR_BACKEND_UNKNOWN, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=-bogus", NULL};
        run_child("cpu-bogus", set, AESKIT_ERR_ENVIRONMENT, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=-nonsense,-bogus", NULL};
        run_child("cpu-bogus-list", set, AESKIT_ERR_ENVIRONMENT, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=-avx512", NULL};
        run_child("cpu-known", set, AESKIT_OK, "*");
    }
    {
        const char *set[] = {"AESKIT_CPU=-avx512,-bogus", NULL};
        run_child("cpu-mixed", set, AESKIT_ERR_ENVIRONMENT, "*");
    }
    /* '+' sets a tuning token (the best backend stays the default), never
     * an instruction set: "+avx2" is an ignored token, whatever the CPU
     * has, and so is "+aesni" after "generic". */
    {
        const char *set[] = {"AESKIT_CPU=+kara512", NULL};
        run_child("cpu-tune-on", set, AESKIT_OK, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=-kara512", NULL};
        run_child("cpu-tune-off", set, AESKIT_OK, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=+avx2", NULL};
        run_child("cpu-plus-isa", set, AESKIT_ERR_ENVIRONMENT, best);
    }
    {
        const char *set[] = {"AESKIT_CPU=generic,+aesni", NULL};
        run_child("cpu-plus-after-generic", set, AESKIT_ERR_ENVIRONMENT, "generic");
    }
    {
        const char *set[] = {"AESKIT_BACKEND=generic", NULL};
        run_child("backend-generic", set, AESKIT_OK, "generic");
    }
    {
        const char *set[] = {"AESKIT_CPU=generic", NULL};
        run_child("cpu-generic", set, AESKIT_OK, "generic");
    }
    {
        char be[64];
        snprintf(be, sizeof be, "AESKIT_BACKEND=%s", best);
        const char *set[] = {be, NULL};
        run_child("backend-best", set, AESKIT_OK, best);
    }
    /* A backend compiled in but masked away by AESKIT_CPU: ignored. */
    const char *other = NULL;
    for (size_t i = 0; i < aeskit_backend_count() && !other; i++) {
        aeskit_backend_info bi;
        if (aeskit_backend_get(&bi, i) == AESKIT_OK && strcmp(bi.name, "generic"))
            other = bi.name;
    }
    if (other) {
        char be[64];
        snprintf(be, sizeof be, "AESKIT_BACKEND=%s", other);
        const char *set[] = {be, "AESKIT_CPU=generic", NULL};
        run_child("backend-unavailable", set, AESKIT_ERR_BACKEND_UNAVAILABLE, "generic");
    } else {
        printf("note: only the generic backend is compiled in; no unavailable backend to name\n");
    }
    return th_finish("env");
}
