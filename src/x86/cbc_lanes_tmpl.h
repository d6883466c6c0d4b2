/*
 * cbc_lanes_tmpl.h - the multi-lane CBC kernel (ak_cbc_lane, internal.h)
 * written once over a small vector vocabulary, instantiated on zmm
 * (cbc_lanes_vaes512.c), ymm (cbc_lanes_vaes2.c) and xmm (cbc_lanes_aesni.c).
 *
 * CPU features: whatever the including file's CL_TGT names; every function
 * here carries that target attribute, no global -m flag is used.
 *
 * The including file defines, before #include:
 *   CL_TGT      the target() string of every function
 *   CL_LV       chains per vector (128-bit lanes: 4 zmm, 2 ymm, 1 xmm)
 *   CL_NV       vectors in flight at most (CL_NV * CL_LV = CL_SLOTS chains)
 *   cl_vec      the vector type
 *   VFN         its static always-inline target attribute
 *   cl_load, cl_store (whole vector, aligned 64), cl_bcast (one 16-byte key
 *   into every lane), cl_xor, cl_xor3, cl_enc, cl_enclast, and
 *   cl_loadu, cl_storeu (whole vector, any alignment),
 *   cl_gather(p, off): lane i = the 16 bytes at p[i] + off, i < CL_LV
 *   cl_scatter(p, mask, off, v): the reverse, lane i to p[i] + (off & mask[i])
 *   cl_transpose(x): x[i] lane j <-> x[j] lane i, for CL_LV vectors
 *   cl_enc_schedule(k): the FIPS-197 encryption schedule in the key's data
 *   (16 * (rounds + 1) bytes, round keys in the AES-NI byte order).
 * and may define (cl_run says what they choose):
 *   CL_AHEAD        1 (default): the next chunk is loaded before a chunk's
 *                   last block ends, so that block too folds the next one in
 *   CL_AHEAD_MAC    the same for runs that store nothing (default CL_AHEAD)
 *   CL_FOLD_STORES  1 (default): runs that store (CBC encryption) fold too,
 *                   not only CBC-MAC runs
 *
 * Shape.  One CBC chain is serial: block j + 1 waits for the R rounds of
 * block j, so a single chain runs at the AES latency (3 cycles a round
 * here) while the unit could start several rounds per cycle.  This kernel
 * keeps up to CL_SLOTS independent chains ("slots") in flight: slot s is
 * 128-bit lane s % CL_LV of vector s / CL_LV.  A "run" advances every busy
 * slot by the same number of blocks m (the fewest any busy slot has left),
 * all slots in lockstep; after the run, slots whose lane is done write
 * their chaining value back, the busy slots close up in order and the
 * free slots are refilled from the lanes not yet started, so the busy
 * slots are always 0..na-1 and a run uses only ceil(na / CL_LV) vectors
 * (one chain left alone runs in one vector at the single-chain speed, not
 * in all of them).  Slots of the last vector past na ("padding") repeat
 * slot 0's input pointer and key, and store into a scratch block.
 *
 * Keys may differ from slot to slot, so each run reads round r of its
 * vector's slots side by side from a per-call table kt[r][s] (memory
 * operands of the AES instructions); when every slot of a run has the
 * same key (pointer compare) the run keeps the broadcast round keys in
 * registers instead.  Lanes of different key sizes never share a run: the
 * lanes are taken one round count at a time (10, 12, 14), R a compile-time
 * constant of each run.
 *
 * Each block: s = E(s ^ p) is one 3-way XOR of the chain, the input block
 * and round key 0, R - 1 AESENC and one AESENCLAST; CBC encryption stores
 * s, CBC-MAC (out NULL) stores nothing (its slot's store goes to the
 * scratch block when another slot of the same vector stores).
 *
 * Memory: each lane's in is read exactly blocks * 16 bytes, out written
 * exactly so; in place (out == in) is safe because the input block of
 * step j is loaded before the output of step j is stored, and no load of a
 * later step reads what an earlier step stored (other lanes' buffers are
 * disjoint by the contract).
 *
 * Constant time: branches and addresses depend on block counts, the number
 * of lanes, round counts, and key and buffer pointers, all public; keys,
 * data and chaining values only flow through vector XOR and AES
 * instructions and fixed-index copies.  The per-call table, the chaining
 * values and the scratch block are wiped before returning.
 */

