/* loop_backend.h: a deterministic in-process backend for testing the core without SimGrid.
 *
 * A discrete-event loop runs every node in one thread. Messages arrive after a latency plus
 * size / bandwidth, optionally with a random extra delay (jitter) so that messages overtake
 * each other: the core promises not to rely on delivery order, and this checks it. With
 * serial_data, a node's data transfers share its one link, one after another, demand before
 * prefetch (core/data/sendq.h), as the simulator's sender does; otherwise each transfer goes at
 * once on its own, so none ever waits for another whatever its priority. Kernels run
 * at launch (functional mode), or at completion (kernel_at_done); an exec completes after
 * flops / speed. A test may script extra delays of chosen messages and execs, to force one
 * order of events. The application's driver runs in its own thread, handing calls to node 0
 * through the loop.
 */
#ifndef NW_LOOP_BACKEND_H
#define NW_LOOP_BACKEND_H

#include "run.h"

typedef struct loop_config {
  int nodes, devices;
  int functional;
  double latency_s, bandwidth, speed; /* seconds, bytes/s, flops/s per device */
  double jitter_s;                    /* max random extra delay per message */
  double slow_node_factor;            /* node 1 computes this many times slower (1 = none) */
  int serial_data;                    /* a node sends its data one transfer at a time */
  int check_views;                    /* node config's check_views (viewcheck.h) */
  int compress_network;               /* node config's compress_network */
  uint64_t seed;
  nw_sched_config sched;
  /* Run each kernel when its exec completes instead of at launch. A real device runs a kernel
   * any time between the two (behind a losing copy still computing, say), while the node goes
   * on handling events: a view that points at bytes the node changes meanwhile shows here. */
  int kernel_at_done;
  /* Scripted timing, for tests that need one order of events: seconds added to a message's
   * delivery (called when it is sent; the buffer is the core's wire format) and to an exec's
   * run time. NULL: none. */
  double (*message_delay)(void *ctx, int src, int dst, nw_channel ch, const void *buf, size_t len);
  double (*exec_delay)(void *ctx, int node, const nw_exec *e);
  void *script;
  /* The cluster's devices as the nodes are told (nw_node_config.cluster), nodes * devices
   * entries; NULL: CPUs of one core at `speed`. A test may describe a device as a GPU to pin a
   * policy's weighting; it still executes at `speed`. */
  const nw_device_desc *cluster;
  /* Faults (core/node/faults.h), as the simulator injects them: lost messages sent again after
   * rto_s, late ones, nodes lost at a time (NW_EVENT_NODE_LOST to the others detect_s later;
   * node 0's at once to itself). Link faults have no meaning here (no links): ignored. Draws
   * come from a generator of their own, so a plan without faults changes nothing. */
  nw_fault_plan faults;
} loop_config;

void loop_config_defaults(loop_config *c);
/* Runs app on the modelled cluster; returns the app's status, fills res. */
nw_status loop_run(const loop_config *c, const nw_app *app, const nw_app_args *args,
                   nw_run_result *res);

#endif
