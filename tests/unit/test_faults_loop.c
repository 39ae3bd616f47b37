/* test_faults_loop.c: the in-process backend's fault mode (core/node/faults.h).
 *
 * - lost and late messages only cost time: matmul and the read-write stencil stay exact, with
 *   and without a slowed node and copies of stragglers, and the run takes longer than the same
 *   run without faults;
 * - a node lost before, early in, halfway through or late in the run (matmul, whose every node
 *   owns input blocks, and the read-write stencil) is survived: the tasks under way roll back
 *   and run again on the others, exactly (core/node/recover.c); also two nodes, one of them
 *   running copies of a straggler's subtasks;
 * - node 0, the driver's, lost: the run ends with the reason;
 * - a node lost after the run ended changes nothing.
 */
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "matmul/matmul.h"
#include "stencil_app.h"

int main(void) {
  loop_config c;
  nw_run_result res;
  nw_app_args mm = {.n = 64, .block = 16, .seed = 7, .verify = 1, .spread = 1};
  nw_app_args none = {0};

  loop_config_defaults(&c);
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  double clean = res.makespan_s;
  nw_run_result_free(&res);
  CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
  double clean_stencil = res.makespan_s;
  nw_run_result_free(&res);
  for (uint64_t seed = 1; seed <= 4; seed++) {
    loop_config_defaults(&c);
    c.seed = seed;
    c.faults.drop_p = 0.3;
    c.faults.rto_s = 1e-3;
    c.faults.delay_s = 2e-4;
    c.faults.delay_p = 0.5;
    c.slow_node_factor = seed > 2 ? 8 : 1; /* copies of stragglers too */
    CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
    CHECK(res.verified == 1);
    if (seed <= 2)
      CHECK(res.makespan_s > clean);
    nw_run_result_free(&res);
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    CHECK(res.verified == 1);
    CHECK(res.subtasks == STENCIL_ROWS * (1 + STENCIL_STEPS));
    nw_run_result_free(&res);
  }

  /* A node lost before, early in, halfway through and late in the run (core/node/recover.c):
   * the run goes on without it, rolls back the tasks under way and runs them again, and the
   * results are exact. Every node owns input blocks (spread) or stencil rows. */
  const double when[] = {0.0, 0.1, 0.5, 0.9};
  int restarted = 0;
  for (int w = 0; w < 4; w++)
    for (int lost = 1; lost <= 3; lost++) {
      loop_config_defaults(&c);
      c.faults.nfail = 1;
      c.faults.detect_s = 1e-4;
      c.faults.fail[0] = (nw_fault_fail){lost, when[w] * clean};
      CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
      CHECK(res.verified == 1);
      restarted += res.total.tasks_restarted > 0 && res.total.subtasks_reexecuted > 0;
      nw_run_result_free(&res);
      c.faults.fail[0] = (nw_fault_fail){lost, when[w] * clean_stencil};
      CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
      CHECK(res.verified == 1);
      CHECK(res.subtasks >= STENCIL_ROWS * (1 + STENCIL_STEPS)); /* some ran twice */
      restarted += res.total.tasks_restarted > 0;
      nw_run_result_free(&res);
    }
  CHECK(restarted >= 12); /* all but the losses before any task started */

  /* Node 1 eight times slower, so others run copies of its subtasks; node 2, running copies,
   * and then node 3 lost: exact, and copies were made. */
  loop_config_defaults(&c);
  c.slow_node_factor = 8;
  c.faults.nfail = 2;
  c.faults.detect_s = 1e-4;
  c.faults.fail[0] = (nw_fault_fail){2, 0.6 * clean};
  c.faults.fail[1] = (nw_fault_fail){3, 0.8 * clean};
  nw_app_args big = {.n = 128, .block = 16, .seed = 3, .verify = 1, .spread = 1};
  CHECK(loop_run(&c, &nw_matmul_app, &big, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.total.multi_assigned > 0);
  CHECK(res.total.recoveries == 2);
  nw_run_result_free(&res);

  /* Node 0, the driver's, lost: the run ends with the reason. */
  loop_config_defaults(&c);
  c.faults.nfail = 1;
  c.faults.fail[0] = (nw_fault_fail){0, clean_stencil / 2};
  CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) != NW_OK);
  CHECK(strstr(res.error, "node 0, the driver's, was lost") != NULL);
  nw_run_result_free(&res);

  c.faults.fail[0] = (nw_fault_fail){3, 1e6}; /* long after the end */
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  nw_run_result_free(&res);
  return check_report("faults_loop");
}
