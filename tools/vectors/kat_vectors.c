/*
 * kat_vectors.c - known-answer vectors, typed in from the standards.
 *
 * Every entry names its source.  Each was checked against OpenSSL's
 * libcrypto (tests/kat/check_openssl.c, ctest kat-table-vs-openssl).
 */
#include "kat_vectors.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared inputs ------------------------------------------------------- */

/* SP 800-38A Appendix F: the 4-block plaintext and the three keys. */
#define SP38A_PT                                                                \
    "6bc1bee22e409f96e93d7e117393172a"                                          \
    "ae2d8a571e03ac9c9eb76fac45af8e51"                                          \
    "30c81c46a35ce411e5fbc1191a0a52ef"                                          \
    "f69f2445df4f9b17ad2b417be66c3710"
#define SP38A_PT40                                                              \
    "6bc1bee22e409f96e93d7e117393172a"                                          \
    "ae2d8a571e03ac9c9eb76fac45af8e51"                                          \
    "30c81c46a35ce411"
#define SP38A_K128 "2b7e151628aed2a6abf7158809cf4f3c"
#define SP38A_K192 "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
#define SP38A_K256 "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
#define SP38A_CBC_IV "000102030405060708090a0b0c0d0e0f"
#define SP38A_CTR_IV "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

/* The GCM specification (McGrew & Viega), test cases 3-18. */
#define GCM_K128 "feffe9928665731c6d6a8f9467308308"
#define GCM_K192 "feffe9928665731c6d6a8f9467308308feffe9928665731c"
#define GCM_K256 "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
#define GCM_IV96 "cafebabefacedbaddecaf888"
#define GCM_IV64 "cafebabefacedbad"
#define GCM_IV480                                                               \
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"          \
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
#define GCM_AAD "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define GCM_P60                                                                 \
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"          \
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_P64 GCM_P60 "1aafd255"

/* RFC 3610 section 8: packet vectors #1-#12 share key and header layout. */
#define RFC3610_K1 "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
#define RFC3610_K2 "d7828d13b2b0bdc325a76236df93cc6b"

/* SP 800-38C Appendix C. */
#define SP38C_K "404142434445464748494a4b4c4d4e4f"

/* IEEE 1619-2007 Annex B: vectors 15-18 share keys and tweak. */
#define XTS_K15 "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0"
#define XTS_T15 "9a785634120000000000000000000000"

/* IEEE 1619-2007 vectors 4-6 chain: each one's ciphertext is the next one's
 * plaintext. */
#define XTS_K4 "2718281828459045235360287471352631415926535897932384626433832795"
#define XTS_CT4                                                                 \
    "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c" \
    "c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412" \
    "328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce" \
    "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265" \
    "5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8" \
    "a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434" \
    "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c" \
    "5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e" \
    "94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc" \
    "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3" \
    "e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344" \
    "b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd" \
    "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752" \
    "afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e" \
    "bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d" \
    "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568"
#define XTS_CT5                                                                 \
    "264d3ca8512194fec312c8c9891f279fefdd608d0c027b60483a3fa811d65ee5" \
    "9d52d9e40ec5672d81532b38b6b089ce951f0f9c35590b8b978d175213f329bb" \
    "1c2fd30f2f7f30492a61a532a79f51d36f5e31a7c9a12c286082ff7d2394d18f" \
    "783e1a8e72c722caaaa52d8f065657d2631fd25bfd8e5baad6e527d763517501" \
    "c68c5edc3cdd55435c532d7125c8614deed9adaa3acade5888b87bef641c4c99" \
    "4c8091b5bcd387f3963fb5bc37aa922fbfe3df4e5b915e6eb514717bdd2a7407" \
    "9a5073f5c4bfd46adf7d282e7a393a52579d11a028da4d9cd9c77124f9648ee3" \
    "83b1ac763930e7162a8d37f350b2f74b8472cf09902063c6b32e8c2d9290cefb" \
    "d7346d1c779a0df50edcde4531da07b099c638e83a755944df2aef1aa31752fd" \
    "323dcb710fb4bfbb9d22b925bc3577e1b8949e729a90bbafeacf7f7879e7b114" \
    "7e28ba0bae940db795a61b15ecf4df8db07b824bb062802cc98a9545bb2aaeed" \
    "77cb3fc6db15dcd7d80d7d5bc406c4970a3478ada8899b329198eb61c193fb62" \
    "75aa8ca340344a75a862aebe92eee1ce032fd950b47d7704a3876923b4ad6284" \
    "4bf4a09c4dbe8b4397184b7471360c9564880aedddb9baa4af2e75394b08cd32" \
    "ff479c57a07d3eab5d54de5f9738b8d27f27a9f0ab11799d7b7ffefb2704c95c" \
    "6ad12c39f1e867a4b7b1d7818a4b753dfd2a89ccb45e001a03a867b187f225dd"
#define XTS_K10                                                                 \
    "2718281828459045235360287471352662497757247093699959574966967627"          \
    "3141592653589793238462643383279502884197169399375105820974944592"

#define V(m, src, ...) {.mode = m, .source = src, __VA_ARGS__}

