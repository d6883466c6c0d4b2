/*
 * kat_modes2.c - known answers, typed in from the specifications, for the
 * modes of src/modes/{kw,cts,cfb,ofb,siv,eax}.c, under the backend named
 * by AESKIT_BACKEND:
 *   - AES-KW:  RFC 3394 section 4 (4.1 .. 4.6);
 *   - AES-KWP: RFC 5649 section 6 (the 20-octet and the 7-octet example);
 *   - CFB-8, CFB-128: SP 800-38A appendix F.3 (F.3.7 .. F.3.18, every key
 *     size, encryption and decryption); OFB: F.4 (F.4.1 .. F.4.6);
 *   - CBC-CS3: RFC 3962 appendix B (AES-128, "chicken teriyaki", IV 0);
 *     CS1 and CS2 answers are those same ciphertexts reordered as the SP
 *     800-38A addendum defines the variants (CS2 = CS3 unless the last
 *     block is whole, then plain CBC; CS1 keeps C*_{m-1} before C_m);
 *   - AES-SIV: RFC 5297 appendix A.1 (deterministic) and A.2 (nonce-based:
 *     two AD strings and the nonce as the third);
 *   - EAX: the test vectors of Bellare, Rogaway, Wagner, "The EAX mode of
 *     operation" (FSE 2004; eprint 2003/069), appendix, the first six.
 */
#include "harness.h"
#include "th_drive.h"

static const char *be;
static uint8_t buf[256], buf2[256];

static size_t hx(uint8_t *out, const char *s) { return th_unhex(out, s); }

/* ---- KW / KWP ------------------------------------------------------------- */

/* Through the KW/KWP driver (tools/vectors/drive_kw.c): wrap and unwrap,
 * out of place and in place, a flipped bit refused (AESKIT_ERR_AUTH,
 * *out_len 0, the output zeroed), nothing written past the output. */
static void kat_kw(int pad, const char *kek, const char *data, const char *want, const char *name)
{
    uint8_t k[32], p[64], c[80];
    size_t kl = hx(k, kek), pl = hx(p, data), cl = hx(c, want);
    akd_case kc = {.backend = be, .key = k, .key_len = kl, .msg = p, .msg_len = pl, .ct = c,
                   .ct_len = cl, .expect = AKD_VALID};
    th_drive(pad ? "kwp" : "kw", &kc, "%s", name);
}

/* ---- CFB / OFB (SP 800-38A F.3, F.4) ---------------------------------------- */

