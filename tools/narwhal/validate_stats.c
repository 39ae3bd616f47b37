/* validate_stats.c: see validate_stats.h. */
#include "validate_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* A sorted copy of v (NULL when out of memory). */
static double *sorted(const double *v, int n) {
  double *s = malloc((size_t)n * sizeof *s);
  if (!s)
    return NULL;
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  return s;
}

double vs_median(const double *v, int n) {
  double *s = sorted(v, n);
  if (!s)
    return NAN;
  double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  free(s);
  return m;
}

double vs_quantile(const double *v, int n, double p) {
  double *s = sorted(v, n);
  if (!s)
    return NAN;
  int k = (int)ceil(p * n - 1e-9); /* 1-based rank; the epsilon keeps 0.95 x 20 at 19 */
  k = k < 1 ? 1 : k > n ? n : k;
  double q = s[k - 1];
  free(s);
  return q;
}

static int sign(double x) {
  return (x > 0) - (x < 0);
}

double vs_kendall_tau(const double *a, const double *b, int n) {
  double concordant = 0, discordant = 0, untied_a = 0, untied_b = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      int sa = sign(a[i] - a[j]), sb = sign(b[i] - b[j]);
      untied_a += sa != 0;
      untied_b += sb != 0;
      if (sa && sb) {
        concordant += sa == sb;
        discordant += sa != sb;
      }
    }
  if (untied_a == 0 || untied_b == 0)
    return 0;
  return (concordant - discordant) / sqrt(untied_a * untied_b);
}

void vs_pairs(const double *real, const double *spread, const double *sim, int n, int *decided,
              int *agree) {
  *decided = *agree = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = real[i] - real[j];
      if (!(fabs(d) > spread[i] && fabs(d) > spread[j]))
        continue;
      (*decided)++;
      *agree += sign(sim[i] - sim[j]) == sign(d);
    }
}

int vs_argmin(const double *v, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (v[i] < v[best])
      best = i;
  return best;
}
