/* sim_world.h: the simulator's model of a cluster, and the operations on it (sim_world.c) that
 * the files giving its actors share: sim_backend.c (builds it; nodes, devices, copy engines,
 * network), sim_faults.c (the fault plan) and sim_mtc.c (the many-task GPU mode). sim_world.c
 * calls none of those three, so their calls form no circle: sim_backend.c calls sim_faults.c
 * and sim_mtc.c, and all three call sim_world.c. */
#ifndef NW_SIM_WORLD_H
#define NW_SIM_WORLD_H

#include <simgrid/actor.h>
#include <simgrid/link.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <stdint.h>

#include "agglo.h"
#include "due_heap.h"
#include "mtc_queue.h"
#include "perfmodel.h"
#include "run.h"
#include "sendq.h"
#include "sim_copy_rates.h"
#include "sim_costs.h"
#include "sim_msg_pages.h"

typedef struct evq {
  nw_event *head, *tail;
  sg_sem_t sem;
} evq;

typedef struct copy_item {
  nw_copy *c;
  struct copy_item *next;
} copy_item;

/* One copy engine of a GPU: copies in one direction, one after another. */
typedef struct sim_engine {
  struct sim_node *node;
  int gpu, to_device;
  copy_item *head, *tail;
  /* The copies crossing the link now (one, or a pack): a run can end with them in flight (a
   * cancelled subtask's copy in, say), and teardown then frees them. */
  copy_item *moving;
  uint64_t transfers; /* link transfers made: fewer than its copies with --pack-copies on */
  sg_sem_t sem;
  char mbox[48];
} sim_engine;

typedef struct sim_gpu {
  sg_host_t host;
  uint64_t memsize;      /* the budget the core manages */
  unsigned char *memory; /* functional mode: the device's bytes, allocated at first use */
  double launch_s;
  double rle_s_per_byte; /* encoding a result before its copy out (--compression gpu) */
  double mem_bw;         /* its memory's bytes/s (property mem_bw); 0: kernels compute-bound */
  /* The work one launch needs to occupy every multiprocessor (property fill_flops): a launch
   * with less takes as long as one with this much. 0: none. */
  double fill_flops;
  /* The threads it runs at once when full (property fill_threads): a launch of fewer computes
   * at that share of its speed, counted in whole warps of 32 (launch_bound). 0: every launch
   * has the whole GPU. */
  double fill_threads;
  /* Copies of short rows, as calibrated (property copy_row_rates, sim_copy_rates.h), and the
   * PCIe route's bytes/s each way ([0] device to host, [1] host to device), which a copy's
   * bytes are scaled against. */
  sim_copy_rates copy_rates;
  double link_bw[2];
  /* --agglomerate: the accelerator FIFO its lanes (devices) launch into, and the semaphore that
   * wakes its dispatcher actor (agglo.h). */
  nw_agglo fifo;
  sg_sem_t fifo_sem;
  /* --agglomerate-mode static: the dispatcher waits for a group to fill up; the node's loop
   * wakes it after each event, which may have changed what its lanes hold. Launches below N. */
  int fifo_waiting;
  uint64_t launched_short;
  struct sim_device *lane0; /* one of its devices: its host, speed and memory bandwidth */
  struct nw_exec **batch;   /* the dispatcher's launch, room for the FIFO's maximum */
  /* --gpu-mode many-task: the resident worker kernel's model (sim_mtc.h); NULL otherwise. */
  struct sim_mtc *mtc;
  uint64_t launches, launched, largest; /* kernel launches, the subtasks they ran, the most */
  sim_engine engine[2];                 /* [0] device to host, [1] host to device */
  /* A GPU without asynchronous copies (property async_copies=0, like the StarPU paper's Quadro
   * FX4600): its copies and its kernels take turns, each holding this while it runs. NULL:
   * copies overlap kernels. */
  double async_copies;
  sg_mutex_t turns;
} sim_gpu;

typedef struct sim_device {
  struct sim_node *node;
  int index;
  nw_device_kind kind;
  int gpu;        /* GPU streams: the node's GPU */
  sg_host_t host; /* where it computes */
  /* Memory bytes/s one of its work-items streams (a CPU core's share of the node's dram_bw,
   * shared by the cores that compute, a GPU's mem_bw): a subtask whose kind gives bytes takes
   * max(flops / speed, bytes / this), the roofline (platforms/README.md); 0: flops alone. */
  double bytes_per_s;
  nw_exec **queue; /* execs launched, not yet started: at most one in practice */
  size_t n, cap;
  sg_sem_t sem;
} sim_device;

