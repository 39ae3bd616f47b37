/* real_backend.c: the core's node on real hardware, one MPI rank per node (DESIGN.md).
 *
 * Threads per rank, as in Unicorn (paper section 4.1): an event-loop thread, which is also the
 * rank's MPI progress engine (real_net.h: it polls MPI while it waits); one compute thread per
 * CPU device runs kernels, any idle one taking any CPU device's next subtask (real_cpu_pool.h;
 * a work-group device adds a thread per further core, real_team.c). On
 * rank 0 the main thread runs the application's driver. Every thread that waits for another
 * spins briefly before it sleeps (real_spin.h), so a hand-off between threads costs no context
 * switch when both run.
 *
 * Who handles the node's events (hand-offs were most of a small task's cost). The
 * node is one state machine (core/backend.h: one event at a time); node_mu makes it so. A
 * compute thread that finished a subtask queues the event and then handles the queue itself if
 * node_mu is free (drain), instead of handing the event to the event loop and waiting for it
 * there: the subtask's commit and the next launch cost no thread hop at all. Once a launch
 * makes a subtask runnable, it stops handling and goes to run it, and wakes the event loop for
 * what is left (a chain of empty tasks: the launch waited 2.0 us for the rest of the queue
 * before, 1.1 after). The driver that made a call does the same as a compute thread: it
 * queues it and handles the queue. (Handing its calls to a compute thread spinning for work
 * instead was measured too: no better for a chain, worse for Task Bench's width-2 stencil.)
 * If node_mu is taken, its holder handles the event before it lets go (drain looks at the
 * queue again after unlocking), so nothing waits for a sleeping loop. The event loop handles
 * what arrives otherwise: messages from other ranks, timers, GPU completions. Events are taken
 * in the order they were queued, whoever takes them. MPI calls (sends from handlers, the loop's
 * polls) are serialized by net_mu: MPI_THREAD_SERIALIZED suffices (MPI_Init, the statistics gather
 * and MPI_Finalize, nw_real_finish, happen while no other thread runs).
 */
#define _GNU_SOURCE /* pthread_setname_np; cpu_set_t (real_placement.h) */
#include "real_backend.h"

#include <cblas.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "host_memory.h"
#include "real_cache.h"
#include "real_calibrate.h"
#include "real_cpu_pool.h"
#include "real_gpu.h"
#include "real_lost_rank.h"
#include "real_net.h"
#include "real_pages.h"
#include "real_placement.h"
#include "real_queue.h"
#include "real_spin.h"
#include "real_team.h"
#include "rng.h"

typedef struct device {
  struct rank_state *rs;
  int index;
  real_gpu *gpu; /* a GPU stream: its GPU (the kernels run on real_gpu's threads) */
  int stream;
  real_team *team; /* a CPU work-group: the threads of its other cores */
} device;

typedef struct rank_state {
  int rank, size;
  int host_ranks; /* ranks on this rank's host, this one included */
  nw_node *node;
  real_queue q;
  double t0;
  uint64_t rng;
  device *dev;
  int ndev;
  int measure_cpu; /* the run keeps a performance model: time CPU kernels (cpu_kernel) */
  const nw_run_config *slowed; /* this rank has slowdowns (--slow): cpu_kernel holds; or NULL */
  real_cpu_pool *cpus;         /* the CPU devices' compute threads; NULL without CPU devices */
  real_gpu *gpus[NW_MAX_GPUS_PER_NODE];
  int ngpu;
  real_net *net; /* NULL with one rank: nothing to poll */
  /* driver (rank 0) */
  pthread_mutex_t drv_mu;
  pthread_cond_t drv_cv;
  _Atomic(nw_driver_call *) drv_returned; /* read without the lock while the driver spins */
  int drv_sleeping;                       /* under drv_mu */
  nw_rt_costs costs;          /* the runtime's own costs: the event loop's, then the devices' */
  pthread_mutex_t node_mu;    /* held while handling events: see the header comment */
  pthread_mutex_t net_mu;     /* held around every MPI call once the threads run */
  real_placement place;       /* the reserved cores' split of the rank's cores */
  atomic_int finished;        /* the node finished: events are no longer handled */
  atomic_int handling;        /* a thread holds node_mu in drain */
  real_spin_stats spins;      /* the event loop's spins begun while a kernel ran (measure_cpu) */
  real_spin_stats polls;      /* ... and those begun with a transfer within the host under way */
  real_spin_stats polls_idle; /* such ones begun with no kernel running (measure_cpu) */
  double last_poll;           /* when the loop last polled the network beside a kernel; 0: not */
  double page_s;              /* a new page's first touch (real_pages.h; runs with a model) */
  FILE *event_costs;          /* NARWHAL_EVENT_COSTS: each measured event's cost (recorded runs) */
} rank_state;

static nw_event *new_event(nw_event_kind kind) {
  nw_event *ev = calloc(1, sizeof *ev);
  if (!ev) {
    fprintf(stderr, "narwhal: out of memory\n");
    exit(1);
  }
  ev->kind = kind;
  return ev;
}

/* ---- backend operations (core/backend.h); called on the event-loop thread */

static double op_now(void *be) {
  return real_monotonic() - ((rank_state *)be)->t0;
}

static uint64_t op_random(void *be) {
  return nw_rng_next(&((rank_state *)be)->rng);
}

static void op_send(void *be, int dst, nw_channel ch, void *buf, size_t len, uint64_t wire) {
  rank_state *rs = be;
  (void)wire;
  if (dst == rs->rank) { /* the thread handling this event takes it next (drain) */
    real_queue_post(&rs->q,
                    &(nw_event){.kind = NW_EVENT_MESSAGE, .src = dst, .buf = buf, .len = len}, 0);
    return;
  }
  pthread_mutex_lock(&rs->net_mu);
  real_net_send(rs->net, dst, ch, buf, len);
  pthread_mutex_unlock(&rs->net_mu);
}

static void op_launch(void *be, int d, nw_exec *exec) {
  rank_state *rs = be;
  if (rs->dev[d].gpu)
    real_gpu_launch(rs->dev[d].gpu, rs->dev[d].stream, exec);
  else
    real_cpu_pool_launch(rs->cpus, d, exec);
}

static void op_timer(void *be, double delay, uint64_t token) {
  rank_state *rs = be;
  nw_event *ev = new_event(NW_EVENT_TIMER);
  ev->token = token;
  real_queue_push_at(&rs->q, ev, real_monotonic() + delay);
}

