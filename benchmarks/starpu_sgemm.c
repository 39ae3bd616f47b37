/* starpu_sgemm.c N BLOCK REPS [WARM]: C = A x B on N x N floats through StarPU 1.3, the baseline of
 * benchmarks/starpu.sh (the Unicorn paper's Fig. 22 compares Unicorn with StarPU on sgemm).
 *
 * The decomposition is Narwhal's matmul app (apps/matmul/matmul.c) so that one StarPU task does
 * what one Narwhal subtask does: a BLOCK x BLOCK block (i, j) of C from block row i of A
 * (BLOCK x N) and block column j of B (N x BLOCK), one sgemm with k = N. The two runtimes then
 * differ in scheduling and data management only, not in the BLAS calls they make.
 *
 * The scheduler is StarPU's own choice of STARPU_SCHED (eager, dmda, ...), the workers those of
 * STARPU_NCPU / STARPU_NCUDA. With WARM = 1 (the default) one untimed multiplication comes
 * first (it calibrates the history-based model when STARPU_CALIBRATE=1, and it pays StarPU's
 * and OpenBLAS's first-call costs and the first touch of C's pages); with WARM = 0 the first
 * multiplication is timed, as a Narwhal run is one multiplication in a fresh process. Then
 * REPS timed ones, each from the first task submission until C is whole again in main memory,
 * like Narwhal's makespan (first submission to last completion). Prints one line:
 *   gflops=BEST cpu_workers=W cuda_workers=G max_rel_err=E
 * Exit status: 0 right, 1 wrong result or runtime failure, 2 bad arguments, 3 CUDA workers
 * asked for (STARPU_NCUDA > 0) but none can run the codelet.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <starpu.h>

#include "bench_clock.h"

/* The CUDA codelet needs both a CUDA toolkit here (NW_HAVE_CUDA, from CMake) and a StarPU built
 * with CUDA (Debian's 1.3.10 is not: STARPU_USE_CUDA is undefined there). */
#if defined(NW_HAVE_CUDA) && defined(STARPU_USE_CUDA)
#define SGEMM_CUDA 1
#include <cublas_v2.h>
#include <starpu_cublas_v2.h>

#else
#define SGEMM_CUDA 0
#endif

/* Large enough for the paper's sizes on one node, small enough that the four N x N matrices
 * (A, B, C and the reference) stay within a few GiB. */
#define MAX_N 16384

/* StarPU's matrix interface is row-major in the C sense: nx elements are contiguous (a row of
 * ours), ny counts the rows, ld is the distance between rows. Buffers: 0 = block row of A
 * (ny = BLOCK rows of nx = N), 1 = block column of B (N rows of BLOCK), 2 = block of C. */
static void sgemm_cpu(void *buffers[], void *arg) {
  (void)arg;
  const struct starpu_matrix_interface *a = buffers[0], *b = buffers[1], *c = buffers[2];
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)c->ny, (int)c->nx, (int)a->nx, 1.0f,
              (const float *)a->ptr, (int)a->ld, (const float *)b->ptr, (int)b->ld, 0.0f,
              (float *)c->ptr, (int)c->ld);
}

#if SGEMM_CUDA
/* cuBLAS is column-major: a row-major C = A B is the column-major C^T = B^T A^T, so the operands
 * go in swapped, with no transposition. StarPU's copies on the GPU have their own ld. */
static void sgemm_cuda(void *buffers[], void *arg) {
  (void)arg;
  const struct starpu_matrix_interface *a = buffers[0], *b = buffers[1], *c = buffers[2];
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t st =
      cublasSgemm(starpu_cublas_get_local_handle(), CUBLAS_OP_N, CUBLAS_OP_N, (int)c->nx,
                  (int)c->ny, (int)a->nx, &one, (const float *)b->ptr, (int)b->ld,
                  (const float *)a->ptr, (int)a->ld, &zero, (float *)c->ptr, (int)c->ld);
  if (st != CUBLAS_STATUS_SUCCESS)
    STARPU_CUBLAS_REPORT_ERROR(st);
}
#endif

/* History-based: every task has the same sizes, so one entry per worker kind, which dmda needs
 * to weigh a CPU against a GPU. The symbol names the model's file under STARPU_HOME. */
static struct starpu_perfmodel sgemm_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "narwhal_starpu_sgemm",
};

