/* calibrate_real.c: `narwhal calibrate` (README, "Calibration"), in narwhal-real: measures the
 * machine the ranks run on and writes a SimGrid platform of it plus a performance model, so
 * that the simulator predicts this machine.
 *
 *   mpirun -np R narwhal calibrate --platform-out P.xml --perfmodel M.json
 *       --workload APP:N:BLOCK [--workload ...] [--runs K] [--keep best|all|best-kernels]
 *       [--settle MIB]
 *       [run options: --devices, ...]
 *
 * 1. Kernels: for each workload, one warm-up run (page faults, library start-up; not
 *    recorded), then K runs with --calibrate on: every subtask's duration goes into a model
 *    by kind, device arch and footprint (core/sched/perfmodel.h), as StarPU calibrates. The
 *    model keeps the run with the smallest makespan (--keep best, the default: on a shared
 *    machine the others were disturbed by what else ran) or all of them (--keep all), or the
 *    fastest run's kernels and every run's runtime costs (--keep best-kernels). The
 *    runs use other seeds than a default run, so a validation run is never one of them.
 *    --settle MIB: before each run, every rank writes into and unmaps MIB MiB, or a quarter
 *    more than the workload's warm-up first-touched on that rank where that is more (at most
 *    half of the available memory, shared by the host's ranks), so that the run's first
 *    touches find recently freed pages, as benchmarks/settle.sh leaves them before each real
 *    run it times. Where freed memory goes back to a VM's host, a page's first touch
 *    costs 1 to 8 us depending on what ran before (benchmarks/touch_pages.c), and a message's
 *    handling, which first-touches the pages it lands on, from 0.9 to 2.5 ns a byte.
 * 2. The runtime's own costs, from the same runs (nw_rt_costs): per kind of event, the mean
 *    time handling one took, less what its commit copies and message bytes cost at memory
 *    bandwidth (charged separately, by size); the two hand-offs of a CPU subtask.
 * 3. The machine (backends/real/real_calibrate.h): cores, one core's SGEMM rate (the speed of
 *    kernels the model does not know), memcpy bandwidth, every pair of ranks' latency and
 *    bandwidth, the host<->GPU link.
 * The platform gets one node per rank, nodes alike: the pairs' median latency and bandwidth
 * (each pair is listed in the file's comment), the fewest cores any rank has. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_choice.h"
#include "cost_fit.h"
#include "perfmodel.h"
#include "perfmodel_file.h"
#include "platform_writer.h"
#include "real_backend.h"
#include "real_calibrate.h"
#include "settle_memory.h"
#include "text_file.h"

#define MAX_WORKLOADS 32
#define MAX_FORWARDED 128

typedef struct workload {
  char app[64];
  uint64_t n, block;
} workload;

/* --keep: which recorded runs' measurements the model and the platform take. best (default):
 * the run with the smallest makespan, the least disturbed by the machine's noise, as a best-of-N
 * measurement of hardware is; all: every run's; best-kernels: the fastest run's kernels, every
 * run's runtime costs (a run is fastest partly because its runtime costs drew low: a two-rank
 * matmul's polling price 2.55e-10 s a byte from the fastest runs, 4.66e-10 from all, while a
 * best-of-N real time still wants the quiet machine's kernels). */
typedef enum keep_choice { KEEP_BEST, KEEP_ALL, KEEP_BEST_KERNELS, KEEP_CHOICES } keep_choice;
static const struct {
  const char *name, *said; /* the option's value; the platform comment's words */
} keep_choices[KEEP_CHOICES] = {
    [KEEP_BEST] = {"best", "Kernels and runtime costs from the fastest"},
    [KEEP_ALL] = {"all", "Kernels and runtime costs from all"},
    [KEEP_BEST_KERNELS] = {"best-kernels", "Kernels from the fastest, runtime costs from all"},
};

typedef struct calib_args {
  char platform_out[1024];
  int runs;
  keep_choice keep;    /* --keep */
  uint64_t settle_mib; /* --settle: MiB each rank touches and unmaps before each run; 0: none */
  int nworkloads;
  workload w[MAX_WORKLOADS];
  uint64_t settled_mib[MAX_WORKLOADS]; /* what rank 0 settled before each's runs, at most */
  int fargc;                           /* options for `run`, forwarded */
  char *fargv[MAX_FORWARDED];
} calib_args;

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (!isdigit((unsigned char)s[0])) /* " -1" would be 2^64 - 1 */
    return 1;
  unsigned long long v = strtoull(s, &end, 10);
  *out = v;
  return *end != '\0' || v == 0;
}

