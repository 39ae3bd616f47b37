/* real_queue.h: a node's event queue on hardware: events posted by any thread, timers that
 * fall due at a wall-clock time, one consumer (the event-loop thread).
 *
 * The consumer spins before it sleeps (real_spin.h): a hand-off between two running threads
 * then costs a cache-line transfer, not a futex wake-up and a context switch (tens of
 * microseconds each; issue 16's profile of a 1-rank run was 50% futex). A producer enters the
 * kernel only when the consumer actually sleeps. While it spins, and every poll interval while
 * it sleeps, the consumer calls a poll function: the event-loop thread is also the rank's MPI
 * progress engine (real_net.h), and MPI cannot wake a sleeping thread. */
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
  real_timer *timers;     /* sorted by time */
  atomic_int queued;      /* events in head..tail, read without the lock while spinning */
  _Atomic double next_at; /* the first timer's time, or a huge value */
  int sleeping;           /* under mu: the consumer waits on cv, a push must signal */
} real_queue;

/* Called by the consumer while it waits; returns 1 if it did something (it may push events).
 * NULL: nothing to poll. */
typedef int (*real_poll_fn)(void *ctx);

void real_queue_init(real_queue *q);
/* Frees the events (and message buffers) still queued. */
void real_queue_destroy(real_queue *q);
void real_queue_push(real_queue *q, nw_event *ev);
void real_queue_push_at(real_queue *q, nw_event *ev, double at);
/* Returns the next event: spins (polling) for up to the spin budget, then sleeps until an event
 * is pushed or a timer falls due, waking every poll_s seconds to poll (poll_s <= 0: sleep
 * until woken; the poll function is then called only while spinning). */
nw_event *real_queue_pop(real_queue *q, real_poll_fn poll, void *ctx, double poll_s);

#endif
