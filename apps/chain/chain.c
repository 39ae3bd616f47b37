/* chain.c: the chain applications (see chain.h): the task kinds and the driver. */
#include "chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/steps.h"

/* The words of a cell. STEP and INDEX say which write the bytes come from; the others carry
 * what the kernels of cell i's line found: how many stale reads in all, and the first one. */
enum { STEP, INDEX, BAD, FIRST_STEP, FIRST_SEEN, FIRST_CELL, FIRST_INDEX, WORDS = 8 };

typedef struct chain_conf {
  uint64_t subtasks;
  uint64_t step; /* this task writes step `step`; it reads step - 1 */
} chain_conf;

/* The cells subtask i reads: i, then its neighbours, without repeats (1 or 2 subtasks). */
static int read_cells(uint64_t s, uint64_t i, uint64_t cell[3]) {
  int k = 0;
  cell[k++] = i;
  uint64_t left = (i + s - 1) % s, right = (i + 1) % s;
  if (left != i)
    cell[k++] = left;
  if (right != i && right != left)
    cell[k++] = right;
  return k;
}

static nw_status chain_sub(nw_subscriber *sub, const nw_task_info *t, uint64_t i) {
  const chain_conf *c = t->conf;
  uint64_t cell[3];
  int k = read_cells(c->subtasks, i, cell);
  nw_status st = NW_OK;
  for (int j = 0; j < k && st == NW_OK; j++)
    st = nw_subscribe(sub, 0, NW_READ_ONLY, cell[j] * CHAIN_CELL_BYTES, CHAIN_CELL_BYTES,
                      CHAIN_CELL_BYTES, 1);
  /* Ping-pong: the output is space 1; in place, the one space, bound read-write. */
  int out = t->nspaces > 1 ? 1 : 0;
  if (st == NW_OK)
    st = nw_subscribe(sub, out, NW_WRITE_ONLY, i * CHAIN_CELL_BYTES, CHAIN_CELL_BYTES,
                      CHAIN_CELL_BYTES, 1);
  return st;
}

static void chain_cpu(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const chain_conf *c = t->conf;
  uint64_t cell[3];
  int k = read_cells(c->subtasks, i, cell);
  uint32_t own[WORDS], bad = 0, seen = 0, from = 0;
  for (int j = 0; j < k; j++) {
    uint32_t got[WORDS];
    memcpy(got, nw_view_at(&v[0], cell[j] * CHAIN_CELL_BYTES), sizeof got);
    if (j == 0)
      memcpy(own, got, sizeof own);
    if (got[STEP] != (uint32_t)(c->step - 1) || got[INDEX] != (uint32_t)cell[j]) {
      if (bad++ == 0) {
        seen = got[STEP];
        from = (uint32_t)cell[j];
      }
    }
  }
  uint32_t out[WORDS] = {0};
  out[STEP] = (uint32_t)c->step;
  out[INDEX] = (uint32_t)i;
  /* The line's history comes from its own cell: even when that cell was the stale one, what
   * this kernel found is added, so a line with any stale read ends with a count above 0. */
  out[BAD] = own[BAD] + bad;
  memcpy(out + FIRST_STEP, own + FIRST_STEP, 4 * sizeof(uint32_t));
  if (bad && !own[FIRST_STEP]) {
    out[FIRST_STEP] = (uint32_t)c->step;
    out[FIRST_SEEN] = seen;
    out[FIRST_CELL] = from;
    out[FIRST_INDEX] = (uint32_t)i;
  }
  int o = t->nspaces > 1 ? 1 : 0;
  memcpy(nw_view_at(&v[o], i * CHAIN_CELL_BYTES), out, sizeof out);
}

/* Nearly empty: about 10 microseconds on a simulated 1 GFlop/s core. */
static double chain_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e4;
}

const nw_task_kind nw_chain_kind = {
    .name = "chain-step", .subscribe = chain_sub, .cpu_kernel = chain_cpu, .flops = chain_flops};
/* The same kernel under another name, so that each application registers only its own. */
const nw_task_kind nw_chain_rw_kind = {
    .name = "chain-rw-step", .subscribe = chain_sub, .cpu_kernel = chain_cpu, .flops = chain_flops};

