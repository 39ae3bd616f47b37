/* test_perfmodel.c: performance models (core/sched/perfmodel.h) and their file
 * (lib/perfmodel_file.h): exact history statistics, exact merging, regressions that
 * recover the parameters of synthetic durations, the prediction rule case by case, a file
 * round trip, and every kind of bad file refused with a message naming the file and fault. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "perfmodel.h"
#include "perfmodel_file.h"
#include "rng.h"

static double uniform(uint64_t *s) {
  return (double)(nw_rng_next(s) >> 11) * 0x1p-53;
}

static int close_rel(double x, double want, double tol) {
  return fabs(x - want) <= tol * fabs(want);
}

static nw_perfmodel *model(void) {
  nw_perfmodel *m = NULL;
  CHECK(nw_perfmodel_create(&m) == NW_OK && m);
  return m;
}

/* Records `per` samples of a * s^b + c, times a uniform factor 1 +- noise, for each size
 * lo, 2 lo, 4 lo, ..., hi: one footprint per size. */
static void record_law(nw_perfmodel *m, const char *kind, const char *arch, double a, double b,
                       double c, uint64_t lo, uint64_t hi, int per, double noise, uint64_t seed) {
  for (uint64_t s = lo; s <= hi; s *= 2)
    for (int i = 0; i < per; i++) {
      double t = (a * pow((double)s, b) + c) * (1 + noise * (2 * uniform(&seed) - 1));
      CHECK(nw_perfmodel_record(m, kind, arch, nw_perf_footprint(&s, 1), s, t) == NW_OK);
    }
}

