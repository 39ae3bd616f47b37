/* sim_costs.h: the runtime's own costs on a calibrated platform (README, "Calibration").
 *
 * `narwhal calibrate` measures them on hardware and writes them as properties of each node's
 * CPU host n<i>-cpu (all optional, 0 when absent, so an uncalibrated platform runs as before):
 *   rt_message, rt_exec_done, rt_timer, rt_driver, rt_copy_done   seconds per event handled
 *   rt_<kind>_per_byte                                          seconds per byte it moves
 *   rt_<kind>_per_run     seconds per row run (a memcpy) its copies took (nw_region_runs)
 *   rt_<kind>_per_space_page  seconds per page of the node's copies of spaces it wrote first
 *                         (nw_stats.space_pages_fresh: a page fault each on hardware, where a
 *                         copy is mapped lazily; counted in phantom runs too where a platform
 *                         prices them)
 *   rt_<kind>_per_view_page  seconds per page of a new private view it touched first, above
 *                         rt_page_fresh (nw_stats.view_pages_fresh: the probe prices a page
 *                         with nothing else running; in a handler, with the view's unmapping
 *                         when it goes, LU's commits paid 0.8-1.0 us a page more)
 *   rt_<kind>_per_byte_gather, rt_<kind>_per_byte_beyond, rt_<kind>_per_byte_gather_beyond,
 *   rt_cache_bytes        an event of a price class (nw_cost_class: it gathered most of its
 *                         bytes into messages it sent, it moved rt_cache_bytes or more, or
 *                         both) pays its class's price for each of its bytes instead of
 *                         rt_<kind>_per_byte (absent: the same): a handler gathers data into a
 *                         reply faster than it copies in what it got, and both run at the
 *                         cache's rate while source and destination fit in the last-level
 *                         cache, at memory's beyond (docs/experiments/bytes-beyond-cache.md)
 *   rt_launch, rt_done       a CPU subtask's hand-offs: launch to kernel start, kernel end to
 *                            its completion reaching the event loop
 *   rt_reduce_per_byte       seconds per byte a reduction combines (paper 4.5: on the CPU)
 *   rt_rle_per_byte          seconds per raw byte run-length encoded or decoded (4.6)
 *   rt_loop_weight           the event loop's share of a core against one compute thread's
 *                            when both want it (0 or absent: the loop has a core of its own)
 *   rt_spin                  seconds the loop keeps polling after an event before it sleeps
 *                            (only with rt_loop_weight)
 *   rt_spin_share            the share of a core (0, 1] such a spin took from a kernel running
 *                            beside it, as measured (absent: the loop's weight decides)
 *   rt_machine               a name (not a cost): the machine the node's rank ran on; two
 *                            nodes with the same one move data through shared memory, which
 *                            moves only while both event loops poll (sim_shm_poll.h; only with
 *                            rt_loop_weight)
 *   rt_shm_poll_share        the share of a core (0, 1] the loop's polling of such a transfer
 *                            took from a kernel running beside it, as measured (absent: the
 *                            loop's weight decides)
 *   rt_shm_poll_per_byte     seconds of each loop's polling per byte such a transfer moves
 *                            (absent: 1 / the route's bandwidth, and the receive buffer's fresh
 *                            pages at rt_page_fresh on top); both this and rt_shm_poll_share
 *                            also per application (@APP, before the pooled ones): they depend
 *                            on its messages and on the kernel beside the loop
 *   rt_pickup                the mean of how long a message that comes while the loop waits
 *                            beside a running kernel waits to be seen (only with
 *                            rt_loop_weight), drawn from an exponential distribution: on
 *                            hardware the loop polls again only when the kernel's thread
 *                            leaves it the core; the mean residual of the gaps between its
 *                            polls there, as `narwhal calibrate` measured them; an
 *                            application's own rt_pickup@APP comes first (the gaps depend
 *                            on the kernel beside the loop: matmul's 0.4 ms, PageRank's 1.1)
 *   rt_control_behind        bytes: a control message to a peer waits behind at most this much
 *                            of the node's data transfer in flight to the same peer (one TCP
 *                            connection per pair of ranks: what is already in its fragment and
 *                            socket buffer goes first; `narwhal calibrate` measures it)
 *   rt_eager_bytes           bytes: a data message longer than this goes by rendezvous, as
 *                            Open MPI sends one past its eager limit: its first this-many
 *                            bytes cross, the receiving loop must poll to see them, its answer
 *                            crosses back (behind the data in flight that way, as a control
 *                            message does), the sending loop must poll to see that, and only
 *                            then does the rest move (sim_world.c; `narwhal calibrate`
 *                            measures it; absent or 0: every message moves at once)
 *   rt_page_fresh            seconds per 4 KiB page a subtask's new private view first
 *                            touches (nw_stats.view_pages_fresh: the node's buffer pool had no
 *                            buffer to recycle), spent by the event that made the view; and per
 *                            fresh page of a message's buffers between nodes as the C library
 *                            hands them out (sim_msg_pages.h): the sender's, spent before the
 *                            message leaves, the receiver's, before it is handled; and per page
 *                            of the node's copy of a space a CPU kernel writing in place writes
 *                            first (nw_stats.kernel_pages_fresh), inside the kernel's time, as on
 *                            hardware (a policy that never runs a subtask twice writes in place)
 *   rt_kernel_scale          a number > 0 (absent: 1): the node's CPU kernels take that many
 *                            times what the model or the cost model gives them. `narwhal
 *                            validate` sets it from a training workload run beside each real
 *                            round (its calibration's anchor): the machine's kernels then ran
 *                            that many times the calibration's (a virtual machine's host
 *                            changes speed: 14-23% from one half hour to the next on the
 *                            project's 2-core VM, docs/experiments/kernel-drift.md)
 *   rt_<kind>@APP, rt_<kind>_per_byte@APP, rt_<kind>_per_run@APP, rt_launch@APP, rt_done@APP,
 *   rt_<kind>_per_byte_gather@APP and the other classes' prices, rt_shm_poll_share@APP,
 *   rt_shm_poll_per_byte@APP
 *                            the same, fitted to application APP's calibration runs alone: a
 *                            run of APP takes them where present (an application's messages
 *                            cost per byte what its copies' shapes and first touches make them);
 *                            where rt_<kind>@APP is there (the fit of that kind, as calibrate
 *                            writes it), all that kind's prices are the fit's, a part absent
 *                            being 0, never the pooled one (a fit that put the page faults
 *                            into its price per byte would pay them twice)
 * An event's fixed and message/driver-call bytes cost before it takes effect, the bytes its
 * commits copied after (they are known only then). Without rt_loop_weight the loop spends them
 * on a runtime core of its own: a pause of the loop, not flops shared with the compute
 * devices. With it (the real backend's layout on a rank whose compute threads take all its
 * cores: `narwhal calibrate` writes the weight Linux's scheduler gives the loop at nice 0 over
 * the compute threads' nice value, 9.31 for nice 10), the loop computes them on the node's
 * CPU host at that priority, beside the compute devices' kernels, and after each event that
 * leaves its queue empty it spins there for rt_spin, or until the next event comes: on a
 * one-core rank a kernel then slows down while the loop handles its node's messages, as it
 * does on hardware (docs/experiments/validation-event-loop.md). */
