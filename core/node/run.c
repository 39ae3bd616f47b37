/* run.c: a run's default configuration, and its result summed from every node's counters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

#ifndef NW_CHECK_VIEWS_DEFAULT
#define NW_CHECK_VIEWS_DEFAULT 0
#endif

void nw_run_config_defaults(nw_run_config *c) {
  memset(c, 0, sizeof *c);
  strcpy(c->app, "matmul");
  strcpy(c->backend, "sim");
  strcpy(c->platform, "platforms/paper-cluster.xml");
  c->functional = 1;
  c->check_views = NW_CHECK_VIEWS_DEFAULT;
  nw_fault_plan_defaults(&c->faults);
  c->args = (nw_app_args){.n = 1024, .block = 256, .seed = 1, .verify = -1, .spread = 1};
  c->sched = (nw_sched_config){.pipeline = 1,
                               .steal_retry_s = 0,
                               .steal_probes = NW_STEAL_PROBES_DEFAULT,
                               .multi_assign = 1,
                               .prosteal = 1,
                               .locality = 0,
                               .prefetch_priority = NW_PREFETCH_LOW, /* paper 4.2 */
                               .prefetch_depth = 1};
  c->seed = 1;
  c->gpu_streams = 1;
  c->gpu_mode = NW_GPU_LAUNCH;
  c->mtc_bundle = NW_MTC_BUNDLE_DEFAULT;
  c->reserved_cores = -1;
}

nw_status nw_run_cpu_layout(const nw_run_config *c, int cores, int gpus, int *count,
                            int *cores_each, char *why, size_t why_len) {
  *count = 0;
  *cores_each = 1;
  if (c->devices == NW_DEVICES_GPU)
    return NW_OK;
  int reserved = c->reserved_cores;
  if (reserved < 0) /* paper 5.7: two cores of twelve for support work when GPUs are used */
    reserved = gpus > 0 ? (cores > 2 ? 2 : cores - 1) : 0;
  int free_cores = cores - reserved;
  if (c->cpu_devices > 0) { /* the user's count wins over the reserve */
    if (c->cpu_devices > cores) {
      snprintf(why, why_len, "--cpu-devices %d: more devices than the node's %d core%s",
               c->cpu_devices, cores, cores == 1 ? "" : "s");
      return NW_ERR_ARG;
    }
    *count = c->cpu_devices;
    return NW_OK;
  }
  if (free_cores < 1) {
    snprintf(why, why_len, "--reserved-cores %d leaves none of the node's %d core%s for subtasks",
             reserved, cores, cores == 1 ? "" : "s");
    return NW_ERR_ARG;
  }
  if (c->work_groups) {
    *count = 1;
    *cores_each = free_cores;
  } else {
    *count = free_cores;
  }
  return NW_OK;
}

