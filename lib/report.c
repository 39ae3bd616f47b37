/* report.c: see report.h. */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number, or null where it is not one (an infinite ridge point) or `absent`. */
static void add_number_or_null(cJSON *j, const char *key, double x, int absent) {
  if (absent || !isfinite(x))
    cJSON_AddNullToObject(j, key);
  else
    cJSON_AddNumberToObject(j, key, x);
}

/* The places of stats_list.h's rows in the --json object. */
enum counter_place {
  PLACE_none,
  PLACE_run,
  PLACE_data,
  PLACE_roofline,
  PLACE_gpu,
  PLACE_locality,
  PLACE_cache,
  PLACE_faults
};

/* The counters of one place, in the list's order; all null where `absent`. */
static void add_counters(cJSON *j, const nw_stats *t, enum counter_place where, int absent) {
#define ADD_COUNTER(type, field, key, combine, place)                                              \
  if (PLACE_##place == where)                                                                      \
    add_number_or_null(j, key, (double)t->field, absent);
  NW_STATS_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
}

static const char *kind_name(nw_device_kind k) {
  return k == NW_DEVICE_GPU ? "gpu" : "cpu";
}

void report_text(const tool_options *o, const nw_run_result *r) {
  const nw_run_config *c = &o->run;
  printf("%s on %s, %d nodes, %s data\n", c->app, c->backend, r->nodes,
         c->functional ? "functional" : "phantom");
  printf("  makespan     %.6f s\n", r->makespan_s);
  printf("  throughput   %.2f GFlop/s\n", r->gflops);
  printf("  subtasks     %llu\n", (unsigned long long)r->subtasks);
  printf("  steals       %llu of %llu succeeded (%llu of %llu within a node)\n",
         (unsigned long long)r->total.steals_succeeded,
         (unsigned long long)r->total.steals_attempted,
         (unsigned long long)r->total.steals_local_succeeded,
         (unsigned long long)r->total.steals_local_attempted);
  printf("  network      %.3f GB in %llu data and %llu control messages\n",
         (double)r->total.bytes_network / 1e9, (unsigned long long)r->total.messages_data,
         (unsigned long long)r->total.messages_control);
  printf("  fetched data %.3f GB sent, %.3f GB of it for the first time by its sender (transfer "
         "frequency %.2f per node); %.3f GB received for the first time by its receiver\n",
         (double)r->total.bytes_served / 1e9, (double)r->total.bytes_served_unique / 1e9,
         r->transfer_frequency, (double)r->total.bytes_received_unique / 1e9);
  printf("  prefetch     %.3f GB sent at prefetch priority, %llu demand transfers went first; "
         "devices waited %.6f s for data\n",
         (double)r->total.bytes_prefetched / 1e9, (unsigned long long)r->total.demand_overtakes,
         r->total.demand_wait_s);
  printf("  multi-assign %llu copies, %llu won by the copy, %llu results discarded\n",
         (unsigned long long)r->total.multi_assigned,
         (unsigned long long)r->total.multi_assign_wins, (unsigned long long)r->total.cancelled);
  if (nw_fault_plan_active(&c->faults))
    printf("  faults       %llu messages sent again, %llu held back, %d nodes lost; %llu tasks "
           "rolled back and run again (%llu subtasks done twice, %.6f s lost)\n",
           (unsigned long long)r->faults.retransmissions, (unsigned long long)r->faults.delayed,
           r->faults.nodes_lost, (unsigned long long)r->total.tasks_restarted,
           (unsigned long long)r->total.subtasks_reexecuted, r->total.time_lost_s);
  uint64_t rb = r->total.locality_read_bytes, lb = r->total.locality_local_bytes;
  printf("  locality     %s: %.3f of %.3f GB read were local at task start (%.1f%%)\n",
         c->sched.locality ? "on" : "off", (double)lb / 1e9, (double)rb / 1e9,
         rb ? 100.0 * (double)lb / (double)rb : 0.0);
  if (r->total.bytes_h2d || r->total.cache_misses)
    printf("  gpu cache    %s: %llu hits, %llu misses, %llu evictions; %.3f GB in, %.3f GB out\n",
           nw_cache_policy_name(c->sched.gpu_cache), (unsigned long long)r->total.cache_hits,
           (unsigned long long)r->total.cache_misses, (unsigned long long)r->total.cache_evictions,
           (double)r->total.bytes_h2d / 1e9, (double)r->total.bytes_d2h / 1e9);
  printf("  verified     %s\n", r->verified < 0 ? "not checked" : r->verified ? "yes" : "NO");
  if (r->stale_reads)
    printf("  stale reads  %llu (the app's checks of every read)\n",
           (unsigned long long)r->stale_reads);
  printf("  %-5s %-4s %9s %12s %12s %6s\n", "node", "kind", "subtasks", "busy_s", "finish_s",
         "cores");
  for (int i = 0; i < r->ndevices; i++) {
    const nw_device_stats *s = &r->devices[i].s;
    char cores[24] = "";
    if (s->cores > 1) /* a work-group: the size its last subtask ran with, of its cores */
      snprintf(cores, sizeof cores, "%d/%d", s->workgroup_size, s->cores);
    else if (r->devices[i].kind == NW_DEVICE_CPU)
      snprintf(cores, sizeof cores, "1");
    printf("  %-5d %-4s %9llu %12.4f %12.4f %6s\n", r->devices[i].node,
           kind_name(r->devices[i].kind), (unsigned long long)s->subtasks, s->busy_s, s->finish_s,
           cores);
  }
}

/* The runtime's own costs the real backend measured (nw_rt_costs), by kind of event:
 * count, wall seconds handling them, bytes moved; the CPU subtasks' two hand-offs; and, in a run
 * that keeps a model, the event loop's spins begun beside a running kernel (count, wall and
 * the loop's CPU seconds). In simulation, what the platform's runtime costs charged, in the
 * same terms (sim_world.h); absent when nothing was measured or charged. */
static void add_runtime_costs(cJSON *j, const nw_rt_costs *t) {
  uint64_t any = t->launches + t->dones;
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    any += t->events[k];
  if (!any)
    return;
  cJSON *rc = cJSON_AddObjectToObject(j, "runtime_costs");
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++) {
    cJSON *e = cJSON_AddObjectToObject(rc, nw_stats_event_name(k));
    cJSON_AddNumberToObject(e, "events", (double)t->events[k]);
    cJSON_AddNumberToObject(e, "seconds", t->s[k]);
    cJSON_AddNumberToObject(e, "bytes", t->bytes[k]);
    if (t->cpu[k].events)
      cJSON_AddNumberToObject(e, "cpu_seconds", t->cpu[k].cpu_s);
  }
  cJSON *l = cJSON_AddObjectToObject(rc, "launch");
  cJSON_AddNumberToObject(l, "count", (double)t->launches);
  cJSON_AddNumberToObject(l, "seconds", t->launch_s);
  cJSON *d = cJSON_AddObjectToObject(rc, "done");
  cJSON_AddNumberToObject(d, "count", (double)t->dones);
  cJSON_AddNumberToObject(d, "seconds", t->done_s);
  if (t->spins) {
    cJSON *sp = cJSON_AddObjectToObject(rc, "spin");
    cJSON_AddNumberToObject(sp, "count", (double)t->spins);
    cJSON_AddNumberToObject(sp, "seconds", t->spin_s);
    cJSON_AddNumberToObject(sp, "cpu_seconds", t->spin_cpu_s);
  }
  if (t->shm_polls) {
    cJSON *sp = cJSON_AddObjectToObject(rc, "shm_poll");
    cJSON_AddNumberToObject(sp, "count", (double)t->shm_polls);
    cJSON_AddNumberToObject(sp, "seconds", t->shm_poll_s);
    cJSON_AddNumberToObject(sp, "cpu_seconds", t->shm_poll_cpu_s);
    cJSON_AddNumberToObject(sp, "idle_cpu_seconds", t->shm_poll_idle_cpu_s);
    cJSON_AddNumberToObject(sp, "bytes", t->shm_bytes);
  }
}

