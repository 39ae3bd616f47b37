/* cholesky_cuda.c: the Cholesky's tile operations on a CUDA GPU, cuSOLVER's potrf and cuBLAS's
 * trsm, syrk and gemm, as StarPU's Cholesky example offloads them; and the LU variant's,
 * cuSOLVER's getrf without pivoting and cuBLAS's trsm and gemm.
 *
 * The libraries are column-major, and a row-major tile read column-major is its transpose: the
 * lower factor L is stored as the upper triangle of L^T. So POTRF factorises the upper
 * triangle (A = U^T U, U = L^T); TRSM's A L^-T is, transposed, L^-1 A^T: a solve from the left
 * with op(U) = U^T = L; SYRK's lower-triangle A - X X^T is the upper triangle of A - op(X^T)
 * op(X^T)^T with op the transpose; GEMM's A - Li Lj^T is, transposed, A^T - Lj Li^T, that is
 * op(Lj^T) (Li^T) with op the transpose on the first operand.
 *
 * For the LU variant the transpose is why the host's factors are Crout's (cholesky.h): the
 * library's LU of A^T, a unit lower L' times an upper U', is A = U'^T L'^T, a lower factor U'^T
 * times a unit upper one L'^T, stored where the host stores its L and U. The row TRSM's L^-1 X
 * is, transposed, X^T L^-T: from the right with the upper L^T; the column TRSM's X U^-1 is
 * U^-T X^T: from the left with the unit lower U^T; GEMM's C - A B is C^T - B^T A^T.
 *
 * Each thread that calls these (one per GPU stream in the real backend) keeps its own handles.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>
#include <stdlib.h>

#include "cholesky.h"

static _Thread_local cublasHandle_t blas;
static _Thread_local cusolverDnHandle_t solver;

void nw_chol_cuda_init(void) {
  if (!blas && cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuBLAS cannot start on this GPU\n");
    exit(1);
  }
  if (!solver && cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuSOLVER cannot start on this GPU\n");
    exit(1);
  }
}

/* A kernel has no status to return: a library or CUDA failure ends the process, naming it. */
static void check(const char *what, int lib_status, cudaError_t err) {
  if (lib_status != 0 || err != cudaSuccess) {
    fprintf(stderr, "narwhal: cholesky: %s failed (library status %d, %s)\n", what, lib_status,
            cudaGetErrorString(err));
    exit(1);
  }
}

/* The workspace and the info word are taken and given back on the stream itself. getrf with
 * pivots NULL pivots nothing. */
static void factorise(int lu, int b, float *a, int ld, cudaStream_t s) {
  nw_chol_cuda_init();
  cusolverStatus_t st = cusolverDnSetStream(solver, s);
  int lwork = 0, info = 0;
  if (st == CUSOLVER_STATUS_SUCCESS)
    st = lu ? cusolverDnSgetrf_bufferSize(solver, b, b, a, ld, &lwork)
            : cusolverDnSpotrf_bufferSize(solver, CUBLAS_FILL_MODE_UPPER, b, a, ld, &lwork);
  float *work = NULL;
  cudaError_t err = cudaSuccess;
  if (st == CUSOLVER_STATUS_SUCCESS)
    err = cudaMallocAsync((void **)&work, ((size_t)lwork + 1) * sizeof *work, s);
  int *dev_info = work ? (int *)(work + lwork) : NULL; /* one float's room after the workspace */
  if (st == CUSOLVER_STATUS_SUCCESS && err == cudaSuccess)
    st = lu ? cusolverDnSgetrf(solver, b, b, a, ld, work, NULL, dev_info)
            : cusolverDnSpotrf(solver, CUBLAS_FILL_MODE_UPPER, b, a, ld, work, lwork, dev_info);
  if (st == CUSOLVER_STATUS_SUCCESS && err == cudaSuccess)
    err = cudaMemcpyAsync(&info, dev_info, sizeof info, cudaMemcpyDeviceToHost, s);
  if (work)
    cudaFreeAsync(work, s);
  check(lu ? "cusolverDnSgetrf" : "cusolverDnSpotrf", (int)st,
        err != cudaSuccess ? err : cudaStreamSynchronize(s));
  if (info != 0) /* as the CPU kernels: said here, failed by the check after the run */
    fprintf(stderr, "narwhal: cholesky: %s (info %d)\n",
            lu ? "lu: a diagonal tile has a zero pivot"
               : "a diagonal tile is not positive definite",
            info);
}

