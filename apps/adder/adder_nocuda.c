/* adder_nocuda.c: the adder's GPU entry in a build without CUDA. Nothing calls it there (the
 * real backend only drives GPUs when built with CUDA, and the simulator runs the host
 * emulation); a call is a bug, reported instead of computing nothing. A CUDA build links
 * adder_cuda.cu into the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "adder_kernels.h"

void nw_adder_cuda_add(const adder_op *op, void *stream) {
  (void)op;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
