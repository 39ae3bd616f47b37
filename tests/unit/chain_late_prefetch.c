/* chain_late_prefetch.c: late data landing on what a later task committed (a stale read of the
 * chain app), as one scripted order of events on the loop backend.
 *
 * The chain app (apps/chain) on 2 nodes of 1 device, 6 subtasks per step: node 0 starts with
 * subtasks 0-2, node 1 with 3-5; subtask i reads cells i-1, i, i+1 of the last step's space
 * and writes cell i of the other space (X0, X1 in turn). The script:
 *   step 1 (reads X0, writes X1): subtask 3 takes 1 ms, so node 0 steals subtask 5 and
 *     writes X1's cell 5;
 *   step 2 (reads X1, writes X0): node 1 runs subtask 3 (1 ms again) and prefetches subtask
 *     4, whose cell 5 is on node 0; that transfer takes 2 ms more, so node 0 steals the
 *     prefetched subtask 4 and the step ends with the bytes still on their way;
 *   step 3 (reads X0, writes X1 write-only): node 1 runs 3, 4 and 5 and commits its cell 5
 *     of X1 as subtask 5 ends; subtask 0 takes 2 ms, so the step is still running when the
 *     late bytes (cell 5 as step 1 wrote it) reach node 1.
 * Before the fix they landed: X1 had not been written since they were asked for, so their
 * version was current, and they overwrote the cell node 1 had just committed. Node 1 owned
 * that cell from step 3's end, and step 4 read step 1's output where step 3's belonged: data
 * two steps old. Now a task that writes a space starts a new version of it, and the late bytes
 * are dropped. Also checked with kernels run at completion (as on a real device), without
 * copies, and with 40 delays from 0.1 to 4 ms (before the fix, those from 1.2 to 3 ms read
 * stale data: the bytes landed after node 1's commit and before the step's end). */
#include <stdio.h>

#include "chain/chain.h"
#include "check.h"
#include "loop_backend.h"
#include "node_internal.h"

typedef struct script {
  double late_s; /* extra delay of node 1's first prefetched data of X1 */
  int delayed;   /* that transfer was seen */
  int multi_assign;
} script;

/* Space ids follow creation order: X0 is 1, X1 is 2. */
enum { X1 = 2 };

static double message_delay(void *ctx, int src, int dst, nw_channel ch, const void *buf,
                            size_t len) {
  script *s = ctx;
  (void)src;
  nw_reader r;
  nw_r_init(&r, buf, len);
  if (ch != NW_CHANNEL_PREFETCH || dst != 1 || s->delayed || nw_r_u8(&r) != MSG_DATA ||
      nw_r_u64(&r) != X1)
    return 0;
  s->delayed = 1;
  return s->late_s;
}

/* Task ids are the chain's steps (the app submits nothing else). */
static double exec_delay(void *ctx, int node, const nw_exec *e) {
  (void)ctx, (void)node;
  uint64_t step = e->task->id, i = e->subtask;
  if ((step == 1 || step == 2) && i == 3)
    return 1e-3;
  if (step == 3 && i == 0)
    return 2e-3;
  return 0;
}

static void run(script *s, int kernel_at_done, nw_run_result *res) {
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 2;
  c.devices = 1;
  c.kernel_at_done = kernel_at_done;
  c.sched.multi_assign = s->multi_assign;
  c.message_delay = message_delay;
  c.exec_delay = exec_delay;
  c.script = s;
  nw_app_args a = {.n = 6, .block = 6, .seed = 1, .verify = 1, .spread = 0};
  CHECK(loop_run(&c, &nw_chain_app, &a, res) == NW_OK);
  CHECK(s->delayed);
}

int main(void) {
  nw_run_result res;
  for (int kernel_at_done = 0; kernel_at_done <= 1; kernel_at_done++)
    for (int ma = 0; ma <= 1; ma++) {
      script s = {.late_s = 2e-3, .multi_assign = ma};
      run(&s, kernel_at_done, &res);
      if (res.stale_reads)
        fprintf(stderr, "kernel_at_done %d multi-assign %d: %llu stale reads\n", kernel_at_done, ma,
                (unsigned long long)res.stale_reads);
      CHECK(res.verified == 1 && res.stale_reads == 0);
      CHECK(res.total.stale_data_dropped > 0); /* the late bytes were dropped, not written */
      nw_run_result_free(&res);
    }
  /* Delays from 0.1 to 4 ms: the bytes land in step 2, in step 3 before or after the commit,
   * or later; never read. */
  int stale_runs = 0;
  for (int k = 1; k <= 40; k++) {
    script s = {.late_s = k * 1e-4, .multi_assign = 1};
    run(&s, 0, &res);
    stale_runs += res.verified != 1 || res.stale_reads > 0;
    nw_run_result_free(&res);
  }
  CHECK(stale_runs == 0);
  return check_report("chain_late_prefetch");
}
