/* api.c: the public API of narwhal.h, on the driver's side.
 *
 * These functions run on the driver's thread. They check their arguments here, where a bad
 * one can be reported to the caller at once, and hand anything that touches the cluster to
 * node 0 as a driver call (driver.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "handles.h"
#include "nested.h"
#include "node_state.h"
#include "region.h"
#include "subscribe.h"

nw_status nw_runtime_fail(nw_runtime *rt, nw_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt->error, sizeof rt->error, fmt, ap);
  va_end(ap);
  return st;
}

static nw_status call(nw_runtime *rt, nw_driver_call *c) {
  rt->post(rt->be, c);
  if (c->status != NW_OK && c->error[0])
    snprintf(rt->error, sizeof rt->error, "%s", c->error);
  return c->status;
}

int nw_runtime_functional(const nw_runtime *rt) {
  return rt->functional;
}
int nw_runtime_native_gpus(const nw_runtime *rt) {
  return rt->native_gpus;
}
int nw_runtime_nodes(const nw_runtime *rt) {
  return rt->nodes;
}
const char *nw_runtime_error(const nw_runtime *rt) {
  return rt->error;
}

nw_status nw_space_create(nw_runtime *rt, uint64_t size, uint64_t pitch, nw_space **out) {
  if (size == 0 || pitch == 0)
    return nw_runtime_fail(rt, NW_ERR_ARG, "nw_space_create: size and pitch must be positive");
  nw_space *s = calloc(1, sizeof *s);
  if (!s)
    return nw_runtime_fail(rt, NW_ERR_NOMEM, "nw_space_create: out of memory");
  *s = (nw_space){.rt = rt, .size = size, .pitch = pitch};
  nw_driver_call c = {.kind = CALL_SPACE_CREATE, .space = s};
  nw_status st = call(rt, &c);
  if (st != NW_OK) {
    free(s);
    if (st == NW_ERR_ARG && c.error[0]) /* the run has no memory for it (memcheck.h) */
      return nw_runtime_fail(rt, st, "nw_space_create: %s", c.error);
    return nw_runtime_fail(rt, st, "nw_space_create: cannot create a %llu-byte space",
                           (unsigned long long)size);
  }
  *out = s;
  return NW_OK;
}

static nw_status wait_running_spawns(nw_runtime *rt, nw_task *t, nw_space *s);

void nw_space_destroy(nw_space *s) {
  if (!s)
    return;
  /* Node 0's queue reads the handle of every space a queued task binds: wait until none does
   * (and a spawn callback due meanwhile may still ask its task for it). Inside a spawn
   * callback that wait could be for the callback's own task, or for a task that waits for it:
   * the handle then lives until the run ends. */
  if (s->rt->spawning) {
    s->doomed_next = s->rt->doomed_spaces;
    s->rt->doomed_spaces = s;
    return;
  }
  wait_running_spawns(s->rt, NULL, s);
  free(s);
}

uint64_t nw_space_size(const nw_space *s) {
  return s->size;
}

static nw_status check_range(nw_space *s, const char *fn, uint64_t offset, uint64_t length) {
  if (offset > s->size || length > s->size - offset)
    return nw_runtime_fail(
        s->rt, NW_ERR_RANGE, "%s: bytes [%llu, +%llu) are outside the %llu-byte space", fn,
        (unsigned long long)offset, (unsigned long long)length, (unsigned long long)s->size);
  return NW_OK;
}

nw_status nw_space_write(nw_space *s, uint64_t offset, const void *src, uint64_t length) {
  nw_status st = check_range(s, "nw_space_write", offset, length);
  if (st != NW_OK)
    return st;
  /* Node 0 refuses it while a task bound to the space is queued or running (driver.c). */
  nw_driver_call c = {
      .kind = CALL_SPACE_WRITE, .space = s, .offset = offset, .length = length, .src = src};
  return call(s->rt, &c);
}

nw_status nw_space_read(nw_space *s, uint64_t offset, void *dst, uint64_t length) {
  nw_status st = check_range(s, "nw_space_read", offset, length);
  if (st != NW_OK)
    return st;
  nw_driver_call c = {
      .kind = CALL_SPACE_READ, .space = s, .offset = offset, .length = length, .dst = dst};
  st = call(s->rt, &c);
  if (st != NW_OK && !s->rt->error[0])
    nw_runtime_fail(s->rt, st, "nw_space_read failed");
  return st;
}

