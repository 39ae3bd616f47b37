/* real_queue.h: a node's event queue on hardware: events posted by any thread, timers that
 * fall due at a wall-clock time. Whoever holds the node's lock takes them (real_backend.c:
 * the event-loop thread, or a compute thread or the driver handling what it just posted).
 *
 * The event-loop thread waits for events with real_queue_wait: it spins before it sleeps
 * (real_spin.h), so a hand-off between two running threads costs a cache-line transfer, not a
 * futex wake-up and a context switch (tens of microseconds each; a profile of a 1-rank run
 * was 50% futex). real_queue_post wakes it only when it actually sleeps,
 * and only when asked: a producer that then handles the event itself does not. While
 * it spins, and every poll interval while it sleeps, the waiter calls a poll function: the
 * event-loop thread is also the rank's MPI progress engine (real_net.h), and MPI cannot wake
 * a sleeping thread. */
#ifndef NW_REAL_QUEUE_H
#define NW_REAL_QUEUE_H

#include <pthread.h>
#include <stdatomic.h>

#include "backend.h"

typedef struct real_timer {
  double at; /* CLOCK_MONOTONIC seconds */
  nw_event *ev;
  struct real_timer *next;
} real_timer;

typedef struct real_queue {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* signalled on push while the consumer sleeps; CLOCK_MONOTONIC waits */
  nw_event *head, *tail;
  nw_event *spare;        /* handled events, for real_queue_post to fill again */
  real_timer *timers;     /* sorted by time */
  atomic_int queued;      /* events in head..tail, read without the lock while spinning */
  _Atomic double next_at; /* the first timer's time, or a huge value */
  int sleeping;           /* under mu: the consumer waits on cv, a push must signal */
  int woken;              /* under mu: real_queue_wake was called, the waiter returns */
} real_queue;

/* Called by the consumer while it waits; returns 1 if it did something (it may push events).
 * NULL: nothing to poll. */
typedef int (*real_poll_fn)(void *ctx);

void real_queue_init(real_queue *q);
/* Frees the events (and message buffers) still queued. */
void real_queue_destroy(real_queue *q);
/* Queues a timer's event (malloc'd; the queue owns it from now on) for CLOCK_MONOTONIC time
 * `at`. */
void real_queue_push_at(real_queue *q, nw_event *ev, double at);
/* Queues a copy of *ev in an event handled before (or a new one), waking a sleeping waiter if
 * `signal` (without: the caller takes it next, or the thread that holds the node's lock does,
 * real_backend.c's drain). The runtime's own events (a finished kernel, a driver call, a message to
 * itself) cost no allocation once the run is warm. Events the queue hands out are malloc'd, whoever
 * made them; a handler gives one back with real_queue_recycle or real_queue_take_after. */
void real_queue_post(real_queue *q, const nw_event *ev, int signal);
void real_queue_recycle(real_queue *q, nw_event *done);
/* Whether an event is queued or a timer is due; lock-free. */
int real_queue_ready(real_queue *q);
/* The next event queued or timer due, or NULL at once. FIFO among pushes. */
nw_event *real_queue_take(real_queue *q);
/* The same, giving back `done` (NULL: none), a handled event, under the same lock. */
nw_event *real_queue_take_after(real_queue *q, nw_event *done);
/* Returns once an event is queued or a timer due (or real_queue_wake was called), without
 * taking it: spins (polling) for up to the spin budget, then sleeps until an event is pushed
 * or a timer falls due, waking every poll_s seconds to poll (poll_s <= 0: sleep until woken;
 * the poll function is then called only while spinning). */
void real_queue_wait(real_queue *q, real_poll_fn poll, void *ctx, double poll_s);
/* What a waiter's spins cost (real_queue_wait_measured): how many, their wall time, and the
 * waiting thread's CPU time in them. */
typedef struct real_spin_stats {
  uint64_t spins;
  double wall_s, cpu_s;
} real_spin_stats;
/* real_queue_wait, adding its spin (not its sleep) to *stats when stats is not NULL. */
void real_queue_wait_measured(real_queue *q, real_poll_fn poll, void *ctx, double poll_s,
                              real_spin_stats *stats);
/* Makes a waiting (or the next) real_queue_wait return. */
void real_queue_wake(real_queue *q);

#endif
