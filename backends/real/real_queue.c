/* real_queue.c: see real_queue.h. */
#define _POSIX_C_SOURCE 200809L
#include "real_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "real_spin.h"

#define NO_TIMER 1e300

void real_queue_init(real_queue *q) {
  pthread_mutex_init(&q->mu, NULL);
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&q->cv, &a);
  pthread_condattr_destroy(&a);
  q->head = q->tail = NULL;
  q->spare = NULL;
  q->timers = NULL;
  atomic_init(&q->queued, 0);
  atomic_init(&q->next_at, NO_TIMER);
  q->sleeping = 0;
  q->woken = 0;
}

static void free_event(nw_event *ev) {
  if (ev->kind == NW_EVENT_MESSAGE)
    free(ev->buf);
  if (ev->kind == NW_EVENT_COPY_DONE)
    nw_copy_free(ev->copy);
  free(ev);
}

void real_queue_destroy(real_queue *q) {
  while (q->head) {
    nw_event *ev = q->head;
    q->head = ev->next;
    free_event(ev);
  }
  while (q->timers) {
    real_timer *t = q->timers;
    q->timers = t->next;
    free_event(t->ev);
    free(t);
  }
  while (q->spare) {
    nw_event *ev = q->spare;
    q->spare = ev->next;
    free(ev);
  }
  pthread_mutex_destroy(&q->mu);
  pthread_cond_destroy(&q->cv);
}

/* With the lock held, after publishing work: wake the consumer if it sleeps. It announces
 * sleep and takes its last look at the queue under the same lock, so it cannot miss this. */
static void wake(real_queue *q) {
  if (q->sleeping)
    pthread_cond_signal(&q->cv);
}

/* Under mu: ev at the tail. */
static void link_tail(real_queue *q, nw_event *ev, int signal) {
  ev->next = NULL;
  if (q->tail)
    q->tail->next = ev;
  else
    q->head = ev;
  q->tail = ev;
  atomic_fetch_add_explicit(&q->queued, 1, memory_order_seq_cst);
  if (signal)
    wake(q);
}

void real_queue_post(real_queue *q, const nw_event *ev, int signal) {
  pthread_mutex_lock(&q->mu);
  nw_event *e = q->spare;
  if (e)
    q->spare = e->next;
  else if (!(e = malloc(sizeof *e))) {
    fprintf(stderr, "narwhal: out of memory\n");
    exit(1);
  }
  *e = *ev;
  link_tail(q, e, signal);
  pthread_mutex_unlock(&q->mu);
}

void real_queue_recycle(real_queue *q, nw_event *done) {
  pthread_mutex_lock(&q->mu);
  done->next = q->spare;
  q->spare = done;
  pthread_mutex_unlock(&q->mu);
}

void real_queue_push_at(real_queue *q, nw_event *ev, double at) {
  real_timer *t = malloc(sizeof *t);
  if (!t) {
    fprintf(stderr, "narwhal: out of memory\n");
    exit(1);
  }
  t->at = at;
  t->ev = ev;
  pthread_mutex_lock(&q->mu);
  real_timer **p = &q->timers;
  while (*p && (*p)->at <= at)
    p = &(*p)->next;
  t->next = *p;
  *p = t;
  atomic_store_explicit(&q->next_at, q->timers->at, memory_order_release);
  wake(q);
  pthread_mutex_unlock(&q->mu);
}

/* An event that is due now, or NULL; called with the lock held. */
static nw_event *take(real_queue *q, double now) {
  if (q->timers && q->timers->at <= now) {
    real_timer *t = q->timers;
    q->timers = t->next;
    atomic_store_explicit(&q->next_at, q->timers ? q->timers->at : NO_TIMER, memory_order_relaxed);
    nw_event *ev = t->ev;
    free(t);
    return ev;
  }
  if (q->head) {
    nw_event *ev = q->head;
    q->head = ev->next;
    if (!q->head)
      q->tail = NULL;
    atomic_fetch_sub_explicit(&q->queued, 1, memory_order_relaxed);
    return ev;
  }
  return NULL;
}

static int ready(real_queue *q, double now) {
  return atomic_load_explicit(&q->queued, memory_order_acquire) > 0 ||
         atomic_load_explicit(&q->next_at, memory_order_acquire) <= now;
}

