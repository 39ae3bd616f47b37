/* stats.h: counters a node keeps about a run, flat so a backend can gather them as bytes. */
#ifndef NW_STATS_H
#define NW_STATS_H

#include <stdint.h>

#define NW_STATS_MAX_DEVICES 64
/* Rows of the per-event-kind runtime costs (index: nw_event_kind, 1 to 5; row 0 unused). */
#define NW_STATS_EVENT_KINDS 6
/* A row's name: "message", "exec_done", "timer", "driver", "copy_done" ("" for row 0 and out
 * of range). The --json key of `runtime_costs` and, prefixed "rt_", the platform property
 * of its cost (run.c). */
const char *nw_stats_event_name(int kind);

/* What the real backend measures of the runtime's own costs, for `narwhal calibrate`, which
 * fits each kind of event's handling time as a + b * bytes (README, "Calibration"). Per kind
 * of event (index nw_event_kind): how many the loop handled, and the sums of the wall seconds
 * each took (y), of the bytes it moved (x: a message's length, a driver call's
 * nw_driver_call_bytes, the bytes its commits copied), of x * x and of x * y. Then the two
 * hand-offs of a CPU subtask between the event loop and its compute thread: launch to the
 * kernel's start, and the kernel's end to the start of handling its completion. */
typedef struct nw_rt_costs {
  uint64_t events[NW_STATS_EVENT_KINDS];
  double s[NW_STATS_EVENT_KINDS];
  double bytes[NW_STATS_EVENT_KINDS];
  double bytes_sq[NW_STATS_EVENT_KINDS];
  double bytes_s[NW_STATS_EVENT_KINDS];
  /* In a run that keeps a model, the handlers' CPU time as well (the handling thread's CPU
   * clock): where a rank's threads share a core, a handler's wall time also counts the time
   * its thread waited for the core, which the simulator charges as contention of its own. */
  uint64_t cpu_events[NW_STATS_EVENT_KINDS]; /* events whose CPU time was taken */
  double cpu_s[NW_STATS_EVENT_KINDS];
  double bytes_cpu_s[NW_STATS_EVENT_KINDS];
  double cpu_sq[NW_STATS_EVENT_KINDS]; /* the CPU times squared: a fit's residuals */
  /* The row runs its copies moved (nw_stats.copy_runs), for a fit over bytes and runs. */
  double runs[NW_STATS_EVENT_KINDS];
  double runs_sq[NW_STATS_EVENT_KINDS];
  double runs_bytes[NW_STATS_EVENT_KINDS];
  double runs_cpu_s[NW_STATS_EVENT_KINDS];
  uint64_t launches, dones;
  double launch_s, done_s;
  /* The event loop's spins (polling before it sleeps) that began while a kernel ran on its
   * rank: how many, their wall time and the loop thread's CPU time in them. Where the loop
   * has no core of its own, cpu / wall is the share of a core it took from the kernels. */
  uint64_t spins;
  double spin_s, spin_cpu_s;
} nw_rt_costs;

/* Adds x into sum, field by field (run.c). */
void nw_rt_costs_add(nw_rt_costs *sum, const nw_rt_costs *x);

typedef struct nw_device_stats {
  uint64_t subtasks;         /* subtasks executed and committed */
  double busy_s;             /* time spent executing */
  double finish_s;           /* when the device last finished a subtask */
  uint64_t steals_attempted; /* steal requests it made (its own node's agent included) */
  uint64_t steals_succeeded;
  uint64_t steals_local_attempted; /* of which to its own node's steal agent */
  uint64_t steals_local_succeeded;
  uint64_t multi_assigned;    /* its running subtasks that another device took a copy of */
  uint64_t multi_assign_wins; /* copies it ran that finished first */
  uint64_t cancelled;         /* instances it ran or held whose result was discarded */
  uint64_t prefetch_hits;     /* subtasks whose data was all there when their turn came */
  uint64_t bytes_fetched;     /* bytes its subtasks' reads asked other nodes for */
  double fetch_wait_s;        /* total time its subtasks waited for their data */
  /* Total time the device had a current subtask whose data had not all arrived: from when
   * the subtask became current (prefetched data still on the way counts from then, not from
   * the prefetch request) to when its last read arrived. What demand priority shortens. */
  double demand_wait_s;
  int kind;           /* nw_device_kind */
  uint64_t bytes_h2d; /* GPU: bytes copied host to device for its subtasks */
  uint64_t bytes_d2h; /* GPU: bytes copied device to host */
  int cores;          /* CPU: the cores it runs on (a work-group: more than one) */
  int workgroup_size; /* a CPU work-group: the size its last subtask ran with */
} nw_device_stats;

