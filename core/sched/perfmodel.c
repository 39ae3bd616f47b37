/* perfmodel.c: history tables and regressions of subtask durations (perfmodel.h).
 *
 * Tables are kept sorted by (kind, arch) and each table's entries by footprint, so lookups
 * are binary searches, a merge is one pass over two sorted arrays, and a saved set comes out
 * in the same order whatever order the samples came in.
 */
#include "perfmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Summaries keep M2, the sum of squared deviations from the mean, rather than the stddev:
 * Welford's update and its parallel form combine M2 exactly. */
typedef struct pm_stats {
  uint64_t count;
  double mean, m2;
} pm_stats;

/* An entry's statistics (count, mean, m2) are those of three parts combined: `base`, what came
 * as summaries (a loaded file, a merge); the first NW_PERFMODEL_ROBUST samples recorded, kept
 * one by one (`kept`) and filtered against their own median whenever one is added; and `tail`,
 * the later samples that passed the test against those. */
typedef struct pm_entry {
  uint64_t footprint, size, count;
  double mean, m2;
  double flops;
  pm_stats base, tail;
  int nkept;
  double kept[NW_PERFMODEL_ROBUST];
  int centered;    /* med and mad are the full kept samples' (1), or there are none (-1) */
  double med, mad; /* of the kept samples, once they are all there */
} pm_entry;

typedef struct pm_table {
  char kind[NW_PERFMODEL_KIND_MAX + 1];
  char arch[NW_PERFMODEL_ARCH_MAX + 1];
  pm_entry *e; /* sorted by footprint; never empty */
  size_t n, cap;
  uint64_t samples; /* the entries' counts summed */
  /* predict's fits, and the entries and samples they were fitted on (fitted: once at all). */
  int fitted;
  size_t fit_entries;
  uint64_t fit_samples;
  int on_flops; /* the fits' variable (table_on_flops, at the last fit) */
  nw_perf_fit linear, nonlinear;
} pm_table;

struct nw_perfmodel {
  pm_table *t; /* sorted by (kind, arch) */
  size_t n, cap;
  uint64_t rejected; /* samples left out as outliers */
};

/* The non-linear fit searches b in [NL_B_MIN, NL_B_MAX]: below, size^b is hardly
 * distinguishable from the constant c; above, durations grow faster than any kernel's. */
#define NL_B_MIN 0.05
#define NL_B_MAX 4.0
#define NL_B_STEP 0.01

nw_status nw_perfmodel_create(nw_perfmodel **out) {
  *out = calloc(1, sizeof **out);
  return *out ? NW_OK : NW_ERR_NOMEM;
}

void nw_perfmodel_free(nw_perfmodel *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++)
    free(m->t[i].e);
  free(m->t);
  free(m);
}

uint64_t nw_perf_footprint_add(uint64_t h, uint64_t size) {
  for (int byte = 0; byte < 8; byte++) {
    h ^= (size >> (8 * byte)) & 0xff;
    h *= 1099511628211ull; /* FNV 64-bit prime */
  }
  return h;
}

uint64_t nw_perf_footprint_flops(uint64_t footprint, double flops) {
  if (!(flops > 0))
    return footprint;
  uint64_t bits;
  memcpy(&bits, &flops, sizeof bits);
  return nw_perf_footprint_add(footprint, bits);
}

uint64_t nw_perf_footprint(const uint64_t *sizes, int n) {
  uint64_t h = NW_PERF_FOOTPRINT_START;
  for (int i = 0; i < n; i++)
    h = nw_perf_footprint_add(h, sizes[i]);
  return h;
}

/* strlen bounded by max + 1, so that a long or unterminated name costs nothing to refuse. */
static size_t bounded_len(const char *s, size_t max) {
  size_t n = 0;
  while (n <= max && s[n])
    n++;
  return n;
}

