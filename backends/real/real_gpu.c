/* real_gpu.c: CUDA GPUs for the real backend (see real_gpu.h).
 *
 * Every thread here is a worker with a FIFO of jobs: a copy thread per direction (each issues
 * its copies on its own stream and waits for them, so a direction's copies go one after another
 * while the other direction and the kernels overlap: the copy engines of paper 4.3.1), and a
 * thread per stream that runs the kind's CUDA kernel on its stream. Copies are from and to the
 * node's ordinary host memory; the CUDA driver stages pageable memory through its own pinned
 * buffers. A block goes as one cudaMemcpy2DAsync; NARWHAL_GPU_STAGING picks another path for
 * blocks of narrow rows inside wider host rows (real_staging.h, real_copy_path): two pinned
 * staging buffers of the copy thread's, or a gathering kernel (real_gather.h). A copy out the core
 * asks to encode (--compression gpu) is run-length encoded by the device-to-host thread on its
 * stream (real_rle.h), so that only the encoding crosses.
 *
 * With --agglomerate N the stream threads launch nothing: every launch goes into the GPU's
 * accelerator FIFO (core/device/agglo.h), and one more thread, the dispatcher, takes the next
 * launch from it whenever its previous one has finished (the GPU falls idle): up to N subtasks
 * of one task through the kind's batched entry, or one alone. While a launch runs, the lanes'
 * next subtasks queue, so the launch size follows their arrival rate (Lifflander et al.).
 *
 * With --gpu-mode many-task there are no stream threads either: the lanes' subtasks go to the
 * many-task feeder (real_mtc_feed.h), which runs them on a resident worker kernel.
 */
#define _POSIX_C_SOURCE 200809L
#include "real_gpu.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agglo.h"
#include "real_gather.h"
#include "real_mtc_feed.h"
#include "real_rle.h"
#include "real_staging.h"

/* A staging buffer's size. 4 MiB: a transfer's fixed cost (microseconds) is small beside its
 * time at link rate, and even the widest staged row (real_staging.h) fits 64 times. */
enum { STAGE_BYTES = 4 << 20 };

/* Two pinned buffers that narrow-row copies are packed into (real_staging.h), each with the
 * event its last transfer recorded. Made at a copy thread's first staged copy: most runs never
 * stage, and pinned memory is a scarce resource of the whole machine. */
typedef struct stager {
  int state; /* 0: not made yet; 1: made; -1: refused (such copies go as 2D copies) */
  unsigned char *buf[2];
  cudaEvent_t done[2];
} stager;

typedef struct job {
  nw_copy *copy;
  nw_exec *exec;
  struct job *next;
} job;

typedef struct worker {
  struct real_gpu *gpu;
  pthread_t thread;
  pthread_mutex_t mu; /* the dispatcher's also guards the GPU's FIFO */
  pthread_cond_t cv;
  job *head, *tail;
  int stop;
  int to_device; /* copy workers */
  int kernels;   /* 1: runs kernels, 0: copies, 2: dispatches the FIFO's launches */
  cudaStream_t stream;
  real_rle *rle; /* the device-to-host copier's encoder, made at its first encoded copy */
  stager stage;  /* copy workers */
} worker;

struct real_gpu {
  int device;
  unsigned char *memory;
  uint64_t bytes;
  real_queue *q;
  worker copier[2]; /* [0] device to host, [1] host to device */
  worker *kernel;
  int streams;
  const nw_task_kind *const *kinds;
  pthread_mutex_t mu; /* kernel workers report ready (their libraries started) */
  pthread_cond_t cv;
  int ready;
  int agglomerate; /* the maximum launch size; 0: every lane launches its own subtasks */
  nw_agglo fifo;   /* under dispatch.mu */
  worker dispatch;
  real_mtc_feed *feed; /* --gpu-mode many-task; NULL: kernels launched */
  /* Launches and the subtasks they ran (one per launch without agglomeration), the largest;
   * each counter written by one thread at a time, read after the threads stopped. */
  _Atomic uint64_t launches, launched, largest;
};

