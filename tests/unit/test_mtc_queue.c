/* test_mtc_queue.c: the many-task mode's incoming queue (core/device/mtc_queue.h). Alone: FIFO
 * order, a full queue refuses and loses nothing, many laps of the ring, bundles of every size
 * against what is queued, an unpublished ticket ending a bundle, capacity rounding, statistics.
 * Then under load: 4 producer threads push 250,000 items each (retrying when full) while one
 * consumer takes bundles of 1..128; every item arrives exactly once, each producer's in its own
 * order, for capacities 2, 64 and 4096. */
#define _DEFAULT_SOURCE /* syscall, clock_gettime */

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "check.h"
#include "mtc_queue.h"

/* Items are small integers, never NULL, so a slot read too early shows. */
static void *item_of(uint64_t v) {
  return (void *)(uintptr_t)(v + 1);
}
static uint64_t value_of(void *p) {
  return (uint64_t)(uintptr_t)p - 1;
}

static void rounding(void) {
  static const uint32_t asked[] = {0, 1, 2, 3, 4, 5, 63, 64, 65, 1000, 4096};
  static const uint32_t got[] = {2, 2, 2, 4, 4, 8, 64, 64, 128, 1024, 4096};
  for (size_t i = 0; i < sizeof asked / sizeof *asked; i++) {
    nw_mtcq q;
    CHECK(nw_mtcq_init(&q, asked[i]) == NW_OK && q.capacity == got[i]);
    CHECK(nw_mtcq_queued(&q) == 0);
    nw_mtcq_free(&q);
  }
  nw_mtcq q;
  CHECK(nw_mtcq_init(&q, (UINT32_C(1) << 31) + 1) == NW_ERR_ARG && q.slot == NULL);
  CHECK(nw_mtcq_init(&q, UINT32_MAX) == NW_ERR_ARG);
}

static void fifo_and_full(void) {
  nw_mtcq q;
  void *out[32];
  CHECK(nw_mtcq_init(&q, 8) == NW_OK);
  CHECK(nw_mtcq_take(&q, out, 32) == 0); /* empty */
  for (uint64_t i = 0; i < 8; i++)
    CHECK(nw_mtcq_push(&q, item_of(i)) == 0);
  CHECK(nw_mtcq_queued(&q) == 8);
  CHECK(nw_mtcq_push(&q, item_of(100)) == -1); /* full, and again */
  CHECK(nw_mtcq_push(&q, item_of(101)) == -1);
  CHECK(nw_mtcq_queued(&q) == 8);
  CHECK(nw_mtcq_take(&q, out, 0) == 0); /* a bundle of at most 0 */
  CHECK(nw_mtcq_take(&q, out, 3) == 3); /* fewer than queued */
  CHECK(value_of(out[0]) == 0 && value_of(out[1]) == 1 && value_of(out[2]) == 2);
  CHECK(nw_mtcq_queued(&q) == 5);
  CHECK(nw_mtcq_push(&q, item_of(8)) == 0); /* room again: the ring wraps */
  CHECK(nw_mtcq_take(&q, out, 32) == 6);    /* more than queued: all of it, in order */
  int ordered = 1;
  for (uint64_t i = 0; i < 6; i++)
    ordered &= value_of(out[i]) == 3 + i; /* 3..8: the refused items are nowhere */
  CHECK(ordered);
  CHECK(nw_mtcq_queued(&q) == 0 && nw_mtcq_take(&q, out, 32) == 0);
  CHECK(q.bundles == 2 && q.items == 9 && q.largest == 6); /* empty takes are not bundles */
  nw_mtcq_free(&q);
}

/* Thousands of laps of a 4-slot ring with pushes and takes of varying sizes. */
static void laps(void) {
  nw_mtcq q;
  void *out[8];
  CHECK(nw_mtcq_init(&q, 4) == NW_OK);
  uint64_t pushed = 0, taken = 0, refused = 0;
  int ok = 1;
  for (uint32_t round = 0; round < 20000; round++) {
    uint32_t k = 1 + round % 5; /* up to 5 pushes into 4 slots: some are refused */
    for (uint32_t i = 0; i < k; i++) {
      int full = pushed - taken == 4;
      if (nw_mtcq_push(&q, item_of(pushed)) != (full ? -1 : 0))
        ok = 0;
      full ? refused++ : pushed++;
    }
    ok &= nw_mtcq_queued(&q) == pushed - taken;
    uint32_t max = 1 + (round * 7) % 6;
    uint32_t want = pushed - taken < max ? (uint32_t)(pushed - taken) : max;
    uint32_t n = nw_mtcq_take(&q, out, max);
    ok &= n == want;
    for (uint32_t i = 0; i < n; i++)
      ok &= value_of(out[i]) == taken++;
  }
  CHECK(ok);
  CHECK(pushed > 10000 * 4 && refused > 1000); /* ten thousand laps, many refusals */
  CHECK(q.items == taken && q.largest == 4);
  nw_mtcq_free(&q);
}

