/* real_calibrate.c: see real_calibrate.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "real_calibrate.h"

#include <cblas.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "real_gpu.h"
#include "real_net.h"
#include "real_spin.h"

int nw_real_usable_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* One core's SGEMM rate: 512^3 multiply-adds, best of 5, on one OpenBLAS thread (a CPU
 * device's kernel runs on one core: real_backend.c sets OpenBLAS's threads per device). */
static double core_flops(void) {
  enum { N = 512, ROUNDS = 5 };
  float *a = malloc(sizeof(float) * N * N), *b = malloc(sizeof(float) * N * N),
        *c = malloc(sizeof(float) * N * N);
  double best = 0;
  if (a && b && c) {
    for (int i = 0; i < N * N; i++)
      a[i] = b[i] = (float)(i % 7) * 0.25f, c[i] = 0;
    openblas_set_num_threads(1);
    for (int r = 0; r < ROUNDS; r++) {
      double t0 = real_monotonic();
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, b, N, 0.0f, c, N);
      double t = real_monotonic() - t0;
      double rate = t > 0 ? 2.0 * N * N * N / t : 0;
      best = rate > best ? rate : best;
    }
  }
  free(a), free(b), free(c);
  return best;
}

/* One thread's memcpy of 64 MiB, best of 5: the rate at which a commit copies a subtask's
 * private result into the node's copy (core/device/pipeline.c). */
static double memory_bandwidth(void) {
  enum { BYTES = 64 << 20, ROUNDS = 5 };
  char *src = malloc(BYTES), *dst = malloc(BYTES);
  double best = 0;
  if (src && dst) {
    memset(src, 1, BYTES);
    memset(dst, 2, BYTES); /* touched: no page faults inside the timing */
    for (int r = 0; r < ROUNDS; r++) {
      double t0 = real_monotonic();
      memcpy(dst, src, BYTES);
      double t = real_monotonic() - t0;
      double rate = t > 0 ? BYTES / t : 0;
      best = rate > best ? rate : best;
    }
  }
  free(src), free(dst);
  return best;
}