static const char *f_key[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"};
static const char *f_iv = "000102030405060708090a0b0c0d0e0f";
static const char *f_pt =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
/* F.3.7/F.3.9/F.3.11: CFB8, the first 18 plaintext bytes. */
static const char *f_cfb8[3] = {"3b79424c9c0dd436bace9e0ed4586a4f32b9",
                                "cda2521ef0a905ca44cd057cbf0d47a0678a",
                                "dc1f1a8520a64db55fcc8ac554844e889700"};
/* F.3.13/F.3.15/F.3.17: CFB128. */
static const char *f_cfb128[3] = {
    "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b"
    "26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6",
    "cdc80d6fddf18cab34c25909c99a417467ce7f7f81173621961a2b70171d3d7a"
    "2e1e8a1dd59b88b1c8e60fed1efac4c9c05f9f9ca9834fa042ae8fba584b09ff",
    "dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407b"
    "df10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471"};
/* F.4.1/F.4.3/F.4.5: OFB. */
static const char *f_ofb[3] = {
    "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825"
    "9740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e",
    "cdc80d6fddf18cab34c25909c99a4174fcc28b8d4c63837c09e81700c1100401"
    "8d9a9aeac0f6596f559c6d4daf59a5f26d9f200857ca6c3e9cac524bd9acc92a",
    "dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d"
    "71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484"};

/* Through the CFB/OFB driver (tools/vectors/drive_cfb.c): one-shot and
 * in place both ways, and streamed both ways in steps 1, 7, 15, 16 (the
 * appendix's segments), 17, 255 and random. */
static void kat_stream(const char *name, const char *driver, const uint8_t *k, size_t kl,
                       const uint8_t *iv, const uint8_t *p, const uint8_t *c, size_t len)
{
    akd_case kc = {.backend = be, .key = k, .key_len = kl, .iv = iv, .iv_len = 16, .msg = p,
                   .msg_len = len, .ct = c, .ct_len = len, .expect = AKD_VALID};
    th_drive(driver, &kc, "%s, %zu-byte key", name, kl);
}

static void kat_sp800_38a(void)
{
    for (int i = 0; i < 3; i++) {
        uint8_t k[32], iv[16], p[64], c[64];
        size_t kl = hx(k, f_key[i]);
        hx(iv, f_iv);
        hx(p, f_pt);
        hx(c, f_cfb8[i]);
        kat_stream("F.3 CFB8", "cfb8", k, kl, iv, p, c, 18);
        hx(c, f_cfb128[i]);
        kat_stream("F.3 CFB128", "cfb128", k, kl, iv, p, c, 64);
        hx(c, f_ofb[i]);
        kat_stream("F.4 OFB", "ofb", k, kl, iv, p, c, 64);
    }
}

/* ---- CBC-CTS (RFC 3962 appendix B) ------------------------------------------- */

static const char *cts_pt =
    "4920776f756c64206c696b65207468652047656e6572616c20476175277320"
    "436869636b656e2c20706c656173652c20616e6420776f6e746f6e20736f75702e";
static const struct {
    size_t len;
    const char *cs3;
} cts_vec[6] = {
    {17, "c6353568f2bf8cb4d8a580362da7ff7f97"},
    {31, "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5"},
    {32, "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584"},
    {47, "97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e"
         "39312523a78662d5be7fcbcc98ebf5"},
    {48, "97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd8"
         "39312523a78662d5be7fcbcc98ebf5a8"},
    {64, "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a8"
         "4807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8"},
};

static void kat_cts(void)
{
    uint8_t k[16], iv[16] = {0}, p[64];
    hx(k, "636869636b656e207465726979616b69");
    hx(p, cts_pt);
    aeskit_aes_key key;
    TH_CHECK(aeskit_aes_init_backend(&key, k, 16, be) == AESKIT_OK, "init");
    for (int i = 0; i < 6; i++) {
        size_t len = cts_vec[i].len, m = (len + 15) / 16, d = len - 16 * (m - 1);
        size_t t = 16 * (m - 2);
        uint8_t cs3[64], cs2[64], cs1[64];
        hx(cs3, cts_vec[i].cs3);
        /* CS1: ... C*_{m-1} C_m; CS3 stored ... C_m C*_{m-1}. */
        memcpy(cs1, cs3, t);
        memcpy(cs1 + t, cs3 + t + 16, d);
        memcpy(cs1 + t + d, cs3 + t, 16);
        memcpy(cs2, d == 16 ? cs1 : cs3, len);
        const uint8_t *want[3] = {cs1, cs2, cs3};
        static const char *drivers[3] = {"cts-cs1", "cts-cs2", "cts-cs3"};
        for (int v = 1; v <= 3; v++) {
            /* tools/vectors/drive_cts.c: both ways, out of place and in place */
            akd_case kc = {.backend = be, .key = k, .key_len = 16, .iv = iv, .iv_len = 16,
                           .msg = p, .msg_len = len, .ct = want[v - 1], .ct_len = len,
                           .expect = AKD_VALID};
            th_drive(drivers[v - 1], &kc, "RFC 3962 CS%d len=%zu", v, len);
        }
    }
    /* 16 bytes: one CBC block, the same in every variant (the first block
     * of the 32-byte CBC message of the vector above, whose CBC C_1 is
     * CS3's second block). */
    uint8_t c1[16];
    hx(c1, "97687268d6ecccc0c07b25e25ecfe584");
    for (int v = 1; v <= 3; v++) {
        TH_CHECK(aeskit_cbc_cts_encrypt(&key, buf, p, 16, iv, (aeskit_cts_variant)v) == AESKIT_OK,
                 "cts 16");
        TH_CHECK_MEM(buf, c1, 16, "CS%d of one block is CBC", v);
    }
    aeskit_aes_wipe(&key);
}

/* ---- AES-SIV (RFC 5297 appendix A) -------------------------------------------- */

static void kat_siv(void)
{
    uint8_t k[32], ad1[64], ad2[16], nonce[16], p[64], v[16], c[64];
    aeskit_siv_key key;
    /* A.1 */
    hx(k, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    size_t l1 = hx(ad1, "101112131415161718191a1b1c1d1e1f2021222324252627");
    size_t pl = hx(p, "112233445566778899aabbccddee");
    hx(v, "85632d07c6e8f37f950acd320a2ecc93");
    hx(c, "40c02b9690c4dc04daef7f6afe5c");
    /* One AD string: the deterministic SIV driver (tools/vectors/drive_siv.c:
     * seal, open, in place, tamper). */
    akd_case kc = {.backend = be, .key = k, .key_len = 32, .aad = ad1, .aad_len = l1, .msg = p,
                   .msg_len = pl, .ct = c, .ct_len = pl, .tag = v, .tag_len = 16,
                   .expect = AKD_VALID};
    th_drive("siv", &kc, "RFC 5297 A.1");
    const uint8_t *ad[3] = {ad1};
    size_t adl[3] = {l1};
    uint8_t siv[16];
    aeskit_status st;
    /* A.2: AD1, AD2, nonce, plaintext. */
    hx(k, "7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f");
    l1 = hx(ad1, "00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100");
    size_t l2 = hx(ad2, "102030405060708090a0");
    size_t nl = hx(nonce, "09f911029d74e35bd84156c5635688c0");
    pl = hx(p, "7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553");
    hx(v, "7bdb6e3b432667eb06f4d14bff2fbd0f");
    hx(c, "cb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d");
    TH_CHECK(aeskit_siv_init_backend(&key, k, 32, be) == AESKIT_OK, "siv init");
    ad[0] = ad1, ad[1] = ad2, ad[2] = nonce;
    adl[0] = l1, adl[1] = l2, adl[2] = nl;
    st = aeskit_siv_seal(&key, buf, siv, p, pl, ad, adl, 3);
    TH_CHECK(st == AESKIT_OK, "A.2 seal %s", aeskit_strerror(st));
    TH_CHECK_MEM(siv, v, 16, "RFC 5297 A.2 V");
    TH_CHECK_MEM(buf, c, pl, "RFC 5297 A.2 C");
    st = aeskit_siv_open(&key, buf2, c, pl, v, ad, adl, 3);
    TH_CHECK(st == AESKIT_OK && th_first_diff(buf2, p, pl) == pl, "RFC 5297 A.2 open");
    v[0] ^= 0x80;
    st = aeskit_siv_open(&key, buf2, c, pl, v, ad, adl, 3);
    TH_CHECK(st == AESKIT_ERR_AUTH && th_all_zero(buf2, pl), "RFC 5297 A.2 tampered");
    aeskit_siv_wipe(&key);
}

/* ---- EAX (the paper's appendix) --------------------------------------------------- */

static const struct {
    const char *msg, *key, *nonce, *header, *ct_tag;
} eax_vec[6] = {
    {"", "233952dee4d5ed5f9b9c6d6ff80ff478", "62ec67f9c3a4a407fcb2a8c49031a8b3",
     "6bfb914fd07eae6b", "e037830e8389f27b025a2d6527e79d01"},
    {"f7fb", "91945d3f4dcbee0bf45ef52255f095a4", "becaf043b0a23d843194ba972c66debd",
     "fa3bfd4806eb53fa", "19dd5c4c9331049d0bdab0277408f67967e5"},
    {"1a47cb4933", "01f74ad64077f2e704c0f60ada3dd523", "70c3db4f0d26368400a10ed05d2bff5e",
     "234a3463c1264ac6", "d851d5bae03a59f238a23e39199dc9266626c40f80"},
    {"481c9e39b1", "d07cf6cbb7f313bdde66b727afd3c5e8", "8408dfff3c1a2b1292dc199e46b7d617",
     "33cce2eabff5a79d", "632a9d131ad4c168a4225d8e1ff755939974a7bede"},
    {"40d0c07da5e4", "35b6d0580005bbc12b0587124557d2c2", "fdb6b06676eedc5c61d74276e1f8e816",
     "aeb96eaebe2970e9", "071dfe16c675cb0677e536f73afe6a14b74ee49844dd"},
    {"4de3b35c3fc039245bd1fb7d", "bd8e6e11475e60b268784c38c62feb22",
     "6eac5c93072d8e8513f750935e46da1b", "d4482d1ca78dce0f",
     "835bb4f15d743e350e728414abb8644fd6ccb86947c5e10590210a4f"},
};

static void kat_eax(void)
{
    for (int i = 0; i < 6; i++) {
        uint8_t k[16], n[16], h[16], p[16], ct[40];
        hx(k, eax_vec[i].key);
        size_t nl = hx(n, eax_vec[i].nonce), hl = hx(h, eax_vec[i].header);
        size_t pl = hx(p, eax_vec[i].msg), cl = hx(ct, eax_vec[i].ct_tag);
        TH_CHECK(cl == pl + 16, "vector length");
        /* The EAX driver (tools/vectors/drive_siv.c): seal, open, in place,
         * tamper; with the full tag and with its 4-byte prefix (a
         * truncated tag is the prefix). */
        static const size_t tag_lens[2] = {16, 4};
        for (int t = 0; t < 2; t++) {
            size_t tl = tag_lens[t];
            akd_case kc = {.backend = be, .key = k, .key_len = 16, .iv = n, .iv_len = nl,
                           .aad = h, .aad_len = hl, .msg = p, .msg_len = pl, .ct = ct,
                           .ct_len = pl, .tag = ct + pl, .tag_len = tl, .expect = AKD_VALID};
            th_drive("eax", &kc, "EAX vector %d, %zu-byte tag", i + 1, tl);
        }
    }
}

/* ---- object sizes and states ------------------------------------------------- */

static void kat_objects(void)
{
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_SIV_KEY) == sizeof(aeskit_siv_key), "siv size");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_EAX_KEY) == sizeof(aeskit_eax_key), "eax size");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_CFB_CTX) == AESKIT_CFB_CTX_SIZE, "cfb ctx size");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_OFB_CTX) == AESKIT_OFB_CTX_SIZE, "ofb ctx size");
    TH_CHECK(_Alignof(aeskit_cfb_ctx) == 16 && _Alignof(aeskit_ofb_ctx) == 16, "ctx alignment");
    TH_CHECK(_Alignof(aeskit_siv_key) == 64 && _Alignof(aeskit_eax_key) == 64, "key alignment");
    /* Never set up: every function refuses it with AESKIT_ERR_STATE. */
    static aeskit_siv_key sk;
    static aeskit_eax_key ek;
    static aeskit_aes_key ak;
    uint8_t t[16] = {0}, iv[16] = {0};
    size_t n;
    TH_CHECK(aeskit_siv_aead_seal(&sk, buf, t, buf2, 16, iv, 16, NULL, 0) == AESKIT_ERR_STATE,
             "siv unset");
    TH_CHECK(aeskit_eax_seal(&ek, buf, t, 16, buf2, 16, iv, 16, NULL, 0) == AESKIT_ERR_STATE,
             "eax unset");
    TH_CHECK(aeskit_kw_wrap(&ak, buf, 64, &n, buf2, 16) == AESKIT_ERR_STATE, "kw unset");
    TH_CHECK(aeskit_cfb128_encrypt(&ak, buf, buf2, 16, iv) == AESKIT_ERR_STATE, "cfb unset");
    TH_CHECK(aeskit_cbc_cts_encrypt(&ak, buf, buf2, 16, iv, AESKIT_CTS_CS3) == AESKIT_ERR_STATE,
             "cts unset");
    TH_CHECK(!strcmp(aeskit_siv_backend(&sk), "") && !strcmp(aeskit_eax_backend(&ek), ""),
             "backend of unset keys");
    TH_CHECK(aeskit_siv_seal(NULL, buf, t, buf2, 16, NULL, NULL, 0) == AESKIT_ERR_NULL_POINTER,
             "siv NULL key");
    TH_CHECK(aeskit_kw_unwrap(&ak, buf, 64, NULL, buf2, 24) == AESKIT_ERR_NULL_POINTER,
             "kw NULL out_len");
    /* Every *_wipe leaves no byte behind (objects set up first, so the
     * check can fail). */
    static aeskit_siv_key ws;
    static aeskit_eax_key we;
    uint8_t k64[64];
    memset(k64, 0xa5, sizeof k64);
    TH_CHECK(aeskit_siv_init_backend(&ws, k64, 64, be) == AESKIT_OK &&
                 aeskit_eax_init_backend(&we, k64, 32, be) == AESKIT_OK &&
                 aeskit_aes_init_backend(&ak, k64, 32, be) == AESKIT_OK, "init for wipe");
    aeskit_cfb_ctx wc;
    aeskit_ofb_ctx wo;
    TH_CHECK(aeskit_cfb128_start(&wc, &ak, AESKIT_SEAL, k64) == AESKIT_OK &&
                 aeskit_ofb_start(&wo, &ak, k64) == AESKIT_OK, "start for wipe");
    TH_CHECK(aeskit_cfb_update(&wc, buf, buf2, 5) == AESKIT_OK &&
                 aeskit_ofb_update(&wo, buf, buf2, 5) == AESKIT_OK, "update for wipe");
    TH_CHECK(!th_all_zero((const uint8_t *)&ws, sizeof ws) &&
                 !th_all_zero((const uint8_t *)&we, sizeof we), "keys hold something");
    aeskit_siv_wipe(&ws);
    aeskit_eax_wipe(&we);
    aeskit_cfb_ctx_wipe(&wc);
    aeskit_ofb_ctx_wipe(&wo);
    TH_CHECK(th_all_zero((const uint8_t *)&ws, sizeof ws), "aeskit_siv_wipe left bytes");
    TH_CHECK(th_all_zero((const uint8_t *)&we, sizeof we), "aeskit_eax_wipe left bytes");
    TH_CHECK(th_all_zero((const uint8_t *)&wc, sizeof wc), "aeskit_cfb_ctx_wipe left bytes");
    TH_CHECK(th_all_zero((const uint8_t *)&wo, sizeof wo), "aeskit_ofb_ctx_wipe left bytes");
    TH_CHECK(aeskit_cfb_update(&wc, buf, buf2, 5) == AESKIT_ERR_STATE, "cfb after wipe");
    aeskit_siv_wipe(NULL);
    aeskit_eax_wipe(NULL);
    aeskit_cfb_ctx_wipe(NULL);
    aeskit_ofb_ctx_wipe(NULL);
    /* An argument error writes nothing. */
    memset(buf, 0x33, sizeof buf);
    n = 77;
    TH_CHECK(aeskit_kw_wrap(&ak, buf, 16, &n, buf2, 16) == AESKIT_ERR_BUFFER_TOO_SMALL &&
                 n == 77, "kw cap error");
    TH_CHECK(aeskit_cbc_cts_encrypt(&ak, buf, buf2, 15, iv, AESKIT_CTS_CS3) == AESKIT_ERR_LENGTH,
             "cts length error");
    TH_CHECK(aeskit_eax_init_backend(&we, k64, 16, be) == AESKIT_OK &&
                 aeskit_eax_seal(&we, buf, t, 17, buf2, 16, iv, 16, NULL, 0) ==
                     AESKIT_ERR_TAG_LENGTH, "eax tag error");
    uint8_t ref[sizeof buf];
    memset(ref, 0x33, sizeof ref);
    TH_CHECK(!memcmp(buf, ref, sizeof buf), "an argument error wrote to out");
    aeskit_eax_wipe(&we);
    aeskit_aes_wipe(&ak);
    /* A misaligned key object. */
    static AESKIT_ALIGN(64) uint8_t raw[sizeof(aeskit_eax_key) + 64];
    uint8_t k16[16] = {0};
    TH_CHECK(aeskit_eax_init((aeskit_eax_key *)(void *)(raw + 16), k16, 16) == AESKIT_ERR_ALIGNMENT,
             "eax alignment");
    TH_CHECK(aeskit_eax_init_backend(&ek, k16, 16, "no-such-backend") == AESKIT_ERR_BACKEND_UNKNOWN,
             "eax unknown backend");
}