static void op_driver_return(void *be, nw_driver_call *call) {
  rank_state *rs = be;
  pthread_mutex_lock(&rs->drv_mu);
  atomic_store_explicit(&rs->drv_returned, call, memory_order_release);
  if (rs->drv_sleeping)
    pthread_cond_broadcast(&rs->drv_cv);
  pthread_mutex_unlock(&rs->drv_mu);
}

static void op_copy(void *be, nw_copy *c) {
  real_gpu_copy(((rank_state *)be)->gpus[c->gpu], c);
}

/* A space the GPUs copy from and to is page-locked. Where that is refused (a memory-lock
 * limit, say), the run goes on slower: the rank says so once, since its GPU times then measure
 * the driver's staging, not the link (docs/experiments/h100.md's 3 GB/s copies). */
static void op_host_memory(void *be, void *ptr, size_t len, int pin) {
  rank_state *rs = be;
  char why[128] = "";
  if (real_gpu_pin(ptr, len, pin, why, sizeof why) == 0 || !pin)
    return;
  static atomic_int said;
  if (atomic_exchange(&said, 1) == 0)
    fprintf(stderr,
            "narwhal: rank %d: cannot page-lock %zu bytes of a space for GPU copies (%s); its "
            "copies go through the driver's staging, slower\n",
            rs->rank, len, why);
}

/* A process per node: node 0's maps its own copy of each space alone, and shares its host's
 * RAM with the other ranks there, each holding its share of the data. */
static void op_memory_room(void *be, nw_memory_room *room) {
  rank_state *rs = be;
  *room = (nw_memory_room){.ram = nw_host_ram_available(),
                           .ram_nodes = rs->host_ranks,
                           .address = nw_host_address_left(),
                           .address_nodes = 1};
}

static const nw_backend_ops real_ops = {op_now,   op_send,          op_launch,
                                        op_timer, op_driver_return, op_random,
                                        op_copy,  op_host_memory,   op_memory_room};

/* ---- threads */

static int drain(rank_state *rs, int compute);

/* A CPU device's kernel, on whichever compute thread took it (real_cpu_pool.h). Where the
 * run keeps a performance model, the model gets the kernel's thread CPU time rather than its
 * time from launch to completion: where the rank's event loop has no core of its own, the
 * loop takes the compute thread's core while it handles a message or spins for the next one,
 * and that wall time measures the rank's traffic as much as the kernel (conv2d's 2048 tiles on
 * one-core ranks: 30-78 ms from launch to completion, 29-31 ms of CPU time on average,
 * docs/experiments/validation-event-loop.md). The simulator charges the loop's share of the
 * core where the platform says it has none of its own (backends/simgrid/sim_costs.h,
 * rt_loop_weight). A work-group's time is its first item's thread's. */
/* The thread's last kernel's CPU time, for its cpu_done: the pool calls a kernel and its
 * completion on one thread, one after the other, while another thread may already run the
 * same device's next kernel (real_cpu_pool.c). */
static _Thread_local double kernel_cpu_s;

/* A slowed rank (--slow NODE:FACTOR) emulates a node that computes FACTOR times slower: each
 * kernel keeps its core, spinning, until its thread has spent FACTOR times the kernel's own CPU
 * time (the factor of each stretch of it, nw_slowdown_stretch), and only then reports. The
 * simulator divides the node's speed by the factor, so both backends then slow exactly the
 * kernels, and the event loop's handling beside a kernel delays it once on both (the simulator
 * shares the core, sim_world.c). Holding until FACTOR times the kernel's wall time, as this did
 * before, multiplied the loop's interruptions by the factor too: two-rank matmul 3072/768 with
 * rank 1 slowed 4x ran 10-16% longer than simulated where the unslowed run matched
 * (docs/experiments/slowdown-cpu-hold.md). Busy threads beside the kernels, the way it was
 * done before that, slowed one rank of the 2-core VM 2.01x, 4.05x and 4.95x at FACTOR 2, 3 and
 * 4 (the kernels lost their caches to the time slices, 13-33% more CPU time), slowed the other
 * ranks of the host too, and delayed the loop's messages between kernels (docs/validation.md).
 * The kernel's CPU time, which a model records, is taken before the hold. */
static void hold_slowed(const rank_state *rs, double start, double cpu_s) {
  double at = start - rs->t0;
  double more = nw_slowdown_stretch(rs->slowed, rs->rank, at, cpu_s) - at - cpu_s;
  double until = real_thread_cpu_seconds() + more;
  while (real_thread_cpu_seconds() < until) /* as a kernel would: the loop preempts it (nice) */
    ;
}

static void cpu_kernel(void *ctx, int d, nw_exec *e) {
  rank_state *rs = ctx;
  device *dv = &rs->dev[d];
  int timed = rs->measure_cpu || rs->slowed;
  double cpu0 = timed ? real_thread_cpu_seconds() : 0;
  double start = rs->slowed ? real_monotonic() : 0;
  if (dv->team)
    real_team_run(dv->team, e);
  else
    nw_exec_run(e);
  double cpu = timed ? real_thread_cpu_seconds() - cpu0 : 0;
  kernel_cpu_s = rs->measure_cpu ? cpu : 0;
  /* Less the page faults of its first writes in place (the page probe's price each), so that a
   * model holds the kernel's own time whichever policy measured it, and a run compares its
   * kernels with the model alike; the simulator charges the faults apart (a policy that never
   * runs a subtask twice writes in place). */
  if (rs->page_s > 0) { /* probed in every run that measures (nw_real_run) */
    kernel_cpu_s -= (double)nw_exec_kernel_pages_fresh(e) * rs->page_s;
    kernel_cpu_s = kernel_cpu_s > 0 ? kernel_cpu_s : 0;
  }
  if (rs->slowed)
    hold_slowed(rs, start, cpu);
}

/* Its completion: handled here, or by the holder of the node's lock (drain). */
static void cpu_done(void *ctx, int d, nw_exec *e) {
  rank_state *rs = ctx;
  (void)d;
  real_queue_post(&rs->q,
                  &(nw_event){.kind = NW_EVENT_EXEC_DONE,
                              .exec = e,
                              .kernel_s = kernel_cpu_s,
                              .stamp = real_monotonic()},
                  0);
  drain(rs, 1);
}

/* A compute thread spinning for work polls MPI too (real_cpu_pool_calls.idle) and handles
 * what arrived, so a message does not wait for this rank's event loop to get a core: on two
 * one-device ranks of a 2-core machine (five threads) an empty Task Bench step went from
 * 77-114 us to 61-81 us (docs/experiments/cpu-pool.md). If another thread polls (net_mu
 * taken), it has nothing to do. Only on a rank with peers (rs->net). */
