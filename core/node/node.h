/* node.h: one node of the cluster, as the backends see it.
 *
 * A backend creates one node per cluster node, feeds it events with nw_node_handle() (one at a
 * time, on one logical thread per node) until nw_node_finished(), then reads its statistics.
 * The application's driver reaches node 0 through an nw_runtime (see nw_runtime_init).
 */
#ifndef NW_NODE_H
#define NW_NODE_H

#include <stdint.h>

#include "backend.h"
#include "gpu_cache.h"
#include "stats.h"

typedef struct nw_node nw_node;

#define NW_MAX_NODES 1024
#define NW_MAX_DEVICES_PER_NODE 576 /* 64 cores or CPU devices + 512 many-task lanes */
#define NW_MAX_GPUS_PER_NODE 16
#define NW_MAX_WORKGROUP_CORES 4096

/* Scheduler parameters shared by every node of a run. */
typedef enum { NW_STEAL_TWO_LEVEL = 0, NW_STEAL_ONE_LEVEL = 1 } nw_steal_policy_id;

/* How the data of a pipelined prefetch travels (paper 4.2). LOW: at lower priority than
 * demand fetches (NW_CHANNEL_PREFETCH); SAME: like demand data, for comparison. LOW is zero so
 * that a zeroed configuration gets the paper's behaviour. */
typedef enum { NW_PREFETCH_LOW = 0, NW_PREFETCH_SAME = 1 } nw_prefetch_priority;

#define NW_POLICY_NAME_MAX 16

/* The default of nw_sched_config.steal_probes: platforms of up to 17 nodes keep the original
 * rule exactly (every node asked). */
#define NW_STEAL_PROBES_DEFAULT 16

typedef struct nw_sched_config {
  /* The scheduling policy by name (sched/policy.h: unicorn, eager, dmda, ...); empty: unicorn.
   * The steal, ProSteal, multi-assign and locality settings below are unicorn's. */
  char policy[NW_POLICY_NAME_MAX];
  int pipeline; /* fetch the next queued subtask's data while one runs */
  /* After a stealing round in which every node failed: 0 stops stealing for the task (the
   * original Unicorn's rule); > 0 retries after this back-off, doubling up to 1024x. */
  double steal_retry_s;
  /* The most remote steal agents (nodes; one-level: that many nodes' worth of devices) a dry
   * device asks in one round before the round fails; 0: every node, the original Unicorn's
   * rule, under which each device's rounds cost O(nodes) messages (steal.c says why a bound
   * keeps the balance). */
  int steal_probes;
  nw_steal_policy_id steal_policy; /* two-level (paper default) or one-level (comparison) */
  int multi_assign;                /* copies of straggling subtasks (paper 4.3.3) */
  int prosteal;                    /* steal before running dry (paper 4.3.2, ProSteal) */
  nw_cache_policy gpu_cache;       /* eviction policy of every GPU's software cache (4.4) */
  /* Locality-aware scheduling (paper 4.3.4, locality_sched.c): the initial assignment and the
   * steals weighted by how much of each subtask's data each node holds. Off by default: the
   * paper's default scheduler is locality-oblivious and a task opts in. */
  int locality;
  nw_prefetch_priority prefetch_priority; /* of the pipeline's fetches (4.2) */
  /* Model-based policies (dm, dmda, ...): how many subtasks at the head of each device's queue
   * have their reads requested as soon as they are placed, kept up as the device takes them
   * (StarPU's prefetch on push, the "-pr" variants); 0: only the pipeline's own prefetch. */
  int prefetch_depth;
  /* Tasks start one at a time in submission order, each once the one before it completed (the
   * rule before tasks ran concurrently; for comparison). 0: a task starts as soon as every
   * earlier one it shares a space with, other than read-only by both, has completed (paper
   * section 2). */
  int sequential_tasks;
  /* The roofline policy (sched/roofline.c): 0, equation (8) of the PRS paper decides the CPUs'
   * fraction of each node's subtasks (the default); 1, roofline_p (0 to 1) does, for sweeps
   * that find the best one by measurement (the paper's "p by app profiling"). */
  int roofline_fixed;
  double roofline_p;
  /* The roofline split takes the GPUs' data as already in their memory (the paper's iterative
   * applications: equation (7) without its PCIe term; sched/roofline_model.h). */
  int roofline_resident;
  /* Where the master of a space answers a fetch from (core/data/space.c): 0, the bytes it
   * owns, each other part forwarded to its owner (the default); 1, also the bytes it holds as
   * a temporary owner, fetched in this task (paper section 3: temporary ownership lets
   * several nodes hold a region "for data sharing"; one reading of it, for Fig. 21). */
  int master_serves_copies;
} nw_sched_config;