#define CL_SLOTS (CL_NV * CL_LV)
#ifndef CL_AHEAD
#define CL_AHEAD 1
#endif
#ifndef CL_FOLD_STORES
#define CL_FOLD_STORES 1
#endif
#ifndef CL_AHEAD_MAC
#define CL_AHEAD_MAC CL_AHEAD
#endif
#define CL_TFN static __attribute__((target(CL_TGT)))

typedef struct cl_state {
    AK_ALIGN64 uint8_t kt[15][CL_SLOTS][16]; /* round r of slot s's key */
    AK_ALIGN64 uint8_t chain[CL_SLOTS][16];  /* chaining values between runs */
    AK_ALIGN64 uint8_t scratch[16 * CL_LV];  /* stores of slots without output */
    const uint8_t *in[CL_SLOTS];             /* next input block */
    uint8_t *out[CL_SLOTS];                  /* next output block, or scratch */
    size_t ostep[CL_SLOTS];                  /* 1 if out advances, 0 for scratch */
    size_t rem[CL_SLOTS];                    /* blocks left */
    size_t lane[CL_SLOTS];                   /* index of the lane in the call */
    const ak_aes *key[CL_SLOTS];
} cl_state;

/* Round r's key of vector g: the broadcast key kr[r] when every slot
 * shares one key, else the slots' keys side by side from st->kt. */
VFN cl_vec cl_key(const cl_state *st, const cl_vec *kr, const unsigned r, const unsigned g, const int shared)
{
    return shared ? kr[r] : cl_load(st->kt[r][g * CL_LV]);
}

/* One block of every slot of the ng vectors: s = E(s ^ x). */
VFN void cl_step(cl_vec *s, const cl_vec *x, const cl_state *st, const cl_vec *kr, const unsigned ng,
                 const unsigned R, const int shared)
{
    for (unsigned g = 0; g < ng; g++)
        s[g] = cl_xor3(s[g], x[g], cl_key(st, kr, 0, g, shared));
    for (unsigned r = 1; r < R; r++)
        for (unsigned g = 0; g < ng; g++)
            s[g] = cl_enc(s[g], cl_key(st, kr, r, g, shared));
    for (unsigned g = 0; g < ng; g++)
        s[g] = cl_enclast(s[g], cl_key(st, kr, R, g, shared));
}

/* Rounds 1 to R - 1 of every slot of the ng vectors (the middle of E). */
VFN void cl_middle(cl_vec *s, const cl_state *st, const cl_vec *kr, const unsigned ng, const unsigned R,
                   const int shared)
{
    for (unsigned r = 1; r < R; r++)
        for (unsigned g = 0; g < ng; g++)
            s[g] = cl_enc(s[g], cl_key(st, kr, r, g, shared));
}

/* The chunk of CL_LV blocks at byte offset off of every slot of the ng
 * vectors, transposed: x[i][g] holds block i of vector g's slots. */
VFN void cl_load_chunk(cl_vec x[CL_LV][CL_NV], const uint8_t *const *ip, const size_t off, const unsigned ng)
{
    for (unsigned g = 0; g < ng; g++) {
        cl_vec t[CL_LV];
        for (unsigned i = 0; i < CL_LV; i++)
            t[i] = cl_loadu(ip[g * CL_LV + i] + off);
        cl_transpose(t);
        for (unsigned i = 0; i < CL_LV; i++)
            x[i][g] = t[i];
    }
}

