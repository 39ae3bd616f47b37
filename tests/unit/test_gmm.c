/* test_gmm.c: the GMM app's arithmetic (apps/gmm/gmm_math.h), map kernel (gmm_kind.c), M-step
 * (gmm_data.c), reference (gmm_ref.c) and cost model, which the distributed runs are checked
 * against bit for bit (tests/sim, tests/real): the exponential within a few ulps of libm's; a
 * point's responsibilities equal to equation (15)'s densities (Li, Fox, von Laszewski, Chauhan,
 * "Co-processing SPMD Computation on CPUs and GPUs Cluster") over the full covariance R = L L^t,
 * computed directly, and summing to 1; the map's keys laid out and scaled as documented; the map
 * of one subtask turned into parameters equal to the reference's iteration bit for bit; the
 * declared flops and bytes for a shape; the inputs within the fixed point's bound; and the
 * reference's iterations never lowering the log-likelihood, as expectation maximisation must
 * not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gmm/gmm.h"
#include "gmm/gmm_data.h"
#include "gmm/gmm_map.h"
#include "gmm/gmm_math.h"
#include "gmm/gmm_ref.h"

#define M 3
#define D 4
#define ROW (1 + D + D * (D + 1) / 2)
#define TWO_PI 6.283185307179586

/* gm_exp against libm over [-700, 0], and exactly 1 at 0. */
static void exponential(void) {
  double worst = 0.0;
  for (int i = 0; i <= 70000; i++) {
    double x = -0.01 * i - 1e-7 * (i % 7);
    worst = fmax(worst, fabs(gm_exp(x) - exp(x)) / exp(x));
  }
  CHECK(worst < 4e-16); /* under 2 ulps */
  CHECK(gm_exp(0.0) == 1.0);
  CHECK(gm_exp(-701.0) == 0.0);
}

/* Parameters away from the identity: after one M-step on clustered points, every cluster's
 * inverse factor has off-diagonal terms. */
static void fitted_params(float *x, uint64_t n, double *p) {
  gmm_conf conf = {.n = n, .block = n / 4, .clusters = M, .dims = D};
  gm_fill_points(x, n, M, D, 31);
  gm_initial_params(x, M, D, p);
  CHECK(gm_reference(&conf, x, 2, p) == 0);
}

/* pi_m N(x; mu_m, R_m) from the parameters with libm: R^-1 = L^-t L^-1, |R|^-1/2 = prod
 * (L^-1)_kk, pi_m = exp(g_m + log |L_m| + (D / 2) log 2 pi). */
static void responsibilities(void) {
  enum { N = 256 };
  float x[N * D];
  double p[M * ROW], r[M], d[D], dens[M], worst = 0.0, total = 0.0;
  fitted_params(x, N, p);
  int off_diagonal = 1;
  for (int m = 0; m < M; m++)
    off_diagonal &= p[m * ROW + 1 + D + 1] != 0.0; /* (L^-1)_10 */
  CHECK(off_diagonal);
  for (int i = 0; i < N; i += 17) {
    gm_point_resp(x + i * D, p, ROW, M, D, d, r);
    double sum = 0.0, rsum = 0.0;
    for (int m = 0; m < M; m++) {
      const double *row = p + m * ROW, *mu = row + 1, *li = row + 1 + D;
      double q = 0.0, det = 1.0;
      for (int k = 0; k < D; k++) {
        double z = 0.0;
        for (int l = 0; l <= k; l++)
          z += li[k * (k + 1) / 2 + l] * (x[i * D + l] - mu[l]);
        q += z * z;
        det *= li[k * (k + 1) / 2 + k];
      }
      double pi = exp(row[0] - log(det) + 0.5 * D * log(TWO_PI));
      dens[m] = pi * exp(-0.5 * q) * det / pow(TWO_PI, 0.5 * D); /* equation (15) */
      sum += dens[m];
    }
    for (int m = 0; m < M; m++) {
      worst = fmax(worst, fabs(r[m] - dens[m] / sum));
      CHECK(r[m] >= 0.0 && r[m] <= 1.0);
      rsum += r[m];
    }
    total = fmax(total, fabs(rsum - 1.0));
  }
  CHECK(worst < 1e-12);
  CHECK(total < 1e-12);
}

/* One cluster: every responsibility is exactly 1, so key 0 is the point count, key 1 + k the
 * coordinate sum and key 1 + D + (k, l) the sum of products, each times 2^24. */
static void key_layout(void) {
  enum { B = 9 };
  float x[B * D];
  double p[ROW], r[B], d[B * D], acc[ROW];
  int64_t keys[ROW];
  gm_fill_points(x, B, 2, D, 21);
  gm_initial_params(x, 1, D, p);
  gm_map m = {.points = B,
              .clusters = 1,
              .dims = D,
              .x = x,
              .ldx = D,
              .p = p,
              .ldp = ROW,
              .r = r,
              .d = d,
              .acc = acc};
  nw_emitter e;
  CHECK(nw_emitter_init_buffer(&e, keys, GM_OP, GM_TYPE, 0, ROW) == NW_OK);
  CHECK(gm_map_host(&m, &e) == 0);
  CHECK(keys[0] == (int64_t)B << 24);
  int exact = 1;
  for (int k = 0, t = 1 + D; k < D; k++) {
    double sum = 0.0;
    for (int i = 0; i < B; i++)
      sum += x[i * D + k];
    exact &= keys[1 + k] == llrint(sum * 16777216.0);
    for (int l = 0; l <= k; l++, t++) {
      double prod = 0.0;
      for (int i = 0; i < B; i++)
        prod += (double)x[i * D + k] * x[i * D + l];
      exact &= keys[t] == llrint(prod * 16777216.0);
    }
  }
  CHECK(exact);
}

