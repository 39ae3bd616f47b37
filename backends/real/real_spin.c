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
static int compute_nice = REAL_COMPUTE_NICE;
static unsigned pauses_before_yield = 256;

void real_spin_configure(int peers) {
  budget[REAL_WAIT_LOOP] = peers ? REAL_SPIN_NET_S : REAL_SPIN_S;
  budget[REAL_WAIT_WORKER] = REAL_SPIN_S;
  const char *s = getenv("NARWHAL_SPIN_US");
  char *end = NULL;
  double us = s ? strtod(s, &end) : -1;
  if (s && end != s && *end == '\0' && us >= 0 && us <= 1e6)
    budget[REAL_WAIT_LOOP] = budget[REAL_WAIT_WORKER] = us * 1e-6;
  s = getenv("NARWHAL_COMPUTE_NICE");
  long nice = s ? strtol(s, &end, 10) : -1;
  if (s && end != s && *end == '\0' && nice >= 0 && nice <= 19)
    compute_nice = (int)nice;
  s = getenv("NARWHAL_SPIN_POLLS");
  long polls = s ? strtol(s, &end, 10) : -1;
  if (s && end != s && *end == '\0' && polls >= 0 && polls <= 100000)
    pauses_before_yield = (unsigned)polls;
}

double real_spin_budget(real_wait_role role) {
  return budget[role];
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

double real_monotonic(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void real_spin_lower_priority(void) {
  /* Linux: a thread's nice value, by its thread id. Failing leaves it as it was: slower
   * transfers where cores are scarce, the same results. */
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), compute_nice);
}