static nw_status chain_check(const nw_app_args *a, char *why, size_t why_len) {
  if (a->n == 0 || a->block == 0) {
    snprintf(why, why_len, "chain: --n (steps) and --block (subtasks per step) must be positive");
    return NW_ERR_ARG;
  }
  if (a->n >= (1u << 31) || a->block > (1u << 20)) {
    snprintf(why, why_len, "chain: at most 2^31 - 1 steps (--n) and 2^20 subtasks (--block)");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* What every step's task is made of (nw_app_run_steps' context). */
typedef struct chain_run {
  nw_runtime *rt;
  const nw_task_kind *kind;
  nw_space *const *x;
  int in_place;
  uint64_t s; /* subtasks (cells) */
} chain_run;

static nw_status submit_step(void *ctx, uint64_t step, nw_task **out) {
  const chain_run *c = ctx;
  nw_space *const *x = c->x;
  chain_conf conf = {c->s, step};
  *out = NULL;
  nw_status st = nw_task_create(c->rt, c->kind, c->s, &conf, sizeof conf, out);
  if (st != NW_OK)
    return st;
  if (c->in_place)
    st = nw_task_bind(*out, x[0], NW_READ_WRITE);
  else if ((st = nw_task_bind(*out, x[(step - 1) % 2], NW_READ_ONLY)) == NW_OK)
    st = nw_task_bind(*out, x[step % 2], NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(*out);
  if (st != NW_OK) { /* never submitted: nothing to wait for */
    nw_task_destroy(*out);
    *out = NULL;
  }
  return st;
}

/* Adds up what the kernels found, and checks the final cells (the driver's own read). */
static nw_status check_final(nw_space *y, uint64_t s, uint64_t steps, uint64_t *stale) {
  uint32_t *cells = malloc(s * CHAIN_CELL_BYTES);
  if (!cells)
    return NW_ERR_NOMEM;
  nw_status st = nw_space_read(y, 0, cells, s * CHAIN_CELL_BYTES);
  int reported = 0;
  for (uint64_t i = 0; st == NW_OK && i < s; i++) {
    const uint32_t *c = cells + i * WORDS;
    *stale += c[BAD];
    if (c[BAD] && !reported++)
      fprintf(stderr,
              "chain: %llu stale reads in line %llu; first: step %u, subtask %u read cell %u "
              "as written by step %u\n",
              (unsigned long long)c[BAD], (unsigned long long)i, c[FIRST_STEP], c[FIRST_INDEX],
              c[FIRST_CELL], c[FIRST_SEEN]);
    if (c[STEP] != (uint32_t)steps || c[INDEX] != (uint32_t)i) {
      (*stale)++;
      fprintf(stderr, "chain: the driver read cell %llu as written by step %u (index %u)\n",
              (unsigned long long)i, c[STEP], c[INDEX]);
    }
  }
  free(cells);
  return st;
}

static nw_status run_chain(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out,
                           const nw_task_kind *kind, int in_place) {
  uint64_t s = a->block, steps = a->n, bytes = s * CHAIN_CELL_BYTES;
  int functional = nw_runtime_functional(rt);
  out->verified = -1;
  nw_space *x[2] = {NULL, NULL};
  nw_status st = NW_OK;
  for (int k = 0; k < (in_place ? 1 : 2) && st == NW_OK; k++)
    st = nw_space_create(rt, bytes, CHAIN_CELL_BYTES, &x[k]);
  /* Step 0: cell i = {step 0, index i}. */
  uint32_t *cells = functional ? calloc(s, CHAIN_CELL_BYTES) : NULL;
  if (functional && !cells)
    st = NW_ERR_NOMEM;
  for (uint64_t i = 0; cells && i < s; i++)
    cells[i * WORDS + INDEX] = (uint32_t)i;
  if (st == NW_OK && functional)
    st = nw_space_write(x[0], 0, cells, bytes);
  free(cells);
  /* Cells spread over the nodes at random (a seeded xorshift), or all on node 0. */
  uint64_t r = a->seed * 0xD1B54A32D192ED03ull + 0x9E3779B97F4A7C15ull;
  for (uint64_t i = 0; st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1 && i < s; i++) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    int node = (int)(r % (uint64_t)nw_runtime_nodes(rt));
    if (node != 0)
      st = nw_space_place(x[0], i * CHAIN_CELL_BYTES, CHAIN_CELL_BYTES, CHAIN_CELL_BYTES, 1, node);
  }
  chain_run run = {rt, kind, x, in_place, s};
  if (st == NW_OK)
    st = nw_app_run_steps(steps, submit_step, &run);
  if (st == NW_OK && functional && a->verify != 0) {
    uint64_t stale = 0;
    st = check_final(x[in_place ? 0 : steps % 2], s, steps, &stale);
    out->stale_reads = stale;
    out->verified = st == NW_OK && stale == 0;
  }
  nw_space_destroy(x[0]);
  if (x[1])
    nw_space_destroy(x[1]);
  return st;
}

static nw_status chain_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  return run_chain(rt, a, out, &nw_chain_kind, 0);
}

static nw_status chain_rw_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  return run_chain(rt, a, out, &nw_chain_rw_kind, 1);
}

const nw_app nw_chain_app = {
    .name = "chain",
    .kinds = (const nw_task_kind *const[]){&nw_chain_kind, NULL},
    .check_args = chain_check,
    .main = chain_main,
};

const nw_app nw_chain_rw_app = {
    .name = "chain-rw",
    .kinds = (const nw_task_kind *const[]){&nw_chain_rw_kind, NULL},
    .check_args = chain_check,
    .main = chain_rw_main,
};