/* One device of the cluster as the scheduler sees it (model-based policies, sched/). */
typedef struct nw_device_desc {
  nw_device_kind kind;
  int cores;    /* a CPU device's cores (its work-group), 1 for a single core; 0 for a GPU */
  double flops; /* nominal flop/s (the platform's speed times cores); 0 when unknown (real) */
  /* A GPU stream: which GPU of its node it runs on (the streams of one GPU share its flops,
   * which each of them lists); unused for a CPU. */
  int gpu;
  /* Bytes/s its kernels stream from memory (a CPU device: its cores' share of the node's host
   * memory bandwidth; a GPU: its own memory's); 0 when unknown. With a kind's bytes model, a
   * subtask takes max(flops / flops, bytes / mem_bw), as the simulator charges it. */
  double mem_bw;
  /* A GPU: the threads that fill it (its platform's fill_threads): a launch of fewer computes
   * at its share of `flops` (nw_gpu_launch_share); 0 when unknown: every launch has it all. */
  double fill_threads;
  /* A many-task GPU's lane (--gpu-mode many-task; GeMTC's scheme), else all 0:
   * - lane_flops: the flop/s of the worker warp that runs a lane's subtask (the GPU's speed
   *   over its workers), whatever the kernel's width; replaces the launch share.
   * - lanes_per_worker: lanes over workers where the GPU has more lanes than workers (then a
   *   lane's subtask waits for a worker in turn), else 1.
   * - lane_s: seconds a lane's subtask waits for its bundle: it is published with the whole
   *   bundle it travels in, so its round trip holds a bundle's host time.
   * - stage_s: seconds of the host stage every subtask of the GPU passes through one at a
   *   time (packing, the result's polling, a share of its bundle's copy). Shared by the GPU's
   *   lanes, it bounds the GPU's tasks/s however many lanes it has (heft_rules.h).
   * A subtask of w flops then occupies its lane max(w / lane_flops + lane_s,
   * w / lane_flops * lanes_per_worker): waiting for its bundle overlaps the other lanes'
   * turns at the workers. */
  double lane_flops, lanes_per_worker, lane_s, stage_s;
} nw_device_desc;