static int names_ok(const char *kind, const char *arch) {
  if (!kind || !arch)
    return 0;
  size_t k = bounded_len(kind, NW_PERFMODEL_KIND_MAX), a = bounded_len(arch, NW_PERFMODEL_ARCH_MAX);
  return k >= 1 && k <= NW_PERFMODEL_KIND_MAX && a >= 1 && a <= NW_PERFMODEL_ARCH_MAX;
}

static int table_cmp(const pm_table *t, const char *kind, const char *arch) {
  int c = strcmp(t->kind, kind);
  return c ? c : strcmp(t->arch, arch);
}

/* The index of the (kind, arch) table, or -1 with *at where it would go. */
static ptrdiff_t find_table(const nw_perfmodel *m, const char *kind, const char *arch, size_t *at) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = table_cmp(&m->t[mid], kind, arch);
    if (c == 0)
      return (ptrdiff_t)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (at)
    *at = lo;
  return -1;
}

/* The index of the footprint's entry in t, or -1 with *at where it would go. */
static ptrdiff_t find_entry(const pm_table *t, uint64_t footprint, size_t *at) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->e[mid].footprint == footprint)
      return (ptrdiff_t)mid;
    if (t->e[mid].footprint < footprint)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (at)
    *at = lo;
  return -1;
}

static const pm_entry *lookup(const nw_perfmodel *m, const char *kind, const char *arch,
                              uint64_t footprint) {
  if (!m || !names_ok(kind, arch))
    return NULL;
  ptrdiff_t t = find_table(m, kind, arch, NULL);
  if (t < 0)
    return NULL;
  ptrdiff_t i = find_entry(&m->t[t], footprint, NULL);
  return i < 0 ? NULL : &m->t[t].e[i];
}

/* Chan, Golub and LeVeque's parallel form of Welford's update: d becomes the summary of the
 * samples of d and s together. With s a single sample it is Welford's own update. */
static void combine(pm_stats *d, const pm_stats *s) {
  if (s->count == 0)
    return;
  if (d->count == 0) {
    *d = *s;
    return;
  }
  double na = (double)d->count, nb = (double)s->count, n = na + nb;
  double delta = s->mean - d->mean;
  d->mean += delta * (nb / n);
  d->m2 += s->m2 + delta * delta * (na * nb / n);
  d->count += s->count;
}

/* ---- Outliers (perfmodel.h) ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, int n) { /* sorts v */
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The kept samples' median and MAD; 0 when fewer than 8 are kept (no test yet: the median
 * absolute deviation of a handful of samples can be far below their spread). */
static int robust_center(const pm_entry *e, double *med, double *mad) {
  if (e->nkept < 8)
    return 0;
  double v[NW_PERFMODEL_ROBUST];
  memcpy(v, e->kept, (size_t)e->nkept * sizeof *v);
  *med = median_of(v, e->nkept);
  for (int i = 0; i < e->nkept; i++)
    v[i] = fabs(e->kept[i] - *med);
  *mad = median_of(v, e->nkept);
  return 1;
}

/* Six robust standard deviations from the median, and a factor of 3 from it: a kernel's own
 * spread (caches, turbo, a neighbour's load) stays within that factor, while the samples that
 * wreck a model (a preempted kernel, a page-fault storm) are tens or thousands of times off. */
static int outlier(double x, double med, double mad) {
  return fabs(x - med) > 6 * 1.4826 * mad && (x > 3 * med || 3 * x < med);
}

/* Recomputes e's statistics from its parts; returns how many kept samples are outliers. */
static int settle(pm_entry *e) {
  pm_stats s = e->base;
  double med = 0, mad = 0;
  int test = robust_center(e, &med, &mad), out = 0;
  for (int i = 0; i < e->nkept; i++) {
    if (test && outlier(e->kept[i], med, mad)) {
      out++;
      continue;
    }
    pm_stats one = {1, e->kept[i], 0};
    combine(&s, &one);
  }
  combine(&s, &e->tail);
  e->count = s.count;
  e->mean = s.mean;
  e->m2 = s.m2;
  return out;
}

