/* region.c: region sets as canonical banded rectangles in a row pitch (see region.h).
 *
 * The stored form is canonical, as in X11 and pixman regions. The rows of a set are cut into
 * bands [row0, row1) in which every rectangle has the same rows; rectangles are sorted by
 * (row0, col0); within a band the column intervals are disjoint and never touch (touching ones
 * are one interval); two bands that touch vertically never hold the same intervals (they are one
 * band). A set thus has exactly one array whatever order its bytes came in, and callers keep
 * reading s->r[0..n) as a plain list of disjoint rectangles.
 *
 * Why: the earlier form (unordered rectangles, merged pairwise) made every operation quadratic;
 * a space one row wide with many small subscriptions spent 92% of a run merging rectangles.
 * Now (n, m: the rectangles of the two sets):
 *  - union, difference and intersection are one sweep over the bands of both sets, O(n + m).
 *    In place (add, subtract) the sweep covers only the bands of s that the other set's rows
 *    overlap or touch, found by binary search; when the other set is one band and s has a band
 *    with exactly its rows (always so in a one-row space), only the intervals its columns
 *    overlap or touch. Runs of intervals that one side leaves alone are found by galloping
 *    search and copied whole. Adding or removing a rectangle costs O(log n) plus one memmove of
 *    the array's tail; merging m rectangles, O(m log n) plus that memmove.
 *  - a quad's segments come in address order, so its pieces are appended to a scratch set,
 *    joined into bands once (O(pieces)) and merged into s by one sweep.
 *  - contains and overlap_bytes search the same way and build nothing.
 * A flat sorted array cannot insert in the middle in less than a memmove; callers that add many
 * scattered pieces one call at a time should gather them into a set first and add that.
 */
#include "region.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row past every band: "the other side has no further band". */
#define ROW_END UINT64_MAX
/* "No band written yet". */
#define NO_BAND SIZE_MAX

void nw_region_init(nw_region *s, uint64_t pitch) {
  s->pitch = pitch ? pitch : 1;
  s->n = s->cap = 0;
  s->r = NULL;
}

void nw_region_free(nw_region *s) {
  free(s->r);
  s->r = NULL;
  s->n = s->cap = 0;
}

void nw_region_clear(nw_region *s) {
  s->n = 0;
}

static nw_status reserve(nw_region *s, size_t n) {
  if (n <= s->cap)
    return NW_OK;
  if (n > SIZE_MAX / 2 / sizeof(nw_rect))
    return NW_ERR_NOMEM;
  size_t cap = s->cap ? s->cap : 4;
  while (cap < n)
    cap *= 2;
  nw_rect *r = realloc(s->r, cap * sizeof *r);
  if (!r)
    return NW_ERR_NOMEM;
  s->r = r;
  s->cap = cap;
  return NW_OK;
}

nw_status nw_region_copy(nw_region *dst, const nw_region *src) {
  nw_region_init(dst, src->pitch);
  nw_status st = reserve(dst, src->n);
  if (st != NW_OK)
    return st;
  if (src->n)
    memcpy(dst->r, src->r, src->n * sizeof *src->r);
  dst->n = src->n;
  return NW_OK;
}

static int rect_empty(nw_rect a) {
  return a.row0 >= a.row1 || a.col0 >= a.col1;
}

static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}
static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

/* ---- Searching a sorted array ---- */

/* Orders along a canonical array: row0 and row1 never decrease over the whole array (bands are
 * sorted and disjoint); col0 and col1 increase within one band. */
typedef enum { ROW0_GT, ROW1_GT, ROW1_GE, COL0_GT, COL1_GT, COL1_GE } key;

static inline int past(const nw_rect *x, key k, uint64_t v) {
  switch (k) {
  case ROW0_GT:
    return x->row0 > v;
  case ROW1_GT:
    return x->row1 > v;
  case ROW1_GE:
    return x->row1 >= v;
  case COL0_GT:
    return x->col0 > v;
  case COL1_GT:
    return x->col1 > v;
  default:
    return x->col1 >= v;
  }
}

