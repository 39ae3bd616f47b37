/* fft2d_main.c: the 2D FFT application's arguments, driver and check (see fft2d.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../common/place.h"
#include "../common/run_task.h"
#include "fft2d.h"
#include "fft2d_ref.h"

/* How far a run may be from the reference, relative to the largest element of the result
 * (fft2d_rel_error). Not bit for bit, unlike matmul and lu: nothing promises that FFTW picks
 * the same codelets, in the same order of operations, for the modelled GPU's packed stripe (b
 * elements between a column's points) as for a CPU view or the reference (n elements: FFTW
 * weighs strides, and SIMD paths where alignment allows), and cuFFT on a real GPU rounds
 * otherwise than FFTW. (With FFTW_ESTIMATE | FFTW_UNALIGNED the simulated runs tried so far did
 * come out bit for bit.) Rounding is about float epsilon (6e-8) times log2 n per pass relative
 * to that scale; 1e-5 leaves a wide margin for it, while a wrong, stale or missing stripe is off
 * by the order of the data itself. */
#define FFT2D_TOLERANCE 1e-5

static nw_status fft2d_check(const nw_app_args *a, char *why, size_t len) {
  if (a->nparams > 0) {
    snprintf(why, len, "fft2d: --app-param %s: fft2d takes no app parameters", a->params[0].key);
    return NW_ERR_ARG;
  }
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, "fft2d: --n and --block must be positive");
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, "fft2d: --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  /* FFTW and cuFFT take int lengths and strides; 2^20 keeps n^2 * 8 bytes far from overflow. */
  if (a->n > (1u << 20)) {
    snprintf(why, len, "fft2d: --n %llu is larger than 1048576", (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* One task of n / b subtasks reading `in` and writing `out`, run to its end: the column task
 * reads what the row task wrote, so it could not start earlier anyway. */
static nw_status run_task(nw_runtime *rt, const nw_task_kind *kind, const fft2d_conf *conf,
                          nw_space *in, nw_space *out) {
  nw_app_binding bind[] = {{.space = in, .access = NW_READ_ONLY},
                           {.space = out, .access = NW_WRITE_ONLY}};
  return nw_app_run_task(rt, kind, conf->n / conf->b, conf, sizeof *conf, bind, 2);
}

/* Compares the result in space z with the reference's transform of x. */
static nw_status check(nw_space *z, const float *x, uint64_t n, uint64_t b, int *ok) {
  uint64_t bytes = n * n * FFT2D_ELEM;
  float *got = malloc(bytes), *want = malloc(bytes);
  nw_status st = got && want ? nw_space_read(z, 0, got, bytes) : NW_ERR_NOMEM;
  if (st == NW_OK && fft2d_reference(x, want, n, b) != 0)
    st = NW_ERR_NOMEM;
  if (st == NW_OK) {
    double err = fft2d_rel_error(got, want, n);
    *ok = err <= FFT2D_TOLERANCE;
    if (!*ok)
      fprintf(stderr,
              "fft2d: the result is %.3g (relative to its largest element) from the "
              "reference; at most %.0e allowed\n",
              err, FFT2D_TOLERANCE);
  }
  free(got);
  free(want);
  return st;
}

static nw_status fft2d_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  fft2d_conf conf = {args->n, args->block};
  uint64_t n = conf.n, bytes = n * n * FFT2D_ELEM;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *x = NULL, *y = NULL, *z = NULL;
  float *input = NULL;
  nw_status st = nw_space_create(rt, bytes, n * FFT2D_ELEM, &x);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, n * FFT2D_ELEM, &y);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, n * FFT2D_ELEM, &z);
  if (st == NW_OK && functional) {
    input = malloc(bytes);
    st = input ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      fft2d_fill_input(input, n, args->seed);
      st = nw_space_write(x, 0, input, bytes);
    }
  }
  /* Only X is an input; Y and Z are written before they are read. */
  /* The paper's input "randomly distributed over the cluster nodes in blocks of 512
   * consecutive matrix rows" (section 5.1): each block of b rows on a node from the seed. A
   * block being a stripe of rows already, `--placement rows` is the same placement, and
   * `columns` puts each stripe of b columns (what a column subtask reads) on a node. */
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1 &&
      args->placement == NW_PLACEMENT_COLUMNS)
    st = nw_app_place_pixel_blocks(rt, x, n, conf.b, FFT2D_ELEM, args->seed, args->placement);
  else if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, x, n / conf.b, conf.b * n * FFT2D_ELEM, args->seed);
  if (st == NW_OK)
    st = run_task(rt, &nw_fft2d_rows_kind, &conf, x, y);
  if (st == NW_OK)
    st = run_task(rt, &nw_fft2d_cols_kind, &conf, y, z);
  if (st == NW_OK && functional && args->verify != 0) {
    int ok = 0;
    st = check(z, input, n, conf.b, &ok);
    out->verified = ok;
  }
  nw_space_destroy(x);
  nw_space_destroy(y);
  nw_space_destroy(z);
  free(input);
  return st;
}

const nw_app nw_fft2d_app = {
    .name = "fft2d",
    .kinds = (const nw_task_kind *const[]){&nw_fft2d_rows_kind, &nw_fft2d_cols_kind, NULL},
    .check_args = fft2d_check,
    .main = fft2d_main,
};
