/* mdlite_ref.h: the single-process reference the distributed result must equal bit for bit. */
#ifndef NW_APP_MDLITE_REF_H
#define NW_APP_MDLITE_REF_H

#include "mdlite.h"

/* Runs c->steps steps of every group of c on the n particles at `in` (4 floats each: x, y, vx,
 * vy), writing their final state to `out` (n particles; not `in`). */
void mdlite_reference(const mdlite_conf *c, const float *in, float *out);

#endif
