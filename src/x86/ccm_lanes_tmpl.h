/*
 * ccm_lanes_tmpl.h - the multi-lane CCM payload kernel (ak_ccm_lane,
 * internal.h): CBC-MAC chains and the CTR streams of the same messages in
 * one round loop, written over the vector vocabulary of cbc_lanes_tmpl.h
 * and instantiated with it on zmm (cbc_lanes_vaes512.c).
 *
 * Why zmm only.  Each block costs two AES encryptions (MAC and keystream),
 * so the kernel is bound by AES throughput as soon as the MAC chains in
 * flight cover the latency.  On zmm 16 chains (4 vectors) do, with room in
 * the 32 registers for the chains, the keystream vectors of a step and a
 * transposed chunk.  On ymm and xmm the same 4 vectors are 8 or 4 chains and 16
 * registers spill; there the old path (MAC lanes, then each message's CTR
 * through the backend's tuned ctr128) measured 5-10% faster at 1420 and
 * 4096 bytes, so those backends leave the hook NULL.
 *
 * CPU features: whatever the including file's CL_TGT names; every function
 * here carries that target attribute, no global -m flag is used.
 *
 * The including file defines, besides cbc_lanes_tmpl.h's vocabulary (and
 * after including it):
 *   CM_NV            vectors of chains in flight at most (CM_NV * CL_LV slots)
 *   cl_bswap(v)      each 128-bit lane's 16 bytes in reverse order
 *   cl_inc64(v)      each 128-bit lane's low 64-bit word plus 1 (no carry
 *                    into the high word)
 *   cl_add64(a, b)   64-bit words added
 *   cl_set64(n)      n in each 128-bit lane's low 64-bit word, 0 above
 *   cl_lane_index()  lane i's low 64-bit word i, 0 above
 *   cl_rev16_add(d, s, v)  16 bytes of s reversed, plus v in the low
 *                    64-bit word (no carry), to d
 *
 * Why fused.  A CBC-MAC step of one vector of chains is R dependent AES
 * rounds, so CM_NV vectors of chains issue CM_NV AES instructions per
 * round latency; the unit takes more.  The CTR blocks of the same messages
 * depend on nothing but their counters, so they run in the same round loop
 * as the chains: per step (one MAC block of every slot) CM_NV vectors of
 * chains and CM_NV vectors of keystream, R rounds each.
 *
 * Two layouts.  The MAC chains need one block of CL_LV slots per vector
 * (the chunk of CL_LV blocks per slot, loaded whole and transposed, as
 * cbc_lanes_tmpl.h loads its chunks).  The keystream has no chain, so
 * when every slot has one key object (cm_run) it is computed, inside
 * whole chunks, in the layout of the data: one vector = CL_LV consecutive
 * counter blocks of one slot, so a slot's output chunk is its input chunk
 * XOR one keystream vector, stored whole with no transpose.  Step i of a chunk runs the MAC of block i of every
 * slot beside the keystream vectors of slots i * ng .. i * ng + ng - 1
 * (cm_chunk_step), the chains' rounds first in each round.
 *
 * Seal: the MAC input is the plaintext, the chunk itself, so a chunk's
 * steps compute its own keystream.  Open: the MAC input is the plaintext
 * = ciphertext XOR keystream, so the keystream runs one chunk ahead: the
 * first chunk's alone, then each chunk's steps compute the next chunk's
 * plaintext, stored to out and to a stack row per slot that the next
 * chunk transposes for its MAC; the last chunk's steps are MAC only.  The
 * MAC chain never waits for a keystream in either direction.
 *
 * Keys per slot (cm_run_t).  A keystream vector in the data's layout
 * needs its slot's key in every lane, one more load or broadcast per
 * round and vector beside the MAC's; that costs more than the output
 * transposes it saves.  So with keys per slot the keystream is computed
 * in the MAC's layout, vector g of counters beside vector g of chains
 * under the same round-key operand, one block ahead (each step computes
 * the next block's keystream, a run starts with one keystream-only step),
 * and each output chunk is transposed back before its stores.
 *
 * The last m % CL_LV blocks of a run go one at a time in the transposed
 * layout (cl_gather, cl_scatter).  A run leaves the keystream of the
 * counter after its last block (ks: the partial last block's, once the
 * slot's lane is done) and, for slots filled for this run, S0 = E(Ctr0)
 * (pre, then s0): cm_run computes both after its last block in one round
 * loop, cm_run_t computes S0 beside its first keystream block.
 *
 * Counters.  A slot keeps its counter block byte-reversed, so the
 * big-endian increment of the block's last 8 bytes is one 64-bit add on
 * the lane's low word (cl_inc64, cl_add64); cl_bswap turns it back into
 * the AES input.  Block j of a run has the slot's counter at the run's
 * start plus j, so a chunk's keystream vector is that counter broadcast
 * plus (j, j + 1, ..., j + CL_LV - 1).  The contract (internal.h) rules
 * out a carry out of those 8 bytes.
 *
 * Slots, runs, refills, padding, per-slot key tables and round counts are
 * those of cbc_lanes_tmpl.h (its top comment): up to CM_SLOTS messages in
 * flight in lockstep runs of the shortest remaining length, finished
 * slots refilled from the lanes not yet started or compacted, one round
 * count per pass.  Round keys always come from the per-call table: a
 * vector reads its slots' keys side by side.  When every lane of the call
 * has one key object the table is written once as one vector per round,
 * that key's round key broadcast (cm_key1), and slot fills, moves and
 * pads leave it alone; the runs read every round key from it (one
 * address per round, one load for the MAC and keystream instructions of
 * the round).  Padding slots repeat slot 0's input and key and store
 * into the scratch block.
 *
 * Memory: each lane's in is read and its out written exactly blocks * 16
 * bytes; in place is safe: a chunk's MAC input is loaded (seal) or was
 * staged (open) before any of its stores, a slot's input vector is read
 * again for its output before that slot's store, and later loads read
 * later blocks.
 *
 * Constant time: branches and addresses depend on block counts, the number
 * of lanes, round counts, the direction and key and buffer pointers, all
 * public; keys, data, MAC chaining values and counters only flow through
 * vector XOR, add, shuffle and AES instructions and fixed-index copies.
 * The per-call table, chaining values, counters, keystream blocks, the
 * scratch block and open's staged plaintext are wiped before returning.
 */