static void test_arguments(void) {
  nw_perfmodel *m = model();
  char k64[65], a16[17];
  memset(k64, 'k', 64);
  k64[64] = '\0';
  memset(a16, 'a', 16);
  a16[16] = '\0';
  CHECK(nw_perfmodel_record(m, k64, "cpu", 1, 1, 1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, "k", a16, 1, 1, 1.0) == NW_ERR_ARG);
  k64[63] = '\0';
  a16[15] = '\0';
  CHECK(nw_perfmodel_record(m, k64, a16, 1, 1, 1.0) == NW_OK); /* the longest allowed */
  CHECK(nw_perfmodel_record(m, "", "cpu", 1, 1, 1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, "k", "", 1, 1, 1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, NULL, "cpu", 1, 1, 1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, "k", "cpu", 1, 1, -1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, "k", "cpu", 1, 1, NAN) == NW_ERR_ARG);
  CHECK(nw_perfmodel_record(m, "k", "cpu", 1, 1, INFINITY) == NW_ERR_ARG);
  /* A footprint keeps its size: another size is refused and changes nothing. */
  CHECK(nw_perfmodel_record(m, "k", "cpu", 7, 100, 1.0) == NW_OK);
  CHECK(nw_perfmodel_record(m, "k", "cpu", 7, 101, 1.0) == NW_ERR_ARG);
  CHECK(nw_perfmodel_samples(m, "k", "cpu", 7) == 1);
  CHECK(nw_perfmodel_samples(m, "k", "cpu", 8) == 0);
  CHECK(nw_perfmodel_samples(m, "k", "gpu", 7) == 0);
  CHECK(nw_perfmodel_samples(m, k64, "gpu", 7) == 0);
  nw_perf_entry bad[] = {{1, 1, 0, 1, 0, 0},   {1, 1, 1, -1, 0, 0},       {1, 1, 1, 1, -1, 0},
                         {1, 1, 1, NAN, 0, 0}, {1, 1, 1, 1, INFINITY, 0}, {1, 1, 1, 1, 0, -1},
                         {1, 1, 1, 1, 0, NAN}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(nw_perfmodel_add(m, "k", "cpu", &bad[i]) == NW_ERR_ARG);
  CHECK(nw_perfmodel_merge(m, m) == NW_ERR_ARG);
  CHECK(nw_perfmodel_tables(m) == 2);
  nw_perfmodel_free(m);
  nw_perfmodel_free(NULL);
}

static void test_footprint(void) {
  /* FNV-1a over little-endian bytes: pinned, since saved files depend on it. */
  uint64_t one = 1, two[] = {4096, 1 << 20}, rev[] = {1 << 20, 4096};
  CHECK(nw_perf_footprint(NULL, 0) == 0xcbf29ce484222325ull);
  CHECK(nw_perf_footprint(&one, 1) == 0x89cd31291d2aefa4ull);
  CHECK(nw_perf_footprint(two, 2) == 0xa06639b7867b3d25ull);
  CHECK(nw_perf_footprint(rev, 2) != nw_perf_footprint(two, 2));
  /* The flops join the footprint (Task Bench's iterations change them, not the sizes); none
   * leave it as it was. Pinned as well: the bits of 2^20 as a double, 0x4130000000000000. */
  uint64_t fp = nw_perf_footprint(two, 2);
  CHECK(nw_perf_footprint_flops(fp, 0) == fp && nw_perf_footprint_flops(fp, -1) == fp);
  CHECK(nw_perf_footprint_flops(fp, 1 << 20) == nw_perf_footprint_add(fp, 0x4130000000000000ull));
  CHECK(nw_perf_footprint_flops(fp, 1 << 20) != nw_perf_footprint_flops(fp, 1 << 21));
}

/* Mean and population stddev of the samples, two-pass in long double. */
static void exact_stats(const double *x, int n, double *mean, double *sd) {
  long double s = 0, q = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  long double mu = s / n;
  for (int i = 0; i < n; i++)
    q += (x[i] - mu) * (x[i] - mu);
  *mean = (double)mu;
  *sd = (double)sqrtl(q / n);
}

static void test_history(void) {
  enum { N = 1000 };
  static double x[N];
  uint64_t seed = 1;
  nw_perfmodel *m = model();
  for (int i = 0; i < N; i++) {
    x[i] = 0.01 * (1 + 0.5 * uniform(&seed));
    CHECK(nw_perfmodel_record(m, "k", "cpu", 42, 4096, x[i]) == NW_OK);
  }
  double mean, sd;
  exact_stats(x, N, &mean, &sd);
  nw_perf_entry e = nw_perfmodel_entry(m, 0, 0);
  CHECK(e.footprint == 42 && e.size == 4096 && e.count == N);
  CHECK(close_rel(e.mean, mean, 1e-9));
  CHECK(close_rel(e.stddev, sd, 1e-9));
  /* One sample: stddev 0. */
  CHECK(nw_perfmodel_record(m, "k", "cpu", 43, 4096, 2.5) == NW_OK);
  e = nw_perfmodel_entry(m, 0, 1);
  CHECK(e.count == 1 && e.mean == 2.5 && e.stddev == 0);
  /* A summary added combines as if its samples were recorded. */
  nw_perf_entry s = {42, 4096, 3, 0.02, 0.001, 0};
  CHECK(nw_perfmodel_add(m, "k", "cpu", &s) == NW_OK);
  e = nw_perfmodel_entry(m, 0, 0);
  CHECK(e.count == N + 3);
  CHECK(close_rel(e.mean, (mean * N + 0.06) / (N + 3), 1e-12));
  nw_perfmodel_free(m);
}

/* Every (kind, arch, footprint) of a and b have the same count, mean and stddev. */
static int same_models(const nw_perfmodel *a, const nw_perfmodel *b, double tol) {
  if (nw_perfmodel_tables(a) != nw_perfmodel_tables(b))
    return 0;
  for (size_t t = 0; t < nw_perfmodel_tables(a); t++) {
    const char *ka, *aa, *kb, *ab;
    size_t na, nb;
    nw_perfmodel_table(a, t, &ka, &aa, &na);
    nw_perfmodel_table(b, t, &kb, &ab, &nb);
    if (strcmp(ka, kb) || strcmp(aa, ab) || na != nb)
      return 0;
    for (size_t i = 0; i < na; i++) {
      nw_perf_entry x = nw_perfmodel_entry(a, t, i), y = nw_perfmodel_entry(b, t, i);
      if (x.footprint != y.footprint || x.size != y.size || x.count != y.count ||
          !close_rel(x.mean, y.mean, tol) || fabs(x.stddev - y.stddev) > tol * fabs(y.stddev))
        return 0;
    }
  }
  return 1;
}

static void test_merge(void) {
  const char *kinds[] = {"matmul", "conv2d", "chain"}, *archs[] = {"cpu", "cpu4", "gpu"};
  nw_perfmodel *all = model(), *h1 = model(), *h2 = model();
  uint64_t seed = 7;
  for (int i = 0; i < 3000; i++) {
    int k = (int)(nw_rng_next(&seed) % 3), a = (int)(nw_rng_next(&seed) % 3);
    uint64_t size = 1024u << (nw_rng_next(&seed) % 8);
    double t = 1e-3 * (1 + uniform(&seed));
    uint64_t fp = nw_perf_footprint(&size, 1);
    /* Some tables only in one half, so the merge also creates tables. */
    nw_perfmodel *half = (i % 2 && k != 2) || (k == 0 && a == 0) ? h1 : h2;
    CHECK(nw_perfmodel_record(all, kinds[k], archs[a], fp, size, t) == NW_OK);
    CHECK(nw_perfmodel_record(half, kinds[k], archs[a], fp, size, t) == NW_OK);
  }
  CHECK(nw_perfmodel_merge(h1, h2) == NW_OK);
  CHECK(same_models(h1, all, 1e-9));
  /* A conflicting size refuses the whole merge and leaves dst as it was. */
  nw_perfmodel *bad = model();
  uint64_t size = 1024;
  CHECK(nw_perfmodel_record(bad, "zzz", "cpu", 5, 5, 1.0) == NW_OK); /* would be a new table */
  CHECK(nw_perfmodel_record(bad, "matmul", "cpu", nw_perf_footprint(&size, 1), 999, 1.0) == NW_OK);
  CHECK(nw_perfmodel_merge(h1, bad) == NW_ERR_ARG);
  CHECK(same_models(h1, all, 1e-9));
  /* Merging an empty set changes nothing; merging into an empty set copies. */
  nw_perfmodel *empty = model(), *copy = model();
  CHECK(nw_perfmodel_merge(h1, empty) == NW_OK);
  CHECK(nw_perfmodel_merge(copy, all) == NW_OK);
  CHECK(same_models(copy, all, 0));
  nw_perfmodel_free(all);
  nw_perfmodel_free(h1);
  nw_perfmodel_free(h2);
  nw_perfmodel_free(bad);
  nw_perfmodel_free(empty);
  nw_perfmodel_free(copy);
}

static void test_linear(void) {
  nw_perfmodel *m = model();
  const double a = 3e-9, b = 1.3;
  /* a is the duration at size 1, far below the data: an error in b moves it ln(size) times
   * more. With noise up to 3%, 40 samples per size keep both within 1% (over 40 seeds tried,
   * the worst was 0.72%). */
  record_law(m, "k", "cpu", a, b, 0, 1u << 10, 1u << 24, 40, 0.03, 11);
  nw_perf_fit lin, nl;
  CHECK(nw_perfmodel_fits(m, "k", "cpu", &lin, &nl) == NW_OK);
  CHECK(lin.valid && close_rel(lin.a, a, 0.01) && close_rel(lin.b, b, 0.01) && lin.c == 0);
  CHECK(lin.min_size == 1u << 10 && lin.max_size == 1u << 24 && lin.samples == 15 * 40);
  printf("linear: a %.6g (%.6g) b %.6g (%.6g)\n", lin.a, a, lin.b, b);
  nw_perfmodel_free(m);
}

static void test_nonlinear(void) {
  nw_perfmodel *m = model();
  /* At the smallest size c is half the duration; noise up to 1% (over 40 seeds tried, the
   * worst error was 0.45%, in c). */
  const double a = 2e-9, b = 1.5, c = 5e-4;
  record_law(m, "k", "gpu", a, b, c, 1u << 12, 1u << 24, 20, 0.01, 12);
  nw_perf_fit nl;
  CHECK(nw_perfmodel_fits(m, "k", "gpu", NULL, &nl) == NW_OK);
  CHECK(nl.valid && close_rel(nl.a, a, 0.01) && close_rel(nl.b, b, 0.01) &&
        close_rel(nl.c, c, 0.01));
  printf("non-linear: a %.6g (%.6g) b %.6g (%.6g) c %.6g (%.6g)\n", nl.a, a, nl.b, b, nl.c, c);
  /* Without noise the recovery is nearly exact. */
  nw_perfmodel *exact = model();
  record_law(exact, "k", "gpu", a, b, c, 1u << 12, 1u << 24, 10, 0, 1);
  CHECK(nw_perfmodel_fits(exact, "k", "gpu", NULL, &nl) == NW_OK);
  CHECK(nl.valid && close_rel(nl.a, a, 1e-6) && close_rel(nl.b, b, 1e-6) &&
        close_rel(nl.c, c, 1e-6));
  nw_perfmodel_free(m);
  nw_perfmodel_free(exact);
}

static void test_predict(void) {
  nw_perfmodel *m = model();
  const double sentinel = -7;
  double t = sentinel;
  const uint64_t lo = 1u << 12, hi = 1u << 24;
  record_law(m, "k", "gpu", 2e-9, 1.5, 5e-4, lo, hi, 20, 0.01, 3);
  nw_perf_fit lin, nl;
  CHECK(nw_perfmodel_fits(m, "k", "gpu", &lin, &nl) == NW_OK && lin.valid && nl.valid);

  /* 1. A calibrated footprint: its history mean, not the regression. */
  uint64_t s = 1u << 16, fp = nw_perf_footprint(&s, 1);
  size_t entries;
  const char *kind, *arch;
  nw_perfmodel_table(m, 0, &kind, &arch, &entries);
  for (size_t i = 0; i < entries; i++)
    if (nw_perfmodel_entry(m, 0, i).footprint == fp)
      CHECK(nw_perfmodel_predict(m, "k", "gpu", fp, s, &t) == 1 &&
            t == nw_perfmodel_entry(m, 0, i).mean);

  /* 2. An unseen size in [min/2, max*2]: the non-linear regression (close to the truth). */
  s = 3u << 14;
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, s, &t) == 1);
  CHECK(close_rel(t, nl.a * pow((double)s, nl.b) + nl.c, 1e-12));
  CHECK(close_rel(t, 2e-9 * pow((double)s, 1.5) + 5e-4, 0.01));
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, lo / 2, &t) == 1 &&
        close_rel(t, nl.a * pow(lo / 2.0, nl.b) + nl.c, 1e-12));
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, hi * 2, &t) == 1 &&
        close_rel(t, nl.a * pow(hi * 2.0, nl.b) + nl.c, 1e-12));
  /* 3. Outside that range: the linear regression. */
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, lo / 2 - 1, &t) == 1 &&
        close_rel(t, lin.a * pow(lo / 2.0 - 1, lin.b), 1e-12));
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, hi * 2 + 1, &t) == 1 &&
        close_rel(t, lin.a * pow(hi * 2.0 + 1, lin.b), 1e-12));
  /* Fits are cached: a few more samples of known footprints (fewer than an eighth more) leave
   * them; a new entry, or an eighth more samples, refits. */
  double before = t;
  s = lo;
  /* Twice the law at lo: far enough to move the fits, near enough not to be an outlier. */
  const double slow = 2 * (2e-9 * pow((double)lo, 1.5) + 5e-4);
  for (int i = 0; i < 13 * 20 / 8; i++)
    CHECK(nw_perfmodel_record(m, "k", "gpu", nw_perf_footprint(&s, 1), s, slow) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, hi * 2 + 1, &t) == 1 && t == before);
  CHECK(nw_perfmodel_record(m, "k", "gpu", nw_perf_footprint(&s, 1), s, slow) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, hi * 2 + 1, &t) == 1 && t != before);
  before = t;
  CHECK(nw_perfmodel_record(m, "k", "gpu", 2, 1u << 30, 1e6) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 1, hi * 2 + 1, &t) == 1 && t != before);
  /* Size 0 unseen: nothing to say. */
  t = sentinel;
  CHECK(nw_perfmodel_predict(m, "k", "gpu", 3, 0, &t) == 0 && t == sentinel);

  /* Only two sizes: no non-linear fit; the linear one everywhere. */
  record_law(m, "two", "cpu4", 1e-8, 1.0, 0, 1u << 10, 1u << 11, 5, 0, 4);
  CHECK(nw_perfmodel_fits(m, "two", "cpu4", &lin, &nl) == NW_OK && lin.valid && !nl.valid);
  CHECK(nw_perfmodel_predict(m, "two", "cpu4", 1, 1500, &t) == 1 &&
        close_rel(t, 1e-8 * 1500, 1e-9));

  /* Below the calibration minimum in all: no fit, and a footprint of 9 samples is not
   * trusted; the 10th calibrates it. */
  record_law(m, "few", "cpu", 1e-8, 1.0, 0, 1u << 10, 1u << 12, 3, 0, 5);
  CHECK(nw_perfmodel_fits(m, "few", "cpu", &lin, &nl) == NW_OK && !lin.valid && !nl.valid);
  t = sentinel;
  CHECK(nw_perfmodel_predict(m, "few", "cpu", 1, 2000, &t) == 0 && t == sentinel);
  /* The 10th sample of the table, of a known footprint, brings its fit. */
  s = 1u << 12;
  CHECK(nw_perfmodel_record(m, "few", "cpu", nw_perf_footprint(&s, 1), s, 1e-8 * 4096) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "few", "cpu", 1, 2000, &t) == 1 && close_rel(t, 2e-5, 1e-9));
  t = sentinel;
  for (int i = 0; i < NW_PERFMODEL_MIN_SAMPLES - 1; i++)
    CHECK(nw_perfmodel_record(m, "one", "gpu", 9, 4096, 0.5 + i) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "one", "gpu", 9, 4096, &t) == 0 && t == sentinel);
  CHECK(nw_perfmodel_record(m, "one", "gpu", 9, 4096, 9.5) == NW_OK);
  CHECK(nw_perfmodel_predict(m, "one", "gpu", 9, 4096, &t) == 1 && t == 5.0);
  /* One size, calibrated: another footprint is still uncalibrated (no fit from one size). */
  t = sentinel;
  CHECK(nw_perfmodel_predict(m, "one", "gpu", 10, 8192, &t) == 0 && t == sentinel);
  /* No such table, bad names. */
  CHECK(nw_perfmodel_predict(m, "none", "gpu", 9, 4096, &t) == 0 && t == sentinel);
  CHECK(nw_perfmodel_predict(m, "", "gpu", 9, 4096, &t) == 0 && t == sentinel);

  /* A non-linear fit with c < 0 predicts <= 0 below its data: the linear one answers. */
  for (uint64_t z = 2000; z <= 2000u << 10; z *= 2)
    for (int i = 0; i < 4; i++)
      CHECK(nw_perfmodel_record(m, "neg", "cpu", nw_perf_footprint(&z, 1), z,
                                1e-9 * (double)z - 1.9e-6) == NW_OK);
  CHECK(nw_perfmodel_fits(m, "neg", "cpu", &lin, &nl) == NW_OK && lin.valid && nl.valid);
  CHECK(nl.c < 0 && nl.a * pow(1000, nl.b) + nl.c <= 0);
  CHECK(nw_perfmodel_predict(m, "neg", "cpu", 1, 1000, &t) == 1 &&
        close_rel(t, lin.a * pow(1000, lin.b), 1e-12));
  CHECK(nw_perfmodel_predict(m, "neg", "cpu", 1, 3000, &t) == 1 &&
        close_rel(t, 1e-9 * 3000 - 1.9e-6, 0.01));
  nw_perfmodel_free(m);
}

