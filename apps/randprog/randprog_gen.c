/* randprog_gen.c: draws a random program from a seed (randprog.h, randprog_gen.h).
 *
 * Shapes are drawn to reach the corners of the data layer: pitches that do not divide the
 * size (so the last row is partial), pitch 1, pitch = size and pitch > size; quads that run
 * across rows, segments further apart than long, rectangles (step == pitch), segments that
 * wrap into the next row, single bytes, whole rows, the whole space, the tail of the space,
 * repeats of earlier tasks' quads and reads of what the previous task wrote. The one rule the
 * API imposes across subtasks is kept: within a task, different subtasks never write the same
 * byte (a subtask's own quads may overlap), except on a reduced binding, where they are drawn
 * to overlap, in whole elements (randprog.h, "Reductions").
 */
#include <stdlib.h>
#include <string.h>

#include "randprog_gen.h"
#include "reduce.h"

uint64_t rp_next(rp_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t rp_below(rp_rng *r, uint64_t n) {
  return rp_next(r) % n;
}

void rp_fill(unsigned char *dst, uint64_t len, uint64_t seed) {
  rp_rng r = {seed};
  for (uint64_t i = 0; i < len; i++)
    dst[i] = (unsigned char)(rp_next(&r) >> 56);
}

static uint32_t min32(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}

#define HIST 64 /* quads remembered per space for repeats and chains */

typedef struct gen {
  rp_rng r;
  /* Every reduction draw: the main stream r then draws what it drew before reductions
   * existed, so a seed's program changes only where a binding is reduced. */
  rp_rng rr;
  rp_program *p;
  rp_quad hist[RP_MAX_SPACES][HIST]; /* quads of earlier tasks, per program space */
  int nhist[RP_MAX_SPACES];
  rp_quad chain[RP_MAX_SPACES][HIST]; /* what the previous task wrote */
  int nchain[RP_MAX_SPACES];
} gen;

/* Cuts a quad down until it lies inside a space of S bytes. */
static void fit(rp_rng *r, rp_quad *q, uint32_t S) {
  if (q->offset >= S)
    q->offset = (uint32_t)rp_below(r, S);
  if (q->length == 0)
    q->length = 1;
  while (q->count > 1 && (uint64_t)q->offset + (uint64_t)(q->count - 1) * q->step + q->length > S)
    q->count--;
  if (q->count == 1 && q->offset + q->length > S)
    q->length = S - q->offset;
}

/* One quad of some shape in program space sp. */
static rp_quad shape(gen *g, int sp) {
  rp_rng *r = &g->r;
  uint32_t S = g->p->size[sp], P = g->p->pitch[sp];
  uint32_t rows = (S + P - 1) / P, W = min32(P, S), full = S / P;
  rp_quad q = {.count = 1};
  switch (rp_below(r, 11)) {
  case 0: /* a contiguous range, often across row boundaries */
    q.offset = (uint32_t)rp_below(r, S);
    if (rp_below(r, 2))
      q.length = 1 + (uint32_t)rp_below(r, S - q.offset);
    else
      q.length = min32(S - q.offset, P - q.offset % P + 1 + (uint32_t)rp_below(r, P + 1));
    break;
  case 1: /* segments further apart than long */
    q.length = 1 + (uint32_t)rp_below(r, W / 2 ? W / 2 : 1);
    q.step = q.length + 1 + (uint32_t)rp_below(r, 2 * (uint64_t)P);
    q.count = 2 + (uint32_t)rp_below(r, 8);
    q.offset = (uint32_t)rp_below(r, S);
    break;
  case 2: { /* a rectangle: step == pitch, inside the rows */
    uint32_t c0 = (uint32_t)rp_below(r, W);
    q.length = 1 + (uint32_t)rp_below(r, W - c0);
    q.step = P;
    q.count = 1 + (uint32_t)rp_below(r, rows);
    q.offset = (uint32_t)rp_below(r, rows) * P + c0;
    break;
  }
  case 3: /* a single byte */
    q.offset = (uint32_t)rp_below(r, S);
    q.length = 1;
    break;
  case 4: /* whole rows (the whole space where no row is whole) */
    if (full > 0) {
      uint32_t r0 = (uint32_t)rp_below(r, full);
      q.offset = r0 * P;
      q.length = q.step = P;
      q.count = 1 + (uint32_t)rp_below(r, full - r0);
    } else {
      q.length = S;
    }
    break;
  case 5: /* the whole space */
    q.offset = 0;
    q.length = S;
    break;
  case 6: /* the tail: reaches the partial last row */
    q.length = 1 + (uint32_t)rp_below(r, min32(S, 2 * P));
    q.offset = S - q.length;
    break;
  case 7: /* segments back to back (step == length) */
    q.length = 1 + (uint32_t)rp_below(r, W);
    q.step = q.length;
    q.count = 2 + (uint32_t)rp_below(r, 8);
    q.offset = (uint32_t)rp_below(r, S);
    break;
  case 8: /* step == pitch with segments that wrap into the next row */
    q.length = 1 + (uint32_t)rp_below(r, W);
    q.step = P;
    q.count = 1 + (uint32_t)rp_below(r, rows);
    q.offset = (uint32_t)rp_below(r, S);
    break;
  case 9: /* an earlier task's quad again */
  case 10:
    if (g->nhist[sp] > 0) {
      q = g->hist[sp][rp_below(r, (uint64_t)g->nhist[sp])];
      q.space = q.access = 0;
      return q;
    }
    q.offset = (uint32_t)rp_below(r, S);
    q.length = 1 + (uint32_t)rp_below(r, S - q.offset);
    break;
  }
  if (q.count <= 1) { /* the step of a one-segment quad means nothing: try odd ones */
    uint64_t u = rp_below(r, 10);
    q.step = u == 0 ? 0 : u == 1 ? (uint32_t)rp_below(r, 4 * (uint64_t)S + 1) : q.length;
  }
  fit(r, &q, S);
  return q;
}

/* Runs body with `off` set to each byte offset of quad q, in order. */
#define FOR_BYTES(q, off, ...)                                                                     \
  for (uint64_t seg_ = 0; seg_ < (q).count; seg_++)                                                \
    for (uint64_t k_ = 0; k_ < (q).length; k_++) {                                                 \
      uint64_t off = (q).offset + seg_ * (q).step + k_;                                            \
      __VA_ARGS__;                                                                                 \
    }

/* The bounding rectangle of the quads of binding b, in bytes; 0 when there are none. */
static uint64_t rect_bytes(const rp_program *p, const rp_task_def *t, const rp_quad *q, int nq,
                           uint32_t b) {
  uint64_t P = p->pitch[t->space[b]], r0 = UINT64_MAX, r1 = 0, c0 = UINT64_MAX, c1 = 0;
  int any = 0;
  for (int i = 0; i < nq; i++) {
    if (q[i].space != b)
      continue;
    any = 1;
    FOR_BYTES(q[i], off, {
      uint64_t row = off / P, col = off % P;
      r0 = row < r0 ? row : r0;
      r1 = row + 1 > r1 ? row + 1 : r1;
      c0 = col < c0 ? col : c0;
      c1 = col + 1 > c1 ? col + 1 : c1;
    });
  }
  return any ? (r1 - r0) * (c1 - c0) : 0;
}

uint64_t rp_gpu_need(const rp_program *p, const rp_task_def *t, const rp_quad *q, int nq) {
  uint64_t need = 0;
  for (int b = 0; b < t->nbind; b++) {
    uint64_t bytes = rect_bytes(p, t, q, nq, (uint32_t)b);
    need += bytes ? bytes + RP_GPU_ALIGN : 0;
  }
  return need;
}

/* Whether subtask `who` (1-based) may write every byte of q: no other subtask of the task
 * writes any of them. */
static int free_for(const unsigned char *owner, rp_quad q, unsigned char who) {
  FOR_BYTES(q, off, {
    if (owner[off] && owner[off] != who)
      return 0;
  });
  return 1;
}

static void claim(unsigned char *owner, rp_quad q, unsigned char who) {
  FOR_BYTES(q, off, owner[off] = who);
}

/* Shrinks a subtask's quads until its GPU need fits the budget: the widest binding loses its
 * last quad, or its only quad becomes one element (es[b] bytes: 1, or a reduced binding's
 * element size; a whole-element quad's first element lies inside one row). Dropping writes
 * keeps them disjoint. */
static void shrink_to(const rp_program *p, const rp_task_def *t, rp_quad *q, int *nq,
                      uint64_t budget, const uint32_t *es) {
  while (rp_gpu_need(p, t, q, *nq) > budget) {
    uint32_t widest = 0;
    uint64_t most = 0;
    for (int b = 0; b < t->nbind; b++) {
      uint64_t bytes = rect_bytes(p, t, q, *nq, (uint32_t)b);
      if (bytes > most) {
        most = bytes;
        widest = (uint32_t)b;
      }
    }
    int last = -1, count = 0;
    for (int i = 0; i < *nq; i++)
      if (q[i].space == widest) {
        last = i;
        count++;
      }
    if (count > 1) {
      memmove(&q[last], &q[last + 1], (size_t)(*nq - last - 1) * sizeof *q);
      (*nq)--;
    } else if (most > es[widest]) {
      q[last].length = q[last].step = es[widest];
      q[last].count = 1;
    } else {
      return; /* one element per space: fits any budget rp_check allows */
    }
  }
}

/* The subtask of the budget-setting task that needs more than budget / 2 (and at most
 * budget): one rectangle in program space 0, which is at least budget bytes. */
static rp_quad big_quad(gen *g, uint64_t budget) {
  rp_rng *r = &g->r;
  uint32_t S = g->p->size[0], P = g->p->pitch[0];
  uint32_t half = (uint32_t)(budget / 2);
  rp_quad q = {.count = 1};
  if (P > S) { /* one row of S >= budget bytes */
    q.length = q.step = half;
    q.offset = (uint32_t)rp_below(r, S - half + 1);
    return q;
  }
  uint32_t w = min32(P, half), rows = (uint32_t)((budget - RP_GPU_ALIGN) / w), full = S / P;
  uint32_t r0 = (uint32_t)rp_below(r, full - rows + 1), c0 = (uint32_t)rp_below(r, P - w + 1);
  q.offset = r0 * P + c0;
  q.length = w;
  q.step = P;
  q.count = rows;
  return q;
}

/* Whether q may be written on a binding reduced over es-byte elements of program space sp:
 * whole elements inside the space, and every segment inside one row unless rows start on
 * element boundaries too (so that the runtime's regions only hold runs that start and end on
 * them: nw_reduce_aligned). */
static int reducible(const rp_program *p, int sp, rp_quad q, uint32_t es) {
  uint32_t S = p->size[sp], P = p->pitch[sp];
  if (q.length == 0 || q.count == 0 || q.offset % es || q.length % es ||
      (q.count > 1 && q.step % es) ||
      (uint64_t)q.offset + (uint64_t)(q.count - 1) * q.step + q.length > S)
    return 0;
  if (P % es == 0 || S <= P)
    return 1;
  for (uint64_t i = 0; i < q.count; i++) {
    uint64_t a = q.offset + i * q.step;
    if (a / P != (a + q.length - 1) / P)
      return 0;
  }
  return 1;
}

/* The first element (from element e on, wrapping) that a reduced binding may write alone;
 * UINT32_MAX when there is none (a space smaller than an element, or rows too narrow). */
static uint32_t one_element(const rp_program *p, int sp, uint32_t es, uint32_t e) {
  uint32_t E = p->size[sp] / es;
  for (uint32_t i = 0; i < E; i++) {
    uint32_t x = (e + i) % E;
    if (reducible(p, sp, (rp_quad){.offset = x * es, .length = es, .step = es, .count = 1}, es))
      return x;
  }
  return UINT32_MAX;
}

/* One quad of some shape for a binding of program space sp reduced over es-byte elements
 * (reducible); length 0 when the space has no element to write. Offsets, lengths and steps
 * are drawn in elements; shapes that break rows where rows do not start on element
 * boundaries are drawn again, at last one element. */
static rp_quad aligned_shape(gen *g, int sp, uint32_t es) {
  rp_rng *r = &g->rr;
  uint32_t S = g->p->size[sp], P = g->p->pitch[sp];
  uint32_t E = S / es, rows = (S + P - 1) / P, PE = min32(P, S) / es;
  if (E == 0)
    return (rp_quad){0};
  PE = PE ? PE : 1;
  for (int tries = 0; tries < 8; tries++) {
    rp_quad q = {.count = 1};
    switch (rp_below(r, 9)) {
    case 0: /* a contiguous run, often across rows */
      q.offset = (uint32_t)rp_below(r, E);
      q.length = 1 + (uint32_t)rp_below(r, E - q.offset);
      q.offset *= es;
      q.length *= es;
      break;
    case 1: /* segments further apart than long */
      q.length = (1 + (uint32_t)rp_below(r, PE / 2 ? PE / 2 : 1)) * es;
      q.step = q.length + (1 + (uint32_t)rp_below(r, 2 * (uint64_t)PE)) * es;
      q.count = 2 + (uint32_t)rp_below(r, 8);
      q.offset = (uint32_t)rp_below(r, E) * es;
      break;
    case 2: { /* a rectangle: step == pitch */
      uint32_t c0 = (uint32_t)rp_below(r, PE);
      q.length = (1 + (uint32_t)rp_below(r, PE - c0)) * es;
      q.step = P;
      q.count = 1 + (uint32_t)rp_below(r, rows);
      q.offset = (uint32_t)rp_below(r, rows) * P + c0 * es;
      break;
    }
    case 3: /* a single element */
      q.offset = (uint32_t)rp_below(r, E) * es;
      q.length = es;
      break;
    case 4: /* every whole element */
      q.length = E * es;
      break;
    case 5: /* segments back to back (step == length) */
      q.length = q.step = (1 + (uint32_t)rp_below(r, PE)) * es;
      q.count = 2 + (uint32_t)rp_below(r, 8);
      q.offset = (uint32_t)rp_below(r, E) * es;
      break;
    case 6: { /* the tail */
      uint32_t n = 1 + (uint32_t)rp_below(r, min32(E, 2 * PE));
      q.offset = (E - n) * es;
      q.length = n * es;
      break;
    }
    case 7: { /* inside one row */
      uint64_t row = rp_below(r, rows), lo = (row * P + es - 1) / es,
               hi = (row + 1) * P < S ? (row + 1) * P / es : E;
      if (lo >= hi)
        continue;
      q.offset = (uint32_t)(lo + rp_below(r, hi - lo));
      q.length = (1 + (uint32_t)rp_below(r, hi - q.offset)) * es;
      q.offset *= es;
      break;
    }
    case 8: /* an earlier task's quad again, where it is whole elements */
      if (g->nhist[sp] == 0)
        continue;
      q = g->hist[sp][rp_below(r, (uint64_t)g->nhist[sp])];
      q.space = q.access = 0;
      if (reducible(g->p, sp, q, es))
        return q;
      continue;
    }
    if (q.count <= 1) { /* odd steps, as shape() tries */
      uint64_t u = rp_below(r, 10);
      q.step = u == 0 ? 0 : u == 1 ? (uint32_t)rp_below(r, 4 * (uint64_t)S + 1) : q.length;
    }
    while (q.count > 1 && (uint64_t)q.offset + (uint64_t)(q.count - 1) * q.step + q.length > S)
      q.count--;
    if (q.count == 1 && q.offset < E * es && q.offset + q.length > S)
      q.length = E * es - q.offset;
    if (reducible(g->p, sp, q, es))
      return q;
  }
  uint32_t x = one_element(g->p, sp, es, (uint32_t)rp_below(r, E));
  if (x == UINT32_MAX)
    return (rp_quad){0};
  return (rp_quad){.offset = x * es, .length = es, .step = es, .count = 1};
}

int rp_skipped(const char *what) {
  const char *v = getenv("RANDPROG_SKIP");
  return v && strstr(v, what) != NULL;
}

/* With probability 1/3, a reduction for a write-only binding of program space sp (op 0:
 * none; also where the space holds no element of the type drawn, or RANDPROG_SKIP says
 * "reductions"). */
static rp_reduction draw_reduction(gen *g, int sp) {
  rp_rng *r = &g->rr;
  if (rp_below(r, 3) != 0 || rp_skipped("reductions"))
    return (rp_reduction){0};
  rp_reduction red = {.op = NW_REDUCE_ADD + (uint32_t)rp_below(r, 11)};
  int bitwise = red.op >= NW_REDUCE_LOGICAL_AND && red.op <= NW_REDUCE_BIT_XOR;
  if (red.op == NW_REDUCE_CUSTOM) {
    red.custom = RP_CUSTOM_ADD1 + (uint32_t)rp_below(r, 2);
    /* a + b + 1 works on 32-bit words: any integer type's size is a multiple */
    red.type = NW_TYPE_INT32 + (uint32_t)rp_below(r, red.custom == RP_CUSTOM_ADD1 ? 4 : 6);
  } else if (bitwise && rp_below(r, 3) == 0) {
    /* no rounding in these: the bytes do not depend on the order either */
    red.type = NW_TYPE_FLOAT + (uint32_t)rp_below(r, 2);
  } else {
    red.type = NW_TYPE_INT32 + (uint32_t)rp_below(r, 4);
  }
  uint32_t es = (uint32_t)nw_reduce_elem_size((nw_elem_type)red.type);
  return one_element(g->p, sp, es, 0) == UINT32_MAX ? (rp_reduction){0} : red;
}

/* Subtask quads q[0, nq) with those of each reduced binding replaced by whole-element ones:
 * each of the task's pool quads for it with probability 1/2 (what makes subtasks overlap),
 * then 0-2 of its own; none for the budget-setting subtask (`none`). Keeps the records
 * ordered by binding. Returns the new count. */
static int reduced_quads(gen *g, const rp_task_def *t, rp_quad *q, int nq,
                         rp_quad pool[][RP_MAX_QUADS - 1], const int *npool, const uint32_t *es,
                         int none) {
  rp_quad out[RP_MAX_SPACES * RP_MAX_QUADS];
  int n = 0;
  for (int b = 0; b < t->nbind; b++) {
    if (!t->red[b].op) {
      for (int i = 0; i < nq; i++)
        if (q[i].space == (uint32_t)b)
          out[n++] = q[i];
      continue;
    }
    int mine = 0;
    for (int i = 0; !none && i < npool[b]; i++)
      if (rp_below(&g->rr, 2))
        out[n + mine++] = pool[b][i];
    for (int i = (int)rp_below(&g->rr, 3); !none && i > 0 && mine < RP_MAX_QUADS; i--) {
      rp_quad x = aligned_shape(g, t->space[b], es[b]);
      if (x.length)
        out[n + mine++] = x;
    }
    for (int i = 0; i < mine; i++) {
      out[n + i].space = (uint32_t)b;
      out[n + i].access = NW_WRITE_ONLY;
    }
    n += mine;
  }
  memcpy(q, out, (size_t)n * sizeof *q);
  return n;
}

static nw_access quad_access(gen *g, nw_access bound) {
  return bound == NW_READ_WRITE ? (nw_access)(1 + rp_below(&g->r, 3)) : bound;
}

/* Draws the subtasks of task k and builds its configuration bytes. */
static nw_status gen_task(gen *g, int k, int big, uint64_t budget) {
  rp_program *p = g->p;
  rp_task_def *t = &p->task[k];
  rp_rng *r = &g->r;
  enum { MAXQ = RP_MAX_SPACES * RP_MAX_QUADS };
  rp_quad *quads = malloc(sizeof *quads * RP_MAX_SUBTASKS * MAXQ);
  unsigned char *owner[RP_MAX_SPACES] = {0};
  nw_status st = quads ? NW_OK : NW_ERR_NOMEM;
  for (int b = 0; st == NW_OK && b < t->nbind; b++)
    if (!(owner[b] = calloc(p->size[t->space[b]], 1)))
      st = NW_ERR_NOMEM;
  rp_conf_head h = {.task = (uint32_t)k,
                    .subtasks = t->subtasks,
                    .nspaces = (uint32_t)t->nbind,
                    .scratch = budget == 0};
  uint32_t total = 0;
  int nchain[RP_MAX_SPACES] = {0};
  rp_quad chain[RP_MAX_SPACES][HIST];
  /* Reduced bindings: element sizes (1 elsewhere), the quads several subtasks take, and per
   * byte the last subtask that wrote it (to count overlaps). */
  uint32_t es[RP_MAX_SPACES];
  rp_quad pool[RP_MAX_SPACES][RP_MAX_QUADS - 1];
  int npool[RP_MAX_SPACES] = {0}, reduced = 0, overlap = 0;
  unsigned char *seen[RP_MAX_SPACES] = {0};
  for (int b = 0; st == NW_OK && b < t->nbind; b++) {
    h.red[b] = t->red[b];
    es[b] = t->red[b].op ? (uint32_t)nw_reduce_elem_size((nw_elem_type)t->red[b].type) : 1;
    if (!t->red[b].op)
      continue;
    reduced = 1;
    p->nreduced++;
    if (!(seen[b] = calloc(p->size[t->space[b]], 1)))
      st = NW_ERR_NOMEM;
    for (int i = (int)rp_below(&g->rr, RP_MAX_QUADS - 1); i >= 0; i--) {
      rp_quad x = aligned_shape(g, t->space[b], es[b]);
      if (x.length)
        pool[b][npool[b]++] = x;
    }
  }
  for (uint32_t j = 0; st == NW_OK && j < t->subtasks; j++) {
    rp_quad *q = quads + total;
    int nq = 0;
    unsigned char who = (unsigned char)(j + 1);
    if (big && j == 0) {
      int b0 = 0;
      while (t->space[b0] != 0)
        b0++;
      q[0] = big_quad(g, budget);
      q[0].space = (uint32_t)b0;
      q[0].access = quad_access(g, t->access[b0]);
      if (q[0].access & NW_WRITE_ONLY)
        claim(owner[b0], q[0], who);
      nq = 1;
    } else {
      for (int b = 0; b < t->nbind; b++) {
        int sp = t->space[b], want = 1 + (int)rp_below(r, RP_MAX_QUADS);
        for (int i = 0; i < want; i++) {
          nw_access a = quad_access(g, t->access[b]);
          rp_quad x;
          /* A read-write chain: read what the previous task wrote. */
          if ((a & NW_READ_ONLY) && g->nchain[sp] > 0 && rp_below(r, 4) == 0)
            x = g->chain[sp][rp_below(r, (uint64_t)g->nchain[sp])];
          else
            x = shape(g, sp);
          for (int tries = 0; (a & NW_WRITE_ONLY) && !free_for(owner[b], x, who); tries++) {
            if (tries == 6) { /* crowded: read it instead where the binding allows */
              a = t->access[b] == NW_READ_WRITE ? NW_READ_ONLY : (nw_access)0;
              break;
            }
            x = shape(g, sp);
          }
          if (!a)
            continue;
          x.space = (uint32_t)b;
          x.access = a;
          if (a & NW_WRITE_ONLY)
            claim(owner[b], x, who);
          q[nq++] = x;
        }
      }
    }
    /* After the main stream's draws for the subtask, which stay what they were. */
    if (reduced)
      nq = reduced_quads(g, t, q, nq, pool, npool, es, big && j == 0);
    if (budget && !(big && j == 0))
      shrink_to(p, t, q, &nq, budget, es);
    for (int i = 0; i < nq; i++)
      if (seen[q[i].space])
        FOR_BYTES(q[i], off, {
          overlap |= seen[q[i].space][off] && seen[q[i].space][off] != who;
          seen[q[i].space][off] = who;
        });
    uint64_t need = rp_gpu_need(p, t, q, nq);
    p->max_need = need > p->max_need ? need : p->max_need;
    h.first[j] = total;
    total += (uint32_t)nq;
  }
  h.first[t->subtasks] = total;
  h.nquads = total;
  p->noverlapping += overlap;
  if (st == NW_OK) {
    t->conf_size = sizeof h + total * sizeof *quads;
    t->conf = malloc(t->conf_size);
    st = t->conf ? NW_OK : NW_ERR_NOMEM;
  }
  if (st == NW_OK) {
    memcpy(t->conf, &h, sizeof h);
    memcpy(t->conf + sizeof h, quads, total * sizeof *quads);
    /* Remember the quads for later repeats, and the writes for the next task's chains. */
    for (uint32_t i = 0; i < total; i++) {
      rp_quad x = quads[i];
      int sp = t->space[x.space];
      if (g->nhist[sp] < HIST)
        g->hist[sp][g->nhist[sp]++] = x;
      else
        g->hist[sp][rp_below(r, HIST)] = x;
      if ((x.access & NW_WRITE_ONLY) && nchain[sp] < HIST)
        chain[sp][nchain[sp]++] = x;
    }
    for (int sp = 0; sp < RP_MAX_SPACES; sp++) {
      g->nchain[sp] = nchain[sp];
      memcpy(g->chain[sp], chain[sp], (size_t)nchain[sp] * sizeof chain[sp][0]);
    }
  }
  for (int b = 0; b < RP_MAX_SPACES; b++) {
    free(owner[b]);
    free(seen[b]);
  }
  free(quads);
  return st;
}

static void add_event(rp_program *p, int k, rp_event e) {
  if (p->nevents[k] < RP_MAX_EVENTS)
    p->events[k][p->nevents[k]++] = e;
}

/* A random contiguous range of program space sp. */
static rp_quad range(rp_rng *r, const rp_program *p, int sp) {
  rp_quad q = {.count = 1};
  q.offset = (uint32_t)rp_below(r, p->size[sp]);
  q.length = 1 + (uint32_t)rp_below(r, p->size[sp] - q.offset);
  q.step = q.length;
  return q;
}

nw_status rp_generate(uint64_t seed, uint64_t max_size, uint64_t budget, int place, rp_program *p) {
  memset(p, 0, sizeof *p);
  gen *g = calloc(1, sizeof *g);
  if (!g)
    return NW_ERR_NOMEM;
  g->r.s = seed * 0xD1B54A32D192ED03ull + 0x2545F4914F6CDD1Dull;
  g->rr.s = seed * 0x9FB21C651E98DF25ull + 0x632BE59BD9B4E019ull;
  g->p = p;
  rp_rng *r = &g->r;
  uint32_t M = (uint32_t)max_size;
  p->nspaces = 1 + (int)rp_below(r, RP_MAX_SPACES);
  for (int s = 0; s < p->nspaces; s++) {
    uint64_t u = rp_below(r, 10);
    uint32_t S = u < 2    ? 1 + (uint32_t)rp_below(r, min32(16, M))
                 : u == 2 ? M
                          : 1 + (uint32_t)rp_below(r, M);
    if (budget && s == 0)
      S = (uint32_t)budget + (uint32_t)rp_below(r, M - budget + 1);
    u = rp_below(r, 10);
    uint32_t P;
    if (u == 0)
      P = 1;
    else if (u == 1)
      P = S;
    else if (u == 2)
      P = S + 1 + (uint32_t)rp_below(r, S);
    else {
      P = 1 + (uint32_t)rp_below(r, min32(S, 256));
      if (S % P == 0 && P < S && rp_below(r, 4) != 0)
        P++; /* mostly a pitch that leaves the last row partial */
    }
    p->size[s] = S;
    p->pitch[s] = P;
    p->init_seed[s] = rp_next(r);
  }
  p->ntasks = 1 + (int)rp_below(r, RP_MAX_TASKS);
  int big = budget ? (int)rp_below(r, (uint64_t)p->ntasks) : -1;
  int first_use[RP_MAX_SPACES];
  for (int s = 0; s < RP_MAX_SPACES; s++)
    first_use[s] = p->ntasks;
  nw_status st = NW_OK;
  for (int k = 0; st == NW_OK && k < p->ntasks; k++) {
    rp_task_def *t = &p->task[k];
    int order[RP_MAX_SPACES];
    for (int s = 0; s < p->nspaces; s++)
      order[s] = s;
    for (int s = p->nspaces - 1; s > 0; s--) { /* a random binding order */
      int o = (int)rp_below(r, (uint64_t)s + 1), x = order[s];
      order[s] = order[o];
      order[o] = x;
    }
    t->nbind = 1 + (int)rp_below(r, (uint64_t)p->nspaces);
    if (k == big) { /* the big subtask lives in space 0: bind it */
      int has0 = 0;
      for (int b = 0; b < t->nbind; b++)
        has0 |= order[b] == 0;
      if (!has0)
        order[rp_below(r, (uint64_t)t->nbind)] = 0;
    }
    for (int b = 0; b < t->nbind; b++) {
      t->space[b] = order[b];
      t->access[b] = (nw_access)(1 + rp_below(r, 3));
      if (first_use[order[b]] > k)
        first_use[order[b]] = k;
    }
    t->subtasks = rp_below(r, 10) < 3 ? 1 + (uint32_t)rp_below(r, 4)
                                      : 1 + (uint32_t)rp_below(r, RP_MAX_SUBTASKS);
    t->joined = k > 0 && rp_below(r, 4) == 0;
    for (int b = 0; b < t->nbind; b++) /* not where the big subtask's quad lies */
      if (t->access[b] == NW_WRITE_ONLY && !(k == big && t->space[b] == 0))
        t->red[b] = draw_reduction(g, t->space[b]);
    st = gen_task(g, k, k == big, budget);
  }
  int first_place[RP_MAX_SPACES];
  for (int s = 0; s < RP_MAX_SPACES; s++)
    first_place[s] = p->ntasks + 1;
  /* The driver's actions. Placements: before the space's first task, disjoint from earlier
   * placements (bytes node 0 no longer owns cannot be placed again). */
  for (int s = 0; st == NW_OK && s < p->nspaces && place; s++) {
    unsigned char *placed = calloc(p->size[s], 1);
    if (!placed) {
      st = NW_ERR_NOMEM;
      break;
    }
    int n = (int)rp_below(r, 4);
    for (int i = 0; i < n; i++) {
      rp_event e = {.kind = RP_EV_PLACE, .space = s, .quad = shape(g, s), .draw = rp_next(r)};
      if (!free_for(placed, e.quad, (unsigned char)(i + 1)))
        continue;
      claim(placed, e.quad, (unsigned char)(i + 1));
      int at = (int)rp_below(r, (uint64_t)first_use[s] + 1);
      first_place[s] = at < first_place[s] ? at : first_place[s];
      add_event(p, at, e);
    }
    free(placed);
  }
  /* Reads and writes: only where every earlier task has been waited for. */
  for (int k = 0; k <= p->ntasks; k++) {
    if (k < p->ntasks && p->task[k].joined)
      continue;
    int reads = rp_below(r, 10) < 4 ? 1 + (int)rp_below(r, 2) : 0;
    for (int i = 0; i < reads; i++) {
      int s = (int)rp_below(r, (uint64_t)p->nspaces);
      add_event(p, k, (rp_event){.kind = RP_EV_READ, .space = s, .quad = range(r, p, s)});
    }
    if (rp_below(r, 10) < 3) {
      int s = (int)rp_below(r, (uint64_t)p->nspaces);
      add_event(p, k,
                (rp_event){.kind = RP_EV_WRITE,
                           .space = s,
                           .quad = range(r, p, s),
                           .data_seed = rp_next(r),
                           .late = first_use[s] < k,
                           .after_place = first_place[s] <= k});
    }
  }
  free(g);
  if (st != NW_OK)
    rp_program_free(p);
  return st;
}

void rp_program_free(rp_program *p) {
  for (int k = 0; k < p->ntasks; k++) {
    free(p->task[k].conf);
    p->task[k].conf = NULL;
  }
}