#define CM_SLOTS (CM_NV * CL_LV)
_Static_assert(CM_NV <= CL_NV, "ccm lanes: chunks load through cl_load_chunk (cbc_lanes_tmpl.h)");

/* The secret per-slot rows, mac .. scratch, lie side by side: one wipe. */
typedef struct cm_state {
    AK_ALIGN64 uint8_t kt[15][CM_SLOTS][16]; /* round r of slot s's key (one key: cm_key1) */
    AK_ALIGN64 uint8_t mac[CM_SLOTS][16];    /* MAC chaining values between runs */
    AK_ALIGN64 uint8_t ctr[CM_SLOTS][16];    /* counter blocks, byte-reversed */
    AK_ALIGN64 uint8_t ks[CM_SLOTS][16];     /* E(ctr) after a run */
    AK_ALIGN64 uint8_t c0[CM_SLOTS][16];     /* Ctr0 of a slot just filled, byte-reversed */
    AK_ALIGN64 uint8_t pre[CM_SLOTS][16];    /* E(c0) after a run with fresh slots */
    AK_ALIGN64 uint8_t s0[CM_SLOTS][16];     /* the slot's lane's E(Ctr0) */
    AK_ALIGN64 uint8_t scratch[16 * CL_LV];  /* stores of padding slots */
    int fresh[CM_SLOTS];                     /* filled, no run yet */
    const uint8_t *in[CM_SLOTS];             /* next input block */
    uint8_t *out[CM_SLOTS];                  /* next output block, or scratch */
    size_t omask[CM_SLOTS];                  /* all ones if out advances, 0 for scratch */
    size_t rem[CM_SLOTS];                    /* blocks left */
    size_t lane[CM_SLOTS];                   /* index of the lane in the call */
} cm_state;

/* Round r's keys of vector g's slots, from the table at kt (st->kt). */
VFN cl_vec cm_key(const uint8_t *kt, unsigned r, unsigned g)
{
    return cl_load(kt + 16 * ((size_t)r * CM_SLOTS + g * CL_LV));
}

/* The table's address, hidden from the optimiser once per step: the round
 * keys are loop invariants, and a compiler that hoists or merges their
 * loads across steps holds R + 1 vectors per group in registers, which do
 * not fit and are spilled, a copy of the whole table per chunk.  Loaded
 * afresh each step they are memory operands, one load per round and
 * vector, shared by the MAC and CTR instructions.  (An empty asm with the
 * pointer as its operand: no instruction, only the optimiser's view.) */
