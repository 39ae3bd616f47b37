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

int nw_run_reserved_cores(const nw_run_config *c, int cores, int gpus) {
  if (c->reserved_cores >= 0)
    return c->reserved_cores;
  /* paper 5.7: two cores of twelve for support work when GPUs are used */
  return gpus > 0 ? (cores > 2 ? 2 : cores - 1) : 0;
}

nw_status nw_run_cpu_layout(const nw_run_config *c, int cores, int gpus, int *count,
                            int *cores_each, char *why, size_t why_len) {
  *count = 0;
  *cores_each = 1;
  if (c->devices == NW_DEVICES_GPU)
    return NW_OK;
  int reserved = nw_run_reserved_cores(c, cores, gpus);
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
  if (c->agglomerate_mode == NW_AGGLO_STATIC && c->agglomerate < 1) {
    snprintf(why, why_len,
             "--agglomerate-mode static: needs --agglomerate N (1 to 1024), the fixed number of "
             "subtasks a launch waits for");
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
    nw_cost_sums_add(&sum->cpu[k], &x->cpu[k], 1);
  }
  sum->launches += x->launches;
  sum->dones += x->dones;
  sum->launch_s += x->launch_s;
  sum->done_s += x->done_s;
  sum->spins += x->spins;
  sum->spin_s += x->spin_s;
  sum->spin_cpu_s += x->spin_cpu_s;
  sum->shm_polls += x->shm_polls;
  sum->shm_poll_s += x->shm_poll_s;
  sum->shm_poll_cpu_s += x->shm_poll_cpu_s;
  sum->shm_poll_idle_cpu_s += x->shm_poll_idle_cpu_s;
  sum->shm_bytes += x->shm_bytes;
  sum->poll_gaps += x->poll_gaps;
  sum->poll_gap_s += x->poll_gap_s;
  sum->poll_gap_sq_s2 += x->poll_gap_sq_s2;
  sum->page_probes += x->page_probes;
  sum->page_probe_s += x->page_probe_s;
  sum->cache_bytes = x->cache_bytes > sum->cache_bytes ? x->cache_bytes : sum->cache_bytes;
  for (int cls = 0; cls < NW_COST_CLASSES; cls++)
    for (int k = 0; k < NW_STATS_EVENT_KINDS; k++)
      nw_cost_sums_add(&sum->split[cls][k], &x->split[cls][k], 1);
}

void nw_cost_sums_add(nw_cost_sums *t, const nw_cost_sums *x, int sign) {
  t->events = sign > 0 ? t->events + x->events : t->events - x->events;
  t->bytes += sign * x->bytes;
  t->bytes_sq += sign * x->bytes_sq;
  t->runs += sign * x->runs;
  t->runs_sq += sign * x->runs_sq;
  t->runs_bytes += sign * x->runs_bytes;
  t->cpu_s += sign * x->cpu_s;
  t->cpu_sq += sign * x->cpu_sq;
  t->bytes_cpu_s += sign * x->bytes_cpu_s;
  t->runs_cpu_s += sign * x->runs_cpu_s;
  t->pages += sign * x->pages;
  t->pages_sq += sign * x->pages_sq;
  t->pages_bytes += sign * x->pages_bytes;
  t->pages_runs += sign * x->pages_runs;
  t->pages_cpu_s += sign * x->pages_cpu_s;
  t->views += sign * x->views;
  t->views_sq += sign * x->views_sq;
  t->views_bytes += sign * x->views_bytes;
  t->views_runs += sign * x->views_runs;
  t->views_pages += sign * x->views_pages;
  t->views_cpu_s += sign * x->views_cpu_s;
}

int nw_cost_class(double bytes, double gathered, double cache_bytes) {
  int beyond = cache_bytes > 0 && bytes >= cache_bytes, gather = 2 * gathered > bytes;
  return gather ? (beyond ? NW_COST_GATHER_BEYOND : NW_COST_GATHER) : beyond ? NW_COST_BEYOND : -1;
}

const char *nw_cost_class_suffix(int cls) {
  static const char *const suffix[NW_COST_CLASSES] = {"_gather", "_beyond", "_gather_beyond"};
  return cls >= 0 && cls < NW_COST_CLASSES ? suffix[cls] : "";
}

void nw_rt_costs_sample(nw_rt_costs *c, int k, double bytes, double gathered, double runs,
                        double pages, double views, double cpu_s) {
  nw_cost_sums one = {1,
                      bytes,
                      bytes * bytes,
                      runs,
                      runs * runs,
                      runs * bytes,
                      cpu_s,
                      cpu_s * cpu_s,
                      bytes * cpu_s,
                      runs * cpu_s,
                      pages,
                      pages * pages,
                      pages * bytes,
                      pages * runs,
                      pages * cpu_s,
                      views,
                      views * views,
                      views * bytes,
                      views * runs,
                      views * pages,
                      views * cpu_s};
  nw_cost_sums_add(&c->cpu[k], &one, 1);
  int cls = nw_cost_class(bytes, gathered, c->cache_bytes);
  if (cls >= 0)
    nw_cost_sums_add(&c->split[cls][k], &one, 1);
}

/* How a row of NW_STATS_COUNTERS makes the run's total t from node k's counters s. */
#define NW_COMBINE_sum(field) t->field += s->field;
#define NW_COMBINE_max(field)                                                                      \
  if (s->field > t->field)                                                                         \
    t->field = s->field;
#define NW_COMBINE_node0(field)                                                                    \
  if (k == 0)                                                                                      \
    t->field = s->field;

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
#define NW_COMBINE(type, field, key, combine, place) NW_COMBINE_##combine(field)
    NW_STATS_COUNTERS(NW_COMBINE)
#undef NW_COMBINE
    nw_rt_costs_add(&t->rt, &s->rt);
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

double nw_slowdown_stretch(const nw_run_config *c, int node, double start, double nominal_s) {
  double t = start, left = nominal_s > 0 ? nominal_s : 0;
  for (;;) {
    double f = nw_slowdown_factor(c, node, t), next = nw_slowdown_next_change(c, node, t);
    if (next <= t || next - t >= left * f)
      return t + left * f;
    left -= (next - t) / f;
    t = next;
  }
}