static void cpu_idle(void *ctx) {
  rank_state *rs = ctx;
  if (pthread_mutex_trylock(&rs->net_mu) != 0)
    return;
  real_net_poll(rs->net);
  pthread_mutex_unlock(&rs->net_mu);
  if (real_queue_ready(&rs->q))
    drain(rs, 1);
}

/* A sleeping event loop polls MPI after 20 us, then less often (real_queue_wait). */
#define POLL_S 20e-6

/* NARWHAL_EVENT_COSTS=PREFIX: a recorded calibration run appends, to PREFIX.RANK, a line
 * "# APP N BLOCK", then a line per event whose CPU time it measured, "KIND BYTES RUNS SECONDS
 * GATHERED VIEW_PAGES SPACE_PAGES FAULTS START WALL" (GATHERED: of BYTES, those it gathered
 * into messages it sent; VIEW_PAGES: the pages of new views it touched first, whose price
 * SECONDS excludes; SPACE_PAGES: those of the node's copies of spaces, which SECONDS includes;
 * FAULTS: the page faults its thread took meanwhile, getrusage; START: when its handling began,
 * on the run's clock, on which a Chrome --trace's ts is microseconds since its otherData.t0_s;
 * WALL: its wall time; with START it places the loop's work beside a trace's spans): what
 * `narwhal calibrate` fits rt_KIND to (a fit's diagnosis:
 * docs/experiments/settle-by-first-touches.md). NULL when unset or when the file cannot be
 * opened (said once on stderr; the run goes on). */
static FILE *open_event_costs(int rank, const nw_run_config *cfg) {
  const char *prefix = getenv("NARWHAL_EVENT_COSTS");
  if (!prefix || !prefix[0])
    return NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s.%d", prefix, rank);
  FILE *f = fopen(path, "a");
  if (!f)
    fprintf(stderr, "narwhal: NARWHAL_EVENT_COSTS: cannot open %s for appending: %s\n", path,
            strerror(errno));
  else /* which run the lines below are of: a log holds all of calibrate's recorded runs */
    fprintf(f, "# %s %llu %llu\n", cfg->app, (unsigned long long)cfg->args.n,
            (unsigned long long)cfg->args.block);
  return f;
}

/* The bytes a node's handlers copied besides what messages brought: view fills, commits' view
 * copies, data gathered into messages it sent (an event's bytes are its message's and these). */
static uint64_t moved_bytes(const nw_stats *st) {
  return nw_stats_view_bytes(st) + st->bytes_gathered;
}

/* The page faults the calling thread has taken (a recorded run's log: how many of an event's
 * faults the core counted as first touches). */
static long thread_minor_faults(void) {
  struct rusage ru;
  return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_minflt : 0;
}

/* Handles one event, measuring the runtime's own cost (nw_rt_costs): one clock read, at its
 * end (*clock holds its start: the previous event's end, drain), against handlers of
 * microseconds; in a run that keeps a model, the thread's CPU clock the same way (*cpu). */
static void handle_measured(rank_state *rs, nw_event *ev, double *clock, double *cpu) {
  nw_rt_costs *c = &rs->costs;
  int kind = ev->kind > 0 && ev->kind < NW_STATS_EVENT_KINDS ? (int)ev->kind : 0;
  double start = *clock;
  if (ev->kind == NW_EVENT_EXEC_DONE && ev->stamp > 0) { /* a compute thread's, not a GPU's */
    c->dones++;
    /* An event posted just after the previous one ended (start) was taken at once: it waited
     * no time. Counting start - stamp < 0 made the mean negative on a quick host, which a
     * platform refuses (rt_done must be >= 0). */
    c->done_s += start > ev->stamp ? start - ev->stamp : 0;
  }
  uint64_t copied = moved_bytes(nw_node_stats(rs->node));
  uint64_t gathered0 = nw_node_stats(rs->node)->bytes_gathered;
  uint64_t runs0 = nw_node_stats(rs->node)->copy_runs;
  uint64_t pages0 = nw_node_stats(rs->node)->view_pages_fresh;
  uint64_t space0 = nw_node_stats(rs->node)->space_pages_fresh;
  double bytes = ev->kind == NW_EVENT_MESSAGE  ? (double)ev->len
                 : ev->kind == NW_EVENT_DRIVER ? (double)nw_driver_call_bytes(ev->call)
                                               : 0.0;
  long faults0 = rs->event_costs ? thread_minor_faults() : 0;
  nw_node_handle(rs->node, ev); /* takes what the event carries, not the event itself */
  *clock = real_monotonic();
  double s = *clock - start;
  bytes += (double)(moved_bytes(nw_node_stats(rs->node)) - copied);
  if (rs->measure_cpu) {
    double cpu0 = *cpu;
    *cpu = real_thread_cpu_seconds();
    double t = *cpu - cpu0, runs = (double)(nw_node_stats(rs->node)->copy_runs - runs0);
    /* Less its new views' first touches, which the simulator charges per page apart. */
    uint64_t pages = nw_node_stats(rs->node)->view_pages_fresh - pages0;
    t -= (double)pages * rs->page_s;
    t = t > 0 ? t : 0;
    double gathered = (double)(nw_node_stats(rs->node)->bytes_gathered - gathered0);
    uint64_t space = nw_node_stats(rs->node)->space_pages_fresh - space0;
    if (rs->event_costs) /* the costs' raw data, for a fit's diagnosis */
      fprintf(rs->event_costs, "%s %.0f %.0f %.9g %.0f %llu %llu %ld %.6f %.9g\n",
              nw_stats_event_name(kind), bytes, runs, t, gathered, (unsigned long long)pages,
              (unsigned long long)space, thread_minor_faults() - faults0, start - rs->t0, s);
    nw_rt_costs_sample(c, kind, bytes, gathered, runs, (double)space, (double)pages, t);
  }
  c->events[kind]++;
  c->s[kind] += s;
  c->bytes[kind] += bytes;
  c->bytes_sq[kind] += bytes * bytes;
  c->bytes_s[kind] += bytes * s;
}

/* Handles queued events while node_mu is free; returns how many. Called by whoever queued one
 * (and by the event loop). After unlocking it looks at the queue again: an event queued while
 * it held the lock, by a thread whose trylock failed, is its to handle. Once the node finished,
 * events stay queued (real_queue_destroy frees them): the node is done with them. */