typedef struct envelope {
  struct sim_world *world;
  int src;
  void *buf;
  size_t len;
  long wire;
  int dst;
  double late_s; /* a data transfer's: the fault plan's delay before it goes (sim_faults.h) */
  /* When its sender had packed it: its buffer's fresh pages first touched (sim_msg_pages.h). */
  double packed_at;
  sim_msg_buffer sent; /* the sender's buffer; bytes 0: not modelled */
  /* A data message past rt_eager_bytes posted at once (a demand transfer: the real backend
   * posts those as they come): its rendezvous runs beside the transfers ahead of it and
   * releases this when the rest may move; handshaking while it runs. NULL: none started. */
  sg_sem_t matched;
  int handshaking;
  struct envelope *live_prev, *live_next; /* every envelope not yet delivered (sim_world) */
} envelope;

typedef struct sim_node {
  struct sim_world *w;
  int id;
  nw_node *node;
  sg_host_t host;
  evq q;
  nw_sendq out;     /* data transfers waiting for the sender actor, by priority */
  sg_sem_t out_sem; /* counts them */
  sim_device *dev;
  int ndev;
  sim_gpu gpu[NW_MAX_GPUS_PER_NODE];
  int ngpu;
  uint64_t rng;
  double *route_latency, *route_bandwidth; /* to each node, filled as first needed */
  sim_costs costs;                         /* the runtime's own, from the platform */
  double dram_bw;                          /* the CPU host's dram_bw property, bytes/s; 0: none */
  char data_mbox[32];                      /* where data transfers to this node arrive */
  int lost;            /* stopped by the fault plan (sim_faults.h): its loop has ended */
  uint64_t pickup_rng; /* rt_pickup's draws (sim_backend.c), apart from the core's rng */
  int kernels;         /* CPU kernels computing now where the loop shares their cores (rt_pickup) */
  /* The data transfer the sender actor has in flight: to out_dst (-1: none), out_bytes on the
   * wire, started at out_start (a control message to that peer waits behind part of it). */
  int out_dst;
  double out_start, out_bytes;
  /* Its messages' buffers as the C library hands them out (sim_msg_pages.h), and the seconds
   * of fresh pages the messages sent since the loop last spent them took to pack. */
  sim_msg_pages msg_pages;
  double pack_s;
  /* The event loop polls its transport (sim_world.c, rendezvous): loop_idle while it waits
   * for an event with nothing queued; loop_ended once it has stopped (finished or lost);
   * pollers, the rendezvous waiting for its next poll. */
  int loop_idle, loop_ended;
  struct sim_poller *pollers;
  /* Those waiting for a message's pickup beside a kernel (sim_pickup_wait), woken when a kernel
   * ends. */
  struct sim_poller *pickup_waiters;
  /* The machine its rank ran on (its CPU host's rt_machine property; NULL: not said), and its
   * loop's copying of transfers with nodes of the same machine (sim_shm_poll.h): how many it
   * polls now, whether it handles an event instead, and the transfers waiting for it to be
   * done with that (a semaphore made at the first wait). */
  const char *machine;
  int shm_moving, shm_paused, shm_waiters;
  sg_sem_t shm_resumed;
  struct sim_shm_buffer *shm_buffers; /* receive buffers of messages not yet handled */
  /* What its loop was charged, in the real backend's terms (nw_rt_costs: per kind of event,
   * the events, the simulated seconds handling them, the bytes they moved and the CPU seconds
   * charged; the hand-offs): printed as runtime_costs, beside a real run's measured ones. */
  nw_rt_costs charged;
} sim_node;

/* A link fault found on the platform (sim_faults.c): the link, or the halves of a SPLITDUPLEX. */
typedef struct sim_link_fault {
  struct sim_world *w;
  const nw_fault_link *plan;
  sg_link_t link[2];
} sim_link_fault;

typedef struct sim_world {
  const nw_run_config *cfg;
  const nw_app *app;
  int nodes;
  sim_node *node;
  nw_runtime rt;
  sg_sem_t driver_sem;
  nw_app_outcome outcome;
  nw_status app_status;
  int driver_done; /* the application's main returned: otherwise the model deadlocked */
  /* Messages sent and not yet delivered: a run that fails stops with some still inside
   * SimGrid's communications, whose payloads must still be freed. */
  envelope *live;
  nw_device_desc *cluster; /* every device of the cluster (nw_node_config.cluster) */
  nw_due_heap mail;        /* control messages on their way, by when they are due */
  sg_sem_t postman_sem;    /* wakes the postman for a message due sooner */
  double postman_wakes;    /* when the postman looks next by itself; INFINITY: not before mail */
  uint64_t fault_rng;      /* the fault plan's draws (sim_faults.h) */
  nw_fault_counts faults;  /* what they did */
  sim_link_fault links[NW_MAX_LINK_FAULTS];
  /* StarPU's SimGrid mode: the measured model as loaded (--perfmodel, not --calibrate), which
   * subtasks take their durations from. A copy, frozen: the policies' model (cfg->perfmodel)
   * goes on learning from the run's samples, and the simulated durations must not follow it,
   * or a slowed node's samples (--slow) would stretch every node's later subtasks. NULL:
   * durations from the cost model's flops. */
  nw_perfmodel *durations;
  /* How the devices timed the subtasks they ran alone (not in a many-task GPU's lanes nor an
   * agglomerated launch, which take the cost model by design): from `durations`, or from the
   * cost model's flops at the host's speed; and the first kind and device that the model,
   * given, could not price (the run says so once on stderr). */
  uint64_t priced_by_model, priced_by_cost_model;
  char unpriced[NW_PERFMODEL_KIND_MAX + NW_PERFMODEL_ARCH_MAX + 16];
  /* The same per kind and source (nw_run_result.priced): npriced rows of the array. */
  struct nw_priced_kind *priced;
  int npriced, priced_cap;
} sim_world;

