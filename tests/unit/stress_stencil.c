/* stress_stencil.c: the read-write stencil (stencil_app.h) over a grid of 5760 loop-backend
 * runs: bandwidth x slowed node x message jitter x multi-assign x locality x serial data links
 * x seeds. Every run must equal the sequential result. This grid found the stale-data bug of
 * space versions (space.c): 43 of its runs were wrong before them, all with multi-assign on.
 * It also checks that data for an older version was in fact dropped somewhere in the grid. */
#include <stdio.h>

#include "check.h"
#include "loop_backend.h"
#include "stencil_app.h"

int main(void) {
  const double bandwidth[] = {3e5, 1e6, 3e6, 1e7};
  const double slow[] = {1, 4, 8};
  const double jitter[] = {0, 0.0005, 0.005};
  int runs = 0, wrong = 0, dropped_in = 0;
  for (int b = 0; b < 4; b++)
    for (int s = 0; s < 3; s++)
      for (int j = 0; j < 3; j++)
        for (int bits = 0; bits < 8; bits++) /* multi-assign, locality, serial data links */
          for (uint64_t seed = 1; seed <= 20; seed++) {
            loop_config c;
            loop_config_defaults(&c);
            c.seed = seed;
            c.bandwidth = bandwidth[b];
            c.slow_node_factor = slow[s];
            c.jitter_s = jitter[j];
            c.sched.multi_assign = bits & 1;
            c.sched.locality = (bits >> 1) & 1;
            c.serial_data = (bits >> 2) & 1;
            nw_app_args none = {0};
            nw_run_result res;
            nw_status st = loop_run(&c, &nw_test_stencil_app, &none, &res);
            runs++;
            dropped_in += res.total.stale_data_dropped > 0;
            if (st != NW_OK || res.verified != 1) {
              wrong++;
              fprintf(stderr,
                      "wrong: bandwidth %g slow %g jitter %g multi-assign %d locality %d "
                      "serial %d seed %llu (status %d)\n",
                      bandwidth[b], slow[s], jitter[j], bits & 1, (bits >> 1) & 1, (bits >> 2) & 1,
                      (unsigned long long)seed, (int)st);
            }
            nw_run_result_free(&res);
          }
  printf("%d runs, %d wrong, %d dropped stale data\n", runs, wrong, dropped_in);
  CHECK(runs == 5760);
  CHECK(wrong == 0);
  CHECK(dropped_in > 0);
  return check_report("stress_stencil");
}
