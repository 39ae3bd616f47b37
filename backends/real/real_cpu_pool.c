/* real_cpu_pool.c: see real_cpu_pool.h.
 *
 * Everything below is under the pool's one mutex except the spinning threads' lock-free look
 * at `runnable`. The counts:
 *  - runnable: devices with a subtask queued and none running;
 *  - looking: threads neither sleeping nor busy (running a kernel or reporting one).
 * A launch that makes runnable exceed looking wakes a sleeper, which counts as looking from
 * then on. No subtask is ever stranded: a busy thread always looks again when it is done, and
 * a looking thread sleeps only when nothing is runnable. */
#define _GNU_SOURCE /* pthread_setname_np */
#include "real_cpu_pool.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "real_spin.h"

typedef struct pool_device {
  nw_exec **pending; /* launched, in order */
  double *pending_at;
  size_t npending, cap;
  int running;
  double free_at; /* when its last kernel ended */
  uint64_t launches;
  double launch_s;
} pool_device;

typedef struct pool_thread {
  real_cpu_pool *pool;
  int home;
  pthread_t thread;
  pthread_cond_t cv;
  int sleeping;          /* waits on cv; a waker clears it */
  int schedstat;         /* with calls.measure: /proc/thread-self/schedstat, else -1 */
  double queued_at_look; /* its run-queue waits, in seconds, when it last began looking */
} pool_thread;

struct real_cpu_pool {
  pthread_mutex_t mu;
  pool_device *dev;
  pool_thread *thr;
  int n;
  int looking;
  atomic_int runnable; /* written under mu, read without it by spinners */
  atomic_int running;  /* devices running a kernel; written under mu, read without it */
  int stop;
  real_cpu_pool_calls calls;
};

static int is_runnable(const pool_device *d) {
  return d->npending > 0 && !d->running;
}

/* Under mu: the device this thread should run next, or -1. Its own first, then the one whose
 * first subtask has waited longest. */
static int pick(const real_cpu_pool *p, int home) {
  if (is_runnable(&p->dev[home]))
    return home;
  int best = -1;
  for (int d = 0; d < p->n; d++)
    if (is_runnable(&p->dev[d]) &&
        (best < 0 || p->dev[d].pending_at[0] < p->dev[best].pending_at[0]))
      best = d;
  return best;
}

/* The seconds thread t has waited on a run queue so far (Linux's schedstat: time on a CPU,
 * time waiting to run, slices); 0 where it cannot be read. */
static double queued_s(const pool_thread *t) {
  char buf[96];
  ssize_t n = t->schedstat >= 0 ? pread(t->schedstat, buf, sizeof buf - 1, 0) : -1;
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  unsigned long long on_cpu = 0, waiting = 0;
  return sscanf(buf, "%llu %llu", &on_cpu, &waiting) == 2 ? (double)waiting * 1e-9 : 0;
}

/* Under mu: takes device d's first subtask for thread t; the caller stops looking. A launch
 * counts from when the subtask could run (posted, and its device's previous kernel over),
 * less the run-queue waits of the thread that takes it since it began looking: the simulator
 * queues subtasks per device and shares a core between the event loop and the kernels by
 * weight, so either wait counted here would be charged twice. */
static nw_exec *take(real_cpu_pool *p, int d, pool_thread *t) {
  pool_device *dv = &p->dev[d];
  nw_exec *e = dv->pending[0];
  double now = real_monotonic(), from = dv->pending_at[0];
  if (dv->free_at > from)
    from = dv->free_at;
  double launch = now - from;
  if (t->schedstat >= 0) {
    double waited = queued_s(t) - t->queued_at_look;
    launch -= waited > 0 ? waited : 0;
  }
  dv->launches++;
  dv->launch_s += launch > 0 ? launch : 0;
  dv->npending--;
  memmove(dv->pending, dv->pending + 1, dv->npending * sizeof *dv->pending);
  memmove(dv->pending_at, dv->pending_at + 1, dv->npending * sizeof *dv->pending_at);
  dv->running = 1;
  atomic_fetch_add_explicit(&p->running, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&p->runnable, 1, memory_order_relaxed);
  p->looking--;
  return e;
}

/* Under mu: wakes a sleeping thread, device d's own if it sleeps, and counts it as looking. */
static void wake_one(real_cpu_pool *p, int d) {
  pool_thread *t = p->thr[d].sleeping ? &p->thr[d] : NULL;
  for (int i = 0; !t && i < p->n; i++)
    if (p->thr[i].sleeping)
      t = &p->thr[i];
  if (!t)
    return;
  t->sleeping = 0;
  p->looking++;
  pthread_cond_signal(&t->cv);
}

static void spin_for_work(real_cpu_pool *p) {
  double until = real_monotonic() + real_spin_budget(REAL_WAIT_WORKER);
  unsigned polls = 0;
  while (!atomic_load_explicit(&p->runnable, memory_order_acquire) && real_monotonic() < until) {
    if (p->calls.idle) {
      p->calls.idle(p->calls.ctx);
      /* A poll of MPI takes about a microsecond: with pauses between, the polls before
       * real_spin_pause yields would keep the core from another rank's kernel for the whole
       * budget (heavy Task Bench steps on two ranks ran 10-20% slower). Yield every time. */
      real_spin_yield();
    } else {
      real_spin_pause(&polls);
    }
  }
}

