/* test_task_graph.c: which tasks run at once (paper section 2; core/node/task.c,
 * nw_task_start_ready), on the in-process loop backend:
 * - two tasks sharing no space run at once (JSON tasks_concurrent_max 2), and one at a time when
 *   the second depends on the first (nw_task_depend) or with sequential_tasks;
 * - a reader submitted together with the writer of its space waits for it and reads what it
 *   wrote;
 * - tasks sharing a space read-only run at once;
 * - nw_task_depend refuses a task not submitted yet, the task itself, a destroyed task, and a
 *   call after submission, and nw_task_bind a NULL space, each with a message.
 */
#include <stdlib.h>
#include <string.h>

#include "byte_kinds.h"
#include "check.h"
#include "loop_backend.h"

static int scenario;
static char said[512];

static nw_status graph_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *x, *y, *z;
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &x);
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &y);
  nw_space_create(rt, BK_BYTES, BK_CHUNK, &z);
  nw_task *t1 = NULL, *t2 = NULL, *t3 = NULL;
  nw_status st = NW_OK;
  out->verified = 0;
  switch (scenario) {
  case 0: /* independent: two fills of different spaces */
  case 1: /* the same, the second depending on the first */
    t1 = bk_task(rt, &bk_fill_kind, 7, x, NW_WRITE_ONLY, NULL);
    t2 = bk_task(rt, &bk_fill_kind, 9, y, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    if (scenario == 1)
      st = nw_task_depend(t2, t1);
    nw_task_submit(t2);
    nw_task_wait(t1);
    nw_task_wait(t2);
    out->verified = st == NW_OK && bk_holds(x, 7) && bk_holds(y, 9);
    break;
  case 2: /* a reader submitted with the writer of its space */
    t1 = bk_task(rt, &bk_fill_kind, 5, x, NW_WRITE_ONLY, NULL);
    t2 = bk_task(rt, &bk_copy_kind, 0, x, NW_READ_ONLY, y);
    nw_task_submit(t1);
    nw_task_submit(t2);
    nw_task_wait(t2);
    nw_task_wait(t1);
    out->verified = bk_holds(y, 6);
    break;
  case 3: /* two readers of one space (after its writer) */
    t1 = bk_task(rt, &bk_fill_kind, 3, x, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    nw_task_wait(t1);
    t2 = bk_task(rt, &bk_copy_kind, 0, x, NW_READ_ONLY, y);
    t3 = bk_task(rt, &bk_copy_kind, 0, x, NW_READ_ONLY, z);
    nw_task_submit(t2);
    nw_task_submit(t3);
    nw_task_wait(t2);
    nw_task_wait(t3);
    out->verified = bk_holds(y, 4) && bk_holds(z, 4);
    break;
  case 4: /* on a task not submitted yet */
    t1 = bk_task(rt, &bk_fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    t2 = bk_task(rt, &bk_fill_kind, 1, y, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t2, t1);
    break;
  case 5: /* on itself */
    t1 = bk_task(rt, &bk_fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t1, t1);
    break;
  case 6: { /* on a destroyed task */
    nw_task *gone = bk_task(rt, &bk_fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    nw_task_destroy(gone);
    t1 = bk_task(rt, &bk_fill_kind, 1, y, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t1, gone); /* compared, never read through */
    break;
  }
  case 8: /* binding no space */
    nw_task_create(rt, &bk_fill_kind, BK_SUBTASKS, "", 1, &t1);
    st = nw_task_bind(t1, NULL, NW_READ_ONLY);
    break;
  default: /* after submission */
    t1 = bk_task(rt, &bk_fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    t2 = bk_task(rt, &bk_fill_kind, 1, y, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    nw_task_submit(t2);
    st = nw_task_depend(t2, t1);
    nw_task_wait(t1);
    nw_task_wait(t2);
    break;
  }
  snprintf(said, sizeof said, "%s", st == NW_OK ? "" : nw_runtime_error(rt));
  nw_task_destroy(t1);
  nw_task_destroy(t2);
  nw_task_destroy(t3);
  nw_space_destroy(x);
  nw_space_destroy(y);
  nw_space_destroy(z);
  return st;
}

static const nw_app graph_app = {
    "graph", (const nw_task_kind *const[]){&bk_fill_kind, &bk_copy_kind, NULL}, NULL, graph_main};

/* Runs a scenario; returns the most tasks that ran at once (0 when the run failed). */
static uint64_t run(int which, int sequential, nw_status *st_out, int *verified) {
  loop_config lc;
  loop_config_defaults(&lc);
  lc.nodes = 3;
  lc.sched.sequential_tasks = sequential;
  scenario = which;
  nw_app_args args = {.seed = 1};
  nw_run_result res;
  nw_status st = loop_run(&lc, &graph_app, &args, &res);
  uint64_t most = st == NW_OK ? res.total.tasks_concurrent_max : 0;
  *verified = res.verified;
  if (st_out)
    *st_out = st;
  nw_run_result_free(&res);
  return most;
}

int main(void) {
  int ok;
  CHECK(run(0, 0, NULL, &ok) == 2 && ok == 1);
  CHECK(run(0, 1, NULL, &ok) == 1 && ok == 1);
  CHECK(run(1, 0, NULL, &ok) == 1 && ok == 1);
  CHECK(run(2, 0, NULL, &ok) == 1 && ok == 1);
  CHECK(run(3, 0, NULL, &ok) == 2 && ok == 1);
  static const char *const want[] = {"not submitted yet", "itself", "not a live task",
                                     "already submitted", "the space is NULL"};
  for (int k = 0; k < 5; k++) {
    nw_status st = NW_OK;
    run(4 + k, 0, &st, &ok);
    CHECK(st != NW_OK && strstr(said, want[k]) != NULL);
    if (!strstr(said, want[k]))
      fprintf(stderr, "case %d said: %s\n", 4 + k, said);
  }
  return check_report("task_graph");
}