#ifndef NW_SIM_COSTS_H
#define NW_SIM_COSTS_H

#include <simgrid/host.h>
#include <stddef.h>

#include "narwhal.h"
#include "stats.h"

typedef struct sim_costs {
  double event_s[NW_STATS_EVENT_KINDS];          /* by nw_event_kind */
  double event_s_per_byte[NW_STATS_EVENT_KINDS]; /* by nw_event_kind */
  double event_s_per_run[NW_STATS_EVENT_KINDS];  /* per row run its copies took */
  /* per page of the node's copies of spaces it wrote first (rt_KIND_per_space_page) */
  double event_s_per_space_page[NW_STATS_EVENT_KINDS];
  int space_pages_priced; /* some kind's is not 0 */
  /* per page of a new private view it touched first, above page_fresh_s
   * (rt_KIND_per_view_page) */
  double event_s_per_view_page[NW_STATS_EVENT_KINDS];
  /* per byte of an event of price class cls (nw_cost_class; 0: event_s_per_byte) */
  double event_s_per_byte_class[NW_COST_CLASSES][NW_STATS_EVENT_KINDS];
  double cache_bytes; /* 0: no event is beyond the cache */
  double launch_s, done_s;
  double reduce_s_per_byte, rle_s_per_byte;
  double loop_weight, spin_s;
  double spin_share;     /* 0: a spin takes the loop's weight's share of a core */
  double shm_poll_share; /* the same for polling a transfer within the machine (sim_shm_poll.h) */
  double shm_poll_per_byte; /* its polling's CPU seconds per byte moved; 0: not measured */
  double pickup_s;          /* a message's wait to be seen beside a running kernel (rt_pickup) */
  double control_behind;    /* bytes; 0: a control message never waits for data */
  double eager_bytes;       /* bytes; 0: no data message waits for a rendezvous */
  double page_fresh_s;      /* a new view's page, first touched (rt_page_fresh) */
  double kernel_scale;      /* CPU kernels' time over the model's (rt_kernel_scale; 1 absent) */
  int any;                  /* some cost is not 0 */
} sim_costs;

/* Reads host h's properties into c, for application app (may be NULL): an event's and the
 * hand-offs' costs are taken from KEY@app where the host has it (`narwhal calibrate` fits
 * them to each workload's application alone), from KEY otherwise. NW_ERR_ARG with one line
 * naming the platform, host and property when a value is not a finite number >= 0. */
nw_status sim_costs_read(sg_host_t h, const char *platform, const char *app, sim_costs *c,
                         char *why, size_t why_len);

#endif
