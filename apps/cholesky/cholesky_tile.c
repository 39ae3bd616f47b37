/* cholesky_tile.c: the four tile operations on host memory (LAPACKE and CBLAS from OpenBLAS),
 * shared by the CPU kernels and the modelled GPU's host emulation, which differ only in the
 * leading dimension a view gives them.
 *
 * Tiles are row-major and hold the lower triangle. Row-major lower is column-major upper, so
 * the factorisation calls LAPACK's column-major spotrf on the upper triangle: the same bytes,
 * without the transposed copy LAPACKE makes for a row-major call. The _work entry skips
 * LAPACKE's scan of the input for NaNs, which would only cost time here.
 */
#include <cblas.h>
#include <lapacke.h>

#include "cholesky.h"

int chol_tile_potrf(int b, float *a, int ld) {
  return (int)LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', b, a, ld);
}

void chol_tile_trsm(int b, const float *l, int ldl, float *a, int lda) {
  cblas_strsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, b, b, 1.0f, l, ldl,
              a, lda);
}

void chol_tile_syrk(int b, const float *l, int ldl, float *a, int lda) {
  cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, b, b, -1.0f, l, ldl, 1.0f, a, lda);
}

void chol_tile_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, b, b, b, -1.0f, li, ldi, lj, ldj, 1.0f, a,
              lda);
}
