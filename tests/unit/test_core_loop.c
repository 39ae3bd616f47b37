/* test_core_loop.c: the core end to end on the in-process loop backend.
 *
 * - matmul (paper Fig. 1) on 4 nodes equals the single-process reference bit for bit, also
 *   when messages overtake each other (jitter);
 * - a three-task read-write stencil: each task's reads see the state at its start
 *   (transactional semantics) although other nodes write those rows during the task, and
 *   ownership moves between nodes from task to task (paper section 3, steps 1-4);
 * - the ownership protocol stays within its 2N(N-1) messages per task;
 * - with one node slowed 4x, stealing moves work off it;
 * - with one node slowed 8x, multi-assign runs copies; every copy ends with exactly one
 *   discarded instance, and results stay exact (also with messages reordered);
 * - a subscription outside its space is refused at submission with its subtask named;
 * - locality-aware scheduling (paper 4.3.4), also with messages reordered (affinity vectors
 *   reaching node 0 before its own task start wait in the stash): results stay exact, more of
 *   what subtasks read is local than without it, over several tasks (stencil) and with copies
 *   of stragglers; a task too large for its affinity matrix is refused at submission.
 * - with each node's data sent one transfer at a time, prefetched data goes at low priority
 *   (paper 4.2) or, for comparison, like demand data; results stay exact either way, also with
 *   a slow node (stealing, ProSteal and copies while prefetches are still on the way) and
 *   with messages reordered.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "conv2d/conv2d.h"
#include "locality.h"
#include "loop_backend.h"
#include "matmul/matmul.h"
#include "stencil_app.h"

/* Kernel and cost of the kinds below, which are refused at submission and never run. */
static void never_runs(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t, (void)i, (void)v;
}
static double unit_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

/* ---- a kind whose subscription leaves its space */
static nw_status bad_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_READ_ONLY, i * 64, 64, 64, 1); /* subtask 3 reads past 256 */
}
static const nw_task_kind bad_kind = {
    .name = "bad", .subscribe = bad_sub, .cpu_kernel = never_runs, .flops = unit_flops};

/* Submits one task of `kind` reading a space of `size` bytes; returns what submission said. */
static nw_status submit_one(nw_runtime *rt, const nw_task_kind *kind, uint64_t subtasks,
                            uint64_t size) {
  nw_space *s;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, size, 64, &s);
  if (st == NW_OK)
    st = nw_task_create(rt, kind, subtasks, NULL, 0, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, s, NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  nw_task_destroy(t);
  nw_space_destroy(s);
  return st;
}

static nw_status bad_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  return submit_one(rt, &bad_kind, 4, 200);
}

static const nw_app bad_app = {"bad", (const nw_task_kind *const[]){&bad_kind, NULL}, NULL,
                               bad_main};

/* ---- a kind whose neighbouring subtasks write the same bytes: refused at
 * submission; each subtask also writes a byte twice through its own two quads, which is fine */
static nw_status overlap_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_WRITE_ONLY, i * 60, 64, 64, 1); /* i and i+1 share 4 bytes */
  return st != NW_OK ? st : nw_subscribe(s, 0, NW_WRITE_ONLY, i * 60, 1, 1, 1);
}
static const nw_task_kind overlap_kind = {
    .name = "overlap", .subscribe = overlap_sub, .cpu_kernel = never_runs, .flops = unit_flops};

static nw_status overlap_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  nw_space *s;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, 512, 64, &s);
  if (st == NW_OK)
    st = nw_task_create(rt, &overlap_kind, 4, NULL, 0, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, s, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  nw_task_destroy(t);
  nw_space_destroy(s);
  return st;
}

static const nw_app overlap_app = {"overlap", (const nw_task_kind *const[]){&overlap_kind, NULL},
                                   NULL, overlap_main};

/* ---- a kernel that writes a byte between its two write quads (views hold exactly
 * the subscribed bytes): with checked views the run fails naming it */