static struct starpu_codelet sgemm_cl = {
    .name = "sgemm_block",
    .cpu_funcs = {sgemm_cpu},
#if SGEMM_CUDA
    .cuda_funcs = {sgemm_cuda},
    /* cuBLAS queues on StarPU's stream; StarPU waits for it. */
    .cuda_flags = {STARPU_CUDA_ASYNC},
#endif
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_W},
    .model = &sgemm_model,
};

/* A strictly positive decimal argument, or a one-line complaint naming it. */
static int parse_arg(const char *name, const char *text, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    fprintf(stderr, "starpu_sgemm: %s '%s': not an integer\n", name, text);
    return 0;
  }
  if (v < 1 || v > max) {
    fprintf(stderr, "starpu_sgemm: %s %ld: must be between 1 and %ld\n", name, v, max);
    return 0;
  }
  *out = v;
  return 1;
}

/* One multiplication; returns its seconds from the first submission to C back in main memory,
 * or a negative value when StarPU refuses a task. */
static double multiply(starpu_data_handle_t ha, starpu_data_handle_t hb, starpu_data_handle_t hc,
                       unsigned blocks) {
  /* A by rows (y), B by columns (x), C by both: handle (x = j, y = i) of C is block (i, j). */
  struct starpu_data_filter rows = {.filter_func = starpu_matrix_filter_vertical_block,
                                    .nchildren = blocks};
  struct starpu_data_filter cols = {.filter_func = starpu_matrix_filter_block, .nchildren = blocks};
  starpu_data_partition(ha, &rows);
  starpu_data_partition(hb, &cols);
  starpu_data_map_filters(hc, 2, &cols, &rows);
  double t0 = bench_now();
  int ret = 0;
  /* Submitted in Narwhal's subtask order, row-major over the blocks of C. */
  for (unsigned i = 0; i < blocks && ret == 0; i++)
    for (unsigned j = 0; j < blocks && ret == 0; j++)
      ret = starpu_task_insert(&sgemm_cl, STARPU_R, starpu_data_get_sub_data(ha, 1, i), STARPU_R,
                               starpu_data_get_sub_data(hb, 1, j), STARPU_W,
                               starpu_data_get_sub_data(hc, 2, j, i), 0);
  starpu_task_wait_for_all();
  starpu_data_unpartition(hc, STARPU_MAIN_RAM);
  double t = bench_now() - t0;
  starpu_data_unpartition(ha, STARPU_MAIN_RAM);
  starpu_data_unpartition(hb, STARPU_MAIN_RAM);
  if (ret != 0) {
    fprintf(stderr, "starpu_sgemm: task submission failed: %s\n", strerror(-ret));
    return -1.0;
  }
  return t;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: starpu_sgemm N BLOCK REPS [WARM] (scheduler: STARPU_SCHED)\n");
    return 2;
  }
  long n, bs, reps;
  int warm = 1;
  if (!parse_arg("N", argv[1], MAX_N, &n) || !parse_arg("BLOCK", argv[2], n, &bs) ||
      !parse_arg("REPS", argv[3], 1000, &reps))
    return 2;
  if (argc == 5) {
    if (strcmp(argv[4], "0") != 0 && strcmp(argv[4], "1") != 0) {
      fprintf(stderr, "starpu_sgemm: WARM '%s': must be 0 or 1\n", argv[4]);
      return 2;
    }
    warm = argv[4][0] == '1';
  }
  if (n % bs != 0) {
    fprintf(stderr, "starpu_sgemm: BLOCK %ld: must divide N %ld\n", bs, n);
    return 2;
  }
  const char *ncuda = getenv("STARPU_NCUDA");
  int want_cuda = ncuda && atoi(ncuda) > 0;
  if (want_cuda && !SGEMM_CUDA) {
    fprintf(stderr,
            "starpu_sgemm: STARPU_NCUDA=%s but this build has no CUDA codelet (CUDA "
            "toolkit and a StarPU with CUDA are both needed)\n",
            ncuda);
    return 3;
  }

  size_t count = (size_t)n * (size_t)n;
  float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b),
        *c = malloc(count * sizeof *c);
  if (!a || !b || !c) {
    fprintf(stderr, "starpu_sgemm: out of memory for N=%ld\n", n);
    return 1;
  }
  /* Small integers: every partial sum is exact in float, so any correct order of additions
   * gives the reference bit for bit and the error check needs no tolerance for rounding. */
  for (size_t i = 0; i < count; i++) {
    a[i] = (float)((int)(i % 9) - 4);
    b[i] = (float)((int)(i % 7) - 3);
  }

  /* One BLAS thread per task, as Narwhal's CPU devices run with one core each by default
   * (backends/real/real_backend.c): the parallelism is the workers', not OpenBLAS's. */
  openblas_set_num_threads(1);
  int ret = starpu_init(NULL);
  if (ret != 0) {
    fprintf(stderr, "starpu_sgemm: starpu_init: %s\n", ret == -ENODEV ? "no worker" : "failed");
    return 1;
  }
  unsigned ncpu = starpu_cpu_worker_get_count(), ngpu = starpu_cuda_worker_get_count();
  if (want_cuda && ngpu == 0) {
    fprintf(stderr, "starpu_sgemm: STARPU_NCUDA=%s but StarPU found no CUDA device\n", ncuda);
    starpu_shutdown();
    return 3;
  }