static int parse_workload(const char *text, workload *w, char *why, size_t len) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  char *a = strchr(buf, ':'), *b = a ? strchr(a + 1, ':') : NULL;
  if (!a || !b || strlen(text) >= sizeof buf || (size_t)(a - buf) >= sizeof w->app) {
    snprintf(why, len, "--workload '%.200s': expected APP:N:BLOCK, e.g. matmul:2048:512", text);
    return 1;
  }
  *a = *b = '\0';
  memcpy(w->app, buf, (size_t)(a - buf) + 1); /* fits: checked above */
  if (parse_u64(a + 1, &w->n) || parse_u64(b + 1, &w->block)) {
    snprintf(why, len, "--workload '%.200s': N and BLOCK must be positive whole numbers", text);
    return 1;
  }
  return 0;
}

static const char calibrate_help[] =
    "usage: mpirun -np R narwhal calibrate --platform-out FILE --perfmodel FILE\n"
    "           --workload APP:N:BLOCK [--workload ...] [--runs K]\n"
    "           [--keep best|all|best-kernels]\n"
    "           [--settle MIB] [narwhal run's options]\n"
    "Measures this machine (one node per rank: cores, SGEMM rate, memcpy, the network between\n"
    "ranks, GPUs) and runs each workload on the real backend, then writes a SimGrid platform\n"
    "and a performance model of it (docs/guide/calibration.md).\n"
    "  --platform-out FILE     the platform file written\n"
    "  --perfmodel FILE        the performance model written\n"
    "  --workload APP:N:BLOCK  a training run (repeatable)\n"
    "  --runs K                runs of each workload, 1 to 100 (default 3)\n"
    "  --keep best|all|best-kernels\n"
    "                          the fastest run's kernels and runtime costs (best, the\n"
    "                          default), every run's (all), or the fastest run's kernels\n"
    "                          and every run's runtime costs (best-kernels)\n"
    "  --settle MIB            memory touched and freed before each run (at least MIB MiB,\n"
    "                          more where the workload's warm-up first-touched more)\n";

/* 0: parsed; 1: a mistake (why says it); -1: --help. */
static int parse_args(int argc, char **argv, calib_args *c, char *why, size_t len) {
  memset(c, 0, sizeof *c);
  c->runs = 3;
  static char backend[] = "--backend", real[] = "real";
  c->fargv[c->fargc++] = backend;
  c->fargv[c->fargc++] = real;
  for (int i = 0; i < argc; i++) {
    const char *o = argv[i];
    if (!strcmp(o, "--help") || !strcmp(o, "-h"))
      return -1;
    int own = !strcmp(o, "--platform-out") || !strcmp(o, "--workload") || !strcmp(o, "--runs") ||
              !strcmp(o, "--keep") || !strcmp(o, "--settle");
    if (own && i + 1 >= argc) {
      snprintf(why, len, "%s needs a value", o);
      return 1;
    }
    if (!strcmp(o, "--platform-out")) {
      if (strlen(argv[i + 1]) >= sizeof c->platform_out) {
        snprintf(why, len, "--platform-out: path longer than %zu bytes",
                 sizeof c->platform_out - 1);
        return 1;
      }
      snprintf(c->platform_out, sizeof c->platform_out, "%s", argv[++i]);
    } else if (!strcmp(o, "--workload")) {
      if (c->nworkloads == MAX_WORKLOADS) {
        snprintf(why, len, "--workload: at most %d", MAX_WORKLOADS);
        return 1;
      }
      if (parse_workload(argv[++i], &c->w[c->nworkloads++], why, len))
        return 1;
    } else if (!strcmp(o, "--keep")) {
      i++;
      c->keep = KEEP_CHOICES;
      for (int k = 0; k < KEEP_CHOICES; k++)
        if (!strcmp(argv[i], keep_choices[k].name))
          c->keep = (keep_choice)k;
      if (c->keep == KEEP_CHOICES) {
        snprintf(why, len, "--keep '%.100s': best, all or best-kernels", argv[i]);
        return 1;
      }
    } else if (!strcmp(o, "--settle")) {
      uint64_t mib;
      if (parse_u64(argv[++i], &mib) || mib > (1u << 20)) {
        snprintf(why, len, "--settle '%.100s': MiB, a whole number from 1 to 1048576", argv[i]);
        return 1;
      }
      c->settle_mib = mib;
    } else if (!strcmp(o, "--runs")) {
      uint64_t r;
      if (parse_u64(argv[++i], &r) || r > 100) {
        snprintf(why, len, "--runs '%.100s': a whole number from 1 to 100", argv[i]);
        return 1;
      }
      c->runs = (int)r;
    } else if (!strcmp(o, "--app") || !strcmp(o, "--n") || !strcmp(o, "--block") ||
               !strcmp(o, "--calibrate") || !strcmp(o, "--backend") || !strcmp(o, "--json") ||
               !strcmp(o, "--dry-run") || !strcmp(o, "--config")) {
      snprintf(why, len, "%s: not an option of calibrate (workloads are --workload APP:N:BLOCK)",
               o);
      return 1;
    } else if (c->fargc == MAX_FORWARDED) {
      snprintf(why, len, "too many options (at most %d)", MAX_FORWARDED - 2);
      return 1;
    } else {
      c->fargv[c->fargc++] = argv[i];
    }
  }
  if (!c->platform_out[0] || !c->nworkloads) {
    snprintf(why, len,
             "calibrate needs --platform-out FILE, --perfmodel FILE and at least one "
             "--workload APP:N:BLOCK");
    return 1;
  }
  return 0;
}

