/* gmm_ref.h: the single-process reference the distributed result must equal bit for bit. */
#ifndef NW_APP_GMM_REF_H
#define NW_APP_GMM_REF_H

#include "gmm.h"

/* Runs `iterations` iterations over the n points at x (point i at x + i * dims), grouped in
 * subtasks of c->block points as the task groups them, from the parameters at `params`
 * (clusters rows of gm_row(dims) doubles), leaving the result there. Returns 0, or -1 when out
 * of memory. */
int gm_reference(const gmm_conf *c, const float *x, uint64_t iterations, double *params);

#endif