int real_gpu_count(char *why, size_t why_len) {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess || n == 0) {
    snprintf(why, why_len, "no CUDA GPU is visible (%s)",
             err != cudaSuccess ? cudaGetErrorString(err) : "the driver lists none");
    return 0;
  }
  return n;
}

uint64_t real_gpu_free_memory(int g) {
  size_t free_b = 0, total = 0;
  if (cudaSetDevice(g) != cudaSuccess || cudaMemGetInfo(&free_b, &total) != cudaSuccess)
    return 0;
  return (uint64_t)free_b;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void stager_free(stager *s) {
  for (int b = 0; b < 2; b++) {
    if (s->buf[b])
      cudaFreeHost(s->buf[b]);
    if (s->done[b])
      cudaEventDestroy(s->done[b]);
  }
  *s = (stager){0};
}

/* 1 when s's buffers are there, making them at the first call (on the current device). Where
 * that is refused the copies still work, as 2D copies: said once a process, not once a copy. */
static int stager_ready(stager *s, int device) {
  if (s->state == 0) {
    cudaError_t err = cudaSuccess;
    for (int b = 0; b < 2 && err == cudaSuccess; b++) {
      err = cudaHostAlloc((void **)&s->buf[b], STAGE_BYTES, cudaHostAllocDefault);
      if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&s->done[b], cudaEventDisableTiming);
    }
    if (err == cudaSuccess) {
      s->state = 1;
    } else {
      static atomic_flag said = ATOMIC_FLAG_INIT;
      cudaGetLastError(); /* not sticky: later calls must not see it */
      stager_free(s);
      s->state = -1;
      if (!atomic_flag_test_and_set(&said))
        fprintf(stderr,
                "narwhal: GPU %d: no pinned staging buffers (%s); copies of narrow rows go as 2D "
                "copies, which are slower\n",
                device, cudaGetErrorString(err));
    }
  }
  return s->state == 1;
}

/* real_staging_ops on a stream: a transfer is a contiguous copy and an event recorded after it. */
typedef struct {
  stager *s;
  cudaStream_t stream;
} stage_ctx;

static int stage_start(void *ctx, int buf, int to_device, unsigned char *dev, unsigned char *stage,
                       uint64_t len) {
  stage_ctx *x = ctx;
  cudaError_t err = to_device ? cudaMemcpyAsync(dev, stage, len, cudaMemcpyHostToDevice, x->stream)
                              : cudaMemcpyAsync(stage, dev, len, cudaMemcpyDeviceToHost, x->stream);
  if (err == cudaSuccess)
    err = cudaEventRecord(x->s->done[buf], x->stream);
  return (int)err;
}

static int stage_wait(void *ctx, int buf) {
  stage_ctx *x = ctx;
  return (int)cudaEventSynchronize(x->s->done[buf]);
}

static const real_staging_ops stage_ops = {stage_start, stage_wait};

/* NARWHAL_GPU_STAGING, read once (real_staging.h, real_copy_path): an experiment's switch, so
 * that an A/B of the copy paths on a lent GPU needs no rebuild. */
static real_staging_mode staging_mode(void) {
  static _Atomic int mode = -1;
  int v = atomic_load(&mode);
  if (v < 0) {
    v = (int)real_staging_mode_parse(getenv("NARWHAL_GPU_STAGING"));
    atomic_store(&mode, v);
  }
  return (real_staging_mode)v;
}

/* A copy of a block between host and device (nw_copy's shape), finished when this returns: the
 * one choice of path (real_copy_path: a 2D copy by default), which copies and their
 * measurement (real_gpu_measure_copy_rates) share. s is the calling thread's stager, made when
 * first needed; device is the current device, for messages. */
