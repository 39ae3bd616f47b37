/* backend.h: the one interface a backend implements (DESIGN.md, "event-driven state machine").
 *
 * A node (core/node/node.h) is a state machine. The backend owns time, threads and transport: it
 * calls nw_node_handle() with one event at a time, on one logical thread per node, and the
 * node acts on the world only through the operations below. Nothing here names MPI, CUDA,
 * SimGrid or pthreads; backends/real and backends/simgrid each fill this table.
 */
#ifndef NW_BACKEND_H
#define NW_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

typedef struct nw_exec nw_exec;
typedef struct nw_driver_call nw_driver_call;

/* A host<->GPU copy of one rectangle (paper 4.1: DMA between pinned host memory and the GPU).
 * The device side is packed at offset dev_off of the GPU's memory (core/device/devmem.h): rows of
 * `width` bytes one after another. The host side starts at `host` with rows host_pitch bytes
 * apart; host is NULL in phantom data mode, where only the size (rows * width) matters. */
typedef struct nw_copy {
  int gpu;       /* the node's GPU index (not a device index) */
  int to_device; /* 1: host to device; 0: device to host */
  uint64_t dev_off;
  unsigned char *host;
  uint64_t host_pitch, rows, width;
  void *owner; /* the core's; the backend leaves it alone */
  /* Device to host only, set when the core compresses a reduced result on the GPU (paper
   * 4.6, `--compression gpu`; functional data: host is not NULL). The backend run-length
   * encodes the rows * width device bytes on the GPU in core/data/rle.h's format, byte for
   * byte what nw_rle_encode writes, moves only the encoding over the link, puts it in
   * `encoded` (the core's buffer, room for nw_rle_bound(rows * width) bytes) and sets
   * encoded_len; it leaves `host` alone: the core decodes into it. */
  int encode;
  unsigned char *encoded;
  uint64_t encoded_len;
} nw_copy;

/* Two channels, as in Unicorn's network subsystem (section 4.1): light control messages must
 * not queue behind heavy data transfers. Data has two priorities (section 4.2: "subtask data
 * fetch requests are given high priority while the prefetch requests for subtasks anticipated
 * to run in the future are given lower priority"):
 *   NW_CHANNEL_DATA      bulk data a device (or the driver) waits for now: a demand fetch;
 *   NW_CHANNEL_PREFETCH  bulk data for a subtask that will run later: a backend starts it only
 *                        after every waiting NW_CHANNEL_DATA transfer of this node, and only
 *                        when none is in flight (core/data/sendq.h is that rule). A transfer once
 *                        started is not preempted. It arrives as a data message like any
 *                        other: the receiver does not see the difference.
 * Control messages go at once, whatever data is queued. */
typedef enum { NW_CHANNEL_CONTROL = 0, NW_CHANNEL_DATA = 1, NW_CHANNEL_PREFETCH = 2 } nw_channel;

typedef enum {
  NW_EVENT_MESSAGE = 1, /* a message from another node (or this one) arrived */
  NW_EVENT_EXEC_DONE,   /* a subtask launched with launch() finished on its device */
  NW_EVENT_TIMER,       /* a timer set with timer() expired */
  NW_EVENT_DRIVER,      /* the driver (application main, node 0) made a call */
  NW_EVENT_COPY_DONE,   /* a copy started with copy() finished */
  /* Node `src` stopped at `at_s` (a fault the backend injected, core/node/faults.h, or a
   * process it saw die); posted to every node still running, node `src` itself included when
   * it is node 0 (the driver's node ends the run). */
  NW_EVENT_NODE_LOST
} nw_event_kind;

typedef struct nw_event {
  nw_event_kind kind;
  struct nw_event *next; /* free for the backend's queue */
  /* NW_EVENT_MESSAGE: buf (malloc'd, ownership passes to the node) of len bytes from src. */
  int src;
  void *buf;
  size_t len;
  nw_exec *exec;        /* NW_EVENT_EXEC_DONE */
  uint64_t token;       /* NW_EVENT_TIMER */
  nw_driver_call *call; /* NW_EVENT_DRIVER */
  nw_copy *copy;        /* NW_EVENT_COPY_DONE */
  double at_s;          /* NW_EVENT_NODE_LOST */
  double stamp;         /* free for the backend (the real one: when the event was posted) */
  /* NW_EVENT_EXEC_DONE: the kernel's own seconds where the backend measured them (> 0; the
   * real one: a CPU kernel's thread CPU time, when the run keeps a performance model), which
   * the model then records; 0: the core records the time from launch to this event. */
  double kernel_s;
} nw_event;

