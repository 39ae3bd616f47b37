/* md_data.h: Molecular2D's initial state, drawn from the seed; the driver writes it and the
 * reference starts from it. */
#ifndef NW_APP_MD_DATA_H
#define NW_APP_MD_DATA_H

#include "molecular2d.h"

/* The G^2 ppc particles' positions and velocities, (x, y) pairs in the spaces' layout
 * (molecular2d.h): each position uniform in its cell, [0, 1)^2 relative to the cell's corner,
 * each velocity uniform in [-MD_SPEED_MAX, MD_SPEED_MAX)^2. Each value a hash of (seed, index),
 * so the same on every run. */
void md_fill_state(const md_conf *c, uint64_t seed, float *pos, float *vel);

/* The force constant for ppc particles a cell: 1 / ppc, rounded to float once by the driver and
 * carried in md_conf, so that every device multiplies by the same bits. */
float md_force_constant(uint64_t ppc);

#endif
