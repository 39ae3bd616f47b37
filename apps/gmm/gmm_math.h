/* gmm_math.h: GMM's E-step arithmetic, one definition for the host code and the CUDA kernel.
 *
 * For point x and cluster m, with d = x - mu_m and z = L_m^-1 d (gmm.h), the log of pi_m times
 * equation (15)'s density is l_m = g_m - q / 2 with q = |z|^2; the responsibilities are
 * r_m = exp(l_m - l_max) / sum_j exp(l_j - l_max), l_max the largest l_j (the first one on a
 * tie), so that no exponential overflows and each r_m is at most 1 (the sum includes
 * exp(0) = 1 and rounding is monotonic).
 *
 * Bit-exact on every device. Every operation is one IEEE double operation rounded to nearest, in
 * a fixed order: on the host plain operators (the files are compiled with -ffp-contract=off, so
 * no multiply-add is fused: see CMakeLists.txt), in CUDA the _rn intrinsics, which nvcc never
 * contracts. The exponential is computed here from those operations (gm_exp) rather than taken
 * from a math library, whose results differ between the host's libm and CUDA's; rint and ldexp
 * are exact on both. So a point's responsibilities, and a key's sum over a subtask's points
 * taken in point order, are the same bits on a CPU, a modelled GPU and a CUDA GPU.
 *
 * Fixed point. A subtask emits each sum as int64 round(sum * 2^24) (GM_SCALE), and the runtime
 * adds the integers (NW_REDUCE_ADD over int64): the same bytes in any order of combination, on
 * any number of nodes. Overflow cannot happen for the sizes the app accepts: responsibilities are
 * at most 1, every coordinate is at most GM_COORD_MAX = 16 in magnitude (gmm_data.c), so a
 * subtask's largest sum (of r x_k x_l) is at most 256 b, and the total over all n <=
 * GM_POINTS_MAX = 2^30 points at most 2^8 2^30 2^24 + 2^29 < 2^63.
 */
#ifndef NW_APP_GMM_MATH_H
#define NW_APP_GMM_MATH_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GM_HD __host__ __device__
#else
#define GM_HD
#endif

#define GM_SCALE 16777216.0 /* 2^24, the fixed point's 1.0 */
#define GM_COORD_MAX 16     /* |coordinate| bound (gmm_data.c's points are within 12.5) */
#define GM_POINTS_MAX (1ull << 30)
#define GM_EXP_TERMS 13 /* Taylor terms of gm_exp: the 14th is below 2^-53 for |r| <= ln 2 / 2 */
#define GM_EXP_FLOPS (7 + 3 * GM_EXP_TERMS)
#define GM_EXP_MIN (-700.0) /* below, gm_exp gives 0: 2^k stays a normal number above */

/* One rounded operation each, never fused with a neighbour. */
#ifdef __CUDA_ARCH__
#define GM_ADD(a, b) __dadd_rn((a), (b))
#define GM_SUB(a, b) __dsub_rn((a), (b))
#define GM_MUL(a, b) __dmul_rn((a), (b))
#define GM_DIV(a, b) __ddiv_rn((a), (b))
#else
#define GM_ADD(a, b) ((a) + (b))
#define GM_SUB(a, b) ((a) - (b))
#define GM_MUL(a, b) ((a) * (b))
#define GM_DIV(a, b) ((a) / (b))
#endif

/* exp(x) for x <= 0: x = k ln 2 + r with k whole and |r| <= ln 2 / 2 (ln 2 in two parts, the
 * first with trailing zeros so that k times it is exact, as fdlibm splits it), e^r by its Taylor
 * series in Horner form (1 + r (1 + r/2 (1 + r/3 ...))), then times 2^k. Within a few units in
 * the last place of libm's exp (tests/unit/test_gmm.c); 7 + 3 GM_EXP_TERMS operations. */
static inline GM_HD double gm_exp(double x) {
  if (x < GM_EXP_MIN)
    return 0.0;
  double k = rint(GM_MUL(x, 1.4426950408889634)); /* 1 / ln 2 */
  double r = GM_SUB(GM_SUB(x, GM_MUL(k, 6.93147180369123816490e-01)),
                    GM_MUL(k, 1.90821492927058770002e-10));
  double p = 1.0;
  for (int j = GM_EXP_TERMS; j >= 1; j--)
    p = GM_ADD(1.0, GM_DIV(GM_MUL(r, p), (double)j));
  return ldexp(p, (int)k);
}

/* Point x's responsibilities in each of `clusters` clusters (parameter row m at p + m * ldp,
 * laid out as gmm.h says) into r[0 .. clusters - 1]; d is `dims` doubles of workspace. */
static inline GM_HD void gm_point_resp(const float *x, const double *p, uint64_t ldp,
                                       uint32_t clusters, uint32_t dims, double *d, double *r) {
  double top = 0.0;
  for (uint32_t m = 0; m < clusters; m++) {
    const double *row = p + m * ldp, *mu = row + 1, *tri = row + 1 + dims;
    for (uint32_t k = 0; k < dims; k++)
      d[k] = GM_SUB((double)x[k], mu[k]);
    double q = 0.0;
    for (uint32_t k = 0; k < dims; k++) { /* z_k = sum_{l <= k} (L^-1)_kl d_l */
      double z = 0.0;
      for (uint32_t l = 0; l <= k; l++)
        z = GM_ADD(z, GM_MUL(*tri++, d[l]));
      q = GM_ADD(q, GM_MUL(z, z));
    }
    r[m] = GM_SUB(row[0], GM_MUL(0.5, q));
    if (m == 0 || r[m] > top)
      top = r[m];
  }
  double sum = 0.0;
  for (uint32_t m = 0; m < clusters; m++) {
    r[m] = gm_exp(GM_SUB(r[m], top));
    sum = GM_ADD(sum, r[m]);
  }
  for (uint32_t m = 0; m < clusters; m++)
    r[m] = GM_DIV(r[m], sum);
}

/* A partial sum in fixed point: round to nearest, ties to even (llrint in the default rounding
 * mode, which nothing here changes; __double2ll_rn on the GPU). */
static inline GM_HD int64_t gm_fixed(double sum) {
#ifdef __CUDA_ARCH__
  return (int64_t)__double2ll_rn(GM_MUL(sum, GM_SCALE));
#else
  return (int64_t)llrint(GM_MUL(sum, GM_SCALE));
#endif
}

#endif