/* One line per kind whose regression misses a size it measured by more than 10%, and the
 * samples the recorded runs left out as outliers (perfmodel.h; each run's model counts its
 * own, which a merge does not carry): what a user of the model should know of it. */
static void warn_fits(const nw_perfmodel *model, uint64_t outliers) {
  for (size_t t = 0; t < nw_perfmodel_tables(model); t++) {
    const char *kind, *arch;
    size_t n;
    double x = 0, miss = nw_perfmodel_fit_miss(model, t, &x);
    nw_perfmodel_table(model, t, &kind, &arch, &n);
    if (miss > 0.10)
      fprintf(stderr,
              "narwhal: calibrate: kind '%s' on %s: its regression misses a measured size (x = "
              "%.4g) by %.0f%%: sizes between those measured will be priced less well; measure "
              "more sizes of it\n",
              kind, arch, x, 100 * miss);
  }
  uint64_t out = nw_perfmodel_rejected(model) + outliers;
  if (out)
    fprintf(stderr,
            "narwhal: calibrate: %llu samples left out as outliers by the recorded runs (6 "
            "robust deviations and 3x from their footprint's median)\n",
            (unsigned long long)out);
}

/* What the runs measured, summed (rank 0). */
typedef struct measured {
  nw_rt_costs rt;
  double gpu_busy_s, gpu_flops; /* GPU devices: their busy time and the flops they ran */
} measured;

/* The runtime costs of each application's kept runs alone: an application's messages and
 * commits cost per byte what its copies' shapes and its buffers' first touches make them
 * (2-rank runs here, ns of CPU a byte: matmul 1.2, cmeans 0.4, fft2d 3 to 8), which one fit
 * over every application prices at the mix's slope. */
typedef struct app_measured {
  int apps;
  char name[MAX_WORKLOADS][64];
  nw_rt_costs rt[MAX_WORKLOADS];
} app_measured;

static void add_app_measured(app_measured *a, const char *app, const nw_rt_costs *rt) {
  int i = 0;
  while (i < a->apps && strcmp(a->name[i], app))
    i++;
  if (i == a->apps) {
    if (a->apps == MAX_WORKLOADS)
      return;
    snprintf(a->name[a->apps++], sizeof a->name[0], "%s", app);
  }
  nw_rt_costs_add(&a->rt[i], rt);
}

/* A name that can stand in a property's id as written (letters, digits, '_', '-', '.'). */
static int plain_name(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
      return 0;
  return 1;
}

/* A message's mean wait to be seen beside a running kernel: the mean residual
 * sum(g^2) / (2 sum(g)) of the gaps g between the loop's polls there (stats.h); 0: none. */
static double mean_pickup(const nw_rt_costs *rt) {
  return rt->poll_gap_s > 0 ? rt->poll_gap_sq_s2 / (2 * rt->poll_gap_s) : 0;
}

/* The loop's polling of transfers with a rank of its host (real_backend.c's event_loop): the
 * share of a core it took beside a running kernel, its CPU time over its wall time there, and
 * all of it, kernel beside or not, per byte the ranks moved between them: what the copying in
 * the polls costs (fragments, the receive buffers' first touches, the waits for the other
 * loop), which the ranks' ping-pong between cached buffers understates. 0: not measured. */
static void shm_polling(const nw_rt_costs *rt, double *share, double *per_byte) {
  *share = *per_byte = 0;
  if (rt->shm_poll_s > 0 && rt->shm_polls > 0) {
    double x = rt->shm_poll_cpu_s / rt->shm_poll_s;
    *share = x > 1 ? 1 : x > 0 ? x : 0;
  }
  if (rt->shm_bytes > 0)
    *per_byte = (rt->shm_poll_cpu_s + rt->shm_poll_idle_cpu_s) / rt->shm_bytes;
}

static void fill_app_costs(tool_platform *p, const app_measured *a) {
  for (int i = 0; i < a->apps && p->apps < TOOL_PLATFORM_MAX_APPS; i++) {
    if (!plain_name(a->name[i]))
      continue;
    tool_app_costs *c = &p->app[p->apps++];
    const nw_rt_costs *rt = &a->rt[i];
    snprintf(c->name, sizeof c->name, "%s", a->name[i]);
    for (int k = 1; k < NW_STATS_EVENT_KINDS; k++) {
      c->events[k] = rt->events[k];
      tool_fit_event_cost(rt, k, &c->event[k]);
    }
    c->launch_s = rt->launches ? rt->launch_s / (double)rt->launches : -1;
    c->done_s = rt->dones ? rt->done_s / (double)rt->dones : -1;
    /* As the pooled rt_pickup (fill_platform), from this application's poll gaps alone; the
     * writer leaves it out where the loop has a core of its own (no pooled one either). */
    c->pickup_s = mean_pickup(rt);
    /* The same for polling, which depends on the messages (PageRank's many small ones cost
     * 1.4-1.7 ns a byte on two one-core ranks, conv2d's blocks 0.3) and on the kernel beside. */
    shm_polling(rt, &c->shm_poll_share, &c->shm_poll_per_byte);
  }
}