VFN const uint8_t *cm_table(const cm_state *st)
{
    const uint8_t *p = &st->kt[0][0][0];
    __asm__("" : "+r"(p));
    return p;
}

/* Under one key object (cm_table_fill_one) the table is one vector per
 * round, the key broadcast: round r's key at kt + r vectors, the same
 * address for every vector of the round, so one load serves it. */
VFN cl_vec cm_key1(const uint8_t *kt, unsigned r)
{
    return cl_load(kt + sizeof(cl_vec) * r);
}

/* Round r's key for the MAC vector g, with one (every slot holds the same
 * key) from the table of one vector per round. */
VFN cl_vec cm_mkey(const uint8_t *kt, unsigned r, unsigned g, const int one)
{
    return one ? cm_key1(kt, r) : cm_key(kt, r, g);
}

/* The keystream blocks of the ng vectors' counters, k = E(c), and with
 * pre also p = E(d) of the counters d in the same round loop (one vector
 * holds one block of CL_LV slots). */
VFN void cm_keystream(cl_vec *k, const cl_vec *c, cl_vec *p, const cl_vec *d, const uint8_t *kt,
                      const unsigned ng, const unsigned R, const int pre, const int one)
{
    for (unsigned g = 0; g < ng; g++) {
        k[g] = cl_xor(cl_bswap(c[g]), cm_mkey(kt, 0, g, one));
        if (pre)
            p[g] = cl_xor(cl_bswap(d[g]), cm_mkey(kt, 0, g, one));
    }
    for (unsigned r = 1; r < R; r++)
        for (unsigned g = 0; g < ng; g++) {
            k[g] = cl_enc(k[g], cm_mkey(kt, r, g, one));
            if (pre)
                p[g] = cl_enc(p[g], cm_mkey(kt, r, g, one));
        }
    for (unsigned g = 0; g < ng; g++) {
        k[g] = cl_enclast(k[g], cm_mkey(kt, R, g, one));
        if (pre)
            p[g] = cl_enclast(p[g], cm_mkey(kt, R, g, one));
    }
}

/* Every slot under one key object (cm_run): one MAC block of the ng
 * vectors of chains s (inputs x: one block of CL_LV slots per vector) and,
 * in the same round loop, the nk keystream vectors v from their counters
 * c (byte-reversed; one vector holds CL_LV consecutive blocks of one
 * slot).  Every round key is vector r of the one-key table (cm_key1), one
 * address for the round's MAC and keystream instructions.  In each round
 * the chains' instructions come first: the scheduler issues the oldest
 * ready instruction, so a chain's next round is never queued behind
 * keystream rounds of the same round. */
VFN void cm_fused(cl_vec *s, const cl_vec *x, cl_vec *v, const cl_vec *c, const uint8_t *kt,
                  const unsigned ng, const unsigned nk, const unsigned R)
{
    for (unsigned g = 0; g < ng; g++)
        s[g] = cl_xor3(s[g], x[g], cm_key1(kt, 0));
    for (unsigned t = 0; t < nk; t++)
        v[t] = cl_xor(cl_bswap(c[t]), cm_key1(kt, 0));
    for (unsigned r = 1; r < R; r++) {
        for (unsigned g = 0; g < ng; g++)
            s[g] = cl_enc(s[g], cm_key1(kt, r));
        for (unsigned t = 0; t < nk; t++)
            v[t] = cl_enc(v[t], cm_key1(kt, r));
    }
    for (unsigned g = 0; g < ng; g++)
        s[g] = cl_enclast(s[g], cm_key1(kt, R));
    for (unsigned t = 0; t < nk; t++)
        v[t] = cl_enclast(v[t], cm_key1(kt, R));
}

/* Step i (0 .. CL_LV - 1) of a chunk: the MAC of block i of every slot of
 * the ng vectors (x: the chunk transposed, NULL for none) beside the
 * keystream of slots i * ng .. i * ng + ng - 1 over the chunk at byte
 * offset off (with ks), whose counters are the run's start counters
 * plus jv (lane l: j + l).  The keystream is XORed into the input and
 * stored at the output; with pb also into the slot's row of pb (open:
 * the plaintext, for the next chunk's MAC). */