static cudaError_t copy_block(stager *s, cudaStream_t stream, int device, int to_device,
                              unsigned char *dev, unsigned char *host, uint64_t host_pitch,
                              uint64_t rows, uint64_t width) {
  real_staging_mode mode = staging_mode();
  int narrow = real_staging_wanted(rows, width, host_pitch);
  int gatherable = narrow && mode == REAL_STAGING_KERNEL &&
                   real_gather_usable(device, host, host_pitch, rows, width);
  real_copy_path_t path = real_copy_path(mode, narrow, gatherable);
  if (path == REAL_COPY_KERNEL)
    return (cudaError_t)real_gather_copy(stream, to_device, dev, host, host_pitch, rows, width);
  if (path == REAL_COPY_STAGED && stager_ready(s, device)) {
    stage_ctx x = {s, stream};
    int rc = real_staging_copy(&stage_ops, &x, to_device, dev, host, host_pitch, rows, width,
                               s->buf, STAGE_BYTES);
    /* -1: a row wider than a buffer, which real_staging_wanted never picks. */
    return rc == 0 ? cudaSuccess : rc < 0 ? cudaErrorInvalidValue : (cudaError_t)rc;
  }
  cudaError_t err = to_device ? cudaMemcpy2DAsync(dev, width, host, host_pitch, width, rows,
                                                  cudaMemcpyHostToDevice, stream)
                              : cudaMemcpy2DAsync(host, host_pitch, dev, width, width, rows,
                                                  cudaMemcpyDeviceToHost, stream);
  return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
}

/* Host memory as the runtime's spaces have it: allocated by the process, then registered
 * (real_gpu_pin). Where registration is refused, the measurement is of pageable copies, which
 * is what the runs will get too. */
int real_gpu_measure_link(int g, double *bandwidth, double *latency) {
  enum { BIG = 64 << 20, ROUNDS = 3 };
  *bandwidth = *latency = 0;
  void *host = NULL, *dev = NULL;
  char why[128];
  if (cudaSetDevice(g) != cudaSuccess || posix_memalign(&host, 4096, BIG) != 0 ||
      cudaMalloc(&dev, BIG) != cudaSuccess) {
    free(host);
    return 0;
  }
  memset(host, 1, BIG); /* its pages exist before any copy is timed */
  int pinned = real_gpu_pin(host, BIG, 1, why, sizeof why) == 0;
  double best = 1e30, best_big = 1e30;
  for (int i = 0; i < 2 * ROUNDS; i++) {
    size_t len = i < ROUNDS ? 1 : BIG;
    double t0 = now_s();
    if (cudaMemcpy(dev, host, len, cudaMemcpyHostToDevice) != cudaSuccess)
      break;
    double t = now_s() - t0;
    if (i < ROUNDS && t < best)
      best = t;
    else if (i >= ROUNDS && t < best_big)
      best_big = t;
  }
  if (best < 1e30 && best_big < 1e30 && best_big > best) {
    *latency = best;
    *bandwidth = (double)BIG / (best_big - best);
  }
  if (pinned)
    real_gpu_pin(host, BIG, 0, why, sizeof why);
  cudaFree(dev);
  free(host);
  return pinned;
}

/* As real_gpu_measure_link, host memory allocated and registered; the block is the left half of
 * a matrix twice its width, copied by copy_block as do_copy would copy it. */
