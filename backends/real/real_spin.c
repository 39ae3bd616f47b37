/* real_spin.c: see real_spin.h. */
#define _GNU_SOURCE /* sched_yield, syscall */
#include "real_spin.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double budget[2] = {0, 0}; /* by real_wait_role; written before the threads start */
static int compute_nice = REAL_COMPUTE_NICE; /* real_spin_configure sets it */
static unsigned pauses_before_yield = 256;

/* Environment variable `name` as a number in [lo, hi] (whole if `whole`), or -1 when unset
 * or unusable (ignored, as real_spin.h says). */
static double env_number(const char *name, double lo, double hi, int whole) {
  const char *s = getenv(name);
  char *end = NULL;
  double v = s ? strtod(s, &end) : -1;
  int ok = s && end != s && *end == '\0' && v >= lo && v <= hi && (!whole || v == (long)v);
  return ok ? v : -1;
}

void real_spin_configure(int peers) {
  budget[REAL_WAIT_LOOP] = peers ? REAL_SPIN_NET_S : REAL_SPIN_S;
  budget[REAL_WAIT_WORKER] = REAL_SPIN_S;
  compute_nice = peers ? REAL_COMPUTE_NICE : REAL_COMPUTE_NICE_ALONE;
  double us = env_number("NARWHAL_SPIN_US", 0, 1e6, 0);
  if (us >= 0)
    budget[REAL_WAIT_LOOP] = budget[REAL_WAIT_WORKER] = us * 1e-6;
  double loop_us = env_number("NARWHAL_LOOP_SPIN_US", 0, 1e6, 0);
  if (loop_us >= 0)
    budget[REAL_WAIT_LOOP] = loop_us * 1e-6;
  double nice = env_number("NARWHAL_COMPUTE_NICE", 0, 19, 1);
  if (nice >= 0)
    compute_nice = (int)nice;
  double polls = env_number("NARWHAL_SPIN_POLLS", 0, 100000, 1);
  if (polls >= 0)
    pauses_before_yield = (unsigned)polls;
}

double real_spin_budget(real_wait_role role) {
  return budget[role];
}

void real_spin_yield(void) {
  sched_yield();
}

void real_spin_pause(unsigned *polls) {
  if ((*polls)++ < pauses_before_yield) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else {
    sched_yield(); /* let a thread that shares this core run: it may be the one we wait for */
  }
}

static double clock_seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double real_monotonic(void) {
  return clock_seconds(CLOCK_MONOTONIC);
}

double real_thread_cpu_seconds(void) {
  return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

double real_loop_weight(void) {
  /* sched_prio_to_weight for nice 0 to 19 (Linux, kernel/sched/core.c). */
  static const double weight[20] = {1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
                                    110,  87,  70,  56,  45,  36,  29,  23,  18,  15};
  return weight[0] / weight[compute_nice >= 0 && compute_nice < 20 ? compute_nice : 0];
}

void real_spin_lower_priority(void) {
  /* Linux: a thread's nice value, by its thread id. Failing leaves it as it was: slower
   * transfers where cores are scarce, the same results. */
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), compute_nice);
}