static nw_status stray_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_WRITE_ONLY, i * 64, 4, 4, 1);
  return st != NW_OK ? st : nw_subscribe(s, 0, NW_WRITE_ONLY, i * 64 + 8, 4, 4, 1);
}
static void stray_run(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  memset(nw_view_at(&v[0], i * 64), 1, 4);
  memset(nw_view_at(&v[0], i * 64 + 8), 1, 4);
  if (i == 2)
    *(unsigned char *)nw_view_at(&v[0], i * 64 + 5) = 1; /* not subscribed */
}
static const nw_task_kind stray_kind = {
    .name = "stray", .subscribe = stray_sub, .cpu_kernel = stray_run, .flops = unit_flops};

static nw_status stray_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  nw_space *s;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, 512, 64, &s);
  if (st == NW_OK)
    st = nw_task_create(rt, &stray_kind, 4, NULL, 0, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, s, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  nw_task_destroy(t);
  nw_space_destroy(s);
  return st;
}

static const nw_app stray_app = {"stray", (const nw_task_kind *const[]){&stray_kind, NULL}, NULL,
                                 stray_main};

/* ---- a task with one subtask more than locality-aware scheduling keeps affinities for */
static nw_status tiny_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t, (void)i;
  return nw_subscribe(s, 0, NW_READ_ONLY, 0, 4, 4, 1);
}
static const nw_task_kind huge_kind = {
    .name = "huge", .subscribe = tiny_sub, .cpu_kernel = never_runs, .flops = unit_flops};

static nw_status huge_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a, (void)out;
  return submit_one(rt, &huge_kind, NW_LOCALITY_MAX_ENTRIES / (uint64_t)nw_runtime_nodes(rt) + 1,
                    64);
}

static const nw_app huge_app = {"huge", (const nw_task_kind *const[]){&huge_kind, NULL}, NULL,
                                huge_main};

