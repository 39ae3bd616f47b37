/* cholesky_tile.c: the tile operations on host memory (LAPACKE and CBLAS from OpenBLAS), the
 * Cholesky's four and the LU variant's four, shared by the CPU kernels and the modelled GPU's
 * host emulation, which differ only in the leading dimension a view gives them.
 *
 * Tiles are row-major; the Cholesky's hold the lower triangle. Row-major lower is column-major
 * upper, so the factorisation calls LAPACK's column-major spotrf on the upper triangle: the
 * same bytes, without the transposed copy LAPACKE makes for a row-major call. The _work entry
 * skips LAPACKE's scan of the input for NaNs, which would only cost time here.
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

/* Right-looking and unblocked, as LAPACK has no LU without pivoting. Crout's form: column p of
 * L is what is left of column p, row p of U what is left of row p divided by the pivot. */
int chol_tile_getrf(int b, float *a, int ld) {
  size_t l = (size_t)ld;
  for (int p = 0; p < b; p++) {
    float *prow = a + (size_t)p * l, pivot = prow[p];
    if (pivot == 0.0f)
      return p + 1;
    for (int j = p + 1; j < b; j++)
      prow[j] /= pivot;
    for (int i = p + 1; i < b; i++) {
      float *row = a + (size_t)i * l, lip = row[p];
      for (int j = p + 1; j < b; j++)
        row[j] -= lip * prow[j];
    }
  }
  return 0;
}

void chol_tile_trsm_row(int b, const float *d, int ldd, float *a, int lda) {
  cblas_strsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, b, b, 1.0f, d, ldd,
              a, lda);
}

void chol_tile_trsm_col(int b, const float *d, int ldd, float *a, int lda) {
  cblas_strsm(CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasUnit, b, b, 1.0f, d, ldd, a,
              lda);
}

void chol_tile_lu_gemm(int b, const float *l, int ldl, const float *u, int ldu, float *a, int lda) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, b, b, b, -1.0f, l, ldl, u, ldu, 1.0f, a,
              lda);
}
