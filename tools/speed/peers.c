/* peers.c - the peer libraries compiled into this build (CMake defines
 * AKS_HAVE_<PEER> for each one it found) and the names of the others. */
#include "speed.h"

#define X(name) extern const speed_peer name;
#ifdef AKS_HAVE_OPENSSL
X(speed_peer_openssl)
#endif
#ifdef AKS_HAVE_GCRYPT
X(speed_peer_gcrypt)
#endif
#ifdef AKS_HAVE_NETTLE
X(speed_peer_nettle)
#endif
#ifdef AKS_HAVE_IPSECMB
X(speed_peer_ipsecmb)
X(speed_peer_ipsecmb_jobs)
X(speed_peer_ipsecmb_sse)
X(speed_peer_ipsecmb_avx2)
X(speed_peer_ipsecmb_avx512)
#endif
#ifdef AKS_HAVE_SODIUM
X(speed_peer_sodium)
#endif
#ifdef AKS_HAVE_WOLFSSL
X(speed_peer_wolfssl)
#endif
#ifdef AKS_HAVE_BORINGSSL
X(speed_peer_boringssl)
#endif
#undef X

const speed_peer *const speed_peers[] = {
#ifdef AKS_HAVE_OPENSSL
    &speed_peer_openssl,
#endif
#ifdef AKS_HAVE_GCRYPT
    &speed_peer_gcrypt,
#endif
#ifdef AKS_HAVE_NETTLE
    &speed_peer_nettle,
#endif
#ifdef AKS_HAVE_IPSECMB
    /* one row per architecture (AESKIT_IPSECMB_ARCHS, on with a 2.x prefix),
       else the one init_mb_mgr_auto picks */
#ifdef AKS_IPSECMB_ARCHS
    &speed_peer_ipsecmb_sse,
    &speed_peer_ipsecmb_avx2,
    &speed_peer_ipsecmb_avx512,
#else
    &speed_peer_ipsecmb,
#endif
    &speed_peer_ipsecmb_jobs,
#endif
#ifdef AKS_HAVE_SODIUM
    &speed_peer_sodium,
#endif
#ifdef AKS_HAVE_WOLFSSL
    &speed_peer_wolfssl,
#endif
#ifdef AKS_HAVE_BORINGSSL
    &speed_peer_boringssl,
#endif
    NULL};
const size_t speed_npeers = sizeof speed_peers / sizeof speed_peers[0] - 1;

const char *const speed_absent_peers[] = {
#ifndef AKS_HAVE_OPENSSL
    "openssl",
#endif
#ifndef AKS_HAVE_GCRYPT
    "libgcrypt",
#endif
#ifndef AKS_HAVE_NETTLE
    "nettle",
#endif
#ifndef AKS_HAVE_IPSECMB
    "ipsec-mb",
#endif
#ifndef AKS_HAVE_SODIUM
    "libsodium",
#endif
#ifndef AKS_HAVE_WOLFSSL
    "wolfssl",
#endif
#ifndef AKS_HAVE_BORINGSSL
    "boringssl",
#endif
    NULL};
const size_t speed_nabsent = sizeof speed_absent_peers / sizeof speed_absent_peers[0] - 1;
