/* directory_index.c: see directory_index.h. */
#include "directory_index.h"

#include <stdlib.h>

typedef struct piece {
  uint64_t col0, col1;
  int owner;
} piece;

typedef struct band {
  uint64_t row0, row1;
  size_t first, end; /* its pieces: pieces[first..end) */
} band;

struct nw_dir_index {
  band *bands;
  size_t nbands;
  piece *pieces;
};

/* Building gives up past this many pieces per rectangle (plus a floor): the cuts of
 * interleaving rows could otherwise make the index quadratic in the directory's size. */
#define MAX_PIECES_PER_RECT 8
#define MIN_PIECES_BOUND 4096

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* A piece with its band's number, while sorting. */
typedef struct cut {
  size_t band;
  piece p;
} cut;

static int cmp_cut(const void *a, const void *b) {
  const cut *x = a, *y = b;
  if (x->band != y->band)
    return (x->band > y->band) - (x->band < y->band);
  return (x->p.col0 > y->p.col0) - (x->p.col0 < y->p.col0);
}

/* The index of the first boundary >= v in rows[0..n) (v is one of them when building). */
static size_t lower_bound(const uint64_t *rows, size_t n, uint64_t v) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rows[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

nw_dir_index *nw_dir_index_build(const nw_region *by_owner, int nodes) {
  size_t rects = 0;
  for (int k = 0; k < nodes; k++)
    rects += by_owner[k].n;
  size_t bound = rects * MAX_PIECES_PER_RECT + MIN_PIECES_BOUND;
  uint64_t *rows = malloc((2 * rects + 1) * sizeof *rows);
  cut *cuts = NULL;
  nw_dir_index *x = calloc(1, sizeof *x);
  if (!rows || !x)
    goto fail;
  /* The band boundaries: every rectangle's top and bottom row, sorted, without repeats. */
  size_t nrows = 0;
  for (int k = 0; k < nodes; k++)
    for (size_t i = 0; i < by_owner[k].n; i++) {
      rows[nrows++] = by_owner[k].r[i].row0;
      rows[nrows++] = by_owner[k].r[i].row1;
    }
  qsort(rows, nrows, sizeof *rows, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < nrows; i++)
    if (u == 0 || rows[i] != rows[u - 1])
      rows[u++] = rows[i];
  nrows = u;
  /* Each rectangle cut at the boundaries it spans: one piece per band. */
  size_t ncuts = 0;
  for (int k = 0; k < nodes; k++)
    for (size_t i = 0; i < by_owner[k].n; i++) {
      const nw_rect *r = &by_owner[k].r[i];
      ncuts += lower_bound(rows, nrows, r->row1) - lower_bound(rows, nrows, r->row0);
    }
  if (ncuts > bound)
    goto fail;
  cuts = malloc((ncuts ? ncuts : 1) * sizeof *cuts);
  x->pieces = malloc((ncuts ? ncuts : 1) * sizeof *x->pieces);
  x->bands = malloc((nrows ? nrows : 1) * sizeof *x->bands);
  if (!cuts || !x->pieces || !x->bands)
    goto fail;
  size_t c = 0;
  for (int k = 0; k < nodes; k++)
    for (size_t i = 0; i < by_owner[k].n; i++) {
      const nw_rect *r = &by_owner[k].r[i];
      for (size_t b = lower_bound(rows, nrows, r->row0); rows[b] < r->row1; b++)
        cuts[c++] = (cut){b, {r->col0, r->col1, k}};
    }
  qsort(cuts, ncuts, sizeof *cuts, cmp_cut);
  for (size_t i = 0; i < ncuts; i++) {
    if (x->nbands == 0 || x->bands[x->nbands - 1].row0 != rows[cuts[i].band])
      x->bands[x->nbands++] = (band){rows[cuts[i].band], rows[cuts[i].band + 1], i, i};
    x->bands[x->nbands - 1].end = i + 1;
    x->pieces[i] = cuts[i].p;
  }
  free(cuts);
  free(rows);
  return x;
fail:
  free(cuts);
  free(rows);
  nw_dir_index_free(x);
  return NULL;
}

void nw_dir_index_free(nw_dir_index *x) {
  if (!x)
    return;
  free(x->bands);
  free(x->pieces);
  free(x);
}

nw_status nw_dir_index_split(const nw_dir_index *x, const nw_region *need, nw_region *parts,
                             int nodes) {
  for (int k = 0; k < nodes; k++)
    nw_region_clear(&parts[k]);
  for (size_t i = 0; i < need->n; i++) {
    const nw_rect *q = &need->r[i];
    /* the first band below q's top row, then every band that starts above its bottom */
    size_t lo = 0, hi = x->nbands;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (x->bands[mid].row1 <= q->row0)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (size_t b = lo; b < x->nbands && x->bands[b].row0 < q->row1; b++) {
      const band *bd = &x->bands[b];
      size_t plo = bd->first, phi = bd->end; /* the first piece right of q's left column */
      while (plo < phi) {
        size_t mid = plo + (phi - plo) / 2;
        if (x->pieces[mid].col1 <= q->col0)
          plo = mid + 1;
        else
          phi = mid;
      }
      for (size_t p = plo; p < bd->end && x->pieces[p].col0 < q->col1; p++) {
        const piece *pc = &x->pieces[p];
        nw_rect r = {
            bd->row0 > q->row0 ? bd->row0 : q->row0, bd->row1 < q->row1 ? bd->row1 : q->row1,
            pc->col0 > q->col0 ? pc->col0 : q->col0, pc->col1 < q->col1 ? pc->col1 : q->col1};
        nw_status st = nw_region_add_rect(&parts[pc->owner], r);
        if (st != NW_OK)
          return st;
      }
    }
  }
  return NW_OK;
}