/* The memory a functional run may still take, as the backend sees it: node 0 asks once, before
 * it makes the run's first address space, and refuses a space that would take the run past it
 * (core/node/memcheck.h). Nothing here is asked in phantom data mode. */
typedef struct nw_memory_room {
  /* Bytes of RAM the machine has available now (Linux: MemAvailable), shared by the nodes
   * whose data lives in it: ram_nodes of them (every node for a simulator, which holds them
   * all in one process; the ranks on node 0's host for a backend with a process per node).
   * UINT64_MAX: unknown. */
  uint64_t ram;
  int ram_nodes;
  /* Bytes of address space node 0's process may still map (Linux: RLIMIT_AS, `ulimit -v`,
   * less its size now; UINT64_MAX: no limit), where address_nodes nodes map a copy of every
   * space (every node, or node 0 alone); address_backend: what the backend will map on top
   * during the run, whole, for itself (a simulator's modelled GPU memories), named by
   * address_backend_what for the message ("modelled GPU memory"). */
  uint64_t address;
  int address_nodes;
  uint64_t address_backend;
  const char *address_backend_what;
  /* What the user can do instead, appended to a refusal (a simulator: run on sizes alone);
   * NULL: nothing. */
  const char *instead;
} nw_memory_room;

typedef struct nw_backend_ops {
  /* Seconds since the run started: simulated time, or wall time on hardware. */
  double (*now)(void *be);
  /* Sends len bytes of buf (malloc'd; ownership passes to the backend) to node dst, which may
   * be this node. wire_bytes is the size the transfer has on the wire: len, plus the payload
   * that phantom data mode leaves out. No delivery order is promised: the core does not rely
   * on one; only the start order of a node's data transfers is (see nw_channel). */
  void (*send)(void *be, int dst, nw_channel channel, void *buf, size_t len, uint64_t wire_bytes);
  /* Runs exec on local device `device` (see nw_exec_run, nw_exec_run_gpu). The device posts
   * NW_EVENT_EXEC_DONE with the same exec when done. A device runs its execs one at a time,
   * in launch order. Devices that are streams of one GPU run concurrently on it. */
  void (*launch)(void *be, int device, nw_exec *exec);
  /* Posts NW_EVENT_TIMER with token after delay seconds. */
  void (*timer)(void *be, double delay, uint64_t token);
  /* Wakes the driver blocked in its call (node 0 only). */
  void (*driver_return)(void *be, nw_driver_call *call);
  /* Uniform 64-bit random numbers from the run's seed (reproducible in simulation). */
  uint64_t (*random)(void *be);
  /* Starts a host<->GPU copy; posts NW_EVENT_COPY_DONE with the same copy when it is done.
   * Copies in one direction on one GPU go one after another (one copy engine each way);
   * the two directions and the GPU's kernels overlap. NULL for a backend without GPUs. */
  void (*copy)(void *be, nw_copy *c);
  /* The core allocated (pin 1) or is about to free (pin 0) len bytes at ptr that GPU copies
   * will read and write: a node's copy of an address space. A backend with GPUs may page-lock
   * them so that copies go by DMA at full speed (paper 4.1, pinned buffers). May be NULL. */
  void (*host_memory)(void *be, void *ptr, size_t len, int pin);
  /* Fills *room (see nw_memory_room); called on node 0, functional data only. May be NULL:
   * no check. */
  void (*memory_room)(void *be, nw_memory_room *room);
} nw_backend_ops;

typedef struct nw_backend {
  const nw_backend_ops *ops;
  void *be;
} nw_backend;