/* The first index in [i, n) whose rectangle is past v (n if none), for a key along which the
 * slice is ordered. Gallops from i (steps 1, 2, 4, ... then bisects), so an answer d places on
 * costs O(log d): the next few rectangles are as cheap to find as the far end of a large set. */
static inline size_t gallop(const nw_rect *r, size_t i, size_t n, key k, uint64_t v) {
  if (i >= n || past(&r[i], k, v))
    return i;
  size_t lo = i, hi, step = 1; /* r[lo] is not past v; r[hi] is, or hi == n */
  for (;;) {
    if (step >= n - lo) {
      hi = n;
      break;
    }
    hi = lo + step;
    if (past(&r[hi], k, v))
      break;
    lo = hi;
    step *= 2;
  }
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (past(&r[mid], k, v))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

/* The end of the band that starts at index i. */
static size_t band_end(const nw_rect *r, size_t i, size_t n) {
  return gallop(r, i + 1, n, ROW0_GT, r[i].row0);
}

static int cols_equal(const nw_rect *a, const nw_rect *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].col0 != b[i].col0 || a[i].col1 != b[i].col1)
      return 0;
  return 1;
}

/* ---- Writing ---- */

static nw_status push(nw_region *out, uint64_t row0, uint64_t row1, uint64_t col0, uint64_t col1) {
  if (out->n == out->cap) {
    nw_status st = reserve(out, out->n + 1);
    if (st != NW_OK)
      return st;
  }
  out->r[out->n++] = (nw_rect){row0, row1, col0, col1};
  return NW_OK;
}

/* Appends the intervals src[0..k) with rows [row0, row1). */
static nw_status push_run(nw_region *out, const nw_rect *src, size_t k, uint64_t row0,
                          uint64_t row1) {
  nw_status st = reserve(out, out->n + k);
  if (st != NW_OK)
    return st;
  nw_rect *d = out->r + out->n;
  if (k && src[0].row0 == row0 && src[0].row1 == row1) /* a whole band: rows already right */
    memcpy(d, src, k * sizeof *src);
  else
    for (size_t i = 0; i < k; i++)
      d[i] = (nw_rect){row0, row1, src[i].col0, src[i].col1};
  out->n += k;
  return NW_OK;
}

/* Replaces s->r[i..j) with src[0..k). Leaves s as it was when it cannot grow. */
static nw_status splice(nw_region *s, size_t i, size_t j, const nw_rect *src, size_t k) {
  nw_status st = reserve(s, s->n - (j - i) + k);
  if (st != NW_OK)
    return st;
  if (j - i != k)
    memmove(s->r + i + k, s->r + j, (s->n - j) * sizeof *s->r);
  if (k)
    memcpy(s->r + i, src, k * sizeof *src);
  s->n = s->n - (j - i) + k;
  return NW_OK;
}

/* ---- One band's column intervals: a op b, written with rows [y0, y1) ---- */

/* a union b. Touching intervals become one. */
static nw_status cols_union(const nw_rect *a, size_t na, const nw_rect *b, size_t nb, uint64_t y0,
                            uint64_t y1, nw_region *out) {
  size_t i = 0, j = 0;
  nw_status st = NW_OK;
  while (st == NW_OK && (i < na || j < nb)) {
    if (j == nb || (i < na && a[i].col1 < b[j].col0)) {
      /* a run of a wholly left of b[j], not touching it */
      size_t k = j == nb ? na : gallop(a, i, na, COL1_GE, b[j].col0);
      st = push_run(out, a + i, k - i, y0, y1);
      i = k;
    } else if (i == na || b[j].col1 < a[i].col0) {
      size_t k = i == na ? nb : gallop(b, j, nb, COL1_GE, a[i].col0);
      st = push_run(out, b + j, k - j, y0, y1);
      j = k;
    } else {
      /* a[i] and b[j] overlap or touch: one interval, which may swallow more of either side */
      uint64_t c0 = min64(a[i].col0, b[j].col0), c1 = max64(a[i].col1, b[j].col1);
      i++, j++;
      for (;;) {
        size_t ka = gallop(a, i, na, COL0_GT, c1), kb = gallop(b, j, nb, COL0_GT, c1);
        if (ka == i && kb == j)
          break;
        if (ka > i)
          c1 = max64(c1, a[ka - 1].col1);
        if (kb > j)
          c1 = max64(c1, b[kb - 1].col1);
        i = ka, j = kb;
      }
      st = push(out, y0, y1, c0, c1);
    }
  }
  return st;
}

