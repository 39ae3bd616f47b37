/* starpu_cholesky.c N BLOCK REPS [WARM]: the tiled Cholesky factorisation A = L L^T of an N x N
 * single-precision SPD matrix through StarPU 1.3, the baseline of benchmarks/cholesky-starpu.sh
 * (against Narwhal's cholesky app on the same machine).
 *
 * The matrix is cut into BLOCK x BLOCK tiles; each tile of the lower triangle is its own buffer
 * (row-major inside the tile) registered as its own StarPU matrix, so that StarPU tracks every
 * tile's dependencies separately, as a tiled Cholesky needs. The tasks are submitted in the
 * right-looking order, for k = 0 .. T-1 (T = N / BLOCK tiles per side):
 *   POTRF(k)      L_kk = chol(A_kk)                   (LAPACKE_spotrf, or our own from cblas)
 *   TRSM(k,i)     L_ik = A_ik L_kk^-T         i > k   (cblas_strsm)
 *   SYRK(k,i)     A_ii -= L_ik L_ik^T         i > k   (cblas_ssyrk)
 *   GEMM(k,i,j)   A_ij -= L_ik L_jk^T     i > j > k   (cblas_sgemm)
 * with STARPU_R / STARPU_RW access modes, from which StarPU derives every dependency.
 *
 * The scheduler is StarPU's STARPU_SCHED (dmda in the comparison), the CPU workers those of
 * STARPU_NCPU. Each codelet has its own history-based model so that dmda can predict it. With
 * WARM = 1 (the default) one untimed factorisation comes first (it calibrates the models when
 * STARPU_CALIBRATE=1 and pays the first-call costs); then REPS timed ones, each on a fresh copy
 * of the input, each from the first task submission until every tile is back in main memory,
 * like a makespan. Every result, the untimed one too, is checked in double: the residual
 * ||A - L L^T||_F / ||A||_F must stay below RESIDUAL_BOUND, and the same over the off-diagonal
 * elements alone below OFFDIAG_BOUND (the bounds say why both).
 * Prints one line:
 *   gflops=BEST cpu_workers=W residual=R
 * (GFlop/s = N^3/3 / seconds of the best repetition; R the largest ||A - L L^T||_F / ||A||_F
 * seen). Exit status:
 * 0 right, 1 wrong result or runtime failure, 2 bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <starpu.h>

#include "bench_clock.h"

#ifdef NW_HAVE_LAPACKE /* from CMake, where Debian's liblapacke-dev is installed */
#include <lapacke.h>
#endif

/* The tiles of the lower triangle, the pristine input and the working copy, are 2 x N^2/2
 * floats, and the check's double copy of L another N^2/2 doubles: 2 GiB in all at this size. */
#define MAX_N 16384

/* The checks' bounds. On this input (N on the diagonal, off-diagonal elements below 1) the
 * diagonal dominates ||A||_F, about N^1.5, while all the Schur updates together are small:
 * measured with dmda, a right factorisation has ||A - L L^T||_F / ||A||_F = 0.9e-7 (N = 1024),
 * 1.0e-7 (2048) and 1.3e-7 (4096), about 2 float unit roundoffs (u = 6e-8), growing slowly; but
 * leaving out every GEMM task gives only 1.5e-4, 7.6e-5 and 3.8e-5, and losing one GEMM's
 * tile update 2e-5 to 2e-6. Hence a bound of 1e-6 (17 u) rather than the usual 1e-4,
 * and a second residual over the off-diagonal elements, which the diagonal does not swamp: a
 * right factorisation measures 0.7e-7 to 0.9e-7 there, one lost tile update 1e-3 to 2e-4. */
#define RESIDUAL_BOUND 1e-6
#define OFFDIAG_BOUND 1e-5

/* The input's fixed seed: every run factorises the same matrix. */
#define SEED UINT64_C(0x4e617277686131)

/* A hash of the position rather than a sequential generator: each element depends on (row,
 * column) alone, so the tiles can be filled in any order and the matrix is symmetric by
 * hashing (max, min). splitmix64's finaliser. */
static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* Element (r, c) of the input: uniform in the open interval (-1, 1) off the diagonal, that plus
 * N on it. Every row's off-diagonal magnitudes then sum to less than N - 1, below its diagonal
 * element: strictly diagonally dominant and symmetric with a positive diagonal, hence SPD. */
