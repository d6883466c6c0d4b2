/*
 * cbc_lanes_akv.h - the multi-lane CBC kernel (cbc_lanes, ak_cbc_lane in
 * internal.h) over the akv vocabulary (akv.h), for arm64-ce and ppc64-p8.
 * Include after aes_gcm_akv.h (its key layout, akv_aes_key).
 *
 * CPU features: those of akv.h (AArch64 FEAT_AES; POWER8 vector crypto);
 * every function carries AKV_TARGET.
 *
 * Up to AKV_LANES_SLOTS independent chains in flight, one per vector
 * register: AESE+AESMC (or vcipher) have a latency of a few cycles and
 * pipeline, so one chain leaves the unit mostly idle.  Runs and refills as
 * in src/x86/cbc_lanes_tmpl.h: every busy slot advances by the fewest
 * blocks any busy slot has left, then finished slots write their chaining
 * value back and the last busy slot moves into the gap, so a run of few
 * chains uses only as many registers as it has chains.  Each slot's round
 * keys are copied into a per-call table once, when the lane enters it.
 *
 * Constant time: branches and addresses depend on block counts, the number
 * of lanes, round counts and pointers (public); the table and chaining
 * values are wiped.
 */
#ifndef AKV_LANES_SLOTS
#define AKV_LANES_SLOTS 8
#endif

typedef struct akv_lanes_state {
    akv K[AKV_LANES_SLOTS][15];
    akv s[AKV_LANES_SLOTS];
    const uint8_t *in[AKV_LANES_SLOTS];
    uint8_t *out[AKV_LANES_SLOTS];
    size_t rem[AKV_LANES_SLOTS], lane[AKV_LANES_SLOTS];
} akv_lanes_state;

/* m blocks of slots 0..ns-1 in lockstep; ns and nr constant at each call. */
AKV_INLINE void akv_lanes_run(akv_lanes_state *st, size_t m, const unsigned ns, const int nr)
{
    akv s[AKV_LANES_SLOTS];
    for (unsigned q = 0; q < ns; q++)
        s[q] = st->s[q];
    for (size_t j = 0; j < m; j++) {
        for (unsigned q = 0; q < ns; q++)
            s[q] = akv_enc_first(akv_xor(s[q], akv_load(st->in[q] + 16 * j)), st->K[q]);
        AKV_UNROLL
        for (int i = 0; i < nr - 1; i++)
            for (unsigned q = 0; q < ns; q++)
                s[q] = akv_enc_round(s[q], st->K[q], i);
        for (unsigned q = 0; q < ns; q++) {
            s[q] = akv_enc_last(s[q], st->K[q], nr);
            if (st->out[q])
                akv_store(st->out[q] + 16 * j, s[q]);
        }
    }
    for (unsigned q = 0; q < ns; q++)
        st->s[q] = s[q];
}

AKV_INLINE void akv_lanes_run_n(akv_lanes_state *st, size_t m, unsigned ns, const int nr)
{
    switch (ns) {
    case 1: akv_lanes_run(st, m, 1, nr); break;
    case 2: akv_lanes_run(st, m, 2, nr); break;
    case 3: akv_lanes_run(st, m, 3, nr); break;
    case 4: akv_lanes_run(st, m, 4, nr); break;
    case 5: akv_lanes_run(st, m, 5, nr); break;
    case 6: akv_lanes_run(st, m, 6, nr); break;
    case 7: akv_lanes_run(st, m, 7, nr); break;
    default: akv_lanes_run(st, m, AKV_LANES_SLOTS, nr); break;
    }
}
_Static_assert(AKV_LANES_SLOTS == 8, "akv_lanes_run_n lists the slot counts 1..8");

AKV_INLINE void akv_lanes_body(akv_lanes_state *st, ak_cbc_lane *l, size_t n, const int nr)
{
    size_t next = 0;
    unsigned na = 0;
    for (;;) {
        while (na < AKV_LANES_SLOTS && next < n) {
            ak_cbc_lane *c = &l[next++];
            if (!c->blocks || c->aes->rounds != (uint32_t)nr)
                continue;
            akv_load_keys(st->K[na], akv_key(c->aes)->enc[0], nr);
            st->s[na] = akv_load(c->iv);
            st->in[na] = c->in;
            st->out[na] = c->out;
            st->rem[na] = c->blocks;
            st->lane[na] = (size_t)(c - l);
            na++;
        }
        if (na == 0)
            return;
        size_t m = st->rem[0];
        for (unsigned q = 1; q < na; q++)
            m = st->rem[q] < m ? st->rem[q] : m;
        akv_lanes_run_n(st, m, na, nr);
        for (unsigned q = 0; q < na; q++) {
            st->rem[q] -= m;
            st->in[q] += 16 * m;
            if (st->out[q])
                st->out[q] += 16 * m;
        }
        for (unsigned q = 0; q < na;) {
            if (st->rem[q]) {
                q++;
                continue;
            }
            akv_store(l[st->lane[q]].iv, st->s[q]);
            na--;
            if (q != na) {
                for (int r = 0; r <= nr; r++)
                    st->K[q][r] = st->K[na][r];
                st->s[q] = st->s[na];
                st->in[q] = st->in[na];
                st->out[q] = st->out[na];
                st->rem[q] = st->rem[na];
                st->lane[q] = st->lane[na];
            }
        }
    }
}

AKV_TARGET static void akv_be_cbc_lanes(ak_cbc_lane *l, size_t n)
{
    akv_lanes_state st;
    akv_lanes_body(&st, l, n, 10);
    akv_lanes_body(&st, l, n, 12);
    akv_lanes_body(&st, l, n, 14);
    aeskit_memzero(&st, sizeof st);
}