void report_json(const tool_options *o, const nw_run_result *r) {
  cJSON *j = report_json_object(o, r);
  char *text = cJSON_Print(j);
  printf("%s\n", text);
  free(text);
  cJSON_Delete(j);
}

/* "pricing": per task kind, the subtasks each source of the measured model timed (the
 * simulator with --perfmodel); absent otherwise. */
static void add_pricing(cJSON *j, const nw_run_result *r) {
  if (r->npriced <= 0)
    return;
  cJSON *p = cJSON_AddObjectToObject(j, "pricing");
  for (int k = 0; p && k < r->npriced; k++) {
    cJSON *row = cJSON_AddObjectToObject(p, r->priced[k].kind);
    for (int s = 0; row && s < NW_PRICE_SOURCES; s++)
      cJSON_AddNumberToObject(row, nw_price_source_name((nw_price_source)s),
                              (double)r->priced[k].by[s]);
  }
}

void *report_json_object(const tool_options *o, const nw_run_result *r) {
  const nw_run_config *c = &o->run;
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "app", c->app);
  cJSON_AddStringToObject(j, "backend", c->backend);
  cJSON_AddNumberToObject(j, "nodes", r->nodes);
  cJSON_AddStringToObject(j, "data", c->functional ? "functional" : "phantom");
  tool_json_add_u64(j, "seed", c->seed);
  tool_json_add_u64(j, "n", c->args.n);
  tool_json_add_u64(j, "block", c->args.block);
  cJSON_AddStringToObject(j, "placement",
                          o->placement[0]  ? o->placement
                          : c->args.spread ? "spread"
                                           : "node0");
  cJSON_AddNumberToObject(j, "makespan_s", r->makespan_s);
  cJSON_AddNumberToObject(j, "first_submit_s", r->first_submit_s);
  cJSON_AddNumberToObject(j, "gflops", r->gflops);
  add_counters(j, &r->total, PLACE_run, 0);
  cJSON_AddNumberToObject(j, "transfer_frequency", r->transfer_frequency);
  cJSON_AddNumberToObject(j, "transfer_frequency_received", r->transfer_frequency_received);
  add_counters(j, &r->total, PLACE_data, 0);
  cJSON_AddStringToObject(j, "sched", c->sched.policy[0] ? c->sched.policy : "unicorn");
  /* The roofline policy's split of its last task (sched/roofline.c); null under other policies. */
  add_counters(j, &r->total, PLACE_roofline, strcmp(c->sched.policy, "roofline") != 0);
  add_counters(j, &r->total, PLACE_gpu, 0);
  add_pricing(j, r);
  cJSON_AddNumberToObject(j, "devices_unlisted", r->devices_unlisted);
  add_number_or_null(j, "agglomeration_mean",
                     r->total.gpu_launches
                         ? (double)r->total.gpu_launch_subtasks / (double)r->total.gpu_launches
                         : 0.0,
                     r->total.gpu_launches == 0);
  cJSON_AddStringToObject(j, "locality", c->sched.locality ? "on" : "off");
  cJSON_AddStringToObject(j, "master_serves", c->sched.master_serves_copies ? "copies" : "owned");
  add_counters(j, &r->total, PLACE_locality, 0);
  /* The devices the run used: what --devices auto became. */
  cJSON_AddStringToObject(j, "device_mix", nw_devices_mode_name(r->device_mix));
  cJSON_AddStringToObject(j, "gpu_cache", nw_cache_policy_name(c->sched.gpu_cache));
  add_counters(j, &r->total, PLACE_cache, 0);
  if (r->verified < 0)
    cJSON_AddNullToObject(j, "verified");
  else
    cJSON_AddBoolToObject(j, "verified", r->verified);
  cJSON_AddNumberToObject(j, "stale_reads", (double)r->stale_reads);
  if (nw_fault_plan_active(&c->faults)) { /* only with a plan: other runs print as before */
    cJSON *f = cJSON_AddObjectToObject(j, "faults");
    cJSON_AddNumberToObject(f, "retransmissions", (double)r->faults.retransmissions);
    cJSON_AddNumberToObject(f, "delayed", (double)r->faults.delayed);
    cJSON_AddNumberToObject(f, "nodes_lost", r->faults.nodes_lost);
    add_counters(f, &r->total, PLACE_faults, 0);
  }
  add_runtime_costs(j, &r->total.rt);
  /* Counters kept per node rather than per device. */
  cJSON *per_node = cJSON_AddArrayToObject(j, "per_node");
  for (int k = 0; r->per_node && k < r->nodes; k++) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "node", k);
    cJSON_AddNumberToObject(p, "bytes_received", (double)r->per_node[k].bytes_received);
    cJSON_AddNumberToObject(p, "bytes_received_unique",
                            (double)r->per_node[k].bytes_received_unique);
    cJSON_AddNumberToObject(p, "bytes_served", (double)r->per_node[k].bytes_served);
    cJSON_AddNumberToObject(p, "bytes_served_unique", (double)r->per_node[k].bytes_served_unique);
    cJSON_AddItemToArray(per_node, p);
  }
  cJSON *devs = cJSON_AddArrayToObject(j, "devices");
  for (int i = 0; i < r->ndevices; i++) {
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "node", r->devices[i].node);
    cJSON_AddStringToObject(d, "kind", kind_name(r->devices[i].kind));
    const nw_device_stats *ds = &r->devices[i].s;
    cJSON_AddNumberToObject(d, "subtasks", (double)ds->subtasks);
    cJSON_AddNumberToObject(d, "busy_s", ds->busy_s);
    cJSON_AddNumberToObject(d, "finish_s", ds->finish_s);
    cJSON_AddNumberToObject(d, "steals_attempted", (double)ds->steals_attempted);
    cJSON_AddNumberToObject(d, "steals_succeeded", (double)ds->steals_succeeded);
    cJSON_AddNumberToObject(d, "steals_local_attempted", (double)ds->steals_local_attempted);
    cJSON_AddNumberToObject(d, "steals_local_succeeded", (double)ds->steals_local_succeeded);
    cJSON_AddNumberToObject(d, "multi_assigned", (double)ds->multi_assigned);
    cJSON_AddNumberToObject(d, "multi_assign_wins", (double)ds->multi_assign_wins);
    cJSON_AddNumberToObject(d, "cancelled", (double)ds->cancelled);
    cJSON_AddNumberToObject(d, "prefetch_hits", (double)ds->prefetch_hits);
    cJSON_AddNumberToObject(d, "bytes_fetched", (double)ds->bytes_fetched);
    cJSON_AddNumberToObject(d, "fetch_wait_s", ds->fetch_wait_s);
    cJSON_AddNumberToObject(d, "demand_wait_s", ds->demand_wait_s);
    cJSON_AddNumberToObject(d, "bytes_h2d", (double)ds->bytes_h2d);
    cJSON_AddNumberToObject(d, "bytes_d2h", (double)ds->bytes_d2h);
    if (r->devices[i].kind == NW_DEVICE_CPU) {
      cJSON_AddNumberToObject(d, "cores", ds->cores);
      cJSON_AddNumberToObject(d, "workgroup_size", ds->workgroup_size);
    }
    cJSON_AddItemToArray(devs, d);
  }
  return j;
}
