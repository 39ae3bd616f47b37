/* test_transfer_counts.c: the counts behind the transfer frequency (the paper's Fig. 21):
 * bytes received and served in answer to fetches, and the unique bytes among them.
 *
 * On the loop backend, with messages reordered, a slowed node (steals, copies) and every
 * placement: unique never exceeds total on any node; every byte served is received; a node
 * counts a byte it receives again (a later task's new value of it) once in its unique bytes;
 * and with the inputs on node 0 only node 0 serves anything, unless masters pass on what they
 * fetched (--master-serves copies).
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

/* matmul under every placement, seeds 1-3 (jitter from seed 2), node 1 slowed fourfold
 * (steals, copies), masters answering from their copies or not: every run exact, the counts'
 * invariants, no node receiving more than A, B and C once. Returns the bytes served from
 * copies (bytes_served_copies) over the runs. */
static uint64_t check_matmul(int master_copies) {
  loop_config c;
  nw_run_result res;
  uint64_t copies = 0;
  loop_config_defaults(&c);
  c.slow_node_factor = 4;
  c.sched.master_serves_copies = master_copies;
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
      copies += res.total.bytes_served_copies;
      /* A node can have received at most every byte of A, B and C once. */
      for (int k = 0; k < res.nodes; k++)
        CHECK(res.per_node[k].bytes_received_unique <= 3u * MATRIX);
      nw_run_result_free(&res);
    }
  return copies;
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

/* --master-serves copies: the master answers from bytes it fetched as well as those it owns.
 * Every run stays exact (stolen and copied subtasks, jitter, every placement, the read-write
 * stencil whose later tasks must not be sent an earlier task's copy), the counts' invariants
 * hold, and with every input on node 0 a node other than node 0 serves bytes (a master passing
 * on what it fetched: without the option nobody but node 0 serves any, check_centralised). */
static void check_master_copies(void) {
  loop_config c;
  nw_run_result res;
  uint64_t copies = check_matmul(1);
  CHECK(copies > 0);
  nw_app_args none = {0};
  for (uint64_t seed = 1; seed <= 3; seed++) {
    loop_config_defaults(&c);
    c.sched.master_serves_copies = 1;
    c.seed = seed;
    c.jitter_s = seed > 1 ? 0.005 : 0;
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    CHECK(res.verified == 1);
    check_invariants(&res);
    nw_run_result_free(&res);
  }
  /* Everything on node 0 and no read-back: the bytes nodes other than node 0 serve are all
   * copies. Messages late by up to 5 ms let some requests reach a master after its own fetch
   * of the same bytes came in. */
  uint64_t others = 0, served = 0, central_copies = 0;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    loop_config_defaults(&c);
    c.sched.master_serves_copies = 1;
    c.seed = seed;
    c.jitter_s = 0.005;
    nw_app_args mm = {.n = N, .block = BLOCK, .seed = seed, .verify = 0, .spread = 0};
    CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
    check_invariants(&res);
    for (int k = 1; k < res.nodes; k++)
      others += res.per_node[k].bytes_served;
    served += res.total.bytes_served;
    central_copies += res.total.bytes_served_copies;
    nw_run_result_free(&res);
  }
  CHECK(others > 0);
  CHECK(others == central_copies);
  printf("master copies: %llu bytes served from copies over the matmul runs; centralised: "
         "%llu of %llu served bytes from nodes other than node 0\n",
         (unsigned long long)copies, (unsigned long long)others, (unsigned long long)served);
}

int main(void) {
  CHECK(check_matmul(0) == 0); /* owned only, the default */
  check_master_copies();
  check_centralised();
  check_refetch();
  return check_report("transfer_counts");
}
