/* test_opts.c - the option parser of `aeskit speed`: what it accepts, what
 * it rejects (code 2, with a message naming the problem). */
#include "harness.h"

static void good(const char *line)
{
    speed_opts o;
    char *msg;
    int rc = parse_line(line, &o, &msg);
    CHECK(rc == 0, "'%s' rejected: %s", line, msg);
    CHECK(msg && !*msg, "'%s' printed '%s'", line, msg ? msg : "");
    free(msg);
}

static void bad(const char *line, const char *expect)
{
    speed_opts o;
    char *msg;
    int rc = parse_line(line, &o, &msg);
    CHECK(rc == 2, "'%s' gave %d, want 2", line, rc);
    CHECK(msg && strstr(msg, expect), "'%s': message '%s' lacks '%s'", line, msg ? msg : "",
          expect);
    free(msg);
}

int main(void)
{
    speed_opts o;

    /* defaults: the README's first command */
    CHECK(parse_line("", &o, NULL) == 0, "empty command line");
    CHECK(o.nalgs == 2 && !strcmp(o.algs[0]->name, "aes-128-gcm") &&
              !strcmp(o.algs[1]->name, "aes-256-gcm"),
          "default algorithms");
    static const size_t ds[] = {16, 64, 256, 1024, 1420, 8192, 16384};
    CHECK(o.nsizes == 7 && !memcmp(o.sizes, ds, sizeof ds), "default sizes");
    CHECK(o.nupdates == 1 && o.updates[0] == 0, "default: one-shot");
    CHECK(o.aad_len == 16 && o.format == SF_TABLE && !o.decrypt && !o.peers_none &&
              !o.npeer_names && !o.backend && !o.backend_all && !o.plot,
          "default options");

    /* every option, both spellings */
    CHECK(parse_line("--alg aes-192-ccm,cmac,AES-256-CBCMAC,rfc4106 --sizes 16,1k,8192 "
                     "--update=0,16,256 --aad 0 --seconds 0.5 --peers openssl,gcrypt "
                     "--format=csv --plot /tmp/x.svg --decrypt --backend generic --quiet",
                     &o, NULL) == 0,
          "full command line");
    CHECK(o.nalgs == 4 && !strcmp(o.algs[0]->name, "aes-192-ccm") &&
              !strcmp(o.algs[1]->name, "aes-128-cmac") &&
              !strcmp(o.algs[2]->name, "aes-256-cbc-mac") &&
              !strcmp(o.algs[3]->name, "aes-128-rfc4106"),
          "algorithm names");
    CHECK(o.algs[3]->key_len == 20 && o.algs[3]->iv_len == 8, "rfc4106: 20-byte key, 8-byte IV");
    CHECK(o.nsizes == 3 && o.sizes[1] == 1024, "size suffix k");
    CHECK(o.nupdates == 3 && o.updates[0] == 0 && o.updates[2] == 256, "updates");
    CHECK(o.aad_len == 0 && o.seconds == 0.5 && o.format == SF_CSV && o.decrypt && o.quiet,
          "values");
    CHECK(o.npeer_names == 2 && !strcmp(o.peer_names[1], "libgcrypt"), "peer alias");
    CHECK(o.backend && !strcmp(o.backend, "generic") && !o.backend_all, "backend name");
    CHECK(o.plot && !strcmp(o.plot, "/tmp/x.svg"), "plot file");

    CHECK(parse_line("--alg all --backend all --peers none", &o, NULL) == 0, "all/all/none");
    CHECK(o.nalgs == speed_nalgs && o.backend_all && o.peers_none, "all algorithms, all backends");
    CHECK(speed_nalgs == 59, "10 modes x 3 key sizes, GCM-SIV x 2 and the 9 other modes of "
          "issue 15 x 3, got %zu", speed_nalgs);
    /* the rows of issue 15 by their bare and full names */
    static const char *const m15[][2] = {
        {"ocb", "aes-128-ocb"},         {"gcm-siv", "aes-128-gcm-siv"}, {"eax", "aes-128-eax"},
        {"siv", "aes-128-siv"},         {"kw", "aes-128-kw"},           {"kwp", "aes-128-kwp"},
        {"cfb", "aes-128-cfb"},         {"CFB8", "aes-128-cfb8"},       {"ofb", "aes-128-ofb"},
        {"cbc-cts", "aes-128-cbc-cts"}, {"aes-256-gcm-siv", "aes-256-gcm-siv"},
        {"aes-192-kwp", "aes-192-kwp"},
    };
    for (size_t i = 0; i < sizeof m15 / sizeof m15[0]; i++) {
        const speed_alg *a = speed_alg_find(m15[i][0]);
        CHECK(a && !strcmp(a->name, m15[i][1]), "--alg %s: %s", m15[i][0], a ? a->name : "unknown");
    }
    CHECK(speed_alg_find("aes-192-gcm-siv") == NULL, "GCM-SIV has no AES-192 (RFC 8452)");
    CHECK(speed_alg_find("kw")->out_extra == 8 && speed_alg_find("aes-256-siv")->key_len == 64,
          "kw output, siv key");

    static const char *const formats[] = {"table", "openssl", "tcrypt", "slope", "csv", "json"};
    for (int i = 0; i < 6; i++) {
        char line[64];
        snprintf(line, sizeof line, "--format %s", formats[i]);
        CHECK(parse_line(line, &o, NULL) == 0 && (int)o.format == i, "format %s", formats[i]);
    }
    good("--peers all");
    good("--peers libsodium,wolfssl,nettle,ipsec-mb");
    good("--help");
    good("--seconds 60");
    good("--alg gmac,xts,ecb,ctr,cbc,ccm,gcm,cbc-mac");

    /* --backend LIST */
    CHECK(parse_line("--backend best,x86-aesni,generic", &o, NULL) == 0, "backend list");
    CHECK(o.nbackends == 3 && !strcmp(o.backends[0], "best") &&
              !strcmp(o.backends[2], "generic") && !strcmp(o.backend, "best") &&
              !o.backend_all && !o.backends_soft,
          "backend list parsed (%zu)", o.nbackends);
    CHECK(parse_line("--backend all", &o, NULL) == 0 && o.backend_all && !o.nbackends &&
              !o.backend,
          "backend all");
    bad("--backend generic,all", "'all' stands alone");
    bad("--backend generic,,x86-aesni", "empty");

    /* --preset x86: the issue-3 rows, in order */
    CHECK(parse_line("--preset x86 --aad 20", &o, NULL) == 0, "preset x86");
    static const struct {
        const char *alg;
        int dec;
        size_t size, update;
    } want[] = {{"aes-128-gcm", 0, 16, 0},       {"aes-128-gcm", 0, 64, 0},
                {"aes-128-gcm", 0, 1420, 0},     {"aes-128-gcm", 0, 16384, 0},
                {"aes-256-gcm", 0, 16384, 0},    {"aes-128-gcm", 1, 16384, 0},
                {"aes-128-gmac", 0, 16384, 0},   {"aes-128-ctr", 0, 16384, 0},
                {"aes-128-xts", 0, 4096, 0},     {"aes-128-cmac", 0, 8192, 0},
                {"aes-128-cmac", 0, 8192, 16}};
    size_t nw = sizeof want / sizeof want[0];
    CHECK(o.ncells == nw, "preset: %zu cells, want %zu", o.ncells, nw);
    for (size_t i = 0; i < nw && i < o.ncells; i++)
        CHECK(o.cells[i].alg && !strcmp(o.cells[i].alg->name, want[i].alg) &&
                  o.cells[i].decrypt == want[i].dec && o.cells[i].size == want[i].size &&
                  o.cells[i].update == want[i].update && o.cells[i].aad_len == 20,
              "preset cell %zu: %s %d %zu %zu", i, o.cells[i].alg ? o.cells[i].alg->name : "?",
              o.cells[i].decrypt, o.cells[i].size, o.cells[i].update);
    CHECK(o.nbackends == 3 && !strcmp(o.backends[0], "best") &&
              !strcmp(o.backends[1], "x86-aesni") && !strcmp(o.backends[2], "x86-vaes-avx2") &&
              o.backends_soft,
          "preset backends");
    CHECK(o.npeer_names == 3 && !strcmp(o.peer_names[0], "ipsec-mb") &&
              !strcmp(o.peer_names[1], "libgcrypt") && !strcmp(o.peer_names[2], "openssl") &&
              !o.peers_none,
          "preset peers");
    CHECK(parse_line("--peers none --backend generic --preset x86 --format csv", &o, NULL) == 0,
          "preset with own backend and peers");
    CHECK(o.ncells == nw && o.nbackends == 1 && !strcmp(o.backend, "generic") &&
              !o.backends_soft && o.peers_none && !o.npeer_names && o.format == SF_CSV,
          "preset keeps --backend, --peers, --format");
    CHECK(parse_line("--preset x86 --peers all", &o, NULL) == 0 && !o.npeer_names &&
              !o.peers_none,
          "preset with --peers all keeps every peer");
    CHECK(parse_line("--batch 64 --alg gcm,cmac", &o, NULL) == 0 && o.batch == 64, "--batch 64");
    bad("--batch 0", "bad --batch '0'");
    bad("--batch 1025", "bad --batch '1025'");
    bad("--batch 8 --update 16", "--batch takes one-shot calls only");
    bad("--preset arm", "unknown preset 'arm'");
    bad("--preset x86 --alg gcm", "--alg cannot be combined");
    bad("--sizes 16 --preset x86", "--sizes cannot be combined");
    bad("--preset x86 --update 16", "--update cannot be combined");
    bad("--preset x86 --decrypt", "--decrypt cannot be combined");
    bad("--preset x86 --plot /tmp/p.svg", "--plot");
    bad("--preset", "needs a value");

    bad("--frobnicate", "unknown option '--frobnicate'");
    bad("stray", "unexpected argument 'stray'");
    bad("--alg", "needs a value");
    bad("--alg=", "needs a value");
    bad("--alg aes-512-gcm", "unknown algorithm 'aes-512-gcm'");
    bad("--alg gcm,,", "empty");
    bad("--sizes 16,,64", "empty");
    bad("--sizes 0", "bad size '0'");
    bad("--sizes 16,x", "bad size 'x'");
    bad("--sizes 1,-5", "bad size '-5'");
    bad("--sizes 128M", "bad size '128M'");
    bad("--sizes 99999999999999999999999", "bad size");
    bad("--update 16b", "bad update size '16b'");
    bad("--aad 70000", "bad AAD length");
    bad("--seconds 0", "bad --seconds '0'");
    bad("--seconds -1", "bad --seconds");
    bad("--seconds fast", "bad --seconds 'fast'");
    bad("--seconds 61", "bad --seconds");
    bad("--peers mbedtls", "unknown peer 'mbedtls'");
    good("--peers boringssl"); /* known, even when this build has no BoringSSL */
    bad("--format xml", "unknown format 'xml'");
    bad("--decrypt=yes", "takes no value");
    bad("--sizes", "needs a value");
    return finish("test_opts");
}
