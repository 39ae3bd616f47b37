/* wire.c: little-endian message encoding with bounds checks (see wire.h). */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

/* A writer starts with room for a typical control message (a task's start with a few spaces:
 * 200-300 bytes), so most messages cost one allocation, not a chain of reallocations. */
#define FIRST_CAP 256

static int grow(nw_writer *w, size_t n) {
  if (w->oom)
    return 0;
  if (w->len + n <= w->cap)
    return 1;
  size_t cap = w->cap ? w->cap : FIRST_CAP;
  while (cap < w->len + n)
    cap *= 2;
  unsigned char *b = realloc(w->buf, cap);
  if (!b) {
    w->oom = 1;
    return 0;
  }
  w->buf = b;
  w->cap = cap;
  return 1;
}

void nw_w_init(nw_writer *w, nw_msg_type type) {
  memset(w, 0, sizeof *w);
  nw_w_u8(w, (uint8_t)type);
}

unsigned char *nw_w_reserve(nw_writer *w, size_t n) {
  if (!grow(w, n))
    return NULL;
  unsigned char *p = w->buf + w->len;
  w->len += n;
  return p;
}

void nw_w_bytes(nw_writer *w, const void *p, size_t n) {
  unsigned char *dst = nw_w_reserve(w, n);
  if (dst && n)
    memcpy(dst, p, n);
}

/* Little-endian whatever the host: byte i of v at dst[i]. Spelled out byte by byte, these
 * compile to one load or store on a little-endian host (GCC's and Clang's load and store
 * merging); a loop would not be unrolled at -O2. The hot path of every message. */
static inline void le_store(unsigned char *d, uint64_t v, int n) {
  if (n == 8) {
    d[0] = (unsigned char)v, d[1] = (unsigned char)(v >> 8), d[2] = (unsigned char)(v >> 16);
    d[3] = (unsigned char)(v >> 24), d[4] = (unsigned char)(v >> 32);
    d[5] = (unsigned char)(v >> 40), d[6] = (unsigned char)(v >> 48);
    d[7] = (unsigned char)(v >> 56);
  } else if (n == 4) {
    d[0] = (unsigned char)v, d[1] = (unsigned char)(v >> 8), d[2] = (unsigned char)(v >> 16);
    d[3] = (unsigned char)(v >> 24);
  } else {
    for (int i = 0; i < n; i++)
      d[i] = (unsigned char)(v >> (8 * i));
  }
}

static inline uint64_t le_load(const unsigned char *p, int n) {
  if (n == 8)
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
  if (n == 4)
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static inline void put_le(nw_writer *w, uint64_t v, int n) {
  if (w->len + (size_t)n <= w->cap) { /* room already: no call */
    le_store(w->buf + w->len, v, n);
    w->len += (size_t)n;
    return;
  }
  unsigned char *dst = nw_w_reserve(w, (size_t)n);
  if (dst)
    le_store(dst, v, n);
}

void nw_w_u8(nw_writer *w, uint8_t v) {
  put_le(w, v, 1);
}
void nw_w_u32(nw_writer *w, uint32_t v) {
  put_le(w, v, 4);
}
void nw_w_u64(nw_writer *w, uint64_t v) {
  put_le(w, v, 8);
}
void nw_w_f64(nw_writer *w, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  put_le(w, u, 8);
}

void nw_w_region(nw_writer *w, const nw_region *r) {
  nw_w_u64(w, r->n);
  for (size_t i = 0; i < r->n; i++) {
    nw_w_u64(w, r->r[i].row0);
    nw_w_u64(w, r->r[i].row1);
    nw_w_u64(w, r->r[i].col0);
    nw_w_u64(w, r->r[i].col1);
  }
}

void nw_w_free(nw_writer *w) {
  free(w->buf);
  memset(w, 0, sizeof *w);
}

void nw_r_init(nw_reader *r, const void *buf, size_t len) {
  r->p = buf;
  r->len = len;
  r->pos = 0;
  r->bad = 0;
}

const unsigned char *nw_r_bytes(nw_reader *r, size_t n) {
  if (r->bad || n > r->len - r->pos) {
    r->bad = 1;
    return NULL;
  }
  const unsigned char *p = r->p + r->pos;
  r->pos += n;
  return p;
}

static inline uint64_t get_le(nw_reader *r, int n) {
  if (!r->bad && (size_t)n <= r->len - r->pos) {
    uint64_t v = le_load(r->p + r->pos, n);
    r->pos += (size_t)n;
    return v;
  }
  r->bad = 1;
  return 0;
}

uint8_t nw_r_u8(nw_reader *r) {
  return (uint8_t)get_le(r, 1);
}
uint32_t nw_r_u32(nw_reader *r) {
  return (uint32_t)get_le(r, 4);
}
uint64_t nw_r_u64(nw_reader *r) {
  return get_le(r, 8);
}
double nw_r_f64(nw_reader *r) {
  uint64_t u = get_le(r, 8);
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

void nw_r_region(nw_reader *r, nw_region *out, uint64_t pitch) {
  nw_region_init(out, pitch);
  uint64_t n = nw_r_u64(r);
  if (n > (r->len - r->pos) / 32) { /* each rectangle takes 32 bytes */
    r->bad = 1;
    return;
  }
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    nw_rect x;
    x.row0 = nw_r_u64(r);
    x.row1 = nw_r_u64(r);
    x.col0 = nw_r_u64(r);
    x.col1 = nw_r_u64(r);
    if (x.row0 >= x.row1 || x.col0 >= x.col1 || x.col1 > pitch) {
      r->bad = 1;
      return;
    }
    if (nw_region_add_rect(out, x) != NW_OK)
      r->bad = 1;
  }
}
