/*
 * cbc_lanes_generic_core.h - the generic backend's multi-lane CBC kernel
 * for one vector width of the bitsliced AES, included by
 * cbc_lanes_generic.c after aes_generic_core.h for that width, whose
 * functions it names through the macros below (that header #undefs its
 * own AKBS_* names at its end).  CPU features: none by itself; the
 * including file decides.
 *
 * Before including, define:
 *   GL_FN        the name of this width's kernel
 *   GL_V         the plane type (akbs_v of the width), GL_W its bytes
 *   GL_LOAD, GL_STORE, GL_ENCRYPT, GL_FIX_KEY  the width's load
 *                (+ transpose), store (transpose + store), encrypt_planes and
 *                fix_key (encrypt_planes takes its round keys fixsliced)
 *
 * Slots.  A batch of the bitsliced AES holds 8 * GL_W / 16 blocks; here
 * every block position ("slot") carries its own CBC chain, so one AES
 * batch advances that many independent chains by one block.  The chaining
 * values stay in bitsliced form from block to block: each step transposes
 * only the new input blocks in (XOR is linear, so it is done on planes),
 * and CBC encryption transposes a copy of the result out.
 *
 * Per-slot keys.  Slot b's round key r sits in block position b of a
 * buffer laid out like a data batch; the same transpose that bitslices the
 * data turns it into 8 key planes in which every slot sees its own key bit
 * (aes_generic_core.h: plane i, byte p of 128-bit lane l, bit j belongs to
 * block j * GL_W / 16 + l, for data and keys alike); fix_key then moves
 * each round key's bytes to the fixsliced state's order and adds the
 * S-box's constant.  With one key in every slot these are exactly the
 * planes expand_rk builds for encryption.
 *
 * Runs and refills as in src/x86/cbc_lanes_tmpl.h: every busy slot
 * advances by the fewest blocks any busy slot has left, then finished
 * slots write their chaining value back and take the next lane.  Idle
 * slots compute on zeros and are never stored.
 *
 * Constant time: the bitsliced AES is a fixed instruction sequence; the
 * branches and copies here depend only on block counts, the number of
 * lanes and pointers (public).  Buffers that held keys, data or chaining
 * values are wiped.
 */

#define GL_SLOTS (8 * GL_W / 16)

static void GL_FN(ak_cbc_lane *l, size_t n, unsigned R)
{
    GL_V rkp[15 * 8], x[8], t[8];
    uint8_t kb[15][8 * GL_W], buf[8 * GL_W];
    const uint8_t *in[GL_SLOTS];
    uint8_t *out[GL_SLOTS];
    size_t rem[GL_SLOTS], lane[GL_SLOTS];
    unsigned na = 0;
    size_t next = 0;
    int changed = 0; /* slots have new keys: rebuild the key planes */
    memset(kb, 0, sizeof kb[0] * (R + 1));
    memset(buf, 0, sizeof buf); /* chaining values of idle slots */
    for (;;) {
        /* Refill the idle slots (busy ones are 0..na-1). */
        while (na < GL_SLOTS && next < n) {
            ak_cbc_lane *c = &l[next++];
            if (!c->blocks || c->aes->rounds != R)
                continue;
            const uint8_t *rk = ak_gen_key_of(c->aes)->rk;
            for (unsigned r = 0; r <= R && r < 15; r++)
                memcpy(kb[r] + 16 * na, rk + 16 * r, 16);
            memcpy(buf + 16 * na, c->iv, 16);
            in[na] = c->in;
            out[na] = c->out;
            rem[na] = c->blocks;
            lane[na] = (size_t)(c - l);
            na++;
            changed = 1;
        }
        if (na == 0)
            break;
        if (changed) {
            for (unsigned r = 0; r <= R && r < 15; r++) {
                GL_LOAD(rkp + 8 * r, kb[r]);
                GL_FIX_KEY(rkp + 8 * r, r);
            }
            changed = 0;
        }
        GL_LOAD(x, buf);
        size_t m = rem[0];
        int anyout = 0;
        for (unsigned q = 0; q < na; q++) {
            m = rem[q] < m ? rem[q] : m;
            anyout |= out[q] != NULL;
        }
        memset(buf, 0, sizeof buf);
        for (size_t j = 0; j < m; j++) {
            for (unsigned q = 0; q < na; q++)
                memcpy(buf + 16 * q, in[q] + 16 * j, 16);
            GL_LOAD(t, buf);
            for (int i = 0; i < 8; i++)
                x[i] ^= t[i];
            GL_ENCRYPT(x, rkp, R);
            if (anyout) {
                memcpy(t, x, sizeof t);
                GL_STORE(buf, t);
                for (unsigned q = 0; q < na; q++)
                    if (out[q])
                        memcpy(out[q] + 16 * j, buf + 16 * q, 16);
            }
        }
        memcpy(t, x, sizeof t);
        GL_STORE(buf, t);
        /* Retire the finished slots; the last busy slot fills each gap. */
        for (unsigned q = 0; q < na; q++) {
            rem[q] -= m;
            in[q] += 16 * m;
            if (out[q])
                out[q] += 16 * m;
        }
        for (unsigned q = 0; q < na;) {
            if (rem[q]) {
                q++;
                continue;
            }
            memcpy(l[lane[q]].iv, buf + 16 * q, 16);
            na--;
            if (q != na) {
                for (unsigned r = 0; r <= R && r < 15; r++)
                    memcpy(kb[r] + 16 * q, kb[r] + 16 * na, 16);
                memcpy(buf + 16 * q, buf + 16 * na, 16);
                in[q] = in[na];
                out[q] = out[na];
                rem[q] = rem[na];
                lane[q] = lane[na];
                changed = 1;
            }
        }
    }
    aeskit_memzero(kb, sizeof kb[0] * (R + 1));
    aeskit_memzero(buf, sizeof buf);
    aeskit_memzero(x, sizeof x);
    aeskit_memzero(t, sizeof t);
    aeskit_memzero(rkp, sizeof(GL_V) * 8 * (R + 1));
}

#undef GL_SLOTS