nw_status nw_run_check_gpu_mode(const nw_run_config *c, char *why, size_t why_len) {
  if (c->pack_copies && c->devices == NW_DEVICES_CPU) {
    snprintf(why, why_len, "--pack-copies on: no GPU runs (--devices cpu); it packs GPU copies");
    return NW_ERR_ARG;
  }
  if (c->gpu_mode == NW_GPU_LAUNCH && c->gpu_streams > NW_GPU_STREAMS_MAX) {
    snprintf(why, why_len,
             "--gpu-streams %d: at most %d with one launch per subtask (CUDA runs %d kernels at "
             "once); more lanes need --gpu-mode many-task",
             c->gpu_streams, NW_GPU_STREAMS_MAX, NW_GPU_STREAMS_MAX);
    return NW_ERR_ARG;
  }
  if (c->gpu_mode == NW_GPU_MANY_TASK && c->agglomerate > 0) {
    snprintf(why, why_len,
             "--gpu-mode many-task with --agglomerate %d: a many-task GPU has no launches to "
             "agglomerate; choose one",
             c->agglomerate);
    return NW_ERR_ARG;
  }
  if (c->gpu_mode == NW_GPU_MANY_TASK && c->devices == NW_DEVICES_CPU) {
    snprintf(why, why_len, "--gpu-mode many-task: no GPU runs (--devices cpu); it is a GPU mode");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

nw_devices_mode nw_run_auto_devices(const nw_run_config *c, const nw_app *app, int gpus,
                                    int emulated, int native) {
  if (c->devices != NW_DEVICES_AUTO)
    return c->devices;
  if (gpus <= 0)
    return NW_DEVICES_CPU;
  for (const nw_task_kind *const *k = app->kinds; k && *k; k++)
    if ((emulated && !(*k)->gpu_emulated_kernel) || (native && !(*k)->cuda_kernel) ||
        (!emulated && !native && !(*k)->flops))
      return NW_DEVICES_CPU;
  return NW_DEVICES_CPU_GPU;
}

const char *nw_devices_mode_name(nw_devices_mode m) {
  return m == NW_DEVICES_GPU       ? "gpu"
         : m == NW_DEVICES_CPU_GPU ? "cpu+gpu"
         : m == NW_DEVICES_AUTO    ? "auto"
                                   : "cpu";
}

const char *nw_stats_event_name(int kind) {
  static const char *const name[NW_STATS_EVENT_KINDS] = {"",      "message", "exec_done",
                                                         "timer", "driver",  "copy_done"};
  return kind > 0 && kind < NW_STATS_EVENT_KINDS ? name[kind] : "";
}

void nw_rt_costs_add(nw_rt_costs *sum, const nw_rt_costs *x) {
  for (int k = 0; k < NW_STATS_EVENT_KINDS; k++) {
    sum->events[k] += x->events[k];
    sum->s[k] += x->s[k];
    sum->bytes[k] += x->bytes[k];
    sum->bytes_sq[k] += x->bytes_sq[k];
    sum->bytes_s[k] += x->bytes_s[k];
    sum->cpu_events[k] += x->cpu_events[k];
    sum->cpu_s[k] += x->cpu_s[k];
    sum->bytes_cpu_s[k] += x->bytes_cpu_s[k];
    sum->cpu_sq[k] += x->cpu_sq[k];
    sum->runs[k] += x->runs[k];
    sum->runs_sq[k] += x->runs_sq[k];
    sum->runs_bytes[k] += x->runs_bytes[k];
    sum->runs_cpu_s[k] += x->runs_cpu_s[k];
  }
  sum->launches += x->launches;
  sum->dones += x->dones;
  sum->launch_s += x->launch_s;
  sum->done_s += x->done_s;
  sum->spins += x->spins;
  sum->spin_s += x->spin_s;
  sum->spin_cpu_s += x->spin_cpu_s;
}

nw_status nw_run_result_fill(nw_run_result *res, const nw_stats *node_stats, int nodes,
                             const nw_app_outcome *outcome) {
  res->nodes = nodes;
  res->verified = outcome ? outcome->verified : -1;
  res->stale_reads = outcome ? outcome->stale_reads : 0;
  memset(&res->total, 0, sizeof res->total);
  int rows = 0;
  for (int k = 0; k < nodes; k++)
    rows += node_stats[k].devices;
  res->devices = calloc((size_t)(rows ? rows : 1), sizeof *res->devices);
  res->per_node = calloc((size_t)(nodes > 0 ? nodes : 1), sizeof *res->per_node);
  if (!res->devices || !res->per_node) {
    nw_run_result_free(res);
    return NW_ERR_NOMEM;
  }
  res->transfer_frequency = res->transfer_frequency_received = 0;
  int senders = 0, receivers = 0;
  res->ndevices = rows;
  int row = 0;
  for (int k = 0; k < nodes; k++) {
    const nw_stats *s = &node_stats[k];
    nw_stats *t = &res->total;
    t->subtasks_executed += s->subtasks_executed;
    t->steals_attempted += s->steals_attempted;
    t->steals_succeeded += s->steals_succeeded;
    t->steals_local_attempted += s->steals_local_attempted;
    t->steals_local_succeeded += s->steals_local_succeeded;
    t->bytes_network += s->bytes_network;
    t->bytes_received += s->bytes_received;
    t->bytes_received_unique += s->bytes_received_unique;
    t->bytes_served += s->bytes_served;
    t->bytes_served_unique += s->bytes_served_unique;
    res->per_node[k].bytes_received = s->bytes_received;
    res->per_node[k].bytes_received_unique = s->bytes_received_unique;
    res->per_node[k].bytes_served = s->bytes_served;
    res->per_node[k].bytes_served_unique = s->bytes_served_unique;
    if (s->bytes_served_unique > 0) {
      res->transfer_frequency += (double)s->bytes_served / (double)s->bytes_served_unique;
      senders++;
    }
    if (s->bytes_received_unique > 0) {
      res->transfer_frequency_received +=
          (double)s->bytes_received / (double)s->bytes_received_unique;
      receivers++;
    }
    t->bytes_prefetched += s->bytes_prefetched;
    t->bytes_view_copies += s->bytes_view_copies;
    t->copy_runs += s->copy_runs;
    t->bytes_reduced += s->bytes_reduced;
    t->bytes_reduction_raw += s->bytes_reduction_raw;
    t->bytes_reduction_sent += s->bytes_reduction_sent;
    t->bytes_rle += s->bytes_rle;
    t->bytes_gpu_reduction_raw += s->bytes_gpu_reduction_raw;
    t->bytes_gpu_reduction_sent += s->bytes_gpu_reduction_sent;
    t->reduction_tree_s += s->reduction_tree_s;
    t->demand_overtakes += s->demand_overtakes;
    t->demand_wait_s += s->demand_wait_s;
    t->messages_control += s->messages_control;
    t->messages_data += s->messages_data;
    t->ownership_messages += s->ownership_messages;
    t->fetch_requests += s->fetch_requests;
    t->stale_data_dropped += s->stale_data_dropped;
    t->stale_fetches_dropped += s->stale_fetches_dropped;
    t->recoveries += s->recoveries;
    t->tasks_restarted += s->tasks_restarted;
    t->subtasks_reexecuted += s->subtasks_reexecuted;
    t->time_lost_s += s->time_lost_s;
    t->stale_epoch_dropped += s->stale_epoch_dropped;
    t->multi_assigned += s->multi_assigned;
    t->multi_assign_wins += s->multi_assign_wins;
    t->cancelled += s->cancelled;
    t->prosteal_rounds += s->prosteal_rounds;
    t->perf_samples += s->perf_samples;
    t->gpu_launches += s->gpu_launches;
    t->gpu_launch_subtasks += s->gpu_launch_subtasks;
    t->gpu_copy_transfers += s->gpu_copy_transfers;
    t->priced_by_model += s->priced_by_model;
    t->priced_by_cost_model += s->priced_by_cost_model;
    if (s->gpu_launch_largest > t->gpu_launch_largest)
      t->gpu_launch_largest = s->gpu_launch_largest;
    if (k == 0) { /* node 0's alone (stats.h) */
      t->roofline_p = s->roofline_p;
      t->roofline_intensity = s->roofline_intensity;
      t->roofline_ridge_cpu = s->roofline_ridge_cpu;
      t->roofline_ridge_gpu = s->roofline_ridge_gpu;
      t->roofline_overlap = s->roofline_overlap;
      t->roofline_range = s->roofline_range;
      t->roofline_cpu_subtasks = s->roofline_cpu_subtasks;
    }
    t->events_handled += s->events_handled;
    nw_rt_costs_add(&t->rt, &s->rt);
    t->net_bandwidth = s->net_bandwidth > t->net_bandwidth ? s->net_bandwidth : t->net_bandwidth;
    t->net_latency = s->net_latency > t->net_latency ? s->net_latency : t->net_latency;
    t->pcie_bandwidth =
        s->pcie_bandwidth > t->pcie_bandwidth ? s->pcie_bandwidth : t->pcie_bandwidth;
    t->pcie_latency = s->pcie_latency > t->pcie_latency ? s->pcie_latency : t->pcie_latency;
    t->cache_hits += s->cache_hits;
    t->cache_misses += s->cache_misses;
    t->cache_evictions += s->cache_evictions;
    t->bytes_h2d += s->bytes_h2d;
    t->bytes_d2h += s->bytes_d2h;
    t->locality_read_bytes += s->locality_read_bytes;
    t->locality_local_bytes += s->locality_local_bytes;
    for (int d = 0; d < s->devices && d < NW_STATS_MAX_DEVICES; d++, row++) {
      res->devices[row].node = k;
      res->devices[row].kind = (nw_device_kind)s->device[d].kind;
      res->devices[row].s = s->device[d];
      /* Relative to the first submission, like the makespan; 0 when it ran nothing. */
      double f = s->device[d].finish_s - node_stats[0].task_first_submit_s;
      res->devices[row].s.finish_s = s->device[d].subtasks ? f : 0.0;
    }
  }
  res->ndevices = row;
  res->devices_unlisted = rows - row;
  if (senders > 0)
    res->transfer_frequency /= senders;
  if (receivers > 0)
    res->transfer_frequency_received /= receivers;
  const nw_stats *root = &node_stats[0];
  res->total.task_first_submit_s = root->task_first_submit_s;
  res->total.tasks_concurrent_max = root->tasks_concurrent_max;
  res->total.tasks_run = root->tasks_run;
  res->total.tasks_nested = root->tasks_nested;
  res->total.task_last_complete_s = root->task_last_complete_s;
  res->total.total_flops = root->total_flops;
  res->subtasks = res->total.subtasks_executed;
  res->makespan_s = root->task_last_complete_s - root->task_first_submit_s;
  res->first_submit_s = root->task_first_submit_s;
  res->gflops = res->makespan_s > 0 ? root->total_flops / res->makespan_s / 1e9 : 0.0;
  return NW_OK;
}

void nw_run_result_free(nw_run_result *res) {
  free(res->devices);
  res->devices = NULL;
  free(res->per_node);
  res->per_node = NULL;
  free(res->trace);
  res->trace = NULL;
  res->ntrace = 0;
  free(res->priced);
  res->priced = NULL;
  res->npriced = 0;
}

nw_status nw_run_result_add_trace(nw_run_result *res, const nw_trace *t) {
  res->trace_lost |= t->lost;
  if (t->n == 0)
    return NW_OK;
  nw_trace_rec *all = realloc(res->trace, (res->ntrace + t->n) * sizeof *all);
  if (!all)
    return NW_ERR_NOMEM;
  memcpy(all + res->ntrace, t->rec, t->n * sizeof *all);
  res->trace = all;
  res->ntrace += t->n;
  return NW_OK;
}

nw_status nw_slowdown_parse(nw_run_config *c, const char *text, char *why, size_t why_len) {
  c->nslow = 0;
  const char *p = text;
  while (*p) {
    char *end;
    long node = strtol(p, &end, 10);
    double factor = 0, from = 0;
    int ok = end != p && *end == ':' && node >= 0 && node < NW_MAX_NODES;
    if (ok) {
      p = end + 1;
      factor = strtod(p, &end);
      ok = end != p && factor >= 1 && factor <= 1e6;
    }
    if (ok && *end == '@') {
      p = end + 1;
      from = strtod(p, &end);
      ok = end != p && from >= 0 && isfinite(from);
    }
    ok = ok && (*end == ',' || *end == '\0');
    if (!ok) {
      snprintf(why, why_len,
               "'%.200s' is not NODE:FACTOR[@SECONDS][,...] with NODE below %d, FACTOR from 1 "
               "to 1e6 and SECONDS finite",
               text, NW_MAX_NODES);
      return NW_ERR_ARG;
    }
    if (c->nslow == NW_MAX_SLOWDOWNS) {
      snprintf(why, why_len, "at most %d slowdowns", NW_MAX_SLOWDOWNS);
      return NW_ERR_ARG;
    }
    c->slow[c->nslow++] = (nw_slowdown){(int)node, factor, from};
    p = *end == ',' ? end + 1 : end;
  }
  return NW_OK;
}

nw_status nw_slowdown_check_nodes(const nw_run_config *c, int nodes, char *why, size_t why_len) {
  for (int i = 0; i < c->nslow; i++)
    if (c->slow[i].node >= nodes) {
      snprintf(why, why_len, "--slow: node %d does not exist (this run has %d nodes, 0 to %d)",
               c->slow[i].node, nodes, nodes - 1);
      return NW_ERR_ARG;
    }
  return NW_OK;
}

double nw_slowdown_factor(const nw_run_config *c, int node, double t) {
  double f = 1;
  for (int i = 0; i < c->nslow; i++)
    if (c->slow[i].node == node && t >= c->slow[i].from_s && c->slow[i].factor > f)
      f = c->slow[i].factor;
  return f;
}

double nw_slowdown_next_change(const nw_run_config *c, int node, double t) {
  double next = -1;
  for (int i = 0; i < c->nslow; i++)
    if (c->slow[i].node == node && c->slow[i].from_s > t && (next < 0 || c->slow[i].from_s < next))
      next = c->slow[i].from_s;
  return next;
}