/* Adds one recorded sample to e; returns 1 when it was left out as an outlier at once (a
 * kept sample can become one later, as the median settles: nw_perfmodel_rejected). */
static int add_sample(pm_entry *e, double seconds) {
  if (e->nkept < NW_PERFMODEL_ROBUST) {
    e->kept[e->nkept++] = seconds;
    settle(e);
    return 0;
  }
  if (!e->centered) /* the kept samples no longer change: their median and MAD neither */
    e->centered = robust_center(e, &e->med, &e->mad) ? 1 : -1;
  if (e->centered > 0 && outlier(seconds, e->med, e->mad))
    return 1;
  pm_stats one = {1, seconds, 0};
  combine(&e->tail, &one);
  settle(e);
  return 0;
}

/* Adds a summary (a loaded entry, or another set's entry) to e. */
static void add_summary(pm_entry *e, const pm_stats *s, double flops) {
  combine(&e->base, s);
  if (e->flops == 0)
    e->flops = flops;
  settle(e);
}

static pm_stats summary_of(const pm_entry *e) {
  return (pm_stats){e->count, e->mean, e->m2};
}

/* Room for `more` tables in m. The old array stays valid when this fails. */
static nw_status reserve_tables(nw_perfmodel *m, size_t more) {
  if (m->n + more <= m->cap)
    return NW_OK;
  size_t cap = m->cap ? m->cap : 4;
  while (cap < m->n + more)
    cap *= 2;
  pm_table *t = realloc(m->t, cap * sizeof *t);
  if (!t)
    return NW_ERR_NOMEM;
  m->t = t;
  m->cap = cap;
  return NW_OK;
}

/* Inserts an empty (kind, arch) table at `at` holding the array e of cap entries; the caller
 * reserved the room. */
static pm_table *insert_table(nw_perfmodel *m, size_t at, const char *kind, const char *arch,
                              pm_entry *e, size_t cap) {
  memmove(&m->t[at + 1], &m->t[at], (m->n - at) * sizeof *m->t);
  m->n++;
  pm_table *t = &m->t[at];
  memset(t, 0, sizeof *t);
  strcpy(t->kind, kind); /* lengths checked by names_ok */
  strcpy(t->arch, arch);
  t->e = e;
  t->cap = cap;
  return t;
}

/* Adds to (kind, arch)'s entry of footprint `fp` (made if missing) a sample (summary NULL) or a
 * summary. Allocates before changing anything, so that an error leaves m as it was. */
static nw_status add_entry(nw_perfmodel *m, const char *kind, const char *arch, uint64_t fp,
                           uint64_t size, double flops, double seconds, const pm_stats *summary) {
  size_t at = 0;
  ptrdiff_t ti = find_table(m, kind, arch, &at);
  pm_table *t = NULL;
  pm_entry *e = NULL;
  int fresh = 1;
  if (ti < 0) {
    pm_entry *arr = malloc(4 * sizeof *arr);
    if (!arr || reserve_tables(m, 1) != NW_OK) {
      free(arr);
      return NW_ERR_NOMEM;
    }
    t = insert_table(m, at, kind, arch, arr, 4);
    e = &t->e[0];
    t->n = 1;
  } else {
    t = &m->t[ti];
    size_t pos = 0;
    ptrdiff_t i = find_entry(t, fp, &pos);
    if (i >= 0 && t->e[i].size != size)
      return NW_ERR_ARG;
    if (i >= 0) {
      e = &t->e[i];
      fresh = 0;
    } else {
      if (t->n == t->cap) {
        pm_entry *arr = realloc(t->e, 2 * t->cap * sizeof *arr);
        if (!arr)
          return NW_ERR_NOMEM;
        t->e = arr;
        t->cap *= 2;
      }
      memmove(&t->e[pos + 1], &t->e[pos], (t->n - pos) * sizeof *t->e);
      e = &t->e[pos];
      t->n++;
    }
  }
  if (fresh) {
    memset(e, 0, sizeof *e);
    e->footprint = fp;
    e->size = size;
  }
  uint64_t before = e->count;
  if (summary) {
    add_summary(e, summary, flops);
  } else {
    if (e->flops == 0)
      e->flops = flops;
    m->rejected += (uint64_t)add_sample(e, seconds);
  }
  t->samples += e->count - before; /* modulo 2^64: a kept sample may turn out an outlier */
  return NW_OK;
}

