/*
 * no_oracle.c - stands in for a test binary that needs OpenSSL's libcrypto
 * (oracle.h) in a build that has none (cross builds without the target's
 * libssl-dev): the test stays registered and says why it cannot run,
 * exiting 77 (ctest: skipped), never 0.
 */
#include <stdio.h>

#ifndef AESKIT_TEST_NAME
#define AESKIT_TEST_NAME "this test"
#endif

int main(void)
{
    printf("SKIP: %s compares against OpenSSL's libcrypto, which this build did not find "
           "(install libssl-dev for the target: scripts/deps)\n", AESKIT_TEST_NAME);
    return 77;
}
