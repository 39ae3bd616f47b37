/* real_queue.h: a node's event queue on hardware: events posted by any thread, timers that
 * fall due at a wall-clock time, one consumer (the event-loop thread). */
#ifndef NW_REAL_QUEUE_H
#define NW_REAL_QUEUE_H

#include <pthread.h>

#include "backend.h"

typedef struct real_timer {
  double at; /* CLOCK_MONOTONIC seconds */
  nw_event *ev;
  struct real_timer *next;
} real_timer;

typedef struct real_queue {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* signalled on push; waits use CLOCK_MONOTONIC */
  nw_event *head, *tail;
  real_timer *timers; /* sorted by time */
} real_queue;

void real_queue_init(real_queue *q);
/* Frees the events (and message buffers) still queued. */
void real_queue_destroy(real_queue *q);
void real_queue_push(real_queue *q, nw_event *ev);
void real_queue_push_at(real_queue *q, nw_event *ev, double at);
/* Blocks until an event is queued or a timer is due; returns it. */
nw_event *real_queue_pop(real_queue *q);

#endif
