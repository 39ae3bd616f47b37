/* run.h: one run of an application on a cluster: its configuration and its result.
 *
 * The narwhal tool fills an nw_run_config (from options or a JSON file), picks a backend, and
 * the backend runs the nodes and the application's driver and fills an nw_run_result with
 * nw_run_result_fill().
 */
#ifndef NW_RUN_H
#define NW_RUN_H

#include <stdio.h>

#include "faults.h"
#include "narwhal_app.h"
#include "node.h"
#include "perfmodel.h"
#include "stats.h"
#include "trace.h"

/* External load for experiments: node `node` computes `factor` times
 * slower from `from_s` seconds into the run. */
typedef struct nw_slowdown {
  int node;
  double factor, from_s;
} nw_slowdown;

#define NW_MAX_SLOWDOWNS 8

/* Which devices run subtasks (paper Figs. 5-7). */
/* NW_DEVICES_AUTO: every kind the node has that can run every task kind of the application
 * (StarPU's default of using every worker); a backend resolves it (nw_run_auto_devices). */
typedef enum {
  NW_DEVICES_CPU = 0,
  NW_DEVICES_GPU,
  NW_DEVICES_CPU_GPU,
  NW_DEVICES_AUTO
} nw_devices_mode;
typedef enum { NW_GPU_LAUNCH = 0, NW_GPU_MANY_TASK } nw_gpu_mode;
/* --agglomerate-mode (core/device/agglo.h): a launch takes what the FIFO holds, up to N
 * (dynamic, the default), or waits for N units but in the edge case (static). */
typedef enum { NW_AGGLO_DYNAMIC = 0, NW_AGGLO_STATIC } nw_agglo_mode;
/* GeMTC's Fig. 9 bundle: 100 tasks per host-to-device copy. */
#define NW_MTC_BUNDLE_DEFAULT 100
/* Lanes (gpu-streams) per GPU: CUDA runs at most 32 kernels at once, which is the cap with one
 * launch per subtask; a many-task GPU's lanes only feed its queue, so it may have as many as
 * its worker warps need (GeMTC: 168 on a K20X). */
#define NW_GPU_STREAMS_MAX 32
#define NW_MTC_LANES_MAX 512

#define NW_SIMGRID_ARGS_MAX 16
#define NW_SIMGRID_ARG_LEN 200

