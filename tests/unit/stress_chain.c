/* stress_chain.c: the chain apps (apps/chain) over many loop-backend runs, every read of every
 * step checked. A grid of layouts (two spaces in turn, one read-write space), cluster shapes
 * (2 nodes of 1 device as in benchmarks/chain-stale.sh, 4 nodes of 2), subtasks per step,
 * kernels at launch or at completion, a slowed node, serial data links, and seeds; in each
 * run a seeded script holds back one data message in three (up to a few subtasks' time) and
 * lengthens one exec in seven, so transfers outlive the task that asked for them and steals
 * and copies happen at varied moments. Every run must read nothing stale and end exact.
 * Before the fix in space.c (nw_space_new_version) some runs of the two-space
 * layout read a cell two steps old; the grid also checks that late data was dropped. */
#include <stdio.h>

#include "chain/chain.h"
#include "check.h"
#include "loop_backend.h"
#include "rng.h"

typedef struct script {
  uint64_t rng;
  double late_s;
} script;

static double message_delay(void *ctx, int src, int dst, nw_channel ch, const void *buf,
                            size_t len) {
  script *s = ctx;
  (void)src, (void)dst, (void)buf, (void)len;
  uint64_t r = nw_rng_next(&s->rng);
  if (ch == NW_CHANNEL_CONTROL || r % 3)
    return 0;
  return s->late_s * (double)((r >> 20) % 1000) / 1000.0;
}

static double exec_delay(void *ctx, int node, const nw_exec *e) {
  script *s = ctx;
  (void)node, (void)e;
  uint64_t r = nw_rng_next(&s->rng);
  return r % 7 ? 0 : s->late_s * (double)((r >> 20) % 1000) / 1000.0;
}

int main(void) {
  const uint64_t blocks[] = {2, 3, 8};
  int runs = 0, wrong = 0, dropped_in = 0;
  uint64_t copies = 0;
  for (int rw = 0; rw <= 1; rw++)
    for (int shape = 0; shape <= 1; shape++)
      for (int b = 0; b < 3; b++)
        for (int bits = 0; bits < 8; bits++) /* kernels at completion, slow node, serial */
          for (uint64_t seed = 1; seed <= 6; seed++) {
            loop_config c;
            loop_config_defaults(&c);
            c.nodes = shape ? 4 : 2;
            c.devices = shape ? 2 : 1;
            c.seed = seed;
            c.kernel_at_done = bits & 1;
            c.slow_node_factor = bits & 2 ? 4 : 1;
            c.serial_data = (bits >> 2) & 1;
            script s = {seed * 7919 + (uint64_t)bits, 2e-4 * (double)(1 + seed % 3)};
            c.message_delay = message_delay;
            c.exec_delay = exec_delay;
            c.script = &s;
            nw_app_args a = {
                .n = 40, .block = blocks[b], .seed = seed, .verify = 1, .spread = seed & 1};
            nw_run_result res;
            nw_status st = loop_run(&c, rw ? &nw_chain_rw_app : &nw_chain_app, &a, &res);
            runs++;
            dropped_in += res.total.stale_data_dropped > 0;
            copies += res.total.multi_assigned;
            if (st != NW_OK || res.verified != 1 || res.stale_reads) {
              wrong++;
              fprintf(stderr,
                      "wrong: %s nodes %d block %llu kernel_at_done %d slow %g serial %d seed "
                      "%llu: status %d, %llu stale reads\n",
                      rw ? "chain-rw" : "chain", c.nodes, (unsigned long long)blocks[b],
                      c.kernel_at_done, c.slow_node_factor, c.serial_data, (unsigned long long)seed,
                      (int)st, (unsigned long long)res.stale_reads);
            }
            nw_run_result_free(&res);
          }
  printf("%d runs, %d wrong, %d dropped stale data, %llu copies\n", runs, wrong, dropped_in,
         (unsigned long long)copies);
  CHECK(runs == 576);
  CHECK(wrong == 0);
  CHECK(dropped_in > 0);
  CHECK(copies > 0);
  return check_report("stress_chain");
}