/* One round trip: len bytes from a to b, one byte back; its seconds. */
static double round_trip(int rank, int a, int peer, char *buf, int len) {
  enum { TAG = 32001 };
  double t0 = real_monotonic();
  if (rank == a) {
    MPI_Send(buf, len, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
    MPI_Recv(buf, 1, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, len, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 1, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
  }
  return real_monotonic() - t0;
}

/* The bandwidth is the rate of the second half of a large message: the best time of a full one
 * less the best of a half one, both right after another large one. A single size's time, less
 * the latency, also counts what a link lets through at once before it settles at its rate (a
 * shaped link's burst: 256 KB at 100 Mbit/s made 4 MB look 6% faster than the 95.6 Mbit/s that
 * back-to-back data transfers get; docs/experiments/network-validation.md), and the simulator
 * charges every transfer at the calibrated rate. */
void nw_real_ping_pong(int rank, int a, int b, char *buf, double *latency, double *bandwidth) {
  enum { ROUNDS = 20, BIG = NW_REAL_PING_PONG_BYTES, BIG_ROUNDS = 3 };
  *latency = *bandwidth = 0;
  if (rank != a && rank != b)
    return;
  int peer = rank == a ? b : a;
  double best = 1e30, best_big = 1e30, best_half = 1e30;
  for (int i = 0; i < ROUNDS; i++) {
    double t = round_trip(rank, a, peer, buf, 1);
    best = t < best ? t : best;
  }
  (void)round_trip(rank, a, peer, buf, BIG); /* the burst a link may let through goes here */
  for (int i = 0; i < BIG_ROUNDS; i++) {
    double h = round_trip(rank, a, peer, buf, BIG / 2), t = round_trip(rank, a, peer, buf, BIG);
    best_half = h < best_half ? h : best_half;
    best_big = t < best_big ? t : best_big;
  }
  *latency = best / 2;
  double second_half = best_big - best_half;
  *bandwidth = second_half > 0 ? (double)(BIG - BIG / 2) / second_half : 0; /* 0: too fast */
}

static int by_seconds(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double nw_real_behind_bytes(int rank, int a, int b, char *buf, double latency, double bandwidth) {
  enum {
    BIG = NW_REAL_PING_PONG_BYTES,
    REPS = 3,
    TAG_BIG = 32003,
    TAG_ASK = 32004,
    TAG_ANSWER = 32005
  };
  if ((rank != a && rank != b) || !(bandwidth > 0))
    return 0;
  int peer = rank == a ? b : a;
  char small[64] = {0};
  double waited[REPS];
  for (int i = 0; i < REPS; i++) {
    MPI_Request big, ask, answer;
    if (rank == a) {
      MPI_Isend(buf, BIG, MPI_BYTE, peer, TAG_BIG, MPI_COMM_WORLD, &big);
      double t0 = real_monotonic(), half = (double)BIG / 2 / bandwidth;
      int done = 0;
      while (!done && real_monotonic() - t0 < half) /* drive the transfer until halfway */
        MPI_Test(&big, &done, MPI_STATUS_IGNORE);
      double t1 = real_monotonic();
      MPI_Irecv(small, sizeof small, MPI_BYTE, peer, TAG_ANSWER, MPI_COMM_WORLD, &answer);
      MPI_Isend(small, sizeof small, MPI_BYTE, peer, TAG_ASK, MPI_COMM_WORLD, &ask);
      int got = 0;
      while (!got) {
        MPI_Test(&answer, &got, MPI_STATUS_IGNORE);
        if (!done)
          MPI_Test(&big, &done, MPI_STATUS_IGNORE);
      }
      double extra = real_monotonic() - t1 - 2 * latency;
      waited[i] = extra > 0 ? extra : 0;
      MPI_Wait(&ask, MPI_STATUS_IGNORE);
      MPI_Wait(&big, MPI_STATUS_IGNORE);
    } else {
      MPI_Irecv(buf, BIG, MPI_BYTE, peer, TAG_BIG, MPI_COMM_WORLD, &big);
      MPI_Recv(small, sizeof small, MPI_BYTE, peer, TAG_ASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(small, sizeof small, MPI_BYTE, peer, TAG_ANSWER, MPI_COMM_WORLD);
      MPI_Wait(&big, MPI_STATUS_IGNORE);
    }
  }
  double bytes = 0;
  if (rank == a) {
    qsort(waited, REPS, sizeof *waited, by_seconds);
    bytes = waited[REPS / 2] * bandwidth;
    MPI_Send(&bytes, 1, MPI_DOUBLE, peer, TAG_ANSWER, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&bytes, 1, MPI_DOUBLE, peer, TAG_ANSWER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return bytes;
}

/* Whether a message of `len` bytes from a to b is sent before b's MPI progress sees it: b stays
 * out of MPI for `quiet` seconds while a drives its send for half of that. Both get a's answer. */
static int sent_unseen(int rank, int a, int peer, char *buf, int len, double quiet) {
  enum { TAG = 32006 };
  char sync = 0;
  int unseen = 0;
  MPI_Sendrecv(&sync, 1, MPI_BYTE, peer, TAG, &sync, 1, MPI_BYTE, peer, TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (rank == a) {
    MPI_Request send;
    MPI_Isend(buf, len, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &send);
    double t0 = real_monotonic();
    while (!unseen && real_monotonic() - t0 < quiet / 2)
      MPI_Test(&send, &unseen, MPI_STATUS_IGNORE);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    MPI_Send(&unseen, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD);
  } else {
    struct timespec ts = {0, (long)(quiet * 1e9)};
    nanosleep(&ts, NULL);
    MPI_Recv(buf, len, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&unseen, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return unseen;
}

double nw_real_eager_bytes(int rank, int a, int b, char *buf) {
  const double quiet = 0.02; /* s: thousands of polls, far beyond an eager send's copy */
  if (rank != a && rank != b)
    return 0;
  int peer = rank == a ? b : a;
  int eager = 0, rendezvous = 0; /* the largest size sent unseen, the smallest not */
  for (int len = 1024; len <= NW_REAL_PING_PONG_BYTES && !rendezvous; len *= 2)
    *(sent_unseen(rank, a, peer, buf, len, quiet) ? &eager : &rendezvous) = len;
  for (int i = 0; i < 6 && rendezvous; i++) { /* to 1/64 of the last doubling */
    int mid = eager + (rendezvous - eager) / 2;
    *(sent_unseen(rank, a, peer, buf, mid, quiet) ? &eager : &rendezvous) = mid;
  }
  return eager;
}

/* One pair's measurement, while the other ranks wait; the result goes to rank 0. */
static void measure_pair(int rank, int a, int b, char *buf, double *lat, double *bw, double *behind,
                         double *eager) {
  enum { TAG = 32002 };
  double v[4];
  nw_real_ping_pong(rank, a, b, buf, &v[0], &v[1]);
  v[2] = nw_real_behind_bytes(rank, a, b, buf, v[0], v[1]);
  v[3] = nw_real_eager_bytes(rank, a, b, buf);
  if (a != 0 && rank == a)
    MPI_Send(v, 4, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
  if (a != 0 && rank == 0)
    MPI_Recv(v, 4, MPI_DOUBLE, a, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  *lat = v[0];
  *bw = v[1];
  *behind = v[2];
  *eager = v[3];
  MPI_Barrier(MPI_COMM_WORLD);
}

void nw_real_machine_free(nw_real_machine *m) {
  free(m->latency);
  free(m->bandwidth);
  free(m->behind);
  free(m->eager);
  free(m->host);
  memset(m, 0, sizeof *m);
}

nw_status nw_real_measure_machine(int want_gpus, nw_real_machine *m, char *why, size_t why_len) {
  memset(m, 0, sizeof *m);
  int initialized = 0, provided = 0, rank = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    real_net_before_mpi_init();
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m->ranks);
  size_t pairs = (size_t)m->ranks * (size_t)m->ranks;
  m->latency = calloc(pairs, sizeof *m->latency);
  m->bandwidth = calloc(pairs, sizeof *m->bandwidth);
  m->behind = calloc(pairs, sizeof *m->behind);
  m->eager = calloc(pairs, sizeof *m->eager);
  m->host = calloc((size_t)m->ranks, sizeof *m->host);
  char *buf = malloc(NW_REAL_PING_PONG_BYTES);
  int ok = m->latency && m->bandwidth && m->behind && m->eager && m->host && buf, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    free(buf);
    nw_real_machine_free(m);
    snprintf(why, why_len, "calibrate: out of memory for the machine's measurements");
    return NW_ERR_NOMEM;
  }
  memset(buf, 0, NW_REAL_PING_PONG_BYTES);
  int cores = nw_real_usable_cores();
  MPI_Allreduce(&cores, &m->cores_min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&cores, &m->cores_max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  char me[NW_REAL_HOST_MAX] = "";
  gethostname(me, sizeof me - 1);
  MPI_Gather(me, NW_REAL_HOST_MAX, MPI_CHAR, m->host, NW_REAL_HOST_MAX, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    m->core_flops = core_flops();
    m->memory_bandwidth = memory_bandwidth();
    if (want_gpus) {
      char reason[256];
      m->gpus = real_gpu_count(reason, sizeof reason);
      if (m->gpus > 0) {
        m->gpu_memory = real_gpu_free_memory(0);
        m->link_pinned = real_gpu_measure_link(0, &m->pcie_bandwidth, &m->pcie_latency);
        /* Row widths from a 4-byte column to rows as wide as the link's best: the 2D copies
         * of blocks of row-major spaces (an H100 moved 8 KB rows at 3 GB/s, 23 contiguous). */
        static const uint64_t widths[NW_REAL_COPY_WIDTHS] = {
            4, 64, 512, 2048, 8192, 16384, 65536, 262144, 1 << 20, 4 << 20};
        double rates[NW_REAL_COPY_WIDTHS];
        m->copy_pinned = real_gpu_measure_copy_rates(0, NW_REAL_COPY_WIDTHS, widths, rates);
        for (int i = 0; i < NW_REAL_COPY_WIDTHS; i++)
          if (rates[i] > 0) {
            m->copy_width[m->copy_widths] = widths[i];
            m->copy_rate[m->copy_widths++] = rates[i];
          }
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (int a = 0; a < m->ranks; a++)
    for (int b = a + 1; b < m->ranks; b++) {
      double lat, bw, behind, eager;
      measure_pair(rank, a, b, buf, &lat, &bw, &behind, &eager);
      m->latency[a * m->ranks + b] = m->latency[b * m->ranks + a] = lat;
      m->bandwidth[a * m->ranks + b] = m->bandwidth[b * m->ranks + a] = bw;
      m->behind[a * m->ranks + b] = m->behind[b * m->ranks + a] = behind;
      m->eager[a * m->ranks + b] = m->eager[b * m->ranks + a] = eager;
    }
  free(buf);
  return NW_OK;
}

void nw_real_loop_layout(const nw_run_config *cfg, int cores, int gpus, double *weight,
                         double *spin_s) {
  int count = 0, each = 1;
  char why[256];
  int shares = nw_run_cpu_layout(cfg, cores, gpus, &count, &each, why, sizeof why) == NW_OK &&
               count > 0 && count * each >= cores;
  *weight = shares ? real_loop_weight() : 0;
  *spin_s = shares ? real_spin_budget(REAL_WAIT_LOOP) : 0;
}
