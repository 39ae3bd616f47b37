/* gemv_nocuda.c: the GPU sgemv of a build without CUDA. Nothing calls it there (the real
 * backend only drives GPUs when built with CUDA, and the simulator runs the host emulation); a
 * call is a bug, reported instead of computing nothing. A CUDA build links gemv_cuda.c into the
 * program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "gemv.h"

void nw_gemv_cuda_init(void) {}

void nw_gemv_cuda_sgemv(const gemv_op *op, void *stream) {
  (void)op;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
