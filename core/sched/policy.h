/* policy.h: the scheduling policy table, and what a policy may call.
 *
 * Every scheduler of Narwhal is one file that fills one nw_policy (StarPU's struct
 * starpu_sched_policy is the model: init and deinit, push of ready work, pop for an idle
 * device, notification of a finished subtask), chosen per run by name (--sched). The device
 * pipeline (device/pipeline.c) drives the table and never knows which policy it runs; a
 * policy reaches the pipeline only through the calls declared below and a device's queue only
 * through device/queue.h.
 *
 * Scheduling is over the ready work of every running task, not inside one task. A task's
 * subtasks are independent and all ready at its start, so "push" happens at task start
 * (task_start); each device has one queue and one pipeline for every task (queue.h), so a
 * device busy with one task's subtask is busy for all, and "pop" (dry) is asked when a device
 * has nothing left of any task. The scheduler is cluster-wide: node 0 sees every device of the
 * cluster (nw_node_config.cluster), so a central policy decides there and sends each node its
 * share; a distributed one (unicorn, ws) decides on each node.
 *
 * A policy's state: what it keeps across tasks lives in its own struct on each node (n->sched,
 * made by init: per device, or cluster-wide at node 0), what it keeps per task in
 * t->policy_state; the generic per-task device record (nw_device_slot) holds only what the
 * pipeline measures. A policy that names tasks in its state drops them in task_forget.
 *
 * A subtask's life, file by file: the policy deals it to a device's queue (sched/<policy>.c);
 * the pipeline takes it, computes its subscriptions and fetches its reads
 * (device/pipeline.c, data/space.c), stages it on a GPU (device/gpu_stage.c), runs it
 * (device/exec.c through the backend), and commits its result (device/pipeline.c, then
 * node/task.c at the task's end).
 */
#ifndef NW_POLICY_H
#define NW_POLICY_H

#include "node_internal.h"

typedef struct nw_policy {
  const char *name;
  const char *summary; /* one line, for `--sched help` and the README */
  /* What sets apart tables that share one file's hooks (dm's data penalty, lws's victim
   * order): a struct of that file's own, which the shared code reads from n->policy, so that
   * no code asks which table it runs. NULL where a file has one table. */
  const void *variant;
  /* Needs every node's local bytes of every subtask at the task's start (the affinity matrix
   * of sched/locality_sched.c), so the task's subtasks x nodes is bounded. May be NULL. */
  int (*uses_affinity)(const nw_node *n);
  /* Makes the policy's state on node n (n->sched), when the node is made and again after a
   * recovery (fini first). May be NULL: it keeps none. */
  nw_status (*init)(nw_node *n);
  void (*fini)(nw_node *n);
  /* A task starts on this node (every node calls it, in task order): push its subtasks (now,
   * or once a message brings node 0's decision) and call nw_pipeline_go(n, t). Required. */
  void (*task_start)(nw_node *n, nw_task_state *t);
  /* Device d has nothing queued and nothing in hand, of any task (StarPU's pop for an idle
   * worker). The policy gives it work (nw_pipeline_give), makes it wait for an answer
   * (nw_pipeline_wait_for_work), or retires it until new work appears (nw_pipeline_retire:
   * nw_pipeline_go offers it to dry again). Required. */
  void (*dry)(nw_node *n, int d);
  /* Device d is executing: called after each step of its pipeline while it does (ProSteal;
   * asking ahead for the next subtask). May be NULL. */
  void (*busy)(nw_node *n, int d);
  /* The next subtask for device d, of any task: 1 with *t and *subtask, or 0 when it has none.
   * NULL: the queue's order (nw_queue_pop). dmdar takes a subtask whose data is here first. */
  int (*pop)(nw_node *n, int d, nw_task_state **t, uint64_t *subtask);
  /* An exec finished (kernel done, results on the host): e->started_s to now was its run.
   * May be NULL. */
  void (*executed)(nw_node *n, nw_exec *e);
  /* A finished exec: 1 when the policy takes it over (a multi-assigned copy, whose original
   * decides), 0 when the pipeline commits it. May be NULL (always 0). */
  int (*take_result)(nw_node *n, nw_exec *e);
  /* Whether a subtask that device d runs may ever run a second time at once elsewhere (a
   * multi-assigned copy) while its first instance still computes. The pipeline lets a kernel
   * write the node's copy of a space in place only where this says no: the instance that
   * loses must be droppable. NULL: never. */
  int (*may_run_twice)(const nw_node *n, int d);
  /* The task ends on this node (TASK_FINISH): no more work is dealt. May be NULL. */
  void (*task_end)(nw_node *n, nw_task_state *t);
  /* Task t is about to be freed here (it completed, or a recovery rolled it back): drop every
   * reference to it. May be NULL. */
  void (*task_forget)(nw_node *n, nw_task_state *t);
  /* A message of the policy (the types nw_msg_is_policy accepts). Set r->bad on a malformed
   * one. NULL: the policy sends none. */
  void (*on_message)(nw_node *n, int src, nw_msg_type type, nw_reader *r);
  /* A timer the policy set (n->be.ops->timer with a token of its own). May be NULL. */
  void (*on_timer)(nw_node *n, uint64_t token);
} nw_policy;

