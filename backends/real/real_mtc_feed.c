/* real_mtc_feed.c: see real_mtc_feed.h. */
#define _POSIX_C_SOURCE 200809L
#include "real_mtc_feed.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mtc_queue.h"
#include "narwhal_mtc.h"
#include "real_mtc.h"

struct real_mtc_feed {
  int device;
  uint32_t lanes, bundle;
  unsigned char *memory;
  real_queue *q;
  real_mtc *engine;
  /* The lanes push under mu, so that the feeder, which sleeps on cv while nothing is queued or
   * outstanding, never misses one; it takes without the lock (the queue's one consumer). */
  nw_mtcq in;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop;
  pthread_t thread;
  int started; /* the thread and its lock exist */
  /* The feeder's own buffers, and its counters (written by it alone, read at the end). */
  nw_exec **batch;
  real_mtc_task *tasks;
  real_mtc_result *done;
  _Atomic uint64_t bundles, subtasks, largest;
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fatal(const real_mtc_feed *f, const char *what, const char *kind) {
  fprintf(stderr, "narwhal: the many-task GPU %d: %s%s%s\n", f->device, what, kind ? " " : "",
          kind ? kind : "");
  exit(1);
}

/* The exec as a worker-kernel task: its kind's operation (narwhal_mtc.h) in the engine's terms;
 * the exec itself is the id its result comes back with. */
static void describe(const real_mtc_feed *f, nw_exec *e, real_mtc_task *out) {
  nw_mtc_task t;
  if (nw_exec_mtc_task(e, f->memory, &t) != 0)
    fatal(f, "no worker-kernel operation (mtc_task) for a subtask of task kind",
          nw_exec_kind_name(e));
  *out = (real_mtc_task){.id = (uint64_t)(uintptr_t)e};
  if (t.op == NW_MTC_ADD_U64) {
    out->kind = REAL_MTC_ADD_U64;
    out->a = (uint64_t)(uintptr_t)t.in[0];
    out->b = (uint64_t)(uintptr_t)t.in[1];
    out->c = (uint64_t)(uintptr_t)t.out;
    out->d = t.count;
  } else if (t.op == NW_MTC_MDLITE && t.count >= 1 && t.count <= NW_MTC_MD_MAX) {
    out->kind = REAL_MTC_MD_SEGMENT;
    out->n = (uint32_t)t.count;
    out->a = (uint64_t)(uintptr_t)t.in[0];
    out->b = t.steps;
    out->c = (uint64_t)(uintptr_t)t.out;
  } else {
    fatal(f, "an operation the worker kernel does not know (or out of its range) from task kind",
          nw_exec_kind_name(e));
  }
}

/* Sends up to `room` queued subtasks as one bundle; how many it sent. */
static uint32_t send_bundle(real_mtc_feed *f, uint32_t room) {
  uint32_t k = nw_mtcq_take(&f->in, (void **)f->batch, f->bundle < room ? f->bundle : room);
  for (uint32_t j = 0; j < k; j++)
    describe(f, f->batch[j], &f->tasks[j]);
  if (k > 0) {
    if (real_mtc_submit(f->engine, f->tasks, k) != 0)
      fatal(f, "a bundle's copy to the GPU failed", NULL);
    atomic_fetch_add(&f->bundles, 1);
    atomic_fetch_add(&f->subtasks, k);
    if (k > atomic_load(&f->largest))
      atomic_store(&f->largest, k);
  }
  return k;
}

/* Posts the finished subtasks' completions; how many. */
static uint32_t collect(real_mtc_feed *f) {
  uint32_t n = real_mtc_collect(f->engine, f->done, f->lanes);
  for (uint32_t i = 0; i < n; i++) {
    if (f->done[i].value == ~0ull) /* the worker's answer to a task it cannot run */
      fatal(f, "the worker kernel refused a task", NULL);
    real_queue_post(
        f->q, &(nw_event){.kind = NW_EVENT_EXEC_DONE, .exec = (nw_exec *)(uintptr_t)f->done[i].id},
        1);
  }
  return n;
}

static void *feeder_main(void *arg) {
  real_mtc_feed *f = arg;
  if (real_mtc_bind(f->engine) != 0)
    fatal(f, "cannot make its GPU current on the feeder's thread", NULL);
  double first = 0; /* when the feeder first saw the oldest subtask still queued; 0: none */
  for (;;) {
    pthread_mutex_lock(&f->mu);
    while (!f->stop && nw_mtcq_queued(&f->in) == 0 && real_mtc_outstanding(f->engine) == 0)
      pthread_cond_wait(&f->cv, &f->mu);
    uint32_t queued = nw_mtcq_queued(&f->in);
    int stop = f->stop;
    pthread_mutex_unlock(&f->mu);
    uint64_t outstanding = real_mtc_outstanding(f->engine);
    if (stop && queued == 0 && outstanding == 0)
      break;
    uint32_t moved = 0;
    if (queued > 0) {
      double now = now_s();
      if (first == 0)
        first = now;
      uint32_t room = f->lanes - (uint32_t)outstanding;
      if (room > 0 && (queued >= f->bundle || now - first >= REAL_MTC_FLUSH_S || stop)) {
        moved = send_bundle(f, room);
        first = 0;
      }
    }
    moved += collect(f);
    if (moved == 0)
      sched_yield(); /* waiting for the GPU or for the flush: GeMTC's host polls too */
  }
  return NULL;
}

real_mtc_feed *real_mtc_feed_open(int device, int lanes, int bundle, int share,
                                  unsigned char *memory, real_queue *q, char *why, size_t why_len) {
  real_mtc_feed *f = calloc(1, sizeof *f);
  if (!f || lanes < 1 || bundle < 1) {
    free(f);
    snprintf(why, why_len, "many-task GPU: out of host memory, or no lanes");
    return NULL;
  }
  *f = (real_mtc_feed){.device = device,
                       .lanes = (uint32_t)lanes,
                       .bundle = (uint32_t)bundle,
                       .memory = memory,
                       .q = q};
  /* A lane has one subtask in at a time (pipeline.c), so neither ring ever fills: the engine's
   * holds every lane's subtask, the pool only its ring and control words. */
  uint64_t pool = (uint64_t)lanes * sizeof(real_mtc_task) + (64u << 10);
  if (nw_mtcq_init(&f->in, (uint32_t)lanes * 2) != NW_OK ||
      !(f->batch = malloc((size_t)bundle * sizeof *f->batch)) ||
      !(f->tasks = malloc((size_t)bundle * sizeof *f->tasks)) ||
      !(f->done = malloc((size_t)lanes * sizeof *f->done))) {
    snprintf(why, why_len, "many-task GPU: out of host memory");
    real_mtc_feed_close(f);
    return NULL;
  }
  if (!(f->engine = real_mtc_open(device, pool, (uint32_t)lanes, 0,
                                  (uint32_t)(share > 1 ? share : 1), why, why_len))) {
    real_mtc_feed_close(f);
    return NULL;
  }
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->cv, NULL);
  if (pthread_create(&f->thread, NULL, feeder_main, f) != 0) {
    snprintf(why, why_len, "many-task GPU: cannot start its feeder thread");
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    real_mtc_feed_close(f);
    return NULL;
  }
  f->started = 1;
  return f;
}

void real_mtc_feed_push(real_mtc_feed *f, nw_exec *e) {
  pthread_mutex_lock(&f->mu);
  int full = nw_mtcq_push(&f->in, e) != 0;
  pthread_cond_signal(&f->cv);
  pthread_mutex_unlock(&f->mu);
  if (full)
    fatal(f, "its incoming queue is full (more subtasks launched than lanes: a bug)", NULL);
}

void real_mtc_feed_stats(const real_mtc_feed *f, uint64_t *bundles, uint64_t *subtasks,
                         uint64_t *largest) {
  *bundles = atomic_load(&f->bundles);
  *subtasks = atomic_load(&f->subtasks);
  *largest = atomic_load(&f->largest);
}

void real_mtc_feed_close(real_mtc_feed *f) {
  if (!f)
    return;
  if (f->started) {
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->thread, NULL);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
  }
  real_mtc_close(f->engine); /* after the feeder: every published task has finished */
  nw_mtcq_free(&f->in);
  free(f->batch);
  free(f->tasks);
  free(f->done);
  free(f);
}