/* A producer that reserved a ticket but has not written it ends the bundle; the published
 * tickets behind it leave once it is written. The stalled producer is played by hand. */
static void unpublished(void) {
  nw_mtcq q;
  void *out[8];
  CHECK(nw_mtcq_init(&q, 8) == NW_OK);
  CHECK(nw_mtcq_push(&q, item_of(0)) == 0);
  uint64_t t = atomic_fetch_add(&q.tail, 1); /* ticket 1 reserved, not written */
  CHECK(nw_mtcq_push(&q, item_of(2)) == 0);
  CHECK(nw_mtcq_push(&q, item_of(3)) == 0);
  CHECK(nw_mtcq_queued(&q) == 4); /* counted though not takeable */
  CHECK(nw_mtcq_take(&q, out, 8) == 1 && value_of(out[0]) == 0);
  CHECK(nw_mtcq_take(&q, out, 8) == 0);
  q.slot[t & (q.capacity - 1)].item = item_of(1); /* the stalled producer goes on */
  atomic_store(&q.slot[t & (q.capacity - 1)].seq, t + 1);
  CHECK(nw_mtcq_take(&q, out, 8) == 3);
  CHECK(value_of(out[0]) == 1 && value_of(out[1]) == 2 && value_of(out[2]) == 3);
  nw_mtcq_free(&q);
}

/* The stress test. */
enum { PRODUCERS = 4, PER_PRODUCER = 250000, MAX_BUNDLE = 128, SPINS = 200 };

/* Waiting. A thread that finds the queue full (a producer) or empty (the consumer) retries
 * SPINS times, then sleeps until the other side bumps an event word, or 1 ms passes. Sleeping,
 * not sched_yield: where other processes keep the cores busy, a yield hands the core to one of
 * them for a whole time slice at every hand-off (capacity 2 took two minutes beside two busy
 * loops), while a woken sleeper runs at once. The words are read and written relaxed and the sleep
 * is a raw futex, so nothing here orders memory in ThreadSanitizer's eyes (a mutex or condition
 * variable would): the queue's own atomics alone must carry the items. Relaxed, a wake-up may be
 * missed; the 1 ms bound makes that a delay. */
typedef struct waiter {
  _Atomic uint32_t event;    /* bumped by the other side after it made progress */
  _Atomic uint32_t sleepers; /* threads asleep on event, or about to be */
} waiter;

static void sleep_on(waiter *w, uint32_t seen) {
#if defined(__linux__)
  struct timespec ms = {0, 1000000};
  syscall(SYS_futex, (uint32_t *)&w->event, FUTEX_WAIT_PRIVATE, seen, &ms, NULL, 0);
#else
  (void)w, (void)seen;
  sched_yield();
#endif
}

static void wake(waiter *w, uint32_t n) {
  if (!atomic_load_explicit(&w->sleepers, memory_order_relaxed))
    return;
  atomic_fetch_add_explicit(&w->event, 1, memory_order_relaxed);
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)&w->event, FUTEX_WAKE_PRIVATE, n < INT_MAX ? (int)n : INT_MAX,
          NULL, NULL, 0);
#else
  (void)n;
#endif
}

typedef struct stress {
  nw_mtcq q;
  waiter room;     /* producers wait here for the consumer to free slots */
  waiter arrivals; /* the consumer waits here for pushes */
  atomic_int done; /* producers finished */
  uint64_t bundles, received, misordered, strays;
} stress;

typedef struct producer {
  stress *st;
  uint64_t id, full;
} producer;

