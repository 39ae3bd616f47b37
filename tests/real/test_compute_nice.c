/* test_compute_nice.c: the compute threads' nice value (backends/real/real_spin.h) follows the
 * rank's layout: 10 on a rank with peers, 0 on a rank alone, NARWHAL_COMPUTE_NICE over both
 * (and ignored when it is not a whole number from 0 to 19). Each case lowers a new thread's
 * priority and reads it back: threads start at their creator's value, so every case starts
 * from the test's own. */
#define _GNU_SOURCE /* syscall */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../unit/check.h"
#include "real_spin.h"

static int thread_nice(void) {
  errno = 0;
  return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
}

static void *lower_and_read(void *out) {
  real_spin_lower_priority();
  *(int *)out = thread_nice();
  return NULL;
}

/* The nice value a compute thread gets after real_spin_configure(peers), `env` set or unset. */
static int nice_for(int peers, const char *env) {
  if (env)
    setenv("NARWHAL_COMPUTE_NICE", env, 1);
  else
    unsetenv("NARWHAL_COMPUTE_NICE");
  real_spin_configure(peers);
  int got = -100;
  pthread_t t;
  if (pthread_create(&t, NULL, lower_and_read, &got) != 0)
    return -100;
  pthread_join(t, NULL);
  return got;
}

int main(void) {
  int base = thread_nice();
  if (base != 0) { /* a thread may not lower its nice value without privilege */
    printf("compute_nice: skipped (the test runs at nice %d, not 0)\n", base);
    return 0;
  }
  CHECK(nice_for(1, NULL) == REAL_COMPUTE_NICE);
  CHECK(nice_for(0, NULL) == REAL_COMPUTE_NICE_ALONE);
  CHECK(REAL_COMPUTE_NICE == 10 && REAL_COMPUTE_NICE_ALONE == 0);
  CHECK(nice_for(1, "3") == 3);
  CHECK(nice_for(0, "7") == 7);
  CHECK(nice_for(1, "20") == REAL_COMPUTE_NICE); /* out of range: the default */
  CHECK(nice_for(0, "2.5") == REAL_COMPUTE_NICE_ALONE);
  CHECK(nice_for(1, "x") == REAL_COMPUTE_NICE);
  return check_report("compute_nice");
}