static int drain(rank_state *rs, int compute) {
  int handled = 0;
  while (!atomic_load(&rs->finished) && real_queue_ready(&rs->q)) {
    if (compute && handled && rs->cpus && real_cpu_pool_waiting(rs->cpus) > 0) {
      real_queue_wake(&rs->q);
      break;
    }
    if (pthread_mutex_trylock(&rs->node_mu) != 0)
      break; /* the holder will see the event before it lets go */
    atomic_store_explicit(&rs->handling, 1, memory_order_relaxed);
    /* One clock read per event: an event's end is the next one's start (the queue's take
     * between them costs tens of nanoseconds against handlers of microseconds). */
    double clock = real_monotonic();
    double cpu = rs->measure_cpu ? real_thread_cpu_seconds() : 0;
    nw_event *done = NULL; /* handled, given back to the queue with the next take */
    while (!atomic_load_explicit(&rs->finished, memory_order_relaxed)) {
      nw_event *ev = real_queue_take_after(&rs->q, done);
      done = NULL;
      if (!ev)
        break;
      handle_measured(rs, ev, &clock, &cpu);
      done = ev;
      handled++;
      if (nw_node_finished(rs->node)) {
        atomic_store(&rs->finished, 1);
        real_queue_wake(&rs->q); /* the event loop may sleep: it has to end */
      }
      /* A compute thread whose launch made a subtask runnable goes to run it: the event loop
       * (woken above the loop) or an idle compute thread handles what is left. */
      if (compute && rs->cpus && real_cpu_pool_waiting(rs->cpus) > 0)
        break;
    }
    if (done)
      real_queue_recycle(&rs->q, done);
    atomic_store_explicit(&rs->handling, 0, memory_order_relaxed);
    pthread_mutex_unlock(&rs->node_mu);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the queue's count: see above */
  }
  return handled;
}

/* Adds the gap since the loop's last poll to the run's costs where a kernel ran at both
 * polls and the loop handled nothing between them (the loop thread alone calls it): the time
 * a message that came meanwhile waited to be seen, which the simulator charges as rt_pickup. */
static void time_poll_gap(rank_state *rs) {
  if (!rs->cpus || real_cpu_pool_running(rs->cpus) == 0) {
    rs->last_poll = 0;
    return;
  }
  double now = real_monotonic();
  if (rs->last_poll > 0) {
    double gap = now - rs->last_poll;
    rs->costs.poll_gaps++;
    rs->costs.poll_gap_s += gap;
    rs->costs.poll_gap_sq_s2 += gap * gap;
  }
  rs->last_poll = now;
}

/* The loop's MPI progress (a real_poll_fn). */
static int poll_net(void *arg) {
  rank_state *rs = arg;
  if (rs->measure_cpu) /* calibration: the gaps between polls beside a kernel (stats.h) */
    time_poll_gap(rs);
  int active = 1; /* a compute thread that holds net_mu polls meanwhile (cpu_idle) */
  if (pthread_mutex_trylock(&rs->net_mu) == 0) {
    active = real_net_poll(rs->net);
    pthread_mutex_unlock(&rs->net_mu);
  }
  /* An idle compute thread has a subtask to start, or a compute thread handles events, and
   * may be waiting for a core while this loop spins (compute threads run at a lower priority,
   * real_spin.h): give it this one. Where a core is free, this returns at once. Not for a
   * subtask queued behind a running kernel: yielding to that kernel, poll after poll, costs it
   * two context switches each time (heavy Task Bench kernels on 2 ranks ran 10-25% slower). */
  if ((rs->cpus && real_cpu_pool_waiting(rs->cpus) > 0) ||
      atomic_load_explicit(&rs->handling, memory_order_relaxed))
    sched_yield();
  return active;
}

/* Whether a transfer with a rank of this host is under way; 0 where the transport is busy
 * with another thread (not measured then). */
static int local_moving(rank_state *rs) {
  if (!rs->net || pthread_mutex_trylock(&rs->net_mu) != 0)
    return 0;
  int moving = real_net_local_moving(rs->net);
  pthread_mutex_unlock(&rs->net_mu);
  return moving;
}

/* The loop's spins are measured where the run keeps a model (calibration) and only those that
 * begin while a kernel runs: the simulator charges a spin against the kernels beside it at the
 * share of a core it took on hardware (sim_costs.h, rt_spin_share); an idle core's spin costs
 * nothing there. A spin begun while a transfer with a rank of this host is under way polls
 * until it ends (real_net_poll), which the simulator charges as such (rt_shm_poll_share,
 * rt_shm_poll_per_byte, sim_shm_poll.h): those are measured apart, and with no kernel running
 * as well (their CPU time per byte moved within the host). Two reads of the thread's CPU clock per
 * wait, so not in other runs. */
static void event_loop(rank_state *rs) {
  unsigned polls = 0;
  while (!atomic_load(&rs->finished)) {
    int beside = rs->measure_cpu && rs->cpus && real_cpu_pool_running(rs->cpus) > 0;
    int moving = rs->measure_cpu && local_moving(rs);
    real_spin_stats *st = moving   ? (beside ? &rs->polls : &rs->polls_idle)
                          : beside ? &rs->spins
                                   : NULL;
    real_queue_wait_measured(&rs->q, rs->net ? poll_net : NULL, rs, POLL_S, st);
    if (drain(rs, 0)) {
      polls = 0;
      rs->last_poll = 0; /* a gap that held handling is the loop's work, not its absence */
    } else if (!atomic_load(&rs->finished) && real_queue_ready(&rs->q))
      real_spin_pause(&polls); /* another thread is handling them */
  }
  pthread_mutex_lock(&rs->node_mu); /* a drain that saw the end may still be unwinding */
  pthread_mutex_unlock(&rs->node_mu);
  /* Compute threads still spin for work here and poll MPI when net_mu is free (cpu_idle): the
   * transport's lists are not theirs to walk while it finishes (two threads completing the same
   * receives crashed a rank, about one run in a few hundred). Their trylock fails meanwhile. */
  if (rs->net) {
    pthread_mutex_lock(&rs->net_mu);
    real_net_finish(rs->net);
    pthread_mutex_unlock(&rs->net_mu);
  }
}

static void *event_thread(void *arg) {
  pthread_setname_np(pthread_self(), "nw-loop"); /* in /proc: tests/real/placement.sh */
  event_loop(arg);
  return NULL;
}

/* ---- driver (rank 0, main thread) */