#if SGEMM_CUDA
  starpu_cublas_init(); /* one handle per CUDA worker, on its own stream */
#endif
  /* Pinned, as StarPU's documentation asks of data a GPU copies asynchronously ("data
   * registered to StarPU must be allocated with starpu_malloc() or pinned with
   * starpu_memory_pin()", its warning on an H200 otherwise): StarPU at its best. */
  int pinned = ngpu > 0;
  if (pinned)
    pinned = starpu_memory_pin(a, count * sizeof *a) == 0 &&
             starpu_memory_pin(b, count * sizeof *b) == 0 &&
             starpu_memory_pin(c, count * sizeof *c) == 0;
  starpu_data_handle_t ha, hb, hc;
  starpu_matrix_data_register(&ha, STARPU_MAIN_RAM, (uintptr_t)a, (uint32_t)n, (uint32_t)n,
                              (uint32_t)n, sizeof(float));
  starpu_matrix_data_register(&hb, STARPU_MAIN_RAM, (uintptr_t)b, (uint32_t)n, (uint32_t)n,
                              (uint32_t)n, sizeof(float));
  starpu_matrix_data_register(&hc, STARPU_MAIN_RAM, (uintptr_t)c, (uint32_t)n, (uint32_t)n,
                              (uint32_t)n, sizeof(float));
  unsigned blocks = (unsigned)(n / bs);
  double best = 1e300;
  if (warm && multiply(ha, hb, hc, blocks) < 0) /* the warm-up */
    best = -1.0;
  for (long r = 0; r < reps && best > 0; r++) {
    double t = multiply(ha, hb, hc, blocks);
    best = t < 0 ? -1.0 : (t < best ? t : best);
  }
  starpu_data_unregister(ha);
  starpu_data_unregister(hb);
  starpu_data_unregister(hc);
  if (pinned) {
    starpu_memory_unpin(a, count * sizeof *a);
    starpu_memory_unpin(b, count * sizeof *b);
    starpu_memory_unpin(c, count * sizeof *c);
  }
#if SGEMM_CUDA
  starpu_cublas_shutdown();
#endif
  starpu_shutdown();
  if (best < 0)
    return 1;

  /* The reference: one sgemm of the whole matrices, with every core now StarPU is gone. */
  float *ref = malloc(count * sizeof *ref);
  if (!ref) {
    fprintf(stderr, "starpu_sgemm: out of memory for the reference\n");
    return 1;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  openblas_set_num_threads(cores > 0 ? (int)cores : 1);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, a, (int)n, b,
              (int)n, 0.0f, ref, (int)n);
  double err = 0.0;
  for (size_t i = 0; i < count; i++) {
    double d = fabs((double)c[i] - (double)ref[i]) / fmax(fabs((double)ref[i]), 1.0);
    err = d > err || isnan(d) ? d : err;
  }
  printf("gflops=%.2f cpu_workers=%u cuda_workers=%u max_rel_err=%.1e\n",
         2.0 * (double)n * (double)n * (double)n / best / 1e9, ncpu, ngpu, err);
  free(a);
  free(b);
  free(c);
  free(ref);
  if (!(err <= 1e-5)) {
    fprintf(stderr, "starpu_sgemm: wrong result: max relative error %.3e\n", err);
    return 1;
  }
  return 0;
}
