/* cmeans_data.h: C-means's inputs and the driver's step between iterations, shared by the
 * driver (cmeans_main.c) and the reference (cmeans_ref.c) so that both start from the same
 * bytes and turn sums into centres the same way. */
#ifndef NW_APP_CMEANS_DATA_H
#define NW_APP_CMEANS_DATA_H

#include <stdint.h>

/* n points of `dims` floats into x (point i at x + i * dims), drawn from `seed`: `clusters`
 * true centres with coordinates uniform in [-64, 64), each point one of them (uniform) plus
 * noise uniform in [-4, 4) per coordinate; every coordinate is within CM_COORD_MAX. Each value
 * is a hash of (seed, index), so the same seed gives the same points. */
void cm_fill_points(float *x, uint64_t n, uint32_t clusters, uint32_t dims, uint64_t seed);

/* The new centres from one iteration's sums (clusters x (dims + 1) fixed-point keys): centre j's
 * coordinate k is sum_jk / weight_j, divided in double and rounded to float. A cluster whose
 * total weight is 0 keeps its centre. */
void cm_update_centres(const int64_t *sums, uint32_t clusters, uint32_t dims, float *centres);

#endif