typedef struct nw_node_config {
  int id;
  int nodes;
  int functional; /* real bytes and kernels (1) or sizes only (0) */
  /* Count the pages of its copies of spaces the node's handlers write first
   * (nw_stats.space_pages_fresh, core/data/touched.h) on a node without GPUs: where they fault
   * (a backend with bytes) or where they are priced (a simulator whose platform charges them,
   * phantom data included). Off, nothing is marked: marking every page a large phantom run
   * moves costs it time, for a count nothing would use. */
  int count_space_pages;
  /* CPU views hold exactly the subscribed bytes and writes outside them fail the run
   * (viewcheck.h); functional mode only. */
  int check_views;
  int trace;   /* record an execution trace (trace.h; --trace) */
  int devices; /* local devices: CPU work-groups, then GPU streams */
  /* Per local device: its kind and, for a GPU stream, which of the node's GPUs it runs on
   * (streams of one GPU share its memory and cache; -1 for a CPU). */
  nw_device_kind device_kind[NW_MAX_DEVICES_PER_NODE];
  int device_gpu[NW_MAX_DEVICES_PER_NODE];
  /* Per local CPU device: the cores it runs a subtask's work-items on. 0 or 1: one core; more:
   * a work-group whose size the core tunes per task (paper 4.3.1, core/device/workgroup.h). */
  int device_cores[NW_MAX_DEVICES_PER_NODE];
  int gpus;                                  /* GPUs of this node */
  uint64_t gpu_memory[NW_MAX_GPUS_PER_NODE]; /* each one's memory budget in bytes */
  int devices_per_node[NW_MAX_NODES];        /* every node's device count, for the initial split */
  /* Every device of the cluster, node by node (devices_per_node), owned by the backend for the
   * node's life; NULL when the backend does not say (then a remote device counts as a CPU of
   * one core of unknown speed). */
  const nw_device_desc *cluster;
  /* Transfer models for policies that weigh data movement (dmda): the network between two
   * nodes and the host<->GPU link, bandwidth in bytes/s and latency in s (the simulator reads
   * them from its platform); a bandwidth of 0 is unknown. */
  double net_bandwidth, net_latency, pcie_bandwidth, pcie_latency;
  /* A node's host memory bandwidth, bytes/s, for the roofline split (B_dram of the PRS paper;
   * the simulator reads it from the platform's dram_bw property); 0: unknown. */
  double dram_bandwidth;
  nw_sched_config sched;
  const nw_task_kind *const *kinds; /* the application's task kinds, NULL-terminated */
  /* Node 0: the run's performance model (sched/perfmodel.h), fed with every node's
   * measurements and read by model-based policies; NULL: none. calibrate: the policies
   * calibrate kinds it does not know instead of predicting from the cost model. */
  struct nw_perfmodel *perfmodel;
  int calibrate;
  int measure; /* every node: node 0 has a model, so send it the measured durations */
  /* Reduction data between nodes goes run-length encoded (paper 4.6; data/rle.h); functional
   * mode only, since phantom data has no bytes to encode. */
  int compress_network;
  /* A GPU subtask's result for a reduced space is run-length encoded on the GPU before it is
   * copied to the host, and decoded there (paper 4.6; backend.h, nw_copy.encode); functional
   * mode only. */
  int compress_gpu;
  /* The run survives lost nodes other than node 0 (core/node/recover.c): node 0 keeps a replica
   * of every space's last completed state, messages carry the recovery epoch, and a lost node
   * (NW_EVENT_NODE_LOST) rolls back the tasks under way and runs them again on the others. A
   * backend that can lose nodes (the simulator with --fail) sets it; it costs a copy of every
   * task's results sent to node 0. */
  int resilient;
} nw_node_config;

nw_status nw_node_create(const nw_node_config *cfg, nw_backend backend, nw_node **out);
/* Handles one event; the node takes ownership of what the event carries. */
void nw_node_handle(nw_node *n, nw_event *ev);
/* True once node 0 has announced the end of the run and this node has no work in flight. */
int nw_node_finished(const nw_node *n);
const nw_stats *nw_node_stats(const nw_node *n);
/* What the node recorded with cfg.trace (trace.h); empty otherwise. */
const struct nw_trace *nw_node_trace_records(const nw_node *n);
void nw_node_destroy(nw_node *n);

/* The driver's runtime handle. post() must hand the call to node 0 as NW_EVENT_DRIVER and block
 * the calling (driver) thread until node 0 calls driver_return for it. */
struct nw_runtime {
  void (*post)(void *be, nw_driver_call *call);
  void *be;
  /* The driver's task handles not yet destroyed (api.c): a dependency must name one. */
  struct nw_task *live_tasks;
  uint64_t submitted; /* tasks submitted so far: the next one's nw_task.seq */
  /* The task whose spawn callback the driver's thread is running, innermost first (api.c). */
  struct nw_task *spawning;
  /* Spaces destroyed inside a spawn callback, freed at the run's end (api.c). */
  struct nw_space *doomed_spaces;
  int functional;
  int nodes;
  int native_gpus; /* GPU subtasks run the kinds' CUDA kernels (not emulated ones) */
  char error[512];
};

/* Ends the run: posted by the backend's driver thread after the application main returns. */
void nw_runtime_shutdown(nw_runtime *rt);
/* Sets the runtime's error message (nw_runtime_error) and returns st: how a driver-side call
 * refuses (api.c, mapreduce.c). */
nw_status nw_runtime_fail(nw_runtime *rt, nw_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
