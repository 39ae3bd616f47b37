/* randprog_main.c: the randprog application's driver: draws the program of --seed, runs it on
 * the cluster and, beside it, on the serial reference, and compares every space byte for byte
 * at each read-back and at the end (randprog.h). The first difference is reported on stderr
 * in one line naming the seed, the point in the program, the space, the byte, the expected
 * and actual values and the task and subtask that last wrote it in the reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "randprog_ref.h"

/* --block as a budget: 0 and 256 (the tool's default for every app) mean none. */
static uint64_t budget_of(const nw_app_args *a) {
  return a->block == 0 || a->block == 256 ? 0 : a->block;
}

static nw_status randprog_check(const nw_app_args *a, char *why, size_t why_len) {
  uint64_t budget = budget_of(a);
  if (a->n == 0 || a->n > RP_MAX_SIZE) {
    snprintf(why, why_len, "randprog: --n %llu: the largest space size must be 1 to %u bytes",
             (unsigned long long)a->n, RP_MAX_SIZE);
    return NW_ERR_ARG;
  }
  if (budget && (budget < RP_MIN_BUDGET || budget > RP_MAX_BUDGET)) {
    snprintf(why, why_len,
             "randprog: --block %llu: a GPU budget must be %u to %u bytes (0 or 256, the default, "
             "mean none)",
             (unsigned long long)budget, RP_MIN_BUDGET, RP_MAX_BUDGET);
    return NW_ERR_ARG;
  }
  if (budget > a->n) {
    snprintf(why, why_len,
             "randprog: --block %llu needs --n of at least %llu (space 0 holds a subtask needing "
             "more than half the budget)",
             (unsigned long long)budget, (unsigned long long)budget);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

typedef struct run {
  const rp_program *p;
  uint64_t seed;
  int check, mismatch;
  nw_space *space[RP_MAX_SPACES];
  unsigned char *ref[RP_MAX_SPACES];
  /* per byte: 0 initial, (task << 8 | subtask) + 1, (task << 8 | WRITER_SEVERAL) + 1 where
   * several subtasks' writes were combined, or WRITER_DRIVER */
  uint32_t *writer[RP_MAX_SPACES];
  unsigned char *buf;
  /* Nested tasks: parent[k] is the task k is nested in, or -1. */
  int parent[RP_MAX_TASKS];
} run;

/* The run whose spawn callbacks the driver's thread calls (one run per process at a time). */
static run *nesting_run;

#define WRITER_DRIVER UINT32_MAX
#define WRITER_SEVERAL 0xFFu /* no subtask index: RP_MAX_SUBTASKS is far below */

/* Records, for the messages, which subtask of task k wrote each byte in the reference. */
static void note_writers(run *r, int k) {
  const rp_task_def *t = &r->p->task[k];
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  for (uint32_t j = 0; j < h.subtasks; j++)
    for (uint32_t i = h.first[j]; i < h.first[j + 1]; i++) {
      rp_quad q;
      rp_conf_get_quad(t->conf, i, &q);
      if (!(q.access & NW_WRITE_ONLY))
        continue;
      for (uint64_t s = 0; s < q.count; s++)
        for (uint64_t b = 0; b < q.length; b++) {
          uint32_t *w = &r->writer[t->space[q.space]][q.offset + s * q.step + b];
          uint32_t was = *w - 1;
          /* another subtask of this task wrote it first: only a reduction lets it */
          int several =
              *w != 0 && *w != WRITER_DRIVER && was >> 8 == (uint32_t)k && (was & 0xFF) != j;
          *w = ((uint32_t)k << 8 | (several ? WRITER_SEVERAL : j)) + 1;
        }
    }
}

/* Reads [offset, offset + length) of space s back and compares it with the reference. */
static nw_status compare(run *r, int s, uint64_t offset, uint64_t length, const char *when) {
  nw_status st = nw_space_read(r->space[s], offset, r->buf, length);
  if (st != NW_OK || !r->check)
    return st;
  uint64_t differ = 0, first = 0;
  for (uint64_t i = 0; i < length; i++)
    if (r->buf[i] != r->ref[s][offset + i] && differ++ == 0)
      first = i;
  if (differ && !r->mismatch++) {
    uint64_t at = offset + first;
    uint32_t w = r->writer[s][at];
    char who[64];
    if (w == 0)
      snprintf(who, sizeof who, "its initial value");
    else if (w == WRITER_DRIVER)
      snprintf(who, sizeof who, "a driver write");
    else if (((w - 1) & 0xFF) == WRITER_SEVERAL)
      snprintf(who, sizeof who, "task %u, several subtasks combined", (w - 1) >> 8);
    else
      snprintf(who, sizeof who, "task %u subtask %u", (w - 1) >> 8, (w - 1) & 0xFF);
    fprintf(stderr,
            "randprog: seed %llu, %s: space %d (size %u, pitch %u) byte %llu: expected 0x%02x, "
            "got 0x%02x (last written by %s; %llu of %llu bytes read differ)\n",
            (unsigned long long)r->seed, when, s, r->p->size[s], r->p->pitch[s],
            (unsigned long long)at, r->ref[s][at], r->buf[first], who, (unsigned long long)differ,
            (unsigned long long)length);
  }
  return NW_OK;
}

static nw_status event(run *r, int k, const rp_event *e, int nodes) {
  const rp_quad *q = &e->quad;
  nw_space *sp = r->space[e->space];
  char when[64];
  if (e->kind == RP_EV_PLACE)
    return nw_space_place(sp, q->offset, q->length, q->step, q->count, (int)(e->draw % nodes));
  if (e->kind == RP_EV_READ) {
    if (k == 0)
      snprintf(when, sizeof when, "before the first task");
    else
      snprintf(when, sizeof when, "read back after task %d", k - 1);
    return compare(r, e->space, q->offset, q->length, when);
  }
  if ((e->late && rp_skipped("late-writes")) || (e->after_place && rp_skipped("placed-writes")))
    return NW_OK;
  rp_fill(r->buf, q->length, e->data_seed);
  memcpy(r->ref[e->space] + q->offset, r->buf, q->length);
  for (uint64_t i = 0; i < q->length; i++)
    r->writer[e->space][q->offset + i] = WRITER_DRIVER;
  return nw_space_write(sp, q->offset, r->buf, q->length);
}

/* Whether task k of p may nest in task j (README, "Nested tasks"): every space k binds, j
 * binds too, and one j binds read-only k binds read-only. */
static int fits_in(const rp_program *p, int j, int k) {
  const rp_task_def *a = &p->task[j], *b = &p->task[k];
  for (int i = 0; i < b->nbind; i++) {
    int m = 0;
    while (m < a->nbind && a->space[m] != b->space[i])
      m++;
    if (m == a->nbind || (a->access[m] == NW_READ_ONLY && b->access[i] != NW_READ_ONLY))
      return 0;
  }
  return 1;
}

/* Which tasks run nested: a task submitted with no driver action or wait before it (joined),
 * right after a task that fits it or after that task's other nested tasks, nests in that task
 * with probability 1/2, drawn from the seed apart from the program's own draws (so the
 * programs of earlier seeds stay the same). Nested tasks run after their parent's subtasks and
 * before the tasks after them, in order where they conflict: the program's order, so the
 * serial reference is unchanged. RANDPROG_SKIP=nested: none. */
static void choose_nesting(run *r) {
  int group = -1;
  for (int k = 0; k < r->p->ntasks; k++) {
    r->parent[k] = -1;
    if (!rp_skipped("nested") && r->p->task[k].joined && group >= 0 && fits_in(r->p, group, k) &&
        (nw_app_splitmix64(r->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)k) & 1))
      r->parent[k] = group;
    else
      group = k;
  }
}

static nw_status bind_task(run *r, nw_task *task, int k) {
  const rp_task_def *t = &r->p->task[k];
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  nw_status st = NW_OK;
  for (int b = 0; st == NW_OK && b < t->nbind; b++) {
    st = nw_task_bind(task, r->space[t->space[b]], t->access[b]);
    if (st == NW_OK && h.red[b].op)
      st = nw_task_reduce(task, r->space[t->space[b]], (nw_reduce_op)h.red[b].op,
                          (nw_elem_type)h.red[b].type);
  }
  return st;
}

/* The spawn callback of a task with nested tasks: submits them, in program order. */
nw_status rp_spawn_nested(nw_task *self, const nw_task_info *info) {
  run *r = nesting_run;
  rp_conf_head h; /* the configuration names the program task */
  rp_conf_get_head(info->conf, &h);
  int k = (int)h.task;
  nw_status st = k < r->p->ntasks ? NW_OK : NW_ERR_INTERNAL;
  for (int c = k + 1; st == NW_OK && c < r->p->ntasks && r->parent[c] == k; c++) {
    const rp_task_def *t = &r->p->task[c];
    nw_task *task = NULL;
    st = nw_task_create_nested(self, &nw_randprog_kind, t->subtasks, t->conf, t->conf_size, &task);
    if (st == NW_OK)
      st = bind_task(r, task, c);
    if (st == NW_OK)
      st = nw_task_submit(task);
  }
  return st;
}

/* Submits task k of the program (with, for a parent, its nested tasks' reference). */
static nw_status submit(run *r, nw_runtime *rt, int k, nw_task **out) {
  const rp_task_def *t = &r->p->task[k];
  int nests = k + 1 < r->p->ntasks && r->parent[k + 1] == k;
  nw_status st = nw_task_create(rt, nests ? &nw_randprog_parent_kind : &nw_randprog_kind,
                                t->subtasks, t->conf, t->conf_size, out);
  rp_conf_head h;
  rp_conf_get_head(t->conf, &h);
  (void)h;
  if (st == NW_OK)
    st = bind_task(r, *out, k);
  if (st == NW_OK)
    st = nw_task_submit(*out);
  if (st != NW_OK && *out) {
    nw_task_destroy(*out);
    *out = NULL;
  }
  /* The nested tasks run after this one and before every later task: their place in the
   * program, so the reference runs them now. */
  for (int c = k; st == NW_OK && r->check && c < r->p->ntasks && (c == k || r->parent[c] == k);
       c++) {
    st = rp_ref_task(r->p, c, r->ref);
    note_writers(r, c);
  }
  return st;
}

/* Waits for every task in flight, in submission order; keeps the first error. */
static nw_status wait_all(nw_task **flight, int *n, nw_status st) {
  for (int i = 0; i < *n; i++) {
    nw_status w = nw_task_wait(flight[i]);
    st = st == NW_OK ? w : st;
    nw_task_destroy(flight[i]);
  }
  *n = 0;
  return st;
}

static nw_status run_program(run *r, nw_runtime *rt) {
  const rp_program *p = r->p;
  int nodes = nw_runtime_nodes(rt), nflight = 0;
  nw_task *flight[RP_MAX_TASKS];
  nw_status st = NW_OK;
  for (int s = 0; st == NW_OK && s < p->nspaces; s++) {
    st = nw_space_create(rt, p->size[s], p->pitch[s], &r->space[s]);
    if (st == NW_OK) {
      rp_fill(r->ref[s], p->size[s], p->init_seed[s]);
      st = nw_space_write(r->space[s], 0, r->ref[s], p->size[s]);
    }
  }
  for (int k = 0; st == NW_OK && k <= p->ntasks; k++) {
    if (k < p->ntasks && r->parent[k] >= 0)
      continue; /* its parent's spawn callback submits it */
    /* The driver waits for the tasks in flight only where it reads or writes a space next:
     * a task the program did not join but with no driver action before it goes in at once
     * too (RANDPROG_SKIP=wait-all: it waits, as programs did before), so more tasks run beside
     * each other, ordered by the spaces they share alone. */
    int acts = p->nevents[k] > 0 || rp_skipped("wait-all");
    if (k == p->ntasks || (!p->task[k].joined && acts))
      st = wait_all(flight, &nflight, st);
    for (int i = 0; st == NW_OK && i < p->nevents[k]; i++)
      st = event(r, k, &p->events[k][i], nodes);
    if (st == NW_OK && k < p->ntasks && (st = submit(r, rt, k, &flight[nflight])) == NW_OK)
      nflight++;
  }
  st = wait_all(flight, &nflight, st);
  for (int s = 0; st == NW_OK && s < p->nspaces; s++)
    st = compare(r, s, 0, p->size[s], "at the end");
  return st;
}

static nw_status randprog_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  out->verified = -1;
  rp_program *p = malloc(sizeof *p);
  run r = {.p = p, .seed = a->seed, .check = nw_runtime_functional(rt) && a->verify != 0};
  nw_status st = p ? rp_generate(a->seed, a->n, budget_of(a), a->spread, p) : NW_ERR_NOMEM;
  /* RANDPROG_TASKS=K: only the program's first K tasks (then the comparison at the end), to
   * narrow a failing seed down. */
  const char *limit = getenv("RANDPROG_TASKS");
  for (int k = limit ? atoi(limit) : RP_MAX_TASKS; st == NW_OK && k >= 0 && k < p->ntasks;) {
    free(p->task[--p->ntasks].conf);
    p->task[p->ntasks].conf = NULL;
  }
  uint32_t largest = 0;
  for (int s = 0; st == NW_OK && s < p->nspaces; s++) {
    r.ref[s] = malloc(p->size[s]);
    r.writer[s] = calloc(p->size[s], sizeof *r.writer[s]);
    largest = p->size[s] > largest ? p->size[s] : largest;
    st = r.ref[s] && r.writer[s] ? NW_OK : NW_ERR_NOMEM;
  }
  if (st == NW_OK)
    st = (r.buf = malloc(largest)) ? NW_OK : NW_ERR_NOMEM;
  if (st == NW_OK) {
    choose_nesting(&r);
    nesting_run = &r;
    st = run_program(&r, rt);
    nesting_run = NULL;
  }
  if (st == NW_OK && r.check)
    out->verified = r.mismatch == 0;
  for (int s = 0; p && s < p->nspaces; s++) {
    nw_space_destroy(r.space[s]);
    free(r.ref[s]);
    free(r.writer[s]);
  }
  free(r.buf);
  if (p)
    rp_program_free(p);
  free(p);
  return st;
}

const nw_app nw_randprog_app = {
    .name = "randprog",
    .kinds = (const nw_task_kind *const[]){&nw_randprog_kind, &nw_randprog_parent_kind, NULL},
    .check_args = randprog_check,
    .main = randprog_main,
};
