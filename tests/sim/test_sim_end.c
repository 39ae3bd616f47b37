/* test_sim_end.c: the simulator ends cleanly when a node arms a timer after node 0 and the
 * driver have ended: `test_sim_end PLATFORM SEED`.
 *
 * The run's last task writes nothing, so node 0 completes it as soon as the last subtask is
 * reported, the driver shuts down and node 0 ends, while the other node's devices are still
 * stealing with --steal-retry: a failed round's back-off timer is a daemon actor started after
 * the last actors but one have ended. SimGrid killed every actor when such a timer was
 * daemonized before its start (a segfault). The run must end with its result.
 */
#include <stdio.h>
#include <stdlib.h>

#include "run.h"
#include "sim_backend.h"

static double some_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)k;
  return 1e7 * (double)(1 + i % 3);
}

static nw_status sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_READ_ONLY, (i % 16) * 64, 64, 64, 1);
}

static void nothing(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t, (void)i, (void)v;
}

static void nothing_gpu(const nw_task_info *t, uint64_t i, const nw_gpu_view *v) {
  (void)t, (void)i, (void)v;
}

static const nw_task_kind kind = {.name = "reader",
                                  .subscribe = sub,
                                  .cpu_kernel = nothing,
                                  .gpu_emulated_kernel = nothing_gpu,
                                  .flops = some_flops};

static nw_status reader_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  nw_space *s;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, 1024, 64, &s);
  for (int k = 0; k < 3 && st == NW_OK; k++) {
    st = nw_task_create(rt, &kind, 64, NULL, 0, &t);
    if (st == NW_OK)
      st = nw_task_bind(t, s, NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_submit(t);
    if (st == NW_OK)
      st = nw_task_wait(t);
    nw_task_destroy(t);
  }
  nw_space_destroy(s);
  out->verified = st == NW_OK;
  return st;
}

static const nw_app app = {"reader", (const nw_task_kind *const[]){&kind, NULL}, NULL, reader_main};

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_sim_end PLATFORM SEED\n");
    return 2;
  }
  nw_run_config c;
  nw_run_config_defaults(&c);
  snprintf(c.app, sizeof c.app, "reader");
  snprintf(c.platform, sizeof c.platform, "%s", argv[1]);
  c.seed = strtoull(argv[2], NULL, 10);
  c.nodes = 2;
  c.devices = NW_DEVICES_CPU_GPU;
  c.sched.steal_retry_s = 1e-6;
  c.sched.locality = 1;
  c.gpu_mem = 1 << 20;
  nw_run_result res;
  nw_status st = nw_sim_run(&c, &app, &res);
  int ok = st == NW_OK && res.verified == 1 && res.subtasks == 3 * 64;
  if (st != NW_OK)
    fprintf(stderr, "seed %s: %s\n", argv[2], res.error);
  printf("sim_end seed %s: %d passed, %d failed\n", argv[2], ok, !ok);
  nw_run_result_free(&res);
  return ok ? 0 : 1;
}
