/*
 * test_isa_threads.c - aeskit_isa's one-time path choice under concurrency:
 * 8 threads start at a barrier and make the very first aeskit_isa calls of
 * the process at once (the table build races), then keep calling while the
 * main thread flips aeskit_isa_use_portable() back and forth.  Every result
 * must equal the one computed afterwards on a single thread (both paths are
 * exact, so a call racing with a switch is still right).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "aeskit_isa.h"

#define THREADS 8
#define CALLS 20000

static pthread_barrier_t start;
static uint8_t results[THREADS][16];

static void *worker(void *arg)
{
    int id = (int)(size_t)arg;
    uint8_t s[16], k[16];
    for (int i = 0; i < 16; i++) {
        s[i] = (uint8_t)(i * 17 + id);
        k[i] = (uint8_t)(i * 91 + 3);
    }
    pthread_barrier_wait(&start);
    for (int i = 0; i < CALLS; i++) {
        aeskit_isa_x86_aesenc(s, s, k);
        s[0] ^= (uint8_t)aeskit_isa_rv_clmul(s[1], s[2]);
    }
    memcpy(results[id], s, 16);
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS + 1);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(size_t)i);
    pthread_barrier_wait(&start);
    for (int i = 0; i < 2000; i++)
        aeskit_isa_use_portable(i & 1);
    aeskit_isa_use_portable(0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);

    int bad = 0;
    for (int id = 0; id < THREADS; id++) {
        uint8_t s[16], k[16];
        for (int i = 0; i < 16; i++) {
            s[i] = (uint8_t)(i * 17 + id);
            k[i] = (uint8_t)(i * 91 + 3);
        }
        for (int i = 0; i < CALLS; i++) {
            aeskit_isa_x86_aesenc(s, s, k);
            s[0] ^= (uint8_t)aeskit_isa_rv_clmul(s[1], s[2]);
        }
        if (memcmp(s, results[id], 16)) {
            printf("thread %d: result differs from the single-threaded one\n", id);
            bad = 1;
        }
    }
    printf("%d threads x %d calls racing the first use and path switches: %s (path %s)\n", THREADS, CALLS,
           bad ? "FAILED" : "ok", aeskit_isa_path());
    return bad;
}
