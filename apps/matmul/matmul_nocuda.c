/* matmul_nocuda.c: the GPU sgemm of a build without CUDA. Nothing calls it there (the real
 * backend only drives GPUs when built with CUDA, and the simulator runs the host emulation); a
 * call is a bug, reported instead of computing nothing. A CUDA build links matmul_cuda.c into
 * the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "matmul.h"

void nw_matmul_cuda_init(void) {}

void nw_matmul_cuda_sgemm(const matmul_gemm *g, void *stream) {
  (void)g;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
