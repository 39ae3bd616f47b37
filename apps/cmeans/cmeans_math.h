/* cmeans_math.h: C-means's arithmetic, one definition for the host code and the CUDA kernel.
 *
 * Fuzziness m = 2 (Li et al.'s equations 13 and 14 with exponents 2 / (m - 1) = 2 and m = 2),
 * so a membership needs only additions, multiplications and divisions:
 *   d_ij = |x_i - c_j|^2,  u_ij = 1 / sum_k (d_ij / d_ik) = (1 / d_ij) / sum_k (1 / d_ik),
 *   and a subtask's partial sums for cluster j: sum_i u_ij^2 x_i and sum_i u_ij^2.
 * A point at distance 0 from some centre takes membership 1 in the first such cluster and 0
 * in the others (the formula's limit would be 0 / 0 there).
 *
 * Bit-exact on every device. Every operation is one IEEE double operation rounded to nearest,
 * in a fixed order: on the host plain operators (the files are compiled with
 * -ffp-contract=off, so no multiply-add is fused: see CMakeLists.txt), in CUDA the _rn
 * intrinsics, which nvcc never contracts. A float converted to double is exact. So a point's
 * weights, and a key's sum over a subtask's points taken in point order, are the same bits on
 * a CPU, a modelled GPU and a CUDA GPU.
 *
 * Fixed point. A subtask emits each sum as int64 round(sum * 2^24) (CM_SCALE), and the
 * runtime adds the integers (NW_REDUCE_ADD over int64): the same bytes in any order of
 * combination, on any number of nodes. Overflow cannot happen for the sizes the app accepts:
 * weights are at most 1 (u_ij <= 1 since 1 / d_ij is one of the terms of the sum it is divided
 * by), every coordinate is at most CM_COORD_MAX = 68 < 2^7 in magnitude (cmeans_data.c), so a
 * subtask's sum over its b points is at most 68 b, its fixed-point value at most 68 b 2^24 +
 * 1/2, and the total over all n <= CM_POINTS_MAX = 2^31 points at most 68 * 2^55 + 2^30 <
 * 2^62: half of int64's range to spare. 2^24 resolves a weight to 6e-8 after summing, far finer
 * than the centres' float precision needs once divided by a cluster's total weight.
 */
#ifndef NW_APP_CMEANS_MATH_H
#define NW_APP_CMEANS_MATH_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CM_HD __host__ __device__
#else
#define CM_HD
#endif

#define CM_SCALE 16777216.0 /* 2^24, the fixed point's 1.0 */
#define CM_COORD_MAX 68     /* |coordinate| bound: centres in [-64, 64), noise in [-4, 4) */
#define CM_POINTS_MAX (1ull << 31)

/* One rounded operation each, never fused with a neighbour. */
#ifdef __CUDA_ARCH__
#define CM_ADD(a, b) __dadd_rn((a), (b))
#define CM_SUB(a, b) __dsub_rn((a), (b))
#define CM_MUL(a, b) __dmul_rn((a), (b))
#define CM_DIV(a, b) __ddiv_rn((a), (b))
#else
#define CM_ADD(a, b) ((a) + (b))
#define CM_SUB(a, b) ((a) - (b))
#define CM_MUL(a, b) ((a) * (b))
#define CM_DIV(a, b) ((a) / (b))
#endif

/* |x - c|^2 over dims coordinates, in coordinate order. */
static inline CM_HD double cm_dist2(const float *x, const float *c, uint32_t dims) {
  double d = 0.0;
  for (uint32_t k = 0; k < dims; k++) {
    double diff = CM_SUB((double)x[k], (double)c[k]);
    d = CM_ADD(d, CM_MUL(diff, diff));
  }
  return d;
}

/* The weights u_ij^2 of point x in each of `clusters` centres (centre j at c + j * ldc) into
 * w[0 .. clusters - 1]. As (1 / d_ij) / sum_k (1 / d_ik): M divisions and one sum per point
 * rather than the M^2 ratios of the textbook form, and the sum is at least each of its terms
 * (rounding is monotonic), so no weight exceeds 1. */
static inline CM_HD void cm_point_weights(const float *x, const float *c, uint64_t ldc,
                                          uint32_t clusters, uint32_t dims, double *w) {
  uint32_t at = clusters; /* the first centre x lies on, if any */
  for (uint32_t j = 0; j < clusters; j++) {
    w[j] = cm_dist2(x, c + j * ldc, dims);
    if (w[j] == 0.0 && at == clusters)
      at = j;
  }
  if (at < clusters) {
    for (uint32_t j = 0; j < clusters; j++)
      w[j] = j == at ? 1.0 : 0.0;
    return;
  }
  double sum = 0.0;
  for (uint32_t j = 0; j < clusters; j++) {
    w[j] = CM_DIV(1.0, w[j]);
    sum = CM_ADD(sum, w[j]);
  }
  for (uint32_t j = 0; j < clusters; j++) {
    double u = CM_DIV(w[j], sum);
    w[j] = CM_MUL(u, u);
  }
}

/* A partial sum in fixed point: round to nearest, ties to even (llrint in the default
 * rounding mode, which nothing here changes; __double2ll_rn on the GPU). */
static inline CM_HD int64_t cm_fixed(double sum) {
#ifdef __CUDA_ARCH__
  return (int64_t)__double2ll_rn(CM_MUL(sum, CM_SCALE));
#else
  return (int64_t)llrint(CM_MUL(sum, CM_SCALE));
#endif
}

#endif
