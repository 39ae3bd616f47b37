/* cmeans_ref.h: the single-process reference the distributed result must equal bit for bit. */
#ifndef NW_APP_CMEANS_REF_H
#define NW_APP_CMEANS_REF_H

#include "cmeans.h"

/* Runs `iterations` iterations over the n points at x (point i at x + i * dims), grouped in
 * subtasks of c->block points as the task groups them, from the centres at `centres`
 * (clusters x dims), leaving the result there. Returns 0, or -1 when out of memory. */
int cm_reference(const cmeans_conf *c, const float *x, uint64_t iterations, float *centres);

#endif
