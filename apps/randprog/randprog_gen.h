/* randprog_gen.h: a random program as the generator draws it and the driver and the reference
 * run it: spaces, tasks (with their configuration bytes) and the driver's actions between
 * tasks. */
#ifndef NW_APP_RANDPROG_GEN_H
#define NW_APP_RANDPROG_GEN_H

#include <stddef.h>

#include "randprog.h"

/* splitmix64: the app's own generator, so a seed means the same program everywhere. */
typedef struct rp_rng {
  uint64_t s;
} rp_rng;
uint64_t rp_next(rp_rng *r);
/* Uniform in [0, n) (n > 0). */
uint64_t rp_below(rp_rng *r, uint64_t n);
/* Fills len bytes from a generator seeded with seed. */
void rp_fill(unsigned char *dst, uint64_t len, uint64_t seed);

typedef enum {
  RP_EV_PLACE, /* nw_space_place of `quad` on node (draw % nodes) */
  RP_EV_WRITE, /* nw_space_write of [offset, offset + length) with rp_fill(data_seed) bytes */
  RP_EV_READ   /* nw_space_read of [offset, offset + length), compared with the reference */
} rp_event_kind;

typedef struct rp_event {
  rp_event_kind kind;
  int space;     /* program space index */
  rp_quad quad;  /* offset, length, step, count (space and access unused) */
  uint64_t draw; /* RP_EV_PLACE: the node is draw % nodes */
  uint64_t data_seed;
  int late;        /* RP_EV_WRITE on a space an earlier task used */
  int after_place; /* RP_EV_WRITE on a space part of which was placed on some node */
} rp_event;

#define RP_MAX_EVENTS 16

typedef struct rp_task_def {
  int nbind;
  int space[RP_MAX_SPACES]; /* program space of binding i */
  nw_access access[RP_MAX_SPACES];
  uint32_t subtasks;
  int joined; /* submitted while the previous tasks may still run (no wait, no read or write) */
  rp_reduction red[RP_MAX_SPACES]; /* per binding; also in the configuration's header */
  unsigned char *conf;
  size_t conf_size;
} rp_task_def;

typedef struct rp_program {
  int nspaces, ntasks;
  uint32_t size[RP_MAX_SPACES], pitch[RP_MAX_SPACES];
  uint64_t init_seed[RP_MAX_SPACES]; /* initial bytes: rp_fill(init_seed) */
  rp_task_def task[RP_MAX_TASKS];
  /* events[k]: the driver's actions before task k (k == ntasks: after the last one). */
  int nevents[RP_MAX_TASKS + 1];
  rp_event events[RP_MAX_TASKS + 1][RP_MAX_EVENTS];
  uint64_t max_need; /* the largest subtask's GPU need in bytes */
  /* Reduced bindings, and tasks in which two subtasks write the same element of one (what
   * the tests count, so that they see reductions are exercised). */
  int nreduced, noverlapping;
} rp_program;

/* Draws the program of `seed`: spaces of at most max_size bytes; with budget > 0 every
 * subtask's GPU need at most budget and one above budget / 2 (randprog.h). place: draw
 * nw_space_place calls. NW_ERR_NOMEM or NW_OK. */
/* Whether RANDPROG_SKIP names `what`: "late-writes" and "placed-writes" leave those driver
 * writes (and their effect on the reference) out of the same program; "reductions" draws no
 * reduced binding, which gives back the program a seed drew before reductions existed (the
 * seeds of tests/unit/CMakeLists.txt's unit.random_programs_found were found then). */
int rp_skipped(const char *what);
nw_status rp_generate(uint64_t seed, uint64_t max_size, uint64_t budget, int place, rp_program *p);
void rp_program_free(rp_program *p);

/* A subtask's GPU need: per bound space it subscribes to, the bounding rectangle (in the
 * space's pitch) of all its quads there, plus RP_GPU_ALIGN (core/device/gpu_stage.c). */
uint64_t rp_gpu_need(const rp_program *p, const rp_task_def *t, const rp_quad *q, int nq);

#endif
