/* lu_nocuda.c: the LU's GPU operations in a build without CUDA. Nothing calls them there (the
 * real backend only drives GPUs when built with CUDA, and the simulator runs the host
 * emulations); a call is a bug, reported instead of computing nothing. A CUDA build links
 * lu_cuda.c into the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "lu.h"

static void no_cuda(void) {
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}

void nw_lu_cuda_init(void) {}

void nw_lu_cuda_diag(int b, float *m, int ldm, float *d, void *stream) {
  (void)b, (void)m, (void)ldm, (void)d, (void)stream;
  no_cuda();
}

void nw_lu_cuda_row(int b, float *m, int ldm, const float *d, float *r, void *stream) {
  (void)b, (void)m, (void)ldm, (void)d, (void)r, (void)stream;
  no_cuda();
}

void nw_lu_cuda_col(int b, float *m, int ldm, const float *d, float *c, void *stream) {
  (void)b, (void)m, (void)ldm, (void)d, (void)c, (void)stream;
  no_cuda();
}

void nw_lu_cuda_update_batch(int b, float *const *m, float *const *c, float *const *r, int count,
                             void *stream) {
  (void)b, (void)m, (void)c, (void)r, (void)count, (void)stream;
  no_cuda();
}

void nw_lu_cuda_update(int b, float *m, int ldm, const float *c, const float *r, void *stream) {
  (void)b, (void)m, (void)ldm, (void)c, (void)r, (void)stream;
  no_cuda();
}
