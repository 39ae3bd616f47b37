/* pagerank_nocuda.c: the GPU scatter of a build without CUDA. Nothing calls it there (the real
 * backend only drives GPUs when built with CUDA, and the simulator runs the host emulation); a
 * call is a bug, reported instead of computing nothing. A CUDA build links pagerank_cuda.cu
 * into the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "pagerank_scatter.h"

void nw_pagerank_cuda_scatter(const pr_scatter *s, void *stream) {
  (void)s;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