VFN void cm_chunk_step(cm_state *st, cl_vec *s, const cl_vec *x, const uint8_t *const *ip,
                       uint8_t *const *op, const size_t *om, uint8_t *pb, const size_t off,
                       const cl_vec jv, const unsigned i, const unsigned ng, const int ks,
                       const unsigned R)
{
    cl_vec c[CM_NV], v[CM_NV];
    const unsigned nk = ks ? ng : 0, q0 = i * ng;
    for (unsigned t = 0; t < nk; t++)
        c[t] = cl_add64(cl_bcast(st->ctr[q0 + t]), jv);
    cm_fused(s, x, v, c, cm_table(st), x ? ng : 0, nk, R);
    for (unsigned t = 0; t < nk; t++) {
        const unsigned q = q0 + t;
        const cl_vec y = cl_xor(cl_loadu(ip[q] + off), v[t]);
        cl_storeu(op[q] + (off & om[q]), y);
        if (pb)
            cl_store(pb + 16 * CL_LV * q, y);
    }
}

/* m blocks of the ng vectors' slots in lockstep, every slot under one key
 * object (cm_run_t: keys per slot); ng, R and open are constants at every
 * call site (cm_run_r).
 *
 * Whole chunks of CL_LV blocks per slot.  The MAC needs one block of
 * CL_LV slots per vector (the chunk transposed, cl_load_chunk); the
 * keystream of a chunk is computed with CL_LV consecutive counters of one
 * slot per vector, the layout of the slot's input and output, so the
 * output needs no transpose: out = in XOR keystream, one vector per slot
 * and chunk.  Step i of a chunk runs the MAC of block i of every slot
 * beside the keystream of a quarter of the slots (cm_chunk_step): the two
 * AES streams of the same size in one round loop.
 *   Seal: the MAC input is the plaintext, the chunk itself, so a chunk's
 * steps compute its own keystream (the plaintext is loaded again per slot
 * for the output, before that slot's store: in place is safe).
 *   Open: the MAC input is the plaintext in XOR keystream, so the
 * keystream runs one chunk ahead: chunk 0's first, alone, then each
 * chunk's steps compute the next chunk's plaintext, stored to out and to
 * pb (a slot's CL_LV blocks in one row), which the next chunk transposes
 * for its MAC; the last chunk's steps are MAC only.
 * The last m % CL_LV blocks go one at a time in the transposed layout:
 * the block's keystream, then its MAC.  The run ends with the keystream
 * of the counter after the last block (ks) and, for fresh slots, E(Ctr0)
 * (pre). */