static void add_measured(measured *m, const measured *x) {
  nw_rt_costs_add(&m->rt, &x->rt);
  m->gpu_busy_s += x->gpu_busy_s;
  m->gpu_flops += x->gpu_flops;
}

/* What one run measured: its runtime costs, and its GPUs' busy time and flops. */
static measured run_measured(const nw_run_result *res) {
  measured x;
  memset(&x, 0, sizeof x);
  x.rt = res->total.rt;
  /* Flops per subtask: a workload's subtasks are alike (one block size). */
  double per = res->subtasks ? res->total.total_flops / (double)res->subtasks : 0;
  for (int d = 0; d < res->ndevices; d++)
    if (res->devices[d].kind == NW_DEVICE_GPU) {
      x.gpu_busy_s += res->devices[d].s.busy_s;
      x.gpu_flops += per * (double)res->devices[d].s.subtasks;
    }
  return x;
}

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median over pairs of ranks of v (ranks x ranks), of every pair or (apart) of those on
 * different hosts only; 0 without such a pair. */
static double median_of_pairs(const nw_real_machine *mc, const double *v, int apart) {
  int n = mc->ranks, k = 0;
  double *all = malloc(sizeof *all * (size_t)(n * n + 1));
  if (!all)
    return 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (!apart || strcmp(mc->host[i], mc->host[j]) != 0)
        all[k++] = v[i * n + j];
  double med = 0;
  if (k) {
    qsort(all, (size_t)k, sizeof *all, by_double);
    med = k % 2 ? all[k / 2] : (all[k / 2 - 1] + all[k / 2]) / 2;
  }
  free(all);
  return med;
}

static double pair_median(const nw_real_machine *mc, const double *v) {
  return median_of_pairs(mc, v, 0);
}

/* The platform's numbers from the measurements; the comment lists them with the command. */
static void fill_platform(tool_platform *p, const nw_real_machine *mc, const measured *m,
                          const app_measured *per_app, const tool_options *o) {
  memset(p, 0, sizeof *p);
  p->nodes = mc->ranks;
  p->cores = mc->cores_min;
  p->core_speed = mc->core_flops > 0 ? mc->core_flops : 1e9;
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    tool_fit_event_cost(&m->rt, k, &p->event[k]);
  p->cache_bytes = m->rt.cache_bytes;
  p->launch_s = m->rt.launches ? m->rt.launch_s / (double)m->rt.launches : 0;
  p->done_s = m->rt.dones ? m->rt.done_s / (double)m->rt.dones : 0;
  fill_app_costs(p, per_app);
  nw_real_loop_layout(&o->run, mc->cores_min, o->run.devices == NW_DEVICES_CPU ? 0 : mc->gpus,
                      &p->loop_weight, &p->spin_s);
  /* The loop's CPU over the wall time of its spins beside a running kernel (real_backend.c's
   * event_loop): what a spin takes from the kernels, which its weight alone overstates. */
  if (p->loop_weight > 0 && m->rt.spin_s > 0 && m->rt.spins > 0) {
    double share = m->rt.spin_cpu_s / m->rt.spin_s;
    p->spin_share = share > 1 ? 1 : share > 0 ? share : 0;
    /* Their mean length, not the budget: a spin polls on while MPI moves data (real_queue.c),
     * which the simulated loop cannot see, so it spins for what the real ones lasted. */
    p->spin_s = m->rt.spin_s / (double)m->rt.spins;
  }
  /* The same for its polls of a transfer with a rank of its host, which the simulator charges
   * as the transfer (sim_shm_poll.h). */
  if (p->loop_weight > 0)
    shm_polling(&m->rt, &p->shm_poll_share, &p->shm_poll_per_byte);
  if (p->loop_weight > 0)
    p->pickup_s = mean_pickup(&m->rt);
  /* A new view's page, first touched: the mean of every rank's probe in every run. */
  if (m->rt.page_probes > 0)
    p->page_fresh_s = m->rt.page_probe_s / (double)m->rt.page_probes;
  double lat = pair_median(mc, mc->latency), bw = pair_median(mc, mc->bandwidth);
  _Static_assert(TOOL_PLATFORM_MACHINE_MAX == NW_REAL_HOST_MAX, "host names' size");
  p->machine = (const char(*)[TOOL_PLATFORM_MACHINE_MAX])mc->host;
  p->nic_latency = lat / 2;
  p->nic_bandwidth = bw > 0 ? bw : 1e9;
  p->control_behind = pair_median(mc, mc->behind);
  /* Between hosts only: ranks of one host spin while a transfer between them is under way
   * (real_net_poll), so there a rendezvous costs the receiver's pickup alone, which the
   * simulator charges the message anyway, and its answer microseconds. */
  p->eager_bytes = median_of_pairs(mc, mc->eager, 1);
  if (o->run.devices != NW_DEVICES_CPU && mc->gpus > 0 && m->gpu_busy_s > 0) {
    p->gpus = mc->gpus;
    p->gpu_speed = m->gpu_flops / m->gpu_busy_s;
    p->gpu_memory = mc->gpu_memory;
    p->pcie_bandwidth = mc->pcie_bandwidth > 0 ? mc->pcie_bandwidth : 1e9;
    p->pcie_latency = mc->pcie_latency;
    p->copy_widths = mc->copy_widths < TOOL_PLATFORM_MAX_COPY_WIDTHS
                         ? mc->copy_widths
                         : TOOL_PLATFORM_MAX_COPY_WIDTHS;
    for (int i = 0; i < p->copy_widths; i++) {
      p->copy_width[i] = mc->copy_width[i];
      p->copy_rate[i] = mc->copy_rate[i];
    }
  }
}

