/* fft2d_cuda.c: the 2D FFT's GPU transforms with cuFFT (Beri, Bansal, Kumar, "The Unicorn
 * Runtime: Efficient Distributed Shared Memory Programming for Hybrid CPU-GPU Clusters", IEEE
 * TPDS, section 5.1: the paper's GPU subtasks call CUFFT, its CPU subtasks FFTW).
 *
 * The same advanced layout as the host's FFTW plans (fft2d_pass.c): batch transforms of length
 * n, point k of transform t at t * dist + k * stride. cuFFT honours the strides only with a
 * non-NULL embed array (for rank 1 its value is not used). An out-of-place complex-to-complex
 * transform leaves its input as it was, which a read-only view needs. Creating a plan costs
 * milliseconds and a work area on the device, so each thread (one per GPU stream in the real
 * backend) keeps its last plan of each pass and remakes it only when the shape changes.
 */
#include <cuda_runtime.h>
#include <cufft.h>
#include <stdio.h>
#include <stdlib.h>

#include "fft2d.h"

typedef struct cached_plan {
  cufftHandle plan;
  int made, n, batch, istride, idist, ostride, odist;
} cached_plan;

static _Thread_local cached_plan row_plan, col_plan;

static void fail(const char *what, int n, int batch, cufftResult r, cudaError_t err) {
  fprintf(stderr, "narwhal: fft2d: %s of %d transforms of length %d failed (cuFFT %d, %s)\n", what,
          batch, n, (int)r, cudaGetErrorString(err));
  exit(1);
}

static void many(cached_plan *c, int n, int batch, const float *in, int istride, int idist,
                 float *out, int ostride, int odist, void *stream) {
  if (!c->made || c->n != n || c->batch != batch || c->istride != istride || c->idist != idist ||
      c->ostride != ostride || c->odist != odist) {
    if (c->made)
      cufftDestroy(c->plan);
    c->made = 0;
    int len = n, embed = n;
    cufftResult r = cufftPlanMany(&c->plan, 1, &len, &embed, istride, idist, &embed, ostride, odist,
                                  CUFFT_C2C, batch);
    if (r != CUFFT_SUCCESS)
      fail("planning", n, batch, r, cudaSuccess);
    *c = (cached_plan){c->plan, 1, n, batch, istride, idist, ostride, odist};
  }
  cufftResult r = cufftSetStream(c->plan, (cudaStream_t)stream);
  if (r == CUFFT_SUCCESS)
    /* cuFFT takes a non-const input even where it preserves it. */
    r = cufftExecC2C(c->plan, (cufftComplex *)(uintptr_t)in, (cufftComplex *)(void *)out,
                     CUFFT_FORWARD);
  cudaError_t err = cudaStreamSynchronize((cudaStream_t)stream);
  if (r != CUFFT_SUCCESS || err != cudaSuccess)
    fail("executing", n, batch, r, err);
}

void nw_fft2d_cuda_rows(int n, int rows, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream) {
  many(&row_plan, n, rows, in, 1, in_pitch, out, 1, out_pitch, stream);
}

void nw_fft2d_cuda_cols(int n, int cols, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream) {
  many(&col_plan, n, cols, in, in_pitch, 1, out, out_pitch, 1, stream);
}
