/* test_nested.c: nested tasks (paper section 2; core/node/nested.c), on the in-process loop
 * backend, concurrent and one task at a time:
 * - a parent's nested tasks run after its subtasks and before a later task that reads what
 *   they wrote, whose wait runs the parent's spawn callback (bytes checked);
 * - nesting three deep, the driver waiting only for the outermost task;
 * - a spawn callback waiting for its own nested task, then destroying a space its own task
 *   binds (no wait for that task: the handle is freed at the run's end);
 * - a driver that waits for nothing: its end still runs the callbacks (tasks counted);
 * - refusals, each with its message: a nested task binding a space its parent does not bind,
 *   or writing one its parent binds read-only; nesting outside the parent's callback; waiting
 *   inside a callback for a task that is not nested in it; depending on a task of another
 *   parent.
 */
#include <stdlib.h>
#include <string.h>

#include "byte_kinds.h"
#include "check.h"
#include "loop_backend.h"

static int scenario;
static char said[512];
static nw_task *outside; /* a driver's task, not nested in any callback's task */

enum {
  CHILDREN,     /* fill x; nests inc x, then copy x -> y; the driver's later copy y -> z */
  DEEP,         /* inc x nesting inc x nesting inc x nesting inc x */
  WAIT_CHILD,   /* fill x; the callback waits for its nested inc x, then destroys y's handle */
  NO_WAIT,      /* CHILDREN's parent, and the driver waits for nothing */
  BIND_OTHER,   /* refused: a nested task binds z, which its parent does not */
  WRITE_RO,     /* refused: a nested task writes x, which its parent reads only */
  OUTSIDE,      /* refused: the driver nests a task in a parent that is not in its callback */
  WAIT_OTHER,   /* refused: the callback waits for a task not nested in it */
  DEPEND_OTHER, /* refused: a nested task depends on a task of another parent */
  SCENARIOS
};

static nw_space *z_space;

static nw_status nest(nw_task *parent, const nw_task_kind *k, unsigned char v, nw_space *a,
                      nw_access aa, nw_space *b, nw_task **out) {
  nw_task *t = NULL;
  nw_status st = nw_task_create_nested(parent, k, BK_SUBTASKS, &v, 1, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, a, aa);
  if (st == NW_OK && b)
    st = nw_task_bind(t, b, NW_WRITE_ONLY);
  if (st == NW_OK && scenario == DEPEND_OTHER)
    st = nw_task_depend(t, outside);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (out)
    *out = t;
  return st;
}

/* fill-parent (binds x, y write-only): what it nests depends on the scenario. */
static nw_status fill_spawn(nw_task *self, const nw_task_info *t) {
  (void)t;
  nw_space *x = nw_task_space(self, 0), *y = nw_task_space(self, 1);
  nw_task *child = NULL;
  nw_status st = NW_OK;
  switch (scenario) {
  case CHILDREN:
  case NO_WAIT:
    st = nest(self, &bk_inc_kind, 0, x, NW_READ_WRITE, NULL, NULL);
    return st != NW_OK ? st : nest(self, &bk_copy_kind, 0, x, NW_READ_ONLY, y, NULL);
  case WAIT_CHILD:
    st = nest(self, &bk_inc_kind, 0, x, NW_READ_WRITE, NULL, &child);
    if (st == NW_OK)
      st = nw_task_wait(child);
    nw_task_destroy(child); /* freed early: the parent's handle no longer lists it */
    nw_space_destroy(y);    /* its task binds it: waiting for that would never end */
    return st;
  case BIND_OTHER:
    return nest(self, &bk_fill_kind, 1, z_space, NW_WRITE_ONLY, NULL, NULL);
  case WAIT_OTHER:
    return nw_task_wait(outside);
  case DEPEND_OTHER:
    return nest(self, &bk_inc_kind, 0, x, NW_READ_WRITE, NULL, NULL);
  default:
    return NW_OK;
  }
}

static const nw_task_kind inc_deep_kind;