void nw_chol_cuda_potrf(int b, float *a, int ld, void *stream) {
  factorise(0, b, a, ld, (cudaStream_t)stream);
}

void nw_chol_cuda_getrf(int b, float *a, int ld, void *stream) {
  factorise(1, b, a, ld, (cudaStream_t)stream);
}

/* cublasStrsm with the diagonal tile d: side, triangle, op and diagonal as cuBLAS names them. */
static void trsm(const char *what, cublasSideMode_t side, cublasFillMode_t fill,
                 cublasOperation_t op, cublasDiagType_t diag, int b, const float *d, int ldd,
                 float *a, int lda, void *stream) {
  nw_chol_cuda_init();
  const float one = 1.0f;
  cublasStatus_t st = cublasSetStream(blas, (cudaStream_t)stream);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasStrsm(blas, side, fill, op, diag, b, b, &one, d, ldd, a, lda);
  check(what, (int)st, cudaStreamSynchronize((cudaStream_t)stream));
}

/* a -= op(x) y, cublasSgemm's C := -op(A) B + C. */
static void gemm(const char *what, cublasOperation_t op, int b, const float *x, int ldx,
                 const float *y, int ldy, float *a, int lda, void *stream) {
  nw_chol_cuda_init();
  const float minus_one = -1.0f, one = 1.0f;
  cublasStatus_t st = cublasSetStream(blas, (cudaStream_t)stream);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasSgemm(blas, op, CUBLAS_OP_N, b, b, b, &minus_one, x, ldx, y, ldy, &one, a, lda);
  check(what, (int)st, cudaStreamSynchronize((cudaStream_t)stream));
}

void nw_chol_cuda_trsm(int b, const float *l, int ldl, float *a, int lda, void *stream) {
  trsm("cublasStrsm", CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
       b, l, ldl, a, lda, stream);
}

void nw_chol_cuda_syrk(int b, const float *l, int ldl, float *a, int lda, void *stream) {
  nw_chol_cuda_init();
  const float minus_one = -1.0f, one = 1.0f;
  cublasStatus_t st = cublasSetStream(blas, (cudaStream_t)stream);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasSsyrk(blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, b, b, &minus_one, l, ldl, &one, a,
                     lda);
  check("cublasSsyrk", (int)st, cudaStreamSynchronize((cudaStream_t)stream));
}

void nw_chol_cuda_gemm(int b, const float *li, int ldi, const float *lj, int ldj, float *a, int lda,
                       void *stream) {
  gemm("cublasSgemm", CUBLAS_OP_T, b, lj, ldj, li, ldi, a, lda, stream);
}

void nw_chol_cuda_trsm_row(int b, const float *d, int ldd, float *a, int lda, void *stream) {
  trsm("lu: cublasStrsm (row)", CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
       CUBLAS_DIAG_NON_UNIT, b, d, ldd, a, lda, stream);
}

void nw_chol_cuda_trsm_col(int b, const float *d, int ldd, float *a, int lda, void *stream) {
  trsm("lu: cublasStrsm (column)", CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
       CUBLAS_DIAG_UNIT, b, d, ldd, a, lda, stream);
}

void nw_chol_cuda_lu_gemm(int b, const float *l, int ldl, const float *u, int ldu, float *a,
                          int lda, void *stream) {
  gemm("lu: cublasSgemm", CUBLAS_OP_N, b, u, ldu, l, ldl, a, lda, stream);
}