static int flops_ok(double flops) {
  return isfinite(flops) && flops >= 0;
}

nw_status nw_perfmodel_record(nw_perfmodel *m, const char *kind, const char *arch,
                              uint64_t footprint, uint64_t size, double seconds) {
  return nw_perfmodel_record_work(m, kind, arch, footprint, size, 0, seconds);
}

nw_status nw_perfmodel_record_work(nw_perfmodel *m, const char *kind, const char *arch,
                                   uint64_t footprint, uint64_t size, double flops,
                                   double seconds) {
  if (!m || !names_ok(kind, arch) || !isfinite(seconds) || seconds < 0 || !flops_ok(flops))
    return NW_ERR_ARG;
  return add_entry(m, kind, arch, footprint, size, flops, seconds, NULL);
}

nw_status nw_perfmodel_add(nw_perfmodel *m, const char *kind, const char *arch,
                           const nw_perf_entry *e) {
  if (!m || !e || !names_ok(kind, arch) || e->count == 0 || !isfinite(e->mean) || e->mean < 0 ||
      !isfinite(e->stddev) || e->stddev < 0 || !flops_ok(e->flops))
    return NW_ERR_ARG;
  pm_stats p = {e->count, e->mean, e->stddev * e->stddev * (double)e->count};
  return add_entry(m, kind, arch, e->footprint, e->size, e->flops, 0, &p);
}

uint64_t nw_perfmodel_rejected(const nw_perfmodel *m) {
  if (!m)
    return 0;
  uint64_t n = m->rejected;
  for (size_t t = 0; t < m->n; t++)
    for (size_t i = 0; i < m->t[t].n; i++) {
      pm_entry e = m->t[t].e[i];
      n += (uint64_t)settle(&e);
    }
  return n;
}

/* Whether some footprint of src has another size in dst. */
static int merge_conflicts(const nw_perfmodel *dst, const nw_perfmodel *src) {
  for (size_t i = 0; i < src->n; i++) {
    const pm_table *s = &src->t[i];
    ptrdiff_t ti = find_table(dst, s->kind, s->arch, NULL);
    for (size_t k = 0; ti >= 0 && k < s->n; k++) {
      ptrdiff_t j = find_entry(&dst->t[ti], s->e[k].footprint, NULL);
      if (j >= 0 && dst->t[ti].e[j].size != s->e[k].size)
        return 1;
    }
  }
  return 0;
}

/* Merges the sorted entries of a (na) and b (nb) into out; equal footprints combine.
 * Returns the entries written. */
static size_t merge_sorted(const pm_entry *a, size_t na, const pm_entry *b, size_t nb,
                           pm_entry *out) {
  size_t i = 0, j = 0, n = 0;
  while (i < na || j < nb) {
    if (j == nb || (i < na && a[i].footprint < b[j].footprint)) {
      out[n++] = a[i++];
    } else if (i == na || b[j].footprint < a[i].footprint) {
      out[n++] = b[j++];
    } else {
      out[n] = a[i++];
      pm_stats sb = summary_of(&b[j]);
      add_summary(&out[n++], &sb, b[j++].flops);
    }
  }
  return n;
}

/* All or nothing: checks sizes, then allocates every array the result needs, and only then
 * changes dst, which can no longer fail. */
