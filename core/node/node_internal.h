/* node_internal.h: the state of one node, shared by the core's files (not by backends).
 *
 * One struct holds everything a node knows (STYLE.md: "all state hangs off one struct"):
 * the address spaces it has seen, the tasks under way, its devices, and the driver call it is
 * serving (node 0). Only nw_node_handle() and the functions it calls change it.
 */
#ifndef NW_NODE_INTERNAL_H
#define NW_NODE_INTERNAL_H

#include <stdio.h>

#include "bufpool.h"
#include "chunked.h"
#include "directory.h"
#include "idmap.h"
#include "node.h"
#include "queue.h"
#include "reduce.h"
#include "region.h"
#include "tally.h"
#include "trace.h"
#include "wire.h"
#include "workgroup.h"

typedef struct nw_task_state nw_task_state;
typedef struct nw_held_fetch nw_held_fetch;
typedef struct nw_trace_ask nw_trace_ask; /* --trace: a fetch not yet answered (space.c) */
typedef struct nw_partial nw_partial;

/* Rounds of a reduction tree: enough for NW_MAX_NODES (node.h) nodes. */
#define NW_REDUCE_ROUNDS 16

/* One address space as this node knows it (paper section 3). */
typedef struct nw_space_state {
  uint64_t id, size, pitch;
  int master, creator;
  unsigned char *data; /* this node's copy, laid out as the space (functional mode only) */
  nw_region owned;     /* regions this node owns: its part of the ownership directory */
  nw_chunked resident; /* owned + fetched: the temporary ownership directory (chunked.h) */
  nw_region inflight;  /* requested, not yet arrived */
  /* Every byte that ever arrived here in a fetch's reply, and every byte this node ever sent
   * in one: for nw_stats.bytes_received_unique and bytes_served_unique only (no decision reads
   * them). A tally, not a region: see tally.h. */
  nw_tally received, served;
  /* Starts and ends here of tasks that write this space, and driver writes to it (each moves
   * it on by one). Every node sees each task start and end and each driver write, so the count
   * agrees between nodes for a given state of the bytes. A fetch carries the requester's version
   * and its data comes back with it: data asked for under an older version is stale and dropped
   * (space.c), since the task end reset `resident` and `inflight`, or the task's start may already
   * have committed results over those bytes (nw_space_new_version). */
  uint64_t version;
  /* Node 0: a task has bound this space, so other nodes may hold copies of its bytes and a
   * driver write must tell them (nw_space_claim). */
  int shared;
  nw_directory *dir; /* the master directory; only on the master */
  /* Node 0 of a resilient run: the space's bytes as the last completed task or driver write
   * left them (recover.c), functional data only. */
  unsigned char *replica;
  /* Master: update rounds under way for tasks that write the space (task.c). Meanwhile the
   * directory is half updated, so fetches are held and routed once the round settles. */
  int updating;
  nw_held_fetch *held;
  nw_trace_ask *asked; /* --trace only: this node's requests and when it made them */
  /* Node 0's task graph (graph.c): the last queued task to write the space, the queued ones
   * that read it since, and how many queued tasks bind it at all. */
  struct nw_submitted *writer;
  struct nw_submitted **readers;
  size_t nreaders, capreaders;
  uint64_t uses;
  struct nw_space_state *next;
} nw_space_state;

/* Why a node fetches data (paper 4.2): a demand fetch is for a subtask about to run (a
 * device's current one, a stolen or multi-assigned subtask it runs next, the driver's reads);
 * a prefetch is for the subtask pipelining anticipates (slot->next). The class travels in
 * MSG_FETCH, through the master's forwarding, to the owner, which sends the bytes on
 * NW_CHANNEL_DATA or NW_CHANNEL_PREFETCH accordingly. On the wire: one byte. */
typedef enum { NW_FETCH_DEMAND = 0, NW_FETCH_PREFETCH = 1 } nw_fetch_class;

/* What a steal hands over: ranges of subtask ids, in the order the stealer should run them. */
typedef struct nw_loot {
  nw_range *r;
  size_t n, cap;
} nw_loot;

/* A task's locality-aware scheduling state (locality_sched.c); only with sched.locality on. */
typedef struct nw_task_locality {
  uint64_t *read;       /* [s]: bytes subtask s reads (every node computes its own) */
  uint64_t *local;      /* [k * subtasks + s]: local(s, k); this node's row, all once assigned */
  uint32_t *owner;      /* [s]: the node of subtask s in the initial assignment */
  double *node_weight;  /* [k]: weight of node k as a victim of this node's stealers */
  double *dev_weight;   /* [g]: the same per device of the cluster (one-level stealing) */
  unsigned char *heard; /* node 0: the nodes whose vector arrived */
  int vectors;          /* node 0: how many */
  int assigned;         /* the assignment is here: devices have their queues */
  /* Node 0, every row in: the policy that asked for the matrix decides (NULL: the locality
   * assignment below). */
  void (*gathered)(nw_node *n, nw_task_state *t);
} nw_task_locality;

/* A subtask prepared on a device: subscriptions known, reads requested. */
/* A subtask's scratch buffer (nw_subscribe_scratch): its size, and its host bytes as the
 * subscription callback filled them (NULL without data, or where none was asked for). */
typedef struct nw_scratch {
  uint64_t bytes;
  unsigned char *buf;
  int with_buffer; /* in: allocate buf (functional data) */
  int filled;      /* the callback asked to fill it: a GPU copies it in */
} nw_scratch;