const struct kat_vector kat_vectors[] = {
    /* ---- FIPS-197 Appendix C: example vectors ---- */
    V(KAT_AES, "FIPS-197 C.1 AES-128", .key = "000102030405060708090a0b0c0d0e0f",
      .pt = "00112233445566778899aabbccddeeff", .ct = "69c4e0d86a7b0430d8cdb78070b4c55a"),
    V(KAT_AES, "FIPS-197 C.2 AES-192", .key = "000102030405060708090a0b0c0d0e0f1011121314151617",
      .pt = "00112233445566778899aabbccddeeff", .ct = "dda97ca4864cdfe06eaf70a0ec0d7191"),
    V(KAT_AES, "FIPS-197 C.3 AES-256",
      .key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      .pt = "00112233445566778899aabbccddeeff", .ct = "8ea2b7ca516745bfeafc49904b496089"),

    /* ---- SP 800-38A Appendix F.1: ECB ---- */
    V(KAT_ECB, "SP 800-38A F.1.1/F.1.2 ECB-AES128", .key = SP38A_K128, .pt = SP38A_PT,
      .ct = "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
            "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4"),
    V(KAT_ECB, "SP 800-38A F.1.3/F.1.4 ECB-AES192", .key = SP38A_K192, .pt = SP38A_PT,
      .ct = "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
            "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e"),
    V(KAT_ECB, "SP 800-38A F.1.5/F.1.6 ECB-AES256", .key = SP38A_K256, .pt = SP38A_PT,
      .ct = "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
            "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7"),

    /* ---- SP 800-38A Appendix F.2: CBC ---- */
    V(KAT_CBC, "SP 800-38A F.2.1/F.2.2 CBC-AES128", .key = SP38A_K128, .iv = SP38A_CBC_IV,
      .pt = SP38A_PT,
      .ct = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
            "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"),
    V(KAT_CBC, "SP 800-38A F.2.3/F.2.4 CBC-AES192", .key = SP38A_K192, .iv = SP38A_CBC_IV,
      .pt = SP38A_PT,
      .ct = "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
            "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd"),
    V(KAT_CBC, "SP 800-38A F.2.5/F.2.6 CBC-AES256", .key = SP38A_K256, .iv = SP38A_CBC_IV,
      .pt = SP38A_PT,
      .ct = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
            "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"),

    /* ---- SP 800-38A Appendix F.5: CTR ---- */
    V(KAT_CTR, "SP 800-38A F.5.1/F.5.2 CTR-AES128", .key = SP38A_K128, .iv = SP38A_CTR_IV,
      .pt = SP38A_PT,
      .ct = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
            "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"),
    V(KAT_CTR, "SP 800-38A F.5.3/F.5.4 CTR-AES192", .key = SP38A_K192, .iv = SP38A_CTR_IV,
      .pt = SP38A_PT,
      .ct = "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
            "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"),
    V(KAT_CTR, "SP 800-38A F.5.5/F.5.6 CTR-AES256", .key = SP38A_K256, .iv = SP38A_CTR_IV,
      .pt = SP38A_PT,
      .ct = "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
            "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"),

    /* ---- The GCM specification (McGrew & Viega, "The Galois/Counter Mode of
     *      Operation"), Appendix B test cases 1-18 ---- */
    V(KAT_GCM, "GCM spec test case 1 (AES-128, empty)", .key = "00000000000000000000000000000000",
      .iv = "000000000000000000000000", .tag = "58e2fccefa7e3061367f1d57a4e7455a"),
    V(KAT_GCM, "GCM spec test case 2", .key = "00000000000000000000000000000000",
      .iv = "000000000000000000000000", .pt = "00000000000000000000000000000000",
      .ct = "0388dace60b6a392f328c2b971b2fe78", .tag = "ab6e47d42cec13bdf53a67b21257bddf"),
    V(KAT_GCM, "GCM spec test case 3", .key = GCM_K128, .iv = GCM_IV96, .pt = GCM_P64,
      .ct = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
            "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
      .tag = "4d5c2af327cd64a62cf35abd2ba6fab4"),
    V(KAT_GCM, "GCM spec test case 4", .key = GCM_K128, .iv = GCM_IV96, .aad = GCM_AAD,
      .pt = GCM_P60,
      .ct = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
            "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
      .tag = "5bc94fbc3221a5db94fae95ae7121a47"),
    V(KAT_GCM, "GCM spec test case 5 (8-byte IV)", .key = GCM_K128, .iv = GCM_IV64,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
            "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
      .tag = "3612d2e79e3b0785561be14aaca2fccb"),
    V(KAT_GCM, "GCM spec test case 6 (60-byte IV)", .key = GCM_K128, .iv = GCM_IV480,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
            "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
      .tag = "619cc5aefffe0bfa462af43c1699d050"),
    V(KAT_GCM, "GCM spec test case 7 (AES-192, empty)",
      .key = "000000000000000000000000000000000000000000000000",
      .iv = "000000000000000000000000", .tag = "cd33b28ac773f74ba00ed1f312572435"),
    V(KAT_GCM, "GCM spec test case 8", .key = "000000000000000000000000000000000000000000000000",
      .iv = "000000000000000000000000", .pt = "00000000000000000000000000000000",
      .ct = "98e7247c07f0fe411c267e4384b0f600", .tag = "2ff58d80033927ab8ef4d4587514f0fb"),
    V(KAT_GCM, "GCM spec test case 9", .key = GCM_K192, .iv = GCM_IV96, .pt = GCM_P64,
      .ct = "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
            "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
      .tag = "9924a7c8587336bfb118024db8674a14"),
    V(KAT_GCM, "GCM spec test case 10", .key = GCM_K192, .iv = GCM_IV96, .aad = GCM_AAD,
      .pt = GCM_P60,
      .ct = "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
            "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
      .tag = "2519498e80f1478f37ba55bd6d27618c"),
    V(KAT_GCM, "GCM spec test case 11 (8-byte IV)", .key = GCM_K192, .iv = GCM_IV64,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
            "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
      .tag = "65dcc57fcf623a24094fcca40d3533f8"),
    V(KAT_GCM, "GCM spec test case 12 (60-byte IV)", .key = GCM_K192, .iv = GCM_IV480,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
            "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
      .tag = "dcf566ff291c25bbb8568fc3d376a6d9"),
    V(KAT_GCM, "GCM spec test case 13 (AES-256, empty)",
      .key = "0000000000000000000000000000000000000000000000000000000000000000",
      .iv = "000000000000000000000000", .tag = "530f8afbc74536b9a963b4f1c4cb738b"),
    V(KAT_GCM, "GCM spec test case 14",
      .key = "0000000000000000000000000000000000000000000000000000000000000000",
      .iv = "000000000000000000000000", .pt = "00000000000000000000000000000000",
      .ct = "cea7403d4d606b6e074ec5d3baf39d18", .tag = "d0d1c8a799996bf0265b98b5d48ab919"),
    V(KAT_GCM, "GCM spec test case 15", .key = GCM_K256, .iv = GCM_IV96, .pt = GCM_P64,
      .ct = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
            "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
      .tag = "b094dac5d93471bdec1a502270e3cc6c"),
    V(KAT_GCM, "GCM spec test case 16", .key = GCM_K256, .iv = GCM_IV96, .aad = GCM_AAD,
      .pt = GCM_P60,
      .ct = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
            "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
      .tag = "76fc6ece0f4e1768cddf8853bb2d551b"),
    V(KAT_GCM, "GCM spec test case 17 (8-byte IV)", .key = GCM_K256, .iv = GCM_IV64,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
            "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
      .tag = "3a337dbf46a792c45e454913fe2ea8f2"),
    V(KAT_GCM, "GCM spec test case 18 (60-byte IV)", .key = GCM_K256, .iv = GCM_IV480,
      .aad = GCM_AAD, .pt = GCM_P60,
      .ct = "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
            "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
      .tag = "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"),

    /* ---- RFC 4493 section 4 (AES-128) and SP 800-38B Appendix D.2/D.3
     *      (AES-192/256): CMAC examples ---- */
    V(KAT_CMAC, "RFC 4493 example 1 (empty)", .key = SP38A_K128, .pt = "",
      .tag = "bb1d6929e95937287fa37d129b756746"),
    V(KAT_CMAC, "RFC 4493 example 2 (16 bytes)", .key = SP38A_K128,
      .pt = "6bc1bee22e409f96e93d7e117393172a", .tag = "070a16b46b4d4144f79bdd9dd04a287c"),
    V(KAT_CMAC, "RFC 4493 example 3 (40 bytes)", .key = SP38A_K128, .pt = SP38A_PT40,
      .tag = "dfa66747de9ae63030ca32611497c827"),
    V(KAT_CMAC, "RFC 4493 example 4 (64 bytes)", .key = SP38A_K128, .pt = SP38A_PT,
      .tag = "51f0bebf7e3b9d92fc49741779363cfe"),
    V(KAT_CMAC, "SP 800-38B D.2 example 5 (AES-192, empty)", .key = SP38A_K192, .pt = "",
      .tag = "d17ddf46adaacde531cac483de7a9367"),
    V(KAT_CMAC, "SP 800-38B D.2 example 6 (AES-192, 16 bytes)", .key = SP38A_K192,
      .pt = "6bc1bee22e409f96e93d7e117393172a", .tag = "9e99a7bf31e710900662f65e617c5184"),
    V(KAT_CMAC, "SP 800-38B D.2 example 7 (AES-192, 40 bytes)", .key = SP38A_K192,
      .pt = SP38A_PT40, .tag = "8a1de5be2eb31aad089a82e6ee908b0e"),
    V(KAT_CMAC, "SP 800-38B D.2 example 8 (AES-192, 64 bytes)", .key = SP38A_K192,
      .pt = SP38A_PT, .tag = "a1d5df0eed790f794d77589659f39a11"),
    V(KAT_CMAC, "SP 800-38B D.3 example 9 (AES-256, empty)", .key = SP38A_K256, .pt = "",
      .tag = "028962f61b7bf89efc6b551f4667d983"),
    V(KAT_CMAC, "SP 800-38B D.3 example 10 (AES-256, 16 bytes)", .key = SP38A_K256,
      .pt = "6bc1bee22e409f96e93d7e117393172a", .tag = "28a7023f452e8f82bd4bf28d8c37c35c"),
    V(KAT_CMAC, "SP 800-38B D.3 example 11 (AES-256, 40 bytes)", .key = SP38A_K256,
      .pt = SP38A_PT40, .tag = "aaf3d8f1de5640c232f5b169b9c911e6"),
    V(KAT_CMAC, "SP 800-38B D.3 example 12 (AES-256, 64 bytes)", .key = SP38A_K256,
      .pt = SP38A_PT, .tag = "e1992190549f6ed5696a2c056c315410"),

    /* ---- SP 800-38C Appendix C: CCM examples ---- */
    V(KAT_CCM, "SP 800-38C C.1 (7-byte nonce, 4-byte tag)", .key = SP38C_K,
      .iv = "10111213141516", .aad = "0001020304050607", .pt = "20212223", .ct = "7162015b",
      .tag = "4dac255d"),
    V(KAT_CCM, "SP 800-38C C.2 (8-byte nonce, 6-byte tag)", .key = SP38C_K,
      .iv = "1011121314151617", .aad = "000102030405060708090a0b0c0d0e0f",
      .pt = "202122232425262728292a2b2c2d2e2f", .ct = "d2a1f0e051ea5f62081a7792073d593d",
      .tag = "1fc64fbfaccd"),
    V(KAT_CCM, "SP 800-38C C.3 (12-byte nonce, 8-byte tag)", .key = SP38C_K,
      .iv = "101112131415161718191a1b", .aad = "000102030405060708090a0b0c0d0e0f10111213",
      .pt = "202122232425262728292a2b2c2d2e2f3031323334353637",
      .ct = "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5", .tag = "484392fbc1b09951"),
    V(KAT_CCM, "SP 800-38C C.4 (13-byte nonce, 65536-byte AAD, 14-byte tag)", .key = SP38C_K,
      .iv = "101112131415161718191a1b1c", .aad_pattern = 65536,
      .pt = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
      .ct = "69915dad1e84c6376a68c2967e4dab615ae0fd1faec44cc484828529463ccf72",
      .tag = "b4ac6bec93e8598e7f0dadbcea5b"),

    /* ---- RFC 3610 section 8: packet vectors #1-#24 (the packet's first 8 or
     *      12 bytes are the AAD, the rest the payload) ---- */
    V(KAT_CCM, "RFC 3610 packet vector #1", .key = RFC3610_K1, .iv = "00000003020100a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e",
      .ct = "588c979a61c663d2f066d0c2c0f989806d5f6b61dac384", .tag = "17e8d12cfdf926e0"),
    V(KAT_CCM, "RFC 3610 packet vector #2", .key = RFC3610_K1, .iv = "00000004030201a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      .ct = "72c91a36e135f8cf291ca894085c87e3cc15c439c9e43a3b", .tag = "a091d56e10400916"),
    V(KAT_CCM, "RFC 3610 packet vector #3", .key = RFC3610_K1, .iv = "00000005040302a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
      .ct = "51b1e5f44a197d1da46b0f8e2d282ae871e838bb64da859657", .tag = "4adaa76fbd9fb0c5"),
    V(KAT_CCM, "RFC 3610 packet vector #4", .key = RFC3610_K1, .iv = "00000006050403a0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e",
      .ct = "a28c6865939a9a79faaa5c4c2a9d4a91cdac8c", .tag = "96c861b9c9e61ef1"),
    V(KAT_CCM, "RFC 3610 packet vector #5", .key = RFC3610_K1, .iv = "00000007060504a0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e1f",
      .ct = "dcf1fb7b5d9e23fb9d4e131253658ad86ebdca3e", .tag = "51e83f077d9c2d93"),
    V(KAT_CCM, "RFC 3610 packet vector #6", .key = RFC3610_K1, .iv = "00000008070605a0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e1f20",
      .ct = "6fc1b011f006568b5171a42d953d469b2570a4bd87", .tag = "405a0443ac91cb94"),
    V(KAT_CCM, "RFC 3610 packet vector #7", .key = RFC3610_K1, .iv = "00000009080706a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e",
      .ct = "0135d1b2c95f41d5d1d4fec185d166b8094e999dfed96c", .tag = "048c56602c97acbb7490"),
    V(KAT_CCM, "RFC 3610 packet vector #8", .key = RFC3610_K1, .iv = "0000000a090807a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      .ct = "7b75399ac0831dd2f0bbd75879a2fd8f6cae6b6cd9b7db24", .tag = "c17b4433f434963f34b4"),
    V(KAT_CCM, "RFC 3610 packet vector #9", .key = RFC3610_K1, .iv = "0000000b0a0908a0a1a2a3a4a5",
      .aad = "0001020304050607", .pt = "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
      .ct = "82531a60cc24945a4b8279181ab5c84df21ce7f9b73f42e197", .tag = "ea9c07e56b5eb17e5f4e"),
    V(KAT_CCM, "RFC 3610 packet vector #10", .key = RFC3610_K1, .iv = "0000000c0b0a09a0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e",
      .ct = "07342594157785152b074098330abb141b947b", .tag = "566aa9406b4d999988dd"),
    V(KAT_CCM, "RFC 3610 packet vector #11", .key = RFC3610_K1, .iv = "0000000d0c0b0aa0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e1f",
      .ct = "676bb20380b0e301e8ab79590a396da78b834934", .tag = "f53aa2e9107a8b6c022c"),
    V(KAT_CCM, "RFC 3610 packet vector #12", .key = RFC3610_K1, .iv = "0000000e0d0c0ba0a1a2a3a4a5",
      .aad = "000102030405060708090a0b", .pt = "0c0d0e0f101112131415161718191a1b1c1d1e1f20",
      .ct = "c0ffa0d6f05bdb67f24d43a4338d2aa4bed7b20e43", .tag = "cd1aa31662e7ad65d6db"),
    V(KAT_CCM, "RFC 3610 packet vector #13", .key = RFC3610_K2, .iv = "00412b4ea9cdbe3c9696766cfa",
      .aad = "0be1a88bace018b1", .pt = "08e8cf97d820ea258460e96ad9cf5289054d895ceac47c",
      .ct = "4cb97f86a2a4689a877947ab8091ef5386a6ffbdd080f8", .tag = "e78cf7cb0cddd7b3"),
    V(KAT_CCM, "RFC 3610 packet vector #14", .key = RFC3610_K2, .iv = "0033568ef7b2633c9696766cfa",
      .aad = "63018f76dc8a1bcb", .pt = "9020ea6f91bdd85afa0039ba4baff9bfb79c7028949cd0ec",
      .ct = "4ccb1e7ca981befaa0726c55d378061298c85c92814abc33", .tag = "c52ee81d7d77c08a"),
    V(KAT_CCM, "RFC 3610 packet vector #15", .key = RFC3610_K2, .iv = "00103fe41336713c9696766cfa",
      .aad = "aa6cfa36cae86b40", .pt = "b916e0eacc1c00d7dcec68ec0b3bbb1a02de8a2d1aa346132e",
      .ct = "b1d23a2220ddc0ac900d9aa03c61fcf4a559a4417767089708", .tag = "a776796edb723506"),
    V(KAT_CCM, "RFC 3610 packet vector #16", .key = RFC3610_K2, .iv = "00764c63b8058e3c9696766cfa",
      .aad = "d0d0735c531e1becf049c244", .pt = "12daac5630efa5396f770ce1a66b21f7b2101c",
      .ct = "14d253c3967b70609b7cbb7c49916028324526", .tag = "9a6f49975bcadeaf"),
    V(KAT_CCM, "RFC 3610 packet vector #17", .key = RFC3610_K2, .iv = "00f8b678094e3b3c9696766cfa",
      .aad = "77b60f011c03e1525899bcae", .pt = "e88b6a46c78d63e52eb8c546efb5de6f75e9cc0d",
      .ct = "5545ff1a085ee2efbf52b2e04bee1e2336c73e3f", .tag = "762c0c7744fe7e3c"),
    V(KAT_CCM, "RFC 3610 packet vector #18", .key = RFC3610_K2, .iv = "00d560912d3f703c9696766cfa",
      .aad = "cd9044d2b71fdb8120ea60c0", .pt = "6435acbafb11a82e2f071d7ca4a5ebd93a803ba87f",
      .ct = "009769ecabdf48625594c59251e6035722675e04c8", .tag = "47099e5ae0704551"),
    V(KAT_CCM, "RFC 3610 packet vector #19", .key = RFC3610_K2, .iv = "0042fff8f1951c3c9696766cfa",
      .aad = "d85bc7e69f944fb8", .pt = "8a19b950bcf71a018e5e6701c91787659809d67dbedd18",
      .ct = "bc218daa947427b6db386a99ac1aef23ade0b52939cb6a", .tag = "637cf9bec2408897c6ba"),
    V(KAT_CCM, "RFC 3610 packet vector #20", .key = RFC3610_K2, .iv = "00920f40e56cdc3c9696766cfa",
      .aad = "74a0ebc9069f5b37", .pt = "1761433c37c5a35fc1f39f406302eb907c6163be38c98437",
      .ct = "5810e6fd25874022e80361a478e3e9cf484ab04f447efff6", .tag = "f0a477cc2fc9bf548944"),
    V(KAT_CCM, "RFC 3610 packet vector #21", .key = RFC3610_K2, .iv = "0027ca0c7120bc3c9696766cfa",
      .aad = "44a3aa3aae6475ca", .pt = "a434a8e58500c6e41530538862d686ea9e81301b5ae4226bfa",
      .ct = "f2beed7bc5098e83feb5b31608f8e29c38819a89c8e776f154", .tag = "4d4151a4ed3a8b87b9ce"),
    V(KAT_CCM, "RFC 3610 packet vector #22", .key = RFC3610_K2, .iv = "005b8ccbcd9af83c9696766cfa",
      .aad = "ec46bb63b02520c33c49fd70", .pt = "b96b49e21d621741632875db7f6c9243d2d7c2",
      .ct = "31d750a09da3ed7fddd49a2032aabf17ec8ebf", .tag = "7d22c8088c666be5c197"),
    V(KAT_CCM, "RFC 3610 packet vector #23", .key = RFC3610_K2, .iv = "003ebe94044b9a3c9696766cfa",
      .aad = "47a65ac78b3d594227e85e71", .pt = "e2fcfbb880442c731bf95167c8ffd7895e337076",
      .ct = "e882f1dbd38ce3eda7c23f04dd65071eb41342ac", .tag = "df7e00dccec7ae52987d"),
    V(KAT_CCM, "RFC 3610 packet vector #24", .key = RFC3610_K2, .iv = "008d493b30ae8b3c9696766cfa",
      .aad = "6e37a6ef546d955d34ab6059", .pt = "abf21c0b02feb88f856df4a37381bce3cc128517d4",
      .ct = "f32905b88a641b04b9c9ffb58cc390900f3da12ab1", .tag = "6dce9e82efa16da62059"),

    /* ---- IEEE Std 1619-2007 Annex B: XTS-AES.  The tweak is the data unit
     *      sequence number, little-endian, zero-padded to 16 bytes. ---- */
    V(KAT_XTS, "IEEE 1619-2007 vector 1 (XTS-AES-128)",
      .key = "0000000000000000000000000000000000000000000000000000000000000000",
      .iv = "00000000000000000000000000000000",
      .pt = "0000000000000000000000000000000000000000000000000000000000000000",
      .ct = "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"),
    V(KAT_XTS, "IEEE 1619-2007 vector 2 (XTS-AES-128)",
      .key = "1111111111111111111111111111111122222222222222222222222222222222",
      .iv = "33333333330000000000000000000000",
      .pt = "4444444444444444444444444444444444444444444444444444444444444444",
      .ct = "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"),
    V(KAT_XTS, "IEEE 1619-2007 vector 3 (XTS-AES-128)",
      .key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f022222222222222222222222222222222",
      .iv = "33333333330000000000000000000000",
      .pt = "4444444444444444444444444444444444444444444444444444444444444444",
      .ct = "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"),
    V(KAT_XTS, "IEEE 1619-2007 vector 4 (XTS-AES-128, 512-byte data unit)",
      .key = XTS_K4, .iv = "00000000000000000000000000000000", .pt_pattern = 512,
      .ct = XTS_CT4),
    V(KAT_XTS, "IEEE 1619-2007 vector 5 (XTS-AES-128, data unit 1)", .key = XTS_K4,
      .iv = "01000000000000000000000000000000", .pt = XTS_CT4, .ct = XTS_CT5),
    V(KAT_XTS, "IEEE 1619-2007 vector 6 (XTS-AES-128, data unit 2)", .key = XTS_K4,
      .iv = "02000000000000000000000000000000", .pt = XTS_CT5,
      .ct = "fa762a3680b76007928ed4a4f49a9456031b704782e65e16cecb54ed7d017b5e"
            "18abd67b338e81078f21edb7868d901ebe9c731a7c18b5e6dec1d6a72e078ac9"
            "a4262f860beefa14f4e821018272e411a951502b6e79066e84252c3346f3aa62"
            "344351a291d4bedc7a07618bdea2af63145cc7a4b8d4070691ae890cd65733e7"
            "946e9021a1dffc4c59f159425ee6d50ca9b135fa6162cea18a939838dc000fb3"
            "86fad086acce5ac07cb2ece7fd580b00cfa5e98589631dc25e8e2a3daf2ffdec"
            "26531659912c9d8f7a15e5865ea8fb5816d6207052bd7128cd743c12c8118791"
            "a4736811935eb982a532349e31dd401e0b660a568cb1a4711f552f55ded59f1f"
            "15bf7196b3ca12a91e488ef59d64f3a02bf45239499ac6176ae321c4a211ec54"
            "5365971c5d3f4f09d4eb139bfdf2073d33180b21002b65cc9865e76cb24cd92c"
            "874c24c18350399a936ab3637079295d76c417776b94efce3a0ef7206b151105"
            "19655c956cbd8b2489405ee2b09a6b6eebe0c53790a12a8998378b33a5b71159"
            "625f4ba49d2a2fdba59fbf0897bc7aabd8d707dc140a80f0f309f835d3da54ab"
            "584e501dfa0ee977fec543f74186a802b9a37adb3e8291eca04d66520d229e60"
            "401e7282bef486ae059aa70696e0e305d777140a7a883ecdcb69b9ff938e8a42"
            "31864c69ca2c2043bed007ff3e605e014bcf518138dc3a25c5e236171a2d01d6"),
    V(KAT_XTS, "IEEE 1619-2007 vector 10 (XTS-AES-256, 512-byte data unit)",
      .key = XTS_K10, .iv = "ff000000000000000000000000000000", .pt_pattern = 512,
      .ct = "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
            "5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
            "5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
            "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
            "2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
            "b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
            "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
            "583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
            "84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
            "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
            "9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
            "a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
            "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
            "645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
            "1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
            "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151"),
    V(KAT_XTS, "IEEE 1619-2007 vector 11 (XTS-AES-256, data unit 0xffff)", .key = XTS_K10,
      .iv = "ffff0000000000000000000000000000", .pt_pattern = 512,
      .ct = "77a31251618a15e6b92d1d66dffe7b50b50bad552305ba0217a610688eff7e11"
            "e1d0225438e093242d6db274fde801d4cae06f2092c728b2478559df58e837c2"
            "469ee4a4fa794e4bbc7f39bc026e3cb72c33b0888f25b4acf56a2a9804f1ce6d"
            "3d6e1dc6ca181d4b546179d55544aa7760c40d06741539c7e3cd9d2f6650b201"
            "3fd0eeb8c2b8e3d8d240ccae2d4c98320a7442e1c8d75a42d6e6cfa4c2eca179"
            "8d158c7aecdf82490f24bb9b38e108bcda12c3faf9a21141c3613b58367f922a"
            "aa26cd22f23d708dae699ad7cb40a8ad0b6e2784973dcb605684c08b8d6998c6"
            "9aac049921871ebb65301a4619ca80ecb485a31d744223ce8ddc2394828d6a80"
            "470c092f5ba413c3378fa6054255c6f9df4495862bbb3287681f931b687c888a"
            "bf844dfc8fc28331e579928cd12bd2390ae123cf03818d14dedde5c0c24c8ab0"
            "18bfca75ca096f2d531f3d1619e785f1ada437cab92e980558b3dce1474afb75"
            "bfedbf8ff54cb2618e0244c9ac0d3c66fb51598cd2db11f9be39791abe447c63"
            "094f7c453b7ff87cb5bb36b7c79efb0872d17058b83b15ab0866ad8a58656c5a"
            "7e20dbdf308b2461d97c0ec0024a2715055249cf3b478ddd4740de654f75ca68"
            "6e0d7345c69ed50cdc2a8b332b1f8824108ac937eb050585608ee734097fc090"
            "54fbff89eeaeea791f4a7ab1f9868294a4f9e27b42af8100cb9d59cef9645803"),
    V(KAT_XTS, "IEEE 1619-2007 vector 12 (XTS-AES-256, data unit 0xffffff)", .key = XTS_K10,
      .iv = "ffffff00000000000000000000000000", .pt_pattern = 512,
      .ct = "e387aaa58ba483afa7e8eb469778317ecf4cf573aa9d4eac23f2cdf914e4e200"
            "a8b490e42ee646802dc6ee2b471b278195d60918ececb44bf79966f83faba049"
            "9298ebc699c0c8634715a320bb4f075d622e74c8c932004f25b41e361025b5a8"
            "7815391f6108fc4afa6a05d9303c6ba68a128a55705d415985832fdeaae6c8e1"
            "9110e84d1b1f199a2692119edc96132658f09da7c623efcec712537a3d94c0bf"
            "5d7e352ec94ae5797fdb377dc1551150721adf15bd26a8efc2fcaad56881fa9e"
            "62462c28f30ae1ceaca93c345cf243b73f542e2074a705bd2643bb9f7cc79bb6"
            "e7091ea6e232df0f9ad0d6cf502327876d82207abf2115cdacf6d5a48f6c1879"
            "a65b115f0f8b3cb3c59d15dd8c769bc014795a1837f3901b5845eb491adfefe0"
            "97b1fa30a12fc1f65ba22905031539971a10f2f36c321bb51331cdefb39e3964"
            "c7ef079994f5b69b2edd83a71ef549971ee93f44eac3938fcdd61d01fa71799d"
            "a3a8091c4c48aa9ed263ff0749df95d44fef6a0bb578ec69456aa5408ae32c7a"
            "f08ad7ba8921287e3bbee31b767be06a0e705c864a769137df28292283ea81a2"
            "480241b44d9921cdbec1bc28dc1fda114bd8e5217ac9d8ebafa720e9da4f9ace"
            "231cc949e5b96fe76ffc21063fddc83a6b8679c00d35e09576a875305bed5f36"
            "ed242c8900dd1fa965bc950dfce09b132263a1eef52dd6888c309f5a7d712826"),
    V(KAT_XTS, "IEEE 1619-2007 vector 13 (XTS-AES-256, data unit 0xffffffff)", .key = XTS_K10,
      .iv = "ffffffff000000000000000000000000", .pt_pattern = 512,
      .ct = "bf53d2dade78e822a4d949a9bc6766b01b06a8ef70d26748c6a7fc36d80ae4c5"
            "520f7c4ab0ac8544424fa405162fef5a6b7f229498063618d39f0003cb5fb8d1"
            "c86b643497da1ff945c8d3bedeca4f479702a7a735f043ddb1d6aaade3c4a0ac"
            "7ca7f3fa5279bef56f82cd7a2f38672e824814e10700300a055e1630b8f1cb0e"
            "919f5e942010a416e2bf48cb46993d3cb6a51c19bacf864785a00bc2ecff15d3"
            "50875b246ed53e68be6f55bd7e05cfc2b2ed6432198a6444b6d8c247fab941f5"
            "69768b5c429366f1d3f00f0345b96123d56204c01c63b22ce78baf116e525ed9"
            "0fdea39fa469494d3866c31e05f295ff21fea8d4e6e13d67e47ce722e9698a1c"
            "1048d68ebcde76b86fcf976eab8aa9790268b7068e017a8b9b749409514f1053"
            "027fd16c3786ea1bac5f15cb79711ee2abe82f5cf8b13ae73030ef5b9e4457e7"
            "5d1304f988d62dd6fc4b94ed38ba831da4b7634971b6cd8ec325d9c61c00f1df"
            "73627ed3745a5e8489f3a95c69639c32cd6e1d537a85f75cc844726e8a72fc00"
            "77ad22000f1d5078f6b866318c668f1ad03d5a5fced5219f2eabbd0aa5c0f460"
            "d183f04404a0d6f469558e81fab24a167905ab4c7878502ad3e38fdbe62a4155"
            "6cec37325759533ce8f25f367c87bb5578d667ae93f9e2fd99bcbc5f2fbba88c"
            "f6516139420fcff3b7361d86322c4bd84c82f335abb152c4a93411373aaa8220"),
    V(KAT_XTS, "IEEE 1619-2007 vector 14 (XTS-AES-256, data unit 0xffffffffff)", .key = XTS_K10,
      .iv = "ffffffffff0000000000000000000000", .pt_pattern = 512,
      .ct = "64497e5a831e4a932c09be3e5393376daa599548b816031d224bbf50a818ed23"
            "50eae7e96087c8a0db51ad290bd00c1ac1620857635bf246c176ab463be30b80"
            "8da548081ac847b158e1264be25bb0910bbc92647108089415d45fab1b3d2604"
            "e8a8eff1ae4020cfa39936b66827b23f371b92200be90251e6d73c5f86de5fd4"
            "a950781933d79a28272b782a2ec313efdfcc0628f43d744c2dc2ff3dcb66999b"
            "50c7ca895b0c64791eeaa5f29499fb1c026f84ce5b5c72ba1083cddb5ce45434"
            "631665c333b60b11593fb253c5179a2c8db813782a004856a1653011e93fb6d8"
            "76c18366dd8683f53412c0c180f9c848592d593f8609ca736317d356e13e2bff"
            "3a9f59cd9aeb19cd482593d8c46128bb32423b37a9adfb482b99453fbe25a41b"
            "f6feb4aa0bef5ed24bf73c762978025482c13115e4015aac992e5613a3b5c2f6"
            "85b84795cb6e9b2656d8c88157e52c42f978d8634c43d06fea928f2822e465aa"
            "6576e9bf419384506cc3ce3c54ac1a6f67dc66f3b30191e698380bc999b05abc"
            "e19dc0c6dcc2dd001ec535ba18deb2df1a101023108318c75dc98611a09dc48a"
            "0acdec676fabdf222f07e026f059b672b56e5cbc8e1d21bbd867dd9272120546"
            "81d70ea737134cdfce93b6f82ae22423274e58a0821cc5502e2d0ab4585e94de"
            "6975be5e0b4efce51cd3e70c25a1fbbbd609d273ad5b0d59631c531f6a0a57b9"),
    V(KAT_XTS, "IEEE 1619-2007 vector 15 (17 bytes, ciphertext stealing)", .key = XTS_K15,
      .iv = XTS_T15, .pt = "000102030405060708090a0b0c0d0e0f10",
      .ct = "6c1625db4671522d3d7599601de7ca09ed"),
    V(KAT_XTS, "IEEE 1619-2007 vector 16 (18 bytes, ciphertext stealing)", .key = XTS_K15,
      .iv = XTS_T15, .pt = "000102030405060708090a0b0c0d0e0f1011",
      .ct = "d069444b7a7e0cab09e24447d24deb1fedbf"),
    V(KAT_XTS, "IEEE 1619-2007 vector 17 (19 bytes, ciphertext stealing)", .key = XTS_K15,
      .iv = XTS_T15, .pt = "000102030405060708090a0b0c0d0e0f101112",
      .ct = "e5df1351c0544ba1350b3363cd8ef4beedbf9d"),
    V(KAT_XTS, "IEEE 1619-2007 vector 18 (20 bytes, ciphertext stealing)", .key = XTS_K15,
      .iv = XTS_T15, .pt = "000102030405060708090a0b0c0d0e0f10111213",
      .ct = "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"),
    V(KAT_XTS, "IEEE 1619-2007 vector 19 (XTS-AES-128, 512-byte data unit)",
      .key = "e0e1e2e3e4e5e6e7e8e9eaebecedeeefc0c1c2c3c4c5c6c7c8c9cacbcccdcecf",
      .iv = "21436587a90000000000000000000000", .pt_pattern = 512,
      .ct = "38b45812ef43a05bd957e545907e223b954ab4aaf088303ad910eadf14b42be6"
            "8b2461149d8c8ba85f992be970bc621f1b06573f63e867bf5875acafa04e42cc"
            "bd7bd3c2a0fb1fff791ec5ec36c66ae4ac1e806d81fbf709dbe29e471fad3854"
            "9c8e66f5345d7c1eb94f405d1ec785cc6f6a68f6254dd8339f9d84057e01a177"
            "41990482999516b5611a38f41bb6478e6f173f320805dd71b1932fc333cb9ee3"
            "9936beea9ad96fa10fb4112b901734ddad40bc1878995f8e11aee7d141a2f5d4"
            "8b7a4e1e7f0b2c04830e69a4fd1378411c2f287edf48c6c4e5c247a19680f7fe"
            "41cefbd49b582106e3616cbbe4dfb2344b2ae9519391f3e0fb4922254b1d6d2d"
            "19c6d4d537b3a26f3bcc51588b32f3eca0829b6a5ac72578fb814fb43cf80d64"
            "a233e3f997a3f02683342f2b33d25b492536b93becb2f5e1a8b82f5b88334272"
            "9e8ae09d16938841a21a97fb543eea3bbff59f13c1a18449e398701c1ad51648"
            "346cbc04c27bb2da3b93a1372ccae548fb53bee476f9e9c91773b1bb19828394"
            "d55d3e1a20ed69113a860b6829ffa847224604435070221b257e8dff783615d2"
            "cae4803a93aa4334ab482a0afac9c0aeda70b45a481df5dec5df8cc0f423c77a"
            "5fd46cd312021d4b438862419a791be03bb4d97c0e59578542531ba466a83baf"
            "92cefc151b5cc1611a167893819b63fb8a6b18e86de60290fa72b797b0ce59f3"),

    /* ---- draft-mcgrew-gcm-test-01 ("Test Cases for the use of GCM in IPsec
     *      ESP"): the AES-GCM ESP packets, run through the RFC 4106 helper.
     *      key = AES key || salt, iv = the 8-byte explicit IV, aad = SPI ||
     *      (extended) sequence number.  The packet numbers are ours (the
     *      order of this table), not the draft's. ---- */
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 1 (AES-128, 64-bit ESN)",
      .key = "4c80cdefbb5d10da906ac73c3613a634" "2e443b68", .iv = "4956ed7e3b244cfe",
      .aad = "000043218765432100000000",
      .pt = "45000048699a000080114db7c0a80102c0a801010a9bf15638d3010000010000"
            "00000000045f736970045f756470037369700963796265726369747902646b00"
            "0021000101020201",
      .ct = "fecf537e729d5b07dc30df528dd22b768d1b98736696a6fd348509fa13ceac34"
            "cfa2436f14a3f3cf65925bf1f4a13c5d15b21e1884f5ff6247aeabb786b93bce"
            "61bc17d768fd9732",
      .tag = "459018148f6cbe722fd04796562dfdb4"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 2 (AES-128)",
      .key = "feffe9928665731c6d6a8f9467308308" "cafebabe", .iv = "facedbaddecaf888",
      .aad = "0000a5f80000000a",
      .pt = "4500003e698f000080114dccc0a80102c0a801010a980035002a2343b2d00100"
            "0001000000000000037369700963796265726369747902646b00000100010001",
      .ct = "deb22cd9b07c72c16e3a65beeb8df304a5a5897d33ae530f1ba76d5d114d2a5c"
            "3de81827c10e9a4f51330d0eec416642cfbb85a5b47e48a4ec3b9ba95d918bd1",
      .tag = "83b70d3aa8bc6ee4c309e9d85a41ad4a"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 3 (AES-256)",
      .key = "abbccddef00112233445566778899aababbccddef00112233445566778899aab" "11223344",
      .iv = "0102030405060708", .aad = "4a2cbfe300000002",
      .pt = "4500003069a6400080062690c0a801029389155e0a9e008b2dc57ee000000000"
            "7002400020bf0000020405b40101040201020201",
      .ct = "ff425c9b724599df7a3bcd510194e00d6a78107f1b0b1cbf06efae9d65a5d763"
            "748a637985771d347f0545659f14e99def842d8e",
      .tag = "b335f4eecfdbf831824b4c4915956c96"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 4 (AES-128, zero key)",
      .key = "00000000000000000000000000000000" "00000000", .iv = "0000000000000000",
      .aad = "0000000000000001",
      .pt = "4500003c99c500008001cb7a40679318010101010800075c0200440061626364"
            "65666768696a6b6c6d6e6f707172737475767761626364656667686901020201",
      .ct = "4688daf2f973a392732909c331d56d60f694abaa414b5e7ff5fdcdfff5e9a284"
            "456476492719ffb64de7d9dca1e1d894bc3bd57873ed4d181d19d4d5c8c18af3",
      .tag = "f821d496eeb096e98ad2b69e4799c71d"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 5 (AES-128, 64-bit ESN)",
      .key = "3de09874b388e6491988d0c3607eae1f" "57690e43", .iv = "4e280000a2fca1a3",
      .aad = "42f67e3f1010101010101010",
      .pt = "4500003c99c300008001cb7c40679318010101010800085c0200430061626364"
            "65666768696a6b6c6d6e6f707172737475767761626364656667686901020201",
      .ct = "fba2caa4853cf9f0f22cb10d86dd83b0fec75691cf1a04b00d1138ec9c357917"
            "65acbd8701ad79845bf9fe3fba487bc91755e6662b4c8d0d1f5e22739530320a",
      .tag = "e0d731cc978ecafaeae88f00e80d6e48"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 6 (AES-128, 64-bit ESN)",
      .key = "3de09874b388e6491988d0c3607eae1f" "57690e43", .iv = "4e280000a2fca1a3",
      .aad = "42f67e3f1010101010101010",
      .pt = "4500001c42a200008001441f406793b6e00000020a00f5ff01020201",
      .ct = "fba2ca845e5df9f0f22c3e6e86dd831e1fc65792cd1af9130e1379ed",
      .tag = "369f071f35e034be95f112e4e7d05d35"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 7 (AES-192)",
      .key = "feffe9928665731c6d6a8f9467308308feffe9928665731c" "cafebabe",
      .iv = "facedbaddecaf888", .aad = "0000a5f80000000a",
      .pt = "45000028a4ad4000400678800a01038f0a010612802306b8cb712602dd6bb03e"
            "501016d075680001",
      .ct = "a5b1f8066029aea40e598b8122de02420938b3ab33f828e687b8858b5bfbdbd0"
            "315b27452144cc77",
      .tag = "95457b9652037f5318027b5b4cd7a636"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 8 (AES-128, 64-bit ESN)",
      .key = "abbccddef00112233445566778899aab" "decaf888", .iv = "cafedebaceface74",
      .aad = "000001000000000000000001",
      .pt = "4500004933ba00007f119106c3fb1d10c2b1d326c02831ce0035dd7b800302d5"
            "00004e20001e8c18d75b81dc91baa0476b91b924b280389d92c963bac046ec95"
            "9b6266c04722b14923010101",
      .ct = "18a6fd42f72cbf4ab2a2ea901f73d814e3e7f243d95412e1c349c1d2fbec168f"
            "9190feebaf2cb01984e65863965d7472b79da345e0e780191f0d2f0e0f496c22"
            "6f2127b27db35724e7845d68",
      .tag = "651f57e65f354f75ff17015769623436"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 9 (AES-256, 64-bit ESN)",
      .key = "abbccddef00112233445566778899aababbccddef00112233445566778899aab" "73616c74",
      .iv = "616e640169766563", .aad = "17405e67156f3126dd0db99b",
      .pt = "45080028732c00004006e9f90a0106120a01038f06b88023dd6bafbecb712602"
            "50101f646d540001",
      .ct = "f2d69ecdbd5a0d5b8d5ef38bad4da58d1f278fde98ef67549d524a3018d9a57f"
            "f4d3a31ce673119e",
      .tag = "451626c2415771e3b7eebca614c89b35"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 10 (AES-128, 64-bit ESN)",
      .key = "3de09874b388e6491988d0c3607eae1f" "57690e43", .iv = "4e280000a2fca1a3",
      .aad = "42f67e3f1010101010101010",
      .pt = "45000049333e00007f119182c3fb1d10c2b1d326c02831ce0035cb458003025b"
            "000001e0001e8c18d65759d52284a0352c71475c8880391c764d6e5ee0496b32"
            "5ae270c03899493915010101",
      .ct = "fba2cad12fc1f9f00d3cebf305410db83d7784b607323d220f24b0a97d541828"
            "00cadb0f68d99ef0e0c0c89ae9bea8884e52d65bc1afd0740f742444747b5b39"
            "ab533163aad4550ee5160975",
      .tag = "cdb608c5769189609763b8e18caa81e2"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 11 (AES-256, 64-bit ESN)",
      .key = "abbccddef00112233445566778899aababbccddef00112233445566778899aab" "73616c74",
      .iv = "616e640169766563", .aad = "17405e67156f3126dd0db99b",
      .pt = "636973636f0172756c657301746865016e6574776501646566696e6501746865"
            "746563686e6f6c6f67696573017468617477696c6c01646566696e65746f6d6f"
            "72726f7701020201",
      .ct = "d4b7ed86a1777f2ea13d6973d324c69e7b43f826fb56831226508bebd2dceb18"
            "d0a6df10e5487df074113e14c641024e3e6773d91a62ee429b043a10e3efe6b0"
            "12a49363412364f8",
      .tag = "c0cac587f249e56b11e24f30e44ccc76"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 12 (AES-128, 4-byte payload)",
      .key = "7d773d00c144c525ac619d18c84a3f47" "d9664267", .iv = "43457e9182443bc6",
      .aad = "335467aeffffffff", .pt = "01020201", .ct = "437f866b",
      .tag = "cb3f699fe9b0822bac961c4504bef270"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 13 (AES-128, 64-bit ESN)",
      .key = "abbccddef00112233445566778899aab" "decaf888", .iv = "cafedebaceface74",
      .aad = "000001000000000000000001", .pt = "746f016265016f72016e6f7401746f0162650001",
      .ct = "29c9fc69a197d038ccdd14e2ddfcaa0543332164",
      .tag = "412503524303ed3c6c5f283843af8c3e"),
    V(KAT_RFC4106, "draft-mcgrew-gcm-test-01 ESP packet 14 (AES-256, 64-bit ESN)",
      .key = "6c6567616c697a656d6172696a75616e61616e64646f69746265666f72656961" "7475726e",
      .iv = "333021696765746d", .aad = "796b6963ffffffffffffffff",
      .pt = "45000030da3a00008001df3bc0a80005c0a800010800c6cd0200070061626364"
            "65666768696a6b6c6d6e6f707172737401020201",
      .ct = "f97ab2aa356d8edce17644ac8c78e25dd24dedbb29ebf1b64a274b39b49c3a86"
            "4cd3d78ca4ae68a32b42458fb57dbe821dcc63b9",
      .tag = "d0937ba2945f669368661a329fb4c053"),
};

const size_t kat_vector_count = sizeof kat_vectors / sizeof kat_vectors[0];

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int kat_field(const char *hex, size_t pattern, unsigned char **out, size_t *len)
{
    size_t n = pattern;
    if (!pattern) {
        size_t h = hex ? strlen(hex) : 0;
        if (h % 2)
            return -1;
        n = h / 2;
    }
    unsigned char *b = malloc(n ? n : 1);
    if (!b)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (pattern) {
            b[i] = (unsigned char)i;
            continue;
        }
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            return -1;
        }
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    *out = b;
    *len = n;
    return 0;
}