nw_status nw_perfmodel_merge(nw_perfmodel *dst, const nw_perfmodel *src) {
  if (!dst || !src || dst == src || merge_conflicts(dst, src))
    return NW_ERR_ARG;
  if (src->n == 0)
    return NW_OK;
  pm_entry **fresh = calloc(src->n, sizeof *fresh);
  size_t missing = 0;
  nw_status st = fresh ? NW_OK : NW_ERR_NOMEM;
  for (size_t i = 0; st == NW_OK && i < src->n; i++) {
    const pm_table *s = &src->t[i];
    ptrdiff_t ti = find_table(dst, s->kind, s->arch, NULL);
    missing += ti < 0;
    size_t n = s->n + (ti < 0 ? 0 : dst->t[ti].n);
    if (!(fresh[i] = malloc(n * sizeof **fresh)))
      st = NW_ERR_NOMEM;
  }
  if (st == NW_OK)
    st = reserve_tables(dst, missing);
  if (st != NW_OK) {
    for (size_t i = 0; fresh && i < src->n; i++)
      free(fresh[i]);
    free(fresh);
    return st;
  }
  for (size_t i = 0; i < src->n; i++) {
    const pm_table *s = &src->t[i];
    size_t at = 0;
    ptrdiff_t ti = find_table(dst, s->kind, s->arch, &at);
    pm_table *d = ti >= 0 ? &dst->t[ti] : insert_table(dst, at, s->kind, s->arch, NULL, 0);
    size_t cap = d->n + s->n;
    d->n = merge_sorted(d->e, d->n, s->e, s->n, fresh[i]);
    free(d->e);
    d->e = fresh[i];
    d->cap = cap;
    d->samples += s->samples;
  }
  free(fresh);
  dst->rejected += src->rejected;
  return NW_OK;
}

uint64_t nw_perfmodel_samples(const nw_perfmodel *m, const char *kind, const char *arch,
                              uint64_t footprint) {
  const pm_entry *e = lookup(m, kind, arch, footprint);
  return e ? e->count : 0;
}

/* ---- Regressions ---- */

/* Whether a table's regressions run over flops: every entry with a duration has them. */
static int table_on_flops(const pm_table *t) {
  int any = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->e[i].mean > 0) {
      if (!(t->e[i].flops > 0))
        return 0;
      any = 1;
    }
  return any;
}

/* The regressions' variable for an entry: its flops or its bytes. */
static double x_of(const pm_entry *e, int on_flops) {
  return on_flops ? e->flops : (double)e->size;
}

/* An entry a regression can use: both logarithms exist, and its relative residual too. */
static int usable(const pm_entry *e, int on_flops) {
  return x_of(e, on_flops) > 0 && e->mean > 0;
}

/* The sizes and samples a fit of t rests on; *sizes is 1, 2, or 3 for "3 or more". */
static void span(const pm_table *t, int on, nw_perf_fit *f, int *sizes, double *lo, double *hi) {
  memset(f, 0, sizeof *f);
  f->on_flops = on;
  *lo = INFINITY;
  *hi = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      double x = x_of(&t->e[i], on);
      f->samples += t->e[i].count;
      *lo = x < *lo ? x : *lo;
      *hi = x > *hi ? x : *hi;
    }
  if (f->samples == 0) {
    *lo = 0;
    *sizes = 0;
    return;
  }
  f->min_size = (uint64_t)llround(fmin(*lo, 9e18));
  f->max_size = (uint64_t)llround(fmin(*hi, 9e18));
  *sizes = *lo == *hi ? 1 : 2;
  for (size_t i = 0; i < t->n && *sizes == 2; i++)
    if (usable(&t->e[i], on) && x_of(&t->e[i], on) > *lo && x_of(&t->e[i], on) < *hi)
      *sizes = 3;
}

/* Weighted least squares of ln(mean) on ln(size), weights the counts: each sample counts
 * once, as in StarPU's regression model, which sums over samples. Centered sums, so that
 * large logarithms do not cancel. */