static float element(uint64_t n, uint64_t r, uint64_t c) {
  uint64_t hi = r > c ? r : c, lo = r > c ? c : r;
  double u = ((double)(mix(SEED ^ (hi * n + lo)) >> 40) + 0.5) / 16777216.0 * 2.0 - 1.0;
  return (float)(r == c ? u + (double)n : u);
}

/* Tile (i, j), i >= j, of the lower triangle: its index in the packed arrays, by block rows. */
static size_t tile_index(unsigned i, unsigned j) {
  return (size_t)i * (i + 1) / 2 + j;
}

/* Set by a POTRF that meets a non-positive pivot (the input is SPD, so only a wrong order of
 * updates gets there); the run then fails instead of printing a figure. */
static atomic_int potrf_failed;

#ifndef NW_HAVE_LAPACKE
/* Without LAPACKE: the lower Cholesky of a row-major b x b tile column by column (left-looking),
 * from level-2 cblas calls. Slower than LAPACK's blocked spotrf, but only BLOCK^3/3 flops of a
 * step's work. Returns 0, or j + 1 when the pivot of column j is not positive (LAPACK's info). */
static int potrf_lower(int b, float *a, int ld) {
  for (int j = 0; j < b; j++) {
    /* Row j left of the diagonal holds L(j, 0..j-1) already. */
    float d = a[(size_t)j * ld + j] - cblas_sdot(j, &a[(size_t)j * ld], 1, &a[(size_t)j * ld], 1);
    if (!(d > 0.0f))
      return j + 1;
    float ljj = sqrtf(d);
    a[(size_t)j * ld + j] = ljj;
    if (j + 1 < b) {
      /* Column j below the diagonal: A(j+1.., j) -= L(j+1.., 0..j-1) L(j, 0..j-1)^T, then / ljj.
       * The column is strided by ld in a row-major tile. */
      float *col = &a[(size_t)(j + 1) * ld + j];
      cblas_sgemv(CblasRowMajor, CblasNoTrans, b - j - 1, j, -1.0f, &a[(size_t)(j + 1) * ld], ld,
                  &a[(size_t)j * ld], 1, 1.0f, col, ld);
      cblas_sscal(b - j - 1, 1.0f / ljj, col, ld);
    }
  }
  return 0;
}
#endif

/* StarPU's matrix interface: nx elements are contiguous (a row of a row-major tile), ny counts
 * the rows, ld is the distance between rows. Our tiles are square, nx = ny = BLOCK. */
static void potrf_cpu(void *buffers[], void *arg) {
  (void)arg;
  float *a = (float *)STARPU_MATRIX_GET_PTR(buffers[0]);
  int b = (int)STARPU_MATRIX_GET_NX(buffers[0]), ld = (int)STARPU_MATRIX_GET_LD(buffers[0]);
#ifdef NW_HAVE_LAPACKE
  int info = LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', b, a, ld);
#else
  int info = potrf_lower(b, a, ld);
#endif
  if (info != 0)
    atomic_store(&potrf_failed, 1);
}

