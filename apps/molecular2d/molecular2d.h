/* molecular2d.h: a 2D short-range n-body simulation after Molecular2D, the n-body application
 * of Lifflander, Evans, Arya and Kale, "Dynamic Scheduling for Work Agglomeration on
 * Heterogeneous Clusters" (section V-A): particles in a square box cut into a G x G grid of
 * cells whose side is the cutoff radius, each particle interacting with the particles of its
 * own cell and of the 8 cells around it.
 *
 * --n particles, --block particles per cell (ppc): n / ppc cells, which must be a square G^2.
 * `--app-param steps=T` timesteps (default 10). Per timestep two tasks of G^2 subtasks, one per
 * cell: md-force (subtask c reads the positions of c's neighbourhood, the up to 3 x 3 cells
 * around it, and writes the accelerations of c's particles), then md-integrate (subtask c
 * reads c's accelerations and read-writes c's positions and velocities).
 *
 * Units: the cell side and the cutoff are 1. Each particle's position is kept relative to its
 * cell's lower corner, in [0, 1]^2: float keeps the same resolution in every cell, however
 * large the box.
 *
 * Simplifications against the paper, each documented where it lives:
 * - No migration. A particle reflects off its own cell's walls (md_math.h), so every cell
 *   keeps its ppc particles and every subtask's sizes are fixed: no re-binning between steps.
 * - The box is not periodic: a cell on its edge has fewer neighbours (a corner cell 3), so
 *   each subtask's neighbourhood is one rectangle of cells (see Spaces).
 * - A force subtask per cell, computing the forces on its own particles from its whole
 *   neighbourhood, where the paper's work units are cell pairs (each interaction object gets
 *   two cells' particles and sends forces back to both): each pair of particles is computed
 *   twice, once for each side, but no two subtasks write the same bytes and each particle's
 *   sum is formed in one fixed order, so every device gives the same bits with no reduction.
 *
 * Spaces: positions, velocities and accelerations, each G^2 ppc (x, y) float pairs, laid out
 * cell by cell in the grid's row-major order with a row pitch of one row of cells (G ppc 8
 * bytes): cell (cx, cy)'s ppc pairs are the bytes [cx ppc 8, (cx + 1) ppc 8) of row cy. So a
 * cell is one segment and a neighbourhood one rectangle (3 rows of 3 cells' bytes; fewer at
 * the box's edges), which is all a GPU holds of it (narwhal.h, nw_gpu_view).
 */
#ifndef NW_APP_MOLECULAR2D_H
#define NW_APP_MOLECULAR2D_H

#include "narwhal_app.h"

#define MD_STEPS_DEFAULT 10
#define MD_STEPS_MAX 100000
#define MD_CELLS_MAX 65536u           /* G <= 256: each task's subtasks are checked at submission */
#define MD_PARTICLES_MAX (1ull << 26) /* 512 MiB a space */
#define MD_DT 0.01f                   /* the timestep */
#define MD_SPEED_MAX 0.1f             /* initial velocities are uniform in [-0.1, 0.1)^2 */

typedef struct md_conf {
  uint64_t grid; /* G: cells per side */
  uint64_t ppc;  /* particles per cell */
  float k;       /* force constant: 1 / ppc (md_math.h) */
  float dt;      /* timestep */
} md_conf;

/* Bound spaces of each kind, in binding order. */
enum { MD_FORCE_POS = 0, MD_FORCE_ACC = 1 };
enum { MD_MOVE_ACC = 0, MD_MOVE_POS = 1, MD_MOVE_VEL = 2 };

extern const nw_task_kind nw_md_force_kind, nw_md_integrate_kind;
extern const nw_app nw_molecular2d_app;

#endif