/* a minus b. */
static nw_status cols_diff(const nw_rect *a, size_t na, const nw_rect *b, size_t nb, uint64_t y0,
                           uint64_t y1, nw_region *out) {
  size_t i = 0, j = 0;
  uint64_t c0 = na ? a[0].col0 : 0; /* where what is left of a[i] starts */
  nw_status st = NW_OK;
  while (st == NW_OK && i < na) {
    if (j < nb && b[j].col1 <= c0) {
      j = gallop(b, j, nb, COL1_GT, c0);
    } else if (j == nb || a[i].col1 <= b[j].col0) {
      /* the rest of a[i], and a's intervals up to b[j], survive whole */
      size_t k = j == nb ? na : gallop(a, i + 1, na, COL1_GT, b[j].col0);
      st = push(out, y0, y1, c0, a[i].col1);
      if (st == NW_OK)
        st = push_run(out, a + i + 1, k - i - 1, y0, y1);
      i = k;
      if (i < na)
        c0 = a[i].col0;
    } else {
      /* b[j] cuts a[i]: it ends after c0 and starts before a[i] ends */
      if (c0 < b[j].col0)
        st = push(out, y0, y1, c0, b[j].col0);
      if (b[j].col1 < a[i].col1) {
        c0 = b[j].col1;
        j++;
      } else if (++i < na) {
        c0 = a[i].col0;
      }
    }
  }
  return st;
}

/* a intersected with b; into out, or (out NULL) only its width added to *width. */
static nw_status cols_inter(const nw_rect *a, size_t na, const nw_rect *b, size_t nb, uint64_t y0,
                            uint64_t y1, nw_region *out, uint64_t *width) {
  size_t i = 0, j = 0;
  nw_status st = NW_OK;
  while (st == NW_OK && i < na && j < nb) {
    if (a[i].col1 <= b[j].col0) {
      i = gallop(a, i, na, COL1_GT, b[j].col0);
    } else if (b[j].col1 <= a[i].col0) {
      j = gallop(b, j, nb, COL1_GT, a[i].col0);
    } else {
      uint64_t c0 = max64(a[i].col0, b[j].col0), c1 = min64(a[i].col1, b[j].col1);
      if (out)
        st = push(out, y0, y1, c0, c1);
      else
        *width += c1 - c0;
      if (a[i].col1 <= b[j].col1)
        i++;
      else
        j++;
    }
  }
  return st;
}

/* Every interval of b lies inside one of a (a's never touch, so one must hold it whole). */
static int cols_contain(const nw_rect *a, size_t na, const nw_rect *b, size_t nb) {
  size_t i = 0;
  for (size_t j = 0; j < nb; j++) {
    i = gallop(a, i, na, COL1_GT, b[j].col0);
    if (i == na || a[i].col0 > b[j].col0 || a[i].col1 < b[j].col1)
      return 0;
  }
  return 1;
}

typedef enum { OP_UNION, OP_DIFF, OP_INTER } op_kind;

static nw_status cols_op(op_kind op, const nw_rect *a, size_t na, const nw_rect *b, size_t nb,
                         uint64_t y0, uint64_t y1, nw_region *out) {
  if (op == OP_UNION)
    return cols_union(a, na, b, nb, y0, y1, out);
  if (op == OP_DIFF)
    return cols_diff(a, na, b, nb, y0, y1, out);
  return cols_inter(a, na, b, nb, y0, y1, out, NULL);
}

/* ---- Sweeping the bands of two sets ---- */

/* Where a sweep writes: a set (with where its last band starts, to join the next one to it), or
 * (out NULL) only a byte count. */
typedef struct {
  nw_region *out;
  size_t last;
  uint64_t bytes;
} sink;

/* Closes the band just written at out->r[start..n): joins it to the band above when that ends
 * where it starts and holds the same intervals; an empty band leaves nothing. */
