/* cholesky_graph.c: see cholesky_graph.h.
 *
 * The driver submits every task of the factorisation at once, in the right-looking order of
 * StarPU's cholesky_implicit.c (for each step: POTRF, the column's TRSMs, then column by column
 * the trailing SYRK and GEMMs; for the LU variant GETRF, the row's and the column's TRSMs, then
 * the GEMMs row by row), and waits for them all. It states no dependency: each task binds the
 * tiles it reads read-only and the one it updates read-write, and the runtime starts a task
 * once the earlier tasks writing what it reads, or touching what it writes, have completed.
 */
#include <stdlib.h>

#include "cholesky_graph.h"

uint64_t chol_tile_count(uint64_t nb, int lu) {
  return lu ? nb * nb : nb * (nb + 1) / 2;
}

uint64_t chol_tile_index(uint64_t i, uint64_t j, uint64_t nb, int lu) {
  return lu ? i * nb + j : i * (i + 1) / 2 + j;
}

/* nb factorisations; nb (nb - 1) more tasks, the Cholesky's TRSMs and SYRKs or the LU's row and
 * column TRSMs; then the GEMMs: the Cholesky's nb (nb - 1) (nb - 2) / 6, one per i > j > k, or
 * the LU's sum over k of (nb - 1 - k)^2. */
uint64_t chol_task_count(uint64_t nb, int lu) {
  uint64_t gemms = lu ? (nb - 1) * nb * (2 * nb - 1) / 6 : nb * (nb - 1) * (nb - 2) / 6;
  return nb + nb * (nb - 1) + gemms;
}

typedef struct graph {
  nw_runtime *rt;
  nw_space **tiles;
  uint64_t nb;
  int lu;
  nw_task **tasks;
  uint64_t made;
} graph;

static nw_space *tile(const graph *g, uint64_t i, uint64_t j) {
  return g->tiles[chol_tile_index(i, j, g->nb, g->lu)];
}

/* One task of `kind` on tile (c->i, c->j) of step c->k, binding the tiles `reads` read-only and
 * then the tile it updates read-write (the kinds' space order, cholesky.h). */
static nw_status submit(graph *g, const nw_task_kind *kind, const chol_conf *c,
                        nw_space *const *reads, int nreads) {
  nw_task *t = NULL;
  nw_status st = nw_task_create(g->rt, kind, 1, c, sizeof *c, &t);
  for (int r = 0; r < nreads && st == NW_OK; r++)
    st = nw_task_bind(t, reads[r], NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(t, tile(g, c->i, c->j), NW_READ_WRITE);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st != NW_OK) {
    nw_task_destroy(t);
    return st;
  }
  g->tasks[g->made++] = t;
  return NW_OK;
}

static nw_status cholesky_step(graph *g, chol_conf c) {
  uint64_t k = c.k, nb = g->nb;
  nw_status st = submit(g, &nw_chol_potrf_kind, &c, NULL, 0);
  for (uint64_t i = k + 1; i < nb && st == NW_OK; i++) {
    c.i = i, c.j = k;
    st = submit(g, &nw_chol_trsm_kind, &c, (nw_space *[]){tile(g, k, k)}, 1);
  }
  for (uint64_t j = k + 1; j < nb && st == NW_OK; j++) {
    c.i = j, c.j = j;
    st = submit(g, &nw_chol_syrk_kind, &c, (nw_space *[]){tile(g, j, k)}, 1);
    for (uint64_t i = j + 1; i < nb && st == NW_OK; i++) {
      c.i = i, c.j = j;
      st = submit(g, &nw_chol_gemm_kind, &c, (nw_space *[]){tile(g, i, k), tile(g, j, k)}, 2);
    }
  }
  return st;
}

static nw_status lu_step(graph *g, chol_conf c) {
  uint64_t k = c.k, nb = g->nb;
  nw_status st = submit(g, &nw_chol_lu_getrf_kind, &c, NULL, 0);
  for (uint64_t j = k + 1; j < nb && st == NW_OK; j++) {
    c.i = k, c.j = j;
    st = submit(g, &nw_chol_lu_trsm_row_kind, &c, (nw_space *[]){tile(g, k, k)}, 1);
  }
  for (uint64_t i = k + 1; i < nb && st == NW_OK; i++) {
    c.i = i, c.j = k;
    st = submit(g, &nw_chol_lu_trsm_col_kind, &c, (nw_space *[]){tile(g, k, k)}, 1);
  }
  for (uint64_t i = k + 1; i < nb && st == NW_OK; i++)
    for (uint64_t j = k + 1; j < nb && st == NW_OK; j++) {
      c.i = i, c.j = j;
      st = submit(g, &nw_chol_lu_gemm_kind, &c, (nw_space *[]){tile(g, i, k), tile(g, k, j)}, 2);
    }
  return st;
}

nw_status chol_graph_run(nw_runtime *rt, nw_space **tiles, uint64_t b, uint64_t nb, uint64_t prio,
                         int lu) {
  graph g = {.rt = rt,
             .tiles = tiles,
             .nb = nb,
             .lu = lu,
             .tasks = calloc(chol_task_count(nb, lu), sizeof(nw_task *))};
  if (!g.tasks)
    return NW_ERR_NOMEM;
  nw_status st = NW_OK;
  for (uint64_t k = 0; k < nb && st == NW_OK; k++) {
    chol_conf c = {.k = k, .i = k, .j = k, .b = b, .nb = nb, .prio = prio};
    st = lu ? lu_step(&g, c) : cholesky_step(&g, c);
  }
  for (uint64_t t = 0; t < g.made; t++) { /* waits for all, even after a failure */
    nw_status w = nw_task_wait(g.tasks[t]);
    if (st == NW_OK)
      st = w;
    nw_task_destroy(g.tasks[t]);
  }
  free(g.tasks);
  return st;
}
