/* gmm_nocuda.c: the GPU map of a build without CUDA. Nothing calls it there (the real backend
 * only drives GPUs when built with CUDA, and the simulator runs the host emulation); a call is
 * a bug, reported instead of computing nothing. A CUDA build links gmm_cuda.cu into the program
 * itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "gmm_map.h"

void nw_gmm_cuda_map(const gm_map *m, void *stream) {
  (void)m;
  (void)stream;
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}
