/* fft2d_nocuda.c: the 2D FFT's GPU transforms in a build without CUDA. Nothing calls them there
 * (the real backend only drives GPUs when built with CUDA, and the simulator runs the host
 * emulations); a call is a bug, reported instead of computing nothing. A CUDA build links
 * fft2d_cuda.c into the program itself, so the linker never takes this file from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "fft2d.h"

static void no_cuda(void) {
  fprintf(stderr, "narwhal: internal error: a CUDA kernel ran in a build without CUDA\n");
  abort();
}

void nw_fft2d_cuda_rows(int n, int rows, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream) {
  (void)n, (void)rows, (void)in, (void)in_pitch, (void)out, (void)out_pitch, (void)stream;
  no_cuda();
}

void nw_fft2d_cuda_cols(int n, int cols, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream) {
  (void)n, (void)cols, (void)in, (void)in_pitch, (void)out, (void)out_pitch, (void)stream;
  no_cuda();
}