nw_status nw_space_place(nw_space *s, uint64_t offset, uint64_t length, uint64_t step,
                         uint64_t count, int node) {
  nw_runtime *rt = s->rt;
  if (node < 0 || node >= rt->nodes)
    return nw_runtime_fail(rt, NW_ERR_ARG, "nw_space_place: node %d does not exist (%d nodes)",
                           node, rt->nodes);
  char why[256];
  nw_status st = nw_quad_check((nw_quad){offset, length, step, count}, s->size, why, sizeof why);
  if (st != NW_OK)
    return nw_runtime_fail(rt, st, "nw_space_place: %s", why);
  nw_driver_call c = {.kind = CALL_SPACE_PLACE,
                      .space = s,
                      .offset = offset,
                      .length = length,
                      .step = step,
                      .count = count,
                      .node = node};
  return call(rt, &c);
}

static nw_status create_task(nw_runtime *rt, const char *fn, nw_task *parent,
                             const nw_task_kind *kind, uint64_t subtasks, const void *conf,
                             size_t conf_size, nw_task **out) {
  if (!kind || !kind->name || !kind->subscribe)
    return nw_runtime_fail(rt, NW_ERR_ARG,
                           "%s: the task kind needs a name and a subscription callback", fn);
  if (!kind->cpu_kernel)
    return nw_runtime_fail(rt, NW_ERR_ARG, "%s: task kind '%s' has no CPU kernel", fn, kind->name);
  if (subtasks == 0)
    return nw_runtime_fail(rt, NW_ERR_ARG, "%s: a task needs at least one subtask", fn);
  nw_task *t = calloc(1, sizeof *t);
  unsigned char *copy = malloc(conf_size ? conf_size : 1);
  if (!t || !copy) {
    free(t);
    free(copy);
    return nw_runtime_fail(rt, NW_ERR_NOMEM, "%s: out of memory", fn);
  }
  if (conf_size)
    memcpy(copy, conf, conf_size);
  *t = (nw_task){.rt = rt,
                 .kind = kind,
                 .subtasks = subtasks,
                 .conf = copy,
                 .conf_size = conf_size,
                 .live_next = rt->live_tasks,
                 .parent = parent};
  if (rt->live_tasks)
    rt->live_tasks->live_prev = t;
  rt->live_tasks = t;
  if (parent) {
    t->sibling = parent->children;
    parent->children = t;
  }
  *out = t;
  return NW_OK;
}

nw_status nw_task_create(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                         const void *conf, size_t conf_size, nw_task **out) {
  return create_task(rt, "nw_task_create", NULL, kind, subtasks, conf, conf_size, out);
}

nw_status nw_task_create_nested(nw_task *parent, const nw_task_kind *kind, uint64_t subtasks,
                                const void *conf, size_t conf_size, nw_task **out) {
  if (!parent->in_spawn)
    return nw_runtime_fail(
        parent->rt, NW_ERR_STATE,
        "nw_task_create_nested: task '%s' is not running its spawn callback; tasks nest "
        "in a parent only from there",
        parent->kind->name);
  return create_task(parent->rt, "nw_task_create_nested", parent, kind, subtasks, conf, conf_size,
                     out);
}

nw_space *nw_task_space(const nw_task *t, int index) {
  return index >= 0 && index < t->nbound ? t->space[index] : NULL;
}

void nw_task_destroy(nw_task *t) {
  if (!t)
    return;
  while (t->children) /* nested tasks belong to their parent */
    nw_task_destroy(t->children);
  if (t->parent)
    for (nw_task **p = &t->parent->children; *p; p = &(*p)->sibling)
      if (*p == t) {
        *p = t->sibling;
        break;
      }
  *(t->live_prev ? &t->live_prev->live_next : &t->rt->live_tasks) = t->live_next;
  if (t->live_next)
    t->live_next->live_prev = t->live_prev;
  free(t->deps);
  free(t->space); /* the block of every per-binding array (grow_bindings) */
  free(t->conf);
  free(t);
}

