/* cost_fit.c: see cost_fit.h. */
#include "cost_fit.h"

#include <math.h>
#include <stddef.h>

#define FIT_MIN_MEAN_BYTES 4096.0

/* Least squares over the regressors in `use` (of 1, bytes, runs) from the sums s[i][j] of their
 * products (index 3 is y) and syy; 1 with beta and the residual sum of squares when solvable and
 * every coefficient is >= 0. */
static int subset_fit(const double s[4][4], double syy, const int *use, int m, double *beta,
                      double *sse) {
  double a[3][4];
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++)
      a[i][j] = s[use[i]][use[j]];
    a[i][m] = s[use[i]][3];
  }
  for (int c = 0; c < m; c++) { /* Gaussian elimination, partial pivoting */
    int p = c;
    for (int r = c + 1; r < m; r++)
      if (fabs(a[r][c]) > fabs(a[p][c]))
        p = r;
    if (fabs(a[p][c]) < 1e-12 * (fabs(s[use[c]][use[c]]) + 1e-300))
      return 0;
    for (int j = 0; j <= m; j++) {
      double t = a[c][j];
      a[c][j] = a[p][j];
      a[p][j] = t;
    }
    for (int r = 0; r < m; r++)
      if (r != c) {
        double f = a[r][c] / a[c][c];
        for (int j = c; j <= m; j++)
          a[r][j] -= f * a[c][j];
      }
  }
  *sse = syy;
  for (int i = 0; i < m; i++) {
    beta[i] = a[i][m] / a[i][i];
    if (!(beta[i] >= 0))
      return 0;
    *sse -= beta[i] * s[use[i]][3];
  }
  return 1;
}

/* The fit over the events that x describes (for wall times, x.cpu_s and x.bytes_cpu_s hold
 * the wall-time sums, the other sums over times 0, and cpu is 0). */
static void fit_sums(const nw_cost_sums *x, int cpu, double *a, double *b, double *c) {
  *a = *b = *c = 0;
  double n = (double)x->events;
  if (n <= 0)
    return;
  double sy = x->cpu_s;
  double s[4][4] = {
      {n, x->bytes, cpu ? x->runs : 0, sy},
      {x->bytes, x->bytes_sq, cpu ? x->runs_bytes : 0, x->bytes_cpu_s},
      {cpu ? x->runs : 0, cpu ? x->runs_bytes : 0, cpu ? x->runs_sq : 0, cpu ? x->runs_cpu_s : 0},
      {0, 0, 0, 0}};
  s[3][0] = s[0][3], s[3][1] = s[1][3], s[3][2] = s[2][3];
  /* Without the squares of the times (wall-time fits), every fit's residual is unknown: keep
   * the ordering below, which prefers the fuller fit. */
  double syy = cpu ? x->cpu_sq : 0;
  int bytes_ok = x->bytes / n >= FIT_MIN_MEAN_BYTES, runs_ok = cpu && x->runs > 0;
  static const int fits[][4] = {/* count, then the regressors: 0 is the intercept */
                                {3, 0, 1, 2}, {2, 0, 1}, {2, 0, 2}, {2, 1, 2},
                                {1, 1},       {1, 2},    {1, 0}};
  double best = INFINITY;
  for (size_t f = 0; f < sizeof fits / sizeof *fits; f++) {
    int m = fits[f][0];
    const int *use = fits[f] + 1;
    int ok = 1;
    for (int i = 0; i < m; i++)
      ok &= (use[i] != 1 || bytes_ok) && (use[i] != 2 || runs_ok);
    double beta[3], sse;
    if (!ok || !subset_fit(s, syy, use, m, beta, &sse) ||
        (best < INFINITY && !(sse < best - 1e-12 * fabs(best))))
      continue;
    best = sse;
    *a = *b = *c = 0;
    for (int i = 0; i < m; i++)
      *(use[i] == 0 ? a : use[i] == 1 ? b : c) = beta[i];
    if (!cpu)
      break; /* no residuals to compare: the first that fits */
  }
  if (best == INFINITY)
    *a = sy / n;
}

/* Kind k's sums over all its events: the CPU times where every event has one, else the wall
 * times (*cpu 0). */
static nw_cost_sums all_sums(const nw_rt_costs *r, int k, int *cpu) {
  *cpu = r->cpu[k].events == r->events[k];
  if (*cpu)
    return r->cpu[k];
  return (nw_cost_sums){.events = r->events[k],
                        .bytes = r->bytes[k],
                        .bytes_sq = r->bytes_sq[k],
                        .cpu_s = r->s[k],
                        .bytes_cpu_s = r->bytes_s[k]};
}

void tool_fit_event_cost(const nw_rt_costs *r, int k, double *a, double *b, double *c,
                         double d[NW_COST_CLASSES]) {
  int cpu;
  nw_cost_sums x = all_sums(r, k, &cpu), in = x;
  for (int cls = 0; cls < NW_COST_CLASSES; cls++) {
    d[cls] = 0;
    nw_cost_sums_add(&in, &r->split[cls][k], -1);
  }
  if (!cpu || in.events == 0 || in.events == x.events) {
    fit_sums(&x, cpu, a, b, c);
    return;
  }
  fit_sums(&in, 1, a, b, c);
  for (int cls = 0; cls < NW_COST_CLASSES; cls++) {
    /* min over d of the sum of (t - a - c r - d x)^2 over the class's events */
    const nw_cost_sums *y = &r->split[cls][k];
    double num = y->bytes_cpu_s - *a * y->bytes - *c * y->runs_bytes;
    d[cls] = y->events > 0 && y->bytes_sq > 0 && num > 0 ? num / y->bytes_sq : 0;
  }
}
