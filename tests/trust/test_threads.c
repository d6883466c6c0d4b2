/*
 * test_threads.c - many threads set up keys and seal concurrently from a
 * cold start: the first library call of the process happens in all threads
 * at once, so CPU detection races (it must be idempotent), and one shared
 * key object is used by every thread at the same time.  Run under TSan in CI
 * (scripts/check.d/20-sanitize.sh); it also runs in every normal build.
 */
#include <pthread.h>

#include "harness.h"

enum { THREADS = 8, ROUNDS = 200, MSG = 1000 };

static aeskit_gcm_key shared_key;
static volatile int shared_ready;
static pthread_barrier_t start_line;
static uint8_t results[THREADS][ROUNDS][16];
static int errors[THREADS];

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint8_t key[32], iv[12], msg[MSG], ct[MSG], tag[16], pt[MSG];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(i * 7 + 1);
    pthread_barrier_wait(&start_line);
    /* Every thread's first call: detection and backend choice race here. */
    aeskit_gcm_key own;
    int own_ok = aeskit_gcm_init(&own, key, 32) == AESKIT_OK;
    if (id == 0) {
        if (aeskit_gcm_init(&shared_key, key, 32) != AESKIT_OK) errors[id]++;
        __atomic_store_n(&shared_ready, 1, __ATOMIC_RELEASE);
    }
    while (!__atomic_load_n(&shared_ready, __ATOMIC_ACQUIRE))
        ;
    if (!own_ok) { /* e.g. AESKIT_BACKEND names a backend this CPU lacks: main skips */
        errors[id]++;
        return NULL;
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < 12; i++) iv[i] = (uint8_t)(r + i);
        for (int i = 0; i < MSG; i++) msg[i] = (uint8_t)(r * 31 + i);
        const aeskit_gcm_key *k = (r & 1) ? &shared_key : &own;
        if (aeskit_gcm_seal(k, ct, tag, 16, msg, MSG, iv, 12, iv, 12) != AESKIT_OK) errors[id]++;
        if (aeskit_gcm_open(k, pt, ct, MSG, tag, 16, iv, 12, iv, 12) != AESKIT_OK) errors[id]++;
        if (memcmp(pt, msg, MSG)) errors[id]++;
        memcpy(results[id][r], tag, 16);
    }
    aeskit_gcm_wipe(&own);
    return NULL;
}

int main(void)
{
    /* No library call before the threads start (th_backend() would make one). */
    pthread_t t[THREADS];
    pthread_barrier_init(&start_line, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    (void)th_backend();
    for (int i = 0; i < THREADS; i++) {
        TH_CHECK(errors[i] == 0, "thread %d: %d errors", i, errors[i]);
        TH_CHECK(!memcmp(results[i], results[0], sizeof results[0]),
                 "thread %d computed different tags from thread 0", i);
    }
    return th_finish("threads");
}
