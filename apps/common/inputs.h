/* inputs.h: what matmul and conv2d share about their inputs: a square matrix cut into square
 * blocks (one subtask each), and values whose sums are exact in float. */
#ifndef NW_APP_INPUTS_H
#define NW_APP_INPUTS_H

#include <stddef.h>

#include "narwhal_app.h"

/* Checks --n (the matrix side) and --block (the block side) for `app`: both positive, block
 * dividing n, n at most 2^20 (n*n*4 bytes far from overflow; BLAS takes int sizes), at most
 * 4096^2 blocks (each subtask is checked at submission). A one-line reason naming the app. */
nw_status nw_app_check_grid(const char *app, const nw_app_args *a, char *why, size_t why_len);

/* count floats of integers in [-4, 4] from a seeded generator. Sums of them, and of their
 * products, are exact in float in any order while they stay below 2^24 in magnitude (a matmul
 * row of n <= 2^20 such products does), so a distributed result must equal the reference bit
 * for bit whatever order BLAS adds in. The same seed gives the same values. */
void nw_app_fill_small_ints(float *m, uint64_t count, uint64_t seed);

/* count bytes of any value from the same seeded generator (conv2d's byte channels). */
void nw_app_fill_bytes(unsigned char *m, uint64_t count, uint64_t seed);

/* splitmix64's output function (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a hash of x, so a value drawn as f(seed, index) is the same on
 * every node without a shared stream. */
uint64_t nw_app_splitmix64(uint64_t x);
/* The top 24 bits of a hash as a float in [0, 1): exact in float, and so is 2u - 1. */
float nw_app_unit24(uint64_t hash);

#endif