nw_status nw_task_depend(nw_task *t, nw_task *on) {
  if (t->submitted)
    return nw_runtime_fail(t->rt, NW_ERR_STATE, "nw_task_depend: task '%s' is already submitted",
                           t->kind->name);
  const nw_task *live = t->rt->live_tasks;
  while (live && live != on) /* compared before anything is read through `on` */
    live = live->live_next;
  if (!live)
    return nw_runtime_fail(
        t->rt, NW_ERR_ARG,
        "nw_task_depend: task '%s' depends on a task that is not a live task of this "
        "runtime (destroyed, or another runtime's)",
        t->kind->name);
  if (on == t || !on->submitted)
    return nw_runtime_fail(
        t->rt, NW_ERR_STATE,
        "nw_task_depend: task '%s' depends on %s; a task waits only for tasks submitted "
        "before it, so no cycle can form",
        t->kind->name, on == t ? "itself" : "a task not submitted yet");
  if (t->parent && on->parent != t->parent)
    return nw_runtime_fail(
        t->rt, NW_ERR_STATE,
        "nw_task_depend: nested task '%s' may depend only on tasks nested in the same "
        "parent ('%s'); others may be waiting for that parent",
        t->kind->name, t->parent->kind->name);
  uint64_t *a = realloc(t->deps, (size_t)(t->ndeps + 1) * sizeof *a);
  if (!a)
    return nw_runtime_fail(t->rt, NW_ERR_NOMEM, "nw_task_depend: out of memory");
  t->deps = a;
  t->deps[t->ndeps++] = on->seq; /* `on` may be destroyed before t is queued */
  return NW_OK;
}

/* Room for twice as many bindings (a task binds as many spaces as it needs). The six
 * per-binding arrays share one block, t->space at its start, widest elements first: one
 * allocation per task's first bind instead of six (binding is on a task graph's submit path). */
static nw_status grow_bindings(nw_task *t) {
  size_t cap = t->capbound ? 2 * (size_t)t->capbound : 4;
  size_t per = sizeof(nw_space *) + 2 * sizeof(uint64_t) + sizeof(nw_access) +
               sizeof(nw_reduce_op) + sizeof(nw_elem_type);
  unsigned char *b = malloc(cap * per);
  if (!b)
    return NW_ERR_NOMEM;
  nw_space **space = (nw_space **)b;
  uint64_t *size = (uint64_t *)(space + cap), *pitch = size + cap;
  nw_access *access = (nw_access *)(pitch + cap);
  nw_reduce_op *op = (nw_reduce_op *)(access + cap);
  nw_elem_type *type = (nw_elem_type *)(op + cap);
  size_t n = (size_t)t->nbound;
  if (n) {
    memcpy(space, t->space, n * sizeof *space);
    memcpy(size, t->space_size, n * sizeof *size);
    memcpy(pitch, t->space_pitch, n * sizeof *pitch);
    memcpy(access, t->access, n * sizeof *access);
    memcpy(op, t->reduce_op, n * sizeof *op);
    memcpy(type, t->reduce_type, n * sizeof *type);
  }
  free(t->space);
  t->space = space;
  t->space_size = size;
  t->space_pitch = pitch;
  t->access = access;
  t->reduce_op = op;
  t->reduce_type = type;
  t->capbound = (int)cap;
  return NW_OK;
}

