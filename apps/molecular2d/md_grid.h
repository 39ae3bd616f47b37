/* md_grid.h: where a cell and its neighbourhood lie in the spaces (molecular2d.h, "Spaces"),
 * for the subscriptions, the cost model and the kernels' views. The reference (md_ref.c) finds
 * cells its own way, so that a mistake here shows in --verify. */
#ifndef NW_APP_MD_GRID_H
#define NW_APP_MD_GRID_H

#include "molecular2d.h"

/* Bytes of one cell's (x, y) float pairs, and of one row of cells: the spaces' pitch. */
static inline uint64_t md_cell_bytes(const md_conf *c) {
  return c->ppc * 2 * sizeof(float);
}
static inline uint64_t md_row_bytes(const md_conf *c) {
  return c->grid * md_cell_bytes(c);
}

/* Cell (cx, cy)'s first byte; cell index s is (s % G, s / G). */
static inline uint64_t md_cell_offset(const md_conf *c, uint64_t cx, uint64_t cy) {
  return cy * md_row_bytes(c) + cx * md_cell_bytes(c);
}

/* A neighbourhood: columns [x0, x1] and rows [y0, y1] of cells, the 3 x 3 around a cell clipped
 * to the box (not periodic: molecular2d.h). */
typedef struct md_span {
  uint64_t x0, x1, y0, y1;
} md_span;

static inline md_span md_neighbourhood(const md_conf *c, uint64_t cell) {
  uint64_t cx = cell % c->grid, cy = cell / c->grid;
  md_span n = {cx > 0 ? cx - 1 : 0, cx + 1 < c->grid ? cx + 1 : cx, cy > 0 ? cy - 1 : 0,
               cy + 1 < c->grid ? cy + 1 : cy};
  return n;
}

/* Cells in the neighbourhood, the cell itself included: 9 inside, 6 on an edge, 4 in a corner
 * (fewer when G < 3). */
static inline uint64_t md_neighbours(const md_conf *c, uint64_t cell) {
  md_span n = md_neighbourhood(c, cell);
  return (n.x1 - n.x0 + 1) * (n.y1 - n.y0 + 1);
}

/* The byte offsets of the neighbours' positions, in the order md_hood takes them (md_math.h:
 * (dx, dy) = (-1, -1), (0, -1), (1, -1), (-1, 0), ... row by row), UINT64_MAX where the box
 * ends. */
static inline void md_neighbour_offsets(const md_conf *c, uint64_t cell, uint64_t off[9]) {
  uint64_t cx = cell % c->grid, cy = cell / c->grid;
  for (int k = 0; k < 9; k++) {
    uint64_t x = cx + (uint64_t)(k % 3) - 1, y = cy + (uint64_t)(k / 3) - 1; /* -1 wraps: >= G */
    off[k] = x < c->grid && y < c->grid ? md_cell_offset(c, x, y) : UINT64_MAX;
  }
}

#endif