/* A subtask prepared on a device. Its arrays have one entry per bound space of its task (the
 * cache entries one more: the scratch buffer's, index nspaces), allocated with it
 * (nw_prepared_new): a task binds as many spaces as it needs. */
typedef struct nw_prepared {
  nw_task_state *task;
  uint64_t subtask;
  nw_region *read;
  nw_region *write;
  int waiting;       /* reads not yet all resident */
  double prepared_s; /* when its reads were requested */
  double current_s;  /* when it became its device's current subtask (for demand_wait_s) */
  double started_s;  /* when it started executing */
  /* Multi-assign (paper 4.3.3, multiassign.c). On the original assignee: where its copy runs
   * (copy_node < 0: none). On a copy: the original's node and device (origin_node < 0: not a
   * copy). lost: another instance won; discard this one's views when it ends. */
  int copy_node, copy_dev;
  int origin_node, origin_dev;
  int lost;
  /* On a GPU (gpu_stage.c): the cache entry holding each bound space's subscription on the
   * device, and how far staging got. */
  nw_cache_entry **entry; /* [nspaces]: the scratch buffer's */
  int gpu_stage; /* GPU_UNSTAGED, GPU_COPYING (room taken, copies under way), GPU_ON_DEVICE */
  nw_scratch scratch;
} nw_prepared;

enum { GPU_UNSTAGED = 0, GPU_COPYING, GPU_ON_DEVICE };

struct nw_exec {
  nw_task_state *task;
  int device;
  uint64_t subtask;
  double flops;
  double bytes; /* the kind's memory-side cost model (0 when it has none) */
  double started_s;
  nw_prepared *prep;
  int items; /* work-items: the cores of its work-group it runs on (1 elsewhere) */
  /* Arrays of one entry per bound space (views and gview one more: [nspaces] is the scratch
   * buffer's, if the subtask has one), allocated with the exec (pipeline.c). */
  nw_view *views;
  unsigned char **write_buf; /* private write views (functional) */
  size_t *write_cap;         /* their sizes, for the buffer pool */
  /* On a GPU: views with base = offset into the GPU's memory (nw_exec_run_gpu adds the
   * memory's base), and the device-to-host copies of its results still under way. */
  int gpu;
  nw_gpu_view *gview;
  nw_gpu_view *gview_run; /* gview with the memory's base added, as a kernel gets them */
  int copies_out;
  /* Checked views (viewcheck.h): private read views, write views' initial bytes. */
  unsigned char **check_read;
  unsigned char **check_shadow;
  uint64_t *check_len;
};

/* What a device is doing (its pipeline, pipeline.c). DEV_STEALING: idle, waiting for the work
 * its policy asked for (a steal, a central queue). DEV_BACKOFF: idle, its policy retries later.
 * DEV_RETIRED: idle, its policy found nothing to give it until new work appears (a task
 * starts). */
typedef enum {
  DEV_IDLE,
  DEV_WAITING,
  DEV_EXECUTING,
  DEV_STEALING,
  DEV_BACKOFF,
  DEV_RETIRED
} nw_dev_state;

/* One device of this node, across tasks: its queue and its pipeline. A device runs one
 * subtask at a time, whatever its task; the one it runs (or waits for data or room for) is
 * `current`, the one whose data pipelining fetches meanwhile is `next` (each may be of any
 * task: nw_prepared.task). */
typedef struct nw_device {
  nw_queue queue;
  nw_prepared *current;
  nw_prepared *next;
  nw_dev_state state;
  /* The policy asked for work for this device (a steal, a central queue's answer), also while
   * it executes (ProSteal, asking ahead): the answer gives it, the device waits for it. */
  int asked;
  nw_exec *running; /* the exec on the device now, for freeing at the end of a failed run */
} nw_device;

/* What one device did of one task: what it holds of it and how fast it ran it, the figures
 * the policies' rules read per task (a task's subtasks are alike; another task's are not). */
typedef struct nw_device_slot {
  uint64_t queued; /* its subtasks in the device's queue (queue.c keeps it) */
  uint64_t executed;
  double busy_s;
  double fetch_wait_s; /* total time its subtasks waited for data, and how many did */
  uint64_t fetches;
  double max_fetch_s;  /* longest wait for a subtask's data */
  double steal_wait_s; /* total time steal requests for it took to be answered, and how many */
  uint64_t steal_answers;
  uint64_t range_len; /* size of the range it works through (initial or last stolen) */
  nw_wg_search wg;    /* a CPU work-group: its size search for this task (paper 4.3.1) */
} nw_device_slot;

typedef struct nw_bound {
  nw_space_state *space;
  nw_access access;
  nw_reducer reduce; /* op 0: not reduced */
} nw_bound;

