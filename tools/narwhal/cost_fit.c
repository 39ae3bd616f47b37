/* cost_fit.c: see cost_fit.h. */
#include "cost_fit.h"

#include <math.h>
#include <stddef.h>

#define FIT_MIN_MEAN_BYTES 4096.0

/* The regressors: 0 the intercept, 1 bytes, 2 row runs, 3 pages of copies of spaces first
 * written, 4 pages of new views first touched; index 5 is y. */
#define FIT_TERMS 5
#define FIT_VIEWS 4

/* Least squares over the regressors in `use` from the sums s[i][j] of their products and syy;
 * 1 with beta and the residual sum of squares when solvable and every coefficient is >= 0. */
static int subset_fit(const double s[FIT_TERMS + 1][FIT_TERMS + 1], double syy, const int *use,
                      int m, double *beta, double *sse) {
  double a[FIT_TERMS][FIT_TERMS + 1];
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++)
      a[i][j] = s[use[i]][use[j]];
    a[i][m] = s[use[i]][FIT_TERMS];
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
    *sse -= beta[i] * s[use[i]][FIT_TERMS];
  }
  return 1;
}

/* The fit over the regressors in the bit mask sub, into beta_out where all it needs is usable
 * (ok_term), it is solvable with every coefficient >= 0, a view page's price is at most
 * view_cap, and its residual is below *best, which it then lowers; 1 when taken. */
static int take_subset(const double s[FIT_TERMS + 1][FIT_TERMS + 1], double syy, const int *ok_term,
                       double view_cap, int sub, double *best, double beta_out[FIT_TERMS]) {
  int use[FIT_TERMS], m = 0;
  for (int i = 0; i < FIT_TERMS; i++)
    if (sub >> i & 1) {
      if (!ok_term[i])
        return 0;
      use[m++] = i;
    }
  double beta[FIT_TERMS], sse;
  if (!subset_fit(s, syy, use, m, beta, &sse) ||
      (*best < INFINITY && !(sse < *best - 1e-12 * fabs(*best))))
    return 0;
  for (int i = 0; i < m; i++)
    if (use[i] == FIT_VIEWS && beta[i] > view_cap)
      return 0;
  *best = sse;
  for (int i = 0; i < FIT_TERMS; i++)
    beta_out[i] = 0;
  for (int i = 0; i < m; i++)
    beta_out[use[i]] = beta[i];
  return 1;
}

/* The fit over the events that x describes (for wall times, x.cpu_s and x.bytes_cpu_s hold
 * the wall-time sums, the other sums over times 0, and cpu is 0): beta[term]. A fit whose
 * price of a view page is above view_cap is not taken. */
static void fit_sums(const nw_cost_sums *x, int cpu, double view_cap, double beta_out[FIT_TERMS]) {
  for (int i = 0; i < FIT_TERMS; i++)
    beta_out[i] = 0;
  double n = (double)x->events;
  if (n <= 0)
    return;
  double sy = x->cpu_s;
  double r = cpu ? x->runs : 0, rr = cpu ? x->runs_sq : 0, rb = cpu ? x->runs_bytes : 0;
  double p = cpu ? x->pages : 0, pp = cpu ? x->pages_sq : 0, pb = cpu ? x->pages_bytes : 0;
  double pr = cpu ? x->pages_runs : 0;
  double v = cpu ? x->views : 0, vv = cpu ? x->views_sq : 0, vb = cpu ? x->views_bytes : 0;
  double vr = cpu ? x->views_runs : 0, vp = cpu ? x->views_pages : 0;
  double s[FIT_TERMS + 1][FIT_TERMS + 1] = {{n, x->bytes, r, p, v, sy},
                                            {x->bytes, x->bytes_sq, rb, pb, vb, x->bytes_cpu_s},
                                            {r, rb, rr, pr, vr, cpu ? x->runs_cpu_s : 0},
                                            {p, pb, pr, pp, vp, cpu ? x->pages_cpu_s : 0},
                                            {v, vb, vr, vp, vv, cpu ? x->views_cpu_s : 0},
                                            {0, 0, 0, 0, 0, 0}};
  for (int i = 0; i < FIT_TERMS; i++)
    s[FIT_TERMS][i] = s[i][FIT_TERMS];
  /* Without the squares of the times (wall-time fits), every fit's residual is unknown: keep
   * the ordering below, which prefers the fuller fit. */
  double syy = cpu ? x->cpu_sq : 0;
  int ok_term[FIT_TERMS] = {1, x->bytes / n >= FIT_MIN_MEAN_BYTES, cpu && x->runs > 0,
                            cpu && x->pages > 0, cpu && x->views > 0 && view_cap > 0};
  double best = INFINITY;
  /* Every subset of the regressors, the fuller first; of one, the intercept alone last. A
   * wall-time fit takes the first that fits: it has no residuals to compare. */
  for (int size = FIT_TERMS; size >= 1; size--)
    for (int mask = 2; mask <= 1 << FIT_TERMS; mask++) {
      int sub = mask == 1 << FIT_TERMS ? 1 : mask;
      if (__builtin_popcount((unsigned)sub) == size &&
          take_subset(s, syy, ok_term, view_cap, sub, &best, beta_out) && !cpu)
        return;
    }
  if (best == INFINITY)
    beta_out[0] = sy / n;
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

void tool_fit_event_cost(const nw_rt_costs *r, int k, tool_event_cost *out) {
  int cpu;
  nw_cost_sums x = all_sums(r, k, &cpu), in = x;
  double beta[FIT_TERMS];
  for (int cls = 0; cls < NW_COST_CLASSES; cls++) {
    out->per_byte_class[cls] = 0;
    nw_cost_sums_add(&in, &r->split[cls][k], -1);
  }
  int whole = !cpu || in.events == 0 || in.events == x.events;
  /* A new view's page costs its fault, which the probe priced, and its share of the view's
   * unmapping: not more than a second fault. A higher price is a fit to a few events whose
   * views' pages go with some other cost (cmeans' messages: 48 us a page on one rank). */
  double view_cap = r->page_probes > 0 ? r->page_probe_s / (double)r->page_probes : 0;
  fit_sums(whole ? &x : &in, whole ? cpu : 1, view_cap, beta);
  out->fixed = beta[0];
  out->per_byte = beta[1];
  out->per_run = beta[2];
  out->per_page = beta[3];
  out->per_view_page = beta[FIT_VIEWS];
  if (whole)
    return;
  for (int cls = 0; cls < NW_COST_CLASSES; cls++) {
    /* min over d of the sum of (t - a - c r - p q - w v - d x)^2 over the class's events */
    const nw_cost_sums *y = &r->split[cls][k];
    double num = y->bytes_cpu_s - out->fixed * y->bytes - out->per_run * y->runs_bytes -
                 out->per_page * y->pages_bytes - out->per_view_page * y->views_bytes;
    out->per_byte_class[cls] = y->events > 0 && y->bytes_sq > 0 && num > 0 ? num / y->bytes_sq : 0;
  }
}
