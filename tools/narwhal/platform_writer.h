/* platform_writer.h: writes a SimGrid platform of identical nodes in the layout of
 * platforms/gen-platform.sh (platforms/README.md: node i is zone n<i> with host n<i>-cpu and
 * GPU hosts n<i>-gpu<k>, split-duplex NICs, one fat-pipe backbone), plus the runtime-cost
 * properties the simulator charges (backends/simgrid/sim_costs.h). `narwhal calibrate` fills
 * it with measured numbers. */
#ifndef NW_TOOL_PLATFORM_WRITER_H
#define NW_TOOL_PLATFORM_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "cost_fit.h"
#include "stats.h"

#define TOOL_PLATFORM_MAX_APPS 32
#define TOOL_PLATFORM_MAX_COPY_WIDTHS 16 /* the simulator reads as many (SIM_COPY_RATES_MAX) */
#define TOOL_PLATFORM_MACHINE_MAX 64     /* a machine's name, with its terminating NUL */

typedef struct tool_app_costs {
  char name[64];
  uint64_t events[NW_STATS_EVENT_KINDS];       /* 0: the application's runs had none of that kind */
  tool_event_cost event[NW_STATS_EVENT_KINDS]; /* by nw_event_kind */
  double launch_s, done_s;                     /* < 0: not measured */
  /* A message's wait to be seen beside a running kernel in this application's runs (0: not
   * measured): the poll gaps depend on the kernel beside the loop (PageRank's 1.5 ms against
   * 0.96 ms over ten applications' runs, on one-core ranks). */
  double pickup_s;
  /* Its polling of transfers within the host (0: not measured): rt_shm_poll_share@APP and
   * rt_shm_poll_per_byte@APP. */
  double shm_poll_share, shm_poll_per_byte;
} tool_app_costs;

typedef struct tool_platform {
  int nodes, cores;
  double core_speed; /* flop/s of one core */
  int gpus;          /* per node */
  double gpu_speed;  /* flop/s */
  uint64_t gpu_memory;
  double pcie_bandwidth, pcie_latency; /* bytes/s, s */
  /* Copies of rows of copy_width[i] bytes (increasing) move at copy_rate[i] bytes/s: every GPU
   * host's copy_row_rates property (platforms/README.md); 0 widths: none written. */
  int copy_widths;
  uint64_t copy_width[TOOL_PLATFORM_MAX_COPY_WIDTHS];
  double copy_rate[TOOL_PLATFORM_MAX_COPY_WIDTHS];
  /* Node to node: a route is the sender's NIC, the backbone (no latency, never the bottleneck)
   * and the receiver's NIC, so a message takes 2 * nic_latency + size / nic_bandwidth. */
  double nic_bandwidth, nic_latency;
  /* Bytes of a data transfer in flight to a peer that a control message to the same peer waits
   * behind (one TCP connection per pair; 0: none, as on shared memory): every n<i>-cpu host's
   * rt_control_behind (sim_costs.h). */
  double control_behind;
  /* The largest message a rank sends before its receiver's MPI progress sees it (Open MPI's
   * eager limit): every n<i>-cpu host's rt_eager_bytes (sim_costs.h); 0: not written. */
  double eager_bytes;
  /* The runtime's own costs, properties of every n<i>-cpu host (0: none): handling an event
   * of kind k (nw_event_kind) costs event[k] (cost_fit.h: rt_KIND, rt_KIND_per_byte,
   * rt_KIND_per_run, rt_KIND_per_space_page, and per price class, with the knee at
   * cache_bytes, rt_KIND_per_byte_gather, _beyond, _gather_beyond and rt_cache_bytes:
   * sim_costs.h); a CPU subtask's two hand-offs take launch_s and done_s. */
  tool_event_cost event[NW_STATS_EVENT_KINDS];
  double cache_bytes;
  double launch_s, done_s;
  /* Where the event loop shares the node's cores with the compute threads: its weight against
   * one of them and its spin after an event (0: it has a core of its own; sim_costs.h). */
  double loop_weight, spin_s;
  /* The share of a core the loop took from a running kernel while it spun, measured (0: not
   * measured; the simulator then lets the spin take its weight's share). */
  double spin_share;
  /* Where it shares them: the share of a core its polls of a transfer with a rank of the same
   * machine took from a running kernel (0: not measured; rt_shm_poll_share, sim_costs.h). */
  double shm_poll_share;
  /* ... and the CPU seconds all its polling of such transfers took per byte they moved (0: not
   * measured; rt_shm_poll_per_byte). */
  double shm_poll_per_byte;
  /* Node i's machine, the host its rank ran on (rt_machine: nodes of one machine share its
   * memory; sim_shm_poll.h); NULL: not written. */
  const char (*machine)[TOOL_PLATFORM_MACHINE_MAX];
  /* Where it shares them: how long a message that came while it waited beside a running
   * kernel waited to be seen, on average (0: not measured; rt_pickup, sim_costs.h). */
  double pickup_s;
  /* Seconds per 4 KiB page a new private view's buffer first touches (0: not measured;
   * rt_page_fresh, sim_costs.h). */
  double page_fresh_s;
  /* The same event and hand-off costs fitted to one application's runs alone, written as
   * properties suffixed "@APP" (rt_message_per_byte@fft2d): a simulated run of that
   * application takes them where present, the pooled ones above otherwise (sim_costs.h).
   * Only kinds of event the application's runs handled are written. */
  int apps;
  tool_app_costs app[TOOL_PLATFORM_MAX_APPS];
  const char *comment; /* written at the top, in an XML comment; may be NULL */
} tool_platform;

/* Writes p to path; non-zero with a one-line reason in why when the file cannot be written. */
int tool_platform_write(const tool_platform *p, const char *path, char *why, size_t why_len);

#endif
