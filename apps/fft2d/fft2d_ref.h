/* fft2d_ref.h: the 2D FFT's input, its single-process reference, and how close a result is. */
#ifndef NW_APP_FFT2D_REF_H
#define NW_APP_FFT2D_REF_H

#include <stdint.h>

/* The n x n complex input of `seed` (2 n^2 floats, re and im interleaved): each float uniform
 * in [-1, 1), a splitmix64 hash of (seed, its index), so the same on any node. */
void fft2d_fill_input(float *x, uint64_t n, uint64_t seed);

/* z := the forward 2D DFT of x (both n x n complex, row-major; x unchanged), computed as the
 * distributed run does: the row pass in blocks of b rows, then the column pass in stripes of
 * b columns, with the same host transforms (fft2d_pass.c). Returns 0, or -1 when out of
 * memory for the intermediate matrix. */
int fft2d_reference(const float *x, float *z, uint64_t n, uint64_t b);

/* max over elements of |got - ref| (complex modulus) divided by the largest |ref|, in double:
 * the error relative to the transform's scale, which small elements would exaggerate. */
double fft2d_rel_error(const float *got, const float *ref, uint64_t n);

#endif