static void close_band(sink *k, size_t start) {
  nw_region *o = k->out;
  size_t w = o->n - start;
  if (w == 0)
    return;
  size_t p = k->last;
  if (p != NO_BAND && start - p == w && o->r[p].row1 == o->r[start].row0 &&
      cols_equal(o->r + p, o->r + start, w)) {
    uint64_t row1 = o->r[start].row1;
    for (size_t i = p; i < start; i++)
      o->r[i].row1 = row1;
    o->n = start;
    return;
  }
  k->last = start;
}

/* Copies the whole bands src[0..n) of a canonical set: only the first may join the band above;
 * the others differ from their neighbours already. */
static nw_status copy_bands(sink *k, const nw_rect *src, size_t n) {
  nw_region *o = k->out;
  size_t e = band_end(src, 0, n), start = o->n;
  nw_status st = push_run(o, src, e, src[0].row0, src[0].row1);
  if (st != NW_OK)
    return st;
  close_band(k, start);
  if (e == n)
    return NW_OK;
  st = reserve(o, o->n + (n - e));
  if (st != NW_OK)
    return st;
  memcpy(o->r + o->n, src + e, (n - e) * sizeof *src);
  /* the last band copied starts at the first rectangle that ends where it ends */
  k->last = o->n + (gallop(src, e, n, ROW1_GE, src[n - 1].row1) - e);
  o->n += n - e;
  return NW_OK;
}

/* a op b, for banded arrays a[0..na) and b[0..nb), appended to the sink. Rows where only one
 * side has bands are copied whole (union, or a's side of a difference) or skipped by galloping
 * search; rows where both have a band combine the two interval lists. The result is canonical
 * when a and b are. */
static nw_status sweep(op_kind op, const nw_rect *a, size_t na, const nw_rect *b, size_t nb,
                       sink *k) {
  size_t i = 0, j = 0;
  uint64_t y = 0; /* rows below y are done */
  nw_status st = NW_OK;
  while (st == NW_OK) {
    if ((i == na && (op != OP_UNION || j == nb)) || (j == nb && op == OP_INTER))
      break;
    /* the row from which each side's current band applies */
    uint64_t ya = i < na ? max64(a[i].row0, y) : ROW_END;
    uint64_t yb = j < nb ? max64(b[j].row0, y) : ROW_END;
    if (ya == yb) {
      /* both sides have a band over [ya, y1) */
      uint64_t y1 = min64(a[i].row1, b[j].row1);
      size_t ea = band_end(a, i, na), eb = band_end(b, j, nb);
      if (k->out) {
        size_t start = k->out->n;
        st = cols_op(op, a + i, ea - i, b + j, eb - j, ya, y1, k->out);
        if (st == NW_OK)
          close_band(k, start);
      } else {
        uint64_t w = 0;
        cols_inter(a + i, ea - i, b + j, eb - j, ya, y1, NULL, &w);
        k->bytes += w * (y1 - ya);
      }
      y = y1;
      if (a[i].row1 == y1)
        i = ea;
      if (b[j].row1 == y1)
        j = eb;
      continue;
    }
    /* Only one side has a band over [y0, min(its end, yn)); yn: where the other's next starts. */
    int a_side = ya < yb;
    const nw_rect *x = a_side ? a : b;
    size_t *xi = a_side ? &i : &j, xn = a_side ? na : nb;
    uint64_t y0 = a_side ? ya : yb, yn = a_side ? yb : ya;
    if (op == OP_INTER || (op == OP_DIFF && !a_side)) {
      *xi = gallop(x, *xi, xn, ROW1_GT, yn); /* those rows give nothing */
      y = yn;
    } else if (y0 == x[*xi].row0 && x[*xi].row1 <= yn) {
      size_t e = gallop(x, *xi, xn, ROW1_GT, yn);
      st = copy_bands(k, x + *xi, e - *xi);
      y = x[e - 1].row1;
      *xi = e;
    } else {
      /* the part of a band that the other side's next band cuts off */
      uint64_t y1 = min64(x[*xi].row1, yn);
      size_t e = band_end(x, *xi, xn), start = k->out->n;
      st = push_run(k->out, x + *xi, e - *xi, y0, y1);
      if (st == NW_OK)
        close_band(k, start);
      y = y1;
      if (x[*xi].row1 == y1)
        *xi = e;
    }
  }
  return st;
}