/* inc-deep (binds x read-write): nests another inc-deep while conf[0], its depth left, is
 * not 0. */
static nw_status inc_deep_spawn(nw_task *self, const nw_task_info *t) {
  unsigned char left = *(const unsigned char *)t->conf;
  if (left == 0)
    return NW_OK;
  return nest(self, &inc_deep_kind, (unsigned char)(left - 1), nw_task_space(self, 0),
              NW_READ_WRITE, NULL, NULL);
}

/* copy-parent (binds x read-only, y write-only): nests a task writing x (refused). */
static nw_status copy_spawn(nw_task *self, const nw_task_info *t) {
  (void)t;
  return nest(self, &bk_inc_kind, 0, nw_task_space(self, 0), NW_READ_WRITE, NULL, NULL);
}

static const nw_task_kind fill_parent_kind = {.name = "fill-parent",
                                              .subscribe = bk_fill_sub,
                                              .cpu_kernel = bk_fill_kernel,
                                              .flops = bk_flops,
                                              .spawn = fill_spawn};
static const nw_task_kind inc_deep_kind = {.name = "inc-deep",
                                           .subscribe = bk_inc_sub,
                                           .cpu_kernel = bk_inc_kernel,
                                           .flops = bk_flops,
                                           .spawn = inc_deep_spawn};
static const nw_task_kind copy_parent_kind = {.name = "copy-parent",
                                              .subscribe = bk_copy_sub,
                                              .cpu_kernel = bk_copy_kernel,
                                              .flops = bk_flops,
                                              .spawn = copy_spawn};

static nw_status nested_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *x, *y, *z;
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &x);
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &y);
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &z);
  z_space = z;
  nw_task *t1 = NULL, *t2 = NULL;
  outside = NULL;
  nw_status st = NW_OK;
  out->verified = 0;
  switch (scenario) {
  case CHILDREN: /* x = 1, then 2; y = 3; the later task: z = 4 */
    t1 = bk_task(rt, &fill_parent_kind, 1, x, NW_WRITE_ONLY, y);
    t2 = bk_task(rt, &bk_copy_kind, 0, y, NW_READ_ONLY, z);
    nw_task_submit(t1);
    nw_task_submit(t2);
    st = nw_task_wait(t2); /* runs t1's callback */
    out->verified = st == NW_OK && bk_holds(x, 2) && bk_holds(y, 3) && bk_holds(z, 4);
    if (st == NW_OK)
      st = nw_task_wait(t1);
    break;
  case DEEP: /* x: 0 + 4 */
    t1 = bk_task(rt, &bk_fill_kind, 0, x, NW_WRITE_ONLY, NULL);
    t2 = bk_task(rt, &inc_deep_kind, 3, x, NW_READ_WRITE, NULL);
    nw_task_submit(t1);
    nw_task_submit(t2);
    st = nw_task_wait(t2);
    out->verified = st == NW_OK && bk_holds(x, 4);
    break;
  case WAIT_CHILD:
    t1 = bk_task(rt, &fill_parent_kind, 5, x, NW_WRITE_ONLY, y);
    nw_task_submit(t1);
    st = nw_task_wait(t1);
    out->verified = st == NW_OK && bk_holds(x, 6);
    y = NULL; /* the callback destroyed it */
    break;
  case NO_WAIT:
    t1 = bk_task(rt, &fill_parent_kind, 1, x, NW_WRITE_ONLY, y);
    st = nw_task_submit(t1);
    out->verified = st == NW_OK;
    t1 = NULL; /* still running: its handle lives until the run ends */
    break;
  case BIND_OTHER:
  case WAIT_OTHER:
  case DEPEND_OTHER:
    outside = bk_task(rt, &bk_fill_kind, 1, z, NW_WRITE_ONLY, NULL);
    nw_task_submit(outside);
    t1 = bk_task(rt, &fill_parent_kind, 1, x, NW_WRITE_ONLY, y);
    nw_task_submit(t1);
    st = nw_task_wait(t1);
    break;
  case WRITE_RO:
    t1 = bk_task(rt, &copy_parent_kind, 0, x, NW_READ_ONLY, y);
    nw_task_submit(t1);
    st = nw_task_wait(t1);
    break;
  case OUTSIDE: {
    t1 = bk_task(rt, &bk_fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    nw_task *c = NULL;
    st = nw_task_create_nested(t1, &bk_inc_kind, BK_SUBTASKS, NULL, 0, &c);
    snprintf(said, sizeof said, "%s", nw_runtime_error(rt));
    nw_task_wait(t1);
    out->verified = 0;
    nw_task_destroy(t1);
    nw_space_destroy(x);
    nw_space_destroy(y);
    nw_space_destroy(z);
    return st;
    break;
  }
  }
  snprintf(said, sizeof said, "%s", st == NW_OK ? "" : nw_runtime_error(rt));
  nw_task_destroy(t1);
  nw_task_destroy(t2);
  nw_space_destroy(x);
  nw_space_destroy(y);
  nw_space_destroy(z);
  return st;
}

