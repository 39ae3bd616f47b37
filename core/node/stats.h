/* stats.h: counters a node keeps about a run, flat so a backend can gather them as bytes. */
#ifndef NW_STATS_H
#define NW_STATS_H

#include <stdint.h>

#include "stats_list.h"

#define NW_STATS_MAX_DEVICES 64
/* Rows of the per-event-kind runtime costs (index: nw_event_kind, 1 to 5; row 0 unused). */
#define NW_STATS_EVENT_KINDS 6
/* A row's name: "message", "exec_done", "timer", "driver", "copy_done" ("" for row 0 and out
 * of range). The --json key of `runtime_costs` and, prefixed "rt_", the platform property
 * of its cost (run.c). */
const char *nw_stats_event_name(int kind);

/* The classes of events whose bytes cost apart from the others' (an event's handler copies a
 * message it got into the node's copy of the data, or gathers data from it into a message it
 * sends; each at the cache's rate while source and destination fit in the last-level cache and
 * at memory's beyond). Measured on two one-core ranks with a 32 MiB cache: a tile copied in
 * 0.3-0.6 ns a byte, gathered 0.07; a 134 MB result half copied in 1.1-1.4, gathered 0.37
 * (docs/experiments/bytes-beyond-cache.md). The fourth, an event copying in what fits the
 * cache, is every other event. */
enum {
  NW_COST_GATHER,        /* mostly gathered, and in the cache */
  NW_COST_BEYOND,        /* mostly copied in, at least the knee */
  NW_COST_GATHER_BEYOND, /* mostly gathered, at least the knee */
  NW_COST_CLASSES
};

/* The class of an event that moved `bytes`, `gathered` of them gathered, with the cache's knee
 * at cache_bytes (0: none): an NW_COST_ value, or -1 for none (copied in, in the cache). */
int nw_cost_class(double bytes, double gathered, double cache_bytes);

/* The class's suffix in a platform's properties: rt_KIND_per_byte + suffix ("_gather",
 * "_beyond", "_gather_beyond"). */
const char *nw_cost_class_suffix(int cls);

/* One kind of event's samples of CPU time (y), over the bytes it moved (x), the row runs its
 * copies took (r), the pages of the node's copies of spaces it wrote first (p,
 * nw_stats.space_pages_fresh: each a page fault) and the pages of its new private views it
 * touched first (v, nw_stats.view_pages_fresh): how many, and the sums a least-squares fit
 * over 1, x, r, p and v needs. */
typedef struct nw_cost_sums {
  uint64_t events;
  double bytes, bytes_sq, runs, runs_sq, runs_bytes, cpu_s, cpu_sq, bytes_cpu_s, runs_cpu_s;
  double pages, pages_sq, pages_bytes, pages_runs, pages_cpu_s;
  double views, views_sq, views_bytes, views_runs, views_pages, views_cpu_s;
} nw_cost_sums;

/* What the real backend measures of the runtime's own costs, for `narwhal calibrate`, which
 * fits each kind of event's handling time as a + b * bytes (README, "Calibration"). Per kind
 * of event (index nw_event_kind): how many the loop handled, and the sums of the wall seconds
 * each took (y), of the bytes it moved (x: a message's length, a driver call's
 * nw_driver_call_bytes, the bytes its commits copied), of x * x and of x * y. Then the two
 * hand-offs of a CPU subtask between the event loop and its compute thread: launch to the
 * kernel's start, and the kernel's end to the start of handling its completion. */
