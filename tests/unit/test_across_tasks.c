/* test_across_tasks.c: policies decide over the ready work of every running task, not inside
 * one task (sched/policy.h), on scripted clusters of the loop backend. Each case fails on a
 * scheduler that decides inside one task:
 *
 * - dmda puts a new task's subtask on the idle device, not on the one a task before it loaded:
 *   task A's one long subtask goes to device 0 (ties go to the lower index), and task B's,
 *   decided while A runs, must go to device 1 (a decision that forgets A's work picks device
 *   0 again);
 * - dmdas runs the higher-priority subtask of a later task first: on one device, B's subtask
 *   (priority 5) runs before A's remaining ones (priority 0), though A started first;
 * - eager serves subtasks in ready order across tasks, to whichever device is idle: four
 *   one-subtask tasks on two devices launch in submission order, two on each;
 * - ws steals a subtask of another task: device 1 runs dry after A's subtask while device 0,
 *   slowed, still has B's subtask queued, and runs it (a per-task scheduler has device 0 hold
 *   B's subtask in hand, where no steal reaches it).
 * The order of launches and the device of each are measured in one run each.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "node_internal.h"

/* A task of the test: its subtasks each write one chunk of the task's own space. */
typedef struct xt_conf {
  uint32_t tag; /* which task: 'A', 'B', 'C' */
  uint32_t prio;
  double flops; /* per subtask */
} xt_conf;

enum { CHUNK = 16, MAX_SUBTASKS = 4 };

static nw_status xt_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * CHUNK, CHUNK, CHUNK, 1);
}

static void xt_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const xt_conf *c = t->conf;
  memset(nw_view_at(&v[0], i * CHUNK), (int)c->tag, CHUNK);
}

static double xt_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)i, (void)k;
  return ((const xt_conf *)t->conf)->flops;
}

static int xt_prio(const nw_task_info *t, uint64_t i) {
  (void)i;
  return (int)((const xt_conf *)t->conf)->prio;
}

static const nw_task_kind xt_kind = {.name = "xt",
                                     .subscribe = xt_sub,
                                     .cpu_kernel = xt_kernel,
                                     .flops = xt_flops,
                                     .priority = xt_prio};

/* The tasks a case submits, all at once, in order; then the driver waits for them. */
typedef struct xt_task {
  uint32_t tag;
  uint64_t subtasks;
  uint32_t prio;
  double flops;
} xt_task;

static const xt_task *tasks;
static int ntasks;

static nw_status xt_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *x[8];
  nw_task *t[8];
  nw_status st = NW_OK;
  for (int k = 0; k < ntasks; k++) {
    xt_conf c = {tasks[k].tag, tasks[k].prio, tasks[k].flops};
    nw_space_create(rt, MAX_SUBTASKS * CHUNK, CHUNK, &x[k]);
    nw_task_create(rt, &xt_kind, tasks[k].subtasks, &c, sizeof c, &t[k]);
    nw_task_bind(t[k], x[k], NW_WRITE_ONLY);
    nw_task_submit(t[k]);
  }
  int right = 1;
  for (int k = 0; k < ntasks; k++) {
    st = st == NW_OK ? nw_task_wait(t[k]) : st;
    unsigned char got[MAX_SUBTASKS * CHUNK];
    nw_space_read(x[k], 0, got, tasks[k].subtasks * CHUNK);
    for (uint64_t b = 0; b < tasks[k].subtasks * CHUNK; b++)
      right &= got[b] == (unsigned char)tasks[k].tag;
    nw_task_destroy(t[k]);
    nw_space_destroy(x[k]);
  }
  out->verified = right;
  return st;
}

static const nw_app xt_app = {"across-tasks", (const nw_task_kind *const[]){&xt_kind, NULL}, NULL,
                              xt_main};

/* What the run saw: each launch in order, as (task tag, subtask, device). */
typedef struct launch {
  uint32_t tag;
  uint64_t subtask;
  int device;
} launch;

static launch seen[64];
static int nseen;
static double slow_device0_s; /* added to every exec of device 0 */