nw_status nw_task_bind(nw_task *t, nw_space *s, nw_access access) {
  if (!s)
    return nw_runtime_fail(t->rt, NW_ERR_ARG, "nw_task_bind: task '%s': the space is NULL",
                           t->kind->name);
  if (s->rt != t->rt)
    return nw_runtime_fail(t->rt, NW_ERR_ARG,
                           "nw_task_bind: task '%s': the space belongs to another runtime",
                           t->kind->name);
  if (t->submitted)
    return nw_runtime_fail(t->rt, NW_ERR_STATE, "nw_task_bind: the task is already submitted");
  if (access != NW_READ_ONLY && access != NW_WRITE_ONLY && access != NW_READ_WRITE)
    return nw_runtime_fail(t->rt, NW_ERR_ARG, "nw_task_bind: unknown access mode %d", (int)access);
  if (t->nbound == NW_MAX_BOUND_SPACES)
    return nw_runtime_fail(t->rt, NW_ERR_ARG,
                           "nw_task_bind: task '%s' binds %d spaces already, the most one task may "
                           "bind (NW_MAX_BOUND_SPACES)",
                           t->kind->name, NW_MAX_BOUND_SPACES);
  for (int i = 0; i < t->nbound; i++)
    if (t->space[i] == s)
      return nw_runtime_fail(t->rt, NW_ERR_STATE,
                             "nw_task_bind: the space is already bound to this task");
  if (t->parent) { /* a nested task works within its parent's spaces (nested.c) */
    const nw_task *p = t->parent;
    int i = 0;
    while (i < p->nbound && p->space[i] != s)
      i++;
    if (i == p->nbound)
      return nw_runtime_fail(
          t->rt, NW_ERR_STATE,
          "nw_task_bind: nested task '%s' binds a space its parent '%s' does not bind; "
          "a nested task may use only its parent's spaces",
          t->kind->name, p->kind->name);
    if (p->access[i] == NW_READ_ONLY && access != NW_READ_ONLY)
      return nw_runtime_fail(
          t->rt, NW_ERR_STATE,
          "nw_task_bind: nested task '%s' binds space index %d of its parent '%s' %s, "
          "but the parent binds it read-only (tasks running beside the parent may be "
          "reading it)",
          t->kind->name, i, p->kind->name, access == NW_WRITE_ONLY ? "write-only" : "read-write");
  }
  if (t->nbound == t->capbound && grow_bindings(t) != NW_OK)
    return nw_runtime_fail(t->rt, NW_ERR_NOMEM, "nw_task_bind: out of memory");
  t->space[t->nbound] = s;
  t->space_size[t->nbound] = s->size;
  t->space_pitch[t->nbound] = s->pitch;
  t->reduce_op[t->nbound] = 0;
  t->reduce_type[t->nbound] = 0;
  t->access[t->nbound++] = access;
  return NW_OK;
}

nw_status nw_task_reduce(nw_task *t, nw_space *s, nw_reduce_op op, nw_elem_type type) {
  if (t->submitted)
    return nw_runtime_fail(t->rt, NW_ERR_STATE, "nw_task_reduce: the task is already submitted");
  int i = 0;
  while (i < t->nbound && t->space[i] != s)
    i++;
  if (i == t->nbound)
    return nw_runtime_fail(t->rt, NW_ERR_STATE,
                           "nw_task_reduce: the space is not bound to task '%s' (bind it first)",
                           t->kind->name);
  if (!nw_reduce_op_name(op))
    return nw_runtime_fail(t->rt, NW_ERR_ARG, "nw_task_reduce: unknown reduction %d", (int)op);
  if (!nw_reduce_type_name(type))
    return nw_runtime_fail(t->rt, NW_ERR_ARG, "nw_task_reduce: unknown element type %d", (int)type);
  if (op == NW_REDUCE_CUSTOM && !t->kind->reduce)
    return nw_runtime_fail(
        t->rt, NW_ERR_ARG,
        "nw_task_reduce: NW_REDUCE_CUSTOM needs a reduce callback in task kind '%s'",
        t->kind->name);
  if (t->access[i] != NW_WRITE_ONLY)
    return nw_runtime_fail(
        t->rt, NW_ERR_ARG,
        "nw_task_reduce: task '%s' binds space index %d %s; only a write-only space "
        "can be reduced",
        t->kind->name, i, t->access[i] == NW_READ_ONLY ? "read-only" : "read-write");
  t->reduce_op[i] = op;
  t->reduce_type[i] = type;
  return NW_OK;
}

static nw_task_info info_of(const nw_task *t) {
  return (nw_task_info){.subtasks = t->subtasks,
                        .conf = t->conf,
                        .conf_size = t->conf_size,
                        .nspaces = t->nbound,
                        .space_size = t->space_size,
                        .space_pitch = t->space_pitch};
}

/* count arrays of n regions each, in one block (NULL on no memory; free the first). */
static nw_region *region_sets(int n, int count) {
  return calloc((size_t)(n ? n : 1) * (size_t)count, sizeof(nw_region));
}

static void free_sets(nw_region *sets, int n) {
  for (int i = 0; i < n; i++)
    nw_region_free(&sets[i]);
}