/* Every policy, NULL-terminated, in policies.def's order (the order `--sched help` lists). */
extern const nw_policy *const nw_policies[];
/* The policy called `name`, or NULL. */
const nw_policy *nw_policy_find(const char *name);

/* Message types that belong to the scheduling policy (routed to its on_message). */
int nw_msg_is_policy(nw_msg_type type);

/* Whether a task runs its subtasks on this node (one not finishing): if none does, no work is
 * left anywhere until a task starts (every node starts every task). */
int nw_tasks_running(const nw_node *n);

/* ---- the cluster's devices as node n knows them (policy.c) */

/* Devices of the whole cluster, and the first (cluster-wide index) of node `node`. */
int nw_cluster_devices(const nw_node *n);
int nw_cluster_first_device(const nw_node *n, int node);
/* Device g of the cluster: the backend's description (nw_node_config.cluster), or, without
 * one, node n's own devices as configured and every remote device taken for a CPU of one core
 * of unknown speed. */
nw_device_desc nw_cluster_device(const nw_node *n, int g);
/* A device's speed where none is known: StarPU 1.x's relative speed-ups per architecture
 * (starpu_worker_get_relative_speedup's defaults _STARPU_CPU_ALPHA = 1 per core and
 * _STARPU_CUDA_ALPHA = 13.33 per GPU). */
double nw_relative_speedup(nw_device_kind kind, int cores);

/* ---- what a policy may call in the pipeline (device/pipeline.c; the queue: queue.h) */

/* Appends a range of task t to device d's queue and, when the device waits for work, wakes
 * it (ending its wait for an answer). */
void nw_pipeline_give(nw_node *n, nw_task_state *t, int d, nw_range r);
/* Device d waits for an answer (a steal, a central queue): idle meanwhile, unless it has a
 * subtask in hand (then it asked ahead). */
void nw_pipeline_wait_for_work(nw_node *n, int d);
/* Device d gets no more work until new work appears (a task starts: nw_pipeline_go). */
void nw_pipeline_retire(nw_node *n, int d);
/* Device d idles until the policy's timer (unicorn's back-off after a failed round). */
void nw_pipeline_backoff(nw_node *n, int d);
/* Device d's queue gained work while it was waiting: let it run (its wait is over). */
void nw_pipeline_resume(nw_node *n, int d);

/* ---- the policies: one file each, registered by one line of policies.def */
#define NW_POLICY(x) extern const nw_policy nw_policy_##x;
#include "policies.def"
#undef NW_POLICY

#endif
