/* md_ref.c: see md_ref.h. Written apart from the kernels: it shares the per-particle arithmetic
 * with them (md_math.h: the force law, the order of each particle's sum, the step), but not
 * their views, offsets or neighbour lookup (md_grid.h), so a wrong cell, view or offset in a
 * kernel differs from it. A step is all the forces from the old positions, then all the moves,
 * as the two tasks of a timestep are. */
#include <stdlib.h>

#include "md_math.h"
#include "md_ref.h"

/* Cell (cx, cy)'s first float in a grid-ordered array of G^2 ppc pairs. */
static uint64_t cell_first(const md_conf *c, int64_t cx, int64_t cy) {
  return ((uint64_t)cy * c->grid + (uint64_t)cx) * c->ppc * 2;
}

static void cell_forces(const md_conf *c, const float *pos, float *acc, int64_t cx, int64_t cy) {
  int64_t g = (int64_t)c->grid;
  md_hood h = {.acc = acc + cell_first(c, cx, cy), .ppc = c->ppc, .k = c->k};
  for (int64_t dy = -1; dy <= 1; dy++)
    for (int64_t dx = -1; dx <= 1; dx++) {
      int64_t x = cx + dx, y = cy + dy;
      int inside = x >= 0 && x < g && y >= 0 && y < g;
      h.cell[(dy + 1) * 3 + dx + 1] = inside ? pos + cell_first(c, x, y) : NULL;
    }
  for (uint64_t i = 0; i < c->ppc; i++)
    md_particle_accel(&h, i);
}

int md_reference(const md_conf *c, uint64_t steps, float *pos, float *vel) {
  uint64_t count = c->grid * c->grid * c->ppc * 2;
  float *acc = malloc(count * sizeof *acc);
  if (!acc)
    return -1;
  for (uint64_t step = 0; step < steps; step++) {
    for (int64_t cy = 0; cy < (int64_t)c->grid; cy++)
      for (int64_t cx = 0; cx < (int64_t)c->grid; cx++)
        cell_forces(c, pos, acc, cx, cy);
    /* Every particle at once: a cell's particles are moved the same in any grouping. */
    md_move m = {.acc = acc, .pos = pos, .vel = vel, .ppc = count / 2, .dt = c->dt};
    for (uint64_t i = 0; i < m.ppc; i++)
      md_particle_move(&m, i);
  }
  free(acc);
  return 0;
}