VFN void cm_run(cm_state *st, size_t m, const unsigned ng, const unsigned R, const int open,
                const int fresh)
{
    cl_vec s[CM_NV], c[CM_NV], k[CM_NV];
    const uint8_t *ip[CM_SLOTS], *pp[CM_SLOTS];
    uint8_t *op[CM_SLOTS];
    size_t om[CM_SLOTS];
    AK_ALIGN64 uint8_t pb[CM_SLOTS][16 * CL_LV];
    for (unsigned g = 0; g < ng; g++) {
        s[g] = cl_load(st->mac[g * CL_LV]);
        for (unsigned i = 0; i < CL_LV; i++) {
            unsigned q = g * CL_LV + i;
            ip[q] = st->in[q];
            op[q] = st->out[q];
            om[q] = st->omask[q];
            pp[q] = pb[q];
        }
    }
    const size_t nch = m / CL_LV;
    cl_vec jv = cl_lane_index();
    const cl_vec step = cl_set64(CL_LV);
    if (open && nch) {
        for (unsigned i = 0; i < CL_LV; i++)
            cm_chunk_step(st, s, NULL, ip, op, om, pb[0], 0, jv, i, ng, 1, R);
    }
    for (size_t h = 0; open && h + 1 < nch; h++) {
        const size_t off = 16 * CL_LV * (h + 1);
        cl_vec x[CL_LV][CL_NV];
        cl_load_chunk(x, pp, 0, ng);
        jv = cl_add64(jv, step);
#pragma GCC unroll 4
        for (unsigned i = 0; i < CL_LV; i++)
            cm_chunk_step(st, s, x[i], ip, op, om, pb[0], off, jv, i, ng, 1, R);
    }
    if (open && nch) {
        cl_vec x[CL_LV][CL_NV];
        cl_load_chunk(x, pp, 0, ng);
        for (unsigned i = 0; i < CL_LV; i++)
            cm_chunk_step(st, s, x[i], ip, op, om, NULL, 0, jv, i, ng, 0, R);
    }
    for (size_t h = 0; !open && h < nch; h++) {
        const size_t off = 16 * CL_LV * h;
        cl_vec x[CL_LV][CL_NV];
        cl_load_chunk(x, ip, off, ng);
#pragma GCC unroll 4
        for (unsigned i = 0; i < CL_LV; i++)
            cm_chunk_step(st, s, x[i], ip, op, om, NULL, off, jv, i, ng, 1, R);
        jv = cl_add64(jv, step);
    }
    const cl_vec jc = cl_set64(CL_LV * nch);
    for (unsigned g = 0; g < ng; g++)
        c[g] = cl_add64(cl_load(st->ctr[g * CL_LV]), jc);
    for (size_t j = CL_LV * nch; j < m; j++) {
        const size_t off = 16 * j;
        cl_vec x[CM_NV], y[CM_NV];
        cm_keystream(k, c, k, c, cm_table(st), ng, R, 0, 1);
        for (unsigned g = 0; g < ng; g++) {
            x[g] = cl_gather(ip + g * CL_LV, off);
            y[g] = cl_xor(x[g], k[g]);
            c[g] = cl_inc64(c[g]);
        }
        cm_fused(s, open ? y : x, k, c, cm_table(st), ng, 0, R);
        for (unsigned g = 0; g < ng; g++)
            cl_scatter(op + g * CL_LV, om + g * CL_LV, off, y[g]);
    }
    if (fresh) {
        cl_vec d[CM_NV], p[CM_NV];
        for (unsigned g = 0; g < ng; g++)
            d[g] = cl_load(st->c0[g * CL_LV]);
        cm_keystream(k, c, p, d, cm_table(st), ng, R, 1, 1);
        for (unsigned g = 0; g < ng; g++)
            cl_store(st->pre[g * CL_LV], p[g]);
    } else {
        cm_keystream(k, c, k, c, cm_table(st), ng, R, 0, 1);
    }
    for (unsigned g = 0; g < ng; g++) {
        cl_store(st->mac[g * CL_LV], s[g]);
        cl_store(st->ctr[g * CL_LV], c[g]);
        cl_store(st->ks[g * CL_LV], k[g]);
    }
    if (open)
        aeskit_memzero(pb, sizeof pb);
}

/* One block of every slot of the ng vectors: x in, the output block out;
 * s the MAC chains, c the counters (byte-reversed: this block's in, the
 * next block's out), k the keystream (this block's in, the next block's
 * out). */
VFN void cm_step_t(cl_vec *s, cl_vec *c, cl_vec *k, cl_vec *x, const uint8_t *kt, const unsigned ng,
                   const unsigned R, const int open)
{
    for (unsigned g = 0; g < ng; g++) {
        const cl_vec k0 = cm_key(kt, 0, g);
        const cl_vec y = cl_xor(x[g], k[g]);
        s[g] = cl_xor3(s[g], open ? y : x[g], k0);
        x[g] = y;
        c[g] = cl_inc64(c[g]);
        k[g] = cl_xor(cl_bswap(c[g]), k0);
    }
    for (unsigned r = 1; r < R; r++)
        for (unsigned g = 0; g < ng; g++) {
            const cl_vec kr = cm_key(kt, r, g);
            s[g] = cl_enc(s[g], kr);
            k[g] = cl_enc(k[g], kr);
        }
    for (unsigned g = 0; g < ng; g++) {
        const cl_vec kr = cm_key(kt, R, g);
        s[g] = cl_enclast(s[g], kr);
        k[g] = cl_enclast(k[g], kr);
    }
}

/* m blocks of the ng vectors' slots in lockstep, keys per slot: the
 * keystream in the MAC's transposed layout, one block ahead (each step
 * computes the next block's keystream beside this block's MAC, a run
 * starts with one keystream-only step), and each output chunk transposed
 * back before its stores.  Every AES instruction of vector g reads the
 * same round-key operand as its MAC: in the data's layout (cm_run) a
 * keystream vector needs its slot's key broadcast, one more load or
 * instruction per round and vector, which costs more than the output
 * transposes (docs/cbc-lanes.md, "Zen 4: the fused CCM kernel's
 * schedule").  ng, R and open are constants at every call site. */