static nw_perf_fit fit_linear(const pm_table *t, int on) {
  nw_perf_fit f;
  int sizes;
  double lo, hi;
  span(t, on, &f, &sizes, &lo, &hi);
  if (sizes < 2 || f.samples < NW_PERFMODEL_MIN_SAMPLES)
    return f;
  double sw = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      double w = (double)t->e[i].count;
      sw += w;
      sx += w * log(x_of(&t->e[i], on));
      sy += w * log(t->e[i].mean);
    }
  double xbar = sx / sw, ybar = sy / sw, sxx = 0, sxy = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      double w = (double)t->e[i].count, dx = log(x_of(&t->e[i], on)) - xbar;
      sxx += w * dx * dx;
      sxy += w * dx * (log(t->e[i].mean) - ybar);
    }
  f.b = sxy / sxx;
  f.a = exp(ybar - f.b * xbar);
  f.valid = sxx > 0 && isfinite(f.a) && isfinite(f.b) && f.a > 0;
  return f;
}

/* For a fixed b, t = p * x + c with x = (size / scale)^b is linear in (p, c): weighted least
 * squares gives them in closed form. Weights count / mean^2 make the residuals relative:
 * durations span orders of magnitude, and absolute residuals would let the largest sizes
 * decide alone and leave c, which matters at small sizes, undetermined. Sizes are divided by
 * the largest (scale) so that x stays in (0, 1] for any b. Returns the weighted residual sum
 * of squares; +inf when x does not vary. */
static double nl_at(const pm_table *t, int on, double b, double scale, double *p, double *c) {
  double sw = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      const pm_entry *e = &t->e[i];
      double w = (double)e->count / (e->mean * e->mean), x = pow(x_of(e, on) / scale, b);
      sw += w;
      sx += w * x;
      sy += w * e->mean;
    }
  double xbar = sx / sw, ybar = sy / sw, sxx = 0, sxy = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      const pm_entry *e = &t->e[i];
      double w = (double)e->count / (e->mean * e->mean), dx = pow(x_of(e, on) / scale, b) - xbar;
      sxx += w * dx * dx;
      sxy += w * dx * (e->mean - ybar);
    }
  if (!(sxx > 0))
    return INFINITY;
  *p = sxy / sxx;
  *c = ybar - *p * xbar;
  /* The residual summed directly: Syy - Sxy^2/Sxx cancels to noise near a perfect fit, where
   * the search for b needs it most. */
  double r = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], on)) {
      const pm_entry *e = &t->e[i];
      double d = e->mean - (*p * pow(x_of(e, on) / scale, b) + *c);
      r += (double)e->count / (e->mean * e->mean) * d * d;
    }
  return r;
}

/* Golden-section search for the b of least residual in [lo, hi], which the grid search
 * found to hold the best grid point's basin. */
static double golden_b(const pm_table *t, int on, double scale, double lo, double hi) {
  const double g = 0.6180339887498949; /* (sqrt(5) - 1) / 2 */
  double p, c;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = nl_at(t, on, x1, scale, &p, &c), f2 = nl_at(t, on, x2, scale, &p, &c);
  for (int it = 0; it < 80 && hi - lo > 1e-12; it++) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = nl_at(t, on, x1, scale, &p, &c);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = nl_at(t, on, x2, scale, &p, &c);
    }
  }
  return (lo + hi) / 2;
}

/* t = a * size^b + c. The residual is not convex in b (nor even unimodal in general), so a
 * grid over [NL_B_MIN, NL_B_MAX] in steps of NL_B_STEP finds the basin of the least residual,
 * golden-section search refines b within one step of the best grid point, and (a, c) come by
 * linear least squares at that b (nl_at). */