static double exec_delay(void *ctx, int node, const nw_exec *e) {
  (void)ctx;
  if (nseen < 64)
    seen[nseen++] = (launch){((const xt_conf *)e->task->info.conf)->tag, e->subtask, e->device};
  return node == 0 && e->device == 0 ? slow_device0_s : 0.0;
}

static int run(const char *policy, int devices, int pipeline, const xt_task *list, int n) {
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 1;
  c.devices = devices;
  c.exec_delay = exec_delay;
  c.sched.pipeline = pipeline;
  snprintf(c.sched.policy, sizeof c.sched.policy, "%s", policy);
  tasks = list;
  ntasks = n;
  nseen = 0;
  nw_app_args args = {.seed = 1};
  nw_run_result res;
  nw_status st = loop_run(&c, &xt_app, &args, &res);
  int verified = res.verified;
  nw_run_result_free(&res);
  return st == NW_OK && verified == 1;
}

/* The position of (tag, subtask) among the launches, and its device; -1 if it never ran. */
static int position(uint32_t tag, uint64_t subtask, int *device) {
  for (int i = 0; i < nseen; i++)
    if (seen[i].tag == tag && seen[i].subtask == subtask) {
      if (device)
        *device = seen[i].device;
      return i;
    }
  return -1;
}

static void print_order(const char *what) {
  printf("%s:", what);
  for (int i = 0; i < nseen; i++)
    printf(" %c%llu@%d", (char)seen[i].tag, (unsigned long long)seen[i].subtask, seen[i].device);
  printf("\n");
}

int main(void) {
  int dev = -1;

  /* dmda: A's long subtask loads device 0; B's goes where nothing is predicted. */
  slow_device0_s = 0;
  static const xt_task dmda_case[] = {{'A', 1, 0, 1e7}, {'B', 1, 0, 1e6}};
  CHECK(run("dmda", 2, 1, dmda_case, 2));
  print_order("dmda");
  CHECK(position('A', 0, &dev) >= 0 && dev == 0);
  CHECK(position('B', 0, &dev) >= 0 && dev == 1);

  /* dmdas: one device; B's subtask has the higher priority and goes before A's queued ones. */
  static const xt_task dmdas_case[] = {{'A', 3, 0, 1e6}, {'B', 1, 5, 1e6}};
  CHECK(run("dmdas", 1, 0, dmdas_case, 2));
  print_order("dmdas");
  CHECK(position('B', 0, NULL) >= 0 && position('B', 0, NULL) < position('A', 1, NULL));
  CHECK(position('B', 0, NULL) < position('A', 2, NULL));

  /* eager: two devices, four one-subtask tasks; launched in ready order (A, B, C, D), two on
   * each device (a per-task pool gives each task's one subtask to device 0, which asks first). */
  static const xt_task eager_case[] = {
      {'A', 1, 0, 1e6}, {'B', 1, 0, 1e6}, {'C', 1, 0, 1e6}, {'D', 1, 0, 1e6}};
  CHECK(run("eager", 2, 1, eager_case, 4));
  print_order("eager");
  CHECK(nseen == 4);
  int on1 = 0;
  for (int i = 0; i < nseen; i++) {
    CHECK(seen[i].tag == (uint32_t)('A' + i));
    on1 += seen[i].device == 1;
  }
  CHECK(on1 == 2);

  /* ws: round robin puts A0 on device 0, A1 on device 1, B0 on device 0 (the deal goes on from
   * task to task); device 0 is slow, so device 1 runs dry and steals B0 from its queue
   * (without pipelining: a prefetched subtask is not stolen). */
  slow_device0_s = 0.05;
  static const xt_task ws_case[] = {{'A', 2, 0, 1e6}, {'B', 1, 0, 1e6}};
  CHECK(run("ws", 2, 0, ws_case, 2));
  print_order("ws");
  CHECK(position('A', 0, &dev) >= 0 && dev == 0);
  CHECK(position('A', 1, &dev) >= 0 && dev == 1);
  CHECK(position('B', 0, &dev) >= 0 && dev == 1);
  slow_device0_s = 0;
  return check_report("across_tasks");
}