/* ---- s op= other, in place ---- */

static void remove_rects(nw_region *s, size_t i, size_t j) {
  memmove(s->r + i, s->r + j, (s->n - j) * sizeof *s->r);
  s->n -= j - i;
}

/* The band s->r[b..be) has new intervals: it may now equal the band just below or just above
 * it (it differed from both before), and then is one band with it. An empty band leaves a gap
 * between its neighbours, which then do not touch. */
static void rejoin(nw_region *s, size_t b, size_t be) {
  nw_rect *r = s->r;
  size_t w = be - b;
  if (w == 0)
    return;
  if (be < s->n && r[be].row0 == r[b].row1) {
    size_t e2 = band_end(r, be, s->n);
    if (e2 - be == w && cols_equal(r + b, r + be, w)) {
      for (size_t i = b; i < be; i++)
        r[i].row1 = r[be].row1;
      remove_rects(s, be, e2);
    }
  }
  if (b > 0 && r[b - 1].row1 == r[b].row0) {
    size_t a = gallop(r, 0, b, ROW1_GE, r[b].row0); /* the band above starts here */
    if (b - a == w && cols_equal(r + a, r + b, w)) {
      for (size_t i = a; i < b; i++)
        r[i].row1 = r[b].row1;
      remove_rects(s, b, be);
    }
  }
}

/* s op= o, where o[0..m) is one band with exactly the rows of s's band s->r[b..): only the
 * intervals of that band that o's columns overlap or touch change. */
static nw_status apply_in_band(nw_region *s, op_kind op, size_t b, const nw_rect *o, size_t m) {
  size_t be = band_end(s->r, b, s->n);
  size_t k0 = gallop(s->r, b, be, COL1_GE, o[0].col0);
  size_t k1 = gallop(s->r, k0, be, COL0_GT, o[m - 1].col1);
  nw_region t; /* a band's result has at most the intervals of both sides */
  nw_region_init(&t, s->pitch);
  nw_status st = reserve(&t, k1 - k0 + m);
  if (st == NW_OK)
    st = cols_op(op, s->r + k0, k1 - k0, o, m, o[0].row0, o[0].row1, &t);
  if (st == NW_OK && !(t.n == k1 - k0 && cols_equal(t.r, s->r + k0, t.n))) {
    st = splice(s, k0, k1, t.r, t.n);
    if (st == NW_OK)
      rejoin(s, b, be - (k1 - k0) + t.n);
  }
  nw_region_free(&t);
  return st;
}

/* s op= o (union or difference) for a canonical o[0..m). Only the bands of s that o's rows
 * overlap or touch are swept (touching ones because the result may join them); what lies
 * above and below stays canonical next to the result, since the result's first and last
 * bands either keep the intervals of s's bands there or do not touch the rest. On failure s is
 * unchanged. */
static nw_status apply(nw_region *s, op_kind op, const nw_rect *o, size_t m) {
  if (m == 0 || (s->n == 0 && op != OP_UNION))
    return NW_OK;
  uint64_t r0 = o[0].row0, r1 = o[m - 1].row1;
  size_t i = gallop(s->r, 0, s->n, ROW1_GE, r0);
  size_t j = gallop(s->r, i, s->n, ROW0_GT, r1);
  /* No rectangle of s overlaps or touches o's rows (s empty, say, as a subtask's subscriptions
   * start): the union is o put in between as it is, the difference s itself. No temporary set:
   * a task graph of one-subtask tasks made two of them per task here. */
  if (i == j)
    return op == OP_UNION ? splice(s, i, i, o, m) : NW_OK;
  if (o[0].row0 == o[m - 1].row0) {
    size_t b = gallop(s->r, i, j, ROW1_GT, r0);
    if (b < j && s->r[b].row0 == r0 && s->r[b].row1 == r1)
      return apply_in_band(s, op, b, o, m);
  }
  nw_region t; /* usually about the size of both sides; grows if not */
  nw_region_init(&t, s->pitch);
  sink k = {&t, NO_BAND, 0};
  nw_status st = reserve(&t, j - i + m);
  if (st == NW_OK)
    st = sweep(op, s->r + i, j - i, o, m, &k);
  if (st == NW_OK)
    st = splice(s, i, j, t.r, t.n);
  nw_region_free(&t);
  return st;
}