/* m blocks of the ng vectors' slots in lockstep.  ng, R and shared are
 * constants at every call site (cl_run_r); shared is 0 (each slot's key
 * from st->kt), 1 (one key, broadcast), 2 (one key, next block folded
 * into the last round, below) or 3 (as 2, and no slot stores: a CBC-MAC
 * run, whose ciphertexts are neither formed nor transposed).  Whole
 * chunks of CL_LV blocks read each slot's CL_LV blocks with one vector
 * load and write them with one store, transposed between "CL_LV blocks of
 * one slot" and "one block of CL_LV slots": each cache line of a lane is
 * then touched once, which matters when lanes lie a multiple of 4 KiB
 * apart and all map to one L1 set (docs/cbc-lanes.md).  The last
 * m % CL_LV blocks go one at a time.
 *
 * The next block folded into the last round.  AESENCLAST ends with the
 * XOR of its round key, so for the block x' that follows block x,
 *   E(s ^ x) ^ x' ^ K_0 = AESENCLAST(a, K_R ^ K_0 ^ x'),
 * a the state after round R - 1: the chaining value and the next block's
 * round-0 input come out of one instruction, and the chain of AES
 * instructions has no XOR between blocks (K_R ^ K_0 ^ x' does not wait
 * for the chain).  With shared >= 2 every block of a chunk but its last
 * ends this way, and with look-ahead (CL_AHEAD, CL_AHEAD_MAC) the last
 * too (the next chunk is loaded and transposed first) except the loop's
 * very last block; the ciphertext stored is then that output ^ K_0 ^ x',
 * also off the chain.  The chaining value held between chunks (without
 * look-ahead), between runs and in the single-block tail is the plain
 * E(s ^ x).  Only shared keys fold: with a key per slot K_R ^ K_0 is one
 * more table load per block, and the loads cost more than the XOR they
 * save (docs/performance.md). */
VFN void cl_run(cl_state *st, size_t m, const unsigned ng, const unsigned R, const int shared)
{
    cl_vec s[CL_NV], kr[15], k0r; /* k0r: K_0 ^ K_R, shared keys only */
    const uint8_t *ip[CL_SLOTS];
    uint8_t *op[CL_SLOTS];
    size_t omask[CL_SLOTS];
    int gstore[CL_NV];
    for (unsigned g = 0; g < ng; g++) {
        s[g] = cl_load(st->chain[g * CL_LV]);
        gstore[g] = 0;
        for (unsigned i = 0; i < CL_LV; i++) {
            unsigned q = g * CL_LV + i;
            ip[q] = st->in[q];
            op[q] = st->out[q];
            omask[q] = (size_t)0 - st->ostep[q];
            gstore[g] |= st->ostep[q] != 0;
        }
    }
    if (shared) {
        const uint8_t *rk = cl_enc_schedule(st->key[0]);
        for (unsigned r = 0; r <= R; r++)
            kr[r] = cl_bcast(rk + 16 * r);
        k0r = cl_xor(kr[0], kr[R]);
    } else {
        k0r = cl_xor(s[0], s[0]); /* never read: keys per slot do not fold */
    }
    size_t j = 0;
    cl_vec x[CL_LV][CL_NV];
    const int fold = shared >= 2, mac = shared == 3, ahead = fold && (mac ? CL_AHEAD_MAC : CL_AHEAD);
    if (ahead && m >= CL_LV) {
        cl_load_chunk(x, ip, 0, ng);
        for (unsigned g = 0; g < ng; g++)
            s[g] = cl_xor3(s[g], x[0][g], kr[0]);
    }
    for (; j + CL_LV <= m; j += CL_LV) {
        const size_t off = 16 * j;
        const int more = ahead && j + 2 * CL_LV <= m;
        if (!ahead) {
            cl_load_chunk(x, ip, off, ng);
            for (unsigned g = 0; g < ng; g++)
                s[g] = cl_xor3(s[g], x[0][g], cl_key(st, kr, 0, g, shared));
        }
        cl_vec y[CL_NV][CL_LV];
        for (unsigned i = 0; i < CL_LV; i++) {
            if (!fold && i > 0)
                for (unsigned g = 0; g < ng; g++)
                    s[g] = cl_xor3(s[g], x[i][g], cl_key(st, kr, 0, g, shared));
            cl_middle(s, st, kr, ng, R, shared);
            if (fold && (i + 1 < CL_LV || more)) {
                if (i + 1 == CL_LV)
                    cl_load_chunk(x, ip, off + 16 * CL_LV, ng);
                const unsigned n = (i + 1) % CL_LV;
                for (unsigned g = 0; g < ng; g++) {
                    s[g] = cl_enclast(s[g], cl_xor(x[n][g], k0r));
                    if (!mac)
                        y[g][i] = cl_xor3(s[g], x[n][g], kr[0]);
                }
            } else {
                for (unsigned g = 0; g < ng; g++) {
                    s[g] = cl_enclast(s[g], cl_key(st, kr, R, g, shared));
                    if (!mac)
                        y[g][i] = s[g];
                }
            }
        }
        for (unsigned g = 0; g < ng; g++) {
            if (mac || !gstore[g])
                continue;
            cl_transpose(y[g]);
            for (unsigned i = 0; i < CL_LV; i++) {
                unsigned q = g * CL_LV + i;
                cl_storeu(op[q] + (off & omask[q]), y[g][i]);
            }
        }
    }
    for (; j < m; j++) {
        const size_t off = 16 * j;
        cl_vec xg[CL_NV];
        for (unsigned g = 0; g < ng; g++)
            xg[g] = cl_gather(ip + g * CL_LV, off);
        cl_step(s, xg, st, kr, ng, R, shared);
        for (unsigned g = 0; g < ng; g++)
            if (!mac && gstore[g])
                cl_scatter(op + g * CL_LV, omask + g * CL_LV, off, s[g]);
    }
    for (unsigned g = 0; g < ng; g++)
        cl_store(st->chain[g * CL_LV], s[g]);
}

