/* mdlite_ref.c: see mdlite_ref.h. Written apart from the kernels: it shares the per-pair and
 * per-particle arithmetic with them (narwhal_mtc.h) and its order (mdlite.h: the pulls in index
 * order from the step's starting positions, then the moves), but not their views, offsets or
 * particle type: it walks the whole array as floats, so a wrong group, view or offset in a
 * kernel differs from it. */
#include <string.h>

#include "mdlite_ref.h"
#include "narwhal_mtc.h"

/* Floats per particle, and where each lies among them. */
enum { X = 0, Y = 1, VX = 2, VY = 3, FLOATS = 4 };

/* One group of `count` particles at p, moved `steps` steps in place. */
static void group_steps(float *p, uint64_t count, uint64_t steps) {
  float start[2 * MDLITE_GROUP_MAX]; /* the positions at the step's start, (x, y) pairs */
  for (uint64_t s = 0; s < steps; s++) {
    for (uint64_t i = 0; i < count; i++) {
      start[2 * i] = p[FLOATS * i + X];
      start[2 * i + 1] = p[FLOATS * i + Y];
    }
    for (uint64_t i = 0; i < count; i++) {
      float fx = 0.0f, fy = 0.0f;
      for (uint64_t j = 0; j < count; j++)
        if (j != i)
          nw_mtc_md_pull(start[2 * i], start[2 * i + 1], start[2 * j], start[2 * j + 1], &fx, &fy);
      float *q = p + FLOATS * i;
      nw_mtc_md_move(&q[X], &q[Y], &q[VX], &q[VY], fx, fy);
    }
  }
}

void mdlite_reference(const mdlite_conf *c, const float *in, float *out) {
  memcpy(out, in, c->n * FLOATS * sizeof *out);
  for (uint64_t first = 0; first < c->n; first += c->block)
    group_steps(out + FLOATS * first, c->block, c->steps);
}
