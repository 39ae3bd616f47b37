/* test_start_order.c: a node whose start of task k+1 arrives before its start of task k.
 *
 * Node 0 completes a task that writes nothing as soon as its subtasks are committed, without
 * waiting for a node that had none of them, and starts the next task at once; on that node
 * the second start can then overtake the first. Tasks must still start there in order (the
 * second waits for the first), or the second task's later messages wait in the stash for ever
 * and the run never ends. Scripted on 4 nodes of the loop backend: the first task has 2
 * subtasks (nodes 1 and 3 get one each); its start reaches node 2 after the second task's
 * start, and the second task's end comes later still.
 */
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "wire.h"

static double unit_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

static nw_status read_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_READ_ONLY, i * 16, 16, 16, 1);
}
static void read_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t, (void)i, (void)v;
}
static const nw_task_kind read_kind = {
    .name = "read", .subscribe = read_sub, .cpu_kernel = read_run, .flops = unit_flops};

static nw_status write_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * 16, 16, 16, 1);
}
static void write_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  memset(nw_view_at(&v[0], i * 16), (int)(i + 1), 16);
}
static const nw_task_kind write_kind = {
    .name = "write", .subscribe = write_sub, .cpu_kernel = write_run, .flops = unit_flops};

static nw_status order_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *s;
  nw_task *t;
  unsigned char got[64];
  nw_status st = nw_space_create(rt, 64, 16, &s);
  const nw_task_kind *kinds[2] = {&read_kind, &write_kind};
  uint64_t subtasks[2] = {2, 4};
  for (int k = 0; k < 2 && st == NW_OK; k++) {
    st = nw_task_create(rt, kinds[k], subtasks[k], NULL, 0, &t);
    if (st == NW_OK)
      st = nw_task_bind(t, s, k == 0 ? NW_READ_ONLY : NW_WRITE_ONLY);
    if (st == NW_OK)
      st = nw_task_submit(t);
    if (st == NW_OK)
      st = nw_task_wait(t);
    nw_task_destroy(t);
  }
  if (st == NW_OK)
    st = nw_space_read(s, 0, got, sizeof got);
  int same = st == NW_OK;
  for (int b = 0; b < 64; b++)
    same = same && got[b] == b / 16 + 1;
  out->verified = same;
  nw_space_destroy(s);
  return st;
}

static const nw_app order_app = {
    "order", (const nw_task_kind *const[]){&read_kind, &write_kind, NULL}, NULL, order_main};

static int delayed; /* the scripted delay happened */

/* The start of task 1 reaches node 2 a second late, after the start of task 2, and the end
 * of task 2 another second later. */
static double late_first_start(void *ctx, int src, int dst, nw_channel ch, const void *buf,
                               size_t len) {
  (void)ctx, (void)src, (void)ch;
  const unsigned char *b = buf;
  uint64_t id = 0;
  for (int k = 0; len >= 9 && k < 8; k++)
    id |= (uint64_t)b[1 + k] << (8 * k);
  if (dst == 2 && len >= 9 && b[0] == MSG_TASK_START && id == 1) {
    delayed = 1;
    return 1.0;
  }
  if (dst == 2 && len >= 9 && b[0] == MSG_TASK_FINISH && id == 2)
    return 2.0;
  return 0.0;
}

int main(void) {
  loop_config c;
  nw_run_result res;
  nw_app_args none = {0};
  loop_config_defaults(&c);
  c.devices = 1;
  c.sched.multi_assign = 0;
  c.message_delay = late_first_start;
  nw_status st = loop_run(&c, &order_app, &none, &res);
  if (st != NW_OK)
    fprintf(stderr, "start_order: %s\n", res.error);
  CHECK(delayed);
  CHECK(st == NW_OK);
  CHECK(res.verified == 1);
  nw_run_result_free(&res);
  return check_report("start_order");
}
