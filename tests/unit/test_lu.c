/* test_lu.c: the LU app's reference (apps/lu/lu_ref.c) is a factorisation: L U gives back
 * the input within float rounding, for several block sizes (one block, blocks of 1 row, ...),
 * and the block operations it shares with the kernels (lu_block.c) do what they say. The
 * distributed runs are compared with this reference bit for bit (tests/sim, tests/real). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lu/lu.h"
#include "lu/lu_ref.h"

/* The rule for factors rounded otherwise (CUDA kernels): one L entry, (1, 3), of the 256 x 256
 * factors of seed 1 (blocks of 32, as `narwhal run --app lu --n 256 --block 32`) scaled by
 * 1 + x. Prints the residuals (the table in docs/experiments/h100.md); returns the verdict. */
static int rounded_accepted(double x) {
  const uint64_t n = 256;
  float *a = malloc(n * n * sizeof *a), *ref = malloc(n * n * sizeof *ref),
        *lu = malloc(n * n * sizeof *lu);
  int ok = -1;
  if (a && ref && lu) {
    lu_fill_input(a, n, 1);
    memcpy(ref, a, n * n * sizeof *a);
    if (lu_reference(ref, n, 32) == 0) {
      memcpy(lu, ref, n * n * sizeof *a);
      lu[n + 3] *= (float)(1.0 + x);
      double mine, theirs, bound;
      ok = lu_accept_rounded(a, lu, ref, n, &mine, &theirs, &bound);
      printf("entry (1, 3) x (1 + %g): residual %.3g, the reference's %.3g, bound %.3g: %s\n", x,
             mine, theirs, bound, ok ? "accepted" : "rejected");
    }
  }
  free(a);
  free(ref);
  free(lu);
  return ok;
}

/* Factorises the input of `seed` with blocks of b; the residual of L U against it. */
static double residual(uint64_t n, uint64_t b, uint64_t seed) {
  float *a = malloc(n * n * sizeof *a), *lu = malloc(n * n * sizeof *lu);
  double r = 1.0;
  if (a && lu) {
    lu_fill_input(a, n, seed);
    memcpy(lu, a, n * n * sizeof *a);
    if (lu_reference(lu, n, b) == 0)
      r = lu_residual(a, lu, n);
  }
  free(a);
  free(lu);
  return r;
}

int main(void) {
  /* Float epsilon is 6e-8; n of them, with little growth thanks to the diagonal dominance. */
  CHECK(residual(256, 32, 1) < 1e-5);
  CHECK(residual(256, 256, 2) < 1e-5); /* one diagonal block: the unblocked loop alone */
  CHECK(residual(192, 64, 3) < 1e-5);
  CHECK(residual(64, 1, 4) < 1e-5); /* 1 x 1 blocks: BLAS on scalars */

  /* The input: strictly diagonally dominant, reproducible from the seed, seeds differ. */
  uint64_t n = 128;
  float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
  CHECK(a && b);
  if (a && b) {
    lu_fill_input(a, n, 7);
    lu_fill_input(b, n, 7);
    CHECK(memcmp(a, b, n * n * sizeof *a) == 0);
    lu_fill_input(b, n, 8);
    CHECK(memcmp(a, b, n * n * sizeof *a) != 0);
    int dominant = 1;
    for (uint64_t i = 0; i < n; i++) {
      double off = 0.0;
      for (uint64_t j = 0; j < n; j++)
        off += i == j ? 0.0 : (a[i * n + j] < 0 ? -a[i * n + j] : a[i * n + j]);
      dominant &= a[i * n + i] > off;
    }
    CHECK(dominant);

    /* A wrong factorisation shows: one changed entry of the factors. */
    memcpy(b, a, n * n * sizeof *a);
    CHECK(lu_reference(b, n, 32) == 0);
    CHECK(lu_residual(a, b, n) < 1e-5);
    CHECK(lu_residual_probed(a, b, n, LU_PROBES) < 1e-5);
    b[5 * n + 70] += 0.1f; /* a U entry: (L U)_{5,70} moves by 0.1 */
    CHECK(lu_residual(a, b, n) > 1e-4);
    CHECK(lu_residual_probed(a, b, n, LU_PROBES) > 1e-4); /* seen by the O(n^2) probes too */
    b[5 * n + 70] -= 0.1f;
    b[100 * n + 3] += 0.1f; /* an L entry, far from the first */
    CHECK(lu_residual_probed(a, b, n, LU_PROBES) > 1e-4);
  }
  free(a);
  free(b);

  /* The panel operations on one block: L^-1 (L X) = X and (X U) U^-1 = X, near enough. */
  float d[16] = {1, 2, 3, 4, 0.5f, 1, 2, 3, 0.25f, 0.5f, 1, 2, 0.125f, 0.25f, 0.5f, 1};
  float x[16], lx[16], r[16];
  for (int i = 0; i < 16; i++)
    x[i] = (float)(i % 5) - 2.0f;
  for (int i = 0; i < 4; i++) /* lx = L x, L unit lower from d */
    for (int j = 0; j < 4; j++) {
      float s = x[i * 4 + j];
      for (int p = 0; p < i; p++)
        s += d[i * 4 + p] * x[p * 4 + j];
      lx[i * 4 + j] = s;
    }
  lu_row_op(4, lx, 4, d, r);
  int near = 1;
  for (int i = 0; i < 16; i++)
    near &= r[i] - x[i] < 1e-5f && x[i] - r[i] < 1e-5f && lx[i] == r[i];
  CHECK(near); /* the result goes both to the packed buffer and back to the matrix */
  /* Rounding-sized changes pass the rule for CUDA-computed factors; a changed entry of a tenth of
   * its size does not. */
  CHECK(rounded_accepted(0) == 1);
  CHECK(rounded_accepted(1e-6) == 1);
  CHECK(rounded_accepted(1e-3) == 1);
  CHECK(rounded_accepted(1e-2) == 1);
  CHECK(rounded_accepted(1e-1) == 0);
  CHECK(rounded_accepted(1) == 0);
  return check_report("lu");
}
