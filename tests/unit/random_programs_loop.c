/* random_programs_loop.c: the random-program property test (apps/randprog) on the in-process
 * loop backend: seeds 1..RUNS, each under one configuration of a rotation over node count,
 * message jitter (messages overtake each other), multi-assign, a slowed node, serial data
 * links, locality and bandwidth. Every run must equal the serial transactional reference;
 * each wrong one is listed with the command that repeats it. Arguments: [RUNS [FIRST-SEED]]
 * (scripts/random-programs.sh --backend loop), or --one ... (see main). RANDPROG_POLICY names
 * the scheduling policy of every run (sched/policy.h; default unicorn). Also counts the
 * programs in which subtasks of a task write the same elements of a reduced space, and those
 * that ran nested tasks, and fails when a long enough run has none of either: the generator
 * must keep exercising both. With RANDPROG_LOSE=1 every run of two nodes or more also loses
 * one or two nodes other than node 0 at a time drawn from the seed, within the span of the same
 * run made without a loss, and must still equal the reference (core/node/recover.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "policy.h"
#include "randprog/randprog_gen.h"

static int nesting;   /* runs that ran nested tasks */
static int recovered; /* runs that rolled back a task and ran it again */

/* RANDPROG_LOSE: the nodes this run loses and when, from the seed and the span of the same run
 * without a loss (so --one repeats it). */
static void plan_losses(uint64_t seed, loop_config *c, const nw_app_args *args) {
  nw_run_result res;
  loop_config clean = *c;
  if (loop_run(&clean, &nw_randprog_app, args, &res) != NW_OK) {
    nw_run_result_free(&res);
    return;
  }
  double first = res.first_submit_s, span = res.makespan_s;
  nw_run_result_free(&res);
  int losses = c->nodes > 2 && seed % 3 == 0 ? 2 : 1;
  c->faults.nfail = losses;
  c->faults.detect_s = 1e-4;
  for (int i = 0; i < losses; i++) {
    uint64_t h = (seed + (uint64_t)i) * 0x9E3779B97F4A7C15ull;
    int node = 1 + (int)((seed + (uint64_t)i) % (uint64_t)(c->nodes - 1));
    double f = (double)(h >> 40) / (double)(1ull << 24); /* 0 to 1 */
    c->faults.fail[i] = (nw_fault_fail){node, first * (1 - f) * (i == 0) + f * 1.1 * span};
  }
  if (losses == 2 && c->faults.fail[0].node == c->faults.fail[1].node)
    c->faults.nfail = 1;
}

/* One run; prints the command that repeats it when it is wrong. */
static int one(uint64_t seed, const loop_config *c, int spread) {
  nw_app_args args = {.n = 1024, .seed = seed, .verify = 1, .spread = spread};
  nw_run_result res;
  loop_config lossy = *c;
  if (getenv("RANDPROG_LOSE") && c->nodes > 1)
    plan_losses(seed, &lossy, &args);
  nw_status st = loop_run(&lossy, &nw_randprog_app, &args, &res);
  recovered += res.total.tasks_restarted > 0;
  int wrong = st != NW_OK || res.verified != 1;
  nesting += res.total.tasks_nested > 0;
  if (wrong)
    fprintf(stderr,
            "wrong (%s): RANDPROG_POLICY=%s random_programs_loop --one %llu %d %d %g %d %g %d %d "
            "%g %d %llu\n",
            st != NW_OK ? res.error : "differs from the reference",
            c->sched.policy[0] ? c->sched.policy : "unicorn", (unsigned long long)seed, c->nodes,
            c->devices, c->jitter_s, c->sched.multi_assign, c->slow_node_factor, c->serial_data,
            c->sched.locality, c->bandwidth, spread, (unsigned long long)c->seed);
  nw_run_result_free(&res);
  return wrong;
}

/* --master-serves copies on every other pair of seeds (from the seed alone, so that --one
 * repeats it without an argument of its own). */
static int master_serves_copies(uint64_t seed) {
  return (int)(seed / 13 % 2);
}

/* The policy RANDPROG_POLICY names, into every run's configuration; 0 when it names none. */
static int policy_from_env(nw_sched_config *sched) {
  const char *p = getenv("RANDPROG_POLICY");
  if (!p || !*p)
    return 1;
  if (!nw_policy_find(p)) {
    fprintf(stderr, "RANDPROG_POLICY: unknown policy '%.40s'\n", p);
    return 0;
  }
  snprintf(sched->policy, sizeof sched->policy, "%s", p);
  return 1;
}

int main(int argc, char **argv) {
  loop_config c;
  loop_config_defaults(&c);
  if (!policy_from_env(&c.sched))
    return 2;
  if (argc == 13 && !strcmp(argv[1], "--one")) {
    /* --one SEED NODES DEVICES JITTER MULTI-ASSIGN SLOW SERIAL LOCALITY BANDWIDTH SPREAD
     * LOOP-SEED: a run listed as wrong, again (LOOP-SEED drives the backend's jitter). */
    c.nodes = atoi(argv[3]);
    c.devices = atoi(argv[4]);
    c.jitter_s = atof(argv[5]);
    c.sched.multi_assign = atoi(argv[6]);
    c.slow_node_factor = atof(argv[7]);
    c.serial_data = atoi(argv[8]);
    c.sched.locality = atoi(argv[9]);
    c.bandwidth = atof(argv[10]);
    c.seed = strtoull(argv[12], NULL, 10);
    c.sched.master_serves_copies = master_serves_copies(strtoull(argv[2], NULL, 10));
    int wrong = one(strtoull(argv[2], NULL, 10), &c, atoi(argv[11]));
    printf("%s\n", wrong ? "wrong" : "right");
    return wrong;
  }
  int runs = argc > 1 ? atoi(argv[1]) : 200, wrong = 0, reducing = 0;
  uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  const double jitter[] = {0, 0.0005, 0.005};
  const double bandwidth[] = {1e9, 1e6, 3e5};
  for (int i = 0; i < runs; i++) {
    uint64_t seed = first + (uint64_t)i;
    loop_config_defaults(&c);
    policy_from_env(&c.sched);
    c.seed = seed;
    c.nodes = 1 + (int)(seed % 4);
    c.devices = 1 + (int)(seed / 4 % 2);
    c.jitter_s = jitter[seed % 3];
    c.sched.multi_assign = (seed / 2) % 2;
    c.slow_node_factor = c.nodes > 1 && seed % 5 < 2 ? 4 : 1;
    c.serial_data = (seed / 3) % 2;
    c.sched.locality = (seed / 7) % 2;
    c.bandwidth = bandwidth[(seed / 5) % 3];
    c.sched.master_serves_copies = master_serves_copies(seed);
    wrong += one(seed, &c, (seed % 11) != 0);
    rp_program p; /* the program one() ran: the app draws it from the same arguments */
    if (rp_generate(seed, 1024, 0, (seed % 11) != 0, &p) == NW_OK) {
      reducing += p.noverlapping > 0;
      rp_program_free(&p);
    }
  }
  printf("random programs on the loop backend (policy %s): %d runs, %d wrong, %d with "
         "overlapping reduced writes, %d with nested tasks, %d that rolled back tasks after a "
         "lost node\n",
         c.sched.policy[0] ? c.sched.policy : "unicorn", runs, wrong, reducing, nesting, recovered);
  CHECK(wrong == 0);
  CHECK(runs < 50 || reducing > 0);
  CHECK(runs < 50 || rp_skipped("nested") || nesting > 0);
  CHECK(runs < 50 || !getenv("RANDPROG_LOSE") || recovered > 0);
  return check_report("random_programs_loop");
}