/* Two subtasks of the task write the same bytes of space index `space`: finds the first such
 * pair and reports it with the first byte the two share. Only
 * called once the write sets were found to overlap, so its quadratic search is rare. */
static nw_status report_overlap(nw_task *t, const nw_task_info *info, int space) {
  nw_region *rd = region_sets(t->nbound, 3), common;
  if (!rd)
    return nw_runtime_fail(t->rt, NW_ERR_NOMEM, "task '%s': out of memory", t->kind->name);
  nw_region *wa = rd + t->nbound, *wb = wa + t->nbound;
  char why[400];
  nw_region_init(&common, info->space_pitch[space]);
  for (uint64_t a = 0; a < t->subtasks; a++) {
    nw_subscriptions(t->kind, info, t->access, a, rd, wa, why, sizeof why);
    free_sets(rd, t->nbound);
    for (uint64_t b = a + 1; b < t->subtasks; b++) {
      nw_subscriptions(t->kind, info, t->access, b, rd, wb, why, sizeof why);
      free_sets(rd, t->nbound);
      int shared = nw_region_overlap_bytes(&wa[space], &wb[space]) > 0 &&
                   nw_region_intersect(&common, &wa[space], &wb[space]) == NW_OK;
      free_sets(wb, t->nbound);
      if (!shared)
        continue;
      uint64_t lo, hi;
      nw_region_bounds(&common, &lo, &hi);
      nw_region_free(&common);
      free_sets(wa, t->nbound);
      free(rd);
      return nw_runtime_fail(
          t->rt, NW_ERR_ARG,
          "task '%s': subtasks %llu and %llu both write byte %llu of space index %d; "
          "writes of different subtasks must not overlap (which one would win is not "
          "defined without a reduction)",
          t->kind->name, (unsigned long long)a, (unsigned long long)b, (unsigned long long)lo,
          space);
    }
    free_sets(wa, t->nbound);
  }
  nw_region_free(&common);
  free(rd);
  return NW_ERR_INTERNAL;
}

/* Runs every subtask's subscription callback once, so a bad subscription is reported here,
 * naming the subtask and quad, and never reaches a node. Also sums the cost model, and refuses
 * writes of two subtasks to the same bytes: their order of commit differs between runs and
 * nodes, so the result would be undefined (README, "Overlapping writes"). */
static nw_status check_subscriptions(nw_task *t, double *flops) {
  nw_task_info info = info_of(t);
  *flops = 0;
  nw_region *read = region_sets(t->nbound, 3);
  uint64_t *sum = calloc((size_t)(t->nbound ? t->nbound : 1), sizeof *sum);
  if (!read || !sum) {
    free(read);
    free(sum);
    return nw_runtime_fail(t->rt, NW_ERR_NOMEM, "task '%s': out of memory checking subscriptions",
                           t->kind->name);
  }
  nw_region *write = read + t->nbound, *all = write + t->nbound;
  for (int i = 0; i < t->nbound; i++)
    nw_region_init(&all[i], info.space_pitch[i]);
  char why[400];
  nw_status st = NW_OK;
  *flops = 0;
  for (uint64_t k = 0; k < t->subtasks && st == NW_OK; k++) {
    st = nw_subscriptions(t->kind, &info, t->access, k, read, write, why, sizeof why);
    for (int i = 0; i < t->nbound && st == NW_OK; i++) {
      if (t->reduce_op[i]) { /* overlaps are combined, but only whole elements */
        size_t es = nw_reduce_elem_size(t->reduce_type[i]);
        if (!nw_reduce_aligned(&write[i], es)) {
          snprintf(why, sizeof why,
                   "subtask %llu writes space index %d, which is reduced over %s elements, "
                   "in runs that do not start and end on %zu-byte boundaries",
                   (unsigned long long)k, i, nw_reduce_type_name(t->reduce_type[i]), es);
          st = NW_ERR_ARG;
        }
        continue;
      }
      sum[i] += nw_region_bytes(&write[i]);
      st = nw_region_add(&all[i], &write[i]);
    }
    free_sets(read, t->nbound);
    free_sets(write, t->nbound);
    if (st != NW_OK) {
      free_sets(all, t->nbound);
      free(read);
      free(sum);
      if (st == NW_ERR_NOMEM && !why[0])
        return nw_runtime_fail(t->rt, st, "task '%s': out of memory checking subscriptions",
                               t->kind->name);
      return nw_runtime_fail(t->rt, st, "task '%s': %s", t->kind->name, why);
    }
    if (t->kind->flops)
      *flops += t->kind->flops(&info, k, NW_DEVICE_CPU);
  }
  int overlap = -1; /* disjoint write sets add up to their union */
  for (int i = 0; i < t->nbound && overlap < 0; i++)
    if (nw_region_bytes(&all[i]) != sum[i])
      overlap = i;
  free_sets(all, t->nbound);
  free(read);
  free(sum);
  return overlap < 0 ? NW_OK : report_overlap(t, &info, overlap);
}