typedef struct nw_run_config {
  char app[64];
  char backend[16];    /* "sim" or "real" */
  char platform[1024]; /* SimGrid platform file (sim) */
  char trace[1024];    /* --trace FILE: record an execution trace (trace.h); "" off */
  int nodes;           /* nodes to use: the first `nodes` of the platform, or the MPI ranks */
  int functional;      /* data mode: 1 functional (real bytes), 0 phantom (sizes only) */
  int check_views;     /* viewcheck.h; default NW_CHECK_VIEWS_DEFAULT (1 in sanitizer builds) */
  /* Reduction data between nodes run-length encoded (paper 4.6; node.h, compress_network). */
  int compress_network;
  /* GPU results for reduced spaces encoded on the GPU before the copy to the host (node.h,
   * compress_gpu). */
  int compress_gpu;
  int cpu_devices; /* CPU devices per node; 0: one per core not reserved */
  /* Cores per node kept for the runtime's own threads (paper 5.7: two of twelve with GPUs);
   * -1: 2 when the node uses GPUs (at most all but one core), else 0. */
  int reserved_cores;
  int work_groups; /* a node's CPU cores form one work-group device (paper 4.3.1) */
  nw_devices_mode devices;
  uint64_t gpu_mem; /* GPU memory budget in bytes; 0: each GPU's own */
  int gpu_streams;  /* subtasks one GPU runs at once */
  /* Dynamic agglomeration (core/device/agglo.h): the most subtasks one GPU launch runs (the
   * paper's maximum agglomeration size); 0: off, each subtask its own launch. */
  int agglomerate;
  nw_agglo_mode agglomerate_mode;
  /* How a GPU runs its lanes' subtasks: one kernel launch each (NW_GPU_LAUNCH, the default), or
   * GeMTC's many-task mode (NW_GPU_MANY_TASK: a resident worker kernel fed bundles of at most
   * mtc_bundle subtasks; README, "Many-task GPU mode"). */
  nw_gpu_mode gpu_mode;
  int mtc_bundle;
  /* A GPU copy engine sends the copies queued behind its next one with it, as one transfer
   * (simulator; README, "Agglomeration"). */
  int pack_copies;
  nw_app_args args;
  nw_sched_config sched;
  /* The performance model (sched/perfmodel.h), loaded by the tool from --perfmodel, owned by
   * it; NULL: none. With one, the simulator takes durations from it (unless calibrating), and
   * node 0 records every measured subtask into it. calibrate: --calibrate on. */
  struct nw_perfmodel *perfmodel;
  int calibrate;
  uint64_t seed; /* scheduler randomness (victim choice) */
  int nslow;
  nw_slowdown slow[NW_MAX_SLOWDOWNS];
  /* Faults the backend injects: lost nodes, lost or late messages, slow links (faults.h). */
  nw_fault_plan faults;
  /* SimGrid's own settings, passed to it as given (`--cfg=KEY:VALUE`, `--log=SETTING`), after
   * Narwhal's, so a researcher's network model or factors win; simulator only. */
  int nsimgrid_args;
  char simgrid_args[NW_SIMGRID_ARGS_MAX][NW_SIMGRID_ARG_LEN];
  /* --check: the backend sets everything up (platform, nodes, devices, GPU budgets), checks it
   * as for a run, and returns NW_OK without running anything. */
  int check_only;
} nw_run_config;

/* Parses "NODE:FACTOR[@SECONDS][,...]" into c->slow; writes a reason to why on error. */
nw_status nw_slowdown_parse(nw_run_config *c, const char *text, char *why, size_t why_len);
/* NW_ERR_ARG with a one-line reason when a slowdown names a node the run does not have. */
nw_status nw_slowdown_check_nodes(const nw_run_config *c, int nodes, char *why, size_t why_len);
/* The slowdown factor of node at time t (1 when none applies; the largest when several). */
double nw_slowdown_factor(const nw_run_config *c, int node, double t);
/* The earliest time after t at which node's factor changes, or a negative value. */
double nw_slowdown_next_change(const nw_run_config *c, int node, double t);
/* When work that takes `nominal_s` seconds at full speed, begun at `start`, ends on node:
 * each stretch of it runs `factor` times slower, the factor changing as the slowdowns begin
 * (the simulator splits a kernel the same way, sim_world.c). The real backend holds a slowed
 * rank's kernel until then. */
double nw_slowdown_stretch(const nw_run_config *c, int node, double start, double nominal_s);

/* The cores of a node of `cores` cores and `gpus` GPUs left to the runtime's own threads:
 * --reserved-cores, else 2 when GPUs are used (at most all but one), else 0. */
int nw_run_reserved_cores(const nw_run_config *c, int cores, int gpus);

void nw_run_config_defaults(nw_run_config *c);
/* Scheduling policies by name (sched/policy.c): whether `name` is one, all their names,
 * comma-separated, for messages, and each one's name and summary, a line each, for
 * `narwhal run --sched help`. */
int nw_sched_policy_exists(const char *name);
void nw_sched_policy_names(char *buf, size_t len);
void nw_sched_policy_help(FILE *out);
/* A node's CPU devices with `cores` cores and `gpus` GPUs in use: how many (*count, 0 in a
 * GPU-only run) and the cores each runs a subtask on (*cores_each: 1, or the work-group's
 * size). NW_ERR_ARG with a reason naming the option when the configuration leaves no core. */
nw_status nw_run_cpu_layout(const nw_run_config *c, int cores, int gpus, int *count,
                            int *cores_each, char *why, size_t why_len);