VFN void cm_run_t(cm_state *st, size_t m, const unsigned ng, const unsigned R, const int open,
                  const int fresh)
{
    cl_vec s[CM_NV], c[CM_NV], k[CM_NV];
    const uint8_t *ip[CM_SLOTS];
    uint8_t *op[CM_SLOTS];
    size_t om[CM_SLOTS];
    for (unsigned g = 0; g < ng; g++) {
        s[g] = cl_load(st->mac[g * CL_LV]);
        c[g] = cl_load(st->ctr[g * CL_LV]);
        for (unsigned i = 0; i < CL_LV; i++) {
            unsigned q = g * CL_LV + i;
            ip[q] = st->in[q];
            op[q] = st->out[q];
            om[q] = st->omask[q];
        }
    }
    if (fresh) {
        cl_vec d[CM_NV], p[CM_NV];
        for (unsigned g = 0; g < ng; g++)
            d[g] = cl_load(st->c0[g * CL_LV]);
        cm_keystream(k, c, p, d, cm_table(st), ng, R, 1, 0);
        for (unsigned g = 0; g < ng; g++)
            cl_store(st->pre[g * CL_LV], p[g]);
    } else {
        cm_keystream(k, c, k, c, cm_table(st), ng, R, 0, 0);
    }
    size_t j = 0;
    for (; j + CL_LV <= m; j += CL_LV) {
        const size_t off = 16 * j;
        cl_vec x[CL_LV][CL_NV];
        cl_load_chunk(x, ip, off, ng);
#pragma GCC unroll 4
        for (unsigned i = 0; i < CL_LV; i++)
            cm_step_t(s, c, k, x[i], cm_table(st), ng, R, open);
        for (unsigned g = 0; g < ng; g++) {
            cl_vec t[CL_LV];
            for (unsigned i = 0; i < CL_LV; i++)
                t[i] = x[i][g];
            cl_transpose(t);
            for (unsigned i = 0; i < CL_LV; i++) {
                unsigned q = g * CL_LV + i;
                cl_storeu(op[q] + (off & om[q]), t[i]);
            }
        }
    }
    for (; j < m; j++) {
        const size_t off = 16 * j;
        cl_vec x[CM_NV];
        for (unsigned g = 0; g < ng; g++)
            x[g] = cl_gather(ip + g * CL_LV, off);
        cm_step_t(s, c, k, x, cm_table(st), ng, R, open);
        for (unsigned g = 0; g < ng; g++)
            cl_scatter(op + g * CL_LV, om + g * CL_LV, off, x[g]);
    }
    for (unsigned g = 0; g < ng; g++) {
        cl_store(st->mac[g * CL_LV], s[g]);
        cl_store(st->ctr[g * CL_LV], c[g]);
        cl_store(st->ks[g * CL_LV], k[g]);
    }
}

VFN void cm_run_k(cm_state *st, size_t m, const unsigned ng, const unsigned R, const int open,
                  const int one, int fresh)
{
    if (one)
        cm_run(st, m, ng, R, open, fresh);
    else
        cm_run_t(st, m, ng, R, open, fresh);
}

VFN void cm_run_ng(cm_state *st, size_t m, unsigned ng, const unsigned R, const int open,
                   const int one, int fresh)
{
    switch (ng) {
    case 1: cm_run_k(st, m, 1, R, open, one, fresh); break;
#if CM_NV >= 2
    case 2: cm_run_k(st, m, 2, R, open, one, fresh); break;
#endif
#if CM_NV >= 3
    case 3: cm_run_k(st, m, 3, R, open, one, fresh); break;
#endif
#if CM_NV >= 4
    case 4: cm_run_k(st, m, 4, R, open, one, fresh); break;
#endif
#if CM_NV >= 5
    case 5: cm_run_k(st, m, 5, R, open, one, fresh); break;
#endif
#if CM_NV >= 6
    case 6: cm_run_k(st, m, 6, R, open, one, fresh); break;
#endif
#if CM_NV >= 7
    case 7: cm_run_k(st, m, 7, R, open, one, fresh); break;
#endif
#if CM_NV >= 8
    case 8: cm_run_k(st, m, 8, R, open, one, fresh); break;
#endif
    default: break;
    }
}

/* The runs, one function per round count, direction and key layout
 * (one: every slot under one key object), each compiled apart: the
 * register allocation of one chunk loop does not depend on the others
 * (inlined into one function with them, the loops spilled more;
 * docs/cbc-lanes.md). */
