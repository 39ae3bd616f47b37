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

#include "check.h"
#include "loop_backend.h"

enum { CHUNK = 64, SUBTASKS = 4, BYTES = CHUNK * SUBTASKS };

/* fill: writes byte value conf[0] over its space, a chunk per subtask. */
static nw_status fill_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * CHUNK, CHUNK, CHUNK, 1);
}
static void fill_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  memset(nw_view_at(&v[0], i * CHUNK), *(const unsigned char *)t->conf, CHUNK);
}
/* copy: space 1 := space 0 + 1, chunk by chunk. */
static nw_status copy_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, i * CHUNK, CHUNK, CHUNK, 1);
  return st != NW_OK ? st : nw_subscribe(s, 1, NW_WRITE_ONLY, i * CHUNK, CHUNK, CHUNK, 1);
}
static void copy_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  const unsigned char *in = nw_view_at(&v[0], i * CHUNK);
  unsigned char *out = nw_view_at(&v[1], i * CHUNK);
  for (int k = 0; k < CHUNK; k++)
    out[k] = (unsigned char)(in[k] + 1);
}
static double flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}
static const nw_task_kind fill_kind = {
    .name = "fill", .subscribe = fill_sub, .cpu_kernel = fill_kernel, .flops = flops};
static const nw_task_kind copy_kind = {
    .name = "copy", .subscribe = copy_sub, .cpu_kernel = copy_kernel, .flops = flops};

static int scenario;
static char said[512];

static nw_task *task_of(nw_runtime *rt, const nw_task_kind *k, unsigned char v, nw_space *a,
                        nw_access aa, nw_space *b) {
  nw_task *t = NULL;
  nw_task_create(rt, k, SUBTASKS, &v, 1, &t);
  nw_task_bind(t, a, aa);
  if (b)
    nw_task_bind(t, b, NW_WRITE_ONLY);
  return t;
}

/* Every byte of s is v. */
static int holds(nw_space *s, unsigned char v) {
  unsigned char got[BYTES];
  if (nw_space_read(s, 0, got, BYTES) != NW_OK)
    return 0;
  for (int k = 0; k < BYTES; k++)
    if (got[k] != v)
      return 0;
  return 1;
}

static nw_status graph_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *x, *y, *z;
  nw_space_create(rt, BYTES, CHUNK, &x);
  nw_space_create(rt, BYTES, CHUNK, &y);
  nw_space_create(rt, BYTES, CHUNK, &z);
  nw_task *t1 = NULL, *t2 = NULL, *t3 = NULL;
  nw_status st = NW_OK;
  out->verified = 0;
  switch (scenario) {
  case 0: /* independent: two fills of different spaces */
  case 1: /* the same, the second depending on the first */
    t1 = task_of(rt, &fill_kind, 7, x, NW_WRITE_ONLY, NULL);
    t2 = task_of(rt, &fill_kind, 9, y, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    if (scenario == 1)
      st = nw_task_depend(t2, t1);
    nw_task_submit(t2);
    nw_task_wait(t1);
    nw_task_wait(t2);
    out->verified = st == NW_OK && holds(x, 7) && holds(y, 9);
    break;
  case 2: /* a reader submitted with the writer of its space */
    t1 = task_of(rt, &fill_kind, 5, x, NW_WRITE_ONLY, NULL);
    t2 = task_of(rt, &copy_kind, 0, x, NW_READ_ONLY, y);
    nw_task_submit(t1);
    nw_task_submit(t2);
    nw_task_wait(t2);
    nw_task_wait(t1);
    out->verified = holds(y, 6);
    break;
  case 3: /* two readers of one space (after its writer) */
    t1 = task_of(rt, &fill_kind, 3, x, NW_WRITE_ONLY, NULL);
    nw_task_submit(t1);
    nw_task_wait(t1);
    t2 = task_of(rt, &copy_kind, 0, x, NW_READ_ONLY, y);
    t3 = task_of(rt, &copy_kind, 0, x, NW_READ_ONLY, z);
    nw_task_submit(t2);
    nw_task_submit(t3);
    nw_task_wait(t2);
    nw_task_wait(t3);
    out->verified = holds(y, 4) && holds(z, 4);
    break;
  case 4: /* on a task not submitted yet */
    t1 = task_of(rt, &fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    t2 = task_of(rt, &fill_kind, 1, y, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t2, t1);
    break;
  case 5: /* on itself */
    t1 = task_of(rt, &fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t1, t1);
    break;
  case 6: { /* on a destroyed task */
    nw_task *gone = task_of(rt, &fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    nw_task_destroy(gone);
    t1 = task_of(rt, &fill_kind, 1, y, NW_WRITE_ONLY, NULL);
    st = nw_task_depend(t1, gone); /* compared, never read through */
    break;
  }
  case 8: /* binding no space */
    nw_task_create(rt, &fill_kind, SUBTASKS, "", 1, &t1);
    st = nw_task_bind(t1, NULL, NW_READ_ONLY);
    break;
  default: /* after submission */
    t1 = task_of(rt, &fill_kind, 1, x, NW_WRITE_ONLY, NULL);
    t2 = task_of(rt, &fill_kind, 1, y, NW_WRITE_ONLY, NULL);
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
    "graph", (const nw_task_kind *const[]){&fill_kind, &copy_kind, NULL}, NULL, graph_main};

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