/* Sizes as a calibration of a few workloads gives them: without noise, five sizes spanning 16x
 * give a, b and c within 1%; with 5% noise, eight sizes spanning 128x with 100 samples each
 * give them within 5% (over seeds 1-40 the worst errors were 4.95% in a, 0.29% in b and 2.5%
 * in c; with five sizes a, which moves ln(size) times as much as b, was up to 20% off). */
static void test_nonlinear_few_sizes(void) {
  const double a = 4e-10, b = 1.2, c = 2e-4;
  nw_perfmodel *exact = model(), *noisy = model();
  record_law(exact, "k", "cpu", a, b, c, 1u << 16, 1u << 20, 10, 0, 21);
  record_law(noisy, "k", "cpu", a, b, c, 1u << 16, 1u << 23, 100, 0.05, 22);
  nw_perf_fit nl;
  CHECK(nw_perfmodel_fits(exact, "k", "cpu", NULL, &nl) == NW_OK);
  CHECK(nl.valid && close_rel(nl.a, a, 0.01) && close_rel(nl.b, b, 0.01) &&
        close_rel(nl.c, c, 0.01));
  CHECK(nw_perfmodel_fits(noisy, "k", "cpu", NULL, &nl) == NW_OK);
  CHECK(nl.valid && close_rel(nl.a, a, 0.05) && close_rel(nl.b, b, 0.05) &&
        close_rel(nl.c, c, 0.05));
  printf("eight sizes, 5%% noise: a %.6g (%.6g) b %.6g (%.6g) c %.6g (%.6g)\n", nl.a, a, nl.b, b,
         nl.c, c);
  nw_perfmodel_free(exact);
  nw_perfmodel_free(noisy);
}

