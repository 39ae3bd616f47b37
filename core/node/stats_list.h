/* stats_list.h: the one list of a run's counters. Each row becomes a field of nw_stats
 * (stats.h), is combined over nodes into the run's total (run.c) and, unless its place is
 * `none`, is a key of `narwhal run --json` (lib/report.c), and so a column a sweep can ask for.
 * Adding one: docs/design/recipes/add-a-result-key.md.
 *
 * X(type, field, key, combine, place):
 *   type     uint64_t, double or int: what the node counts in.
 *   field    its name in nw_stats, where the node (or its backend) adds to it.
 *   key      its --json key; the field's name but for `subtasks` and `tasks`.
 *   combine  how the run's total is made from the nodes': `sum`; `max` (the largest); `node0`
 *            (node 0's alone: what only the driver's node knows).
 *   place    where in the --json object the key goes, among the keys that are no counters:
 *            `run` after gflops; `data` after transfer_frequency_received; `roofline` after
 *            sched, null unless the policy is roofline; `gpu` after the roofline keys;
 *            `locality` after "locality"; `cache` after "gpu_cache"; `faults` inside
 *            "faults", printed with a fault plan only; `none` not printed.
 * Within a place the keys follow the list's order: --json's keys are a contract (extended,
 * never renamed or moved), so a new row goes at the end of the list. A `none` row's key is
 * the one it would print as.
 *
 * Not rows, by choice: values derived from rows (transfer_frequency, agglomeration_mean:
 * ratios, made in run.c and report.c); the runtime's costs (nw_rt_costs: arrays per kind of
 * event, printed nested as "runtime_costs"); counters per device (nw_device_stats, the
 * "devices" array) and per node ("per_node": four of these rows, node by node); and the text
 * report, which words its counters in sentences with units.
 *
 * Block comments only inside the list: a // comment would swallow the lines after it. */
#ifndef NW_STATS_LIST_H
#define NW_STATS_LIST_H