/* Actor stack sizes, in KiB (SimGrid 3.32's sg_actor_set_stacksize takes KiB, as its
 * contexts/stack-size option). SimGrid gives every actor 8 MiB of address space by default; at
 * 1024 nodes the ~25 actors per node would reserve ~200 GB, which a memory limit (ulimit -v)
 * refuses. The service actors (devices in phantom mode, copy engines, sender, sinks, postman,
 * timers) only call SimGrid and post events: a small stack suffices. A node's event loop runs
 * the scheduler, so it gets more; the driver (the application's main) and functional-mode
 * devices (kernels, maybe BLAS) keep SimGrid's default. 0 means SimGrid's default. */
#ifdef NW_SIM_THREAD_CONTEXTS /* sanitizer builds: bigger frames, and not for large runs */
#define STACK_SERVICE 0u
#define STACK_NODE 0u
#else
#define STACK_SERVICE 128u /* KiB */
#define STACK_NODE 1024u   /* KiB */
#endif
#define STACK_DEFAULT 0u

/* Queues an event for the node's event loop and wakes it. */
void sim_post(sim_node *sn, nw_event *ev);
/* A zeroed event of `kind` (exits the run when memory is out). */
nw_event *sim_new_event(nw_event_kind kind);
/* Starts an actor on `host` with `data`; daemons end with the simulation. */
sg_actor_t sim_spawn(const char *name, sg_host_t host, void (*code)(int, char **), void *data,
                     int daemon, unsigned stack);

/* The platform's nodes are hosts n0-cpu, n1-cpu, ... (platforms/README.md): how many there are
 * from n0 without a gap; the number of a node host beyond the first gap, or -1; how many GPU
 * hosts n<node>-gpu0, ... node `node` has. */
int sim_count_nodes(void);
int sim_node_after_gap(int count);
int sim_count_gpus(int node);
/* Host h's property `key` as a number: fallback when it has none, -1 when it is not a number
 * >= 0. */
double sim_host_property(sg_host_t h, const char *key, double fallback);

/* The modelled GPU's bytes (functional mode), allocated when first touched. */
unsigned char *sim_gpu_memory(sim_gpu *g);
/* The flops a subtask's work-item is charged at device d's host speed (its roofline). */
double sim_roofline_work(const sim_device *d, nw_exec *e);
/* Charges `flops` on device d's host, slowed by the node's --slow factor as it changes: at
 * the host's speed, or at most `bound` flop/s (a many-task worker's share of its GPU). */
void sim_execute_slowed(sim_device *d, double flops);
void sim_execute_bounded(sim_device *d, double flops, double bound);

/* Node sn sends a message to node dst (core/backend.h's send): to its own loop at once; to
 * another node late by the fault plan's draw (sim_faults.h), a data transfer queued for sn's
 * sender actor, a control message for the postman, due after the route's travel time (both
 * actors are sim_backend.c's). Until delivered or discarded the message is on w->live. */
void sim_send(sim_node *sn, int dst, nw_channel ch, void *buf, size_t len, uint64_t wire);
/* The node's loop polls its transport (its queue is empty: it is about to wait, or stopped):
 * the rendezvous waiting for that go on. */
void sim_loop_polls(sim_node *sn);
/* A message comes to sn's loop: where a kernel runs on the cores the loop shares (and the
 * platform prices rt_pickup), waits until the loop would see it, a draw of rt_pickup's
 * exponential distribution from the node's own stream, cut short where a kernel of the node
 * ends first (its core is free: on hardware the compute thread that ran it handles what is
 * queued at once, real_backend.c, drain); otherwise returns at once. */
void sim_pickup_wait(sim_node *sn);
/* The sender actor starts data message e of node sn: waits for its rendezvous where it needs
 * one (running it now if it was not started when sent) and returns the bytes to put on the
 * link: e->wire, less the first fragment where that crossed while the link was otherwise
 * idle. */
double sim_rendezvous_bulk(sim_node *sn, envelope *e);
/* Message e reaches its destination's loop, or is dropped when that node was lost. */
void sim_deliver(sim_world *w, envelope *e);
/* Message e never goes (its sender's node was lost): freed. */
void sim_discard(sim_world *w, envelope *e);

/* Frees the world and what it holds: queued events, messages not delivered, copies not done,
 * the nodes. Not the GPUs' many-task models, which are sim_mtc.c's (sim_mtc_free). */
void sim_world_free(sim_world *w);

#endif