/* Buffers: 0 = L_kk (R), 1 = A_ik (RW). A_ik L_kk^T = old A_ik, solved from the right. */
static void trsm_cpu(void *buffers[], void *arg) {
  (void)arg;
  const float *l = (const float *)STARPU_MATRIX_GET_PTR(buffers[0]);
  float *a = (float *)STARPU_MATRIX_GET_PTR(buffers[1]);
  cblas_strsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
              (int)STARPU_MATRIX_GET_NY(buffers[1]), (int)STARPU_MATRIX_GET_NX(buffers[1]), 1.0f, l,
              (int)STARPU_MATRIX_GET_LD(buffers[0]), a, (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* Buffers: 0 = L_ik (R), 1 = A_ii (RW, its lower triangle only). */
static void syrk_cpu(void *buffers[], void *arg) {
  (void)arg;
  const float *l = (const float *)STARPU_MATRIX_GET_PTR(buffers[0]);
  float *a = (float *)STARPU_MATRIX_GET_PTR(buffers[1]);
  cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)STARPU_MATRIX_GET_NY(buffers[1]),
              (int)STARPU_MATRIX_GET_NX(buffers[0]), -1.0f, l,
              (int)STARPU_MATRIX_GET_LD(buffers[0]), 1.0f, a,
              (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* Buffers: 0 = L_ik (R), 1 = L_jk (R), 2 = A_ij (RW). */
static void gemm_cpu(void *buffers[], void *arg) {
  (void)arg;
  const float *li = (const float *)STARPU_MATRIX_GET_PTR(buffers[0]);
  const float *lj = (const float *)STARPU_MATRIX_GET_PTR(buffers[1]);
  float *a = (float *)STARPU_MATRIX_GET_PTR(buffers[2]);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)STARPU_MATRIX_GET_NY(buffers[2]),
              (int)STARPU_MATRIX_GET_NX(buffers[2]), (int)STARPU_MATRIX_GET_NX(buffers[0]), -1.0f,
              li, (int)STARPU_MATRIX_GET_LD(buffers[0]), lj, (int)STARPU_MATRIX_GET_LD(buffers[1]),
              1.0f, a, (int)STARPU_MATRIX_GET_LD(buffers[2]));
}

/* One history-based model per kernel: the four differ by up to 6x in flops per tile, so one
 * shared model would predict none of them. The symbols name the models' files under
 * STARPU_HOME, apart from starpu_sgemm's. */
static struct starpu_perfmodel potrf_model = {.type = STARPU_HISTORY_BASED,
                                              .symbol = "narwhal_starpu_chol_potrf"};
static struct starpu_perfmodel trsm_model = {.type = STARPU_HISTORY_BASED,
                                             .symbol = "narwhal_starpu_chol_trsm"};
static struct starpu_perfmodel syrk_model = {.type = STARPU_HISTORY_BASED,
                                             .symbol = "narwhal_starpu_chol_syrk"};
static struct starpu_perfmodel gemm_model = {.type = STARPU_HISTORY_BASED,
                                             .symbol = "narwhal_starpu_chol_gemm"};

static struct starpu_codelet potrf_cl = {
    .name = "chol_potrf",
    .cpu_funcs = {potrf_cpu},
    .nbuffers = 1,
    .modes = {STARPU_RW},
    .model = &potrf_model,
};
static struct starpu_codelet trsm_cl = {
    .name = "chol_trsm",
    .cpu_funcs = {trsm_cpu},
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
    .model = &trsm_model,
};
static struct starpu_codelet syrk_cl = {
    .name = "chol_syrk",
    .cpu_funcs = {syrk_cpu},
    .nbuffers = 2,
    .modes = {STARPU_R, STARPU_RW},
    .model = &syrk_model,
};
static struct starpu_codelet gemm_cl = {
    .name = "chol_gemm",
    .cpu_funcs = {gemm_cpu},
    .nbuffers = 3,
    .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &gemm_model,
};

/* A strictly positive decimal argument, or a one-line complaint naming it. */
static int parse_arg(const char *name, const char *text, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    fprintf(stderr, "starpu_cholesky: %s '%s': not an integer\n", name, text);
    return 0;
  }
  if (v < 1 || v > max) {
    fprintf(stderr, "starpu_cholesky: %s %ld: must be between 1 and %ld\n", name, v, max);
    return 0;
  }
  *out = v;
  return 1;
}

/* The critical-path priority of StarPU's own Cholesky example, for a task of step k touching
 * tile rows / columns i and j (T tiles per side):
 *   POTRF(k): 2T - 2k,  TRSM(k,i): 2T - 2k - i,  SYRK(k,i): 2T - 2k - i,
 *   GEMM(k,i,j): 2T - 2k - i - j.
 * The earlier the step and the nearer its tiles to the panel, the higher. The values lie in
 * [2 - 2T, 2T] (the last steps' TRSMs, SYRKs and GEMMs go below zero), which main() makes the
 * scheduler's range; clamped into the scheduler's own should the environment have set a narrower
 * one. */
static int prio_min, prio_max;
static int priority(unsigned t, unsigned k, unsigned i, unsigned j) {
  int p = 2 * (int)t - 2 * (int)k - (int)i - (int)j;
  return p < prio_min ? prio_min : (p > prio_max ? prio_max : p);
}

/* One factorisation of the registered tiles h (packed lower triangle, T per side); returns its
 * seconds from the first submission until every tile is valid in main memory again, or a
 * negative value when StarPU refuses a task. */
