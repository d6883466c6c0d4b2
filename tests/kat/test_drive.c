/*
 * test_drive.c - the mode driver (tools/vectors/drive.h) fails when it
 * should: every known-answer vector, with one bit of its expected
 * ciphertext flipped, one bit of its expected tag flipped, or (for the
 * modes that can refuse) marked invalid, must make its driver report a
 * failure.  A driver that passes everything would make every suite that
 * uses it pass; this test keeps that from happening silently.
 */
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "harness.h"
#include "kat_vectors.h"

/* Runs the driver on c; returns 1 if it reported at least one failure. */
static int driver_fails(const char *driver, const akd_case *c)
{
    akd_report r;
    memset(&r, 0, sizeof r);
    return akd_run(driver, c, &r) == 1 && r.failures > 0;
}

int main(void)
{
    const char *be = th_backend();
    for (size_t i = 0; i < kat_vector_count; i++) {
        const struct kat_vector *v = &kat_vectors[i];
        const char *driver = kat_mode_driver(v->mode);
        uint8_t *key, *iv, *aad, *pt, *ct, *tag;
        size_t kl, ivl, al, pl, cl, tl;
        if (kat_field(v->key, 0, &key, &kl) || kat_field(v->iv, 0, &iv, &ivl) ||
            kat_field(v->aad, v->aad_pattern, &aad, &al) ||
            kat_field(v->pt, v->pt_pattern, &pt, &pl) || kat_field(v->ct, 0, &ct, &cl) ||
            kat_field(v->tag, 0, &tag, &tl) || !driver) {
            TH_CHECK(0, "%s: cannot decode the vector", v->source);
            continue;
        }
        akd_case c = {.backend = be, .key = key, .key_len = kl, .iv = iv, .iv_len = ivl,
                      .aad = aad, .aad_len = al, .msg = pt, .msg_len = pl, .ct = ct,
                      .ct_len = cl, .tag = tag, .tag_len = tl, .seed = i + 1};
        akd_report r;
        memset(&r, 0, sizeof r);
        TH_CHECK(akd_run(driver, &c, &r) == 0, "%s: the true vector fails: %s", v->source, r.why);
        if (cl) {
            size_t bit = th_randn(8 * cl);
            ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            TH_CHECK(driver_fails(driver, &c), "%s [%s]: a flipped ciphertext bit %zu passes",
                     v->source, driver, bit);
            ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        if (tl) {
            size_t bit = th_randn(8 * tl);
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            TH_CHECK(driver_fails(driver, &c), "%s [%s]: a flipped tag bit %zu passes", v->source,
                     driver, bit);
            tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        if (pl && v->mode != KAT_CMAC) {
            size_t bit = th_randn(8 * pl);
            pt[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            TH_CHECK(driver_fails(driver, &c), "%s [%s]: a flipped plaintext bit %zu passes",
                     v->source, driver, bit);
            pt[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        /* modes that can refuse a case: a valid vector marked invalid fails */
        if (v->mode == KAT_GCM || v->mode == KAT_CCM || v->mode == KAT_CMAC ||
            v->mode == KAT_RFC4106 || v->mode == KAT_CTR || v->mode == KAT_XTS) {
            c.expect = AKD_INVALID;
            TH_CHECK(driver_fails(driver, &c), "%s [%s]: a valid vector passes as invalid",
                     v->source, driver);
        }
        free(key), free(iv), free(aad), free(pt), free(ct), free(tag);
    }
    return th_finish("drive-selftest");
}