/* A preempted kernel's sample, 1000 times the others, is left out wherever it comes: among the
 * first samples (kept, then found out once eight are there) or later (refused at once). */
static void test_outliers(void) {
  for (int at = 0; at < 30; at += 7) {
    nw_perfmodel *m = model();
    uint64_t seed = 31 + (uint64_t)at;
    double sum = 0;
    for (int i = 0; i < 30; i++) {
      double t = i == at ? 0.19 : 190e-6 * (1 + 0.1 * (2 * uniform(&seed) - 1));
      sum += i == at ? 0 : t;
      CHECK(nw_perfmodel_record(m, "gemm", "gpu", 5, 4096, t) == NW_OK);
    }
    nw_perf_entry e = nw_perfmodel_entry(m, 0, 0);
    CHECK(e.count == 29 && close_rel(e.mean, sum / 29, 1e-9));
    CHECK(nw_perfmodel_rejected(m) == 1);
    nw_perfmodel_free(m);
  }
  /* Samples spread over a factor of 2 lose none. */
  nw_perfmodel *m = model();
  uint64_t seed = 5;
  for (int i = 0; i < 200; i++)
    CHECK(nw_perfmodel_record(m, "k", "cpu", 1, 64, 1e-3 * (1 + uniform(&seed))) == NW_OK);
  CHECK(nw_perfmodel_entry(m, 0, 0).count == 200 && nw_perfmodel_rejected(m) == 0);
  nw_perfmodel_free(m);
}