static double factorise(starpu_data_handle_t *h, unsigned t) {
  double t0 = bench_now();
  int ret = 0;
  for (unsigned k = 0; k < t && ret == 0; k++) {
    starpu_data_handle_t hkk = h[tile_index(k, k)];
    ret = starpu_task_insert(&potrf_cl, STARPU_PRIORITY, priority(t, k, 0, 0), STARPU_RW, hkk, 0);
    for (unsigned i = k + 1; i < t && ret == 0; i++)
      ret = starpu_task_insert(&trsm_cl, STARPU_PRIORITY, priority(t, k, i, 0), STARPU_R, hkk,
                               STARPU_RW, h[tile_index(i, k)], 0);
    for (unsigned j = k + 1; j < t && ret == 0; j++) {
      ret = starpu_task_insert(&syrk_cl, STARPU_PRIORITY, priority(t, k, j, 0), STARPU_R,
                               h[tile_index(j, k)], STARPU_RW, h[tile_index(j, j)], 0);
      for (unsigned i = j + 1; i < t && ret == 0; i++)
        ret = starpu_task_insert(&gemm_cl, STARPU_PRIORITY, priority(t, k, i, j), STARPU_R,
                                 h[tile_index(i, k)], STARPU_R, h[tile_index(j, k)], STARPU_RW,
                                 h[tile_index(i, j)], 0);
    }
  }
  starpu_task_wait_for_all();
  /* On CPU workers alone the tiles never leave main memory, but acquiring each one is what
   * guarantees it: the time a GPU's copy back would take belongs to the makespan. */
  size_t tiles = tile_index(t, 0);
  for (size_t x = 0; x < tiles; x++) {
    starpu_data_acquire(h[x], STARPU_R);
    starpu_data_release(h[x]);
  }
  double secs = bench_now() - t0;
  if (ret != 0) {
    fprintf(stderr, "starpu_cholesky: task submission failed: %s\n", strerror(-ret));
    return -1.0;
  }
  return secs;
}

/* The two relative residuals of a factorisation, in double. */
typedef struct residuals {
  double whole; /* ||A - L L^T||_F / ||A||_F */
  double off;   /* the same over the off-diagonal elements alone */
} residuals;

/* R = A - L L^T tile by tile: R_ij = A_ij - sum_{k <= j} L_ik L_jk^T for every tile of the lower
 * triangle, the strictly lower tiles counted twice for the upper ones. ld receives L in double
 * (lower tiles packed like the floats), lt is the float result, at the input. The BLAS runs on
 * every core here: StarPU's workers are idle between factorisations. */
