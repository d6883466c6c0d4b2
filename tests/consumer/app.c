/* app.c - the smallest program that uses an installed aeskit: it prints the
 * library's version and the backend it would pick, and fails if either is
 * missing, or (given -DEXPECT_VERSION="x.y.z") if the library's version is
 * not the one its package metadata gave.  Built by tests/consumer/run.sh through each documented recipe
 * (pkg-config, find_package; shared and static). */
#include <stdio.h>
#include <string.h>

#include <aeskit.h>

int main(void)
{
    const char *v = aeskit_version(), *be = aeskit_backend_default();
    if (!v || !*v || !be || !*be) {
        fprintf(stderr, "consumer: aeskit_version() or aeskit_backend_default() is empty\n");
        return 1;
    }
#ifdef EXPECT_VERSION
    /* the library linked is the one the package described */
    if (strcmp(v, EXPECT_VERSION) != 0) {
        fprintf(stderr, "consumer: linked aeskit %s, the package found is %s\n", v, EXPECT_VERSION);
        return 1;
    }
#endif
    printf("consumer: aeskit %s, backend %s\n", v, be);
    return 0;
}
