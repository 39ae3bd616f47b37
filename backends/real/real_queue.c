/* real_queue.c: see real_queue.h. */
#define _POSIX_C_SOURCE 200809L
#include "real_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void real_queue_init(real_queue *q) {
  pthread_mutex_init(&q->mu, NULL);
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&q->cv, &a);
  pthread_condattr_destroy(&a);
  q->head = q->tail = NULL;
  q->timers = NULL;
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
  pthread_mutex_destroy(&q->mu);
  pthread_cond_destroy(&q->cv);
}

void real_queue_push(real_queue *q, nw_event *ev) {
  ev->next = NULL;
  pthread_mutex_lock(&q->mu);
  if (q->tail)
    q->tail->next = ev;
  else
    q->head = ev;
  q->tail = ev;
  pthread_cond_signal(&q->cv);
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
  pthread_cond_signal(&q->cv);
  pthread_mutex_unlock(&q->mu);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

nw_event *real_queue_pop(real_queue *q) {
  pthread_mutex_lock(&q->mu);
  for (;;) {
    if (q->timers && q->timers->at <= now()) {
      real_timer *t = q->timers;
      q->timers = t->next;
      nw_event *ev = t->ev;
      free(t);
      pthread_mutex_unlock(&q->mu);
      return ev;
    }
    if (q->head) {
      nw_event *ev = q->head;
      q->head = ev->next;
      if (!q->head)
        q->tail = NULL;
      pthread_mutex_unlock(&q->mu);
      return ev;
    }
    if (q->timers) {
      double at = q->timers->at;
      struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
      pthread_cond_timedwait(&q->cv, &q->mu, &ts);
    } else {
      pthread_cond_wait(&q->cv, &q->mu);
    }
  }
}
