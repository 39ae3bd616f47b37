/* test_faults_loop.c: the in-process backend's fault mode (core/node/faults.h; issue 15, item 5).
 *
 * - lost and late messages only cost time: matmul and the read-write stencil stay exact, with
 *   and without a slowed node and copies of stragglers, and the run takes longer than the same
 *   run without faults;
 * - a node lost mid-run ends the run with an error naming it (re-running its work is not
 *   built), with every node's memory freed (ASan's leak check in sanitizer builds);
 * - node 0, the driver's, lost: the error says so;
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

  /* Node 2 lost halfway: the run fails with its number in the reason. */
  loop_config_defaults(&c);
  c.faults.nfail = 1;
  c.faults.fail[0] = (nw_fault_fail){2, clean / 2};
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) != NW_OK);
  CHECK(strstr(res.error, "node 2 was lost") != NULL);
  nw_run_result_free(&res);

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