CL_TFN __attribute__((noinline)) void cm_run10s1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 10, 0, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run10o1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 10, 1, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run12s1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 12, 0, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run12o1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 12, 1, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run14s1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 14, 0, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run14o1(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 14, 1, 1, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run10s0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 10, 0, 0, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run10o0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 10, 1, 0, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run12s0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 12, 0, 0, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run12o0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 12, 1, 0, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run14s0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 14, 0, 0, fresh);
}
CL_TFN __attribute__((noinline)) void cm_run14o0(cm_state *st, size_t m, unsigned ng, int fresh)
{
    cm_run_ng(st, m, ng, 14, 1, 0, fresh);
}

VFN void cm_run_r(cm_state *st, size_t m, unsigned ng, const unsigned R, const int open, int one,
                  int fresh)
{
    if (R == 10 && one)
        (open ? cm_run10o1 : cm_run10s1)(st, m, ng, fresh);
    else if (R == 10)
        (open ? cm_run10o0 : cm_run10s0)(st, m, ng, fresh);
    else if (R == 12 && one)
        (open ? cm_run12o1 : cm_run12s1)(st, m, ng, fresh);
    else if (R == 12)
        (open ? cm_run12o0 : cm_run12s0)(st, m, ng, fresh);
    else if (one)
        (open ? cm_run14o1 : cm_run14s1)(st, m, ng, fresh);
    else
        (open ? cm_run14o0 : cm_run14s0)(st, m, ng, fresh);
}

/* Puts lane l (index idx) into slot q; with one (every lane of the call
 * has one key object, and cm_table_fill_one wrote that key into every
 * slot of the table) the key rows are left as they are. */
VFN void cm_slot_fill(cm_state *st, unsigned q, const ak_ccm_lane *l, size_t idx, unsigned R,
                      int one)
{
    const uint8_t *rk = cl_enc_schedule(l->aes);
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], rk + 16 * r, 16);
    memcpy(st->mac[q], l->mac, 16);
    cl_rev16_add(st->c0[q], l->ctr, 0);
    cl_rev16_add(st->ctr[q], l->ctr, 1);
    st->fresh[q] = 1;
    st->in[q] = l->in;
    st->out[q] = l->out;
    st->omask[q] = ~(size_t)0;
    st->rem[q] = l->blocks;
    st->lane[q] = idx;
}

/* Moves slot from into slot q (one: as for cm_slot_fill). */
static inline void cm_slot_move(cm_state *st, unsigned q, unsigned from, unsigned R, int one)
{
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], st->kt[r][from], 16);
    memcpy(st->mac[q], st->mac[from], 16);
    memcpy(st->ctr[q], st->ctr[from], 16);
    memcpy(st->ks[q], st->ks[from], 16);
    memcpy(st->s0[q], st->s0[from], 16);
    st->fresh[q] = st->fresh[from];
    st->in[q] = st->in[from];
    st->out[q] = st->out[from];
    st->omask[q] = st->omask[from];
    st->rem[q] = st->rem[from];
    st->lane[q] = st->lane[from];
}

/* Slot q repeats slot 0's input and key, and stores into the scratch block
 * (one: as for cm_slot_fill); its rows the run reads, the MAC and the
 * counters, are zero (the run loads whole vectors of slots). */
static inline void cm_slot_pad(cm_state *st, unsigned q, unsigned R, int one)
{
    for (unsigned r = 0; !one && r <= R; r++)
        memcpy(st->kt[r][q], st->kt[r][0], 16);
    memset(st->mac[q], 0, 16);
    memset(st->ctr[q], 0, 16);
    memset(st->c0[q], 0, 16);
    st->in[q] = st->in[0];
    st->out[q] = st->scratch;
    st->omask[q] = 0;
}

/* The next lane with R rounds, at or after *next (lanes of 0 blocks too:
 * a run of 0 blocks computes their ks). */
static inline ak_ccm_lane *cm_next_lane(ak_ccm_lane *l, size_t n, size_t *next, unsigned R)
{
    while (*next < n) {
        ak_ccm_lane *c = &l[(*next)++];
        if (c->aes->rounds == R)
            return c;
    }
    return NULL;
}