int main(void)
{
    be = th_backend();
    /* RFC 3394 section 4. */
    static const char *kek128 = "000102030405060708090a0b0c0d0e0f";
    static const char *kek192 = "000102030405060708090a0b0c0d0e0f1011121314151617";
    static const char *kek256 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    static const char *d128 = "00112233445566778899aabbccddeeff";
    static const char *d192 = "00112233445566778899aabbccddeeff0001020304050607";
    static const char *d256 = "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f";
    kat_kw(0, kek128, d128, "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5", "RFC 3394 4.1");
    kat_kw(0, kek192, d128, "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d", "RFC 3394 4.2");
    kat_kw(0, kek256, d128, "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7", "RFC 3394 4.3");
    kat_kw(0, kek192, d192,
           "031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2", "RFC 3394 4.4");
    kat_kw(0, kek256, d192,
           "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1", "RFC 3394 4.5");
    kat_kw(0, kek256, d256,
           "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21",
           "RFC 3394 4.6");
    /* RFC 5649 section 6. */
    static const char *kek5649 = "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8";
    kat_kw(1, kek5649, "c37b7e6492584340bed12207808941155068f738",
           "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a", "RFC 5649 6 (20)");
    kat_kw(1, kek5649, "466f7250617369", "afbeb0f07dfbf5419200f2ccb50bb24f", "RFC 5649 6 (7)");
    kat_sp800_38a();
    kat_cts();
    kat_siv();
    kat_eax();
    kat_objects();
    return th_finish("kat_modes2");
}
