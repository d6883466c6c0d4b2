/*
 * default_backend.c - issue 3: "the generic backend is never the one chosen
 * on this machine".  On a CPU that reports AES instructions and a carry-less
 * multiply (x86 aesni+pclmul, AArch64 arm-aes+pmull, POWER vcrypto, RISC-V
 * zkne+zknd+clmul), with no
 * AESKIT_CPU mask and no AESKIT_BACKEND override, the default backend and
 * the backend of a freshly initialised key must not be "generic".  A CPU
 * without those features, or an environment that overrides the choice,
 * makes the test skip (exit 77) and say why.
 */
#include "harness.h"

/* 1 if the space-separated list has the word w. */
static int has_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(void)
{
    const char *cpu = getenv("AESKIT_CPU"), *forced = getenv("AESKIT_BACKEND");
    if ((cpu && *cpu) || (forced && *forced)) {
        printf("SKIP: AESKIT_CPU or AESKIT_BACKEND is set; the default choice is overridden\n");
        return 77;
    }
    const char *feat = aeskit_cpu_features();
    int hw = (has_word(feat, "aesni") && has_word(feat, "pclmul")) ||
             (has_word(feat, "arm-aes") && has_word(feat, "pmull")) ||
             has_word(feat, "vcrypto") ||
             (has_word(feat, "zkne") && has_word(feat, "zknd") && has_word(feat, "clmul"));
    if (!hw) {
        printf("SKIP: this CPU reports no AES + carry-less multiply instructions (features: %s)\n",
               feat);
        return 77;
    }
    printf("CPU features: %s\n", feat);

    const char *def = aeskit_backend_default();
    TH_CHECK(strcmp(def, "generic") != 0,
             "aeskit_backend_default() is \"generic\" on a CPU with %s", feat);

    /* The table must agree: exactly one backend chosen, and it is def. */
    size_t chosen = 0;
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        aeskit_backend_info info;
        TH_CHECK(aeskit_backend_get(&info, i) == AESKIT_OK, "aeskit_backend_get(%zu)", i);
        printf("  %-16s variant=\"%s\" available=%d chosen=%d\n", info.name,
               info.variant ? info.variant : "(null)", info.available, info.chosen);
        TH_CHECK(info.variant != NULL, "backend %s: variant is NULL", info.name);
        if (info.chosen) {
            chosen++;
            TH_CHECK(!strcmp(info.name, def), "chosen backend %s is not the default %s",
                     info.name, def);
        }
    }
    TH_CHECK(chosen == 1, "%zu backends marked chosen", chosen);

    uint8_t key[32] = {0x2b, 0x7e, 0x15, 0x16};
    aeskit_gcm_key gk;
    aeskit_status st = aeskit_gcm_init(&gk, key, 16);
    TH_CHECK(st == AESKIT_OK, "aeskit_gcm_init: %s", aeskit_strerror(st));
    if (st == AESKIT_OK) {
        TH_CHECK(strcmp(aeskit_gcm_backend(&gk), "generic") != 0,
                 "a GCM key set up by default reports backend \"%s\"", aeskit_gcm_backend(&gk));
        TH_CHECK(!strcmp(aeskit_gcm_backend(&gk), def), "GCM key backend %s, default %s",
                 aeskit_gcm_backend(&gk), def);
    }
    aeskit_aes_key ak;
    st = aeskit_aes_init(&ak, key, 32);
    TH_CHECK(st == AESKIT_OK, "aeskit_aes_init: %s", aeskit_strerror(st));
    if (st == AESKIT_OK)
        TH_CHECK(strcmp(aeskit_aes_backend(&ak), "generic") != 0,
                 "an AES key set up by default reports backend \"%s\"", aeskit_aes_backend(&ak));
    return th_finish("default_backend");
}
