/* test_fft2d.c: the 2D FFT app's reference (apps/fft2d/fft2d_ref.c), which the distributed runs
 * are checked against (tests/sim, tests/real), is the forward 2D DFT: equal within 1e-4 (relative
 * to the largest element) to a direct DFT in double precision, for several block sizes and a
 * side that is no power of two; an impulse at the origin gives all ones, one elsewhere a pure
 * phase; the input is reproducible from its seed; and the error measure sees a wrong element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fft2d/fft2d_ref.h"

/* C11 has no M_PI. */
static const double pi = 3.14159265358979323846;

/* The forward 2D DFT of x in double, separably (rows, then columns): O(n^3), and exact but for
 * double rounding, far below float's. sum_k x_k e^{-2 pi i j k / n} along each dimension. */
static void dft2d(const float *x, double *z, uint64_t n) {
  double *y = malloc(2 * n * n * sizeof *y);
  for (int pass = 0; pass < 2 && y; pass++) {
    /* Pass 0 along rows, x -> y; pass 1 along columns, y -> z. */
    uint64_t along = pass == 0 ? 1 : n, across = pass == 0 ? n : 1;
    double *to = pass == 0 ? y : z;
    for (uint64_t line = 0; line < n; line++)
      for (uint64_t j = 0; j < n; j++) {
        double re = 0.0, im = 0.0;
        for (uint64_t k = 0; k < n; k++) {
          uint64_t at = line * across + k * along;
          double a = pass == 0 ? (double)x[2 * at] : y[2 * at];
          double b = pass == 0 ? (double)x[2 * at + 1] : y[2 * at + 1];
          double t = -2.0 * pi * (double)((j * k) % n) / (double)n;
          re += a * cos(t) - b * sin(t);
          im += a * sin(t) + b * cos(t);
        }
        to[2 * (line * across + j * along)] = re;
        to[2 * (line * across + j * along) + 1] = im;
      }
  }
  free(y);
}

/* max |reference - direct| / max |direct| for the input of `seed`, with blocks of b. */
static double error_vs_direct(uint64_t n, uint64_t b, uint64_t seed) {
  float *x = malloc(n * n * 8), *z = malloc(n * n * 8);
  double *d = malloc(2 * n * n * sizeof *d), worst = 1.0, scale = 0.0;
  if (x && z && d) {
    fft2d_fill_input(x, n, seed);
    if (fft2d_reference(x, z, n, b) == 0) {
      dft2d(x, d, n);
      worst = 0.0;
      for (uint64_t e = 0; e < n * n; e++) {
        double diff = hypot((double)z[2 * e] - d[2 * e], (double)z[2 * e + 1] - d[2 * e + 1]);
        worst = diff > worst || diff != diff ? diff : worst;
        scale = fmax(scale, hypot(d[2 * e], d[2 * e + 1]));
      }
      worst = scale > 0.0 ? worst / scale : worst;
    }
  }
  free(x);
  free(z);
  free(d);
  return worst;
}

/* The transform of a unit impulse at (r, c): |Z| = 1 everywhere, and all ones at the origin.
 * Returns max over elements of | Z - e^{-2 pi i (r j + c k) / n} |. */
static double impulse_error(uint64_t n, uint64_t b, uint64_t r, uint64_t c) {
  float *x = calloc(2 * n * n, sizeof *x), *z = malloc(n * n * 8);
  double worst = 1.0;
  if (x && z) {
    x[2 * (r * n + c)] = 1.0f;
    if (fft2d_reference(x, z, n, b) == 0) {
      worst = 0.0;
      for (uint64_t j = 0; j < n; j++)
        for (uint64_t k = 0; k < n; k++) {
          double t = -2.0 * pi * (double)((r * j + c * k) % n) / (double)n;
          double diff =
              hypot((double)z[2 * (j * n + k)] - cos(t), (double)z[2 * (j * n + k) + 1] - sin(t));
          worst = diff > worst || diff != diff ? diff : worst;
        }
    }
  }
  free(x);
  free(z);
  return worst;
}

int main(void) {
  /* Float epsilon is 6e-8, times about log2 n per pass: 1e-4 is far above rounding and far
   * below any wrong twiddle or misplaced stripe. */
  CHECK(error_vs_direct(16, 4, 1) < 1e-4);
  CHECK(error_vs_direct(16, 16, 2) < 1e-4); /* one block: each pass a single subtask */
  CHECK(error_vs_direct(32, 8, 3) < 1e-4);
  CHECK(error_vs_direct(32, 1, 4) < 1e-4); /* one row, then one column, per subtask */
  CHECK(error_vs_direct(24, 8, 5) < 1e-4); /* no power of two: FFTW's mixed radix */

  CHECK(impulse_error(16, 4, 0, 0) == 0.0); /* ones exactly: every product is by 1 or 0 */
  CHECK(impulse_error(32, 8, 0, 0) == 0.0);
  CHECK(impulse_error(32, 8, 3, 5) < 1e-5);

  /* The input: reproducible from the seed, seeds differ, values in [-1, 1). */
  uint64_t n = 64;
  float *a = malloc(n * n * 8), *b = malloc(n * n * 8), *za = malloc(n * n * 8),
        *zb = malloc(n * n * 8);
  CHECK(a && b && za && zb);
  if (a && b && za && zb) {
    fft2d_fill_input(a, n, 7);
    fft2d_fill_input(b, n, 7);
    CHECK(memcmp(a, b, n * n * 8) == 0);
    fft2d_fill_input(b, n, 8);
    CHECK(memcmp(a, b, n * n * 8) != 0);
    int in_range = 1;
    for (uint64_t i = 0; i < 2 * n * n; i++)
      in_range &= a[i] >= -1.0f && a[i] < 1.0f;
    CHECK(in_range);

    /* The blocking does not change the result here: the same plans on the same layout. */
    CHECK(fft2d_reference(a, za, n, 8) == 0);
    CHECK(fft2d_reference(a, zb, n, 16) == 0);
    CHECK(fft2d_rel_error(zb, za, n) < 1e-6);
    CHECK(fft2d_rel_error(za, za, n) == 0.0);
    /* A wrong element shows, and so does a NaN. */
    memcpy(zb, za, n * n * 8);
    zb[2 * 100] += 1.0f;
    CHECK(fft2d_rel_error(zb, za, n) > 1e-3);
    zb[2 * 100] = NAN;
    CHECK(!(fft2d_rel_error(zb, za, n) <= 1e-5));
  }
  free(a);
  free(b);
  free(za);
  free(zb);
  return check_report("fft2d");
}
