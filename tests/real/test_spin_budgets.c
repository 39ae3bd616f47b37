/* test_spin_budgets.c: how long each waiting thread spins before it sleeps
 * (backends/real/real_spin.h): the event loop of a rank with peers REAL_SPIN_NET_S, every other
 * wait REAL_SPIN_S; NARWHAL_SPIN_US sets every budget, NARWHAL_LOOP_SPIN_US the loop's alone
 * (over NARWHAL_SPIN_US), and a value that is not a number of microseconds from 0 to 1e6 is
 * ignored. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdlib.h>

#include "../unit/check.h"
#include "real_spin.h"

/* Configures with `peers` and the two variables (NULL: unset); returns 1 where the loop's and a
 * worker's budgets are then `loop` and `worker` seconds. */
static int budgets(int peers, const char *all, const char *loop_only, double loop, double worker) {
  if (all)
    setenv("NARWHAL_SPIN_US", all, 1);
  else
    unsetenv("NARWHAL_SPIN_US");
  if (loop_only)
    setenv("NARWHAL_LOOP_SPIN_US", loop_only, 1);
  else
    unsetenv("NARWHAL_LOOP_SPIN_US");
  real_spin_configure(peers);
  return fabs(real_spin_budget(REAL_WAIT_LOOP) - loop) < 1e-12 &&
         fabs(real_spin_budget(REAL_WAIT_WORKER) - worker) < 1e-12;
}

int main(void) {
  CHECK(budgets(1, NULL, NULL, REAL_SPIN_NET_S, REAL_SPIN_S));
  CHECK(budgets(0, NULL, NULL, REAL_SPIN_S, REAL_SPIN_S));
  CHECK(budgets(1, "0", NULL, 0, 0));
  CHECK(budgets(1, "50", NULL, 50e-6, 50e-6));
  CHECK(budgets(1, NULL, "20000", 20e-3, REAL_SPIN_S));
  CHECK(budgets(0, NULL, "300", 300e-6, REAL_SPIN_S));
  CHECK(budgets(1, "0", "5000", 5e-3, 0)); /* the loop's own over every budget */
  CHECK(budgets(1, NULL, "2.5", 2.5e-6, REAL_SPIN_S));
  CHECK(budgets(1, NULL, "2000000", REAL_SPIN_NET_S, REAL_SPIN_S)); /* ignored: beyond 1e6 */
  CHECK(budgets(1, NULL, "-1", REAL_SPIN_NET_S, REAL_SPIN_S));
  CHECK(budgets(1, "40", "x", 40e-6, 40e-6));
  return check_report("spin_budgets");
}
