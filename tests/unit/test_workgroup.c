/* test_workgroup.c: the work-group size search of paper section 4.3.1, step by step. */
#include "check.h"
#include "workgroup.h"

/* Runs the search against cost(size) until it settles; records the sizes tried. */
static int run(int cores, double (*cost)(int), int *tried, int max) {
  nw_wg_search s;
  nw_wg_init(&s, cores);
  int n = 0;
  while (!s.settled && n < max) {
    tried[n++] = s.next;
    nw_wg_observe(&s, s.next, cost(s.next));
  }
  CHECK(s.settled && s.next == s.best);
  return s.best;
}

/* Perfect scaling: more cores are always faster. */
static double scaling(int size) {
  return 1.0 / size;
}
/* Memory-bound beyond 4 cores: no faster with more. */
static double knee4(int size) {
  return size >= 4 ? 0.25 : 1.0 / size;
}
/* Memory-bound beyond 5 cores. */
static double knee5(int size) {
  return size >= 5 ? 0.2 : 1.0 / size;
}
/* Contention: best at 5 cores, slower on either side. */
static double peak5(int size) {
  return size > 5 ? 0.2 + 0.1 * (size - 5) : 1.0 / size;
}

int main(void) {
  nw_wg_search s;
  /* The paper's first three steps on 12 cores: C, then C/2, then 3C/4 or C/4. */
  nw_wg_init(&s, 12);
  CHECK(s.next == 12 && !s.settled);
  nw_wg_observe(&s, 12, 1.0);
  CHECK(s.next == 6);
  nw_wg_observe(&s, 6, 1.5); /* all cores were faster: try three quarters */
  CHECK(s.next == 9 && s.best == 12 && s.lo == 6);

  nw_wg_init(&s, 12);
  nw_wg_observe(&s, 12, 1.0);
  nw_wg_observe(&s, 6, 0.9); /* half the cores were faster: try a quarter */
  CHECK(s.next == 3 && s.best == 6 && s.lo == 0);

  nw_wg_init(&s, 12);
  nw_wg_observe(&s, 12, 1.0);
  nw_wg_observe(&s, 6, 1.0); /* a tie goes to fewer cores */
  CHECK(s.next == 3 && s.best == 6);

  /* A measurement of another size (a subtask launched before the last answer) is ignored,
   * and so is a meaningless cost. */
  nw_wg_init(&s, 12);
  nw_wg_observe(&s, 12, 1.0);
  nw_wg_observe(&s, 12, 0.1);
  CHECK(s.next == 6 && s.best_s == 1.0);
  nw_wg_observe(&s, 6, -1.0);
  CHECK(s.next == 6);

  /* Whole searches: where they settle, and the sizes on the way. */
  int tried[32];
  CHECK(run(12, scaling, tried, 32) == 12);
  CHECK(tried[0] == 12 && tried[1] == 6 && tried[2] == 9 && tried[3] == 10 && tried[4] == 11);
  CHECK(run(12, knee4, tried, 32) == 4);
  CHECK(tried[0] == 12 && tried[1] == 6 && tried[2] == 3 && tried[3] == 4);
  CHECK(run(12, knee5, tried, 32) == 5);
  CHECK(tried[2] == 3 && tried[3] == 4 && tried[4] == 5);
  /* The search only looks below its best (halving, as the paper's steps do): past a peak it
   * finds the knee below it, 4 here where 5 is best. Documented in workgroup.h. */
  CHECK(run(12, peak5, tried, 32) == 4);
  CHECK(run(16, knee4, tried, 32) == 4);

  /* Small groups: one core never searches; two tries 2 then 1. */
  nw_wg_init(&s, 1);
  CHECK(s.settled && s.next == 1);
  nw_wg_observe(&s, 1, 1.0);
  CHECK(s.next == 1);
  nw_wg_init(&s, 2);
  nw_wg_observe(&s, 2, 1.0);
  CHECK(s.next == 1 && !s.settled);
  nw_wg_observe(&s, 1, 2.0);
  CHECK(s.settled && s.next == 2);

  /* Settled means settled: later costs do not move it. */
  nw_wg_observe(&s, 2, 100.0);
  CHECK(s.next == 2 && s.best == 2);
  return check_report("workgroup");
}
