/*
 * no_oracle.c - stands in for a test binary that needs OpenSSL's libcrypto
 * (oracle.h), or libgcrypt too (oracle_gcrypt.h), in a build that lacks it
 * (cross builds without the target's libssl-dev, a host without
 * libgcrypt20-dev, -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON): the test stays
 * registered and says why it cannot run, exiting 77 (ctest: skipped), never 0.
 */
#include <stdio.h>

#ifndef AESKIT_TEST_NAME
#define AESKIT_TEST_NAME "this test"
#endif
#ifndef AESKIT_TEST_NEEDS
#define AESKIT_TEST_NEEDS "OpenSSL's libcrypto 3"
#endif
#ifndef AESKIT_TEST_INSTALL
#define AESKIT_TEST_INSTALL "libssl-dev"
#endif

int main(void)
{
    printf("SKIP: %s compares against %s, which this build did not find "
           "(install %s for the target: scripts/deps)\n", AESKIT_TEST_NAME, AESKIT_TEST_NEEDS,
           AESKIT_TEST_INSTALL);
    return 77;
}