/* The host map over the whole input as one subtask, then the M-step, against one iteration of
 * the reference (which sums key by key): the same parameters bit for bit, and different from
 * where they started. */
static void map_against_reference(void) {
  enum { N = 512 };
  static float x[N * D];
  double p[M * ROW], want[M * ROW], r[N * M], d[D], acc[M * ROW];
  int64_t keys[M * ROW];
  fitted_params(x, N, p);
  memcpy(want, p, sizeof p);
  gmm_conf conf = {.n = N, .block = N, .clusters = M, .dims = D};
  CHECK(gm_reference(&conf, x, 1, want) == 0);
  gm_map m = {.points = N,
              .clusters = M,
              .dims = D,
              .x = x,
              .ldx = D,
              .p = p,
              .ldp = ROW,
              .r = r,
              .d = d,
              .acc = acc};
  nw_emitter e;
  CHECK(nw_emitter_init_buffer(&e, keys, GM_OP, GM_TYPE, 0, M * ROW) == NW_OK);
  CHECK(gm_map_host(&m, &e) == 0);
  double before[M * ROW];
  memcpy(before, p, sizeof p);
  CHECK(gm_update_params(keys, M, D, p) == 0);
  CHECK(memcmp(p, want, sizeof p) == 0);
  CHECK(memcmp(p, before, sizeof p) != 0);
}

/* The cost model at Table 5's shape, 500 points a subtask: 500 x 10 x (2 60^2 + 7 60 + 7 + 46)
 * flops; 4 bytes per coordinate read, 8 per parameter read and per key written. */
static void cost_model(void) {
  gmm_conf conf = {.n = 100000, .block = 500, .clusters = 10, .dims = 60};
  nw_task_info t = {.conf = &conf, .subtasks = 200};
  CHECK(GM_EXP_FLOPS == 46);
  CHECK(nw_gmm_kind.flops(&t, 0, NW_DEVICE_CPU) == 38365000.0);
  CHECK(nw_gmm_kind.flops(&t, 7, NW_DEVICE_GPU) == 38365000.0);
  CHECK(nw_gmm_kind.bytes(&t, 0, NW_DEVICE_GPU) == 120000.0 + 16.0 * 10 * 1891);
}

/* The inputs: reproducible, within GM_COORD_MAX (the overflow bound's premise). */
static void inputs(void) {
  uint64_t n = 4096;
  float *a = malloc(n * 60 * sizeof *a), *b = malloc(n * 60 * sizeof *b);
  CHECK(a && b);
  if (a && b) {
    gm_fill_points(a, n, 10, 60, 3);
    gm_fill_points(b, n, 10, 60, 3);
    CHECK(memcmp(a, b, n * 60 * sizeof *a) == 0);
    float top = 0.0f;
    for (uint64_t i = 0; i < n * 60; i++)
      top = fmaxf(top, fabsf(a[i]));
    CHECK(top <= 12.5f && top > 10.0f);
  }
  free(a);
  free(b);
}

/* sum_i log sum_m pi_m N(x_i; mu_m, R_m), from g (which holds log pi_m |R_m|^-1/2 (2 pi)^-D/2). */
static double log_likelihood(const float *x, uint64_t n, const double *p) {
  double ll = 0.0;
  for (uint64_t i = 0; i < n; i++) {
    double l[M], top = -INFINITY, sum = 0.0;
    for (int m = 0; m < M; m++) {
      const double *row = p + m * ROW, *mu = row + 1, *li = row + 1 + D;
      double q = 0.0;
      for (int k = 0; k < D; k++) {
        double z = 0.0;
        for (int j = 0; j <= k; j++)
          z += li[k * (k + 1) / 2 + j] * (x[i * D + j] - mu[j]);
        q += z * z;
      }
      l[m] = row[0] - 0.5 * q;
      top = fmax(top, l[m]);
    }
    for (int m = 0; m < M; m++)
      sum += exp(l[m] - top);
    ll += top + log(sum);
  }
  return ll;
}

/* Each iteration of the reference, from the first points as means, raises the log-likelihood
 * or leaves it (up to the fixed point's rounding and the covariance floor), and fifteen raise
 * it well above where it started. */
static void ascent(void) {
  gmm_conf conf = {.n = 2048, .block = 256, .clusters = M, .dims = D};
  float *x = malloc(conf.n * D * sizeof *x);
  double p[M * ROW];
  CHECK(x != NULL);
  if (!x)
    return;
  gm_fill_points(x, conf.n, M, D, 5);
  gm_initial_params(x, M, D, p);
  double first = log_likelihood(x, conf.n, p), last = first;
  int ascends = 1;
  for (int it = 0; it < 15; it++) {
    CHECK(gm_reference(&conf, x, 1, p) == 0);
    double now = log_likelihood(x, conf.n, p);
    ascends &= now >= last - 1e-6 * fabs(last);
    last = now;
  }
  CHECK(ascends);
  CHECK(last > first + 0.1 * fabs(first));
  free(x);
}

int main(void) {
  exponential();
  responsibilities();
  key_layout();
  map_against_reference();
  cost_model();
  inputs();
  ascent();
  return check_report("gmm");
}
