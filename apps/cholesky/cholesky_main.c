/* cholesky_main.c: the Cholesky application's arguments, driver and check (see cholesky.h).
 *
 * The driver submits every task of the factorisation at once, in the right-looking order of
 * StarPU's cholesky_implicit.c (for each step: POTRF, the column's TRSMs, then the trailing
 * SYRKs and GEMMs), and waits for them all. It states no dependency: each task binds the
 * tiles it reads read-only and the one it updates read-write, and the runtime starts a task
 * once the earlier tasks writing what it reads, or touching what it writes, have completed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "cholesky.h"
#include "cholesky_check.h"

#define F ((uint64_t)sizeof(float))

/* At most this many tiles per side: the factorisation runs nb + nb (nb - 1) +
 * nb (nb - 1) (nb - 2) / 6 tasks (5984 for 32), all submitted at once, and the runtime finds a
 * queued task's dependencies by comparing it with every task queued before it, a cost that
 * grows as the square of the tasks queued: 32 tiles per side take about a minute of the
 * simulator's time on a 2-core machine, 64 (45760 tasks) hours. */
#define CHOL_MAX_TILES 32
/* At most this tile side: BLAS, LAPACK and cuSOLVER take int sizes, and a tile is one space
 * (16384^2 floats: 1 GiB). */
#define CHOL_MAX_BLOCK 16384