/* The time to compare timers with: the clock only while a timer is set. A clock read costs
 * tens of nanoseconds (more in a virtual machine), and the handling threads look at the queue
 * several times per event; most runs set no timer. */
static double timer_now(real_queue *q) {
  return atomic_load_explicit(&q->next_at, memory_order_acquire) < NO_TIMER ? real_monotonic()
                                                                            : 0.0;
}

nw_event *real_queue_take(real_queue *q) {
  return real_queue_take_after(q, NULL);
}

nw_event *real_queue_take_after(real_queue *q, nw_event *done) {
  double now = timer_now(q);
  if (!ready(q, now)) {
    if (done)
      real_queue_recycle(q, done);
    return NULL;
  }
  pthread_mutex_lock(&q->mu);
  if (done) {
    done->next = q->spare;
    q->spare = done;
  }
  nw_event *ev = take(q, now);
  pthread_mutex_unlock(&q->mu);
  return ev;
}

int real_queue_ready(real_queue *q) {
  return ready(q, timer_now(q));
}

void real_queue_wake(real_queue *q) {
  pthread_mutex_lock(&q->mu);
  q->woken = 1;
  wake(q);
  pthread_mutex_unlock(&q->mu);
}

/* The longest a sleeping consumer goes without polling: the old network thread's back-off. */
#define POLL_MAX_S 500e-6

/* Adds a spin that began at wall time w0 and thread CPU time c0 and ends at now. */
static void count_spin(real_spin_stats *stats, double w0, double c0, double now) {
  if (!stats)
    return;
  stats->spins++;
  stats->wall_s += now - w0;
  stats->cpu_s += real_thread_cpu_seconds() - c0;
}

void real_queue_wait(real_queue *q, real_poll_fn poll, void *ctx, double poll_s) {
  real_queue_wait_measured(q, poll, ctx, poll_s, NULL);
}

void real_queue_wait_measured(real_queue *q, real_poll_fn poll, void *ctx, double poll_s,
                              real_spin_stats *stats) {
  double now = real_monotonic();
  if (ready(q, now))
    return;
  for (;;) {
    /* Spin: poll and look again until the budget is spent without anything happening. */
    double until = now + real_spin_budget(REAL_WAIT_LOOP);
    double w0 = now, c0 = stats ? real_thread_cpu_seconds() : 0;
    unsigned polls = 0;
    for (;;) {
      int active = poll && poll(ctx);
      now = real_monotonic();
      if (ready(q, now)) {
        count_spin(stats, w0, c0, now);
        return;
      }
      if (active) {
        until = now + real_spin_budget(REAL_WAIT_LOOP);
        /* A transfer is moving and moves only while we poll (shared memory: real_net_poll says
         * so only for those): keep the core (compute threads have the lower priority,
         * real_spin.h) rather than yield it for a whole time slice. */
        polls = 0;
      } else if (now >= until) {
        break;
      }
      real_spin_pause(&polls);
    }
    count_spin(stats, w0, c0, now);
    stats = NULL; /* only the first spin: the caller said what ran when the wait began */
    /* Sleep, waking for the first timer, for a push, and to poll: after poll_s, then twice as
     * long each time nothing happened, up to POLL_MAX_S. */
    double interval = poll_s;
    pthread_mutex_lock(&q->mu);
    for (;;) {
      now = real_monotonic();
      if (q->woken || q->head || (q->timers && q->timers->at <= now)) {
        q->woken = 0;
        pthread_mutex_unlock(&q->mu);
        return;
      }
      double at = q->timers ? q->timers->at : NO_TIMER;
      if (poll && poll_s > 0 && now + interval < at)
        at = now + interval;
      q->sleeping = 1; /* under the lock: see wake() */
      if (at < NO_TIMER) {
        struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
        pthread_cond_timedwait(&q->cv, &q->mu, &ts);
      } else {
        pthread_cond_wait(&q->cv, &q->mu);
      }
      q->sleeping = 0;
      if (poll && poll_s > 0) {
        pthread_mutex_unlock(&q->mu); /* poll() may push */
        if (poll(ctx))
          break; /* something is moving: spin again */
        pthread_mutex_lock(&q->mu);
        if (interval < POLL_MAX_S)
          interval *= 2;
      }
    }
    now = real_monotonic();
  }
}