/* Tables whose entries carry the cost model's flops: the regressions run over flops, which
 * tell apart shapes of equal bytes; a footprint never measured gets the fit (regression); and
 * where the entries' flops span less than NW_PERFMODEL_MIN_SPAN, the measured rate (scaled). */
static void test_flops(void) {
  nw_perfmodel *m = model();
  /* A matmul-like kind: time = 2 ns a flop + 50 us; bytes the same for every shape. */
  for (uint64_t f = 1u << 20; f <= 1u << 26; f *= 2)
    for (int i = 0; i < 10; i++)
      CHECK(nw_perfmodel_record_work(m, "mm", "cpu", f, 65536, (double)f,
                                     2e-9 * (double)f + 5e-5) == NW_OK);
  nw_perf_fit lin, nl;
  CHECK(nw_perfmodel_fits(m, "mm", "cpu", &lin, &nl) == NW_OK && lin.on_flops && nl.on_flops);
  CHECK(nl.valid && close_rel(nl.b, 1, 1e-6) && close_rel(nl.c, 5e-5, 1e-6));
  double t = -1;
  /* An unseen shape of the same bytes and 3 x 2^22 flops. */
  CHECK(nw_perfmodel_predict_work(m, "mm", "cpu", 999, 65536, 3.0 * (1 << 22), &t) ==
        NW_PRICE_REGRESSION);
  CHECK(close_rel(t, 2e-9 * 3.0 * (1 << 22) + 5e-5, 1e-6));
  /* Unknown flops: a table of flops cannot say (the bytes do not tell the shape). */
  CHECK(nw_perfmodel_predict_work(m, "mm", "cpu", 999, 65536, 0, &t) == NW_PRICE_UNCALIBRATED);
  CHECK(nw_perfmodel_predict(m, "mm", "cpu", 999, 65536, &t) == 0);
  /* A measured footprint: its history. */
  CHECK(nw_perfmodel_predict_work(m, "mm", "cpu", 1u << 20, 65536, 1 << 20, &t) ==
        NW_PRICE_HISTORY);

  /* Tiles that differ by their halo (0.2%): no exponent; the rate, 3 ns a flop. */
  for (int k = 0; k < 3; k++) {
    double f = 1e6 * (1 + 0.001 * k);
    for (int i = 0; i < 4; i++)
      CHECK(nw_perfmodel_record_work(m, "conv", "cpu", (uint64_t)k, 1000 + (uint64_t)k, f,
                                     3e-9 * f) == NW_OK);
  }
  CHECK(nw_perfmodel_predict_work(m, "conv", "cpu", 77, 4000, 4e6, &t) == NW_PRICE_SCALED);
  CHECK(close_rel(t, 3e-9 * 4e6, 1e-9));
  /* Below the calibration minimum in all, no rate either. */
  CHECK(nw_perfmodel_record_work(m, "few", "cpu", 1, 10, 1e6, 1e-3) == NW_OK);
  CHECK(nw_perfmodel_predict_work(m, "few", "cpu", 2, 20, 2e6, &t) == NW_PRICE_UNCALIBRATED);
  /* NW_PERFMODEL_MIN_RATE_SAMPLES of them give the rate: 1 ms a Mflop. */
  for (int i = 1; i < NW_PERFMODEL_MIN_RATE_SAMPLES; i++)
    CHECK(nw_perfmodel_record_work(m, "few", "cpu", 1, 10, 1e6, 1e-3) == NW_OK);
  CHECK(nw_perfmodel_predict_work(m, "few", "cpu", 2, 20, 2e6, &t) == NW_PRICE_SCALED &&
        close_rel(t, 2e-3, 1e-9));
  /* One entry without flops makes the table one of bytes again. */
  CHECK(nw_perfmodel_record(m, "conv", "cpu", 50, 5000, 1e-3) == NW_OK);
  CHECK(nw_perfmodel_fits(m, "conv", "cpu", &lin, NULL) == NW_OK && !lin.on_flops);
  CHECK(strcmp(nw_price_source_name(NW_PRICE_SCALED), "scaled") == 0);
  /* How far a table's fit misses its own sizes: nothing for mm's exact law; a kink (the
   * largest size twice as slow a flop as the law of the others) is missed by more than 10%. */
  double x = 0;
  for (size_t t = 0; t < nw_perfmodel_tables(m); t++) {
    const char *k, *a;
    size_t n;
    nw_perfmodel_table(m, t, &k, &a, &n);
    if (!strcmp(k, "mm"))
      CHECK(nw_perfmodel_fit_miss(m, t, &x) < 1e-6);
  }
  nw_perfmodel *kink = model();
  for (uint64_t f = 1u << 20; f <= 1u << 24; f *= 2)
    for (int i = 0; i < 10; i++)
      CHECK(nw_perfmodel_record_work(kink, "k", "cpu", f, 64, (double)f,
                                     (f == 1u << 24 ? 4e-9 : 2e-9) * (double)f) == NW_OK);
  CHECK(nw_perfmodel_fit_miss(kink, 0, &x) > 0.10);
  nw_perfmodel_free(kink);
  nw_perfmodel_free(m);
}

