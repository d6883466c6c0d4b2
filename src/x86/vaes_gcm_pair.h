/*
 * vaes_gcm_pair.h - two GCM messages of one key and one shape (len,
 * aad_len, direction) in one pass: the x86-vaes-avx512 gcm_batch entry's
 * kernel for uniform batches too long for the multi-message kernel
 * (vaes_gcm_multi.h), of the shapes where its layout takes fewer vectors
 * than the single call's kernel or matches the single call's one-pass
 * kernel (vaes_pair_nvx).
 *
 * CPU features: VAES, VPCLMULQDQ, AVX-512 F/BW/VL (AK_TGT of
 * vaes_width512.h).  Needs vaes_aes.h, vaes_ghash.h and vaes_gcm_small.h
 * (the one-pass steps it runs for each message).
 *
 * Two messages per call: one key load and one call for both, and each
 * round and product has two independent messages' vectors.
 *
 * The layout of each message is vaes_gcm_short's and the one-pass
 * kernel's (vaes_gcm_small.h, whose steps vaes_onepass_* it runs): data block i
 * in lane i % AK_LANES of vector i / AK_LANES with counter inc32^(1+i)(J0)
 * (SP 800-38D 7.1 steps 3-4), NVX = ceil(nC / AK_LANES) vectors, all but
 * the last window whole; E_K(J0) runs beside them in a 128-bit register.
 * GHASH (7.1 step 5) of [A_0 .. A_{nA-1}, C_0 .. C_{nC-1}, L], n = nA + nC +
 * 1 <= NPOW blocks, as S = sum X_i K_(n-i) (vaes_ghash.h, section 6): the
 * AAD and length products are summed while the rounds run, only the
 * ciphertext's wait for AES; one reduction per message.  Counters add in
 * the low 32-bit word (inc32: it wraps within the word).
 *
 * Every input of both messages is read before any output or tag is
 * written: a tag may overlap its own message's in or aad (the descriptor
 * rules), and the outputs of one message overlap no buffer of the other
 * (include/aeskit.h, "Batches").
 *
 * Constant time: branches on lengths, round counts and the direction only.
 */

#if AK_LANES != 4
#error "vaes_gcm_pair.h is the zmm build's (aes_vaes_avx512.c)"
#endif

/* The pair kernel's vector counts: NVX data vectors per message. */
#define VAES_PAIR_NVX_MIN VAES_FEW_NVX_MIN
#define VAES_PAIR_NVX_MAX 5

/* The hash input of its largest shape (one AAD block, nC = AK_LANES *
 * NVX_MAX, L) within the powers. */
_Static_assert(1 + AK_LANES * VAES_PAIR_NVX_MAX + 1 <= NPOW, "the pair kernel's powers");

/* One message of a pair: its J0 (register form, byte-swapped), buffers
 * and tag destination. */
typedef struct {
    __m128i j0;
    const uint8_t *aad, *in;
    uint8_t *out, *tag;
} vaes_pair_msg;

VAES_INLINE void vaes_gcm_pair(const ak_vaes_aes_key *ks, const ak_vaes_ghash_key *g, const vaes_pair_msg *p,
                               size_t aad_len, size_t len, int enc, const int NVX, const int R)
{
    vec_t K[15];
    vaes_load_enc_keys(K, ks, R);
    const vec_t bsw = v_bcast_x(x_bswap_mask());
    const wmask_t wl = vaes_onepass_wl(len, NVX);
    vec_t x[2][VAES_PAIR_NVX_MAX];
    __m128i e[2];
    gacc a[2];
    _Pragma("GCC unroll 2")
    for (int m = 0; m < 2; m++)
        vaes_onepass_start(x[m], &e[m], &a[m], K, g, p[m].j0, p[m].aad, aad_len, len, bsw, NVX);
    _Pragma("GCC unroll 14")
    for (int r = 1; r < R; r++) {
        _Pragma("GCC unroll 8")
        for (int j = 0; j < NVX; j++) {
            x[0][j] = v_enc(x[0][j], K[r]);
            x[1][j] = v_enc(x[1][j], K[r]);
        }
        e[0] = _mm_aesenc_si128(e[0], v_low128(K[r]));
        e[1] = _mm_aesenc_si128(e[1], v_low128(K[r]));
    }
    _Pragma("GCC unroll 2")
    for (int m = 0; m < 2; m++) {
        e[m] = _mm_aesenclast_si128(e[m], v_low128(K[R]));
        vaes_onepass_last(x[m], &a[m], K[R], g, p[m].in, len, wl, enc, bsw, NVX);
    }
    __m128i t[2];
    _Pragma("GCC unroll 2")
    for (int m = 0; m < 2; m++)
        t[m] = _mm_xor_si128(_mm_shuffle_epi8(vaes_gacc_reduce(a[m]), x_bswap_mask()), e[m]);
    /* every input of both messages is read: the outputs, then the tags */
    _Pragma("GCC unroll 2")
    for (int m = 0; m < 2; m++)
        vaes_onepass_store(p[m].out, wl, x[m], NVX);
    x_store(p[0].tag, t[0]);
    x_store(p[1].tag, t[1]);
}