static void *pool_main(void *arg) {
  pool_thread *self = arg;
  real_cpu_pool *p = self->pool;
  pthread_setname_np(pthread_self(), "nw-cpu"); /* in /proc: tests/real/placement.sh */
  real_spin_lower_priority();
  self->schedstat = p->calls.measure ? open("/proc/thread-self/schedstat", O_RDONLY) : -1;
  self->queued_at_look = queued_s(self);
  pthread_mutex_lock(&p->mu);
  for (;;) { /* looking, mu held */
    int d = pick(p, self->home);
    if (d < 0 && !p->stop) {
      pthread_mutex_unlock(&p->mu);
      spin_for_work(p);
      pthread_mutex_lock(&p->mu);
      if ((d = pick(p, self->home)) < 0 && !p->stop) {
        p->looking--;
        self->sleeping = 1;
        while (self->sleeping && !p->stop)
          pthread_cond_wait(&self->cv, &p->mu);
        if (self->sleeping) { /* stopped, not woken */
          self->sleeping = 0;
          p->looking++;
        }
        continue;
      }
    }
    if (d < 0) /* stopped with nothing queued */
      break;
    nw_exec *e = take(p, d, self);
    pthread_mutex_unlock(&p->mu);
    p->calls.kernel(p->calls.ctx, d, e);
    pthread_mutex_lock(&p->mu);
    p->dev[d].running = 0;
    p->dev[d].free_at = real_monotonic();
    atomic_fetch_sub_explicit(&p->running, 1, memory_order_relaxed);
    if (p->dev[d].npending)
      atomic_fetch_add_explicit(&p->runnable, 1, memory_order_release);
    p->looking++; /* it looks again once it has reported */
    pthread_mutex_unlock(&p->mu);
    p->calls.done(p->calls.ctx, d, e);
    self->queued_at_look = queued_s(self);
    pthread_mutex_lock(&p->mu);
  }
  p->looking--;
  pthread_mutex_unlock(&p->mu);
  if (self->schedstat >= 0)
    close(self->schedstat);
  return NULL;
}

real_cpu_pool *real_cpu_pool_start(int ndev, real_cpu_pool_calls calls, real_cpu_pool **publish) {
  real_cpu_pool *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->dev = calloc((size_t)ndev, sizeof *p->dev);
  p->thr = calloc((size_t)ndev, sizeof *p->thr);
  if (!p->dev || !p->thr) {
    free(p->dev);
    free(p->thr);
    free(p);
    return NULL;
  }
  pthread_mutex_init(&p->mu, NULL);
  p->n = ndev;
  p->calls = calls;
  atomic_init(&p->runnable, 0);
  atomic_init(&p->running, 0);
  p->looking = ndev; /* every thread starts by looking */
  for (int t = 0; t < ndev; t++) {
    p->thr[t] = (pool_thread){.pool = p, .home = t};
    pthread_cond_init(&p->thr[t].cv, NULL);
  }
  if (publish) /* before the threads: pthread_create orders it before their first call */
    *publish = p;
  for (int t = 0; t < ndev; t++)
    if (pthread_create(&p->thr[t].thread, NULL, pool_main, &p->thr[t]) != 0) {
      fprintf(stderr, "narwhal: cannot start a compute thread\n");
      exit(1);
    }
  return p;
}

void real_cpu_pool_launch(real_cpu_pool *p, int d, nw_exec *exec) {
  pthread_mutex_lock(&p->mu);
  pool_device *dv = &p->dev[d];
  if (dv->npending == dv->cap) {
    dv->cap = dv->cap ? 2 * dv->cap : 4;
    dv->pending = realloc(dv->pending, dv->cap * sizeof *dv->pending);
    dv->pending_at = realloc(dv->pending_at, dv->cap * sizeof *dv->pending_at);
    if (!dv->pending || !dv->pending_at) {
      fprintf(stderr, "narwhal: out of memory\n");
      exit(1);
    }
  }
  dv->pending_at[dv->npending] = real_monotonic();
  dv->pending[dv->npending++] = exec;
  if (dv->npending == 1 && !dv->running &&
      atomic_fetch_add_explicit(&p->runnable, 1, memory_order_release) + 1 > p->looking)
    wake_one(p, d);
  pthread_mutex_unlock(&p->mu);
}

int real_cpu_pool_waiting(const real_cpu_pool *p) {
  return atomic_load_explicit(&p->runnable, memory_order_relaxed);
}

int real_cpu_pool_running(const real_cpu_pool *p) {
  return atomic_load_explicit(&p->running, memory_order_relaxed);
}

void real_cpu_pool_stats(real_cpu_pool *p, uint64_t *launches, double *launch_s) {
  *launches = 0;
  *launch_s = 0;
  pthread_mutex_lock(&p->mu); /* the threads may still be looking for work */
  for (int d = 0; d < p->n; d++) {
    *launches += p->dev[d].launches;
    *launch_s += p->dev[d].launch_s;
  }
  pthread_mutex_unlock(&p->mu);
}

void real_cpu_pool_stop(real_cpu_pool *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  for (int t = 0; t < p->n; t++)
    pthread_cond_signal(&p->thr[t].cv);
  pthread_mutex_unlock(&p->mu);
  for (int t = 0; t < p->n; t++) {
    pthread_join(p->thr[t].thread, NULL);
    pthread_cond_destroy(&p->thr[t].cv);
  }
  for (int d = 0; d < p->n; d++) {
    free(p->dev[d].pending);
    free(p->dev[d].pending_at);
  }
  pthread_mutex_destroy(&p->mu);
  free(p->dev);
  free(p->thr);
  free(p);
}