static void *produce(void *arg) {
  producer *p = arg;
  stress *st = p->st;
  for (uint64_t i = 0; i < PER_PRODUCER; i++) {
    void *item = item_of(p->id << 32 | i);
    for (unsigned tries = 0; nw_mtcq_push(&st->q, item) != 0; tries++) {
      p->full += tries == 0;
      if (tries < SPINS) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause(); /* spin gently: fewer reads of the lines the consumer writes */
#endif
        continue;
      }
      atomic_fetch_add_explicit(&st->room.sleepers, 1, memory_order_relaxed);
      uint32_t seen = atomic_load_explicit(&st->room.event, memory_order_relaxed);
      if (nw_mtcq_push(&st->q, item) == 0) {
        atomic_fetch_sub_explicit(&st->room.sleepers, 1, memory_order_relaxed);
        break;
      }
      sleep_on(&st->room, seen);
      atomic_fetch_sub_explicit(&st->room.sleepers, 1, memory_order_relaxed);
    }
    wake(&st->arrivals, 1);
  }
  atomic_fetch_add(&st->done, 1);
  wake(&st->arrivals, 1);
  return NULL;
}

static uint32_t xorshift32(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static void *consume(void *arg) {
  stress *st = arg;
  void *out[MAX_BUNDLE];
  uint64_t next[PRODUCERS] = {0};
  uint32_t seed = 2463534242u;
  unsigned tries = 0;
  for (;;) {
    uint32_t max = 1 + xorshift32(&seed) % MAX_BUNDLE;
    uint32_t n = nw_mtcq_take(&st->q, out, max);
    if (n == 0 && atomic_load(&st->done) == PRODUCERS) {
      /* Every push happened before its producer counted itself done: an empty take now means
       * nothing is left, and a lost item shows as a short count instead of a hang. */
      n = nw_mtcq_take(&st->q, out, max);
      if (n == 0)
        break;
    }
    if (n == 0 && tries++ >= SPINS) {
      atomic_store_explicit(&st->arrivals.sleepers, 1, memory_order_relaxed);
      uint32_t seen = atomic_load_explicit(&st->arrivals.event, memory_order_relaxed);
      n = nw_mtcq_take(&st->q, out, max);
      if (n == 0 && atomic_load(&st->done) < PRODUCERS)
        sleep_on(&st->arrivals, seen);
      atomic_store_explicit(&st->arrivals.sleepers, 0, memory_order_relaxed);
    }
    if (n == 0)
      continue;
    tries = 0;
    wake(&st->room, n);
    st->bundles++;
    for (uint32_t i = 0; i < n; i++) {
      uint64_t v = value_of(out[i]), id = v >> 32, seq = v & 0xffffffffu;
      if (id >= PRODUCERS || seq >= PER_PRODUCER) {
        st->strays++;
        continue;
      }
      if (seq != next[id])
        st->misordered++; /* a gap, a repeat or a swap within the producer's own order */
      next[id] = seq + 1;
      st->received++;
    }
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void stress_run(uint32_t capacity) {
  static stress st;
  st = (stress){0};
  CHECK(nw_mtcq_init(&st.q, capacity) == NW_OK);
  producer p[PRODUCERS];
  pthread_t prod[PRODUCERS], cons;
  double t0 = now();
  CHECK(pthread_create(&cons, NULL, consume, &st) == 0);
  for (int i = 0; i < PRODUCERS; i++) {
    p[i] = (producer){&st, (uint64_t)i, 0};
    CHECK(pthread_create(&prod[i], NULL, produce, &p[i]) == 0);
  }
  uint64_t full = 0;
  for (int i = 0; i < PRODUCERS; i++) {
    pthread_join(prod[i], NULL);
    full += p[i].full;
  }
  pthread_join(cons, NULL);
  double secs = now() - t0;
  CHECK(st.received == (uint64_t)PRODUCERS * PER_PRODUCER);
  CHECK(st.misordered == 0 && st.strays == 0);
  CHECK(st.q.items == st.received && st.q.bundles == st.bundles);
  /* Not bounded by the capacity: slots a take frees may be published again before it ends. */
  CHECK(st.q.largest <= MAX_BUNDLE);
  CHECK(nw_mtcq_queued(&st.q) == 0);
  printf("mtc_queue: capacity %u: %llu items in %llu bundles (mean %.1f, largest %u), %llu "
         "pushes found it full, %.2f s\n",
         st.q.capacity, (unsigned long long)st.received, (unsigned long long)st.bundles,
         st.bundles ? (double)st.received / (double)st.bundles : 0.0, st.q.largest,
         (unsigned long long)full, secs);
  nw_mtcq_free(&st.q);
}

int main(void) {
  rounding();
  fifo_and_full();
  laps();
  unpublished();
  stress_run(2);
  stress_run(64);
  stress_run(4096);
  return check_report("mtc_queue");
}