nw_status nw_task_submit(nw_task *t) {
  if (t->submitted)
    return nw_runtime_fail(t->rt, NW_ERR_STATE, "nw_task_submit: the task is already submitted");
  double flops;
  nw_status st = check_subscriptions(t, &flops);
  if (st != NW_OK)
    return st;
  t->submitted = 1;
  t->seq = ++t->rt->submitted;
  t->flops = flops;
  nw_driver_call c = {.kind = CALL_TASK_SUBMIT, .task = t};
  return call(t->rt, &c);
}

/* Runs task t's spawn callback on the driver's thread (node 0 answered a wait with it), then
 * tells node 0 it returned. */
static void run_spawn(nw_runtime *rt, nw_task *t) {
  nw_task_info info = info_of(t);
  info.task_id = t->id;
  nw_task *outer = rt->spawning;
  rt->spawning = t;
  t->in_spawn = 1;
  nw_status st = t->kind->spawn(t, &info);
  t->in_spawn = 0;
  rt->spawning = outer;
  if (st != NW_OK) {
    char why[sizeof rt->error];
    snprintf(why, sizeof why, "%s", rt->error);
    nw_runtime_fail(rt, st, "task '%s': its spawn callback failed: %s", t->kind->name,
                    why[0] ? why : "(no message)");
  }
  nw_driver_call c = {.kind = CALL_SPAWN_DONE, .task = t, .status = st};
  rt->post(rt->be, &c);
}

/* Waits for task t (NULL: for every queued task), running the spawn callbacks that fall due
 * meanwhile. */
/* Waits for task t, or (t NULL) until no queued task binds space s, or (s NULL too) for every
 * queued task, running the spawn callbacks that fall due meanwhile. A callback's failure
 * fails the run; its message stays in rt->error. */
static nw_status wait_running_spawns(nw_runtime *rt, nw_task *t, nw_space *s) {
  for (;;) {
    nw_driver_call c = {.kind = CALL_TASK_WAIT, .task = t, .space = s};
    nw_status st = call(rt, &c);
    if (!c.spawn)
      return st;
    run_spawn(rt, c.spawn);
  }
}

nw_status nw_task_wait(nw_task *t) {
  if (!t->submitted)
    return nw_runtime_fail(t->rt, NW_ERR_STATE, "nw_task_wait: the task was never submitted");
  nw_runtime *rt = t->rt;
  if (rt->spawning && !nw_nested_is_ancestor(rt->spawning, t))
    return nw_runtime_fail(
        rt, NW_ERR_STATE,
        "nw_task_wait: inside the spawn callback of task '%s', only its nested tasks "
        "can be waited for (the others may be waiting for it)",
        rt->spawning->kind->name);
  nw_status st = wait_running_spawns(rt, t, NULL);
  if (st != NW_OK && !rt->error[0])
    nw_runtime_fail(rt, st, "task '%s' failed", t->kind->name);
  return st;
}

void nw_runtime_shutdown(nw_runtime *rt) {
  /* Tasks the driver did not wait for still finish, and their spawn callbacks run. */
  wait_running_spawns(rt, NULL, NULL);
  nw_driver_call c = {.kind = CALL_SHUTDOWN};
  call(rt, &c);
  /* Handles the application did not destroy (a task it never waited for, and what nests in
   * it): no node reads them any more. */
  while (rt->live_tasks)
    nw_task_destroy(rt->live_tasks);
  while (rt->doomed_spaces) {
    nw_space *s = rt->doomed_spaces;
    rt->doomed_spaces = s->doomed_next;
    free(s);
  }
}