static void driver_post(void *be, nw_driver_call *call) {
  rank_state *rs = be;
  real_queue_post(&rs->q, &(nw_event){.kind = NW_EVENT_DRIVER, .call = call}, 0);
  drain(rs, 0); /* usually answers the call here, with no thread hop */
  unsigned polls = 0;
  double until = real_monotonic() + real_spin_budget(REAL_WAIT_WORKER);
  while (atomic_load_explicit(&rs->drv_returned, memory_order_acquire) != call &&
         real_monotonic() < until)
    real_spin_pause(&polls);
  pthread_mutex_lock(&rs->drv_mu);
  while (atomic_load_explicit(&rs->drv_returned, memory_order_relaxed) != call) {
    rs->drv_sleeping = 1;
    pthread_cond_wait(&rs->drv_cv, &rs->drv_mu);
    rs->drv_sleeping = 0;
  }
  atomic_store_explicit(&rs->drv_returned, NULL, memory_order_relaxed);
  pthread_mutex_unlock(&rs->drv_mu);
}

/* ---- set-up and tear-down */

/* The GPU options, before any GPU is looked for: they are wrong on any machine. */
static nw_status check_gpu_mode(const nw_run_config *cfg, nw_run_result *res) {
  if (nw_run_check_gpu_mode(cfg, res->error, sizeof res->error) != NW_OK)
    return NW_ERR_ARG;
  if (cfg->pack_copies) {
    snprintf(res->error, sizeof res->error,
             "--pack-copies on: the real backend copies each subscription on its own (the "
             "simulator models packing)");
    return NW_ERR_ARG;
  }
  if (cfg->agglomerate_mode == NW_AGGLO_STATIC) {
    /* Its edge case reads what the node's lanes hold, which the node's thread changes while
     * the GPU's dispatcher thread runs: the simulator's actors take turns. */
    snprintf(res->error, sizeof res->error,
             "--agglomerate-mode static: the real backend agglomerates dynamically only (the "
             "simulator models static agglomeration)");
    return NW_ERR_ARG;
  }
  if (cfg->gpu_mode == NW_GPU_MANY_TASK && cfg->compress_gpu) {
    /* The resident worker kernel holds every SM it can: the encoder's kernels would wait for
     * it to end. */
    snprintf(res->error, sizeof res->error,
             "--gpu-mode many-task with --compression gpu: the worker kernel fills the GPU, so "
             "the GPU cannot also encode; choose one");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* Every rank checks the same configuration, so all fail alike and none waits for another. */
static nw_status check_config(const nw_run_config *cfg, int size, int devices, nw_run_result *res) {
  if (!cfg->functional) {
    snprintf(res->error, sizeof res->error, "--data phantom is for the simulator (--backend sim)");
    return NW_ERR_ARG;
  }
  if (cfg->agglomerate > 0 && cfg->devices == NW_DEVICES_CPU) {
    snprintf(res->error, sizeof res->error,
             "--agglomerate %d: no rank runs a GPU (--devices cpu); agglomeration is a GPU mode",
             cfg->agglomerate);
    return NW_ERR_ARG;
  }
  if (cfg->nodes > 0 && cfg->nodes != size) {
    snprintf(res->error, sizeof res->error, "--nodes %d but mpirun started %d processes",
             cfg->nodes, size);
    return NW_ERR_ARG;
  }
  if (nw_slowdown_check_nodes(cfg, size, res->error, sizeof res->error) != NW_OK ||
      nw_fault_check_nodes(&cfg->faults, size, res->error, sizeof res->error) != NW_OK)
    return NW_ERR_ARG;
  if (size > NW_MAX_NODES || devices > NW_MAX_DEVICES_PER_NODE) {
    snprintf(res->error, sizeof res->error, "at most %d ranks and %d devices per rank",
             NW_MAX_NODES, NW_MAX_DEVICES_PER_NODE);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* How many GPUs this rank uses and each one's budget: --gpu-mem, else an equal share of the
 * memory free now among the ranks on this host (each rank drives every GPU it sees, so ranks on
 * one host share them), less a margin per rank (its CUDA context and cuBLAS need some of their
 * own); sharers: the ranks on this host, this one included. */
#define GPU_MARGIN (768ull << 20)

/* How many ranks run on this rank's host (they share its GPUs), from real_net_same_host. */
static int ranks_on_host(const unsigned char *same_host, int size) {
  int n = 0;
  for (int r = 0; same_host && r < size; r++)
    n += same_host[r];
  return n > 0 ? n : 1;
}

static nw_status plan_gpus(const nw_run_config *cfg, const nw_app *app, int rank, int sharers,
                           int *ngpu, uint64_t *budget, nw_run_result *res) {
  *ngpu = 0;
  if (cfg->devices == NW_DEVICES_CPU)
    return NW_OK;
  for (const nw_task_kind *const *k = app->kinds; k && *k; k++) {
    if (!(*k)->cuda_kernel) {
      snprintf(res->error, sizeof res->error,
               "--devices %s: task kind '%s' has no CUDA kernel; use --devices cpu",
               nw_devices_mode_name(cfg->devices), (*k)->name);
      return NW_ERR_ARG;
    }
    if (cfg->gpu_mode == NW_GPU_MANY_TASK && !(*k)->mtc_task) {
      snprintf(res->error, sizeof res->error,
               "--gpu-mode many-task: task kind '%s' has no worker-kernel operation (mtc_task); "
               "on hardware the mode runs kinds that have one (adder, mdlite)",
               (*k)->name);
      return NW_ERR_ARG;
    }
  }
  char why[256];
  int n = real_gpu_count(why, sizeof why);
  if (n == 0) {
    snprintf(res->error, sizeof res->error, "--devices %s: rank %d: %s",
             nw_devices_mode_name(cfg->devices), rank, why);
    return NW_ERR_ARG;
  }
  if (n > NW_MAX_GPUS_PER_NODE)
    n = NW_MAX_GPUS_PER_NODE;
  for (int g = 0; g < n; g++) {
    uint64_t share = real_gpu_free_memory(g) / (uint64_t)sharers;
    if (cfg->gpu_mem > share || (!cfg->gpu_mem && share <= GPU_MARGIN)) {
      char asked[64] = ""; /* the limit that refused it, where --gpu-mem set one */
      if (cfg->gpu_mem)
        snprintf(asked, sizeof asked, ", less than --gpu-mem %llu",
                 (unsigned long long)cfg->gpu_mem);
      snprintf(res->error, sizeof res->error,
               "rank %d: GPU %d has %llu bytes free for each of the %d rank(s) on its host%s", rank,
               g, (unsigned long long)share, sharers, asked);
      return NW_ERR_ARG;
    }
    budget[g] = cfg->gpu_mem ? cfg->gpu_mem : share - GPU_MARGIN;
  }
  *ngpu = n;
  return NW_OK;
}

/* A check that may fail on some ranks only: all learn it, rank 0 reports the first failing
 * rank's reason, and nobody is left waiting in a collective call. */
static nw_status agree(nw_status st, int rank, nw_run_result *res) {
  int bad = st != NW_OK ? rank : -1, worst = -1;
  MPI_Allreduce(&bad, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst < 0)
    return NW_OK;
  MPI_Bcast(res->error, (int)sizeof res->error, MPI_CHAR, worst, MPI_COMM_WORLD);
  return st != NW_OK ? st : NW_ERR_ARG;
}

/* Every rank's devices, for the cluster-wide policies (nw_node_config.cluster): kinds, and a
 * CPU's cores or a GPU stream's GPU; nominal speeds are unknown on hardware (0), the policies
 * then learn durations. */
static nw_device_desc *gather_devices(const nw_node_config *nc) {
  int total = 0, counts[NW_MAX_NODES], displs[NW_MAX_NODES];
  for (int k = 0; k < nc->nodes; k++) {
    counts[k] = nc->devices_per_node[k] * 2;
    displs[k] = total * 2;
    total += nc->devices_per_node[k];
  }
  int mine[2 * NW_MAX_DEVICES_PER_NODE];
  for (int d = 0; d < nc->devices; d++) {
    mine[2 * d] = (int)nc->device_kind[d];
    mine[2 * d + 1] = nc->device_kind[d] == NW_DEVICE_CPU
                          ? (nc->device_cores[d] > 1 ? nc->device_cores[d] : 1)
                          : nc->device_gpu[d];
  }
  int *all = malloc((size_t)(total > 0 ? total : 1) * 2 * sizeof *all);
  nw_device_desc *cluster = calloc((size_t)(total > 0 ? total : 1), sizeof *cluster);
  if (!all || !cluster) { /* a few KB: the collective cannot go on without them */
    fprintf(stderr, "narwhal: rank %d: out of memory for the device table\n", nc->id);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Allgatherv(mine, nc->devices * 2, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int g = 0; g < total; g++)
    cluster[g] = all[2 * g] == NW_DEVICE_CPU
                     ? (nw_device_desc){.kind = NW_DEVICE_CPU, .cores = all[2 * g + 1]}
                     : (nw_device_desc){.kind = NW_DEVICE_GPU, .gpu = all[2 * g + 1]};
  free(all);
  return cluster;
}
/* The network's transfer model (nw_node_config.net_*), measured once at start-up before any
 * other traffic: ranks 0 and 1 ping-pong (nw_real_ping_pong); every rank gets the result. One
 * pair stands for every pair: the ranks of a run are alike. */
static void measure_network(int rank, int size, double *bandwidth, double *latency) {
  double v[2] = {0, 0};
  char *buf = rank < 2 ? calloc(1, NW_REAL_PING_PONG_BYTES) : NULL;
  int ok = rank >= 2 || buf != NULL, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (size > 1 && all_ok)
    nw_real_ping_pong(rank, 0, 1, buf, &v[1], &v[0]);
  free(buf);
  MPI_Bcast(v, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *bandwidth = v[0];
  *latency = v[1];
}

/* --trace: every rank's records to rank 0, in rank order (the clocks are each rank's own). */
static nw_status gather_trace(rank_state *rs, nw_run_result *res) {
  const nw_trace *t = nw_node_trace_records(rs->node);
  /* Bytes per rank must fit MPI's int counts: a rank keeps its first 2^31 bytes' worth. */
  long long max = INT_MAX / (long long)sizeof(nw_trace_rec);
  int mine = t->n > (size_t)max ? (int)max : (int)t->n, lost = t->lost || t->n > (size_t)max;
  int *count = rs->rank == 0 ? calloc((size_t)rs->size, sizeof *count) : NULL;
  int *lost_any = rs->rank == 0 ? calloc((size_t)rs->size, sizeof *lost_any) : NULL;
  MPI_Gather(&mine, 1, MPI_INT, count, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&lost, 1, MPI_INT, lost_any, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int *bytes = NULL, *at = NULL;
  long long total = 0;
  nw_trace_rec *all = NULL;
  if (rs->rank == 0 && count && lost_any) {
    bytes = calloc((size_t)rs->size, sizeof *bytes);
    at = calloc((size_t)rs->size, sizeof *at);
    for (int r = 0; r < rs->size; r++)
      total += count[r];
    if (total * (long long)sizeof(nw_trace_rec) > INT_MAX) /* displacements are ints too */
      total = 0;
    all = total ? malloc((size_t)total * sizeof *all) : NULL;
    for (int r = 0, off = 0; bytes && at && r < rs->size; r++) {
      bytes[r] = total ? count[r] * (int)sizeof(nw_trace_rec) : 0;
      at[r] = off;
      off += bytes[r];
      res->trace_lost |= lost_any[r] || (!total && count[r]);
    }
  }
  /* Rank 0 says whether it can take them all; if not, nobody sends and the trace is lost. */
  int go = rs->rank == 0 ? total > 0 && all && bytes && at : 0;
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int sent = go ? mine * (int)sizeof(nw_trace_rec) : 0;
  for (int r = 0; !go && bytes && r < rs->size; r++)
    bytes[r] = 0;
  MPI_Gatherv(t->rec, sent, MPI_BYTE, all, bytes, at, MPI_BYTE, 0, MPI_COMM_WORLD);
  nw_status st = NW_OK;
  if (rs->rank == 0) {
    if (total && !go)
      st = NW_ERR_NOMEM;
    else {
      res->trace = all, res->ntrace = (size_t)total;
      all = NULL;
    }
  }
  free(all);
  free(bytes);
  free(at);
  free(count);
  free(lost_any);
  return st;
}

nw_status nw_real_run(const nw_run_config *cfg, const nw_app *app, nw_run_result *res) {
  memset(res, 0, sizeof *res);
  res->verified = -1;
  int provided = 0, initialized = 0;
  MPI_Initialized(&initialized); /* `narwhal calibrate` runs several times in one process */
  if (initialized)
    MPI_Query_thread(&provided);
  else {
    real_net_before_mpi_init();
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
  }
  rank_state rs;
  memset(&rs, 0, sizeof rs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rs.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rs.size);
  res->reporter = rs.rank == 0;
  if (real_lost_rank_watch(rs.rank, rs.size, res->error, sizeof res->error) != 0)
    return res->status = NW_ERR_ARG; /* every rank alike: rank 0's setting, given to all */
  unsigned char *same_host = real_net_same_host(rs.size); /* collective */
  rs.host_ranks = ranks_on_host(same_host, rs.size);
  int cores = nw_real_usable_cores();
  uint64_t budget[NW_MAX_GPUS_PER_NODE] = {0};
  /* --devices auto: this rank's GPUs too when it has one and every task kind has a CUDA
   * kernel (ranks decide alone: a cluster's nodes may differ). */
  nw_run_config resolved = *cfg;
  if (resolved.devices == NW_DEVICES_AUTO) {
    char why[256];
    resolved.devices = nw_run_auto_devices(cfg, app, real_gpu_count(why, sizeof why), 0, 1);
  }
  cfg = &resolved;
  res->device_mix = resolved.devices;
  nw_status st = check_gpu_mode(cfg, res);
  if (st == NW_OK)
    st = plan_gpus(cfg, app, rs.rank, rs.host_ranks, &rs.ngpu, budget, res);
  int cpus = 0, group = 1;
  if (st == NW_OK) {
    char why[256];
    st = nw_run_cpu_layout(cfg, cores, rs.ngpu, &cpus, &group, why, sizeof why);
    if (st != NW_OK)
      snprintf(res->error, sizeof res->error,
               "%.200s (rank %d: the cores its affinity mask allows)", why, rs.rank);
  }
  rs.ndev = cpus + rs.ngpu * cfg->gpu_streams;
  if (st == NW_OK)
    st = check_config(cfg, rs.size, rs.ndev, res);
  st = agree(st, rs.rank, res);
  if (st == NW_OK && provided < MPI_THREAD_SERIALIZED) {
    snprintf(res->error, sizeof res->error,
             "this MPI gives thread level %d; Narwhal needs MPI_THREAD_SERIALIZED", provided);
    st = NW_ERR_ARG;
  }
  if (st != NW_OK || cfg->check_only) {
    /* Every rank ends here alike (agree): each says so now, or a peer still on its way out
     * may take the first one gone for a lost rank and name it (real.nodes_mismatch, 1 in
     * about 650 runs). */
    if (st != NW_OK)
      real_lost_rank_stop();
    free(same_host);
    res->reporter = rs.rank == 0;
    return res->status = st;
  }
  /* Each device calls BLAS from its own thread: give each its share of the cores. A
   * work-group's items are one core each. */
  int per = cpus > 0 && group == 1 ? (cores - rs.ngpu) / cpus : 1;
  openblas_set_num_threads(per > 1 ? per : 1);

  nw_node_config nc;
  memset(&nc, 0, sizeof nc);
  nc.id = rs.rank;
  nc.nodes = rs.size;
  nc.functional = 1;
  nc.count_space_pages = 1; /* a copy of a space is mapped lazily: each first write faults */
  nc.devices = rs.ndev;
  nc.gpus = rs.ngpu;
  for (int d = 0; d < rs.ndev; d++) {
    nc.device_gpu[d] = d < cpus ? -1 : (d - cpus) / cfg->gpu_streams;
    nc.device_kind[d] = d < cpus ? NW_DEVICE_CPU : NW_DEVICE_GPU;
    nc.device_cores[d] = d < cpus ? group : 0;
  }
  for (int g = 0; g < rs.ngpu; g++)
    nc.gpu_memory[g] = budget[g];
  nc.sched = cfg->sched;
  nc.check_views = cfg->check_views;
  nc.trace = cfg->trace[0] != '\0';
  nc.compress_network = cfg->compress_network;
  nc.compress_gpu = cfg->compress_gpu;
  nc.kinds = app->kinds;
  nc.perfmodel = rs.rank == 0 ? cfg->perfmodel : NULL; /* node 0's */
  nc.calibrate = cfg->calibrate;
  nc.measure = rs.measure_cpu = cfg->perfmodel != NULL;
  /* Every run that measures its kernels takes their first touches out at the probe's price
   * (cpu_kernel), not only a recorded one: a run compared with its model (kernels_measured_s,
   * validate's anchor) or updating it (dmda's live samples) then holds the fault-free times the
   * model holds, the simulator charging the faults apart. */
  if (rs.measure_cpu)
    rs.page_s = real_page_first_touch_s();
  if (rs.measure_cpu && cfg->calibrate) { /* only a recorded run's costs are fitted */
    rs.costs.page_probes = 1;
    rs.costs.page_probe_s = rs.page_s;
    rs.costs.cache_bytes = (double)real_cache_knee_bytes();
    rs.event_costs = open_event_costs(rs.rank, cfg);
  }
  MPI_Allgather(&rs.ndev, 1, MPI_INT, nc.devices_per_node, 1, MPI_INT, MPI_COMM_WORLD);
  nw_device_desc *cluster = gather_devices(&nc);
  nc.cluster = cluster;
  measure_network(rs.rank, rs.size, &nc.net_bandwidth, &nc.net_latency);
  if (rs.rank == 0 && rs.ngpu > 0) /* the host<->GPU link: node 0 decides, with its GPU 0's */
    real_gpu_measure_link(0, &nc.pcie_bandwidth, &nc.pcie_latency);
  rs.rng = cfg->seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(rs.rank + 1));
  real_spin_configure(rs.size > 1);
  real_queue_init(&rs.q);
  rs.net = rs.size > 1 && same_host ? real_net_create(rs.rank, rs.size, same_host, &rs.q) : NULL;
  free(same_host);
  pthread_mutex_init(&rs.drv_mu, NULL);
  pthread_cond_init(&rs.drv_cv, NULL);
  pthread_mutex_init(&rs.node_mu, NULL);
  pthread_mutex_init(&rs.net_mu, NULL);
  atomic_init(&rs.finished, 0);
  st = nw_node_create(&nc, (nw_backend){&real_ops, &rs}, &rs.node);
  rs.dev = calloc((size_t)rs.ndev, sizeof *rs.dev);
  if (st != NW_OK || !rs.dev || (rs.size > 1 && !rs.net))
    snprintf(res->error, sizeof res->error, "rank %d: cannot create its node", rs.rank);
  /* The reserved cores (real_placement.h): this thread, the GPUs' threads and the event loop
   * on them, the compute threads on the others. */
  real_placement_plan(&rs.place, nw_run_reserved_cores(cfg, cores, rs.ngpu), cpus * group);
  real_placement_runtime(&rs.place);
  for (int g = 0; g < rs.ngpu && st == NW_OK; g++) {
    char why[256];
    int bundle = cfg->gpu_mode == NW_GPU_MANY_TASK ? cfg->mtc_bundle : 0;
    rs.gpus[g] = real_gpu_open(g, budget[g], cfg->gpu_streams, cfg->agglomerate, bundle,
                               rs.host_ranks, &rs.q, app->kinds, why, sizeof why);
    if (!rs.gpus[g]) {
      snprintf(res->error, sizeof res->error, "rank %d: %s", rs.rank, why);
      st = NW_ERR_ARG;
    }
  }
  if (agree(st, rs.rank, res) != NW_OK) {
    real_placement_restore(&rs.place);
    for (int g = 0; g < rs.ngpu; g++)
      real_gpu_close(rs.gpus[g]);
    nw_node_destroy(rs.node);
    free(cluster);
    free(rs.dev);
    real_net_destroy(rs.net);
    real_queue_destroy(&rs.q);
    if (rs.event_costs)
      fclose(rs.event_costs);
    pthread_mutex_destroy(&rs.node_mu);
    pthread_mutex_destroy(&rs.net_mu);
    return res->status = st != NW_OK ? st : NW_ERR_ARG;
  }
  MPI_Barrier(MPI_COMM_WORLD); /* every rank ready before anyone times anything */
  rs.t0 = real_monotonic();
  for (int i = 0; i < cfg->nslow; i++)
    if (cfg->slow[i].node == rs.rank)
      rs.slowed = cfg;
  real_placement_compute(&rs.place); /* the threads made here compute */
  for (int d = 0; d < rs.ndev; d++) {
    rs.dev[d] = (device){.rs = &rs, .index = d};
    if (d >= cpus) { /* a GPU stream: real_gpu runs it */
      rs.dev[d].gpu = rs.gpus[nc.device_gpu[d]];
      rs.dev[d].stream = (d - cpus) % cfg->gpu_streams;
    } else if (group > 1 && !(rs.dev[d].team = real_team_create(group))) {
      fprintf(stderr, "narwhal: rank %d: cannot start the threads of a %d-core work-group\n",
              rs.rank, group);
      exit(1);
    }
  }
  /* rs.cpus is set before the pool's threads start: an idle one polls MPI and handles what came
   * (cpu_idle), and a message matched at its first probe may launch a subtask on the pool. */
  if (cpus > 0 &&
      !real_cpu_pool_start(cpus,
                           (real_cpu_pool_calls){cpu_kernel, cpu_done, rs.net ? cpu_idle : NULL,
                                                 &rs, rs.measure_cpu},
                           &rs.cpus)) {
    fprintf(stderr, "narwhal: rank %d: out of memory for its compute threads\n", rs.rank);
    exit(1);
  }
  real_placement_runtime(&rs.place);
  for (int i = 0; i < cfg->faults.nfail; i++) /* --fail: README, "Faults" */
    if (cfg->faults.fail[i].node == rs.rank)
      real_lost_rank_fail_at(cfg->faults.fail[i].at_s);

  nw_app_outcome outcome = {.verified = -1};
  nw_status app_status = NW_OK;
  nw_runtime rt = {.post = driver_post,
                   .be = &rs,
                   .functional = 1,
                   .nodes = rs.size,
                   .native_gpus = rs.ngpu > 0};
  if (rs.rank == 0) {
    pthread_t loop;
    pthread_create(&loop, NULL, event_thread, &rs);
    app_status = app->main(&rt, &cfg->args, &outcome);
    nw_runtime_shutdown(&rt);
    pthread_join(loop, NULL);
  } else {
    event_loop(&rs);
  }
  real_placement_restore(&rs.place);
  uint64_t launches = 0, launched = 0, largest = 0;
  for (int g = 0; g < rs.ngpu; g++) {
    uint64_t l, s, big;
    real_gpu_launch_stats(rs.gpus[g], &l, &s, &big);
    launches += l;
    launched += s;
    largest = big > largest ? big : largest;
    real_gpu_close(rs.gpus[g]);
  }
  if (rs.cpus) {
    real_cpu_pool_stats(rs.cpus, &rs.costs.launches, &rs.costs.launch_s);
    real_cpu_pool_stop(rs.cpus);
  }
  rs.costs.spins = rs.spins.spins; /* the event loop has ended (joined above) */
  rs.costs.spin_s = rs.spins.wall_s;
  rs.costs.spin_cpu_s = rs.spins.cpu_s;
  rs.costs.shm_polls = rs.polls.spins;
  rs.costs.shm_poll_s = rs.polls.wall_s;
  rs.costs.shm_poll_cpu_s = rs.polls.cpu_s;
  rs.costs.shm_poll_idle_cpu_s = rs.polls_idle.cpu_s;
  rs.costs.shm_bytes = rs.net ? (double)real_net_local_bytes(rs.net) : 0;
  for (int d = 0; d < cpus; d++)
    real_team_destroy(rs.dev[d].team);

  nw_stats *all = rs.rank == 0 ? calloc((size_t)rs.size, sizeof *all) : NULL;
  nw_stats mine = *nw_node_stats(rs.node);
  mine.gpu_launches = launches;
  mine.gpu_launch_subtasks = launched;
  mine.gpu_launch_largest = largest;
  mine.demand_overtakes = rs.net ? real_net_demand_overtakes(rs.net) : 0;
  mine.rt = rs.costs;
  MPI_Gather(&mine, (int)sizeof(nw_stats), MPI_BYTE, all, (int)sizeof(nw_stats), MPI_BYTE, 0,
             MPI_COMM_WORLD);
  if (rs.rank == 0) {
    st = all ? nw_run_result_fill(res, all, rs.size, &outcome) : NW_ERR_NOMEM;
    if (app_status != NW_OK) {
      st = app_status;
      snprintf(res->error, sizeof res->error, "%s", rt.error[0] ? rt.error : "the run failed");
    } else if (rs.net && real_net_error(rs.net)[0]) {
      st = NW_ERR_INTERNAL;
      snprintf(res->error, sizeof res->error, "%s", real_net_error(rs.net));
    }
  }
  free(all);
  if (cfg->trace[0] && gather_trace(&rs, res) != NW_OK && rs.rank == 0 && st == NW_OK) {
    snprintf(res->error, sizeof res->error, "out of memory gathering the trace (--trace)");
    st = NW_ERR_NOMEM;
  }
  real_net_destroy(rs.net);
  real_queue_destroy(&rs.q);
  if (rs.event_costs)
    fclose(rs.event_costs);
  nw_node_destroy(rs.node);
  free(cluster);
  free(rs.dev);
  pthread_mutex_destroy(&rs.drv_mu);
  pthread_cond_destroy(&rs.drv_cv);
  pthread_mutex_destroy(&rs.node_mu);
  pthread_mutex_destroy(&rs.net_mu);
  return res->status = st;
}

void nw_real_finish(void) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) {
    real_lost_rank_stop(); /* this rank is done: its silence from now on is no loss */
    MPI_Finalize();
  }
}
