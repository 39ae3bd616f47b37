/* test_cpu_pool.c: the real backend's CPU device pool (backends/real/real_cpu_pool.h).
 *
 * 1. An idle thread takes another device's subtask: with both threads asleep, device 0's
 *    subtask wakes thread 0 only; the subtask its report launches on device 1 then runs on
 *    that same thread, not on device 1's sleeping one (the point of the pool).
 * 2. Parallel work is not serialized: two subtasks that each wait for the other to be running
 *    both finish (a pool that woke too few threads would leave one waiting forever: the kernels
 *    give up after 10 s and the check fails).
 * 3. Stress, four devices: 20000 subtasks launched by three producer threads and by the
 *    reports themselves run exactly once each, in launch order per device, never two at once
 *    on one device, never more at once than devices. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, rand_r, unsetenv */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../unit/check.h"
#include "real_cpu_pool.h"
#include "real_spin.h"

/* The pool passes execs through untouched: the tests' are integers cast to pointers. */
#define EXEC(i) ((nw_exec *)(uintptr_t)((i) + 1))
#define ID(e) ((uint64_t)(uintptr_t)(e)-1)

static void pause_us(long us) {
  struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&t, NULL);
}

/* ---- 1 and 2 */

static real_cpu_pool *pool;
static pthread_t ran_on[4];
static atomic_int finished, running_now;
static int together_ok[2];

static void k_record(void *ctx, int d, nw_exec *e) {
  (void)ctx;
  (void)d;
  uint64_t id = ID(e);
  ran_on[id] = pthread_self();
  if (id >= 2) { /* test 2: wait until both are running */
    atomic_fetch_add(&running_now, 1);
    double until = real_monotonic() + 10;
    while (atomic_load(&running_now) < 2 && real_monotonic() < until)
      pause_us(100);
    together_ok[id - 2] = atomic_load(&running_now) >= 2;
  }
}

static void d_record(void *ctx, int d, nw_exec *e) {
  (void)ctx;
  (void)d;
  if (ID(e) == 0)
    real_cpu_pool_launch(pool, 1, EXEC(1));
  atomic_fetch_add(&finished, 1);
}

static void wait_finished(int n) {
  double until = real_monotonic() + 20;
  while (atomic_load(&finished) < n && real_monotonic() < until)
    pause_us(100);
}

static void test_idle_thread_takes_over(void) {
  pool = real_cpu_pool_start(2, (real_cpu_pool_calls){k_record, d_record, NULL, NULL, 0}, NULL);
  CHECK(pool != NULL);
  pause_us(50000); /* both threads spin 20 us, then sleep */
  real_cpu_pool_launch(pool, 0, EXEC(0));
  wait_finished(2);
  CHECK(atomic_load(&finished) == 2);
  CHECK(pthread_equal(ran_on[0], ran_on[1]));

  pause_us(50000);
  real_cpu_pool_launch(pool, 0, EXEC(2));
  real_cpu_pool_launch(pool, 1, EXEC(3));
  wait_finished(4);
  CHECK(atomic_load(&finished) == 4);
  CHECK(together_ok[0] && together_ok[1]);
  CHECK(!pthread_equal(ran_on[2], ran_on[3]));
  uint64_t launches;
  double seconds;
  real_cpu_pool_stats(pool, &launches, &seconds);
  CHECK(launches == 4);
  real_cpu_pool_stop(pool);
}

/* ---- 3 */

#define NDEV 4
#define PRODUCERS 3
#define PER_PRODUCER 5000
#define TOTAL (2 * PRODUCERS * PER_PRODUCER) /* each launch from a producer makes one more */

static atomic_int on_device[NDEV], at_once, most_at_once, order_bad;
static atomic_int runs[TOTAL];
static uint64_t last_seen[NDEV]; /* 1 + the id last run per device, 0 before any */
static atomic_uint_fast64_t next_id;
static pthread_mutex_t launch_mu = PTHREAD_MUTEX_INITIALIZER;

/* An exec is (id * NDEV + device) * 2 + follow-up: ids are handed out in launch order under
 * launch_mu, so a device's subtasks must run with increasing ids. */
static void launch_next(int d, int follow_up) {
  pthread_mutex_lock(&launch_mu);
  uint64_t id = atomic_fetch_add(&next_id, 1);
  real_cpu_pool_launch(pool, d, EXEC((id * NDEV + (uint64_t)d) * 2 + (uint64_t)follow_up));
  pthread_mutex_unlock(&launch_mu);
}

static void k_stress(void *ctx, int d, nw_exec *e) {
  (void)ctx;
  uint64_t id = ID(e) / 2 / NDEV, dev = ID(e) / 2 % NDEV;
  if (atomic_fetch_add(&on_device[d], 1) != 0)
    atomic_fetch_add(&order_bad, 1000000); /* two at once on one device */
  int now = atomic_fetch_add(&at_once, 1) + 1;
  for (int m = atomic_load(&most_at_once); now > m;)
    if (atomic_compare_exchange_weak(&most_at_once, &m, now))
      break;
  if (dev != (uint64_t)d || (last_seen[d] && id <= last_seen[d] - 1))
    atomic_fetch_add(&order_bad, 1);
  last_seen[d] = id + 1;
  if (id < TOTAL)
    atomic_fetch_add(&runs[id], 1);
  if (id % 7 == 0)
    pause_us(20);
  atomic_fetch_sub(&at_once, 1);
  atomic_fetch_sub(&on_device[d], 1);
}

static void d_stress(void *ctx, int d, nw_exec *e) {
  (void)ctx;
  (void)d;
  if (ID(e) % 2 == 0) /* a producer's subtask: its report launches one more */
    launch_next((int)(ID(e) / 2 / NDEV % NDEV), 1);
  atomic_fetch_add(&finished, 1);
}

static void *producer(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  for (int i = 0; i < PER_PRODUCER; i++) {
    launch_next((int)(rand_r(&seed) % NDEV), 0);
    if (i % 500 == 0)
      pause_us(2000); /* let threads go to sleep now and then */
  }
  return NULL;
}

static void test_stress(void) {
  atomic_store(&finished, 0);
  pool = real_cpu_pool_start(NDEV, (real_cpu_pool_calls){k_stress, d_stress, NULL, NULL, 1}, NULL);
  CHECK(pool != NULL);
  pthread_t p[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++)
    pthread_create(&p[i], NULL, producer, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < PRODUCERS; i++)
    pthread_join(p[i], NULL);
  double until = real_monotonic() + 60;
  while (atomic_load(&finished) < (int)atomic_load(&next_id) && real_monotonic() < until)
    pause_us(1000);
  int launched = (int)atomic_load(&next_id);
  real_cpu_pool_stop(pool);
  CHECK(atomic_load(&finished) == launched);
  int once = 1;
  for (int i = 0; i < launched && i < TOTAL; i++)
    once &= atomic_load(&runs[i]) == 1;
  CHECK(launched == TOTAL);
  CHECK(once);
  CHECK(atomic_load(&order_bad) == 0);
  CHECK(atomic_load(&most_at_once) <= NDEV);
}

int main(void) {
  unsetenv("NARWHAL_SPIN_US");
  real_spin_configure(0);
  test_idle_thread_takes_over();
  test_stress();
  return check_report("cpu_pool");
}