/* The shapes the pair kernel takes, NVX (0: none): those where the
 * one-pass layout saves a vector over the tiny kernel's
 * (vaes_onepass_few_nvx, vaes_gcm_small.h, which states the rule), and
 * those the single call runs through the one-pass kernel anyway, nC from
 * BATCH - 1 (the first the tiny kernel does not take) to 4 * NVX_MAX.
 * Below BATCH - 1 the tiny kernel's J0-in-a-lane layout is cheaper than a
 * pair; above 20 blocks two messages' vectors no longer fit the registers
 * and a pair gains nothing measurable over two single calls. */
VAES_INLINE int vaes_pair_nvx(size_t len, size_t aad_len)
{
    const size_t nC = (len + 15) / 16;
    if (aad_len <= 16 && nC >= BATCH - 1 && nC <= AK_LANES * VAES_PAIR_NVX_MAX)
        return (int)((nC + AK_LANES - 1) / AK_LANES);
    return vaes_onepass_few_nvx(len, aad_len);
}

typedef void vaes_gcm_pair_kernel(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len);

VAES_INLINE void vaes_gcm_pair_r(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len, int enc,
                                 const int NVX)
{
    const ak_vaes_aes_key *ks = vaes_aes_key(&gk->aes);
    const ak_vaes_ghash_key *g = vaes_ghash_key(&gk->gh);
    switch (gk->aes.rounds) {
    case 10: vaes_gcm_pair(ks, g, p, aad_len, len, enc, NVX, 10); break;
    case 12: vaes_gcm_pair(ks, g, p, aad_len, len, enc, NVX, 12); break;
    default: vaes_gcm_pair(ks, g, p, aad_len, len, enc, NVX, 14); break;
    }
}

VAES_NOINLINE void vaes_gcm_pair_seal2(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 1, 2);
}
VAES_NOINLINE void vaes_gcm_pair_open2(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 0, 2);
}
VAES_NOINLINE void vaes_gcm_pair_seal3(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 1, 3);
}
VAES_NOINLINE void vaes_gcm_pair_open3(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 0, 3);
}

VAES_NOINLINE void vaes_gcm_pair_seal4(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 1, 4);
}
VAES_NOINLINE void vaes_gcm_pair_open4(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 0, 4);
}
VAES_NOINLINE void vaes_gcm_pair_seal5(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 1, 5);
}
VAES_NOINLINE void vaes_gcm_pair_open5(const ak_gcm_key *gk, const vaes_pair_msg *p, size_t aad_len, size_t len)
{
    vaes_gcm_pair_r(gk, p, aad_len, len, 0, 5);
}

/* Indexed [AK_GCM_OPEN bit][NVX - VAES_PAIR_NVX_MIN]. */
static vaes_gcm_pair_kernel *const vaes_gcm_pair_kernels[2][VAES_PAIR_NVX_MAX - VAES_PAIR_NVX_MIN + 1] = {
    {vaes_gcm_pair_seal2, vaes_gcm_pair_seal3, vaes_gcm_pair_seal4, vaes_gcm_pair_seal5},
    {vaes_gcm_pair_open2, vaes_gcm_pair_open3, vaes_gcm_pair_open4, vaes_gcm_pair_open5}};