/* A task as one node runs it. */
struct nw_task_state {
  uint64_t id;
  const nw_task_kind *kind;
  nw_task_info info;
  unsigned char *conf;
  /* Per bound space (info.nspaces entries each, allocated at its start): the binding, the set
   * S of paper section 3, what this node held at the start (its temporary directory: what
   * "local" means for locality, paper 4.3.4, and its counters), the reduction tree's round,
   * and the sizes and pitches info points at. */
  nw_bound *bound;
  nw_access *access;   /* bound[i].access, as the subscription callbacks' checks take them */
  nw_device_slot *dev; /* one per local device: what it did of this task */
  /* Its subtasks in this node's device queues, and its place in the node's list of tasks
   * with some (queue.c): where a steal agent looks, without walking every running task. */
  uint64_t queued_here;
  struct nw_task_state *queued_next, *queued_prev;
  int ndev, nodes;
  nw_region *written;
  /* What this node held of each bound space when the task started (its temporary directory,
   * paper section 3): what "local" means for locality (paper 4.3.4) and its counters. */
  nw_region *start_resident;
  uint64_t *space_size, *space_pitch;
  nw_task_locality *loc; /* locality-aware scheduling; NULL when off */
  /* Subtasks of the tasks that were running when this one started: a policy that deals
   * ranges over the cluster's devices starts this task's there, so that tasks running at once
   * begin on different devices (0 for a task that started alone). */
  uint64_t deal_offset;
  /* The policy's own state for the task, freed with it by policy_state_free (may be NULL). */
  void *policy_state;
  void (*policy_state_free)(void *state);
  nw_exec **deferred; /* read-write views, applied at task end (transactional semantics) */
  size_t ndeferred, capdeferred;
  int finishing; /* TASK_FINISH seen */
  int running;   /* execs launched and not yet returned */
  int zombie;    /* forgotten, kept only until its running execs return */
  int aborted;   /* rolled back by a recovery (recover.c): its policy hears nothing more */
  /* Reduced spaces across nodes at the task's end (reduce_tree.c): the tree runs between
   * TASK_FINISH and step 2 below. Per bound space, the next round (-1: this node's part is
   * done), and the partial results children sent, per round, kept until their turn. */
  int reducing;       /* begun, and waiting for a child's partial result */
  double red_start_s; /* when this node's part began (TASK_FINISH) */
  int *red_round;
  nw_partial *(*red_in)[NW_REDUCE_ROUNDS]; /* [space][round]; allocated at the first one */
  nw_exec **parked; /* finished copies waiting for the original's verdict (multiassign.c) */
  size_t nparked, capparked;
  /* node 0 only */
  uint64_t done; /* subtasks committed anywhere */
  int masters_pending;
  /* Resilient runs (recover.c): when it started here, the MSG_BACKUP still awaited, and what
   * they brought, applied to the replica when the task completes. */
  double started_s;
  int backups_pending;
  struct nw_backup *backups;
  /* master only: ownership updates (paper section 3, step 3) */
  int updates_pending;
  int acks_pending;
  int master_started;
  nw_region *lost; /* [space slot * nodes + node]: regions that changed owner, per old owner */
  struct nw_task_state *next, *prev; /* the node's tasks in start order (or its zombies) */
};

/* A message that arrived for a task this node has not started yet: replayed at its start. */
typedef struct nw_stashed {
  uint64_t task;
  int src;
  void *buf;
  size_t len;
  struct nw_stashed *next;
} nw_stashed;

typedef enum {
  CALL_SPACE_CREATE = 1,
  CALL_SPACE_WRITE,
  CALL_SPACE_READ,
  CALL_SPACE_PLACE,
  CALL_TASK_SUBMIT,
  /* task NULL: wait until no queued task binds `space`, or (space NULL too) until no task is
   * queued at all (the driver's end) */
  CALL_TASK_WAIT,
  CALL_SPAWN_DONE, /* a task's spawn callback returned, with `status` (nested.c) */
  CALL_SHUTDOWN
} nw_call_kind;

struct nw_driver_call {
  nw_call_kind kind;
  nw_status status;
  nw_space *space;
  nw_task *task;
  uint64_t offset, length, step, count;
  int node;
  const void *src;
  void *dst;
  char error[512]; /* why, when status is not NW_OK and node 0 knows */
  /* A wait answered early: this task's spawn callback is due and the driver runs it, then
   * waits again (nested.c). */
  struct nw_task *spawn;
  /* driver.c: waits answered once the tasks that may start have started (complete_entry). */
  struct nw_driver_call *woken_next;
};

/* The driver's handles (api.c). */
struct nw_space {
  nw_runtime *rt;
  uint64_t id, size, pitch;
  struct nw_space *doomed_next; /* destroyed inside a spawn callback: freed at the run's end */
};

struct nw_task {
  nw_runtime *rt;
  uint64_t id;
  const nw_task_kind *kind;
  uint64_t subtasks;
  unsigned char *conf;
  size_t conf_size;
  /* Its bound spaces, nbound of them (room for capbound), grown by nw_task_bind: */
  int nbound, capbound;
  nw_space **space;
  nw_access *access;
  nw_reduce_op *reduce_op; /* 0: the space's writes may not overlap */
  nw_elem_type *reduce_type;
  uint64_t *space_size, *space_pitch; /* what a callback's nw_task_info points at */
  int submitted; /* the driver's: nw_task_submit was called (only the driver thread reads it) */
  /* Its place in the order of submission (from 1, given by nw_task_submit), and the tasks it
   * waits for besides what its spaces imply (nw_task_depend), all submitted before it, by
   * that number: node 0 finds them among its queued entries, since a handle may have been
   * destroyed by then. */
  uint64_t seq;
  uint64_t *deps;
  int ndeps;
  struct nw_submitted *entry;            /* node 0's: its queue entry while queued */
  struct nw_task *live_next, *live_prev; /* the runtime's live handles (api.c) */
  int started, complete;                 /* node 0's: TASK_START went out; every subtask done */
  /* Node 0 of a resilient run (recover.c): when it last started, and whether a recovery rolled
   * it back and has not started it again yet. */
  double started_s;
  int restart_pending;
  nw_status result;
  double flops; /* cost-model work of all subtasks (CPU) */
  /* Nested tasks (nested.c). parent: the task whose spawn callback created this one (NULL for
   * the driver's own). The driver's thread owns children/sibling and in_spawn; node 0 owns
   * body_done (its subtasks are done and published, it waits for its spawn callback and
   * children), spawn_returned and open_children (children submitted and not complete). */
  struct nw_task *parent, *children, *sibling;
  int in_spawn;
  int body_done, spawn_returned;
  uint64_t open_children;
};

