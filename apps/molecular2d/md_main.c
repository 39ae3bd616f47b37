/* md_main.c: the molecular2d application's arguments, driver and check (see molecular2d.h).
 *
 * The driver writes the initial positions and velocities, then submits the 2T tasks of T
 * timesteps (force, integrate, force, ...) through a window (nw_app_run_steps): the runtime
 * orders them by their spaces (a force task reads the positions the integrate task before it
 * wrote, and writes the accelerations that task read). In functional mode it compares the final
 * positions and velocities with the serial reference bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/place.h"
#include "../common/steps.h"
#include "md_data.h"
#include "md_grid.h"
#include "md_ref.h"

#define APP "molecular2d"

static int md_steps(const nw_app_args *a, uint64_t *steps, char *why, size_t len) {
  if (nw_app_param_keys(a, APP, "steps", why, len) != 0 ||
      nw_app_param_uint(a, APP, "steps", 1, MD_STEPS_MAX, MD_STEPS_DEFAULT, steps, why, len) != 0)
    return -1;
  return 0;
}

/* The side of a square grid of `cells` cells, or 0 when cells is not a square. */
static uint64_t grid_side(uint64_t cells) {
  uint64_t g = (uint64_t)sqrt((double)cells); /* exact or one off for cells <= 2^26 */
  while (g * g > cells)
    g--;
  while ((g + 1) * (g + 1) <= cells)
    g++;
  return g * g == cells ? g : 0;
}