typedef struct nw_stats {
  uint64_t subtasks_executed;
  uint64_t steals_attempted; /* steal requests made by this node's devices */
  uint64_t steals_succeeded;
  uint64_t steals_local_attempted; /* of which to this node's own steal agent */
  uint64_t steals_local_succeeded;
  uint64_t bytes_network; /* payload bytes this node sent to other nodes */
  /* Space bytes that arrived here in answer to fetches (subtasks' reads, the driver's reads;
   * not placements, not reductions' partial results), and of those the bytes that had never
   * arrived here before: per space, over the whole run, whatever version they held (space.c's
   * `received` set). Stale replies, dropped on arrival, crossed the network: counted. */
  uint64_t bytes_received;
  uint64_t bytes_received_unique;
  /* The same seen from the sender: space bytes this node sent in answer to fetches, and those
   * it had never sent before. served / served_unique is how many nodes a byte went to, the
   * paper's transfer frequency (Fig. 21, "data sent per node"). */
  uint64_t bytes_served;
  uint64_t bytes_served_unique;
  uint64_t bytes_prefetched; /* of which sent at prefetch priority (NW_CHANNEL_PREFETCH) */
  /* Filled by the backend from its send queue (core/data/sendq.h): demand transfers it started
   * ahead of a prefetch queued before them, i.e. how often the priority changed the order. */
  uint64_t demand_overtakes;
  uint64_t messages_control;   /* control messages sent to other nodes */
  uint64_t messages_data;      /* data messages sent to other nodes */
  uint64_t ownership_messages; /* ownership updates sent (paper section 3, steps 2-4) */
  uint64_t fetch_requests;     /* fetch requests this node issued */
  uint64_t stale_data_dropped; /* data replies for an older version of their space, dropped */
  /* fetch requests made under an older version of their space (data of an ended task), dropped
   * by the master or owner instead of answered */
  uint64_t stale_fetches_dropped;
  /* Surviving lost nodes (core/node/recover.c), counted on node 0: recoveries made, tasks
   * rolled back and run again, subtasks those had committed (their work done twice), and the
   * time from each rolled-back task's start to its restart (work thrown away, the loss's
   * detection and the recovery itself). Messages dropped because they were sent before a
   * recovery, on every node. */
  uint64_t recoveries, tasks_restarted, subtasks_reexecuted;
  double time_lost_s;
  uint64_t stale_epoch_dropped;
  uint64_t multi_assigned;    /* running subtasks this node's devices gave a copy of */
  uint64_t multi_assign_wins; /* copies run here that finished first (the later device) */
  uint64_t cancelled;         /* instances here whose result was (or will be) discarded */
  uint64_t prosteal_rounds;   /* stealing rounds begun before the device ran dry */
  uint64_t perf_samples;      /* node 0: measured durations recorded into the run's model */
  /* Bytes commits copied from subtasks' private write views into the node's copy; none where
   * kernels write in place (device/pipeline.c, writes_in_place). */
  uint64_t bytes_view_copies;
  /* Row runs (nw_region_runs) the node's copies of data moved: a data message's bytes
   * gathered or scattered, a commit's view copies; counted in the simulator too, where no byte
   * moves, so that it prices the copies as calibration measured them. */
  uint64_t copy_runs;
  /* Reductions (paper 4.5): bytes this node combined (a commit with earlier subtasks'
   * results, or a child's partial result in the tree), and the partial results it sent its
   * parent in the tree (raw size, and what went on the wire after compression). */
  uint64_t bytes_reduced;
  uint64_t bytes_reduction_raw;
  uint64_t bytes_reduction_sent;
  uint64_t bytes_rle; /* raw bytes it run-length encoded or decoded (on its CPU) */
  /* GPU results for reduced spaces copied to the host: raw size, and what crossed the link
   * (with --compression gpu the encoding, else the raw bytes). */
  uint64_t bytes_gpu_reduction_raw;
  uint64_t bytes_gpu_reduction_sent;
  /* As the root of reduced spaces' trees: seconds from its TASK_FINISH to its last merge,
   * summed over tasks and spaces (the paper's inter-node reduction stage, Fig. 8). */
  double reduction_tree_s;
  /* Events the node's loop handled (messages, kernel and copy completions, timers, driver
   * calls): the simulator's unit of work, so its count per subtask shows how the cost of a
   * run grows with the cluster (tests/sim/events_per_subtask.sh). */
  uint64_t events_handled;
  /* The runtime's own costs, measured by the real backend (0 in simulation). */
  nw_rt_costs rt;
  /* The transfer models the node was given (nw_node_config): bytes/s and s; node 0's are the
   * run's (the largest over nodes in a sum). */
  double net_bandwidth, net_latency, pcie_bandwidth, pcie_latency;
  uint64_t cache_hits;      /* GPU software caches (paper 4.4): subscriptions found there */
  uint64_t cache_misses;    /* subscriptions that had to be copied in */
  uint64_t cache_evictions; /* live entries evicted to make room */
  uint64_t bytes_h2d;       /* bytes copied host to GPU */
  uint64_t bytes_d2h;       /* bytes copied GPU to host (what crossed: an encoding's length) */
  /* Locality (paper 4.3.4), counted whether locality-aware scheduling is on or off: the bytes
   * that committed subtasks read, and how many of those their node held at the task's start
   * (owned, or a still-valid copy kept from an earlier task). */
  uint64_t locality_read_bytes;
  uint64_t locality_local_bytes;
  double demand_wait_s; /* its devices' demand_wait_s, summed */
  /* Filled by the backend (the simulator): kernel launches on its GPUs, the subtasks they ran
   * (more than the launches where --agglomerate put several in one), and the largest launch. */
  uint64_t gpu_launches, gpu_launch_subtasks, gpu_launch_largest;
  /* Filled by the simulator: transfers its GPUs' copy engines made over PCIe, fewer than the
   * copies where --pack-copies put several in one. */
  uint64_t gpu_copy_transfers;
  /* Filled by the simulator (node 0's, for the run): subtasks that devices ran alone, timed by
   * the measured model (--perfmodel) or by the cost model's flops at the host's speed. */
  uint64_t priced_by_model, priced_by_cost_model;
  uint64_t tasks_concurrent_max; /* node 0 only: the most tasks that ran at once */
  uint64_t tasks_run;            /* node 0 only: tasks started */
  uint64_t tasks_nested;         /* node 0 only: of those, tasks nested in another */
  double task_first_submit_s;    /* node 0 only: first submission */
  double task_last_complete_s;   /* node 0 only: last completion */
  double total_flops;            /* node 0 only: cost-model work of all tasks */
  /* Node 0 only, under the roofline policy (sched/roofline.c): its last task's split (the
   * CPUs' fraction p, the line of equation (8), 0 without speeds; the kind's flops per byte on
   * a CPU; the ridge points; equation (9)'s transfer share of a GPU block), and the subtasks
   * it dealt CPU devices, cluster-wide, over all tasks. */
  double roofline_p, roofline_intensity, roofline_ridge_cpu, roofline_ridge_gpu;
  double roofline_overlap;
  int roofline_range;
  uint64_t roofline_cpu_subtasks;
  int devices;
  nw_device_stats device[NW_STATS_MAX_DEVICES];
} nw_stats;

#endif