/* Slot q's lane gets its results back. */
VFN void cm_slot_retire(const cm_state *st, ak_ccm_lane *l, unsigned q)
{
    ak_ccm_lane *d = &l[st->lane[q]];
    memcpy(d->mac, st->mac[q], 16);
    cl_rev16_add(d->ctr, st->ctr[q], 0);
    memcpy(d->ks, st->ks[q], 16);
    memcpy(d->s0, st->s0[q], 16);
}

/* Every lane of n with R rounds, through the slots (one: as for
 * cm_slot_fill). */
VFN void cm_lanes_r(cm_state *st, ak_ccm_lane *l, size_t n, const unsigned R, const int open,
                    int one)
{
    size_t next = 0;
    unsigned na = 0;
    for (;;) {
        ak_ccm_lane *c;
        while (na < CM_SLOTS && (c = cm_next_lane(l, n, &next, R)) != NULL) {
            cm_slot_fill(st, na, c, (size_t)(c - l), R, one);
            na++;
        }
        if (na == 0)
            return;
        const unsigned ng = (na + CL_LV - 1) / CL_LV;
        for (unsigned q = na; q < ng * CL_LV; q++)
            cm_slot_pad(st, q, R, one);
        size_t m = st->rem[0];
        for (unsigned q = 1; q < na; q++)
            m = st->rem[q] < m ? st->rem[q] : m;
        int fresh = 0;
        for (unsigned q = 0; q < na; q++)
            fresh |= st->fresh[q];
        cm_run_r(st, m, ng, R, open, one, fresh);
        for (unsigned q = 0; fresh && q < na; q++) {
            if (st->fresh[q])
                memcpy(st->s0[q], st->pre[q], 16);
            st->fresh[q] = 0;
        }
        for (unsigned q = 0; q < na; q++) {
            st->rem[q] -= m;
            st->in[q] += 16 * m;
            st->out[q] += 16 * m;
        }
        /* Retire the finished slots; the last busy slot fills each gap
         * (finished slots at the end retire where they are: when a run
         * ends every slot, nothing moves). */
        for (unsigned q = 0; q < na;) {
            if (st->rem[q]) {
                q++;
                continue;
            }
            cm_slot_retire(st, l, q);
            while (--na > q && !st->rem[na])
                cm_slot_retire(st, l, na);
            if (q != na)
                cm_slot_move(st, q, na, R, one);
        }
    }
}

/* Every lane, one round count at a time (R a constant of each pass). */
VFN void cm_lanes_dir(cm_state *st, ak_ccm_lane *l, size_t n, unsigned rmax, const int open,
                      int one)
{
    cm_lanes_r(st, l, n, 10, open, one);
    if (rmax >= 12)
        cm_lanes_r(st, l, n, 12, open, one);
    if (rmax >= 14)
        cm_lanes_r(st, l, n, 14, open, one);
}

/* Under one key object: the table is that key's round keys 0..R, each
 * broadcast to one vector (cm_key1), written once for the call. */
VFN void cm_table_fill_one(cm_state *st, const ak_aes *a, unsigned R)
{
    const uint8_t *rk = cl_enc_schedule(a);
    for (unsigned r = 0; r <= R; r++)
        cl_store(&st->kt[0][0][0] + sizeof(cl_vec) * r, cl_bcast(rk + 16 * r));
}

CL_TFN void cm_lanes(ak_ccm_lane *l, size_t n, int open)
{
    cm_state st;
    unsigned rmax = 0;
    int one = 1;
    for (size_t i = 0; i < n; i++) {
        if (l[i].aes->rounds > rmax)
            rmax = l[i].aes->rounds;
        one &= l[i].aes == l[0].aes;
    }
    if (rmax == 0)
        return;
    /* Keys per slot: unused rows are read before anything wrote them;
     * under one key object every row in use is written here once.  The
     * slots' rows are written by their fills, pads (cm_slot_pad) and
     * runs before they are read. */
    const size_t kbytes = one ? sizeof(cl_vec) * (rmax + 1) : sizeof st.kt[0] * (rmax + 1);
    if (one)
        cm_table_fill_one(&st, l[0].aes, rmax);
    else
        memset(st.kt, 0, kbytes);
    if (open)
        cm_lanes_dir(&st, l, n, rmax, 1, one);
    else
        cm_lanes_dir(&st, l, n, rmax, 0, one);
    aeskit_memzero(st.kt, kbytes);
    aeskit_memzero(st.mac, offsetof(cm_state, scratch) + sizeof st.scratch - offsetof(cm_state, mac));
}