/* The GPU options together (both backends): lanes above NW_GPU_STREAMS_MAX only in many-task
 * mode, which excludes --agglomerate and needs a GPU. NW_ERR_ARG with a one-line reason. */
nw_status nw_run_check_gpu_mode(const nw_run_config *c, char *why, size_t why_len);
/* What --devices auto means for a node with `gpus` GPUs: cpu+gpu when it has one and every
 * task kind of app can run there (`emulated`: the simulator in functional mode, which runs
 * gpu_emulated_kernel; `native`: the real backend, which runs cuda_kernel), else cpu. Any
 * other mode is returned as it is. */
nw_devices_mode nw_run_auto_devices(const nw_run_config *c, const nw_app *app, int gpus,
                                    int emulated, int native);
/* "cpu", "gpu", "cpu+gpu", "auto". */
const char *nw_devices_mode_name(nw_devices_mode m);

typedef struct nw_run_result {
  nw_status status;
  nw_devices_mode device_mix; /* the devices the run used (--devices auto resolved) */
  char error[512];
  int reporter; /* 1 on the one process that prints the result (MPI rank 0) */
  int nodes;
  int verified;           /* -1: not checked */
  uint64_t stale_reads;   /* reads the app's own checks found stale (nw_app_outcome) */
  double makespan_s;      /* first task submission to last task completion */
  double first_submit_s;  /* when the first task was submitted, from the run's start */
  nw_fault_counts faults; /* what the fault plan did (all 0 without one) */
  double gflops;          /* cost-model flops / makespan */
  uint64_t subtasks;
  nw_stats total; /* counters combined over nodes as stats_list.h says (device arrays unused) */
  int ndevices;   /* rows of devices[] */
  /* Devices with no row: at most NW_STATS_MAX_DEVICES per node are listed (many-task lanes can
   * be more); their work is in the totals. */
  int devices_unlisted;
  struct {
    int node;
    nw_device_kind kind;
    nw_device_stats s; /* finish_s relative to the first submission */
  } * devices;         /* malloc'd; nw_run_result_free */
  /* Per node (`nodes` rows, node i at i; malloc'd): the space bytes it received and sent in
   * answer to fetches, and how many of them were new to it (nw_stats.bytes_received etc.). */
  struct {
    uint64_t bytes_received, bytes_received_unique, bytes_served, bytes_served_unique;
  } * per_node;
  /* The paper's "average transfer frequency per node" (Fig. 21): the mean over nodes that sent
   * anything of bytes_served / bytes_served_unique (how many nodes a byte went to); and the
   * same over receivers of bytes_received / bytes_received_unique (how often a node got a byte
   * again). 0 when no node sent (received) anything. */
  double transfer_frequency, transfer_frequency_received;
  /* --trace: every node's records (trace.h), malloc'd; trace_lost: some node ran out of memory
   * while recording, so the trace is incomplete. */
  nw_trace_rec *trace;
  size_t ntrace;
  int trace_lost;
  /* The simulator given a measured model (--perfmodel): per task kind, how many subtasks each
   * source timed (nw_price_source: the model's history, its regression, the kind's cost model
   * at the rate the model measured for it, or uncalibrated: the cost model at the platform's
   * speed); malloc'd, npriced rows, in the order the kinds first ran. */
  struct nw_priced_kind {
    char kind[NW_PERFMODEL_KIND_MAX + 1];
    uint64_t by[NW_PRICE_SOURCES];
  } * priced;
  int npriced;
} nw_run_result;

/* Sums per-node statistics (node_stats[i] of node i) and the app outcome into res. */
nw_status nw_run_result_fill(nw_run_result *res, const nw_stats *node_stats, int nodes,
                             const nw_app_outcome *outcome);
void nw_run_result_free(nw_run_result *res);
/* Appends a node's trace records to res->trace (--trace). */
nw_status nw_run_result_add_trace(nw_run_result *res, const nw_trace *t);

#endif
