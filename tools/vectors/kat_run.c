/*
 * kat_run.c - checks the known-answer vectors of kat_vectors.c against
 * aeskit under one backend, each through the mode driver of its mode
 * (drive.h): one-shot to the known answer and back, streamed in every
 * split pattern where the mode streams, in-place, and flipped bits refused
 * with the output wiped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "drive.h"
#include "kat_vectors.h"

/* One line per mode: its name in reports and its driver. */
static const struct {
    const char *name, *driver;
} kat_modes[KAT_MODE_COUNT] = {
    [KAT_AES] = {"AES", "aes"},         [KAT_ECB] = {"ECB", "ecb"},
    [KAT_CBC] = {"CBC", "cbc"},         [KAT_CTR] = {"CTR", "ctr"},
    [KAT_GCM] = {"GCM", "gcm"},         [KAT_CMAC] = {"CMAC", "cmac"},
    [KAT_CCM] = {"CCM", "ccm"},         [KAT_XTS] = {"XTS", "xts"},
    [KAT_RFC4106] = {"RFC4106", "rfc4106"},
};

const char *kat_mode_name(enum kat_mode m)
{
    return (unsigned)m < KAT_MODE_COUNT && kat_modes[m].name ? kat_modes[m].name : "?";
}

const char *kat_mode_driver(enum kat_mode m)
{
    return (unsigned)m < KAT_MODE_COUNT ? kat_modes[m].driver : NULL;
}

unsigned kat_run_one(const struct kat_vector *v, const char *be, FILE *log, unsigned long *checks)
{
    uint8_t *key = NULL, *iv = NULL, *aad = NULL, *pt = NULL, *ct = NULL, *tag = NULL;
    size_t kl, ivl, al, pl, cl, tl;
    akd_report r;
    memset(&r, 0, sizeof r);
    const char *driver = kat_mode_driver(v->mode);
    if (kat_field(v->key, 0, &key, &kl) || kat_field(v->iv, 0, &iv, &ivl) ||
        kat_field(v->aad, v->aad_pattern, &aad, &al) ||
        kat_field(v->pt, v->pt_pattern, &pt, &pl) || kat_field(v->ct, 0, &ct, &cl) ||
        kat_field(v->tag, 0, &tag, &tl)) {
        r.failures = 1;
        snprintf(r.why, sizeof r.why, "malformed vector (bad hex or out of memory)");
    } else {
        /* seeded per vector, so a failing split pattern reproduces */
        akd_case c = {.backend = be, .key = key, .key_len = kl, .iv = iv, .iv_len = ivl,
                      .aad = aad, .aad_len = al, .msg = pt, .msg_len = pl, .ct = ct,
                      .ct_len = cl, .tag = tag, .tag_len = tl, .expect = AKD_VALID,
                      .seed = 0x243f6a8885a308d3ull ^ (uint64_t)(v - kat_vectors)};
        if (!driver || akd_run(driver, &c, &r) < 0) {
            r.failures = 1;
            snprintf(r.why, sizeof r.why, "no mode driver for this mode");
        }
    }
    if (r.failures && log)
        fprintf(log, "  FAIL %s [%s]: %s (%lu of %lu checks failed)\n", v->source,
                kat_mode_name(v->mode), r.why, r.failures, r.checks);
    if (checks)
        *checks += r.checks;
    free(key), free(iv), free(aad), free(pt), free(ct), free(tag);
    return (unsigned)r.failures;
}

int kat_run_all(const char *backend, FILE *log, unsigned *passed, unsigned *failed,
                unsigned long *checks)
{
    unsigned p = 0, f = 0;
    if (checks)
        *checks = 0;
    if (backend && aeskit_backend_check(backend) != AESKIT_OK) {
        if (passed)
            *passed = 0;
        if (failed)
            *failed = 0;
        return 77;
    }
    for (size_t i = 0; i < kat_vector_count; i++) {
        if (kat_run_one(&kat_vectors[i], backend, log, checks))
            f++;
        else
            p++;
    }
    if (passed)
        *passed = p;
    if (failed)
        *failed = f;
    return f ? 1 : 0;
}