static char *describe(const tool_platform *p, const nw_real_machine *mc, const measured *m,
                      const calib_args *c, char **all_argv) {
  size_t cap = 8192 + (size_t)mc->ranks * (size_t)mc->ranks * 160 + (size_t)p->apps * 2048 +
               (size_t)c->nworkloads * 160,
         len = 0;
  char *s = malloc(cap);
  if (!s)
    return NULL;
#define ADD(...) len += (size_t)snprintf(s + len, len < cap ? cap - len : 0, __VA_ARGS__)
  ADD("Calibrated by narwhal calibrate (measured, not estimated). Command:\n ");
  for (char **a = all_argv; *a; a++)
    ADD(" %s", *a);
  ADD("\nNodes: %d (one per rank); cores per rank %d to %d (the platform takes %d).\n", mc->ranks,
      mc->cores_min, mc->cores_max, p->cores);
  ADD("One core's SGEMM (OpenBLAS, 1 thread, n = 512, best of 5): %.4g Gflop/s.\n",
      mc->core_flops / 1e9);
  ADD("memcpy, one thread, 64 MiB, best of 5: %.4g GB/s (for comparison with the per-byte "
      "costs).\n",
      mc->memory_bandwidth / 1e9);
  ADD("%s of %d run(s) of each workload. Handling an event of a "
      "kind that moves x "
      "bytes (a message's length, a driver call's copy, commit copies) in r row runs (a memcpy "
      "each), writing q pages of the node's copies of spaces first (a page fault each) and "
      "touching v pages of new views first, takes rt_KIND + x * rt_KIND_per_byte + r * "
      "rt_KIND_per_run + q * rt_KIND_per_space_page + v * (rt_page_fresh + "
      "rt_KIND_per_view_page) s of the handling thread's CPU time, least squares (the wall-time "
      "mean beside it counts waits for a shared core too):\n",
      keep_choices[c->keep].said, c->runs);
  if (c->settle_mib) {
    ADD("Memory settled before each run (--settle %llu, or a quarter more than the workload's "
        "warm-up first-touched; rank 0):",
        (unsigned long long)c->settle_mib);
    for (int i = 0; i < c->nworkloads; i++)
      ADD("%s %s:%llu:%llu %llu MiB", i ? "," : "", c->w[i].app, (unsigned long long)c->w[i].n,
          (unsigned long long)c->w[i].block, (unsigned long long)c->settled_mib[i]);
    ADD(".\n");
  }
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    ADD("  rt_%s: %.4g s + %.4g s/byte + %.4g s/run + %.4g s/page + %.4g s/view page over %llu "
        "events (mean %.4g s CPU, %.4g s wall)\n",
        nw_stats_event_name(k), p->event[k].fixed, p->event[k].per_byte, p->event[k].per_run,
        p->event[k].per_page, p->event[k].per_view_page, (unsigned long long)m->rt.events[k],
        m->rt.events[k] ? m->rt.cpu[k].cpu_s / (double)m->rt.events[k] : 0.0,
        m->rt.events[k] ? m->rt.s[k] / (double)m->rt.events[k] : 0.0);
  if (p->cache_bytes > 0)
    ADD("  Priced apart (the others' a and c, a price per byte of their own): events that "
        "gathered most of their bytes into messages they sent (_gather), that moved %.4g MB or "
        "more (_beyond; rt_cache_bytes, half the level-2 and last-level caches), or both:\n",
        p->cache_bytes / 1e6);
  for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
    for (int cls = 0; cls < NW_COST_CLASSES; cls++)
      if (p->event[k].per_byte_class[cls] > 0)
        ADD("  rt_%s_per_byte%s: %.4g s/byte over %llu events\n", nw_stats_event_name(k),
            nw_cost_class_suffix(cls), p->event[k].per_byte_class[cls],
            (unsigned long long)m->rt.split[cls][k].events);
  ADD("  rt_launch (launch to kernel start): %.4g s over %llu; rt_done (kernel end to its "
      "handling): %.4g s over %llu\n",
      p->launch_s, (unsigned long long)m->rt.launches, p->done_s, (unsigned long long)m->rt.dones);
  if (p->apps)
    ADD("Fitted to each application's runs alone (properties KEY@APP, which a simulated run of "
        "APP takes before the pooled ones):\n");
  for (int a = 0; a < p->apps; a++) {
    const tool_app_costs *ac = &p->app[a];
    for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
      if (ac->events[k])
        ADD("  rt_%s@%s: %.4g s + %.4g s/byte + %.4g s/run + %.4g s/page + %.4g s/view page over "
            "%llu events\n",
            nw_stats_event_name(k), ac->name, ac->event[k].fixed, ac->event[k].per_byte,
            ac->event[k].per_run, ac->event[k].per_page, ac->event[k].per_view_page,
            (unsigned long long)ac->events[k]);
    for (int k = 1; k < NW_STATS_EVENT_KINDS; k++)
      for (int cls = 0; cls < NW_COST_CLASSES; cls++)
        if (ac->events[k] && ac->event[k].per_byte_class[cls] > 0)
          ADD("  rt_%s_per_byte%s@%s: %.4g s/byte\n", nw_stats_event_name(k),
              nw_cost_class_suffix(cls), ac->name, ac->event[k].per_byte_class[cls]);
    if (ac->launch_s >= 0 && ac->done_s >= 0)
      ADD("  rt_launch@%s: %.4g s; rt_done@%s: %.4g s\n", ac->name, ac->launch_s, ac->name,
          ac->done_s);
    if (p->loop_weight > 0 && ac->pickup_s > 0)
      ADD("  rt_pickup@%s: %.4g s\n", ac->name, ac->pickup_s);
    if (p->loop_weight > 0 && ac->shm_poll_per_byte > 0)
      ADD("  rt_shm_poll_share@%s: %.3g; rt_shm_poll_per_byte@%s: %.4g s\n", ac->name,
          ac->shm_poll_share, ac->name, ac->shm_poll_per_byte);
  }
  if (p->loop_weight > 0)
    ADD("The event loop has no core of its own: the compute threads take all %d; it gets %.3g "
        "times a compute thread's share of a core (rt_loop_weight: CFS weights of nice 0 and "
        "the compute threads' nice value) and polls %.4g s after an event (rt_spin).\n",
        p->cores, p->loop_weight, p->spin_s);
  if (p->spin_share > 0)
    ADD("Its spins beside a running kernel took %.3g of a core (rt_spin_share: its CPU time "
        "over their wall time, %llu spins, %.4g s; rt_spin is their mean length).\n",
        p->spin_share, (unsigned long long)m->rt.spins, m->rt.spin_s);
  if (p->shm_poll_share > 0 || p->shm_poll_per_byte > 0)
    ADD("Its polls of a transfer with a rank of its host beside a running kernel took %.3g of a "
        "core (rt_shm_poll_share: %llu polls, %.4g s), and all its polls of such transfers "
        "%.4g s of CPU a byte they moved (rt_shm_poll_per_byte: %.4g s over %.4g MB); nodes "
        "of one machine (rt_machine) move data only while both loops poll.\n",
        p->shm_poll_share, (unsigned long long)m->rt.shm_polls, m->rt.shm_poll_s,
        p->shm_poll_per_byte, m->rt.shm_poll_cpu_s + m->rt.shm_poll_idle_cpu_s,
        m->rt.shm_bytes / 1e6);
  if (p->pickup_s > 0)
    ADD("A message that came while it waited beside a running kernel waited %.4g s to be seen "
        "(rt_pickup: the mean residual of %llu gaps between its polls, %.4g s in all).\n",
        p->pickup_s, (unsigned long long)m->rt.poll_gaps, m->rt.poll_gap_s);
  if (p->page_fresh_s > 0)
    ADD("A page of a new private view costs %.3g us when first touched (rt_page_fresh: "
        "the mean of %llu probes of 1024 pages; the handlers' costs above are fitted "
        "without it).\n",
        p->page_fresh_s * 1e6, (unsigned long long)m->rt.page_probes);
  for (int i = 0; i < mc->ranks; i++)
    for (int j = i + 1; j < mc->ranks; j++)
      ADD("Ranks %d (%s) - %d (%s): latency %.4g us, bandwidth %.4g GB/s, a control message "
          "behind %.4g KB of data in flight, %.4g KB sent before the receiver sees it\n",
          i, mc->host[i], j, mc->host[j], mc->latency[i * mc->ranks + j] * 1e6,
          mc->bandwidth[i * mc->ranks + j] / 1e9, mc->behind[i * mc->ranks + j] / 1e3,
          mc->eager[i * mc->ranks + j] / 1e3);
  if (p->gpus)
    ADD("GPUs per node %d: %.4g Gflop/s (calibration runs' flops / busy time), %llu bytes free, "
        "host->device %.4g GB/s, %.4g us (host memory %s)\n",
        p->gpus, p->gpu_speed / 1e9, (unsigned long long)p->gpu_memory, p->pcie_bandwidth / 1e9,
        p->pcie_latency * 1e6, mc->link_pinned ? "registered" : "pageable: registration refused");
  const char *path = getenv("NARWHAL_GPU_STAGING");
  if (p->copy_widths)
    ADD("  copies by row width (host memory %s; NARWHAL_GPU_STAGING %s):\n",
        mc->copy_pinned ? "registered" : "pageable: registration refused", path ? path : "unset");
  for (int w = 0; w < p->copy_widths; w++)
    ADD("  host->device, rows of %llu bytes at twice that pitch: %.4g GB/s\n",
        (unsigned long long)p->copy_width[w], p->copy_rate[w] / 1e9);
#undef ADD
  return s;
}

