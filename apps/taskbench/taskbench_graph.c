/* taskbench_graph.c: the graph, kernel and serial reference of taskbench_graph.h. */
#include "taskbench_graph.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[TB_PATTERNS] = {"trivial", "stencil_1d", "nearest", "spread",
                                               "all_to_all"};

int tb_pattern_parse(const char *name) {
  for (int i = 0; i < TB_PATTERNS; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

const char *tb_pattern_name(int pattern) {
  return names[pattern];
}

const char *tb_pattern_names(void) {
  return "trivial, stencil_1d, nearest, spread, all_to_all";
}

#define SPREAD 3

uint64_t tb_ndeps(int pattern, uint64_t width, uint64_t point) {
  switch (pattern) {
  case TB_STENCIL_1D:
  case TB_NEAREST:
    return 1 + (point > 0) + (point + 1 < width);
  case TB_SPREAD:
    return width < SPREAD ? width : SPREAD;
  case TB_ALL_TO_ALL:
    return width;
  default:
    return 0;
  }
}

uint64_t tb_dep(int pattern, uint64_t width, uint64_t point, uint64_t k) {
  switch (pattern) {
  case TB_STENCIL_1D:
  case TB_NEAREST:
    return (point > 0 ? point - 1 : 0) + k;
  case TB_SPREAD: {
    /* k * width / r differ by at least 1 for r <= width: r distinct points. */
    uint64_t r = tb_ndeps(pattern, width, point);
    return (point + k * width / r) % width;
  }
  default:
    return k;
  }
}

int tb_deps_contiguous(int pattern) {
  return pattern != TB_SPREAD;
}

static uint32_t mix(uint32_t h, uint32_t x) {
  h ^= x + 0x9E3779B9u + (h << 6) + (h >> 2);
  h *= 0x85EBCA6Bu;
  return h ^ (h >> 13);
}

void tb_cell_init(tb_cell *c, uint64_t point) {
  memset(c, 0, sizeof *c);
  c->point = (uint32_t)point;
  c->hash = mix(0, (uint32_t)point);
  for (int l = 0; l < TB_LANES; l++)
    c->v[l] = (float)((point * TB_LANES + (uint64_t)l) % 97) / 97.0f;
}

void tb_task_begin(tb_state *s, uint64_t step, uint64_t point) {
  s->hash = mix(mix(0x7A5Bu, (uint32_t)step), (uint32_t)point);
  s->n = 0;
  for (int l = 0; l < TB_LANES; l++)
    s->v[l] = 0.0f;
}

void tb_task_add(tb_state *s, const tb_cell *in) {
  s->hash = mix(s->hash, in->hash);
  s->n++;
  for (int l = 0; l < TB_LANES; l++)
    s->v[l] += in->v[l];
}

/* Contracting (|A| < 1), so values stay near B / (1 - A) = 1 whatever the iterations: no
 * overflow and no denormals, which would make some iteration counts slower than others. */
#define A 0.75f
#define B 0.25f

void tb_task_finish(tb_state *s, uint64_t step, uint64_t point, uint64_t iterations, tb_cell *out) {
  float v[TB_LANES];
  float scale = s->n ? 1.0f / (float)s->n : 0.0f;
  for (int l = 0; l < TB_LANES; l++)
    v[l] = s->v[l] * scale + (float)((point + (uint64_t)l) % 7) * 0.125f;
  /* The compute-bound part: TB_LANES independent chains of dependent multiply-adds. */
  for (uint64_t i = 0; i < iterations; i++)
    for (int l = 0; l < TB_LANES; l++)
      v[l] = v[l] * A + B;
  out->step = (uint32_t)step;
  out->point = (uint32_t)point;
  out->hash = s->hash;
  out->pad = 0;
  memcpy(out->v, v, sizeof v);
}

double tb_task_flops(uint64_t n, uint64_t iterations) {
  return 2.0 * TB_LANES * (double)iterations + TB_LANES * ((double)n + 2.0);
}

int tb_reference(int pattern, uint64_t width, uint64_t steps, uint64_t iterations, tb_cell *final) {
  tb_cell *prev = malloc(width * sizeof *prev);
  if (!prev)
    return -1;
  for (uint64_t p = 0; p < width; p++)
    tb_cell_init(&prev[p], p);
  for (uint64_t t = 1; t <= steps; t++) {
    for (uint64_t p = 0; p < width; p++) {
      tb_state s;
      tb_task_begin(&s, t, p);
      for (uint64_t k = 0, n = tb_ndeps(pattern, width, p); k < n; k++)
        tb_task_add(&s, &prev[tb_dep(pattern, width, p, k)]);
      tb_task_finish(&s, t, p, iterations, &final[p]);
    }
    memcpy(prev, final, width * sizeof *prev);
  }
  if (steps == 0)
    memcpy(final, prev, width * sizeof *prev);
  free(prev);
  return 0;
}