nw_status nw_region_add_rect(nw_region *s, nw_rect x) {
  if (rect_empty(x))
    return NW_OK;
  return apply(s, OP_UNION, &x, 1);
}

/* The bytes [lo, hi) as at most three canonical rectangles: the partial first row, the whole
 * rows, the partial last row (a partial row that is whole joins the whole rows). */
static int range_rects(uint64_t p, uint64_t lo, uint64_t hi, nw_rect out[3]) {
  uint64_t r0 = lo / p, c0 = lo % p, r1 = (hi - 1) / p, c1 = (hi - 1) % p + 1;
  if (r0 == r1) {
    out[0] = (nw_rect){r0, r0 + 1, c0, c1};
    return 1;
  }
  int k = 0;
  uint64_t full0 = r0, full1 = r1 + 1; /* rows wholly covered: [full0, full1) */
  if (c0 > 0) {
    out[k++] = (nw_rect){r0, r0 + 1, c0, p};
    full0 = r0 + 1;
  }
  if (c1 < p)
    full1 = r1;
  if (full0 < full1)
    out[k++] = (nw_rect){full0, full1, 0, p};
  if (c1 < p)
    out[k++] = (nw_rect){r1, r1 + 1, 0, c1};
  return k;
}

nw_status nw_region_add_range(nw_region *s, uint64_t lo, uint64_t hi) {
  if (lo >= hi)
    return NW_OK;
  nw_rect x[3];
  int k = range_rects(s->pitch, lo, hi, x);
  return apply(s, OP_UNION, x, (size_t)k);
}

nw_status nw_quad_check(nw_quad q, uint64_t space_size, char *why, size_t why_len) {
  char dummy[1];
  if (!why) {
    why = dummy;
    why_len = sizeof dummy;
  }
  if (q.length == 0 || q.count == 0) {
    snprintf(why, why_len, "quad (offset %llu, length %llu, step %llu, count %llu) is empty",
             (unsigned long long)q.offset, (unsigned long long)q.length, (unsigned long long)q.step,
             (unsigned long long)q.count);
    return NW_ERR_ARG;
  }
  if (q.count > 1 && q.step < q.length) {
    snprintf(why, why_len,
             "quad (offset %llu, length %llu, step %llu, count %llu) has a step shorter than "
             "its length",
             (unsigned long long)q.offset, (unsigned long long)q.length, (unsigned long long)q.step,
             (unsigned long long)q.count);
    return NW_ERR_ARG;
  }
  /* end = offset + (count-1)*step + length, checked for overflow at each step */
  uint64_t span = 0;
  int overflow = q.count > 1 && q.step > 0 && q.count - 1 > UINT64_MAX / q.step;
  if (!overflow)
    span = (q.count - 1) * q.step;
  overflow = overflow || span > UINT64_MAX - q.length || span + q.length > UINT64_MAX - q.offset;
  if (overflow || q.offset + span + q.length > space_size) {
    if (overflow)
      snprintf(why, why_len,
               "quad (offset %llu, length %llu, step %llu, count %llu) ends past 2^64, outside "
               "the %llu-byte space",
               (unsigned long long)q.offset, (unsigned long long)q.length,
               (unsigned long long)q.step, (unsigned long long)q.count,
               (unsigned long long)space_size);
    else
      snprintf(why, why_len,
               "quad (offset %llu, length %llu, step %llu, count %llu) ends at byte %llu, past "
               "the end of the %llu-byte space",
               (unsigned long long)q.offset, (unsigned long long)q.length,
               (unsigned long long)q.step, (unsigned long long)q.count,
               (unsigned long long)(q.offset + span + q.length), (unsigned long long)space_size);
    return NW_ERR_RANGE;
  }
  return NW_OK;
}

/* Appends a piece to a scratch set built in address order. Pieces that come in order (after
 * the last band, or in its rows right of its last interval) are appended or widen the last
 * interval; bands are joined afterwards by join_bands. Anything else is merged in. */