typedef struct nw_rt_costs {
  uint64_t events[NW_STATS_EVENT_KINDS];
  double s[NW_STATS_EVENT_KINDS];
  double bytes[NW_STATS_EVENT_KINDS];
  double bytes_sq[NW_STATS_EVENT_KINDS];
  double bytes_s[NW_STATS_EVENT_KINDS];
  /* In a run that keeps a model, the handlers' CPU time as well (the handling thread's CPU
   * clock): where a rank's threads share a core, a handler's wall time also counts the time
   * its thread waited for the core, which the simulator charges as contention of its own.
   * Their sums, for a fit over bytes and the row runs the copies moved (nw_stats.copy_runs);
   * cpu[k].events counts the events whose CPU time was taken. */
  nw_cost_sums cpu[NW_STATS_EVENT_KINDS];
  uint64_t launches, dones;
  double launch_s, done_s;
  /* The event loop's spins (polling before it sleeps) that began while a kernel ran on its
   * rank: how many, their wall time and the loop thread's CPU time in them. Where the loop
   * has no core of its own, cpu / wall is the share of a core it took from the kernels. */
  uint64_t spins;
  double spin_s, spin_cpu_s;
  /* The same for its spins begun beside a running kernel while a transfer with a rank of the
   * same host was under way (they poll until it ends; not counted above): cpu / wall is the
   * share of a core such polling took from the kernels. */
  uint64_t shm_polls;
  double shm_poll_s, shm_poll_cpu_s;
  /* The CPU time of such spins begun with no kernel running, and the bytes of the messages the
   * rank sent to and received from ranks of its host: all the polling, per byte moved. */
  double shm_poll_idle_cpu_s, shm_bytes;
  /* The gaps between the event loop's network polls while a kernel ran on its rank: how many,
   * their sum and their sum of squares. A message that arrives at a random time waits for the
   * next poll sum_sq / (2 sum) on average (the residual of a gap), and where the loop shares
   * its core with the kernel, a gap is as long as the kernel's scheduler makes it. */
  uint64_t poll_gaps;
  double poll_gap_s, poll_gap_sq_s2;
  /* Pages first touched in a timed probe (real_pages.h) and the seconds they took: each
   * handler's CPU time above is kept without its new views' first touches at that rate
   * (nw_stats.view_pages_fresh), which the simulator charges as rt_page_fresh apart from the
   * copying's per-byte and per-run costs. */
  uint64_t page_probes;
  double page_probe_s;
  /* The CPU-time samples of the events of each price class (nw_cost_class), also counted in
   * the sums above, which `narwhal calibrate` prices a byte of apart. cache_bytes: the real
   * backend's knee (real_cache_knee_bytes; 0: no event is beyond it). */
  double cache_bytes;
  nw_cost_sums split[NW_COST_CLASSES][NW_STATS_EVENT_KINDS];
} nw_rt_costs;

/* Adds x into t, or takes it out (sign -1). */
void nw_cost_sums_add(nw_cost_sums *t, const nw_cost_sums *x, int sign);

/* Adds one event of kind k whose handler took cpu_s seconds of CPU time moving bytes (of which
 * it gathered `gathered` into messages it sent) in runs row runs, writing `pages` pages of the
 * node's copies of spaces first and touching `views` pages of new private views first, to the
 * CPU-time sums of c, and to those of its price class (nw_cost_class) where it has one. */
void nw_rt_costs_sample(nw_rt_costs *c, int k, double bytes, double gathered, double runs,
                        double pages, double views, double cpu_s);

/* Adds x into sum, field by field (run.c). */
void nw_rt_costs_add(nw_rt_costs *sum, const nw_rt_costs *x);

typedef struct nw_device_stats {
  uint64_t subtasks;         /* subtasks executed and committed */
  double busy_s;             /* time spent executing */
  double finish_s;           /* when the device last finished a subtask */
  uint64_t steals_attempted; /* steal requests it made (its own node's agent included) */
  uint64_t steals_succeeded;
  uint64_t steals_local_attempted; /* of which to its own node's steal agent */
  uint64_t steals_local_succeeded;
  uint64_t multi_assigned;    /* its running subtasks that another device took a copy of */
  uint64_t multi_assign_wins; /* copies it ran that finished first */
  uint64_t cancelled;         /* instances it ran or held whose result was discarded */
  uint64_t prefetch_hits;     /* subtasks whose data was all there when their turn came */
  uint64_t bytes_fetched;     /* bytes its subtasks' reads asked other nodes for */
  double fetch_wait_s;        /* total time its subtasks waited for their data */
  /* Total time the device had a current subtask whose data had not all arrived: from when
   * the subtask became current (prefetched data still on the way counts from then, not from
   * the prefetch request) to when its last read arrived. What demand priority shortens. */
  double demand_wait_s;
  int kind;           /* nw_device_kind */
  uint64_t bytes_h2d; /* GPU: bytes copied host to device for its subtasks */
  uint64_t bytes_d2h; /* GPU: bytes copied device to host */
  int cores;          /* CPU: the cores it runs on (a work-group: more than one) */
  int workgroup_size; /* a CPU work-group: the size its last subtask ran with */
} nw_device_stats;

/* A node's counters: one field per row of NW_STATS_COUNTERS (stats_list.h), then what the list
 * cannot say as one number. */
typedef struct nw_stats {
#define NW_STATS_FIELD(type, field, key, combine, place) type field;
  NW_STATS_COUNTERS(NW_STATS_FIELD)
#undef NW_STATS_FIELD
  /* The runtime's own costs, measured by the real backend (0 in simulation): arrays per kind
   * of event, summed by nw_rt_costs_add and printed as "runtime_costs" by report.c. */
  nw_rt_costs rt;
  int devices;
  nw_device_stats device[NW_STATS_MAX_DEVICES];
} nw_stats;

/* Bytes the node copied between its copy of the spaces and subtasks' private views (fills at
 * launch and commits): what an event's handling copied is this after it less this before,
 * which calibration prices per byte and the simulator charges. */
static inline uint64_t nw_stats_view_bytes(const nw_stats *st) {
  return st->bytes_view_copies + st->bytes_view_fills;
}

#endif
