/* fft2d_pass.c: the host's 1D transforms of a block of rows or a stripe of columns, with FFTW
 * (Frigo and Johnson; the paper's CPU subtasks use FFTW too).
 *
 * Each call plans, executes and destroys one plan for its own arrays. FFTW's planner is not
 * thread-safe (kernels run on several threads of the real backend), so planning and
 * destruction hold one lock; executing a plan is safe and runs unlocked. FFTW_ESTIMATE picks
 * the algorithm from the problem alone, never from timing it: the same problem gives the same
 * arithmetic on every run, and planning a problem seen before is cheap (FFTW keeps what it
 * planned). FFTW_UNALIGNED: a view's bytes start wherever the runtime put them, and the plan
 * must not depend on it; FFTW_PRESERVE_INPUT: the input is a read-only view, perhaps the node's
 * own copy of the space.
 */
#include <fftw3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "fft2d.h"

static pthread_mutex_t planner = PTHREAD_MUTEX_INITIALIZER;

/* howmany transforms of length n; point k of transform t at in[t * dist + k * stride]. */
static void many(int n, int howmany, const float *in, int istride, int idist, float *out,
                 int ostride, int odist) {
  /* FFTW takes a non-const input even when it preserves it. */
  fftwf_complex *i = (fftwf_complex *)(void *)(uintptr_t)in, *o = (fftwf_complex *)(void *)out;
  pthread_mutex_lock(&planner);
  fftwf_plan p =
      fftwf_plan_many_dft(1, &n, howmany, i, NULL, istride, idist, o, NULL, ostride, odist,
                          FFTW_FORWARD, FFTW_ESTIMATE | FFTW_UNALIGNED | FFTW_PRESERVE_INPUT);
  pthread_mutex_unlock(&planner);
  /* A kernel has no status to return: no plan (out of memory) is fatal. */
  if (!p) {
    fprintf(stderr, "narwhal: fft2d: FFTW cannot plan %d transforms of length %d\n", howmany, n);
    abort();
  }
  fftwf_execute(p);
  pthread_mutex_lock(&planner);
  fftwf_destroy_plan(p);
  pthread_mutex_unlock(&planner);
}

void fft2d_rows(int n, int rows, const float *in, int in_pitch, float *out, int out_pitch) {
  many(n, rows, in, 1, in_pitch, out, 1, out_pitch);
}

void fft2d_cols(int n, int cols, const float *in, int in_pitch, float *out, int out_pitch) {
  many(n, cols, in, in_pitch, 1, out, out_pitch, 1);
}