/* Node 0's queue of submitted tasks, in queue order, until each completes (graph.c). */
typedef struct nw_submitted {
  nw_task *task;
  nw_driver_call *wait_call; /* a driver blocked in nw_task_wait on it */
  /* Queue order, larger later: a nested task's lies between its neighbours' (graph.c). */
  uint64_t order;
  /* The task graph (graph.c): incomplete entries before it that it waits for, the entries
   * that wait for it, and its place in each bound space's list of readers (-1: none). */
  uint64_t preds;
  struct nw_submitted **succ;
  size_t nsucc, capsucc;
  int *reader_at; /* one per bound space, allocated when it is queued */
  int ready;      /* in the node's ready list */
  struct nw_submitted *next, *prev;
} nw_submitted;

/* One GPU of this node: its software cache (paper 4.4) over its memory budget. */
typedef struct nw_gpu_state {
  nw_gpu_cache cache;
} nw_gpu_state;

/* Surviving lost nodes (recover.c); allocated in resilient runs only. Ids in the node's
 * configuration are logical: after a loss the survivors are renumbered 0..nodes-1 in their
 * original order, so that every policy and protocol sees an ordinary smaller cluster; the
 * backend keeps the original ids. */
typedef struct nw_membership {
  int home;                     /* this node's original (the backend's) id */
  uint32_t epoch;               /* recoveries begun; every message carries it */
  int to_backend[NW_MAX_NODES]; /* logical id -> backend id */
  int to_logical[NW_MAX_NODES]; /* backend id -> logical id; -1: lost */
  int original_nodes;
  int original_devices[NW_MAX_NODES];     /* every node's devices, by backend id */
  const nw_device_desc *original_cluster; /* the backend's, by backend id; may be NULL */
  nw_device_desc *cluster; /* the survivors' devices (cfg.cluster after a loss), owned here */
  /* A survivor between MSG_RECOVER and MSG_RECOVER_DONE: messages of the new epoch wait. */
  int awaiting_done;
  nw_stashed *held;
  /* Node 0 during a recovery: MSG_RECOVER_READY still awaited, and the highest space version
   * reported; the tasks it rolled back, to start again (their driver handles). */
  int ready_pending;
  uint64_t max_version;
  /* The spaces the rolled-back tasks (or a driver placement under way) wrote: node 0 takes
   * them whole from its replica; the others keep their owners (node 0's list, accumulated over
   * the recoveries of one epoch's sequence; a survivor's, as node 0 sent it). */
  uint64_t *dirty;
  size_t ndirty, capdirty;
  /* Node 0: what each survivor reported owning of the other spaces (MSG_RECOVER_READY). */
  struct nw_owned_report *reports;
} nw_membership;

struct nw_node {
  nw_node_config cfg;
  nw_membership *members;         /* resilient runs only (recover.c) */
  const struct nw_policy *policy; /* the run's scheduling policy (sched/policy.h) */
  nw_backend be;
  nw_stats stats;
  nw_device_stats device_stats_unlisted; /* nw_dev_stats: devices past NW_STATS_MAX_DEVICES */
  nw_trace trace;                        /* cfg.trace: what happened where (trace.h) */
  nw_space_state *spaces;
  nw_idmap space_ids;                /* spaces by id */
  nw_task_state *tasks, *tasks_tail; /* under way here, oldest first */
  nw_idmap task_ids;                 /* the same by id */
  uint64_t tasks_active;             /* of them, those not finishing (nw_tasks_running) */
  nw_task_state *queued_tasks;       /* tasks with subtasks in this node's queues (queue.c) */
  nw_task_state *zombies;            /* finished tasks with execs still running */
  nw_stashed *stash;
  uint64_t last_started_task; /* tasks are numbered from 1 */
  int ended;                  /* END received */
  /* Per local device: execs launched and not yet returned, of any task (a device runs one at a
   * time), and the device itself: its queue and pipeline (cfg.devices entries). */
  int dev_running[NW_MAX_DEVICES_PER_NODE];
  nw_device *dev;
  /* The scheduling policy's own state on this node (its init and fini), NULL when it keeps
   * none: per device or cluster-wide, across tasks. */
  void *sched;
  /* node 0 */
  nw_submitted *submitted, *submitted_tail; /* queue order, a nested task right after its
                                             * parent's other descendants (graph.c) */
  nw_idmap queued_seq, queued_id; /* queued entries by submission number, and started ones by
                                   * task id */
  nw_submitted **ready;           /* entries whose predecessors completed, not started yet */
  size_t nready, capready;
  uint64_t running_tasks, running_subtasks; /* started tasks whose subtasks run, and theirs */
  nw_submitted *wait_entry;                 /* the entry the driver waits for, if any */
  /* Tasks whose spawn callback is due, oldest first, for the driver's next wait (nested.c). */
  nw_task **spawn_due;
  size_t spawn_due_n, spawn_due_cap;
  /* A driver wait for no queued task to bind a space, or for the queue to empty (driver.c) */
  nw_driver_call *until_call;
  uint64_t tasks_submitted;
  uint64_t next_space_id, next_task_id;
  /* Functional data: the memory the backend said the run may take, asked at the first space
   * (room_asked), and the spaces made since, in bytes of one copy each (memcheck.h). */
  int room_asked;
  nw_memory_room room;
  uint64_t space_bytes;
  int spaces_made;
  nw_driver_call *read_call; /* a driver read waiting for data */
  nw_region read_need;
  nw_driver_call *place_call; /* a driver placement or write waiting for the cluster */
  int place_acks;
  int place_phase;               /* driver.c: what it waits for */
  int place_to;                  /* a placement's node, as this node numbers them (recover.c) */
  nw_driver_call *deferred_call; /* came during a recovery, served after it (recover.c) */
  int shutting_down;             /* the driver's last call came: the run's work is done */
  nw_region place_what;          /* the bytes it places or writes */
  char error[512];               /* first failure of the run */
  nw_bufpool views;              /* recycled private write views */
  struct nw_perf_sample *perf;   /* measured durations not yet sent to node 0 (perfdata.h) */
  size_t perf_n, perf_cap;
  uint64_t said_calibrating; /* node 0: kinds (bit = index in cfg.kinds) said to calibrate */
  nw_gpu_state gpu[NW_MAX_GPUS_PER_NODE];
};