int real_gpu_measure_copy_rates(int g, int n, const uint64_t *widths, double *rates) {
  enum { BLOCK = 16 << 20, ROUNDS = 3 };
  for (int i = 0; i < n; i++)
    rates[i] = 0;
  void *host = NULL, *dev = NULL;
  cudaStream_t stream = NULL;
  char why[128];
  if (n <= 0 || cudaSetDevice(g) != cudaSuccess ||
      posix_memalign(&host, 4096, 2 * (size_t)BLOCK) != 0) {
    cudaGetLastError();
    return 0;
  }
  if (cudaMalloc(&dev, BLOCK) != cudaSuccess ||
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    cudaGetLastError();
    if (dev)
      cudaFree(dev);
    free(host);
    return 0;
  }
  memset(host, 1, 2 * (size_t)BLOCK); /* its pages exist before any copy is timed */
  int pinned = real_gpu_pin(host, 2 * (size_t)BLOCK, 1, why, sizeof why) == 0;
  stager s = {0}; /* made by the first staged round, whose time the best of three drops */
  for (int i = 0; i < n; i++) {
    uint64_t width = widths[i], rows = width ? BLOCK / width : 0;
    if (rows == 0)
      continue; /* no row, or one wider than the block: nothing to measure */
    double best = 1e30;
    for (int r = 0; r < ROUNDS; r++) {
      double t0 = now_s();
      if (copy_block(&s, stream, g, 1, dev, host, 2 * width, rows, width) != cudaSuccess) {
        cudaGetLastError();
        best = 1e30;
        break;
      }
      double t = now_s() - t0;
      if (t < best)
        best = t;
    }
    if (best < 1e30 && best > 0)
      rates[i] = (double)(rows * width) / best;
  }
  stager_free(&s);
  if (pinned)
    real_gpu_pin(host, 2 * (size_t)BLOCK, 0, why, sizeof why);
  cudaStreamDestroy(stream);
  cudaFree(dev);
  free(host);
  return pinned;
}

static void fatal(const char *what, cudaError_t err) {
  fprintf(stderr, "narwhal: CUDA %s failed: %s\n", what, cudaGetErrorString(err));
  exit(1);
}

static void post(real_queue *q, nw_event_kind kind, nw_copy *c, nw_exec *e) {
  real_queue_post(q, &(nw_event){.kind = kind, .copy = c, .exec = e}, 1);
}

static void do_copy(worker *w, nw_copy *c) {
  real_gpu *g = w->gpu;
  unsigned char *dev = g->memory + c->dev_off;
  if (c->encode) { /* the device side is packed: rows * width bytes from dev */
    char why[256] = "out of memory";
    if (!w->rle)
      w->rle = real_rle_new();
    c->encoded_len = w->rle ? real_rle_encode(w->rle, dev, c->rows * c->width, c->encoded,
                                              (void *)w->stream, why, sizeof why)
                            : 0;
    if (c->encoded_len == 0) {
      fprintf(stderr, "narwhal: encoding a result on GPU %d failed: %s\n", g->device, why);
      exit(1);
    }
    post(g->q, NW_EVENT_COPY_DONE, c, NULL);
    return;
  }
  cudaError_t err = copy_block(&w->stage, w->stream, g->device, c->to_device, dev, c->host,
                               c->host_pitch, c->rows, c->width);
  if (err != cudaSuccess)
    fatal(c->to_device ? "copy to the GPU" : "copy from the GPU", err);
  post(g->q, NW_EVENT_COPY_DONE, c, NULL);
}

static void count_launch(real_gpu *g, uint64_t subtasks) {
  atomic_fetch_add(&g->launches, 1);
  atomic_fetch_add(&g->launched, subtasks);
  uint64_t big = atomic_load(&g->largest);
  while (subtasks > big && !atomic_compare_exchange_weak(&g->largest, &big, subtasks)) {
  }
}

/* The dispatcher: whenever its last launch finished, the FIFO's next launch (agglo.h's rule). */
static void dispatch_loop(worker *w) {
  real_gpu *g = w->gpu;
  void **batch = malloc((size_t)g->agglomerate * sizeof *batch);
  if (!batch) {
    fprintf(stderr, "narwhal: out of memory\n");
    exit(1);
  }
  for (;;) {
    pthread_mutex_lock(&w->mu);
    while (nw_agglo_queued(&g->fifo) == 0 && !w->stop)
      pthread_cond_wait(&w->cv, &w->mu);
    int k = nw_agglo_take(&g->fifo, batch);
    pthread_mutex_unlock(&w->mu);
    if (k == 0)
      break; /* stopped with nothing left */
    nw_exec **e = (nw_exec **)batch;
    if (k == 1) {
      nw_exec_run_gpu(e[0], g->memory, (void *)w->stream);
    } else if (!nw_exec_run_gpu_batch(e, k, g->memory, (void *)w->stream, 0)) {
      fprintf(stderr, "narwhal: out of memory for a batch of %d launches\n", k);
      exit(1);
    }
    count_launch(g, (uint64_t)k);
    for (int j = 0; j < k; j++)
      post(g->q, NW_EVENT_EXEC_DONE, NULL, e[j]);
  }
  free(batch);
}