static nw_perf_fit fit_nonlinear(const pm_table *t, int on) {
  nw_perf_fit f;
  int sizes;
  double lo_x, hi_x;
  span(t, on, &f, &sizes, &lo_x, &hi_x);
  if (sizes < 3 || f.samples < NW_PERFMODEL_MIN_SAMPLES)
    return f;
  double scale = hi_x, p, c, best_b = NL_B_MIN, best_r = INFINITY;
  int steps = (int)lround((NL_B_MAX - NL_B_MIN) / NL_B_STEP);
  for (int k = 0; k <= steps; k++) {
    double b = NL_B_MIN + k * NL_B_STEP, r = nl_at(t, on, b, scale, &p, &c);
    if (r < best_r) {
      best_r = r;
      best_b = b;
    }
  }
  if (!isfinite(best_r))
    return f;
  double lo = fmax(NL_B_MIN, best_b - NL_B_STEP), hi = fmin(NL_B_MAX, best_b + NL_B_STEP);
  double b = golden_b(t, on, scale, lo, hi);
  /* Golden section never evaluates its ends; keep the grid point if it is still better. */
  if (nl_at(t, on, b, scale, &p, &c) > best_r)
    b = best_b;
  nl_at(t, on, b, scale, &p, &c);
  f.a = p / pow(scale, b);
  f.b = b;
  f.c = c;
  f.valid = isfinite(f.a) && isfinite(f.c) && f.a > 0;
  return f;
}

static pm_table *table_of(nw_perfmodel *m, const char *kind, const char *arch) {
  if (!m || !names_ok(kind, arch))
    return NULL;
  ptrdiff_t t = find_table(m, kind, arch, NULL);
  return t < 0 ? NULL : &m->t[t];
}

nw_status nw_perfmodel_fits(const nw_perfmodel *m, const char *kind, const char *arch,
                            nw_perf_fit *linear, nw_perf_fit *nonlinear) {
  if (!m || !names_ok(kind, arch))
    return NW_ERR_ARG;
  ptrdiff_t ti = find_table(m, kind, arch, NULL);
  nw_perf_fit none = {0};
  int on = ti < 0 ? 0 : table_on_flops(&m->t[ti]);
  if (linear)
    *linear = ti < 0 ? none : fit_linear(&m->t[ti], on);
  if (nonlinear)
    *nonlinear = ti < 0 ? none : fit_nonlinear(&m->t[ti], on);
  return NW_OK;
}

/* A fit costs thousands of passes over the entries (fit_nonlinear), and predict follows
 * nearly every record in a run: refit when a size may be new (a new entry), when the last fit
 * had too few samples to be valid, or when the samples grew by more than an eighth since;
 * more samples of known footprints move their means, and so the fits, little. */
static int refit_due(const pm_table *t) {
  return !t->fitted || t->n != t->fit_entries || t->fit_samples < NW_PERFMODEL_MIN_SAMPLES ||
         t->samples - t->fit_samples > t->fit_samples / 8;
}

const char *nw_price_source_name(nw_price_source s) {
  static const char *const names[NW_PRICE_SOURCES] = {"uncalibrated", "history", "regression",
                                                      "scaled"};
  return s >= 0 && s < NW_PRICE_SOURCES ? names[s] : "?";
}

/* The table's measured seconds per flop (its entries' seconds over their flops, each entry
 * weighted by its count), or 0 where it has none. */
static double seconds_per_flop(const pm_table *t) {
  double secs = 0, flops = 0;
  for (size_t i = 0; i < t->n; i++)
    if (usable(&t->e[i], 1)) {
      secs += (double)t->e[i].count * t->e[i].mean;
      flops += (double)t->e[i].count * t->e[i].flops;
    }
  return flops > 0 ? secs / flops : 0;
}

static int answer(double x, double *seconds) {
  if (!(x > 0) || !isfinite(x))
    return 0;
  *seconds = x;
  return 1;
}