static int only_rank0_fails(int code, const char *why, int rank) {
  if (rank == 0)
    tool_say("%s", why);
  return rank == 0 ? code : 0;
}

/* What calibration keeps of one workload: its best run's model and measurements (or every
 * run's merged, --keep all; --keep best-kernels: the best run's model and GPU rate, every
 * run's runtime costs). */
typedef struct kept_workload {
  nw_perfmodel *model;
  measured m;
  nw_rt_costs rt_all; /* every recorded run's runtime costs, summed */
  double makespan;
  uint64_t touched; /* pages its warm-up run first-touched on this rank (--settle sizes by it) */
  uint64_t settled_mib; /* the most settled before one of its runs */
} kept_workload;

/* Workload i's run k (-1: its warm-up, not recorded), kept into *w as --keep says. Returns 0,
 * or the exit code of a failure, said once (rank 0). */
static int calibrate_run(const calib_args *c, const tool_options *o, const nw_app *app, int i,
                         int k, int rank, kept_workload *w, uint64_t *outliers) {
  char why[1024];
  nw_perfmodel *run_model = NULL;
  if (k >= 0 && nw_perfmodel_create(&run_model) != NW_OK)
    return only_rank0_fails(1, "out of memory for the performance model", rank);
  nw_run_config run = o->run;
  snprintf(run.app, sizeof run.app, "%s", c->w[i].app);
  run.args.n = c->w[i].n;
  run.args.block = c->w[i].block;
  run.seed = run.args.seed = o->run.seed + 1000003u * (uint64_t)(k + 2);
  run.calibrate = k >= 0;
  run.perfmodel = run_model;
  /* The warm-up checks the result; the recorded runs do not. An application verifies after
   * its tasks, outside the makespan, reading its result into a buffer of its own whose pages
   * the fetch's handler faults in: 36 to 150 ms in one message event at the end of each run
   * (fft2d 4096/512's last: 53248 faults for 20480 pages of the space), which pulled the fit
   * of every message's cost per page written first to 4.4 us, two to three times a fault. */
  if (k >= 0)
    run.args.verify = 0;
  nw_run_result res;
  if (c->settle_mib) { /* the ranks of this host settle at once: each takes its share */
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    uint64_t mib = tool_settle_mib_for(c->settle_mib, w->touched, local ? atoi(local) : 1);
    tool_settle_memory(mib);
    if (mib > w->settled_mib)
      w->settled_mib = mib;
  }
  int code = 0;
  uint64_t touched0 = tool_pages_touched(0);
  nw_status st = nw_real_run(&run, app, &res);
  if (k < 0)
    w->touched = tool_pages_touched(0) - touched0;
  if (st != NW_OK) {
    snprintf(why, sizeof why, "calibrate: workload %s:%llu:%llu: %.400s", c->w[i].app,
             (unsigned long long)c->w[i].n, (unsigned long long)c->w[i].block,
             res.error[0] ? res.error : "the run failed");
    code = only_rank0_fails(st == NW_ERR_ARG ? 2 : 1, why, rank);
  } else if (res.reporter && res.verified == 0) {
    code = only_rank0_fails(3, "calibrate: a run's result differs from the reference", rank);
  } else if (k >= 0 && res.reporter) {
    measured this_m = run_measured(&res);
    *outliers += nw_perfmodel_rejected(run_model);
    nw_rt_costs_add(&w->rt_all, &this_m.rt);
    if (c->keep == KEEP_ALL && w->model) { /* keep all: merge */
      if (nw_perfmodel_merge(w->model, run_model) == NW_OK)
        add_measured(&w->m, &this_m);
      w->makespan = res.makespan_s;
    } else if (!w->model || res.makespan_s < w->makespan) { /* best: the fastest so far */
      nw_perfmodel_free(w->model);
      w->model = run_model, run_model = NULL;
      w->m = this_m;
      w->makespan = res.makespan_s;
    }
  }
  nw_perfmodel_free(run_model);
  nw_run_result_free(&res);
  return code;
}