int main(void) {
  loop_config c;
  nw_run_result res;
  nw_app_args mm = {.n = 64, .block = 16, .seed = 7, .verify = 1, .spread = 1};

  loop_config_defaults(&c);
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.subtasks == 16);
  CHECK(res.total.bytes_network > 0);
  nw_run_result_free(&res);

  mm.spread = 0; /* everything starts on node 0 */
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  nw_run_result_free(&res);
  mm.spread = 1;

  c.jitter_s = 0.01; /* much longer than a transfer: messages overtake each other */
  for (uint64_t seed = 1; seed <= 5; seed++) {
    c.seed = seed;
    CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
    CHECK(res.verified == 1);
    nw_run_result_free(&res);
  }

  loop_config_defaults(&c);
  nw_app_args none = {0};
  for (uint64_t seed = 1; seed <= 5; seed++) {
    c.seed = seed;
    c.jitter_s = seed > 1 ? 0.005 : 0;
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    CHECK(res.verified == 1);
    CHECK(res.subtasks == STENCIL_ROWS * (1 + STENCIL_STEPS));
    /* At most 2N(N-1) ownership messages per task (section 3), 4 tasks. */
    CHECK(res.total.ownership_messages <= 4u * 2 * 4 * 3);
    nw_run_result_free(&res);
  }

  /* Node 1 four times slower: the others steal from it, and it executes fewer subtasks. */
  loop_config_defaults(&c);
  c.slow_node_factor = 4;
  nw_app_args big = {.n = 128, .block = 16, .seed = 3, .verify = 1, .spread = 1};
  CHECK(loop_run(&c, &nw_matmul_app, &big, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.total.steals_succeeded > 0);
  uint64_t per_node[4] = {0};
  for (int i = 0; i < res.ndevices; i++)
    per_node[res.devices[i].node] += res.devices[i].s.subtasks;
  CHECK(per_node[1] < per_node[0] && per_node[1] < per_node[2]);
  uint64_t hits = 0;
  for (int i = 0; i < res.ndevices; i++)
    hits += res.devices[i].s.prefetch_hits;
  CHECK(hits > 0); /* pipelining on: some data arrived while the previous subtask ran */
  nw_run_result_free(&res);

  /* Multi-assign (paper 4.3.3) under message reordering: copies happen, results stay exact,
   * and every copy granted ends with exactly one instance discarded. */
  uint64_t copies = 0, jittered_copies = 0, copy_wins = 0;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    loop_config_defaults(&c);
    c.slow_node_factor = 8;
    c.seed = seed;
    c.jitter_s = seed > 3 ? 0.00005 : 0; /* about a kernel's length: races both ways */
    nw_app_args ma = {.n = 96, .block = 16, .seed = seed, .verify = 1, .spread = 1};
    CHECK(loop_run(&c, &nw_matmul_app, &ma, &res) == NW_OK);
    CHECK(res.verified == 1);
    CHECK(res.total.cancelled == res.total.multi_assigned);
    CHECK(res.total.multi_assign_wins <= res.total.multi_assigned);
    CHECK(res.subtasks == 36);
    /* Per-device counters add up to the totals. */
    uint64_t att = 0, ok = 0, wins = 0, canc = 0, subs = 0, latt = 0, lok = 0, given = 0;
    uint64_t fetched = 0;
    for (int i = 0; i < res.ndevices; i++) {
      const nw_device_stats *ds = &res.devices[i].s;
      att += ds->steals_attempted;
      ok += ds->steals_succeeded;
      wins += ds->multi_assign_wins;
      canc += ds->cancelled;
      subs += ds->subtasks;
      latt += ds->steals_local_attempted;
      lok += ds->steals_local_succeeded;
      given += ds->multi_assigned;
      fetched += ds->bytes_fetched;
      CHECK(ds->steals_local_attempted <= ds->steals_attempted);
      CHECK(ds->steals_local_succeeded <= ds->steals_succeeded);
    }
    CHECK(att == res.total.steals_attempted && ok == res.total.steals_succeeded);
    CHECK(latt == res.total.steals_local_attempted && lok == res.total.steals_local_succeeded);
    CHECK(wins == res.total.multi_assign_wins && canc == res.total.cancelled);
    CHECK(given == res.total.multi_assigned);
    CHECK(subs == res.subtasks);
    /* Every byte asked for is sent once, by its owner; the network also carries placement. */
    CHECK(fetched > 0 && fetched <= res.total.bytes_network);
    copies += res.total.multi_assigned;
    jittered_copies += seed > 3 ? res.total.multi_assigned : 0;
    copy_wins += res.total.multi_assign_wins;
    nw_run_result_free(&res);
  }
  CHECK(copies > 0);
  CHECK(jittered_copies > 0);
  CHECK(copy_wins > 0 && copy_wins < copies); /* both the copy and the original have won */

  /* A device that starts a proactive steal round and then waits for its next subtask's data
   * keeps that subtask when the round fails (it once retired holding it, and the task never
   * completed): three nodes of one device, inputs on node 0, so every fetch is slow and
   * messages overtake each other. */
  int stuck = 0;
  for (uint64_t seed = 1; seed <= 30; seed++) { /* 10 of these 30 got stuck */
    loop_config_defaults(&c);
    c.nodes = 3;
    c.devices = 1;
    c.seed = seed;
    c.jitter_s = 0.0005;
    c.bandwidth = 3e7;
    nw_app_args node0 = {.n = 128, .block = 32, .seed = seed, .verify = 1, .spread = 0};
    nw_status st = loop_run(&c, &nw_matmul_app, &node0, &res);
    stuck += st != NW_OK || res.verified != 1;
    nw_run_result_free(&res);
  }
  CHECK(stuck == 0);

  /* Data still on its way when a task that writes its space ends (a cancelled copy's fetch,
   * a prefetch of a subtask stolen away) is older than that task's results: it must be dropped,
   * not written into the node's copy and marked resident, or a later task reads stale rows.
   * The read-write stencil over four tasks with copies of a slow node's subtasks and messages
   * overtaking each other gave wrong results in 2 of these 60 runs before space
   * versions (space.c). */
  int wrong = 0;
  uint64_t dropped = 0;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    loop_config_defaults(&c);
    c.seed = seed;
    c.slow_node_factor = seed % 2 ? 8 : 4;
    c.jitter_s = seed % 3 ? 0.005 : 0.0005;
    c.bandwidth = seed % 4 < 2 ? 1e7 : 1e6;
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    wrong += res.verified != 1;
    dropped += res.total.stale_data_dropped;
    nw_run_result_free(&res);
  }
  CHECK(wrong == 0);
  CHECK(dropped > 0); /* the case did arise */

  /* Off means off. */
  loop_config_defaults(&c);
  c.slow_node_factor = 8;
  c.sched.multi_assign = 0;
  nw_app_args ma = {.n = 96, .block = 16, .seed = 1, .verify = 1, .spread = 1};
  CHECK(loop_run(&c, &nw_matmul_app, &ma, &res) == NW_OK);
  CHECK(res.verified == 1 && res.total.multi_assigned == 0 && res.total.cancelled == 0);
  nw_run_result_free(&res);

  /* Locality-aware scheduling on conv2d, whose subtasks' data sits mostly on one node. */
  loop_config_defaults(&c);
  nw_app_args cv = {.n = 128, .block = 16, .seed = 5, .verify = 1, .spread = 1};
  CHECK(loop_run(&c, &nw_conv2d_app, &cv, &res) == NW_OK);
  CHECK(res.verified == 1);
  uint64_t read_off = res.total.locality_read_bytes, local_off = res.total.locality_local_bytes;
  CHECK(read_off > 0 && local_off < read_off);
  nw_run_result_free(&res);
  c.sched.locality = 1;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    c.seed = seed;
    c.jitter_s = seed > 1 ? 0.005 : 0;
    CHECK(loop_run(&c, &nw_conv2d_app, &cv, &res) == NW_OK);
    CHECK(res.verified == 1);
    CHECK(res.subtasks == 64);
    CHECK(res.total.locality_read_bytes == read_off); /* the same subtasks, once each */
    CHECK(res.total.locality_local_bytes > 2 * local_off);
    nw_run_result_free(&res);
  }
  /* Four tasks writing and reading the same space, ownership moving between them. */
  for (uint64_t seed = 1; seed <= 3; seed++) {
    c.seed = seed;
    c.jitter_s = seed > 1 ? 0.005 : 0;
    CHECK(loop_run(&c, &nw_test_stencil_app, &none, &res) == NW_OK);
    CHECK(res.verified == 1);
    CHECK(res.subtasks == STENCIL_ROWS * (1 + STENCIL_STEPS));
    nw_run_result_free(&res);
  }
  /* A slowed node: steals by affinity and copies of stragglers, results exact. */
  c.slow_node_factor = 8;
  c.jitter_s = 0.00005;
  CHECK(loop_run(&c, &nw_matmul_app, &ma, &res) == NW_OK);
  CHECK(res.verified == 1 && res.total.steals_succeeded > 0);
  CHECK(res.total.cancelled == res.total.multi_assigned);
  nw_run_result_free(&res);
  /* Too many subtasks x nodes for the affinity matrix: refused at submission, saying why. */
  loop_config_defaults(&c);
  c.sched.locality = 1;
  CHECK(loop_run(&c, &huge_app, &none, &res) == NW_ERR_ARG);
  CHECK(strstr(res.error, "locality") != NULL);
  nw_run_result_free(&res);

  /* Prefetch priority (paper 4.2) on a serial data link per node. LOW sends some data at
   * prefetch priority, never all of it (the first subtask of each device is a demand), and
   * some demand transfers go ahead of older prefetches; SAME and pipelining off send none. */
  uint64_t overtakes = 0;
  for (int same = 0; same <= 1; same++)
    for (uint64_t seed = 1; seed <= 8; seed++) {
      loop_config_defaults(&c);
      c.serial_data = 1;
      c.bandwidth = 3e7; /* sending a subtask's data takes longer than running it */
      c.sched.prefetch_priority = same ? NW_PREFETCH_SAME : NW_PREFETCH_LOW;
      c.seed = seed;
      c.slow_node_factor = seed % 2 ? 4 : 1;
      c.jitter_s = seed > 4 ? 0.0005 : 0;
      nw_app_args pf = {.n = 128, .block = 16, .seed = seed, .verify = 1, .spread = 1};
      CHECK(loop_run(&c, &nw_matmul_app, &pf, &res) == NW_OK);
      CHECK(res.verified == 1);
      CHECK(res.subtasks == 64);
      if (same)
        CHECK(res.total.bytes_prefetched == 0 && res.total.demand_overtakes == 0);
      else
        CHECK(res.total.bytes_prefetched > 0 &&
              res.total.bytes_prefetched < res.total.bytes_network);
      overtakes += res.total.demand_overtakes;
      double wait = 0;
      for (int i = 0; i < res.ndevices; i++)
        wait += res.devices[i].s.demand_wait_s;
      CHECK(wait > 0 && wait < res.total.demand_wait_s * 1.000001 &&
            wait > res.total.demand_wait_s * 0.999999);
      nw_run_result_free(&res);
    }
  CHECK(overtakes > 0);

  /* A ProSteal round that ends in failure after its device moved on to a prefetched subtask
   * still waiting for its data: the device must not retire holding that subtask (the core
   * used to get stuck here: steal.c, dry()). */
  for (int same = 0; same <= 1; same++) {
    loop_config_defaults(&c);
    c.serial_data = 1;
    c.bandwidth = 3e7;
    c.slow_node_factor = 4;
    c.jitter_s = 0.0005;
    c.seed = 29;
    c.sched.prefetch_priority = same ? NW_PREFETCH_SAME : NW_PREFETCH_LOW;
    nw_app_args pf = {.n = 128, .block = 16, .seed = 29, .verify = 1, .spread = 1};
    CHECK(loop_run(&c, &nw_matmul_app, &pf, &res) == NW_OK);
    CHECK(res.verified == 1 && res.subtasks == 64);
    nw_run_result_free(&res);
  }

  loop_config_defaults(&c);
  c.serial_data = 1;
  c.sched.pipeline = 0;
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1 && res.total.bytes_prefetched == 0 && res.total.bytes_network > 0);
  nw_run_result_free(&res);

  loop_config_defaults(&c);
#if !defined(__SANITIZE_ADDRESS__) /* there the stray write stops the run with ASan's report */
  CHECK(loop_run(&c, &stray_app, &none, &res) != NW_OK);
  CHECK(strstr(res.error, "subtask 2 of task 1 ('stray') changed byte 133 of space index 0") !=
        NULL);
  nw_run_result_free(&res);
  c.check_views = 0; /* unchecked, the stray byte is simply never committed */
  CHECK(loop_run(&c, &stray_app, &none, &res) == NW_OK);
  nw_run_result_free(&res);
  c.check_views = 1;
#else
  (void)stray_app;
#endif
  CHECK(loop_run(&c, &overlap_app, &none, &res) == NW_ERR_ARG);
  CHECK(strstr(res.error, "subtasks 0 and 1 both write byte 60 of space index 0") != NULL);
  nw_run_result_free(&res);
  CHECK(loop_run(&c, &bad_app, &none, &res) == NW_ERR_RANGE);
  CHECK(strstr(res.error, "subtask 3") != NULL);
  CHECK(strstr(res.error, "past the end") != NULL || strstr(res.error, "outside") != NULL);
  nw_run_result_free(&res);

  return check_report("core_loop");
}
