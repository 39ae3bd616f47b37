/* mdlite_nocuda.c: MDLite's GPU entry in a build without CUDA. Nothing calls it there (the real
 * backend only drives GPUs when built with CUDA, and the simulator runs the host emulation); a
 * call is a bug, reported instead of computing nothing. A CUDA build links mdlite_cuda.cu into
 * the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "mdlite_kernels.h"

void nw_mdlite_cuda_segment(const mdlite_group *g, void *stream) {
  (void)g;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
