/*
 * omac.h - private helpers of the SIV and EAX front ends (siv.c, eax.c):
 * an incremental CMAC over several pieces of one message (the key set-up,
 * the doubling and the init checks are keys.c's, in modes.h).  Portable C11.
 */
#ifndef AESKIT_MODES_OMAC_H
#define AESKIT_MODES_OMAC_H

#include "modes.h"

/* Incremental CMAC: the CBC-MAC state and the last 1..16 bytes held back
 * (the last block is completed with K1 or 10*||K2 only at the end). */
typedef struct om_cmac {
    uint8_t st[16];
    uint8_t buf[16];
    size_t n; /* bytes in buf, 0..16 */
} om_cmac;

static inline void om_start(om_cmac *m)
{
    memset(m, 0, sizeof *m);
}

/* Starts from a known chaining state with no bytes held back (EAX: the
 * state after the tweak block [t]_16, which is never the last block when
 * more data follows; om_final handles an empty remainder separately). */
static inline void om_start_state(om_cmac *m, const uint8_t st[16])
{
    memcpy(m->st, st, 16);
    memset(m->buf, 0, 16);
    m->n = 0;
}

static inline void om_update(const ak_cmac_key *c, om_cmac *m, const uint8_t *in, size_t len)
{
    const ak_aes *a = &c->aes;
    if (!len)
        return;
    if (m->n) {
        size_t take = 16 - m->n;
        if (take > len)
            take = len;
        memcpy(m->buf + m->n, in, take);
        m->n += take;
        in += take;
        len -= take;
        if (!len)
            return;
        a->be->cbcmac(a, m->st, m->buf, 1);
        m->n = 0;
    }
    /* Whole blocks that are certainly not last; hold back 1..16 bytes. */
    size_t body = (len - 1) / 16;
    if (body)
        a->be->cbcmac(a, m->st, in, body);
    in += body * 16;
    len -= body * 16;
    memcpy(m->buf, in, len);
    m->n = len;
}

/* The MAC (SP 800-38B 6.2 steps 3-6) of everything fed; m is wiped. */
static inline void om_final(const ak_cmac_key *c, om_cmac *m, uint8_t mac[16])
{
    uint8_t last[16];
    if (m->n == 16) {
        ak_xor16(last, m->buf, c->k1);
    } else {
        memset(last, 0, 16);
        memcpy(last, m->buf, m->n);
        last[m->n] = 0x80;
        for (int i = 0; i < 16; i++)
            last[i] ^= c->k2[i];
    }
    c->aes.be->cbcmac(&c->aes, m->st, last, 1);
    memcpy(mac, m->st, 16);
    mo_wipe(last, sizeof last);
    mo_wipe(m, sizeof *m);
}

/* CTR with a 128-bit big-endian increment from ctr (updated): whole blocks
 * through the backend's ctr128, a tail through one ecb_encrypt. */
static inline void om_ctr128(const ak_aes *a, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                             size_t len)
{
    size_t nb = len / 16, rem = len % 16;
    if (nb)
        a->be->ctr128(a, out, in, nb, ctr);
    if (rem) {
        uint8_t ks[16];
        a->be->ecb_encrypt(a, ks, ctr, 1);
        mo_inc128(ctr);
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = in[nb * 16 + i] ^ ks[i];
        mo_wipe(ks, sizeof ks);
    }
}

#endif /* AESKIT_MODES_OMAC_H */