static residuals residual(const float *at, const float *lt, double *ld, unsigned t, unsigned b) {
  size_t bb = (size_t)b * b, tiles = tile_index(t, 0);
  for (size_t x = 0; x < tiles * bb; x++)
    ld[x] = (double)lt[x];
  /* POTRF leaves the diagonal tiles' upper triangles as they were (the input): zero them so
   * that the tiles are L's. */
  for (unsigned j = 0; j < t; j++) {
    double *d = &ld[tile_index(j, j) * bb];
    for (unsigned r = 0; r < b; r++)
      for (unsigned c = r + 1; c < b; c++)
        d[(size_t)r * b + c] = 0.0;
  }
  residuals out = {INFINITY, INFINITY};
  double *r = malloc(bb * sizeof *r);
  if (!r)
    return out;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  openblas_set_num_threads(cores > 0 ? (int)cores : 1);
  /* Sums of squares: [0] the diagonal elements, [1] the others; of R (num) and of A (den). */
  double num[2] = {0.0, 0.0}, den[2] = {0.0, 0.0};
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j <= i; j++) {
      const float *a = &at[tile_index(i, j) * bb];
      for (size_t x = 0; x < bb; x++)
        r[x] = (double)a[x];
      for (unsigned k = 0; k <= j; k++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)b, (int)b, (int)b, -1.0,
                    &ld[tile_index(i, k) * bb], (int)b, &ld[tile_index(j, k) * bb], (int)b, 1.0, r,
                    (int)b);
      double w = i == j ? 1.0 : 2.0;
      for (size_t x = 0; x < bb; x++) {
        int off = i != j || x / b != x % b;
        num[off] += w * r[x] * r[x];
        den[off] += w * (double)a[x] * (double)a[x];
      }
    }
  openblas_set_num_threads(1);
  free(r);
  out.whole = sqrt(num[0] + num[1]) / sqrt(den[0] + den[1]);
  out.off = t * b > 1 ? sqrt(num[1]) / sqrt(den[1]) : 0.0;
  return out;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: starpu_cholesky N BLOCK REPS [WARM] (scheduler: STARPU_SCHED)\n");
    return 2;
  }
  long n, bs, reps;
  int warm = 1;
  if (!parse_arg("N", argv[1], MAX_N, &n))
    return 2;
  if (!parse_arg("BLOCK", argv[2], n, &bs) || !parse_arg("REPS", argv[3], 1000, &reps))
    return 2;
  if (argc == 5) {
    if (strcmp(argv[4], "0") != 0 && strcmp(argv[4], "1") != 0) {
      fprintf(stderr, "starpu_cholesky: WARM '%s': must be 0 or 1\n", argv[4]);
      return 2;
    }
    warm = argv[4][0] == '1';
  }
  if (n % bs != 0) {
    fprintf(stderr, "starpu_cholesky: BLOCK %ld: must divide N %ld\n", bs, n);
    return 2;
  }

  unsigned t = (unsigned)(n / bs), b = (unsigned)bs;
  size_t bb = (size_t)b * b, tiles = tile_index(t, 0);
  /* The pristine input, the working tiles StarPU factorises in place, and L in double for the
   * check; each tile its own aligned buffer would do as well, one array of them is simpler. */
  float *input = NULL, *work = NULL;
  double *check = malloc(tiles * bb * sizeof *check);
  starpu_data_handle_t *h = malloc(tiles * sizeof *h);
  if (posix_memalign((void **)&input, 64, tiles * bb * sizeof *input) != 0 ||
      posix_memalign((void **)&work, 64, tiles * bb * sizeof *work) != 0 || !check || !h) {
    fprintf(stderr, "starpu_cholesky: out of memory for N=%ld\n", n);
    return 1;
  }
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j <= i; j++) {
      float *tile = &input[tile_index(i, j) * bb];
      for (unsigned r = 0; r < b; r++)
        for (unsigned c = 0; c < b; c++)
          tile[(size_t)r * b + c] = element((uint64_t)n, (uint64_t)i * b + r, (uint64_t)j * b + c);
    }

  /* One BLAS thread per task, as Narwhal's CPU devices run with one core each by default
   * (backends/real/real_backend.c): the parallelism is the workers', not OpenBLAS's. */
  openblas_set_num_threads(1);
  struct starpu_conf conf;
  starpu_conf_init(&conf);
  /* The priorities' range, [2 - 2T, 2T] (priority() says why), unless STARPU_MIN_PRIO /
   * STARPU_MAX_PRIO are in the environment (starpu_conf_init reads them; -1 when unset). */
  if (conf.global_sched_ctx_min_priority == -1)
    conf.global_sched_ctx_min_priority = 2 - 2 * (int)t;
  if (conf.global_sched_ctx_max_priority == -1)
    conf.global_sched_ctx_max_priority = 2 * (int)t;
  int ret = starpu_init(&conf);
  if (ret != 0) {
    fprintf(stderr, "starpu_cholesky: starpu_init: %s\n", ret == -ENODEV ? "no worker" : "failed");
    return 1;
  }
  prio_min = starpu_sched_get_min_priority();
  prio_max = starpu_sched_get_max_priority();
  unsigned ncpu = starpu_cpu_worker_get_count();

  double best = 1e300, worst_residual = 0.0;
  int status = 0;
  for (long rep = warm ? -1 : 0; rep < reps && status == 0; rep++) {
    /* A fresh copy of the input and fresh handles, outside the timing. */
    memcpy(work, input, tiles * bb * sizeof *work);
    for (size_t x = 0; x < tiles; x++)
      starpu_matrix_data_register(&h[x], STARPU_MAIN_RAM, (uintptr_t)&work[x * bb], b, b, b,
                                  sizeof(float));
    double secs = factorise(h, t);
    for (size_t x = 0; x < tiles; x++)
      starpu_data_unregister(h[x]);
    if (secs < 0) {
      status = 1;
      break;
    }
    if (atomic_load(&potrf_failed)) {
      fprintf(stderr, "starpu_cholesky: wrong result: a POTRF found a non-positive pivot\n");
      status = 1;
      break;
    }
    residuals res = residual(input, work, check, t, b);
    worst_residual = res.whole > worst_residual || isnan(res.whole) ? res.whole : worst_residual;
    if (!(res.whole < RESIDUAL_BOUND) || !(res.off < OFFDIAG_BOUND)) {
      fprintf(stderr,
              "starpu_cholesky: wrong result: residual %.3e (bound %.0e), off-diagonal %.3e "
              "(bound %.0e)%s\n",
              res.whole, RESIDUAL_BOUND, res.off, OFFDIAG_BOUND,
              rep < 0 ? " in the untimed run" : "");
      status = 1;
      break;
    }
    if (rep >= 0 && secs < best)
      best = secs;
  }
  starpu_shutdown();
  free(input);
  free(work);
  free(check);
  free(h);
  if (status != 0)
    return status;
  double nn = (double)n;
  printf("gflops=%.2f cpu_workers=%u residual=%.1e\n", nn * nn * nn / 3.0 / best / 1e9, ncpu,
         worst_residual);
  return 0;
}
