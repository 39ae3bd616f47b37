/* bench_clock.h: the benchmarks' clocks, in seconds. Header-only, since the benchmarks are
 * standalone programs that link no Narwhal library; the including file defines
 * _POSIX_C_SOURCE 200809L (clock_gettime) before its first include. */
#ifndef NW_BENCH_CLOCK_H
#define NW_BENCH_CLOCK_H

#include <time.h>

/* Seconds on clock id: CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID for the calling
 * thread's CPU time. */
static inline double bench_clock_s(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wall seconds from an arbitrary origin: differences time a stretch of a benchmark. */
static inline double bench_now(void) {
  return bench_clock_s(CLOCK_MONOTONIC);
}

#endif