nw_price_source nw_perfmodel_predict_work(nw_perfmodel *m, const char *kind, const char *arch,
                                          uint64_t footprint, uint64_t size, double flops,
                                          double *seconds) {
  pm_table *t = table_of(m, kind, arch);
  if (!t)
    return NW_PRICE_UNCALIBRATED;
  ptrdiff_t i = find_entry(t, footprint, NULL);
  if (i >= 0 && t->e[i].count >= NW_PERFMODEL_MIN_SAMPLES) {
    *seconds = t->e[i].mean;
    return NW_PRICE_HISTORY;
  }
  if (refit_due(t)) {
    t->on_flops = table_on_flops(t);
    t->linear = fit_linear(t, t->on_flops);
    t->nonlinear = fit_nonlinear(t, t->on_flops);
    t->fitted = 1;
    t->fit_entries = t->n;
    t->fit_samples = t->samples;
  }
  double x = t->on_flops ? (flops_ok(flops) ? flops : 0) : (double)size;
  if (!(x > 0)) /* no power law speaks of empty data, nor a table of flops of unknown ones */
    return NW_PRICE_UNCALIBRATED;
  /* The x the entries span (the fits keep it rounded; the rate needs no span). */
  const nw_perf_fit *nl = &t->nonlinear, *lin = &t->linear;
  int narrow = !lin->valid || (double)lin->max_size < NW_PERFMODEL_MIN_SPAN * (double)lin->min_size;
  double rate =
      t->on_flops && t->samples >= NW_PERFMODEL_MIN_RATE_SAMPLES ? seconds_per_flop(t) : 0;
  if (!narrow && nl->valid && x >= (double)nl->min_size / 2 && x <= (double)nl->max_size * 2 &&
      answer(nl->a * pow(x, nl->b) + nl->c, seconds))
    return NW_PRICE_REGRESSION;
  if (!narrow && lin->b > 0 && lin->b <= NL_B_MAX && answer(lin->a * pow(x, lin->b), seconds))
    return NW_PRICE_REGRESSION;
  if (rate > 0 && answer(rate * x, seconds))
    return NW_PRICE_SCALED;
  return NW_PRICE_UNCALIBRATED;
}

int nw_perfmodel_predict(nw_perfmodel *m, const char *kind, const char *arch, uint64_t footprint,
                         uint64_t size, double *seconds) {
  return nw_perfmodel_predict_work(m, kind, arch, footprint, size, 0, seconds) !=
         NW_PRICE_UNCALIBRATED;
}

double nw_perfmodel_fit_miss(const nw_perfmodel *m, size_t t, double *worst_x) {
  const pm_table *tb = &m->t[t];
  int on = table_on_flops(tb);
  nw_perf_fit nl = fit_nonlinear(tb, on), lin = fit_linear(tb, on);
  const nw_perf_fit *f = nl.valid ? &nl : lin.valid ? &lin : NULL;
  if (!f)
    return -1;
  double worst = 0;
  *worst_x = 0;
  for (size_t i = 0; i < tb->n; i++)
    if (usable(&tb->e[i], on)) {
      double x = x_of(&tb->e[i], on), miss = fabs(f->a * pow(x, f->b) + f->c - tb->e[i].mean);
      if (miss / tb->e[i].mean > worst) {
        worst = miss / tb->e[i].mean;
        *worst_x = x;
      }
    }
  return worst;
}

size_t nw_perfmodel_tables(const nw_perfmodel *m) {
  return m ? m->n : 0;
}

void nw_perfmodel_table(const nw_perfmodel *m, size_t t, const char **kind, const char **arch,
                        size_t *entries) {
  *kind = m->t[t].kind;
  *arch = m->t[t].arch;
  *entries = m->t[t].n;
}

nw_perf_entry nw_perfmodel_entry(const nw_perfmodel *m, size_t t, size_t i) {
  const pm_entry *e = &m->t[t].e[i];
  nw_perf_entry out = {
      e->footprint, e->size, e->count, e->mean, e->count ? sqrt(e->m2 / (double)e->count) : 0,
      e->flops};
  return out;
}
