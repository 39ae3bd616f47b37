/* fft2d_ref.c: see fft2d_ref.h. */
#include <math.h>
#include <stdlib.h>

#include "../common/inputs.h"
#include "fft2d.h"
#include "fft2d_ref.h"

void fft2d_fill_input(float *x, uint64_t n, uint64_t seed) {
  uint64_t s = nw_app_splitmix64(seed);
  for (uint64_t i = 0; i < 2 * n * n; i++)
    x[i] = 2.0f * nw_app_unit24(nw_app_splitmix64(s + i)) - 1.0f;
}

int fft2d_reference(const float *x, float *z, uint64_t n, uint64_t b) {
  float *y = malloc(n * n * FFT2D_ELEM);
  if (!y)
    return -1;
  int in = (int)n, ib = (int)b;
  for (uint64_t s = 0; s < n / b; s++)
    fft2d_rows(in, ib, x + 2 * s * b * n, in, y + 2 * s * b * n, in);
  for (uint64_t s = 0; s < n / b; s++)
    fft2d_cols(in, ib, y + 2 * s * b, in, z + 2 * s * b, in);
  free(y);
  return 0;
}

double fft2d_rel_error(const float *got, const float *ref, uint64_t n) {
  double worst = 0.0, scale = 0.0;
  for (uint64_t e = 0; e < n * n; e++) {
    double dr = (double)got[2 * e] - (double)ref[2 * e];
    double di = (double)got[2 * e + 1] - (double)ref[2 * e + 1];
    double d = sqrt(dr * dr + di * di), m = hypot((double)ref[2 * e], (double)ref[2 * e + 1]);
    /* A NaN in got must fail the comparison, not vanish in a max. */
    worst = d > worst || d != d ? d : worst;
    scale = m > scale ? m : scale;
  }
  return scale > 0.0 ? worst / scale : worst;
}
