/* lu_cuda.c: the LU's GPU operations with cuBLAS (Beri et al., "Unicorn: a programming model
 * and runtime for hybrid CPU-GPU clusters", IEEE TPDS, section 5.1: "the GPU implementation
 * employs the corresponding CUBLAS routines").
 *
 * cuBLAS is column-major: a row-major matrix is read as its transpose. So the row panel's
 * L^-1 X (row-major, L lower with a unit diagonal) is the column-major X^T L^-T: a solve from
 * the right against an upper triangle; the column panel's X U^-1 is U^-T X^T: from the left
 * against a lower one; and C -= A B is C^T -= B^T A^T, operands swapped (as matmul_cuda.c).
 * Each thread that calls these (one per GPU stream in the real backend) keeps its own handle.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "lu.h"

static _Thread_local cublasHandle_t handle;

void nw_lu_cuda_init(void) {
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuBLAS cannot start on this GPU\n");
    exit(1);
  }
}

static void check(const char *what, cublasStatus_t st, cudaError_t err) {
  if (st != CUBLAS_STATUS_SUCCESS || err != cudaSuccess) {
    fprintf(stderr, "narwhal: lu: %s failed (cuBLAS status %d, %s)\n", what, (int)st,
            cudaGetErrorString(err));
    exit(1);
  }
}

/* Copies a b x b block between leading dimensions (floats), on the device. */
static cudaError_t copy_block(int b, float *to, int ldt, const float *from, int ldf,
                              cudaStream_t s) {
  return cudaMemcpy2DAsync(to, (size_t)ldt * sizeof *to, from, (size_t)ldf * sizeof *from,
                           (size_t)b * sizeof *to, (size_t)b, cudaMemcpyDeviceToDevice, s);
}

/* The host's factorisation (lu_block.c), on a round trip through host memory. */
void nw_lu_cuda_diag(int b, float *m, int ldm, float *d, void *stream) {
  cudaStream_t s = (cudaStream_t)stream;
  float *host = malloc((size_t)b * (size_t)b * sizeof *host);
  float *packed = malloc((size_t)b * (size_t)b * sizeof *packed);
  if (!host || !packed) {
    fprintf(stderr, "narwhal: lu: out of host memory for a diagonal block\n");
    exit(1);
  }
  cudaError_t err = cudaMemcpy2DAsync(host, (size_t)b * sizeof *host, m, (size_t)ldm * sizeof *m,
                                      (size_t)b * sizeof *m, (size_t)b, cudaMemcpyDeviceToHost, s);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(s);
  if (err == cudaSuccess) {
    lu_diag_op(b, host, b, packed);
    err = cudaMemcpyAsync(d, packed, (size_t)b * (size_t)b * sizeof *d, cudaMemcpyHostToDevice, s);
  }
  if (err == cudaSuccess)
    err = copy_block(b, m, ldm, d, b, s);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(s);
  free(host);
  free(packed);
  check("diagonal block", CUBLAS_STATUS_SUCCESS, err);
}

static void panel(int b, float *m, int ldm, const float *d, float *x, int row, cudaStream_t s) {
  nw_lu_cuda_init();
  const float one = 1.0f;
  cublasSetStream(handle, s);
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  cudaError_t err = copy_block(b, x, b, m, ldm, s);
  if (err == cudaSuccess)
    st = cublasStrsm(handle, row ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
                     row ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                     row ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, b, b, &one, d, b, x, b);
  if (err == cudaSuccess && st == CUBLAS_STATUS_SUCCESS)
    err = copy_block(b, m, ldm, x, b, s);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(s);
  check(row ? "row panel strsm" : "column panel strsm", st, err);
}

void nw_lu_cuda_row(int b, float *m, int ldm, const float *d, float *r, void *stream) {
  panel(b, m, ldm, d, r, 1, (cudaStream_t)stream);
}

void nw_lu_cuda_col(int b, float *m, int ldm, const float *d, float *c, void *stream) {
  panel(b, m, ldm, d, c, 0, (cudaStream_t)stream);
}

/* The pointer arrays go to the device first (cublasSgemmBatched reads them there), in memory
 * taken and given back on the stream itself. */
void nw_lu_cuda_update_batch(int b, float *const *m, float *const *c, float *const *r, int count,
                             void *stream) {
  nw_lu_cuda_init();
  cudaStream_t s = (cudaStream_t)stream;
  size_t bytes = (size_t)count * sizeof(float *);
  float **dev = NULL;
  cudaError_t err = cudaMallocAsync((void **)&dev, 3 * bytes, s);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(dev, m, bytes, cudaMemcpyHostToDevice, s);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(dev + count, c, bytes, cudaMemcpyHostToDevice, s);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(dev + 2 * count, r, bytes, cudaMemcpyHostToDevice, s);
  const float minus_one = -1.0f, one = 1.0f;
  cublasSetStream(handle, s);
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  if (err == cudaSuccess) /* C -= A B as C^T -= B^T A^T: r before c, as nw_lu_cuda_update */
    st = cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, b, b, b, &minus_one,
                            (const float *const *)(dev + 2 * count), b,
                            (const float *const *)(dev + count), b, &one, dev, b, count);
  if (dev)
    cudaFreeAsync(dev, s);
  check("batched trailing update", st, err != cudaSuccess ? err : cudaStreamSynchronize(s));
}

void nw_lu_cuda_update(int b, float *m, int ldm, const float *c, const float *r, void *stream) {
  nw_lu_cuda_init();
  const float minus_one = -1.0f, one = 1.0f;
  cublasSetStream(handle, (cudaStream_t)stream);
  cublasStatus_t st =
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, b, b, b, &minus_one, r, b, c, b, &one, m, ldm);
  check("trailing update sgemm", st, cudaStreamSynchronize((cudaStream_t)stream));
}
