/*
 * fuzz_vectors.c - the `aeskit vectors` JSON reader on arbitrary bytes: it
 * must never crash, hang or read out of bounds, whatever the file says
 * (broken JSON, wrong types, odd or huge hex, sizes that do not match).
 * Test failures are expected on mutated files and are not errors here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vectors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy without a terminator: the reader must honour len. */
    char *json = malloc(size ? size : 1);
    if (!json)
        return 0;
    memcpy(json, data, size);
    aeskit_vectors_result res;
    int rc = aeskit_vectors_run_buffer(json, size, NULL, NULL, &res);
    if (rc < AESKIT_VECTORS_OK || rc > AESKIT_VECTORS_NO_JSON)
        abort();
    free(json);
    return 0;
}