static nw_status chol_params(const nw_app_args *a, uint64_t *prio, char *why, size_t len) {
  if (nw_app_param_keys(a, "cholesky", "prio", why, len) != 0)
    return NW_ERR_ARG;
  const char *p = nw_app_param_get(a, "prio");
  *prio = !p || strcmp(p, "on") == 0;
  if (p && !*prio && strcmp(p, "off") != 0) {
    snprintf(why, len, "cholesky: --app-param prio=%s: not on or off", p);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status chol_check_args(const nw_app_args *a, char *why, size_t len) {
  uint64_t prio;
  if (chol_params(a, &prio, why, len) != NW_OK)
    return NW_ERR_ARG;
  if (a->n == 0 || a->block == 0) { /* named alone, where the grid's check names both */
    snprintf(why, len, "cholesky: %s 0: no tiles (the %s must be positive)",
             a->n == 0 ? "--n" : "--block", a->n == 0 ? "matrix side" : "tile side");
    return NW_ERR_ARG;
  }
  if (nw_app_check_grid("cholesky", a, why, len) != NW_OK)
    return NW_ERR_ARG;
  if (a->block > CHOL_MAX_BLOCK) {
    snprintf(why, len, "cholesky: --block %llu is larger than %d", (unsigned long long)a->block,
             CHOL_MAX_BLOCK);
    return NW_ERR_ARG;
  }
  if (a->n / a->block > CHOL_MAX_TILES) {
    snprintf(why, len,
             "cholesky: --n %llu / --block %llu gives %llu tiles per side; at most %d (a larger "
             "--block gives fewer)",
             (unsigned long long)a->n, (unsigned long long)a->block,
             (unsigned long long)(a->n / a->block), CHOL_MAX_TILES);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* The lower triangle's tiles, row by row: (i, j), j <= i, is tile i (i + 1) / 2 + j. */
static uint64_t tile_index(uint64_t i, uint64_t j) {
  return i * (i + 1) / 2 + j;
}

/* Tile (i, j) of the n x n matrix m into a packed b x b tile, and back. */
static void tile_get(const float *m, float *tile, uint64_t n, uint64_t b, uint64_t i, uint64_t j) {
  for (uint64_t r = 0; r < b; r++)
    memcpy(tile + r * b, m + (i * b + r) * n + j * b, b * F);
}

static void tile_put(float *m, const float *tile, uint64_t n, uint64_t b, uint64_t i, uint64_t j) {
  for (uint64_t r = 0; r < b; r++)
    memcpy(m + (i * b + r) * n + j * b, tile + r * b, b * F);
}

/* Writes the input's lower tiles into their spaces. */
static nw_status write_tiles(nw_space **tiles, const float *a, uint64_t n, uint64_t b) {
  float *tile = malloc(b * b * F);
  nw_status st = tile ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t i = 0; i < n / b && st == NW_OK; i++)
    for (uint64_t j = 0; j <= i && st == NW_OK; j++) {
      tile_get(a, tile, n, b, i, j);
      st = nw_space_write(tiles[tile_index(i, j)], 0, tile, b * b * F);
    }
  free(tile);
  return st;
}

/* Each tile whole on a node drawn from the seed (the paper's inputs spread in blocks). */
static nw_status place_tiles(nw_runtime *rt, nw_space **tiles, uint64_t count, uint64_t b,
                             uint64_t seed) {
  uint64_t s = nw_app_splitmix64(seed);
  nw_status st = NW_OK;
  for (uint64_t t = 0; t < count && st == NW_OK; t++)
    st = nw_app_spread_ranges(rt, tiles[t], 1, b * b * F, nw_app_splitmix64(s + t));
  return st;
}

/* The tasks of the factorisation, created, bound and submitted into tasks[*made...]. */
typedef struct chol_submit {
  nw_runtime *rt;
  nw_space **tiles;
  nw_task **tasks;
  uint64_t made;
} chol_submit;

static nw_status submit(chol_submit *s, const nw_task_kind *kind, const chol_conf *c,
                        nw_space *const *bind, const nw_access *access, int nbind) {
  nw_task *t = NULL;
  nw_status st = nw_task_create(s->rt, kind, 1, c, sizeof *c, &t);
  for (int i = 0; i < nbind && st == NW_OK; i++)
    st = nw_task_bind(t, bind[i], access[i]);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st != NW_OK) {
    nw_task_destroy(t);
    return st;
  }
  s->tasks[s->made++] = t;
  return NW_OK;
}

static nw_status submit_step(chol_submit *s, uint64_t k, uint64_t b, uint64_t nb, uint64_t prio) {
  nw_space **tl = s->tiles;
  const nw_access r = NW_READ_ONLY, rw = NW_READ_WRITE;
  chol_conf c = {.k = k, .i = k, .j = k, .b = b, .nb = nb, .prio = prio};
  nw_status st = submit(s, &nw_chol_potrf_kind, &c, (nw_space *[]){tl[tile_index(k, k)]},
                        (nw_access[]){rw}, 1);
  for (uint64_t i = k + 1; i < nb && st == NW_OK; i++) {
    c.i = i, c.j = k;
    st =
        submit(s, &nw_chol_trsm_kind, &c,
               (nw_space *[]){tl[tile_index(k, k)], tl[tile_index(i, k)]}, (nw_access[]){r, rw}, 2);
  }
  for (uint64_t j = k + 1; j < nb && st == NW_OK; j++) {
    c.i = j, c.j = j;
    st =
        submit(s, &nw_chol_syrk_kind, &c,
               (nw_space *[]){tl[tile_index(j, k)], tl[tile_index(j, j)]}, (nw_access[]){r, rw}, 2);
    for (uint64_t i = j + 1; i < nb && st == NW_OK; i++) {
      c.i = i, c.j = j;
      st = submit(s, &nw_chol_gemm_kind, &c,
                  (nw_space *[]){tl[tile_index(i, k)], tl[tile_index(j, k)], tl[tile_index(i, j)]},
                  (nw_access[]){r, r, rw}, 3);
    }
  }
  return st;
}

static nw_status factorise(nw_runtime *rt, nw_space **tiles, uint64_t b, uint64_t nb,
                           uint64_t prio) {
  uint64_t count = nb + nb * (nb - 1) + nb * (nb - 1) * (nb - 2) / 6;
  chol_submit s = {.rt = rt, .tiles = tiles, .tasks = calloc(count, sizeof(nw_task *))};
  if (!s.tasks)
    return NW_ERR_NOMEM;
  nw_status st = NW_OK;
  for (uint64_t k = 0; k < nb && st == NW_OK; k++)
    st = submit_step(&s, k, b, nb, prio);
  for (uint64_t t = 0; t < s.made; t++) { /* waits for all, even after a failure */
    nw_status w = nw_task_wait(s.tasks[t]);
    if (st == NW_OK)
      st = w;
    nw_task_destroy(s.tasks[t]);
  }
  free(s.tasks);
  return st;
}

/* Reads the factor back and compares L L^T with the input a. Silent when it passes. */
static nw_status check(nw_space **tiles, const float *a, uint64_t n, uint64_t b, int *ok) {
  float *l = calloc(n * n, F), *tile = malloc(b * b * F);
  nw_status st = l && tile ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t i = 0; i < n / b && st == NW_OK; i++)
    for (uint64_t j = 0; j <= i && st == NW_OK; j++) {
      st = nw_space_read(tiles[tile_index(i, j)], 0, tile, b * b * F);
      if (st == NW_OK)
        tile_put(l, tile, n, b, i, j);
    }
  double residual = 0.0, bound = 0.0;
  if (st == NW_OK && chol_residual(a, l, n, &residual, &bound) != 0)
    st = NW_ERR_NOMEM;
  *ok = st == NW_OK && isfinite(residual) && residual <= bound;
  if (st == NW_OK && !*ok)
    fprintf(stderr, "cholesky: residual ||A - L L^T||_F / ||A||_F is %.3g, above the bound %.3g\n",
            residual, bound);
  free(l);
  free(tile);
  return st;
}

static nw_status chol_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  uint64_t n = args->n, b = args->block, nb = n / b, count = nb * (nb + 1) / 2, prio = 1;
  char why[200];
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_status st = chol_params(args, &prio, why, sizeof why);
  int functional = nw_runtime_functional(rt);
  nw_space **tiles = calloc(count, sizeof *tiles);
  float *a = NULL;
  if (st == NW_OK && !tiles)
    st = NW_ERR_NOMEM;
  for (uint64_t t = 0; t < count && st == NW_OK; t++)
    st = nw_space_create(rt, b * b * F, b * F, &tiles[t]);
  if (st == NW_OK && functional) {
    a = malloc(n * n * F);
    st = a && chol_fill_input(a, n, args->seed) == 0 ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK)
      st = write_tiles(tiles, a, n, b);
  }
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = place_tiles(rt, tiles, count, b, args->seed);
  if (st == NW_OK)
    st = factorise(rt, tiles, b, nb, prio);
  if (st == NW_OK && functional && args->verify != 0) {
    int ok = 0;
    st = check(tiles, a, n, b, &ok);
    out->verified = ok;
  }
  for (uint64_t t = 0; tiles && t < count; t++)
    if (tiles[t])
      nw_space_destroy(tiles[t]);
  free(tiles);
  free(a);
  return st;
}

const nw_app nw_cholesky_app = {
    .name = "cholesky",
    .kinds = (const nw_task_kind *const[]){&nw_chol_potrf_kind, &nw_chol_trsm_kind,
                                           &nw_chol_syrk_kind, &nw_chol_gemm_kind, NULL},
    .check_args = chol_check_args,
    .main = chol_main,
};