/* ---- The file ---- */

static char dir[64];

static void path_of(char *out, size_t len, const char *name) {
  snprintf(out, len, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_roundtrip(void) {
  nw_perfmodel *m = model(), *back = model();
  record_law(m, "matmul", "gpu", 2e-9, 1.5, 5e-4, 1u << 12, 1u << 24, 12, 0.01, 21);
  record_law(m, "matmul", "cpu4", 3e-9, 1.3, 0, 1u << 10, 1u << 14, 3, 0.05, 22);
  CHECK(nw_perfmodel_record(m, "conv2d", "cpu", 0xffffffffffffffffull, 0, 0.0) == NW_OK);
  CHECK(nw_perfmodel_record(m, "conv2d", "cpu", 0, 1ull << 53, 1e-300) == NW_OK);
  for (int i = 0; i < 10; i++) /* entries with the cost model's flops */
    CHECK(nw_perfmodel_record_work(m, "fft", "cpu", (uint64_t)i % 3, 100 + (uint64_t)i % 3,
                                   1e9 / 3 * (1 + (double)(i % 3)), 1e-3 * (1 + i % 3)) == NW_OK);
  char path[128], tmp[140], why[512] = "";
  path_of(path, sizeof path, "model.json");
  CHECK(nw_perfmodel_save(m, path, "platforms/cluster.xml", why, sizeof why) == NW_OK);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  CHECK(access(path, F_OK) == 0 && access(tmp, F_OK) != 0);
  CHECK(nw_perfmodel_load(back, path, "platforms/cluster.xml", why, sizeof why) == NW_OK);
  /* Means are printed exactly; stddev is rebuilt from M2 = stddev^2 * count. */
  CHECK(same_models(back, m, 1e-13));
  for (size_t t = 0; t < nw_perfmodel_tables(m); t++) {
    const char *k, *a;
    size_t n;
    nw_perfmodel_table(m, t, &k, &a, &n);
    for (size_t i = 0; i < n; i++)
      CHECK(nw_perfmodel_entry(m, t, i).mean == nw_perfmodel_entry(back, t, i).mean &&
            nw_perfmodel_entry(m, t, i).flops == nw_perfmodel_entry(back, t, i).flops);
    nw_perf_fit l1, n1, l2, n2;
    nw_perfmodel_fits(m, k, a, &l1, &n1);
    nw_perfmodel_fits(back, k, a, &l2, &n2);
    CHECK(l1.valid == l2.valid && close_rel(l2.a, l1.a, 1e-9) && close_rel(l2.b, l1.b, 1e-9));
    CHECK(n1.valid == n2.valid && close_rel(n2.a, n1.a, 1e-6) && close_rel(n2.c, n1.c, 1e-6));
  }
  /* Saving again replaces the file; no platform check when none is expected. */
  CHECK(nw_perfmodel_save(back, path, "platforms/cluster.xml", why, sizeof why) == NW_OK);
  nw_perfmodel *again = model();
  CHECK(nw_perfmodel_load(again, path, NULL, why, sizeof why) == NW_OK);
  CHECK(same_models(again, m, 1e-13));
  /* Loading into a model that holds samples adds to them. */
  CHECK(nw_perfmodel_load(again, path, NULL, why, sizeof why) == NW_OK);
  CHECK(nw_perfmodel_samples(again, "conv2d", "cpu", 0) == 2);
  /* A hand-written file: upper-case hex, the informational fits ignored whatever they hold. */
  path_of(path, sizeof path, "hand.json");
  write_text(path, "{\"narwhal-perfmodel\": 1, \"platform\": \"real:h\", \"models\": [{\"kind\": "
                   "\"k\", \"arch\": \"cpu\", \"linear\": \"ignored\", \"nonlinear\": null, "
                   "\"history\": [{\"footprint\": \"00000000000000AB\", \"size\": 10, \"count\": "
                   "4, \"mean\": 1, \"stddev\": 1.7320508}]}]}");
  nw_perfmodel *hand = model();
  CHECK(nw_perfmodel_load(hand, path, "real:h", why, sizeof why) == NW_OK);
  CHECK(nw_perfmodel_samples(hand, "k", "cpu", 0xab) == 4);
  /* A size a JSON number cannot hold exactly is refused, not rounded. */
  nw_perfmodel *huge = model();
  CHECK(nw_perfmodel_record(huge, "k", "cpu", 1, (1ull << 53) + 1, 1.0) == NW_OK);
  path_of(path, sizeof path, "huge.json");
  CHECK(nw_perfmodel_save(huge, path, "p", why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, path) && strstr(why, "above 2^53") && access(path, F_OK) != 0);
  nw_perfmodel_free(huge);
  /* Unwritable: the path's directory does not exist. */
  path_of(path, sizeof path, "no/such/dir/model.json");
  CHECK(nw_perfmodel_save(m, path, "p", why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, path) && strstr(why, "cannot write"));
  printf("unwritable: %s\n", why);
  remove(tmp);
  nw_perfmodel_free(m);
  nw_perfmodel_free(back);
  nw_perfmodel_free(again);
  nw_perfmodel_free(hand);
}

#define HEAD "{\"narwhal-perfmodel\": 1, \"platform\": \"p\", \"models\": "
#define ENTRY_OK                                                                                   \
  "{\"footprint\": \"00000000000000ab\", \"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": "    \
  "0.5}"
/* A file whose table's second entry is E (footprint cd unless E says otherwise). */
#define WITH_ENTRY(E)                                                                              \
  HEAD "[{\"kind\": \"k\", \"arch\": \"cpu\", \"history\": [" ENTRY_OK ", " E "]}]}"
#define ENTRY(FIELDS) "{\"footprint\": \"00000000000000cd\", " FIELDS "}"
#define WITH_TABLE(T) HEAD "[" T "]}"
#define K64 "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"

typedef struct bad_file {
  const char *text; /* NULL: no file at all */
  const char *expect;
} bad_file;

static const bad_file bad_files[] = {
    {NULL, "cannot read it: No such file"},
    {"{\"narwhal-perfmodel\": 1,", "not JSON"},
    {"[1, 2]", "expected a JSON object"},
    {"{\"platform\": \"p\", \"models\": []}", "no \"narwhal-perfmodel\" version key"},
    {"{\"narwhal-perfmodel\": \"1\", \"platform\": \"p\", \"models\": []}",
     "\"narwhal-perfmodel\" must be the version number 1"},
    {"{\"narwhal-perfmodel\": 2, \"platform\": \"p\", \"models\": []}",
     "format version 2, this narwhal reads version 1"},
    {"{\"narwhal-perfmodel\": 1, \"models\": []}", "missing field 'platform'"},
    {"{\"narwhal-perfmodel\": 1, \"platform\": 5, \"models\": []}",
     "field 'platform' must be a string"},
    {"{\"narwhal-perfmodel\": 1, \"platform\": \"p\", \"machine\": \"hostA\", \"models\": []}",
     "field 'machine' must be a string \"real:HOSTNAME\""},
    {"{\"narwhal-perfmodel\": 1, \"platform\": \"q\", \"machine\": \"real:a\", \"models\": []}",
     "measured on platform q and machine real:a, this run uses p"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": 0, \"flops\": -2")),
     "field 'flops' is negative"},
    {"{\"narwhal-perfmodel\": 1, \"platform\": \"other.xml\", \"models\": []}",
     "measured on platform other.xml, this run uses p"},
    {"{\"narwhal-perfmodel\": 1, \"platform\": \"p\"}", "missing field 'models'"},
    {HEAD "{}}", "field 'models' must be an array"},
    {"{\"narwhal-perfmodel\": 1, \"platform\": \"p\", \"models\": [], \"extra\": 1}",
     "unknown field 'extra'"},
    {WITH_TABLE("3"), "models[0]: must be an object"},
    {WITH_TABLE("{\"arch\": \"cpu\", \"history\": []}"), "models[0]: missing field 'kind'"},
    {WITH_TABLE("{\"kind\": \"" K64 "\", \"arch\": \"cpu\", \"history\": []}"),
     "models[0]: field 'kind' must be a string of 1 to 63 bytes"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": \"aaaaaaaaaaaaaaaa\", \"history\": []}"),
     "models[0]: field 'arch' must be a string of 1 to 15 bytes"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": 4, \"history\": []}"),
     "models[0]: field 'arch' must be a string"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": \"cpu\", \"history\": []}, {\"kind\": \"k\", "
                "\"arch\": \"cpu\", \"history\": []}"),
     "models[1]: kind 'k' arch 'cpu' is models[0] already"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": \"cpu\"}"), "models[0]: missing field 'history'"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": \"cpu\", \"history\": {}}"),
     "models[0]: field 'history' must be an array"},
    {WITH_TABLE("{\"kind\": \"k\", \"arch\": \"cpu\", \"history\": [], \"hist\": []}"),
     "models[0]: unknown field 'hist'"},
    {WITH_ENTRY("7"), "models[0] (k/cpu) history[1]: must be an object"},
    {WITH_ENTRY("{\"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": 0.5}"),
     "models[0] (k/cpu) history[1]: missing field 'footprint'"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"stddev\": 0.5")),
     "models[0] (k/cpu) history[1]: missing field 'mean'"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": \"1\", \"stddev\": 0.5")),
     "history[1]: field 'mean' must be a number"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": -1, \"stddev\": 0.5")),
     "history[1]: field 'mean' is negative"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1e999, \"stddev\": 0.5")),
     "history[1]: field 'mean' is not finite"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 0, \"mean\": 1, \"stddev\": 0")),
     "history[1]: field 'count' is 0: an entry holds at least one sample"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 2.5, \"mean\": 1, \"stddev\": 0")),
     "history[1]: field 'count' is 2.5: must be a whole number from 1 to 2^53"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": -3, \"mean\": 1, \"stddev\": 0")),
     "history[1]: field 'count' is -3: must be a whole number from 1"},
    {WITH_ENTRY(ENTRY("\"size\": -1, \"count\": 3, \"mean\": 1, \"stddev\": 0")),
     "history[1]: field 'size' is -1: must be a whole number from 0"},
    {WITH_ENTRY(ENTRY("\"size\": 1e300, \"count\": 3, \"mean\": 1, \"stddev\": 0")),
     "history[1]: field 'size' is 1e+300: must be a whole number from 0 to 2^53"},
    {WITH_ENTRY(ENTRY("\"count\": 3, \"mean\": 1, \"stddev\": 0")),
     "history[1]: missing field 'size'"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": -0.5")),
     "history[1]: field 'stddev' is negative"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 1, \"mean\": 1, \"stddev\": 0.1")),
     "history[1]: field 'stddev' is 0.1: 1 non-negative durations of mean 1 have a stddev of at "
     "most 0"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 4, \"mean\": 1, \"stddev\": 2")),
     "history[1]: field 'stddev' is 2: 4 non-negative durations of mean 1 have a stddev of at "
     "most 1.73205"},
    {WITH_ENTRY(ENTRY_OK), "history[1]: footprint 00000000000000ab appears twice in this table"},
    {WITH_ENTRY("{\"footprint\": 205, \"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": 0}"),
     "history[1]: field 'footprint' must be a string of 16 hex digits"},
    {WITH_ENTRY("{\"footprint\": \"00000000000000xy\", \"size\": 10, \"count\": 3, \"mean\": 1, "
                "\"stddev\": 0}"),
     "history[1]: field 'footprint' must be a string of 16 hex digits"},
    {WITH_ENTRY("{\"footprint\": \"000000000000000cd\", \"size\": 10, \"count\": 3, \"mean\": 1, "
                "\"stddev\": 0}"),
     "history[1]: field 'footprint' must be a string of 16 hex digits"},
    {WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1, \"stdev\": 0")),
     "history[1]: unknown field 'stdev'"},
};

