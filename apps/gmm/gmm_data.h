/* gmm_data.h: GMM's inputs, initial parameters and the driver's M-step between iterations,
 * shared by the driver (gmm_main.c) and the reference (gmm_ref.c) so that both start from the
 * same bytes and turn sums into parameters the same way. */
#ifndef NW_APP_GMM_DATA_H
#define NW_APP_GMM_DATA_H

#include <stdint.h>

/* Added to each covariance's diagonal: keeps a cluster of few or coincident points invertible. */
#define GM_COV_FLOOR 1e-3

/* n points of `dims` floats into x (point i at x + i * dims), drawn from `seed`: `clusters`
 * true centres with coordinates uniform in [-8, 8), each point one of them (uniform) plus noise
 * s_k e_k + e_(k-1) / 2 in coordinate k, e uniform in [-1, 1) and the spread s_k, uniform in
 * [1, 4), the centre's: clusters of different shapes, their coordinates correlated (a diagonal
 * covariance would not describe them). Every coordinate is within 12.5 < GM_COORD_MAX. Each value
 * is a hash of (seed, index), so the same seed gives the same points. */
void gm_fill_points(float *x, uint64_t n, uint32_t clusters, uint32_t dims, uint64_t seed);

/* The first parameters (clusters rows of gm_row(dims) doubles, gmm.h): equal weights, the
 * first `clusters` points of x as means, identity covariances. */
void gm_initial_params(const float *x, uint32_t clusters, uint32_t dims, double *params);

/* The M-step from one iteration's sums (clusters rows of gm_row(dims) fixed-point keys): for
 * each cluster of weight w = sum r (its first key), pi = w / (all clusters' w), mu = (sum r x) / w,
 * R = (sum r x x^t) / w - mu mu^t + GM_COV_FLOOR I, factored R = L L^t (Cholesky), L inverted,
 * g = log pi - sum_k log L_kk - (D / 2) log 2 pi; all in double on the host. A cluster whose
 * weight is 0, or whose R is not positive definite in rounding, keeps its row as it was.
 * Returns 0, or -1 when out of memory. */
int gm_update_params(const int64_t *sums, uint32_t clusters, uint32_t dims, double *params);

#endif
