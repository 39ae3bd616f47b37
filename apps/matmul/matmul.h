/* matmul.h: the matrix multiplication application (paper Fig. 1). */
#ifndef NW_APP_MATMUL_H
#define NW_APP_MATMUL_H

#include "narwhal_app.h"

extern const nw_task_kind nw_matmul_kind;

/* Row-major C (m x n) = A (m x k) * B (k x n), leading dimensions in floats. */
typedef struct matmul_gemm {
  int m, n, k;
  const float *a, *b;
  float *c;
  int lda, ldb, ldc;
} matmul_gemm;

/* The GPU sgemm on device pointers, issued on a cudaStream_t and finished on return:
 * matmul_cuda.c (cuBLAS) where the program is built with CUDA, matmul_nocuda.c otherwise. */
void nw_matmul_cuda_sgemm(const matmul_gemm *g, void *stream);
/* Creates the calling thread's cuBLAS handle (cuBLAS starts slowly: not inside a timed run). */
void nw_matmul_cuda_init(void);
extern const nw_app nw_matmul_app;

#endif
