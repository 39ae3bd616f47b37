/* md_ref.h: the single-process reference the distributed result must equal bit for bit. */
#ifndef NW_APP_MD_REF_H
#define NW_APP_MD_REF_H

#include "molecular2d.h"

/* Runs `steps` timesteps of the G x G cells of c from the positions and velocities at pos and
 * vel (G^2 ppc (x, y) pairs each, cell by cell in row-major order of the grid), leaving the
 * result there. Returns 0, or -1 when out of memory. */
int md_reference(const md_conf *c, uint64_t steps, float *pos, float *vel);

#endif
