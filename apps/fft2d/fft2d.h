/* fft2d.h: the forward 2D FFT of an n x n matrix of single-precision complex numbers (Beri,
 * Bansal, Kumar, "The Unicorn Runtime: Efficient Distributed Shared Memory Programming for
 * Hybrid CPU-GPU Clusters", IEEE TPDS, section 5.1: "two single-precision one dimensional
 * complex-to-complex FFTs (one along matrix rows and the other along matrix columns)").
 *
 * A matrix is n rows of n complex floats, re and im interleaved (8 bytes an element), row-major,
 * pitch one row. --n is the side, --block b the rows (first task) and columns (second task) of
 * one subtask: n / b subtasks per task, 120 at the paper's 61440 / 512.
 *
 * Three spaces: X (the input), Y (the rows transformed) and Z (the result). Task 1, subtask s:
 * reads rows [s b, (s + 1) b) of X, writes them transformed to the same rows of Y. Task 2,
 * subtask s: reads the column stripe [s b, (s + 1) b) of every row of Y (one quad: offset s b
 * elements, b elements long, a row apart, n times) and writes the stripe of Z transformed along
 * the columns, with a strided transform (b transforms of length n, a row apart between
 * points, 1 element between transforms). No transpose: the subscription is transposed, as the
 * paper's is, and the runtime moves the stripe's bytes. Why not in place (one read-write
 * space): a read-write view starts as a copy of the bytes it spans, and a column stripe spans
 * nearly the whole matrix; write-only views of a second space need no copy, and the input
 * stays as the driver wrote it.
 */
#ifndef NW_APP_FFT2D_H
#define NW_APP_FFT2D_H

#include "narwhal_app.h"

typedef struct fft2d_conf {
  uint64_t n, b; /* matrix side, rows or columns per subtask */
} fft2d_conf;

/* Bound spaces of both kinds, in binding order: what the subtask reads, then what it writes. */
enum { FFT2D_IN = 0, FFT2D_OUT = 1 };

/* Bytes of one complex element. */
#define FFT2D_ELEM ((uint64_t)(2 * sizeof(float)))

extern const nw_task_kind nw_fft2d_rows_kind, nw_fft2d_cols_kind;
extern const nw_app nw_fft2d_app;

/* The host transforms (fft2d_pass.c, FFTW), the same calls for the CPU kernels, the modelled
 * GPU's emulation and the reference. Pointers are to interleaved complex floats; pitches count
 * complex elements between consecutive rows. `in` is left unchanged (a read-only view). */
/* Transforms each of `rows` consecutive rows of n elements. */
void fft2d_rows(int n, int rows, const float *in, int in_pitch, float *out, int out_pitch);
/* Transforms each of `cols` adjacent columns of n elements (a pitch apart). */
void fft2d_cols(int n, int cols, const float *in, int in_pitch, float *out, int out_pitch);

/* The GPU's transforms on device pointers with cuFFT, issued on a cudaStream_t and finished on
 * return: fft2d_cuda.c where the program is built with CUDA, fft2d_nocuda.c otherwise. */
void nw_fft2d_cuda_rows(int n, int rows, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream);
void nw_fft2d_cuda_cols(int n, int cols, const float *in, int in_pitch, float *out, int out_pitch,
                        void *stream);

#endif
