/* sim_mtc.h: a modelled GPU in many-task mode (--gpu-mode many-task), GeMTC's scheme
 * ("GeMTC: GPU-enabled Many-Task Computing", Krieder, Wozniak, Armstrong, Wilde, Katz,
 * Grimmer, Foster, Raicu; sections 3 and 5). The GPU's lanes do not launch kernels: each puts
 * its subtask in the GPU's incoming queue (core/device/mtc_queue.h); a bundler sends what is
 * queued, at most --mtc-bundle subtasks, to the device in one bundle; a resident kernel's
 * worker warps take the published subtasks one each, in order, and run them.
 *
 * Costs (GPU-host properties; platforms/README.md):
 *   - the resident kernel's launch_latency, paid once, before the first bundle;
 *   - per bundle: mtc_bundle_cost seconds (default: twice the PCIe route's latency, for the
 *     copy of the bundle and the copy of the queue's new tail), plus per subtask in it
 *     mtc_task_cost seconds (default 0: the host's packing and the result's polling, which
 *     GeMTC's Fig. 9 measures at ~44 us on a K20X) and its 48-byte descriptor over PCIe;
 *   - a partial bundle waits at most mtc_flush seconds for more (default: the bundle cost),
 *     as GeMTC's buffer "flushes it periodically or when it is full";
 *   - each subtask runs on one of mtc_workers workers (default: the GPU's lanes) at most
 *     speed / workers flop/s: a warp cannot use the whole GPU, however idle the others are.
 * A subtask's data still moves as the core stages it, through the GPU's copy engines.
 */
#ifndef NW_SIM_MTC_H
#define NW_SIM_MTC_H

#include <stddef.h>

#include "sim_world.h"

/* Sets up GPU g of node sn for many-task mode from its host's properties, for a run whose
 * GPUs have `lanes` lanes each. NW_ERR_ARG with a one-line reason naming the platform file, the
 * host and the property; NW_ERR_NOMEM. */
nw_status sim_mtc_open(sim_node *sn, int g, int lanes, char *why, size_t why_len);
/* What a policy predicts with for a lane of many-task GPU g of `lanes` lanes (core/node/node.h:
 * lane_flops, lanes_per_worker, lane_s, stage_s): one worker's speed, lanes over workers, a
 * bundle's host time (a bundle holds at most --mtc-bundle subtasks, and at most one per lane),
 * and the bundler's time per subtask, its bundle's cost shared by the bundle. */
void sim_mtc_describe(const sim_gpu *g, int lanes, nw_device_desc *d);
/* Starts its bundler and its workers (stack: the workers' stack size, KiB). */
void sim_mtc_start(sim_gpu *g, unsigned stack);
/* A lane hands subtask e to the GPU's incoming queue. */
void sim_mtc_submit(sim_gpu *g, nw_exec *e);
/* Frees what sim_mtc_open made (the execs left in the queues are the core's). */
void sim_mtc_free(sim_gpu *g);

#endif