/* One file for the simulator of a calibrated platform and for real runs on the machine it was
 * measured on: either label is accepted, any other refused; a load gives both back. */
static void test_labels(void) {
  nw_perfmodel *m = model();
  CHECK(nw_perfmodel_record(m, "k", "cpu", 1, 8, 1e-3) == NW_OK);
  char path[128], why[512] = "";
  path_of(path, sizeof path, "labels.json");
  nw_perfmodel_labels l = {"cal.xml", "real:hostA"}, got;
  CHECK(nw_perfmodel_save_labelled(m, path, &l, why, sizeof why) == NW_OK);
  const char *accept[] = {"cal.xml", "real:hostA", NULL};
  for (int i = 0; i < 3; i++) {
    nw_perfmodel *back = model();
    memset(&got, 0, sizeof got);
    CHECK(nw_perfmodel_load_labelled(back, path, accept[i], &got, why, sizeof why) == NW_OK);
    CHECK(strcmp(got.platform, "cal.xml") == 0 && strcmp(got.machine, "real:hostA") == 0);
    CHECK(nw_perfmodel_samples(back, "k", "cpu", 1) == 1);
    nw_perfmodel_free(back);
  }
  nw_perfmodel *back = model();
  CHECK(
      nw_perfmodel_load(back, path, "real:hostB", why, sizeof why) == NW_ERR_ARG &&
      strstr(why, "measured on platform cal.xml and machine real:hostA, this run uses real:hostB"));
  /* Saved under the labels a load gave, a file keeps both. */
  CHECK(nw_perfmodel_save_labelled(m, path, &got, why, sizeof why) == NW_OK);
  CHECK(nw_perfmodel_load(back, path, "real:hostA", why, sizeof why) == NW_OK);
  nw_perfmodel_free(back);
  nw_perfmodel_free(m);
  remove(path);
}