static nw_status push_piece(nw_region *t, nw_rect x) {
  if (t->n) {
    nw_rect *l = &t->r[t->n - 1];
    if (x.row0 == l->row0 && x.row1 == l->row1 && x.col0 >= l->col0) {
      if (x.col0 <= l->col1) {
        l->col1 = max64(l->col1, x.col1);
        return NW_OK;
      }
    } else if (x.row0 < l->row1) {
      return apply(t, OP_UNION, &x, 1);
    }
  }
  return push(t, x.row0, x.row1, x.col0, x.col1);
}

/* Joins each band to the one above when they touch and hold the same intervals, in one pass:
 * what push_piece leaves undone. */
static void join_bands(nw_region *t) {
  size_t w = 0, last = NO_BAND;
  for (size_t i = 0; i < t->n;) {
    size_t e = band_end(t->r, i, t->n), n = e - i;
    if (last != NO_BAND && w - last == n && t->r[last].row1 == t->r[i].row0 &&
        cols_equal(t->r + last, t->r + i, n)) {
      for (size_t k = last; k < w; k++)
        t->r[k].row1 = t->r[i].row1;
    } else {
      memmove(t->r + w, t->r + i, n * sizeof *t->r);
      last = w;
      w += n;
    }
    i = e;
  }
  t->n = w;
}

nw_status nw_region_add_quad(nw_region *s, nw_quad q) {
  uint64_t p = s->pitch;
  if (q.length == 0 || q.count == 0)
    return NW_OK;
  if (q.count == 1 || q.length == q.step)
    return nw_region_add_range(s, q.offset, q.offset + (q.count - 1) * q.step + q.length);
  /* One segment per row, all in the same columns: one rectangle. */
  if (q.step == p && q.offset % p + q.length <= p)
    return nw_region_add_rect(
        s, (nw_rect){q.offset / p, q.offset / p + q.count, q.offset % p, q.offset % p + q.length});
  /* Segments come in address order: build their set by appending, then merge it in once. */
  nw_region t;
  nw_region_init(&t, p);
  nw_status st = NW_OK;
  for (uint64_t i = 0; i < q.count && st == NW_OK; i++) {
    nw_rect x[3];
    uint64_t lo = q.offset + i * q.step;
    int k = range_rects(p, lo, lo + q.length, x);
    for (int m = 0; m < k && st == NW_OK; m++)
      st = push_piece(&t, x[m]);
  }
  if (st == NW_OK) {
    join_bands(&t);
    st = apply(s, OP_UNION, t.r, t.n);
  }
  nw_region_free(&t);
  return st;
}

nw_status nw_region_add(nw_region *s, const nw_region *other) {
  if (s == other)
    return NW_OK;
  return apply(s, OP_UNION, other->r, other->n);
}

nw_status nw_region_subtract(nw_region *s, const nw_region *other) {
  if (s == other) {
    nw_region_clear(s);
    return NW_OK;
  }
  return apply(s, OP_DIFF, other->r, other->n);
}

nw_status nw_region_intersect(nw_region *out, const nw_region *a, const nw_region *b) {
  nw_region_clear(out);
  out->pitch = a->pitch;
  sink k = {out, NO_BAND, 0};
  nw_status st = sweep(OP_INTER, a->r, a->n, b->r, b->n, &k);
  if (st != NW_OK)
    nw_region_clear(out);
  return st;
}

uint64_t nw_region_overlap_bytes(const nw_region *a, const nw_region *b) {
  if (a->n == 0 || b->n == 0)
    return 0;
  /* Only b's bands within a's rows can overlap: a small set against a large one (a transfer
   * against every byte a node ever received) sweeps the few bands it meets, not all. */
  size_t i = gallop(b->r, 0, b->n, ROW1_GT, a->r[0].row0);
  size_t j = gallop(b->r, i, b->n, ROW0_GT, a->r[a->n - 1].row1 - 1);
  sink k = {NULL, NO_BAND, 0};
  sweep(OP_INTER, a->r, a->n, b->r + i, j - i, &k); /* counting allocates nothing: cannot fail */
  return k.bytes;
}

int nw_region_empty(const nw_region *s) {
  return s->n == 0;
}