static void *worker_main(void *arg) {
  worker *w = arg;
  cudaError_t err = cudaSetDevice(w->gpu->device);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking);
  if (err != cudaSuccess)
    fatal("stream creation", err);
  if (w->kernels) {
    for (const nw_task_kind *const *k = w->gpu->kinds; k && *k; k++)
      if ((*k)->cuda_thread_init)
        (*k)->cuda_thread_init();
    pthread_mutex_lock(&w->gpu->mu);
    w->gpu->ready++;
    pthread_cond_broadcast(&w->gpu->cv);
    pthread_mutex_unlock(&w->gpu->mu);
  }
  if (w->kernels == 2) {
    dispatch_loop(w);
    cudaStreamDestroy(w->stream);
    return NULL;
  }
  for (;;) {
    pthread_mutex_lock(&w->mu);
    while (!w->head && !w->stop)
      pthread_cond_wait(&w->cv, &w->mu);
    job *j = w->head;
    if (j) {
      w->head = j->next;
      if (!w->head)
        w->tail = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    if (!j)
      break; /* stopped with nothing left */
    if (w->kernels) {
      nw_exec_run_gpu(j->exec, w->gpu->memory, (void *)w->stream);
      count_launch(w->gpu, 1);
      post(w->gpu->q, NW_EVENT_EXEC_DONE, NULL, j->exec);
    } else {
      do_copy(w, j->copy);
    }
    free(j);
  }
  real_rle_free(w->rle); /* on this thread, whose device it used */
  stager_free(&w->stage);
  cudaStreamDestroy(w->stream);
  return NULL;
}