// clang-format off
#define NW_STATS_COUNTERS(X)                                                                       \
  /* subtasks executed and committed */                                                            \
  X(uint64_t, subtasks_executed, "subtasks", sum, run)                                             \
  X(uint64_t, steals_attempted, "steals_attempted", sum, run) /* by this node's devices */         \
  X(uint64_t, steals_succeeded, "steals_succeeded", sum, run)                                      \
  /* of which to this node's own steal agent */                                                    \
  X(uint64_t, steals_local_attempted, "steals_local_attempted", sum, run)                          \
  X(uint64_t, steals_local_succeeded, "steals_local_succeeded", sum, run)                          \
  /* payload bytes this node sent to other nodes */                                                \
  X(uint64_t, bytes_network, "bytes_network", sum, run)                                            \
  /* of which sent at prefetch priority (NW_CHANNEL_PREFETCH) */                                   \
  X(uint64_t, bytes_prefetched, "bytes_prefetched", sum, run)                                      \
  /* Space bytes that arrived here in answer to fetches (subtasks' reads, the driver's reads;      \
   * not placements, not reductions' partial results), and of those the bytes that had never       \
   * arrived here before: per space, over the whole run, whatever version they held (space.c's     \
   * `received` set). Stale replies, dropped on arrival, crossed the network: counted. */          \
  X(uint64_t, bytes_received, "bytes_received", sum, run)                                          \
  X(uint64_t, bytes_received_unique, "bytes_received_unique", sum, run)                            \
  /* The same seen from the sender: space bytes this node sent in answer to fetches, and those     \
   * it had never sent before. served / served_unique is how many nodes a byte went to, the        \
   * paper's transfer frequency (Fig. 21, "data sent per node"). */                                \
  X(uint64_t, bytes_served, "bytes_served", sum, run)                                              \
  X(uint64_t, bytes_served_unique, "bytes_served_unique", sum, run)                                \
  /* Filled by the backend from its send queue (core/data/sendq.h): demand transfers it started    \
   * ahead of a prefetch queued before them, i.e. how often the priority changed the order. */     \
  X(uint64_t, demand_overtakes, "demand_overtakes", sum, data)                                     \
  /* Bytes commits copied from subtasks' private write views into the node's copy; none where      \
   * kernels write in place (device/pipeline.c, writes_in_place). */                               \
  X(uint64_t, bytes_view_copies, "bytes_view_copies", sum, data)                                   \
  /* Bytes copied from the node's copy into subtasks' private read-write views at launch: the     \
   * subscribed rows only, not the span between them (device/pipeline.c, fill_view). */           \
  X(uint64_t, bytes_view_fills, "bytes_view_fills", sum, data)                                     \
  /* Row runs (nw_region_runs) the node's copies of data moved: a data message's bytes             \
   * gathered or scattered, a commit's view copies; counted in the simulator too, where no byte    \
   * moves, so that it prices the copies as calibration measured them. */                          \
  X(uint64_t, copy_runs, "copy_runs", sum, data)                                                   \
  /* Bytes gathered from the node's copy of data into messages it sent (a read's reply, data      \
   * handed to a new owner): the handler copies them, in row runs counted above; counted in the    \
   * simulator too, which prices them as the event's bytes (rt_KIND_per_byte_gather). */          \
  X(uint64_t, bytes_gathered, "bytes_gathered", sum, data)                                         \
  /* Reductions (paper 4.5): bytes this node combined (a commit with earlier subtasks'             \
   * results, or a child's partial result in the tree), and the partial results it sent its        \
   * parent in the tree (raw size, and what went on the wire after compression). */                \
  X(uint64_t, bytes_reduced, "bytes_reduced", sum, data)                                           \
  X(uint64_t, bytes_reduction_raw, "bytes_reduction_raw", sum, data)                               \
  X(uint64_t, bytes_reduction_sent, "bytes_reduction_sent", sum, data)                             \
  /* raw bytes it run-length encoded or decoded (on its CPU) */                                    \
  X(uint64_t, bytes_rle, "bytes_rle", sum, none)                                                   \
  /* GPU results for reduced spaces copied to the host: raw size, and what crossed the link        \
   * (with --compression gpu the encoding, else the raw bytes). */                                 \
  X(uint64_t, bytes_gpu_reduction_raw, "bytes_gpu_reduction_raw", sum, data)                       \
  X(uint64_t, bytes_gpu_reduction_sent, "bytes_gpu_reduction_sent", sum, data)                     \
  /* As the root of reduced spaces' trees: seconds from its TASK_FINISH to its last merge,         \
   * summed over tasks and spaces (the paper's inter-node reduction stage, Fig. 8). */             \
  X(double, reduction_tree_s, "reduction_tree_s", sum, data)                                       \
  X(uint64_t, tasks_concurrent_max, "tasks_concurrent_max", node0, data) /* most at once */        \
  X(uint64_t, tasks_run, "tasks", node0, data)                           /* tasks started */       \
  X(uint64_t, tasks_nested, "tasks_nested", node0, data) /* of those, nested in another */         \
  /* first submission, last completion (from the run's start) and the cost-model work of all       \
   * tasks: the makespan's and gflops' parts (nw_run_result) */                                    \
  X(double, task_first_submit_s, "task_first_submit_s", node0, none)                               \
  X(double, task_last_complete_s, "task_last_complete_s", node0, none)                             \
  X(double, total_flops, "total_flops", node0, none)                                               \
  X(double, demand_wait_s, "demand_wait_s", sum, data) /* its devices' demand_wait_s, summed */    \
  X(uint64_t, messages_control, "messages_control", sum, data) /* sent to other nodes */           \
  X(uint64_t, messages_data, "messages_data", sum, data)       /* sent to other nodes */           \
  /* ownership updates sent (paper section 3, steps 2-4) */                                        \
  X(uint64_t, ownership_messages, "ownership_messages", sum, data)                                 \
  X(uint64_t, fetch_requests, "fetch_requests", sum, none) /* fetch requests this node issued */   \
  /* data replies for an older version of their space, dropped */                                  \
  X(uint64_t, stale_data_dropped, "stale_data_dropped", sum, data)                                 \
  /* fetch requests made under an older version of their space (data of an ended task), dropped    \
   * by the master or owner instead of answered */                                                 \
  X(uint64_t, stale_fetches_dropped, "stale_fetches_dropped", sum, data)                           \
  /* messages dropped because they were sent before a recovery (core/node/recover.c) */            \
  X(uint64_t, stale_epoch_dropped, "stale_epoch_dropped", sum, none)                               \
  /* running subtasks this node's devices gave a copy of */                                        \
  X(uint64_t, multi_assigned, "multi_assigned", sum, data)                                         \
  /* copies run here that finished first (the later device) */                                     \
  X(uint64_t, multi_assign_wins, "multi_assign_wins", sum, data)                                   \
  /* instances here whose result was (or will be) discarded */                                     \
  X(uint64_t, cancelled, "cancelled", sum, data)                                                   \
  /* stealing rounds begun before the device ran dry */                                            \
  X(uint64_t, prosteal_rounds, "prosteal_rounds", sum, data)                                       \
  /* node 0: measured durations recorded into the run's model */                                   \
  X(uint64_t, perf_samples, "perf_samples", sum, data)                                             \
  /* Events the node's loop handled (messages, kernel and copy completions, timers, driver         \
   * calls): the simulator's unit of work, so its count per subtask shows how the cost of a        \
   * run grows with the cluster (tests/sim/events_per_subtask.sh). */                              \
  X(uint64_t, events_handled, "events_handled", sum, data)                                         \
  /* The transfer models the node was given (nw_node_config): bytes/s and s; node 0's are the      \
   * run's (the largest over nodes in a sum). */                                                   \
  X(double, net_bandwidth, "net_bandwidth", max, data)                                             \
  X(double, net_latency, "net_latency", max, data)                                                 \
  X(double, pcie_bandwidth, "pcie_bandwidth", max, data)                                           \
  X(double, pcie_latency, "pcie_latency", max, data)                                               \
  /* Node 0 only, under the roofline policy (sched/roofline.c): its last task's split (the         \
   * CPUs' fraction p, the line of equation (8), 0 without speeds; the kind's flops per byte on    \
   * a CPU; the ridge points, null where infinite; equation (9)'s transfer share of a GPU          \
   * block), and the subtasks it dealt CPU devices, cluster-wide, over all tasks. */               \
  X(double, roofline_p, "roofline_p", node0, roofline)                                             \
  X(int, roofline_range, "roofline_range", node0, roofline)                                        \
  X(double, roofline_intensity, "roofline_intensity", node0, roofline)                             \
  X(double, roofline_ridge_cpu, "roofline_ridge_cpu", node0, roofline)                             \
  X(double, roofline_ridge_gpu, "roofline_ridge_gpu", node0, roofline)                             \
  X(double, roofline_overlap, "roofline_overlap", node0, roofline)                                 \
  X(uint64_t, roofline_cpu_subtasks, "roofline_cpu_subtasks", node0, roofline)                     \
  /* Filled by the backend (the simulator): kernel launches on its GPUs, the subtasks they ran     \
   * (more than the launches where --agglomerate put several in one), and the largest launch. */   \
  X(uint64_t, gpu_launches, "gpu_launches", sum, gpu)                                              \
  X(uint64_t, gpu_launch_subtasks, "gpu_launch_subtasks", sum, gpu)                                \
  X(uint64_t, gpu_launch_largest, "gpu_launch_largest", max, gpu)                                  \
  /* Filled by the simulator: transfers its GPUs' copy engines made over PCIe, fewer than the      \
   * copies where --pack-copies put several in one. */                                             \
  X(uint64_t, gpu_copy_transfers, "gpu_copy_transfers", sum, gpu)                                  \
  /* Filled by the simulator (node 0's, for the run): subtasks that devices ran alone, timed by    \
   * the measured model (--perfmodel) or by the cost model's flops at the host's speed. */         \
  X(uint64_t, priced_by_model, "priced_by_model", sum, gpu)                                        \
  X(uint64_t, priced_by_cost_model, "priced_by_cost_model", sum, gpu)                              \
  /* Locality (paper 4.3.4), counted whether locality-aware scheduling is on or off: the bytes     \
   * that committed subtasks read, and how many of those their node held at the task's start       \
   * (owned, or a still-valid copy kept from an earlier task). */                                  \
  X(uint64_t, locality_read_bytes, "locality_read_bytes", sum, locality)                           \
  X(uint64_t, locality_local_bytes, "locality_local_bytes", sum, locality)                         \
  /* GPU software caches (paper 4.4): subscriptions found there */                                 \
  X(uint64_t, cache_hits, "cache_hits", sum, cache)                                                \
  /* subscriptions that had to be copied in; live entries evicted to make room */                  \
  X(uint64_t, cache_misses, "cache_misses", sum, cache)                                            \
  X(uint64_t, cache_evictions, "cache_evictions", sum, cache)                                      \
  X(uint64_t, bytes_h2d, "bytes_h2d", sum, cache) /* bytes copied host to GPU */                   \
  /* bytes copied GPU to host (what crossed: an encoding's length) */                              \
  X(uint64_t, bytes_d2h, "bytes_d2h", sum, cache)                                                  \
  /* Surviving lost nodes (core/node/recover.c), counted on node 0: recoveries made, tasks         \
   * rolled back and run again, subtasks those had committed (their work done twice), and the      \
   * time from each rolled-back task's start to its restart (work thrown away, the loss's          \
   * detection and the recovery itself). */                                                        \
  X(uint64_t, recoveries, "recoveries", sum, faults)                                               \
  X(uint64_t, tasks_restarted, "tasks_restarted", sum, faults)                                     \
  X(uint64_t, subtasks_reexecuted, "subtasks_reexecuted", sum, faults)                             \
  X(double, time_lost_s, "time_lost_s", sum, faults)                                               \
  /* (fetch, owner) pairs a space's master split fetches into: each costs at least one request     \
   * and one reply, the data protocol's minimum (benchmarks/sim-scale.sh) */                        \
  X(uint64_t, fetch_owners, "fetch_owners", sum, data)                                             \
  /* Bytes a space's master answered from copies it had fetched, not owned (--master-serves    \
   * copies) */                                                                                    \
  X(uint64_t, bytes_served_copies, "bytes_served_copies", sum, data)                               \
  /* Pages of 4 KiB the node touched first in new private views (core/device/bufpool.h): each a   \
   * page fault on the node's thread, which the simulator prices as rt_page_fresh. */              \
  X(uint64_t, view_pages_fresh, "view_pages_fresh", sum, data)                                     \
  /* Pages of 4 KiB of the node's copies of spaces that CPU kernels writing in place touched      \
   * first (the counted copies of space_pages_fresh): page faults inside the kernel, which the     \
   * simulator prices as rt_page_fresh in the kernel's time */                                     \
  X(uint64_t, kernel_pages_fresh, "kernel_pages_fresh", sum, data)                                 \
  /* Pages of 4 KiB of its copies of spaces of 32 MiB or more the node's handlers wrote first      \
   * (placements, data received, results committed, driver writes; core/data/touched.h): page      \
   * faults, such a copy being mapped fresh, which the simulator prices as rt_KIND_per_space_page  \
   * (docs/experiments/space-first-touches.md). With bytes, or where a platform prices them; not   \
   * on nodes with GPUs, whose copies are pinned (touched) when made. */                           \
  X(uint64_t, space_pages_fresh, "space_pages_fresh", sum, data)                                   \
  /* Node 0, given a model (--perfmodel): subtasks whose kernel that model, as given, could       \
   * time; what their kernels took (CPU time on hardware, the simulated duration in simulation)    \
   * and what the model predicted for them. Their ratio tells a kernel's drift between the        \
   * calibration and this run from the rest of a simulation's error (narwhal validate). */         \
  X(uint64_t, kernels_compared, "kernels_compared", sum, gpu)                                      \
  X(double, kernels_measured_s, "kernels_measured_s", sum, gpu)                                    \
  X(double, kernels_predicted_s, "kernels_predicted_s", sum, gpu)                                  \
  /* Re-sent after stealing or multi-assign (paper 5.7.3; core/device/resend.h): bytes this        \
   * node fetched for a subtask that another node had already fetched for that same subtask        \
   * before it was stolen from there (prefetched) or copied (multi-assign): the two fetches'       \
   * overlap, byte for byte. 0 where a device of the same node takes it (the node holds them). */  \
  X(uint64_t, bytes_resent, "bytes_resent", sum, data)                                             \
  /* Filled by the simulator with --agglomerate-mode static (core/device/agglo.h): launches that  \
   * took fewer than N subtasks, the edge case where no more could come for their task. */        \
  X(uint64_t, gpu_launch_short, "gpu_launch_short", sum, gpu)                                      \
  /* Of bytes_network and messages_data: what the driver's placements between tasks sent           \
   * (nw_space_place; space.c, nw_space_give): untimed set-up, not a task's transfers. */          \
  X(uint64_t, bytes_placed, "bytes_placed", sum, data)                                             \
  X(uint64_t, messages_placed, "messages_placed", sum, data)                                       \
  /* A new counter's row goes above this line. */
// clang-format on

#endif
