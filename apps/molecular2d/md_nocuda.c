/* md_nocuda.c: the GPU entries of a build without CUDA. Nothing calls them there (the real
 * backend only drives GPUs when built with CUDA, and the simulator runs the host emulation); a
 * call is a bug, reported instead of computing nothing. A CUDA build links md_cuda.cu into the
 * program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "md_kernels.h"

static void no_cuda(void) {
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}

void nw_md_cuda_force(const md_hood *h, void *stream) {
  (void)h;
  (void)stream;
  no_cuda();
}

void nw_md_cuda_force_batch(const md_hood *hoods, int count, void *stream) {
  (void)hoods;
  (void)count;
  (void)stream;
  no_cuda();
}

void nw_md_cuda_move(const md_move *m, void *stream) {
  (void)m;
  (void)stream;
  no_cuda();
}
