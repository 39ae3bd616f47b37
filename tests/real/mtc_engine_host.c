/* mtc_engine_host.c: backends/real/real_mtc.h on host threads, for testing what drives the
 * engine (real_mtc_feed.c) on a machine without a GPU.
 *
 * The same contract as real_mtc.cu, written apart from it: worker threads take tickets from a
 * counter, wait until the submitter's tail covers theirs, run the task and post its result in
 * the slot of its ticket with a sequence number; the submitter collects results in ticket
 * order. Only the runtime's operations are known (REAL_MTC_ADD_U64, REAL_MTC_MD_SEGMENT, on
 * host addresses); anything else gets the worker's refusal, ~0. Workers sleep a few
 * microseconds now and then, so that results come back out of ticket order and in bursts.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "real_mtc.h"

enum { WORKERS = 4 };

typedef struct slot {
  _Atomic uint64_t seq; /* ticket + 1 once id and value are there */
  uint64_t id, value;
} slot;

struct real_mtc {
  uint32_t capacity;
  real_mtc_task *ring;
  slot *results;
  _Atomic uint64_t next, tail;
  atomic_int stop;
  uint64_t published, collected; /* the submitter's */
  pthread_t worker[WORKERS];
};

static uint64_t run(const real_mtc_task *t) {
  if (t->kind == REAL_MTC_ADD_U64) {
    const uint64_t *a = (const uint64_t *)(uintptr_t)t->a, *b = (const uint64_t *)(uintptr_t)t->b;
    uint64_t *c = (uint64_t *)(uintptr_t)t->c;
    for (uint64_t i = 0; i < t->d; i++)
      c[i] = a[i] + b[i];
    return 0;
  }
  if (t->kind == REAL_MTC_MD_SEGMENT && t->n >= 1 && t->n <= REAL_MTC_MD_MAX) {
    nw_mtc_md_segment_host((const nw_mtc_particle *)(uintptr_t)t->a,
                           (nw_mtc_particle *)(uintptr_t)t->c, t->n, t->b);
    return 0;
  }
  return ~0ull;
}

static void *worker_main(void *arg) {
  real_mtc *m = arg;
  for (unsigned turn = 0;; turn++) {
    uint64_t ticket = atomic_fetch_add(&m->next, 1);
    while (ticket >= atomic_load(&m->tail)) {
      if (atomic_load(&m->stop))
        return NULL;
      sched_yield();
    }
    real_mtc_task t = m->ring[ticket % m->capacity];
    uint64_t value = run(&t);
    if (turn % 7 == 3)
      nanosleep(&(struct timespec){0, 5000}, NULL);
    slot *s = &m->results[ticket % m->capacity];
    s->id = t.id;
    s->value = value;
    atomic_store_explicit(&s->seq, ticket + 1, memory_order_release);
  }
}

/* The share the last engine was opened with (real_mtc_open), for the test to check. */
uint32_t mtc_engine_host_share;

real_mtc *real_mtc_open(int device, uint64_t pool_bytes, uint32_t capacity, uint32_t workers,
                        uint32_t share, char *why, size_t why_len) {
  (void)device, (void)pool_bytes, (void)workers, (void)why, (void)why_len;
  mtc_engine_host_share = share;
  real_mtc *m = calloc(1, sizeof *m);
  m->capacity = capacity;
  m->ring = calloc(capacity, sizeof *m->ring);
  m->results = calloc(capacity, sizeof *m->results);
  for (int w = 0; w < WORKERS; w++)
    pthread_create(&m->worker[w], NULL, worker_main, m);
  return m;
}

int real_mtc_bind(real_mtc *m) {
  (void)m;
  return 0;
}

uint32_t real_mtc_workers(const real_mtc *m) {
  (void)m;
  return WORKERS;
}

uint64_t real_mtc_outstanding(const real_mtc *m) {
  return m->published - m->collected;
}

int real_mtc_submit(real_mtc *m, const real_mtc_task *tasks, uint32_t n) {
  if (n > m->capacity - real_mtc_outstanding(m))
    return -1;
  for (uint32_t j = 0; j < n; j++)
    m->ring[(m->published + j) % m->capacity] = tasks[j];
  m->published += n;
  atomic_store(&m->tail, m->published); /* seq_cst: the ring's writes are seen first */
  return 0;
}

uint32_t real_mtc_collect(real_mtc *m, real_mtc_result *out, uint32_t max) {
  uint32_t got = 0;
  while (got < max && m->collected < m->published) {
    slot *s = &m->results[m->collected % m->capacity];
    if (atomic_load_explicit(&s->seq, memory_order_acquire) != m->collected + 1)
      break;
    out[got++] = (real_mtc_result){s->id, s->value};
    m->collected++;
  }
  return got;
}

void real_mtc_close(real_mtc *m) {
  if (!m)
    return;
  atomic_store(&m->stop, 1);
  for (int w = 0; w < WORKERS; w++)
    pthread_join(m->worker[w], NULL);
  free(m->ring);
  free(m->results);
  free(m);
}