VFN void cl_run_r(cl_state *st, size_t m, unsigned ng, const unsigned R, const int shared)
{
    switch (ng) {
    case 1: cl_run(st, m, 1, R, shared); break;
#if CL_NV >= 2
    case 2: cl_run(st, m, 2, R, shared); break;
#endif
#if CL_NV >= 3
    case 3: cl_run(st, m, 3, R, shared); break;
#endif
#if CL_NV >= 4
    case 4: cl_run(st, m, 4, R, shared); break;
#endif
#if CL_NV >= 5
    case 5: cl_run(st, m, 5, R, shared); break;
#endif
#if CL_NV >= 6
    case 6: cl_run(st, m, 6, R, shared); break;
#endif
#if CL_NV >= 7
    case 7: cl_run(st, m, 7, R, shared); break;
#endif
#if CL_NV >= 8
    case 8: cl_run(st, m, 8, R, shared); break;
#endif
    default: break;
    }
}

/* Puts lane l (index idx) into slot q; with one (every lane of the call
 * has one key object, so cl_run always takes the broadcast keys) the
 * per-slot key table is neither written nor read. */
static inline void cl_slot_fill(cl_state *st, unsigned q, ak_cbc_lane *l, size_t idx, unsigned R, int one)
{
    const uint8_t *rk = cl_enc_schedule(l->aes);
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], rk + 16 * r, 16);
    memcpy(st->chain[q], l->iv, 16);
    st->in[q] = l->in;
    st->out[q] = l->out ? l->out : st->scratch;
    st->ostep[q] = l->out != NULL;
    st->rem[q] = l->blocks;
    st->lane[q] = idx;
    st->key[q] = l->aes;
}

/* Moves slot from into slot q (one: as for cl_slot_fill). */
static inline void cl_slot_move(cl_state *st, unsigned q, unsigned from, unsigned R, int one)
{
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], st->kt[r][from], 16);
    memcpy(st->chain[q], st->chain[from], 16);
    st->in[q] = st->in[from];
    st->out[q] = st->out[from];
    st->ostep[q] = st->ostep[from];
    st->rem[q] = st->rem[from];
    st->lane[q] = st->lane[from];
    st->key[q] = st->key[from];
}

/* Slot q repeats slot 0's input and key, and stores into the scratch
 * block (one: as for cl_slot_fill). */