static inline int nw_dev_is_gpu(const nw_node *n, int d) {
  return n->cfg.device_kind[d] == NW_DEVICE_GPU;
}

/* This node's counters for local device d. */
/* A device's counters; those past NW_STATS_MAX_DEVICES (many-task lanes) count into a slot
 * that is not reported, so that no listed device's row holds another's work. */
static inline nw_device_stats *nw_dev_stats(nw_node *n, int d) {
  return d < NW_STATS_MAX_DEVICES ? &n->stats.device[d] : &n->device_stats_unlisted;
}

/* node.c */
/* The run fails with this reason (node 0 ends it; other nodes report to node 0). */
void nw_node_fail(nw_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for a failure the run's input causes (a GPU budget below what a subtask needs): the
 * run ends with NW_ERR_ARG, so the tool exits 2 (bad input) rather than 1. */
void nw_node_fail_input(nw_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records a trace event (trace.h) when the run is traced: a span from start_s to now, or an
 * instant (start_s < 0: now). t: the subtask's task, or NULL. */
void nw_node_trace(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                   uint64_t subtask, double start_s, uint64_t bytes);
/* The same with both ends given (a span whose end the caller read from the clock already). */
void nw_node_trace_span(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                        uint64_t subtask, double start_s, double end_s, uint64_t bytes);
void nw_node_send(nw_node *n, int dst, nw_channel ch, nw_writer *w, uint64_t payload_bytes);
nw_task_state *nw_node_task(nw_node *n, uint64_t id);

/* space.c */
nw_space_state *nw_space_find(nw_node *n, uint64_t id);
/* Bytes of a node's copy of a space: size, rounded up to whole rows when it has several. */
uint64_t nw_space_copy_bytes(uint64_t size, uint64_t pitch);
nw_space_state *nw_space_get(nw_node *n, uint64_t id, uint64_t size, uint64_t pitch, int master,
                             int creator);
/* Requests what of `need` is neither resident nor in flight. Data already in flight stays at
 * the class it was requested with (see pipeline.c: no upgrade). */
/* Requests the part of `need` that is neither resident nor on its way; adds its size to
 * *requested when that is not NULL. */
nw_status nw_space_need(nw_node *n, nw_space_state *s, const nw_region *need, nw_fetch_class c,
                        uint64_t *requested);
int nw_space_has(const nw_space_state *s, const nw_region *need);
void nw_space_on_fetch(nw_node *n, nw_reader *r);
/* 1 when the bytes were taken in (the caller lets waiting subtasks and reads go on). */
int nw_space_on_data(nw_node *n, int src, nw_reader *r);
/* s moves to a new version (a task that writes it starts or ends here, or the driver rewrote
 * it): data asked for before is dropped on arrival, and a driver read still waiting asks
 * again. */
void nw_space_new_version(nw_node *n, nw_space_state *s);
nw_status nw_space_give(nw_node *n, nw_space_state *s, const nw_region *what, int node, int *acks);
void nw_space_on_place(nw_node *n, int src, nw_reader *r);
void nw_space_on_place_dir(nw_node *n, int src, nw_reader *r);
/* Node 0 takes ownership of `what` for a driver write or placement between tasks; every other
 * node drops its ownership and copies of those bytes. *acks counts the acknowledgements to
 * wait for (0 when nobody else can hold them). */
nw_status nw_space_claim(nw_node *n, nw_space_state *s, const nw_region *what, int *acks);
/* The id of the space whose copies of the claimed bytes were dropped (the caller drops the
 * GPUs' cached copies), 0 when the message was bad. */
uint64_t nw_space_on_claim(nw_node *n, int src, nw_reader *r);
void nw_space_free_all(nw_node *n);
/* Master: an update round for a task that writes s begins / settles (routes held fetches). */
void nw_space_round_begins(nw_space_state *s);
void nw_space_round_settled(nw_node *n, nw_space_state *s);

/* task.c */
void nw_task_on_start(nw_node *n, int src, nw_reader *r);
void nw_task_on_subtask_done(nw_node *n, nw_reader *r);
void nw_task_on_finish(nw_node *n, nw_reader *r);
void nw_task_on_update(nw_node *n, int src, nw_reader *r);
void nw_task_on_prev(nw_node *n, int src, nw_reader *r);
void nw_task_on_prev_ack(nw_node *n, nw_reader *r);
void nw_task_on_master_done(nw_node *n, nw_reader *r);
void nw_task_on_reduce(nw_node *n, int src, nw_reader *r);
/* Node 0: starts every queued task that may start now (task.c, "Which tasks run"). */
void nw_task_start_ready(nw_node *n);
void nw_task_free(nw_task_state *t);
/* The task ends here (TASK_FINISH, or a recovery rolled it back): no policy deals its work any
 * more. */
void nw_task_mark_finishing(nw_node *n, nw_task_state *t);
/* Forgets a task: frees it, or keeps it as a zombie while execs still run. */
void nw_task_release(nw_node *n, nw_task_state *t);
/* An exec of t returned: frees t if it was a zombie waiting for it. */
void nw_task_exec_returned(nw_node *n, nw_task_state *t);
void nw_task_subtask_committed(nw_node *n, nw_task_state *t, uint64_t count);

/* pipeline.c */
/* The node's devices (cfg.devices of them), idle with empty queues; and their end. */
nw_status nw_pipeline_init(nw_node *n);
void nw_pipeline_free(nw_node *n);
/* Task t starts here: its per-device figures begin (a work-group's size search starts afresh). */
void nw_pipeline_task_init(nw_node *n, nw_task_state *t);
/* Work was dealt (task t started, or a policy pushed into queues): every device that is idle,
 * or waits for its policy's answer while its queue now holds work, goes on; a device its policy
 * retired is offered to its policy again (new work appeared in the cluster). */
void nw_pipeline_go(nw_node *n, nw_task_state *t);
void nw_pipeline_advance(nw_node *n, int d);
void nw_pipeline_on_exec_done(nw_node *n, nw_exec *e);
/* The result of a finished exec (after its copies out, on a GPU): commit, hand to multi-assign,
 * or discard. */
void nw_pipeline_exec_result(nw_node *n, nw_exec *e);
/* Frees a prepared subtask that will not run here, letting go of its GPU entries. */
void nw_pipeline_drop_prepared(nw_node *n, int d, nw_prepared *p);
/* Task t is forgotten here: its queued subtasks leave the queues, its prepared ones that are
 * not running are dropped (their GPU entries let go); a running one is discarded when it ends. */
void nw_pipeline_task_forget(nw_node *n, nw_task_state *t);
/* A recovery starts over: every device idle, nothing asked of the policy. */
void nw_pipeline_reset(nw_node *n);
/* Prepares a subtask (subscriptions, fetches); NULL after a failure. prefetch: it is to run
 * after the device's current one (pipelining), so its reads are fetched at prefetch priority
 * when the run's prefetch_priority is LOW; otherwise it is the subtask the device runs now
 * (it becomes current) and its reads are demand fetches. */
nw_prepared *nw_pipeline_prepare(nw_node *n, nw_task_state *t, int d, uint64_t subtask,
                                 int prefetch);
/* Commits a finished exec's result (write views, set S, the count at node 0) and frees it. */
void nw_pipeline_commit_result(nw_node *n, nw_task_state *t, nw_exec *e);
/* Frees an exec whose result is thrown away. */
void nw_exec_discard(nw_node *n, nw_exec *e);
void nw_pipeline_data_arrived(nw_node *n);
/* Bytes of a subtask's reads (read[i] per bound space) this node held at the task's start:
 * what "local" means for the locality counters and for locality-aware policies. */
uint64_t nw_locality_local_bytes(const nw_task_state *t, const nw_region *read);
/* Copies a deferred exec's private write views into the node's copy of its spaces (all but
 * the reduced ones, merged when its result came) and frees it. */
void nw_exec_commit(nw_node *n, nw_exec *e);
/* Subtasks of task t per second of device time on a device (0: none finished yet). */
double nw_pipeline_rate(const nw_device_slot *s);
/* A prepared subtask of a task of nspaces bound spaces, its arrays zeroed; NULL on no memory. */
nw_prepared *nw_prepared_new(int nspaces);
void nw_prepared_free(nw_prepared *p, int nspaces);
/* Device d's current subtask when it is task t's (NULL otherwise), and its prefetched one. */
nw_prepared *nw_pipeline_current_of(const nw_node *n, int d, const nw_task_state *t);
nw_prepared *nw_pipeline_next_of(const nw_node *n, int d, const nw_task_state *t);
/* Takes device d's prefetched subtask away (a steal) when it is task t's: 1 with its id in *s;
 * its data stays resident here. 0 when d prefetches none of t's. */
int nw_pipeline_steal_next(nw_node *n, int d, const nw_task_state *t, uint64_t *s);
/* Whether device d has a subtask in hand: executing it, or waiting for its data or room. */
int nw_pipeline_in_hand(const nw_node *n, int d);

/* gpu_stage.c: a GPU subtask's data on the device (paper 4.1, 4.4) */
nw_status nw_gpu_init(nw_node *n);
void nw_gpu_free(nw_node *n);
/* Takes room for p's subscriptions on device d's GPU and starts the copies in. Returns 1 when
 * everything is on the device, 0 while copies run or room is short (retried later). */
int nw_gpu_stage_in(nw_node *n, int d, nw_prepared *p);
/* Bytes a subtask of task t with these subscriptions would copy to local device d's GPU now:
 * its reads that GPU's cache does not hold, and its read-write views (dmda's data penalty). */
uint64_t nw_gpu_bytes_to_stage(const nw_node *n, int d, const nw_task_state *t,
                               const nw_region *read, const nw_region *write);
/* Fills an exec's GPU views from its prepared subtask's entries. */
void nw_gpu_exec_views(nw_node *n, nw_exec *e);
/* The kernel finished: lets go of the reads, starts the copies out of the writes. Returns 1
 * when nothing is left to copy (the result can be handled now). */
int nw_gpu_exec_done(nw_node *n, nw_exec *e);
void nw_gpu_retry(nw_node *n, int g);
/* Lets go of every entry a prepared subtask holds (result used or thrown away); nothing is
 * restaged meanwhile (see nw_gpu_retry). */
void nw_gpu_unstage(nw_node *n, int d, nw_prepared *p, int publish);
void nw_gpu_on_copy_done(nw_node *n, nw_copy *c);
/* A task that writes these spaces starts: cached copies of them are stale. */
void nw_gpu_task_writes(nw_node *n, nw_task_state *t);
/* The driver rewrote bytes of space `space`: every GPU entry of it is stale. */
void nw_gpu_space_written(nw_node *n, uint64_t space);

/* multiassign.c */
/* Whether a subtask on device d may ever get a copy (the policy table's may_run_twice). */
int nw_multiassign_possible(const nw_node *n, int d);
int nw_multiassign_offer(nw_node *n, nw_task_state *t, int stealer_node, int stealer_dev,
                         nw_device_kind stealer_kind, double rs, double fetch_s, uint64_t *subtask,
                         int *origin_dev);
void nw_multiassign_accept(nw_node *n, nw_task_state *t, int d, int origin_node, int origin_dev,
                           uint64_t subtask);
void nw_multiassign_copy_finished(nw_node *n, nw_task_state *t, nw_exec *e);
void nw_multiassign_original_won(nw_node *n, nw_task_state *t, nw_prepared *p);
void nw_multiassign_on_finished(nw_node *n, int src, nw_reader *r);
void nw_multiassign_on_cancel(nw_node *n, nw_reader *r);
void nw_multiassign_task_ended(nw_node *n, nw_task_state *t);

/* steal.c: work stealing across tasks (unicorn's; its state is n->sched) */
nw_status nw_steal_init(nw_node *n);
void nw_steal_fini(nw_node *n);
/* A task starts: its work is new, so every device's aggression ladder starts afresh. */
void nw_steal_task_started(nw_node *n, nw_task_state *t);
/* Appends a range to what a steal hands over. */
nw_status nw_loot_add(nw_loot *l, nw_range r);
void nw_loot_free(nw_loot *l);
/* Task t ends here: with no other task running, every round stops (no work is left). */
void nw_steal_task_ended(nw_node *n, nw_task_state *t);
/* Device d is dry (or, ProSteal, about to be): a stealing round begins. */
void nw_steal_begin(nw_node *n, int d);
/* Device d executes: ProSteal's test. */
void nw_steal_busy(nw_node *n, int d);
void nw_steal_executed(nw_node *n, nw_exec *e);
void nw_steal_on_timer(nw_node *n, uint64_t token);
void nw_steal_on_request(nw_node *n, int src, nw_reader *r);
void nw_steal_on_response(nw_node *n, int src, nw_reader *r);

/* locality_sched.c: locality-aware scheduling (paper 4.3.4) */
/* At task start: affinities to node 0, which assigns (gathered NULL), or calls gathered(n, t)
 * once every node's row is in (l->local holds the whole matrix there; other nodes have only
 * their own row and wait for that policy's message). */
void nw_locality_start(nw_node *n, nw_task_state *t,
                       void (*gathered)(nw_node *n, nw_task_state *t));
void nw_locality_on_vector(nw_node *n, int src, nw_reader *r);
void nw_locality_on_assign(nw_node *n, int src, nw_reader *r);
/* Affinity-aware steal by a remote stealer: moves up to `want` of device v's queued subtasks
 * with the largest local(s, stealer) - local(s, this node) into out; returns how many. */
uint64_t nw_locality_take(nw_node *n, nw_task_state *t, int v, int stealer, uint64_t want,
                          nw_loot *out);
/* A stealer's victim: an untried entry of tried[0..count) (nodes, or the cluster's devices when
 * per_device) drawn with task t's locality weights; marks it tried; -1 if none. */
int nw_locality_pick_victim(nw_node *n, nw_task_state *t, unsigned char *tried, int count,
                            int per_device);
void nw_locality_free(nw_task_locality *l);

/* driver.c */
void nw_driver_on_call(nw_node *n, nw_driver_call *c);
void nw_driver_read_progress(nw_node *n);
/* Task `id` ended, well or not (id 0: the run failed before any task could say which). */
void nw_driver_task_complete(nw_node *n, uint64_t id, nw_status st);
void nw_driver_on_place_ack(nw_node *n);

/* graph.c: node 0's task graph, which queued task waits for which */
/* Queues entry e (of e->task): at the end, or for a nested task right after its parent's
 * queued descendants; counts the incomplete entries before it that it waits for, and puts it
 * in the ready list when there are none. NW_ERR_STATE when a nested task's parent is not
 * queued. */
nw_status nw_graph_insert(nw_node *n, nw_submitted *e);
/* Entry e's task completed: out of the queue, and the entries that waited only for it into
 * the ready list. The caller frees e. */
void nw_graph_remove(nw_node *n, nw_submitted *e);
/* Entry e's task started with id `id` (found by it from now on), or was rolled back (started
 * 0: ready to start again). */
nw_status nw_graph_started(nw_node *n, nw_submitted *e, uint64_t id);
void nw_graph_unstarted(nw_node *n, nw_submitted *e);
/* The queued entry of started task `id`, or NULL. */
nw_submitted *nw_graph_by_id(nw_node *n, uint64_t id);
/* The ready entries in queue order into *out (the list is emptied; the caller frees *out). */
size_t nw_graph_take_ready(nw_node *n, nw_submitted ***out);
/* Drops the whole queue (a failed run, the node's end); each entry's task goes to done(ctx, e)
 * before the entry is freed. */
void nw_graph_clear(nw_node *n, void (*done)(nw_node *n, nw_submitted *e, void *ctx), void *ctx);

/* nested.c: node 0's side of nested tasks */
/* Whether task a is an ancestor of task b (b was created in a's spawn callback, or in one of
 * its nested tasks'). */
int nw_nested_is_ancestor(const nw_task *a, const nw_task *b);
/* Task t's spawn callback is due: queued for the driver, oldest first. */
nw_status nw_nested_spawn_due(nw_node *n, nw_task *t);
/* The oldest due spawn callback's task, taken off the list, or NULL. */
nw_task *nw_nested_next_spawn(nw_node *n);

/* reduce_tree.c: combining reduced spaces across nodes (paper 4.5, Fig. 8) */
/* Whether any bound space of t is reduced. */
int nw_reduce_tree_needed(const nw_task_state *t);
/* Begins (at TASK_FINISH) / continues (as children's results come) this node's part of every
 * reduced space's tree: merges the children's partial results in round order and sends its
 * own to its parent. Returns 1 once its part is done (t->written then holds what it owns of
 * the results), 0 while it waits (t->reducing). */
int nw_reduce_tree_begin(nw_node *n, nw_task_state *t);
int nw_reduce_tree_step(nw_node *n, nw_task_state *t);
/* A child's partial result (MSG_REDUCE): kept for its round. */
void nw_reduce_tree_on_partial(nw_node *n, nw_task_state *t, int src, nw_reader *r);
void nw_reduce_tree_free(nw_task_state *t);

/* subscribe.c */
/* Room for a subtask's subscriptions to nspaces spaces: nspaces read regions, then nspaces
 * write regions (NULL on no memory); and their end (the regions, then the block). */
nw_region *nw_subscription_sets(int nspaces);
void nw_subscription_sets_free(nw_region *sets, int nspaces);
nw_status nw_subscriptions(const nw_task_kind *kind, const nw_task_info *info,
                           const nw_access *access, uint64_t subtask, nw_region *read,
                           nw_region *write, char *why, size_t why_len);
/* The same, also giving the subtask's scratch buffer (scratch->with_buffer: with its host
 * bytes, which the caller frees). */
nw_status nw_subscriptions_scratch(const nw_task_kind *kind, const nw_task_info *info,
                                   const nw_access *access, uint64_t subtask, nw_region *read,
                                   nw_region *write, nw_scratch *scratch, char *why,
                                   size_t why_len);

/* recover.c: surviving a lost node (resilient runs; n->members NULL otherwise) */
typedef struct nw_backup nw_backup;
nw_status nw_recover_init(nw_node *n);
void nw_recover_free(nw_node *n);
/* This node's original (backend) id, which traces report. */
int nw_node_home(const nw_node *n);
/* A logical node id to the backend's, and back (-1: a lost node). */
int nw_recover_backend_id(const nw_node *n, int logical);
int nw_recover_logical_id(const nw_node *n, int backend);
/* Appends the epoch to a message about to be sent. */
void nw_recover_tag(const nw_node *n, nw_writer *w);
/* A message arrived from backend node *src: 1 to handle it (*src now logical, *len without
 * the epoch); 0 when it was dropped (sent before a recovery, or by a lost node) or held until
 * the recovery under way is done; the buffer is then no longer the caller's. */
int nw_recover_admit(nw_node *n, int *src, void *buf, size_t *len);
/* A recovery is under way here: no task starts, driver calls wait. */
int nw_recover_busy(const nw_node *n);
void nw_recover_on_lost(nw_node *n, int backend_id, double at_s);
void nw_recover_on_recover(nw_node *n, nw_reader *r);
void nw_recover_on_ready(nw_node *n, int src, nw_reader *r);
void nw_recover_on_done(nw_node *n, nw_reader *r);
void nw_recover_send_backup(nw_node *n, nw_task_state *t);
void nw_recover_on_backup(nw_node *n, nw_reader *r);
void nw_recover_task_complete(nw_node *n, nw_task_state *t);
void nw_recover_replica_write(nw_space_state *s, uint64_t offset, const void *src, uint64_t len);
void nw_backups_free(nw_backup *b);
/* node.c: handles a message as if it had just arrived from backend node src (recover.c's
 * replay of held messages). */
void nw_node_message(nw_node *n, int src, void *buf, size_t len);
/* space.c: a recovery's end on this node. Every node forgets s's requests in flight and held,
 * node 0 masters s from now on, and s moves to `version`. keep 0 (a rolled-back task wrote s):
 * node 0 owns all of it, from its replica, and the others forget what they owned and held of
 * it. keep 1: the owners keep their bytes and everyone their copies; on node 0, reports[k]
 * (k > 0, cfg.nodes entries; NULL: none) is what survivor k owns, and node 0 owns the rest,
 * taking from the replica the bytes it did not own before (the lost node's). */
nw_status nw_space_recovered(nw_node *n, nw_space_state *s, uint64_t version, int keep,
                             const nw_region *reports);
/* task.c: node 0 completes t once its masters and its backups are all in. */
void nw_task_maybe_complete(nw_node *n, nw_task_state *t);
/* driver.c: a recovery is done: calls that were waiting on the cluster start over, and one
 * that came meanwhile is served. */
void nw_driver_recovered(nw_node *n);

#endif