static nw_status md_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t steps;
  if (md_steps(a, &steps, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, APP ": --n (particles) and --block (particles per cell) must be positive");
    return NW_ERR_ARG;
  }
  if (a->n > MD_PARTICLES_MAX) {
    snprintf(why, len, APP ": --n %llu is more than 2^26 particles", (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, APP ": --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  uint64_t cells = a->n / a->block;
  if (grid_side(cells) == 0) {
    snprintf(why, len,
             APP ": --n %llu / --block %llu gives %llu cells, not a square number (the cells "
                 "form a G x G grid)",
             (unsigned long long)a->n, (unsigned long long)a->block, (unsigned long long)cells);
    return NW_ERR_ARG;
  }
  if (cells > MD_CELLS_MAX) {
    snprintf(why, len, APP ": --n %llu / --block %llu gives %llu cells; at most %u (256 x 256)",
             (unsigned long long)a->n, (unsigned long long)a->block, (unsigned long long)cells,
             MD_CELLS_MAX);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* What every step's task is made of (nw_app_run_steps' context). */
typedef struct md_run {
  nw_runtime *rt;
  const md_conf *conf;
  nw_space *pos, *vel, *acc;
} md_run;

/* Step 2t - 1 is timestep t's force task, step 2t its integrate task. */
static nw_status submit_step(void *ctx, uint64_t step, nw_task **out) {
  const md_run *r = ctx;
  int force = step % 2 == 1;
  *out = NULL;
  nw_status st = nw_task_create(r->rt, force ? &nw_md_force_kind : &nw_md_integrate_kind,
                                r->conf->grid * r->conf->grid, r->conf, sizeof *r->conf, out);
  if (st != NW_OK)
    return st;
  if (force) { /* binding order: molecular2d.h */
    st = nw_task_bind(*out, r->pos, NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_bind(*out, r->acc, NW_WRITE_ONLY);
  } else {
    st = nw_task_bind(*out, r->acc, NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_bind(*out, r->pos, NW_READ_WRITE);
    if (st == NW_OK)
      st = nw_task_bind(*out, r->vel, NW_READ_WRITE);
  }
  if (st == NW_OK)
    st = nw_task_submit(*out);
  if (st != NW_OK) { /* never submitted: nothing to wait for */
    nw_task_destroy(*out);
    *out = NULL;
  }
  return st;
}

/* Counts the floats of got that differ from want's bits; names the first on stderr. */
static uint64_t compare(const char *what, const float *got, const float *want, uint64_t count,
                        uint64_t ppc) {
  uint64_t differ = 0, first = 0;
  for (uint64_t q = 0; q < count; q++)
    if (memcmp(&got[q], &want[q], sizeof *got) != 0 && differ++ == 0)
      first = q;
  if (differ)
    fprintf(stderr,
            APP ": cell %llu particle %llu %s %c is %.9g, the reference %.9g (%llu of %llu "
                "differ)\n",
            (unsigned long long)(first / 2 / ppc), (unsigned long long)(first / 2 % ppc), what,
            first % 2 ? 'y' : 'x', (double)got[first], (double)want[first],
            (unsigned long long)differ, (unsigned long long)count);
  return differ;
}

/* Compares the spaces' final state with the reference run from the initial one (pos, vel:
 * replaced). */
static nw_status check_final(const md_conf *c, uint64_t steps, nw_space *spos, nw_space *svel,
                             float *pos, float *vel, int *equal) {
  uint64_t count = c->grid * c->grid * c->ppc * 2, bytes = count * sizeof(float);
  float *got_pos = malloc(bytes), *got_vel = malloc(bytes);
  nw_status st = got_pos && got_vel ? nw_space_read(spos, 0, got_pos, bytes) : NW_ERR_NOMEM;
  if (st == NW_OK)
    st = nw_space_read(svel, 0, got_vel, bytes);
  if (st == NW_OK && md_reference(c, steps, pos, vel) != 0)
    st = NW_ERR_NOMEM;
  if (st == NW_OK) {
    uint64_t differ = compare("position", got_pos, pos, count, c->ppc);
    differ += compare("velocity", got_vel, vel, count, c->ppc);
    *equal = differ == 0;
  }
  free(got_pos);
  free(got_vel);
  return st;
}

static nw_status md_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  uint64_t steps;
  if (md_steps(a, &steps, why, sizeof why))
    return NW_ERR_ARG; /* md_check has said why */
  md_conf conf = {.grid = grid_side(a->n / a->block),
                  .ppc = a->block,
                  .k = md_force_constant(a->block),
                  .dt = MD_DT};
  uint64_t cells = conf.grid * conf.grid, size = cells * md_cell_bytes(&conf),
           pitch = md_row_bytes(&conf);
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *spos = NULL, *svel = NULL, *sacc = NULL;
  float *pos = NULL, *vel = NULL;
  nw_status st = nw_space_create(rt, size, pitch, &spos);
  if (st == NW_OK)
    st = nw_space_create(rt, size, pitch, &svel);
  if (st == NW_OK) /* written by each force task before any task reads it */
    st = nw_space_create(rt, size, pitch, &sacc);
  if (st == NW_OK && functional) {
    pos = malloc(size);
    vel = malloc(size);
    st = pos && vel ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      md_fill_state(&conf, a->seed, pos, vel);
      st = nw_space_write(spos, 0, pos, size);
    }
    if (st == NW_OK)
      st = nw_space_write(svel, 0, vel, size);
  }
  /* Each cell's particles on a node drawn from the seed, its positions and velocities on the
   * same one (the same draws for both spaces). */
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, spos, cells, md_cell_bytes(&conf), a->seed);
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, svel, cells, md_cell_bytes(&conf), a->seed);
  md_run run = {rt, &conf, spos, svel, sacc};
  if (st == NW_OK)
    st = nw_app_run_steps(2 * steps, submit_step, &run);
  if (st == NW_OK && functional && a->verify != 0) {
    int equal = 0;
    st = check_final(&conf, steps, spos, svel, pos, vel, &equal);
    out->verified = equal;
  }
  nw_space_destroy(spos);
  nw_space_destroy(svel);
  nw_space_destroy(sacc);
  free(pos);
  free(vel);
  return st;
}

const nw_app nw_molecular2d_app = {
    .name = APP,
    .kinds = (const nw_task_kind *const[]){&nw_md_force_kind, &nw_md_integrate_kind, NULL},
    .check_args = md_check,
    .main = md_main,
};