static inline void cl_slot_pad(cl_state *st, unsigned q, unsigned R, int one)
{
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], st->kt[r][0], 16);
    st->in[q] = st->in[0];
    st->out[q] = st->scratch;
    st->ostep[q] = 0;
    st->key[q] = st->key[0];
}

/* The next lane with R rounds and blocks to do, at or after *next. */
static inline ak_cbc_lane *cl_next_lane(ak_cbc_lane *l, size_t n, size_t *next, unsigned R)
{
    while (*next < n) {
        ak_cbc_lane *c = &l[(*next)++];
        if (c->blocks && c->aes->rounds == R)
            return c;
    }
    return NULL;
}

/* Every lane of n with R rounds, through the slots (one: as for
 * cl_slot_fill). */
VFN void cl_lanes_r(cl_state *st, ak_cbc_lane *l, size_t n, const unsigned R, int one)
{
    size_t next = 0;
    unsigned na = 0;
    for (;;) {
        ak_cbc_lane *c;
        while (na < CL_SLOTS && (c = cl_next_lane(l, n, &next, R)) != NULL) {
            cl_slot_fill(st, na, c, (size_t)(c - l), R, one);
            na++;
        }
        if (na == 0)
            return;
        const unsigned ng = (na + CL_LV - 1) / CL_LV;
        for (unsigned q = na; q < ng * CL_LV; q++)
            cl_slot_pad(st, q, R, one);
        size_t m = st->rem[0];
        int shared = 1, store = st->ostep[0] != 0;
        for (unsigned q = 1; q < na; q++) {
            m = st->rem[q] < m ? st->rem[q] : m;
            shared &= st->key[q] == st->key[0];
            store |= st->ostep[q] != 0;
        }
        /* A run folds (cl_run) under one key: always when it stores
         * nothing, when it stores where the backend's CL_FOLD_STORES says
         * that pays. */
        if (shared && !store)
            cl_run_r(st, m, ng, R, 3);
        else if (shared && CL_FOLD_STORES)
            cl_run_r(st, m, ng, R, 2);
        else if (shared)
            cl_run_r(st, m, ng, R, 1);
        else
            cl_run_r(st, m, ng, R, 0);
        /* Retire the finished slots, advance the others and close the
         * gaps (the busy slots keep their order: each moves at most once,
         * none when every slot ends together). */
        unsigned w = 0;
        for (unsigned q = 0; q < na; q++) {
            if (st->rem[q] == m) {
                memcpy(l[st->lane[q]].iv, st->chain[q], 16);
                continue;
            }
            if (w != q)
                cl_slot_move(st, w, q, R, one);
            st->rem[w] -= m;
            st->in[w] += 16 * m;
            st->out[w] += 16 * m * st->ostep[w];
            w++;
        }
        na = w;
    }
}

CL_TFN void cl_lanes(ak_cbc_lane *l, size_t n)
{
    cl_state st;
    unsigned rmax = 0;
    const ak_aes *k0 = NULL;
    int one = 1;
    for (size_t i = 0; i < n; i++) {
        if (!l[i].blocks)
            continue;
        if (l[i].aes->rounds > rmax)
            rmax = l[i].aes->rounds;
        k0 = k0 ? k0 : l[i].aes;
        one &= l[i].aes == k0;
    }
    if (rmax == 0)
        return;
    /* Padding slots and unused rows are read before anything wrote them.
     * Under one key object the key table is never used: no copy of the
     * round keys to fill or wipe. */
    if (!one)
        memset(st.kt, 0, sizeof st.kt[0] * (rmax + 1));
    memset(st.chain, 0, sizeof st.chain);
    memset(st.scratch, 0, sizeof st.scratch);
    cl_lanes_r(&st, l, n, 10, one);
    if (rmax >= 12)
        cl_lanes_r(&st, l, n, 12, one);
    if (rmax >= 14)
        cl_lanes_r(&st, l, n, 14, one);
    if (!one)
        aeskit_memzero(st.kt, sizeof st.kt[0] * (rmax + 1));
    aeskit_memzero(st.chain, sizeof st.chain);
    aeskit_memzero(st.scratch, sizeof st.scratch);
}