/* What the device side does with an exec: in functional mode, run the kernel on the exec's
 * views (it touches nothing else, so any thread may call this); flops gives the cost-model
 * work the simulator charges. An exec on a CPU work-group has nw_exec_items() work-items
 * (paper 4.3.1): the device runs nw_exec_run_item(exec, i) for every i at the same time, one
 * per core, and the exec is done when all are; nw_exec_run runs them one after another (for a
 * device that models time rather than spends it). Elsewhere an exec has one item. */
void nw_exec_run(nw_exec *exec);
int nw_exec_items(const nw_exec *exec);
void nw_exec_run_item(nw_exec *exec, int item);
double nw_exec_flops(const nw_exec *exec);
/* The bytes the subtask moves to and from memory (the kind's bytes cost model; 0: none given):
 * with a memory bandwidth, a simulator charges max(flops / speed, bytes / bandwidth). */
double nw_exec_bytes(const nw_exec *exec);
/* The threads one GPU launch of the subtask runs (the kind's gpu_threads; 0: it fills the GPU,
 * or the kind does not say). */
uint64_t nw_exec_gpu_threads(const nw_exec *exec);
/* Pages of the node's copies of spaces a CPU exec's kernel writes first, in place: page faults
 * the kernel takes (on hardware, inside its time; a simulator charges them there). */
uint64_t nw_exec_kernel_pages_fresh(const nw_exec *exec);
/* The share of a GPU's speed a launch of `threads` threads gets when `fill_threads` fill it:
 * its whole warps (of 32) over fill_threads, at most 1; 1 when either is 0 (not said). What
 * the simulator charges and the model-based policies predict. */
double nw_gpu_launch_share(uint64_t threads, double fill_threads);
/* The GPU side of an exec: `memory` is the base of the GPU's memory (the offsets of
 * core/device/devmem.h are relative to it). nw_exec_run_gpu runs the kind's CUDA kernel on
 * `stream`; nw_exec_run_gpu_emulated runs its host emulation (simulator, functional mode). */
void nw_exec_run_gpu(nw_exec *exec, unsigned char *memory, void *stream);
void nw_exec_run_gpu_emulated(nw_exec *exec, unsigned char *memory);
/* Agglomeration (core/device/agglo.h): whether the exec's kind has a batched GPU entry (the
 * host emulation's when `emulated`, else CUDA's); whether it is high priority (its kind's
 * priority above 0, never agglomerated); its task, the group its launch may share. */
int nw_exec_batchable(const nw_exec *exec, int emulated);
int nw_exec_high_priority(const nw_exec *exec);
uint64_t nw_exec_task_id(const nw_exec *exec);
/* Runs k execs of one task, each batchable, as one launch of the kind's batched entry (its
 * host emulation when `emulated`, else CUDA's on `stream`). 0 when memory for the views'
 * table runs out (nothing ran). */
int nw_exec_run_gpu_batch(nw_exec *const *execs, int k, unsigned char *memory, void *stream,
                          int emulated);
/* Many-task GPU mode (include/narwhal_mtc.h): whether the exec's kind describes its subtasks
 * as worker-kernel operations; nw_exec_mtc_task fills *task for the exec on the GPU whose
 * memory starts at `memory` (device pointers on hardware, host ones in the simulator), 0 or -1
 * (no entry, or the kind refused the subtask). nw_mtc_run_host runs a descriptor on host
 * memory, as the worker kernel runs it on the GPU's (core/device/mtc_ops.c): 0, or -1 for an
 * operation it does not know or arguments out of its range. */
int nw_exec_has_mtc(const nw_exec *exec);
int nw_exec_mtc_task(nw_exec *exec, unsigned char *memory, struct nw_mtc_task *task);
int nw_mtc_run_host(const struct nw_mtc_task *task);
/* The kind's name, for a backend's one-line reports. */
const char *nw_exec_kind_name(const nw_exec *exec);
/* The bytes a driver call copies when the node handles it (a space write or read: its
 * length; 0 for the others): a backend that charges the runtime's own time (the simulator
 * with a calibrated platform) charges these at memory bandwidth, apart from the call's
 * fixed cost. */
uint64_t nw_driver_call_bytes(const nw_driver_call *call);
/* Frees a copy the backend will never finish (the run is over). */
void nw_copy_free(nw_copy *c);

#endif