static void push(worker *w, nw_copy *c, nw_exec *e) {
  job *j = malloc(sizeof *j);
  if (!j) {
    fprintf(stderr, "narwhal: out of memory\n");
    exit(1);
  }
  *j = (job){c, e, NULL};
  pthread_mutex_lock(&w->mu);
  if (w->tail)
    w->tail->next = j;
  else
    w->head = j;
  w->tail = j;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static void start_worker(real_gpu *g, worker *w, int kernels, int to_device) {
  *w = (worker){.gpu = g, .kernels = kernels, .to_device = to_device};
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  pthread_create(&w->thread, NULL, worker_main, w);
}

static void stop_worker(worker *w) {
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  while (w->head) { /* copies of prefetched subtasks the run no longer needs */
    job *j = w->head;
    w->head = j->next;
    if (j->copy)
      nw_copy_free(j->copy);
    free(j);
  }
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
}

real_gpu *real_gpu_open(int device, uint64_t bytes, int streams, int agglomerate, int mtc_bundle,
                        int mtc_share, real_queue *q, const nw_task_kind *const *kinds, char *why,
                        size_t why_len) {
  int lanes = streams;
  if (mtc_bundle > 0)
    streams = 0; /* the lanes feed the worker kernel: no thread of their own */
  real_gpu *g = calloc(1, sizeof *g);
  worker *k = calloc((size_t)(streams > 0 ? streams : 1), sizeof *k);
  if (!g || !k || (agglomerate > 0 && nw_agglo_init(&g->fifo, agglomerate) != NW_OK)) {
    free(g);
    free(k);
    snprintf(why, why_len, "out of memory");
    return NULL;
  }
  g->device = device;
  g->bytes = bytes;
  g->q = q;
  g->kernel = k;
  g->streams = streams;
  g->kinds = kinds;
  g->agglomerate = agglomerate;
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  cudaError_t err = cudaSetDevice(device);
  if (err == cudaSuccess)
    err = cudaMalloc((void **)&g->memory, bytes ? bytes : 1);
  if (err != cudaSuccess) {
    snprintf(why, why_len, "GPU %d: cannot allocate its %llu-byte budget: %s", device,
             (unsigned long long)bytes, cudaGetErrorString(err));
    if (agglomerate > 0)
      nw_agglo_free(&g->fifo);
    free(k);
    free(g);
    return NULL;
  }
  if (mtc_bundle > 0 && !(g->feed = real_mtc_feed_open(device, lanes, mtc_bundle, mtc_share,
                                                       g->memory, q, why, why_len))) {
    cudaFree(g->memory);
    free(k);
    free(g);
    return NULL;
  }
  start_worker(g, &g->copier[0], 0, 0);
  start_worker(g, &g->copier[1], 0, 1);
  for (int s = 0; s < streams; s++)
    start_worker(g, &k[s], 1, 0);
  if (agglomerate > 0)
    start_worker(g, &g->dispatch, 2, 0);
  pthread_mutex_lock(&g->mu);
  while (g->ready < streams + (agglomerate > 0))
    pthread_cond_wait(&g->cv, &g->mu);
  pthread_mutex_unlock(&g->mu);
  return g;
}

int real_gpu_pin(void *ptr, size_t len, int pin, char *why, size_t why_len) {
  cudaError_t err =
      pin ? cudaHostRegister(ptr, len, cudaHostRegisterPortable) : cudaHostUnregister(ptr);
  cudaGetLastError(); /* a refused registration leaves the memory pageable: still correct */
  if (err == cudaSuccess)
    return 0;
  snprintf(why, why_len, "%s", cudaGetErrorString(err));
  return -1;
}

void real_gpu_copy(real_gpu *g, nw_copy *c) {
  push(&g->copier[c->to_device ? 1 : 0], c, NULL);
}

void real_gpu_launch(real_gpu *g, int stream, nw_exec *e) {
  if (g->feed) {
    real_mtc_feed_push(g->feed, e);
    return;
  }
  if (g->agglomerate == 0) {
    push(&g->kernel[stream], NULL, e);
    return;
  }
  nw_agglo_item it = {.what = e,
                      .group = nw_exec_task_id(e),
                      .batchable = nw_exec_batchable(e, 0),
                      .high = nw_exec_high_priority(e)};
  pthread_mutex_lock(&g->dispatch.mu);
  nw_status st = nw_agglo_push(&g->fifo, it);
  pthread_cond_signal(&g->dispatch.cv);
  pthread_mutex_unlock(&g->dispatch.mu);
  if (st != NW_OK) {
    fprintf(stderr, "narwhal: out of memory for GPU %d's launch queue\n", g->device);
    exit(1);
  }
}

void real_gpu_launch_stats(const real_gpu *g, uint64_t *launches, uint64_t *subtasks,
                           uint64_t *largest) {
  if (g->feed) { /* a bundle is the mode's launch, as the simulator reports it */
    real_mtc_feed_stats(g->feed, launches, subtasks, largest);
    return;
  }
  *launches = atomic_load(&g->launches);
  *subtasks = atomic_load(&g->launched);
  *largest = atomic_load(&g->largest);
}

void real_gpu_close(real_gpu *g) {
  if (!g)
    return;
  for (int s = 0; s < g->streams; s++)
    stop_worker(&g->kernel[s]);
  real_mtc_feed_close(g->feed);
  if (g->agglomerate > 0) {
    stop_worker(&g->dispatch);
    nw_agglo_free(&g->fifo);
  }
  stop_worker(&g->copier[0]);
  stop_worker(&g->copier[1]);
  cudaSetDevice(g->device);
  cudaFree(g->memory);
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  free(g->kernel);
  free(g);
}