int tool_calibrate(int argc, char **argv, char **all_argv) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  int rank = r ? atoi(r) : 0;
  calib_args c;
  char why[1024];
  int parsed = parse_args(argc, argv, &c, why, sizeof why);
  if (parsed < 0) {
    if (rank == 0)
      fputs(calibrate_help, stdout);
    return 0;
  }
  if (parsed)
    return only_rank0_fails(2, why, rank);
  tool_options o;
  if (tool_options_parse(c.fargc, c.fargv, &o, why, sizeof why))
    return only_rank0_fails(2, why, rank);
  if (!o.perfmodel[0])
    return only_rank0_fails(2, "calibrate needs --perfmodel FILE (the model it writes)", rank);
  const nw_app *apps[MAX_WORKLOADS];
  for (int i = 0; i < c.nworkloads; i++) {
    apps[i] = nw_app_find(c.w[i].app);
    nw_app_args a = o.run.args;
    a.n = c.w[i].n, a.block = c.w[i].block;
    if (!apps[i]) {
      snprintf(why, sizeof why, "--workload: unknown application '%.60s'", c.w[i].app);
      return only_rank0_fails(2, why, rank);
    }
    if (apps[i]->check_args(&a, why, sizeof why) != NW_OK)
      return only_rank0_fails(2, why, rank);
  }
  nw_perfmodel *model;
  if (nw_perfmodel_create(&model) != NW_OK)
    return only_rank0_fails(1, "out of memory for the performance model", rank);
  measured m;
  memset(&m, 0, sizeof m);
  app_measured *per_app = calloc(1, sizeof *per_app);
  if (!per_app) {
    nw_perfmodel_free(model);
    return only_rank0_fails(1, "out of memory for the runtime costs", rank);
  }
  int code = 0;
  uint64_t outliers = 0; /* left out by the recorded runs' models */
  /* Each run records into a model of its own; a workload keeps its best run's (or every
   * run's, --keep all), measurements and runtime costs alike. The runs go round the workloads
   * (every workload's warm-up, then its first recorded run, its second, ...), not workload by
   * workload: a slow spell of a shared machine then costs a workload one of its runs, not all
   * of them (a held-out run's matmul kernels at 256, all measured in one such spell at 72
   * GFlop/s against 107-134 in other calibrations, priced its 768-block kernels 19% slow). */
  kept_workload *kept = calloc((size_t)c.nworkloads, sizeof *kept);
  if (!kept)
    code = only_rank0_fails(1, "out of memory for the performance model", rank);
  for (int i = 0; kept && i < c.nworkloads; i++)
    kept[i].makespan = INFINITY;
  for (int k = -1; k < c.runs && !code; k++) /* k = -1: the warm-ups, not recorded */
    for (int i = 0; i < c.nworkloads && !code; i++)
      code = calibrate_run(&c, &o, apps[i], i, k, rank, &kept[i], &outliers);
  for (int i = 0; kept && i < c.nworkloads; i++) {
    c.settled_mib[i] = kept[i].settled_mib;
    if (kept[i].model && !code && nw_perfmodel_merge(model, kept[i].model) != NW_OK)
      code =
          only_rank0_fails(1, "calibrate: cannot merge a workload's model (size conflict)", rank);
    if (kept[i].model && !code && c.keep == KEEP_BEST_KERNELS)
      kept[i].m.rt = kept[i].rt_all; /* the fastest run's GPU rate stays, as its kernels */
    if (kept[i].model && !code) {
      add_measured(&m, &kept[i].m);
      add_app_measured(per_app, c.w[i].app, &kept[i].m.rt);
    }
    nw_perfmodel_free(kept[i].model);
  }
  free(kept);
  nw_real_machine mc;
  if (!code && nw_real_measure_machine(o.run.devices != NW_DEVICES_CPU, &mc, why, sizeof why))
    code = only_rank0_fails(1, why, rank);
  if (!code && rank == 0) {
    tool_platform p;
    fill_platform(&p, &mc, &m, per_app, &o);
    char *comment = describe(&p, &mc, &m, &c, all_argv);
    p.comment = comment;
    /* Both labels: the simulator of the platform file written here, and real runs on this
     * machine, read the same model (perfmodel_file.h). */
    const char *slash = strrchr(c.platform_out, '/');
    nw_perfmodel_labels labels;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    snprintf(labels.platform, sizeof labels.platform, "%s", slash ? slash + 1 : c.platform_out);
    snprintf(labels.machine, sizeof labels.machine, "real:%s", host);
    if (tool_platform_write(&p, c.platform_out, why, sizeof why) ||
        nw_perfmodel_save_labelled(model, o.perfmodel, &labels, why, sizeof why) != NW_OK)
      code = only_rank0_fails(1, why, rank);
    else
      printf("%s\nwrote %s and %s\n", comment ? comment : "", c.platform_out, o.perfmodel);
    warn_fits(model, outliers);
    free(comment);
  }
  if (!code)
    nw_real_machine_free(&mc);
  nw_perfmodel_free(model);
  free(per_app);
  return code;
}
