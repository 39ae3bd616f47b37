/* devmem.c: the books of one GPU's memory budget (see devmem.h): a sorted array of free holes,
 * taken first fit and merged back on release. */
#include "devmem.h"

#include <stdlib.h>
#include <string.h>

/* Rounds a request up to the alignment; 0 means "too large to represent". */
static uint64_t devmem_round(uint64_t bytes) {
  if (bytes == 0)
    bytes = 1;
  if (bytes > UINT64_MAX - (NW_DEVMEM_ALIGN - 1))
    return 0;
  return (bytes + NW_DEVMEM_ALIGN - 1) & ~(uint64_t)(NW_DEVMEM_ALIGN - 1);
}

nw_status nw_devmem_init(nw_devmem *m, uint64_t capacity) {
  memset(m, 0, sizeof *m);
  m->capacity = capacity;
  m->caphole = 8;
  m->hole = malloc(m->caphole * sizeof *m->hole);
  if (!m->hole) {
    m->caphole = 0;
    return NW_ERR_NOMEM;
  }
  if (capacity > 0)
    m->hole[m->nhole++] = (nw_devmem_hole){0, capacity};
  return NW_OK;
}

void nw_devmem_free_all(nw_devmem *m) {
  free(m->hole);
  m->hole = NULL;
  m->nhole = m->caphole = 0;
  m->used = 0;
}

int nw_devmem_alloc(nw_devmem *m, uint64_t bytes, uint64_t *off) {
  uint64_t r = devmem_round(bytes);
  if (r == 0 || r > m->capacity)
    return 0;
  for (size_t i = 0; i < m->nhole; i++) {
    nw_devmem_hole *h = &m->hole[i];
    if (h->len < r)
      continue;
    *off = h->off;
    h->off += r;
    h->len -= r;
    if (h->len == 0) {
      memmove(h, h + 1, (m->nhole - i - 1) * sizeof *h);
      m->nhole--;
    }
    m->used += r;
    return 1;
  }
  return 0;
}

void nw_devmem_release(nw_devmem *m, uint64_t off, uint64_t bytes) {
  uint64_t r = devmem_round(bytes);
  if (r == 0)
    return;
  m->used = m->used >= r ? m->used - r : 0;
  /* First hole that starts after the block: the block goes just before it. */
  size_t lo = 0, hi = m->nhole;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->hole[mid].off < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  int join_prev = lo > 0 && m->hole[lo - 1].off + m->hole[lo - 1].len == off;
  int join_next = lo < m->nhole && off + r == m->hole[lo].off;
  if (join_prev && join_next) {
    m->hole[lo - 1].len += r + m->hole[lo].len;
    memmove(&m->hole[lo], &m->hole[lo + 1], (m->nhole - lo - 1) * sizeof *m->hole);
    m->nhole--;
    return;
  }
  if (join_prev) {
    m->hole[lo - 1].len += r;
    return;
  }
  if (join_next) {
    m->hole[lo].off = off;
    m->hole[lo].len += r;
    return;
  }
  if (m->nhole == m->caphole) {
    size_t cap = m->caphole ? 2 * m->caphole : 8;
    nw_devmem_hole *h = realloc(m->hole, cap * sizeof *h);
    if (!h) {
      /* Release cannot report failure, and refusing the block would leave the caller's books
       * wrong. So the block is dropped from the free list: those bytes are lost to later
       * allocations (never handed out twice), and `used` still counts only live blocks. */
      return;
    }
    m->hole = h;
    m->caphole = cap;
  }
  memmove(&m->hole[lo + 1], &m->hole[lo], (m->nhole - lo) * sizeof *m->hole);
  m->hole[lo] = (nw_devmem_hole){off, r};
  m->nhole++;
}

int nw_devmem_reserve(nw_devmem *m, size_t more) {
  if (more > SIZE_MAX / sizeof *m->hole - m->nhole)
    return 0;
  size_t need = m->nhole + more;
  if (need <= m->caphole)
    return 1;
  size_t cap = m->caphole ? m->caphole : 8;
  while (cap < need)
    cap = cap > SIZE_MAX / 2 / sizeof *m->hole ? need : 2 * cap;
  nw_devmem_hole *h = realloc(m->hole, cap * sizeof *h);
  if (!h)
    return 0;
  m->hole = h;
  m->caphole = cap;
  return 1;
}

int nw_devmem_claim(nw_devmem *m, uint64_t off, uint64_t bytes) {
  uint64_t r = devmem_round(bytes);
  if (r == 0 || m->nhole == 0)
    return 0;
  /* The last hole that starts at or before off must hold the whole block. */
  size_t lo = 0, hi = m->nhole;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->hole[mid].off <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return 0;
  nw_devmem_hole *h = &m->hole[lo - 1];
  if (off + r < off || off + r > h->off + h->len)
    return 0;
  uint64_t before = off - h->off, after = h->off + h->len - (off + r);
  if (before > 0 && after > 0) { /* the hole splits in two */
    if (m->nhole == m->caphole)
      return 0;
    memmove(h + 2, h + 1, (m->nhole - lo) * sizeof *h);
    h[1] = (nw_devmem_hole){off + r, after};
    h->len = before;
    m->nhole++;
  } else if (before > 0) {
    h->len = before;
  } else if (after > 0) {
    h->off = off + r;
    h->len = after;
  } else {
    memmove(h, h + 1, (m->nhole - lo) * sizeof *h);
    m->nhole--;
  }
  m->used += r;
  return 1;
}