uint64_t nw_region_bytes(const nw_region *s) {
  uint64_t b = 0;
  for (size_t i = 0; i < s->n; i++)
    b += (s->r[i].row1 - s->r[i].row0) * (s->r[i].col1 - s->r[i].col0);
  return b;
}

uint64_t nw_region_runs(const nw_region *s) {
  uint64_t runs = 0;
  for (size_t i = 0; i < s->n; i++)
    runs += s->r[i].row1 - s->r[i].row0;
  return runs;
}

uint64_t nw_region_pages(const nw_region *s, uint64_t lo, uint64_t page) {
  uint64_t pages = 0;
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    uint64_t last = UINT64_MAX; /* the previous row's last page */
    for (uint64_t row = r->row0; row < r->row1; row++) {
      uint64_t first = (row * s->pitch + r->col0 - lo) / page;
      uint64_t end = (row * s->pitch + r->col1 - 1 - lo) / page;
      pages += end - first + 1 - (first == last);
      last = end;
    }
  }
  return pages;
}

int nw_region_contains(const nw_region *a, const nw_region *b) {
  size_t i = 0;
  for (size_t j = 0; j < b->n;) {
    size_t eb = band_end(b->r, j, b->n);
    /* a's bands must cover b's rows without a gap, each holding b's intervals */
    for (uint64_t y = b->r[j].row0; y < b->r[j].row1;) {
      i = gallop(a->r, i, a->n, ROW1_GT, y);
      if (i == a->n || a->r[i].row0 > y)
        return 0;
      size_t ea = band_end(a->r, i, a->n);
      if (!cols_contain(a->r + i, ea - i, b->r + j, eb - j))
        return 0;
      y = a->r[i].row1;
    }
    j = eb;
  }
  return 1;
}

void nw_region_bounds(const nw_region *s, uint64_t *lo, uint64_t *hi) {
  *lo = *hi = 0;
  if (s->n == 0)
    return;
  /* the first rectangle is the top band's leftmost, the last the bottom band's rightmost */
  const nw_rect *f = &s->r[0], *l = &s->r[s->n - 1];
  *lo = f->row0 * s->pitch + f->col0;
  *hi = (l->row1 - 1) * s->pitch + l->col1;
}

void nw_region_gather_from(const nw_region *s, const unsigned char *space, uint64_t lo,
                           unsigned char *packed) {
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    uint64_t w = r->col1 - r->col0;
    for (uint64_t row = r->row0; row < r->row1; row++, packed += w)
      memcpy(packed, space + (row * s->pitch + r->col0 - lo), w);
  }
}

void nw_region_gather(const nw_region *s, const unsigned char *space, unsigned char *packed) {
  nw_region_gather_from(s, space, 0, packed);
}

/* Copies the set's rows between a buffer laid out as the whole space and a view holding
 * [lo, ...): into the view, or out of it. */
static void copy_rows(const nw_region *s, unsigned char *space, unsigned char *view, uint64_t lo,
                      int into_view) {
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    for (uint64_t row = r->row0; row < r->row1; row++) {
      uint64_t at = row * s->pitch + r->col0;
      if (into_view)
        memcpy(view + (at - lo), space + at, r->col1 - r->col0);
      else
        memcpy(space + at, view + (at - lo), r->col1 - r->col0);
    }
  }
}

void nw_region_copy_from(const nw_region *s, const unsigned char *view, uint64_t lo,
                         unsigned char *space) {
  copy_rows(s, space, (unsigned char *)view, lo, 0);
}

void nw_region_copy_into(const nw_region *s, const unsigned char *space, unsigned char *view,
                         uint64_t lo) {
  copy_rows(s, (unsigned char *)space, view, lo, 1);
}

void nw_region_scatter_to(const nw_region *s, const unsigned char *packed, uint64_t lo,
                          unsigned char *space) {
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    uint64_t w = r->col1 - r->col0;
    for (uint64_t row = r->row0; row < r->row1; row++, packed += w)
      memcpy(space + (row * s->pitch + r->col0 - lo), packed, w);
  }
}

void nw_region_scatter(const nw_region *s, const unsigned char *packed, unsigned char *space) {
  nw_region_scatter_to(s, packed, 0, space);
}
