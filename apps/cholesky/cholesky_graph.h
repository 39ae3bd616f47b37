/* cholesky_graph.h: the factorisations' task graphs, submitted at once and waited for, and
 * where each tile's space sits in the driver's array. */
#ifndef NW_APP_CHOLESKY_GRAPH_H
#define NW_APP_CHOLESKY_GRAPH_H

#include "cholesky.h"

/* The tiles that exist: the lower triangle's for the Cholesky, all for the LU variant (lu 1). */
uint64_t chol_tile_count(uint64_t nb, int lu);
/* Tile (i, j)'s place in the array of tiles: row by row, the lower triangle's (j <= i) or all. */
uint64_t chol_tile_index(uint64_t i, uint64_t j, uint64_t nb, int lu);
/* The tasks a factorisation of nb x nb tiles runs. */
uint64_t chol_task_count(uint64_t nb, int lu);

/* Creates and submits every task of the factorisation of the tiles (b x b floats each, nb per
 * side; `tiles` as chol_tile_index places them), in StarPU's right-looking order, then waits
 * for them all and frees them. prio: the priority switch of every task's configuration.
 * Returns the first failure; after one, still waits for every task submitted. */
nw_status chol_graph_run(nw_runtime *rt, nw_space **tiles, uint64_t b, uint64_t nb, uint64_t prio,
                         int lu);

#endif