static void test_bad_files(void) {
  char path[128], why[512];
  int n = (int)(sizeof bad_files / sizeof bad_files[0]);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "bad%02d.json", i);
    path_of(path, sizeof path, name);
    if (bad_files[i].text)
      write_text(path, bad_files[i].text);
    nw_perfmodel *m = model();
    why[0] = '\0';
    nw_status st = nw_perfmodel_load(m, path, "p", why, sizeof why);
    int ok = st == NW_ERR_ARG && strstr(why, path) && strstr(why, bad_files[i].expect) &&
             !strchr(why, '\n') && nw_perfmodel_tables(m) == 0;
    CHECK(ok);
    if (!ok)
      fprintf(stderr, "  bad file %d: status %d, why \"%s\", expected \"%s\"\n", i, (int)st, why,
              bad_files[i].expect);
    nw_perfmodel_free(m);
    remove(path);
  }
  /* A refused file leaves a model that held samples exactly as it was; so does a good file
   * whose footprint has another size in that model. */
  nw_perfmodel *m = model();
  CHECK(nw_perfmodel_record(m, "k", "cpu", 0xab, 99, 1.0) == NW_OK);
  path_of(path, sizeof path, "late.json");
  write_text(path, WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": -1")));
  CHECK(nw_perfmodel_load(m, path, "p", why, sizeof why) == NW_ERR_ARG);
  CHECK(nw_perfmodel_tables(m) == 1 && nw_perfmodel_samples(m, "k", "cpu", 0xab) == 1 &&
        nw_perfmodel_samples(m, "k", "cpu", 0xcd) == 0);
  write_text(path, WITH_ENTRY(ENTRY("\"size\": 10, \"count\": 3, \"mean\": 1, \"stddev\": 0")));
  CHECK(nw_perfmodel_load(m, path, "p", why, sizeof why) == NW_ERR_ARG);
  CHECK(strstr(why, path) && strstr(why, "another size"));
  CHECK(nw_perfmodel_tables(m) == 1 && nw_perfmodel_samples(m, "k", "cpu", 0xab) == 1 &&
        nw_perfmodel_samples(m, "k", "cpu", 0xcd) == 0);
  printf("refused: %s\n", why);
  remove(path);
  nw_perfmodel_free(m);
}

int main(void) {
  test_arguments();
  test_footprint();
  test_history();
  test_merge();
  test_linear();
  test_nonlinear();
  test_predict();
  test_nonlinear_few_sizes();
  test_outliers();
  test_flops();
  snprintf(dir, sizeof dir, "/tmp/nw_perfmodel_XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_roundtrip();
  test_labels();
  test_bad_files();
  char path[128];
  const char *left[] = {"model.json", "hand.json"};
  for (int i = 0; i < 2; i++) {
    path_of(path, sizeof path, left[i]);
    remove(path);
  }
  CHECK(rmdir(dir) == 0);
  return check_report("perfmodel");
}
