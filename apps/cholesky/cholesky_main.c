/* cholesky_main.c: the Cholesky application's parameters, driver and check (see cholesky.h):
 * the tiles made, filled and placed, the task graph run (cholesky_graph.c), the factor read
 * back and checked (cholesky_check.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "cholesky.h"
#include "cholesky_check.h"
#include "cholesky_graph.h"

#define F ((uint64_t)sizeof(float))

/* At most this many tasks: they are all submitted at once, and each queued task holds a few
 * kilobytes on every node until it completes. 200,000 lets the Cholesky have 105 tiles per side
 * (198,765 tasks) and the LU 83 (194,054). */
#define CHOL_MAX_TASKS 200000
/* At most this tile side: BLAS, LAPACK and cuSOLVER take int sizes, and a tile is one space
 * (16384^2 floats: 1 GiB). */
#define CHOL_MAX_BLOCK 16384

/* prio=on|off (default on) and variant=cholesky|lu (default cholesky). */
static nw_status chol_params(const nw_app_args *a, uint64_t *prio, int *lu, char *why, size_t len) {
  if (nw_app_param_keys(a, "cholesky", "prio,variant", why, len) != 0)
    return NW_ERR_ARG;
  const char *p = nw_app_param_get(a, "prio"), *v = nw_app_param_get(a, "variant");
  *prio = !p || strcmp(p, "on") == 0;
  *lu = v && strcmp(v, "lu") == 0;
  if (p && !*prio && strcmp(p, "off") != 0) {
    snprintf(why, len, "cholesky: --app-param prio=%s: not on or off", p);
    return NW_ERR_ARG;
  }
  if (v && !*lu && strcmp(v, "cholesky") != 0) {
    snprintf(why, len, "cholesky: --app-param variant=%s: not cholesky or lu", v);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status chol_check_args(const nw_app_args *a, char *why, size_t len) {
  uint64_t prio;
  int lu;
  if (chol_params(a, &prio, &lu, why, len) != NW_OK)
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
  uint64_t nb = a->n / a->block, tasks = chol_task_count(nb, lu);
  if (tasks > CHOL_MAX_TASKS) {
    snprintf(why, len,
             "cholesky: --n %llu / --block %llu gives %llu tiles per side, %llu tasks; at most %d "
             "(a larger --block gives fewer)",
             (unsigned long long)a->n, (unsigned long long)a->block, (unsigned long long)nb,
             (unsigned long long)tasks, CHOL_MAX_TASKS);
    return NW_ERR_ARG;
  }
  return NW_OK;
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

/* The tiles that exist: the lower triangle's (j <= i), or every one for the LU. */
static int tile_exists(uint64_t i, uint64_t j, int lu) {
  return lu || j <= i;
}

/* Writes the input's tiles into their spaces. */
static nw_status write_tiles(nw_space **tiles, const float *a, uint64_t n, uint64_t b, int lu) {
  uint64_t nb = n / b;
  float *tile = malloc(b * b * F);
  nw_status st = tile ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t i = 0; i < nb && st == NW_OK; i++)
    for (uint64_t j = 0; j < nb && st == NW_OK; j++)
      if (tile_exists(i, j, lu)) {
        tile_get(a, tile, n, b, i, j);
        st = nw_space_write(tiles[chol_tile_index(i, j, nb, lu)], 0, tile, b * b * F);
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

/* Reads the factors back and checks them against the input a. Silent when they pass. */
static nw_status check(nw_space **tiles, const float *a, uint64_t n, uint64_t b, int lu, int *ok) {
  uint64_t nb = n / b;
  float *f = calloc(n * n, F), *tile = malloc(b * b * F);
  nw_status st = f && tile ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t i = 0; i < nb && st == NW_OK; i++)
    for (uint64_t j = 0; j < nb && st == NW_OK; j++)
      if (tile_exists(i, j, lu)) {
        st = nw_space_read(tiles[chol_tile_index(i, j, nb, lu)], 0, tile, b * b * F);
        if (st == NW_OK)
          tile_put(f, tile, n, b, i, j);
      }
  double residual = 0.0, bound = 0.0;
  if (st == NW_OK && (lu ? chol_lu_residual(a, f, n, &residual, &bound)
                         : chol_residual(a, f, n, &residual, &bound)) != 0)
    st = NW_ERR_NOMEM;
  *ok = st == NW_OK && isfinite(residual) && residual <= bound;
  if (st == NW_OK && !*ok)
    fprintf(stderr, "cholesky: residual ||A - %s||_F / ||A||_F is %.3g, above the bound %.3g\n",
            lu ? "L U" : "L L^T", residual, bound);
  free(f);
  free(tile);
  return st;
}

static nw_status chol_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  uint64_t n = args->n, b = args->block, nb = n / b, prio = 1;
  int lu = 0;
  char why[200];
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_status st = chol_params(args, &prio, &lu, why, sizeof why);
  uint64_t count = chol_tile_count(nb, lu);
  int functional = nw_runtime_functional(rt);
  nw_space **tiles = calloc(count, sizeof *tiles);
  float *a = NULL;
  if (st == NW_OK && !tiles)
    st = NW_ERR_NOMEM;
  for (uint64_t t = 0; t < count && st == NW_OK; t++)
    st = nw_space_create(rt, b * b * F, b * F, &tiles[t]);
  if (st == NW_OK && functional) {
    a = malloc(n * n * F);
    st = a && (lu ? chol_lu_fill_input : chol_fill_input)(a, n, args->seed) == 0 ? NW_OK
                                                                                 : NW_ERR_NOMEM;
    if (st == NW_OK)
      st = write_tiles(tiles, a, n, b, lu);
  }
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = place_tiles(rt, tiles, count, b, args->seed);
  if (st == NW_OK)
    st = chol_graph_run(rt, tiles, b, nb, prio, lu);
  if (st == NW_OK && functional && args->verify != 0) {
    int ok = 0;
    st = check(tiles, a, n, b, lu, &ok);
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
                                           &nw_chol_syrk_kind, &nw_chol_gemm_kind,
                                           &nw_chol_lu_getrf_kind, &nw_chol_lu_trsm_row_kind,
                                           &nw_chol_lu_trsm_col_kind, &nw_chol_lu_gemm_kind, NULL},
    .check_args = chol_check_args,
    .main = chol_main,
};
