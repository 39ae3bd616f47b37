/* test_transfer_counts.c: the counts behind the transfer frequency (the paper's Fig. 21):
 * bytes received and served in answer to fetches, and the unique bytes among them.
 *
 * On the loop backend, with messages reordered, a slowed node (steals, copies) and every
 * placement: unique never exceeds total on any node; every byte served is received; a node
 * counts a byte it receives again (a later task's new value of it) once in its unique bytes;
 * and with the inputs on node 0 only node 0 serves anything.
 */
#include "check.h"
#include "loop_backend.h"
#include "matmul/matmul.h"
#include "stencil_app.h"

enum { N = 64, BLOCK = 16, MATRIX = N * N * 4 };

/* What holds whatever the run: unique <= total per node, the served bytes all received (the
 * loop backend delivers every message before it returns), and the sums match the rows. */
static void check_invariants(const nw_run_result *r) {
  uint64_t rec = 0, rec_u = 0, srv = 0, srv_u = 0;
  for (int k = 0; k < r->nodes; k++) {
    CHECK(r->per_node[k].bytes_received_unique <= r->per_node[k].bytes_received);
    CHECK(r->per_node[k].bytes_served_unique <= r->per_node[k].bytes_served);
    rec += r->per_node[k].bytes_received;
    rec_u += r->per_node[k].bytes_received_unique;
    srv += r->per_node[k].bytes_served;
    srv_u += r->per_node[k].bytes_served_unique;
  }
  CHECK(rec == r->total.bytes_received && rec_u == r->total.bytes_received_unique);
  CHECK(srv == r->total.bytes_served && srv_u == r->total.bytes_served_unique);
  CHECK(srv == rec);
  CHECK(r->transfer_frequency == 0 || r->transfer_frequency >= 1);
  CHECK(r->transfer_frequency_received == 0 || r->transfer_frequency_received >= 1);
}

static void check_matmul(void) {
  loop_config c;
  nw_run_result res;
  loop_config_defaults(&c);
  c.slow_node_factor = 4;
  nw_app_placement how[] = {NW_PLACEMENT_BLOCKS, NW_PLACEMENT_ROWS, NW_PLACEMENT_COLUMNS,
                            NW_PLACEMENT_ROWS_COLUMNS};
  for (uint64_t seed = 1; seed <= 3; seed++)
    for (int p = 0; p < 4; p++) {
      c.seed = seed;
      c.jitter_s = seed > 1 ? 0.005 : 0;
      nw_app_args mm = {
          .n = N, .block = BLOCK, .seed = seed, .verify = 1, .spread = 1, .placement = how[p]};
      CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
      CHECK(res.verified == 1);
      check_invariants(&res);
      /* A node can have received at most every byte of A, B and C once. */
      for (int k = 0; k < res.nodes; k++)
        CHECK(res.per_node[k].bytes_received_unique <= 3u * MATRIX);
      nw_run_result_free(&res);
    }
}

/* Everything on node 0 and no read-back: node 0 serves every byte, nobody else serves any,
 * and B, which every node's subtasks read, goes from node 0 to several nodes. */
static void check_centralised(void) {
  loop_config c;
  nw_run_result res;
  loop_config_defaults(&c);
  nw_app_args mm = {.n = N, .block = BLOCK, .seed = 2, .verify = 0, .spread = 0};
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  check_invariants(&res);
  CHECK(res.per_node[0].bytes_served > 0);
  CHECK(res.per_node[0].bytes_received == 0);
  for (int k = 1; k < res.nodes; k++)
    CHECK(res.per_node[k].bytes_served == 0);
  CHECK(res.transfer_frequency > 1.5);
  nw_run_result_free(&res);
}

/* The read-write stencil: each task reads rows that other nodes wrote in the task before, so
 * a node receives new values of bytes it received already; unique counts them once. */
static void check_refetch(void) {
  loop_config c;
  nw_run_result res;
  loop_config_defaults(&c);
  nw_app_args none = {0};
  for (uint64_t seed = 1; seed <= 3; seed++) {
    c.seed = seed;
    c.jitter_s = seed > 1 ? 0.005 : 0;
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    CHECK(res.verified == 1);
    check_invariants(&res);
    CHECK(res.total.bytes_received_unique < res.total.bytes_received);
    CHECK(res.transfer_frequency_received > 1);
    nw_run_result_free(&res);
  }
}

int main(void) {
  check_matmul();
  check_centralised();
  check_refetch();
  return check_report("transfer_counts");
}