static const nw_app nested_app = {
    "nested",
    (const nw_task_kind *const[]){&bk_fill_kind, &bk_inc_kind, &bk_copy_kind, &fill_parent_kind,
                                  &inc_deep_kind, &copy_parent_kind, NULL},
    NULL, nested_main};

/* Runs a scenario on 3 nodes; the run's status, whether the driver verified its bytes, and
 * the tasks run (all, nested). */
static nw_status run(int which, int sequential, int *verified, uint64_t *tasks, uint64_t *nested) {
  loop_config lc;
  loop_config_defaults(&lc);
  lc.nodes = 3;
  lc.sched.sequential_tasks = sequential;
  scenario = which;
  said[0] = '\0';
  nw_app_args args = {.seed = 1};
  nw_run_result res;
  nw_status st = loop_run(&lc, &nested_app, &args, &res);
  *verified = res.verified;
  *tasks = res.total.tasks_run;
  *nested = res.total.tasks_nested;
  nw_run_result_free(&res);
  return st;
}

int main(void) {
  static const uint64_t want_tasks[] = {
      [CHILDREN] = 4, [DEEP] = 5, [WAIT_CHILD] = 2, [NO_WAIT] = 3};
  static const uint64_t want_nested[] = {
      [CHILDREN] = 2, [DEEP] = 3, [WAIT_CHILD] = 1, [NO_WAIT] = 2};
  for (int sequential = 0; sequential < 2; sequential++)
    for (int s = CHILDREN; s <= NO_WAIT; s++) {
      int ok = 0;
      uint64_t tasks = 0, nested = 0;
      nw_status st = run(s, sequential, &ok, &tasks, &nested);
      CHECK(st == NW_OK && ok == 1 && tasks == want_tasks[s] && nested == want_nested[s]);
      if (st != NW_OK || ok != 1 || tasks != want_tasks[s] || nested != want_nested[s])
        fprintf(stderr,
                "scenario %d sequential %d: status %d verified %d tasks %llu nested %llu (%s)\n", s,
                sequential, (int)st, ok, (unsigned long long)tasks, (unsigned long long)nested,
                said);
    }
  static const struct {
    int scenario;
    const char *says;
  } refused[] = {{BIND_OTHER, "does not bind"},
                 {WRITE_RO, "binds it read-only"},
                 {OUTSIDE, "not running its spawn callback"},
                 {WAIT_OTHER, "only its nested tasks"},
                 {DEPEND_OTHER, "same parent"}};
  for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
    int ok = 0;
    uint64_t tasks = 0, nested = 0;
    nw_status st = run(refused[k].scenario, 0, &ok, &tasks, &nested);
    CHECK(st != NW_OK && strstr(said, refused[k].says) != NULL);
    if (!strstr(said, refused[k].says))
      fprintf(stderr, "scenario %d said: %s\n", refused[k].scenario, said);
  }
  return check_report("nested");
}
