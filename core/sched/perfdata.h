/* perfdata.h: a run's measurements feeding its performance model (perfmodel.h).
 *
 * Every node measures the subtasks it runs (the kernel's time, StarPU's measure) and keeps
 * them until the task ends here; then a node other than 0 sends them to node 0
 * (MSG_PERF_SAMPLES), which records everything into the run's model (nw_node_config.perfmodel):
 * the model lives where the cluster-wide policies decide. Model-based policies ask
 * nw_perf_predict; the simulator asks nw_perf_exec_seconds for a subtask's duration when the
 * run was given a measured model (StarPU's SimGrid mode).
 */
#ifndef NW_PERFDATA_H
#define NW_PERFDATA_H

#include "node_internal.h"
#include "perfmodel.h"

/* The arch string of a device in the model: "gpu", "cpu" (one core) or "cpuN" (a work-group
 * running a subtask on N cores). */
void nw_perf_arch(nw_device_kind kind, int cores, char out[NW_PERFMODEL_ARCH_MAX + 1]);
/* A subtask's footprint of sizes (a hash of its per-space read and write sizes) and its data
 * bytes. The model's footprint adds the subtask's flops (nw_perf_footprint_flops): observe,
 * predict and exec_seconds do. */
void nw_perf_shape(const nw_task_state *t, const nw_region *read, const nw_region *write,
                   uint64_t *footprint, uint64_t *size);
/* An exec's kernel took `seconds`: kept for node 0's model. */
void nw_perf_observe(nw_node *n, const nw_exec *e, double seconds);
/* What this node measured goes to node 0 (node 0 recorded its own already): before each
 * count of committed subtasks, and at the task's end (a losing copy's measurement). */
void nw_perf_flush(nw_node *n);
void nw_perf_on_samples(nw_node *n, int src, nw_reader *r);
/* Predicted seconds of a subtask of kind k with this footprint of sizes, size and cost-model
 * flops (0: not known) on a device (kind, cores); 1 on success, 0 when the run's model does
 * not know it. */
int nw_perf_predict(nw_node *n, const nw_task_kind *k, nw_device_kind kind, int cores,
                    uint64_t footprint, uint64_t size, double flops, double *seconds);
/* The simulator: the model's duration of an exec (its kind, its device's arch and its items,
 * its subtask's footprint and flops), and where it came from (NW_PRICE_UNCALIBRATED: the
 * model does not know it). */
nw_price_source nw_perf_exec_seconds(const nw_exec *e, nw_device_kind kind, nw_perfmodel *m,
                                     double *seconds);
void nw_perf_free(nw_node *n);

#endif
