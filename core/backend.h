/* backend.h: the one interface a backend implements (DESIGN.md, "event-driven state machine").
 *
 * A node (core/node.h) is a state machine. The backend owns time, threads and transport: it
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

/* Two channels, as in Unicorn's network subsystem (section 4.1): light control messages must
 * not queue behind heavy data transfers. */
typedef enum { NW_CHANNEL_CONTROL = 0, NW_CHANNEL_DATA = 1 } nw_channel;

typedef enum {
  NW_EVENT_MESSAGE = 1, /* a message from another node (or this one) arrived */
  NW_EVENT_EXEC_DONE,   /* a subtask launched with launch() finished on its device */
  NW_EVENT_TIMER,       /* a timer set with timer() expired */
  NW_EVENT_DRIVER       /* the driver (application main, node 0) made a call */
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
} nw_event;

typedef struct nw_backend_ops {
  /* Seconds since the run started: simulated time, or wall time on hardware. */
  double (*now)(void *be);
  /* Sends len bytes of buf (malloc'd; ownership passes to the backend) to node dst, which may
   * be this node. wire_bytes is the size the transfer has on the wire: len, plus the payload
   * that phantom data mode leaves out. No delivery order is promised: the core does not rely
   * on one. */
  void (*send)(void *be, int dst, nw_channel channel, void *buf, size_t len, uint64_t wire_bytes);
  /* Runs exec on local device `device` (see nw_exec_run). The device posts
   * NW_EVENT_EXEC_DONE with the same exec when done. A device runs one exec at a time. */
  void (*launch)(void *be, int device, nw_exec *exec);
  /* Posts NW_EVENT_TIMER with token after delay seconds. */
  void (*timer)(void *be, double delay, uint64_t token);
  /* Wakes the driver blocked in its call (node 0 only). */
  void (*driver_return)(void *be, nw_driver_call *call);
  /* Uniform 64-bit random numbers from the run's seed (reproducible in simulation). */
  uint64_t (*random)(void *be);
} nw_backend_ops;

typedef struct nw_backend {
  const nw_backend_ops *ops;
  void *be;
} nw_backend;

/* What the device side does with an exec: in functional mode, run the kernel on the exec's
 * views (it touches nothing else, so any thread may call this); flops gives the cost-model
 * work the simulator charges. */
void nw_exec_run(nw_exec *exec);
double nw_exec_flops(const nw_exec *exec);

#endif
