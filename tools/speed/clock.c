/*
 * clock.c - wall-clock reads and the core-clock estimate.
 *
 * Cycles/byte need the clock the core actually runs at.  The TSC ticks at a
 * fixed nominal rate, not at the boosted core clock, so instead (the idea
 * of libgcrypt's bench-slope `--cpu-mhz auto`) we time a long chain of
 * dependent one-cycle integer additions: each add needs the previous
 * result, so the chain retires one add per core cycle on any out-of-order
 * core, and adds / nanoseconds is the core clock in GHz.  The empty asm
 * between the adds keeps the compiler from folding the chain into one
 * add while emitting no instruction of its own.
 */
#include <time.h>

#include "speed.h"

uint64_t speed_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of this thread: a batch whose wall time exceeds it was
 * interrupted (another process ran on this core). */
uint64_t speed_thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define ADD1(x) x += one; __asm__ volatile("" : "+r"(x))
#define ADD8(x) ADD1(x); ADD1(x); ADD1(x); ADD1(x); ADD1(x); ADD1(x); ADD1(x); ADD1(x)
#define ADD64(x) ADD8(x); ADD8(x); ADD8(x); ADD8(x); ADD8(x); ADD8(x); ADD8(x); ADD8(x)

/* Runs iters x 256 dependent adds; the loop counter runs in parallel.
 * Register + register adds: some cores (Intel Golden Cove) fold chains of
 * add-immediate at register rename and would make the clock look 4x fast. */
static __attribute__((noinline)) uint64_t add_chain(uint64_t iters)
{
    uint64_t x = 0, one = 1;
    __asm__ volatile("" : "+r"(one));
    for (uint64_t i = 0; i < iters; i++) {
        ADD64(x);
        ADD64(x);
        ADD64(x);
        ADD64(x);
    }
    return x;
}

static volatile uint64_t sink;

double speed_cpu_mhz(void)
{
    /* Warm up ~20 ms so a boosting core reaches its working clock. */
    uint64_t t0 = speed_now_ns();
    uint64_t iters = 1000;
    while (speed_now_ns() - t0 < 20000000u)
        sink = add_chain(iters);
    /* Size a run to ~5 ms, keep the fastest of several (fewest
     * interruptions) as the clock. */
    uint64_t dt;
    do {
        iters *= 2;
        t0 = speed_now_ns();
        sink = add_chain(iters);
        dt = speed_now_ns() - t0;
    } while (dt < 5000000u && iters < (1ull << 40));
    double best = 0;
    for (int r = 0; r < 7; r++) {
        t0 = speed_now_ns();
        sink = add_chain(iters);
        dt = speed_now_ns() - t0;
        double mhz = (double)iters * 256.0 / (double)dt * 1000.0;
        if (mhz > best)
            best = mhz;
    }
    return best;
}
