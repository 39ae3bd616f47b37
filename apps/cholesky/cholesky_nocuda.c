/* cholesky_nocuda.c: the Cholesky's (and its LU variant's) GPU operations in a build without CUDA.
 * Nothing calls them there (the real backend only drives GPUs when built with CUDA, and the
 * simulator runs the host emulations); a call is a bug, reported instead of computing nothing. A
 * CUDA build links cholesky_cuda.c into the program itself, so the linker never takes this file
 * from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "cholesky.h"

static void no_cuda(void) {
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}

void nw_chol_cuda_init(void) {}

void nw_chol_cuda_potrf(int b, float *a, int ld, void *stream) {
  (void)b, (void)a, (void)ld, (void)stream;
  no_cuda();
}

void nw_chol_cuda_trsm(int b, const float *l, int ldl, float *a, int lda, void *stream) {
  (void)b, (void)l, (void)ldl, (void)a, (void)lda, (void)stream;
  no_cuda();
}

void nw_chol_cuda_syrk(int b, const float *l, int ldl, float *a, int lda, void *stream) {
  (void)b, (void)l, (void)ldl, (void)a, (void)lda, (void)stream;
  no_cuda();
}

void nw_chol_cuda_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda,
                       void *stream) {
  (void)b, (void)li, (void)ldi, (void)lj, (void)ldj, (void)a, (void)lda, (void)stream;
  no_cuda();
}

void nw_chol_cuda_getrf(int b, float *a, int ld, void *stream) {
  (void)b, (void)a, (void)ld, (void)stream;
  no_cuda();
}

void nw_chol_cuda_trsm_row(int b, const float *d, int ldd, float *a, int lda, void *stream) {
  (void)b, (void)d, (void)ldd, (void)a, (void)lda, (void)stream;
  no_cuda();
}

void nw_chol_cuda_trsm_col(int b, const float *d, int ldd, float *a, int lda, void *stream) {
  (void)b, (void)d, (void)ldd, (void)a, (void)lda, (void)stream;
  no_cuda();
}

void nw_chol_cuda_lu_gemm(int b, const float *l, int ldl, const float *u, int ldu, float *a,
                          int lda, void *stream) {
  (void)b, (void)l, (void)ldl, (void)u, (void)ldu, (void)a, (void)lda, (void)stream;
  no_cuda();
}
