/*
 * Preloaded into each SIPp caller by calls.sh when the callers are several processes (UACS above 1),
 * so that each sends its calls' RTP at a phase of the 20 ms of its own, as phones with independent
 * clocks do. SIPp 3.6 times its RTP streams on CLOCK_MONOTONIC_COARSE from its first reading of that
 * clock: every packet of a process goes out on a 20 ms grid starting then, and on the coarse clock
 * (4 ms ticks on a 250 Hz kernel) every grid falls on a kernel tick, so processes however far apart
 * they start share at most five phases. Here the coarse clock is the fine one (what later SIPp
 * releases read: steady_clock), and the first reading is held until the fine clock is SIPP_PHASE_US
 * microseconds past a multiple of 20 ms, which puts that process's grid there.
 *   cc -O2 -shared -fPIC -o sipp_phase.so sipp_phase.c -ldl
 *   LD_PRELOAD=./sipp_phase.so SIPP_PHASE_US=4000 sipp ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

#define PERIOD_US 20000LL

static long long micros(int (*read_clock)(clockid_t, struct timespec *)) {
    struct timespec t;
    read_clock(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    static int started;
    if (!real) {
        real = (int (*)(clockid_t, struct timespec *)) dlsym(RTLD_NEXT, "clock_gettime");
    }
    if (id != CLOCK_MONOTONIC_COARSE) {
        return real(id, ts);
    }
    if (!started) {
        started = 1;
        const char *phase = getenv("SIPP_PHASE_US");
        if (phase) {
            long long want = atoll(phase) % PERIOD_US;
            long long wait = ((want - micros(real) % PERIOD_US) + PERIOD_US) % PERIOD_US;
            // Sleep to just short of the phase, then spin: a sleep alone overshoots by tens of microseconds.
            if (wait > 200) {
                struct timespec nap = {0, (wait - 200) * 1000};
                nanosleep(&nap, NULL);
            }
            // Until at most 50 microseconds past it (a nap that overshoots further costs one period of spinning).
            while (((micros(real) - want) % PERIOD_US + PERIOD_US) % PERIOD_US > 50) {
            }
        }
    }
    return real(CLOCK_MONOTONIC, ts);
}
