/* sim_backend.c: the core's nodes on a SimGrid-modelled cluster (DESIGN.md).
 *
 * Per node: an actor that runs the node's event loop on host n<i>-cpu; one actor per CPU
 * device, which executes the cost model's flops on that host (a host with C cores runs C such
 * actors at full per-core speed; a work-group device spreads a subtask over its cores); one
 * postman for the whole cluster that hands control messages over when they are due, so a large
 * data transfer never blocks the event loop nor delays control messages; one sender actor for data,
 * because Unicorn sends heavy data through one dedicated thread per node (paper section 4.1):
 * a node's outgoing transfers go one after another, control messages go at once. Besides
 * being the paper's design, this keeps the number of concurrent flows at most one per node;
 * with every transfer concurrent, SimGrid's bandwidth-sharing solver took 92% of a 35 s run.
 * The sender takes demand transfers (NW_CHANNEL_DATA) before prefetch transfers
 * (NW_CHANNEL_PREFETCH) by core/data/sendq.h's rule (paper 4.2); the one it has started finishes
 * first: a SimGrid communication is not preempted. The
 * application's driver is an actor on n0-cpu. Local events go through a plain list and a semaphore:
 * actors are cooperative threads of one OS thread, and a mailbox would charge simulated latency.
 *
 * Network model: latency and bandwidth factors 1, TCP gamma 0, with which SimGrid 3.32 charges
 * a transfer exactly latency + size / bandwidth. The paper gives no calibration that would
 * justify SimGrid's default corrections (about +3%); measured platforms can override these
 * flags later.
 *
 * The files: this one is the top, the entry point (nw_sim_run), the backend's operations and
 * the actors; it drives the fault plan (sim_faults.c) and the many-task GPU mode (sim_mtc.c).
 * The world's state and the operations they all share (events, actors, messages, executions,
 * teardown) are sim_world.c's, which calls none of them: no file calls back into one above it.
 */
#include "sim_backend.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

#include "agglo.h"
#include "due_heap.h"
#include "host_memory.h"
#include "perfdata.h"
#include "pipeline.h"
#include "platform_check.h"
#include "rle.h"
#include "rng.h"
#include "sendq.h"
#include "sim_costs.h"
#include "sim_faults.h"
#include "sim_init.h"
#include "sim_mtc.h"
#include "sim_shm_poll.h"
#include "sim_world.h"

/* Kernel launch latency of a modelled GPU when its host has no launch_latency property: a few
 * microseconds, as CUDA documents for a launch on an idle stream. */
#define DEFAULT_LAUNCH_S 5e-6
/* Seconds per raw byte a modelled GPU spends run-length encoding a result (--compression gpu)
 * when its host has no rle_per_byte property: the CUDA encoder (backends/real/real_rle.cu)
 * reads its input three times from device memory (two passes that find the tokens and their
 * sizes, one that writes them), so 3 bytes of memory traffic per byte at the paper's Tesla
 * M2070's 148 GB/s (NVIDIA's data sheet, ECC off): 3 / 148e9 = 2.0e-11. An estimate from
 * bandwidth, not a measurement; the paper gives no rate. */
#define DEFAULT_GPU_RLE_S_PER_BYTE 2e-11

/* ---- backend operations (core/backend.h) */

static double op_now(void *be) {
  (void)be;
  return simgrid_get_clock();
}

static uint64_t op_random(void *be) {
  return nw_rng_next(&((sim_node *)be)->rng);
}

static void op_send(void *be, int dst, nw_channel ch, void *buf, size_t len, uint64_t wire) {
  sim_send(be, dst, ch, buf, len, wire);
}

static void op_launch(void *be, int device, nw_exec *exec) {
  sim_device *d = &((sim_node *)be)->dev[device];
  if (d->n == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 4;
    d->queue = realloc(d->queue, d->cap * sizeof *d->queue);
    if (!d->queue) {
      fprintf(stderr, "narwhal: out of memory in the simulator\n");
      exit(1);
    }
  }
  d->queue[d->n++] = exec;
  sg_sem_release(d->sem);
}

typedef struct timer_arg {
  sim_node *sn;
  double delay;
  uint64_t token;
} timer_arg;

static void free_timer_arg(int failed, void *t) {
  (void)failed;
  free(t);
}

static void timer_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  timer_arg *t = sg_actor_self_get_data();
  /* A daemon: killed in its sleep when the run ends, so its argument is freed on exit. */
  sg_actor_on_exit(free_timer_arg, t);
  sg_actor_sleep_for(t->delay);
  nw_event *ev = sim_new_event(NW_EVENT_TIMER);
  ev->token = t->token;
  sim_post(t->sn, ev);
}

static void op_timer(void *be, double delay, uint64_t token) {
  sim_node *sn = be;
  timer_arg *t = malloc(sizeof *t);
  if (!t) {
    fprintf(stderr, "narwhal: out of memory in the simulator\n");
    exit(1);
  }
  *t = (timer_arg){sn, delay, token};
  sim_spawn("timer", sn->host, timer_actor, t, 1, STACK_SERVICE);
}

static void op_driver_return(void *be, nw_driver_call *call) {
  (void)call;
  sg_sem_release(((sim_node *)be)->w->driver_sem);
}

static void op_copy(void *be, nw_copy *c) {
  sim_node *sn = be;
  sim_engine *e = &sn->gpu[c->gpu].engine[c->to_device ? 1 : 0];
  copy_item *it = malloc(sizeof *it);
  if (!it) {
    fprintf(stderr, "narwhal: out of memory in the simulator\n");
    exit(1);
  }
  *it = (copy_item){c, NULL};
  if (e->tail)
    e->tail->next = it;
  else
    e->head = it;
  e->tail = it;
  sg_sem_release(e->sem);
}

/* One process holds every node: all of them share this machine's RAM and map their copies of
 * the spaces here. A modelled GPU's memory is mapped whole at its first use in functional
 * mode (sim_gpu_memory): address space the run will take on top, filled only as far as the
 * GPU's cache fills it, so it counts against the address-space limit alone. */
static void op_memory_room(void *be, nw_memory_room *room) {
  sim_world *w = ((sim_node *)be)->w;
  uint64_t gpus = 0;
  for (int i = 0; i < w->nodes; i++)
    for (int g = 0; g < w->node[i].ngpu; g++)
      if (!w->node[i].gpu[g].memory) {
        uint64_t m = w->node[i].gpu[g].memsize;
        gpus = gpus > UINT64_MAX - m ? UINT64_MAX : gpus + m;
      }
  *room = (nw_memory_room){.ram = nw_host_ram_available(),
                           .ram_nodes = w->nodes,
                           .address = nw_host_address_left(),
                           .address_nodes = w->nodes,
                           .address_backend = gpus,
                           .address_backend_what = "modelled GPU memory (--gpu-mem)",
                           .instead = "--data phantom simulates it on sizes alone, without "
                                      "this memory"};
}

static const nw_backend_ops sim_ops = {op_now,           op_send,   op_launch, op_timer,
                                       op_driver_return, op_random, op_copy,   NULL,
                                       op_memory_room};

/* ---- actors */

/* `seconds` of the loop's work: a pause on its own runtime core, or, where it shares the node's
 * cores (rt_loop_weight), computed on the node's CPU host beside the kernels, which run there
 * at 1 / rt_loop_weight of its priority (execute). */
static void spend(sim_node *sn, double seconds) {
  if (sn->costs.loop_weight <= 0) {
    sg_actor_sleep_for(seconds);
    return;
  }
  sim_shm_pause(sn); /* one thread: it handles, then polls again */
  sg_actor_execute(seconds * sg_host_get_speed(sn->host));
  sim_shm_resume(sn);
}

/* After an event, with nothing queued, the real loop polls for rt_spin seconds before it
 * sleeps, holding its share of a core it shares: computes until the next event or the end
 * of the spin, whichever comes first. 1 when an event came (its semaphore is taken). */
static int spin(sim_node *sn) {
  /* More flops than the spin can compute at one core's speed: it ends by cancellation. Where
   * calibration measured the share of a core a spin took from a running kernel (the real loop
   * yields between polls), it takes no more than that. */
  if (sim_shm_polling(sn)) /* it polls a transfer already, charged apart */
    return sg_sem_acquire_timeout(sn->q.sem, sn->costs.spin_s) == 0;
  sg_exec_t x = sg_actor_exec_init(4 * sn->costs.spin_s * sg_host_get_speed(sn->host));
  if (sn->costs.spin_share > 0)
    sg_exec_set_bound(x, sn->costs.spin_share * sg_host_get_speed(sn->host));
  sg_exec_start(x);
  int got = sg_sem_acquire_timeout(sn->q.sem, sn->costs.spin_s) == 0;
  sg_exec_cancel(x);
  return got;
}

/* What a byte of an event of kind k that moves `bytes`, `gathered` of them gathered into
 * messages it sent, costs (sim_costs.h). */
static double per_byte(const sim_costs *c, int k, double bytes, double gathered) {
  int cls = nw_cost_class(bytes, gathered, c->cache_bytes);
  return cls >= 0 && c->event_s_per_byte_class[cls][k] > 0 ? c->event_s_per_byte_class[cls][k]
                                                           : c->event_s_per_byte[k];
}

/* Handles an event, spending the platform's runtime costs on it (sim_costs.h): the fixed
 * cost and the bytes the event brings before it takes effect, the bytes its view fills and
 * commits copied and it gathered into the messages it sent, the row runs its copies took, the
 * pages its new views first touched, those of the node's copies of spaces it wrote first, its
 * reductions combined and its compression coded after. */
static void handle_charged(sim_node *sn, nw_event *ev) {
  const sim_costs *c = &sn->costs;
  int k = ev->kind > 0 && ev->kind < NW_STATS_EVENT_KINDS ? (int)ev->kind : 0;
  double bytes = ev->kind == NW_EVENT_MESSAGE  ? (double)ev->len
                 : ev->kind == NW_EVENT_DRIVER ? (double)nw_driver_call_bytes(ev->call)
                                               : 0.0;
  double p0 = per_byte(c, k, bytes, 0), before = c->event_s[k] + bytes * p0;
  /* A message from another node came into a buffer of its own, whose fresh pages its receipt
   * touched first (sim_msg_pages.h); the buffer goes back once the message is handled. Its
   * size on the wire is in the event's stamp (sim_deliver). */
  sim_msg_buffer received = {0};
  if (ev->kind == NW_EVENT_MESSAGE && ev->src != sn->id && c->page_fresh_s > 0 &&
      !sim_shm_take_buffer(sn, ev->buf, &received)) /* or its transfer touched them */
    before += (double)sim_msg_pages_alloc(&sn->msg_pages, (uint64_t)ev->stamp, &received) *
              c->page_fresh_s;
  double t0 = simgrid_get_clock();
  if (ev->kind == NW_EVENT_EXEC_DONE && ev->stamp > 0) { /* as real_backend.c measures it */
    sn->charged.dones++;
    sn->charged.done_s += t0 - ev->stamp;
  }
  if (before > 0)
    spend(sn, before);
  const nw_stats *st = nw_node_stats(sn->node);
  uint64_t copied = nw_stats_view_bytes(st), gathered0 = st->bytes_gathered;
  uint64_t reduced = st->bytes_reduced, coded = st->bytes_rle;
  uint64_t runs = st->copy_runs, pages = st->view_pages_fresh, space = st->space_pages_fresh;
  nw_node_handle(sn->node, ev);
  /* The bytes its view fills and commits copied and it gathered into messages, at the price
   * of all it moved (real_backend.c measures an event's bytes as these and its message's
   * together): where they take it past the cache, its message's bytes pay the difference. */
  double gathered = (double)(st->bytes_gathered - gathered0);
  double view = (double)(nw_stats_view_bytes(st) - copied) + gathered;
  double p1 = per_byte(c, k, bytes + view, gathered);
  double copies = view * p1 + (p1 > p0 ? bytes * (p1 - p0) : 0);
  double after =
      copies + (double)(st->copy_runs - runs) * c->event_s_per_run[k] +
      (double)(st->view_pages_fresh - pages) * (c->page_fresh_s + c->event_s_per_view_page[k]) +
      (double)(st->space_pages_fresh - space) * c->event_s_per_space_page[k] +
      (double)(st->bytes_reduced - reduced) * c->reduce_s_per_byte +
      (double)(st->bytes_rle - coded) * c->rle_s_per_byte + sn->pack_s;
  sn->pack_s = 0;
  if (after > 0)
    spend(sn, after);
  nw_rt_costs *ch = &sn->charged;
  ch->events[k]++;
  ch->s[k] += simgrid_get_clock() - t0;
  ch->bytes[k] += bytes + view;
  ch->cpu[k].events++;
  ch->cpu[k].cpu_s += before + after; /* each a sum of costs >= 0 */
  sim_msg_pages_free(&sn->msg_pages, &received);
}

static void node_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_node *sn = sg_actor_self_get_data();
  int taken = 0; /* an event's semaphore was taken while spinning */
  while (!nw_node_finished(sn->node)) {
    int waited = taken || !sn->q.head; /* the event, if it is a message, comes to a waiting loop */
    if (!taken) {
      sn->loop_idle = !sn->q.head;
      if (sn->loop_idle) /* it polls before it sleeps */
        sim_loop_polls(sn);
      sg_sem_acquire(sn->q.sem);
      sn->loop_idle = 0;
    }
    taken = 0;
    if (sn->lost) /* what is queued stays, freed with the world */
      break;
    nw_event *ev = sn->q.head;
    /* A message to a loop that waits beside a running kernel, or beside the load that slows
     * the node, is seen at its next poll, or when a kernel ends there. */
    if (waited && ev->kind == NW_EVENT_MESSAGE) {
      sim_pickup_wait(sn);
      if (sn->lost)
        break;
    }
    sn->q.head = ev->next;
    if (!sn->q.head)
      sn->q.tail = NULL;
    if (sn->costs.any)
      handle_charged(sn, ev);
    else
      nw_node_handle(sn->node, ev); /* takes what the event carries, not the event itself */
    free(ev);
    for (int g = 0; g < sn->ngpu; g++)
      if (sn->gpu[g].fifo_waiting) { /* static agglomeration: the lanes may hold less now */
        sn->gpu[g].fifo_waiting = 0;
        sg_sem_release(sn->gpu[g].fifo_sem);
      }
    if (sn->costs.spin_s > 0 && !sn->q.head && !nw_node_finished(sn->node)) {
      sim_loop_polls(sn);
      sn->loop_idle = 1;
      taken = spin(sn);
      sn->loop_idle = 0;
    }
  }
  sn->loop_ended = 1; /* no rendezvous waits for it any more */
  sim_loop_polls(sn);
}

/* The most flop/s a launch of `threads` threads gets on GPU g (sim_world.h, fill_threads): its
 * whole warps' share of the GPU's speed; 0 (no bound) when it fills the GPU, or when either
 * side does not say. */
static double launch_bound(const sim_gpu *g, uint64_t threads) {
  double share = nw_gpu_launch_share(threads, g->fill_threads);
  return share < 1.0 ? sg_host_get_speed(g->host) * share : 0;
}

/* A subtask that a device runs alone: timed by the measured model, or by the cost model.
 * Where a model was given and cannot price it (a kind, device or size it never measured), the
 * first such kind is kept for the run's warning. */
static void count_pricing(sim_world *w, const sim_device *d, nw_exec *e, nw_price_source src) {
  const char *kind = nw_exec_kind_name(e);
  int k = 0;
  while (k < w->npriced && strcmp(w->priced[k].kind, kind) != 0)
    k++;
  if (w->durations && k == w->npriced) {
    if (w->npriced == w->priced_cap) {
      int cap = w->priced_cap ? 2 * w->priced_cap : 8;
      struct nw_priced_kind *a = realloc(w->priced, (size_t)cap * sizeof *a);
      if (!a) {
        fprintf(stderr, "narwhal: out of memory counting how subtasks were timed\n");
        exit(1);
      }
      w->priced = a;
      w->priced_cap = cap;
    }
    memset(&w->priced[k], 0, sizeof w->priced[k]);
    snprintf(w->priced[k].kind, sizeof w->priced[k].kind, "%s", kind);
    w->npriced++;
  }
  if (w->durations)
    w->priced[k].by[src]++;
  if (src != NW_PRICE_UNCALIBRATED) {
    w->priced_by_model++;
    return;
  }
  w->priced_by_cost_model++;
  if (w->durations && !w->unpriced[0]) {
    char arch[NW_PERFMODEL_ARCH_MAX + 1];
    nw_perf_arch(d->kind, nw_exec_items(e), arch);
    snprintf(w->unpriced, sizeof w->unpriced, "kind '%s' on %s", nw_exec_kind_name(e), arch);
  }
}

static void device_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_device *d = sg_actor_self_get_data();
  const sim_world *w = d->node->w;
  const nw_run_config *cfg = w->cfg;
  int functional = cfg->functional;
  for (;;) {
    sg_sem_acquire(d->sem);
    nw_exec *e = d->queue[0];
    memmove(d->queue, d->queue + 1, --d->n * sizeof *d->queue);
    double modelled;
    /* StarPU's SimGrid mode: with a measured model (and not calibrating one), a subtask takes
     * the model's duration for its kind, device and footprint, launch included, since that
     * is what was measured; what the model does not know takes the cost model's flops. */
    nw_price_source source = w->durations
                                 ? nw_perf_exec_seconds(e, d->kind, w->durations, &modelled)
                                 : NW_PRICE_UNCALIBRATED;
    int from_model = source != NW_PRICE_UNCALIBRATED;
    if (d->kind == NW_DEVICE_GPU && d->node->gpu[d->gpu].mtc) {
      sim_mtc_submit(&d->node->gpu[d->gpu], e); /* its workers run it */
      continue;
    }
    if (d->kind == NW_DEVICE_GPU && cfg->agglomerate > 0) {
      sim_gpu *g = &d->node->gpu[d->gpu]; /* into the FIFO: the dispatcher launches it */
      nw_agglo_item it = {e, nw_exec_task_id(e), nw_exec_batchable(e, 1), nw_exec_high_priority(e),
                          d->index};
      if (nw_agglo_push(&g->fifo, it) != NW_OK) {
        fprintf(stderr, "narwhal: out of memory for a GPU's agglomeration queue\n");
        exit(1);
      }
      sg_sem_release(g->fifo_sem);
      continue;
    }
    count_pricing((sim_world *)w, d, e, source);
    sim_gpu *g = d->kind == NW_DEVICE_GPU ? &d->node->gpu[d->gpu] : NULL;
    if (g && g->turns) /* no asynchronous copies: the kernel waits for the copy engines */
      sg_mutex_lock(g->turns);
    if (g) {
      if (functional)
        nw_exec_run_gpu_emulated(e, sim_gpu_memory(g));
      if (!from_model)
        sg_actor_sleep_for(g->launch_s);
      g->launches++, g->launched++, g->largest = 1;
    } else {
      /* The compute thread's hand-offs (sim_costs.h), for every kernel: a measured duration is
       * the kernel's alone (the real backend's CPU samples are its CPU time, and this
       * simulator's are the kernel's execution, below), and the hand-offs happen around it
       * (on LU's 1.2 ms kernels, 0.9 ms of them per subtask on the 2-core VM). */
      if (d->node->costs.launch_s > 0)
        sg_actor_sleep_for(d->node->costs.launch_s);
      if (d->node->costs.any) { /* what the run's runtime_costs report (sim_world.h) */
        d->node->charged.launches++;
        d->node->charged.launch_s += d->node->costs.launch_s;
      }
      if (functional)
        nw_exec_run(e); /* real bytes, no simulated time */
    }
    double kernel_from = simgrid_get_clock();
    /* A work-group's items run at once, one per core of the node's CPU host, on which nothing
     * else computes: k parallel executions of flops/k take as long as one of them. The model
     * is perfectly parallel; on hardware memory bandwidth bends it (core/device/workgroup.h). */
    /* A CPU kernel at the machine's speed now, against its calibration's (rt_kernel_scale),
     * and the page faults of its first writes in place into the node's copies, which on
     * hardware are the kernel's own time (rt_page_fresh each; a model's samples hold none:
     * calibrate takes them out, and a kernel writing into a private view has its pages touched
     * before it starts). */
    double scale = g ? 1 : d->node->costs.kernel_scale;
    double faults_s = g ? 0 : (double)nw_exec_kernel_pages_fresh(e) * d->node->costs.page_fresh_s;
    if (from_model)
      sim_execute_slowed(d, (scale * modelled + faults_s) * sg_host_get_speed(d->host));
    else if (g)
      sim_execute_bounded(d, fmax(sim_roofline_work(d, e), g->fill_flops),
                          launch_bound(g, nw_exec_gpu_threads(e)));
    else
      sim_execute_slowed(d,
                         scale * sim_roofline_work(d, e) + faults_s * sg_host_get_speed(d->host));
    if (g && g->turns)
      sg_mutex_unlock(g->turns);
    double kernel_end = simgrid_get_clock(), kernel_s = kernel_end - kernel_from;
    if (d->kind == NW_DEVICE_CPU && d->node->costs.done_s > 0)
      sg_actor_sleep_for(d->node->costs.done_s);
    nw_event *ev = sim_new_event(NW_EVENT_EXEC_DONE);
    if (d->kind == NW_DEVICE_CPU) /* its hand-off, measured when the loop takes it */
      ev->stamp = kernel_end;
    ev->exec = e;
    if (!g) /* a CPU's sample is its kernel, as on hardware; a GPU's, launch to end */
      ev->kernel_s = kernel_s;
    sim_post(d->node, ev);
  }
}

/* --agglomerate-mode static: whether a unit of `group` can still reach this GPU's FIFO before
 * its next launch (agglo.h): a lane of the GPU with nothing in the FIFO that holds one, handed
 * to it by the node and not yet in the FIFO, or still with the node (queued, prefetched,
 * staged). */
static int fifo_may_grow(void *ctx, uint64_t group) {
  sim_gpu *g = ctx;
  sim_node *sn = g->lane0->node;
  for (int d = 0; d < sn->ndev; d++) {
    sim_device *v = &sn->dev[d];
    if (v->kind != NW_DEVICE_GPU || &sn->gpu[v->gpu] != g || nw_agglo_holds_lane(&g->fifo, d))
      continue;
    for (size_t i = 0; i < v->n; i++)
      if (nw_exec_task_id(v->queue[i]) == group)
        return 1;
    if (nw_pipeline_may_add(sn->node, d, group))
      return 1;
  }
  return 0;
}

/* The next launch: dynamic, whenever the FIFO holds work; static, when a group has N units or
 * no more can come (the node's loop wakes it after each event to look again). */
static int next_launch(sim_gpu *g, nw_exec **batch, int fixed) {
  if (!fixed) {
    while (!nw_agglo_queued(&g->fifo))
      sg_sem_acquire(g->fifo_sem);
    return nw_agglo_take(&g->fifo, (void **)batch);
  }
  int k;
  while (!(k = nw_agglo_take_static(&g->fifo, (void **)batch, fifo_may_grow, g))) {
    g->fifo_waiting = 1;
    sg_sem_acquire(g->fifo_sem);
    g->fifo_waiting = 0;
  }
  if (k < g->fifo.max && nw_exec_batchable(batch[0], 1) && !nw_exec_high_priority(batch[0]))
    g->launched_short++; /* the edge case (what goes alone is no short launch) */
  return k;
}

/* --agglomerate: a GPU's dispatcher (Lifflander et al., "Dynamic Scheduling for Work
 * Agglomeration on Heterogeneous Clusters", section III, agglomerateWork). Whenever the GPU is
 * idle and its FIFO holds work, it takes the next launch by agglo.h's rule (min(queued, N) of
 * one task, high priority first and alone) and runs it: one launch latency, then the batch's
 * work at the GPU's speed (each subtask's roofline work, summed; at least fill_flops), and
 * every subtask completes when the launch does. While it runs, the lanes' next subtasks queue
 * up, so launches grow with the rate at which subtasks arrive, as in the paper. A measured
 * model's durations are per subtask, launch included, so agglomerated launches take the cost
 * model's instead. Functional mode runs the kind's batched host emulation for a batch of
 * several, its single emulation for one. */
static void gpu_dispatch_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_gpu *g = sg_actor_self_get_data();
  sim_device *lane = g->lane0;
  int functional = lane->node->w->cfg->functional;
  int fixed = lane->node->w->cfg->agglomerate_mode == NW_AGGLO_STATIC;
  nw_exec **batch = g->batch;
  for (;;) {
    int k = next_launch(g, batch, fixed);
    if (functional && k == 1)
      nw_exec_run_gpu_emulated(batch[0], sim_gpu_memory(g));
    else if (functional && !nw_exec_run_gpu_batch(batch, k, sim_gpu_memory(g), NULL, 1)) {
      fprintf(stderr, "narwhal: out of memory for an agglomerated launch's views\n");
      exit(1);
    }
    if (g->turns)
      sg_mutex_lock(g->turns);
    sg_actor_sleep_for(g->launch_s);
    double work = 0;
    uint64_t threads = 0; /* the batch's: every subtask's, or 0 when one fills the GPU */
    for (int j = 0; j < k; j++) {
      work += sim_roofline_work(lane, batch[j]);
      uint64_t t = nw_exec_gpu_threads(batch[j]);
      threads = j == 0 || (threads && t) ? threads + t : 0;
    }
    sim_execute_bounded(lane, fmax(work, g->fill_flops), launch_bound(g, threads));
    if (g->turns)
      sg_mutex_unlock(g->turns);
    g->launches++;
    g->launched += (uint64_t)k;
    g->largest = (uint64_t)k > g->largest ? (uint64_t)k : g->largest;
    for (int j = 0; j < k; j++) {
      nw_event *ev = sim_new_event(NW_EVENT_EXEC_DONE);
      ev->exec = batch[j];
      sim_post(lane->node, ev);
    }
  }
}

/* A GPU copy engine: each copy crosses the PCIe route between the node's CPU host and the GPU
 * host as one SimGrid communication; the bytes move (functional mode) when it completes. A copy
 * out that the core asks to encode (nw_copy.encode) is run-length encoded first, from the
 * modelled GPU's bytes (what the emulated kernel wrote), with the CPU encoder, which writes
 * the same bytes as the CUDA one: the engine spends the GPU's rle_per_byte on every raw byte,
 * then moves only the encoding. The encoding's time is the engine's own: it does not slow the
 * GPU's kernels (nor do copies). */
static void engine_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_engine *e = sg_actor_self_get_data();
  sim_gpu *g = &e->node->gpu[e->gpu];
  int functional = e->node->w->cfg->functional, pack = e->node->w->cfg->pack_copies;
  sg_mailbox_t mb = sg_mailbox_by_name(e->mbox);
  for (;;) {
    sg_sem_acquire(e->sem);
    /* --pack-copies on: the copies queued behind the first go with it, as one transfer (one
     * latency, their bytes together): the host packs them into one staging buffer, as the
     * agglomeration paper's version packs a batch's particles (Lifflander, Evans, Arya, Kale,
     * section V-A1) and GeMTC a bundle. Copies the core asks to encode go alone. */
    copy_item *batch = e->head, *last = batch;
    while (pack && !batch->c->encode && last->next && !last->next->c->encode) {
      last = last->next;
      sg_sem_acquire(e->sem); /* its count: it is taken now */
    }
    e->head = last->next;
    if (!e->head)
      e->tail = NULL;
    last->next = NULL;
    uint64_t moved = 0;
    for (copy_item *it = batch; it; it = it->next) {
      nw_copy *c = it->c;
      uint64_t raw = c->rows * c->width;
      if (c->encode) { /* the core asks only for functional copies out */
        c->encoded_len = nw_rle_encode(sim_gpu_memory(g) + c->dev_off, raw, c->encoded);
        if (g->rle_s_per_byte > 0)
          sg_actor_sleep_for((double)raw * g->rle_s_per_byte);
        moved += c->encoded_len; /* contiguous on both sides */
        continue;
      }
      /* Short rows move slower than the link (sim_copy_rates.h): their bytes count for more. */
      moved += sim_copy_rates_wire_bytes(&g->copy_rates, raw, c->rows, c->width, c->host_pitch,
                                         g->link_bw[c->to_device]);
    }
    e->moving = batch;
    if (g->turns) /* no asynchronous copies: the transfer waits for the kernel */
      sg_mutex_lock(g->turns);
    sg_mailbox_put(mb, batch, (long)moved);
    if (g->turns)
      sg_mutex_unlock(g->turns);
    e->moving = NULL;
    e->transfers++;
    while (batch) {
      copy_item *it = batch;
      nw_copy *c = it->c;
      batch = it->next;
      free(it);
      if (functional && c->host && !c->encode) {
        unsigned char *dev = sim_gpu_memory(g) + c->dev_off;
        for (uint64_t r = 0; r < c->rows; r++) {
          if (c->to_device)
            memcpy(dev + r * c->width, c->host + r * c->host_pitch, c->width);
          else
            memcpy(c->host + r * c->host_pitch, dev + r * c->width, c->width);
        }
      }
      nw_event *ev = sim_new_event(NW_EVENT_COPY_DONE);
      ev->copy = c;
      sim_post(e->node, ev);
    }
  }
}

/* Takes every communication that arrives in its mailbox (named by the actor's data): the far
 * end of a GPU copy engine's transfers. */
static void mailbox_sink_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sg_mailbox_t mb = sg_mailbox_by_name(sg_actor_self_get_data());
  for (;;)
    sg_mailbox_get(mb);
}

/* The same for the data transfers to a node (sender_actor), as the mailbox's permanent
 * receiver: a transfer starts when it is put, none waits for a receive to be posted. */
static void data_sink_actor(int argc, char **argv) {
  sg_mailbox_set_receiver(sg_actor_self_get_data());
  mailbox_sink_actor(argc, argv);
}

/* One transfer at a time; each time it is free, the most urgent one (core/data/sendq.h).
 *
 * The transfer goes to the destination's data mailbox, which has a permanent receiver (its sink):
 * it starts when it is put, and the sender, whose put returns when it ends, hands the message
 * to the destination's loop. A receiver waiting on many posted receives at once
 * (sg_comm_wait_any) did the same, but SimGrid 3.32 walks every posted receive's list at each
 * completion, and detached sends sit in one global list walked at each completion; both grew
 * with the cluster (docs/experiments/sim-scale-control-messages.md). */
static void sender_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_node *sn = sg_actor_self_get_data();
  for (;;) {
    sg_sem_acquire(sn->out_sem);
    nw_send_class c;
    /* Not NULL: one transfer is queued per token and none is in flight between two. */
    envelope *e = nw_sendq_start(&sn->out, &c);
    if (e->packed_at > simgrid_get_clock()) /* its sender still packs it */
      sg_actor_sleep_for(e->packed_at - simgrid_get_clock());
    if (e->late_s > 0) /* lost and sent again, or held back (sim_faults.h) */
      sg_actor_sleep_for(e->late_s);
    double bulk = sim_rendezvous_bulk(sn, e); /* after its rendezvous, if it needs one */
    if (sn->lost) {                           /* a lost node starts no transfer */
      sim_discard(sn->w, e);
      nw_sendq_done(&sn->out, c);
      continue;
    }
    /* The payload is only a token: the sink drops it and the message travels in sim_deliver(). */
    sn->out_dst = e->dst;
    sn->out_start = simgrid_get_clock();
    sn->out_bytes = bulk;
    sim_node *to = &sn->w->node[e->dst];
    if (sim_shm_shared(sn, to)) /* the loops copy it, poll by poll */
      sim_shm_transfer(sn, to, e, bulk);
    else
      sg_mailbox_put(sg_mailbox_by_name(to->data_mbox), sn, (long)bulk);
    sn->out_dst = -1;
    sim_deliver(sn->w, e);
    nw_sendq_done(&sn->out, c);
  }
}

/* Hands each control message to its destination's loop when it is due, in due order (ties in
 * the order sent). It sleeps until the earliest is due; a message due sooner wakes it. */
static void postman_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_world *w = sg_actor_self_get_data();
  for (;;) {
    double now = simgrid_get_clock();
    while (w->mail.n > 0 && nw_due_first(&w->mail) <= now)
      sim_deliver(w, nw_due_pop(&w->mail));
    if (w->mail.n == 0) {
      w->postman_wakes = INFINITY;
      sg_sem_acquire(w->postman_sem);
    } else {
      w->postman_wakes = nw_due_first(&w->mail);
      sg_sem_acquire_timeout(w->postman_sem, w->postman_wakes - now);
    }
  }
}

static void driver_post(void *be, nw_driver_call *call) {
  sim_world *w = be;
  nw_event *ev = sim_new_event(NW_EVENT_DRIVER);
  ev->call = call;
  sim_post(&w->node[0], ev);
  sg_sem_acquire(w->driver_sem);
}

static void driver_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_world *w = sg_actor_self_get_data();
  w->app_status = w->app->main(&w->rt, &w->cfg->args, &w->outcome);
  nw_runtime_shutdown(&w->rt);
  w->driver_done = 1;
}

/* ---- set-up */

/* GPU host h's property `key` (fallback when absent) into *out: a finite number >= 0, else
 * NW_ERR_ARG with one line naming the platform, host and property. */
static nw_status gpu_property(const nw_run_config *cfg, const char *name, sg_host_t h,
                              const char *key, const char *unit, double fallback, double *out,
                              nw_run_result *res) {
  *out = sim_host_property(h, key, fallback);
  if (*out >= 0 && isfinite(*out))
    return NW_OK;
  snprintf(res->error, sizeof res->error,
           "platform %.300s: host %s: property %s='%.40s' is not a number of %s >= 0",
           cfg->platform, name, key, sg_host_get_property_value(h, key), unit);
  return NW_ERR_ARG;
}

/* The GPUs node i uses, with their budgets (--gpu-mem, else the host's memsize). */
static nw_status setup_gpus(sim_world *w, int i, nw_run_result *res) {
  const nw_run_config *cfg = w->cfg;
  sim_node *sn = &w->node[i];
  sn->ngpu = cfg->devices == NW_DEVICES_CPU ? 0 : sim_count_gpus(i);
  if (cfg->devices != NW_DEVICES_CPU && sn->ngpu == 0) {
    snprintf(res->error, sizeof res->error,
             "--devices %s: node %d of platform %.300s has no GPU (hosts n%d-gpu0, ...)",
             nw_devices_mode_name(cfg->devices), i, cfg->platform, i);
    return NW_ERR_ARG;
  }
  if (sn->ngpu > NW_MAX_GPUS_PER_NODE) {
    snprintf(res->error, sizeof res->error, "platform %.300s: node %d has %d GPUs, at most %d",
             cfg->platform, i, sn->ngpu, NW_MAX_GPUS_PER_NODE);
    sn->ngpu = 0; /* the tear-down walks gpu[0, ngpu): only what was set up */
    return NW_ERR_ARG;
  }
  for (int g = 0; g < sn->ngpu; g++) {
    char name[48];
    snprintf(name, sizeof name, "n%d-gpu%d", i, g);
    sim_gpu *gpu = &sn->gpu[g];
    gpu->host = sg_host_by_name(name);
    double mem = sim_host_property(gpu->host, "memsize", -1);
    gpu->launch_s = sim_host_property(gpu->host, "launch_latency", DEFAULT_LAUNCH_S);
    /* Each a finite number >= 0 (platforms/README.md says what each means). */
    const struct {
      const char *key, *unit;
      double fallback, *out;
    } props[] = {{"rle_per_byte", "seconds", DEFAULT_GPU_RLE_S_PER_BYTE, &gpu->rle_s_per_byte},
                 {"mem_bw", "bytes/s", 0, &gpu->mem_bw},
                 {"fill_flops", "flops", 0, &gpu->fill_flops},
                 {"fill_threads", "threads", 0, &gpu->fill_threads},
                 {"async_copies", "0 or 1", 1, &gpu->async_copies}};
    nw_status st = NW_OK;
    for (size_t k = 0; st == NW_OK && k < sizeof props / sizeof props[0]; k++)
      st = gpu_property(cfg, name, gpu->host, props[k].key, props[k].unit, props[k].fallback,
                        props[k].out, res);
    if (st != NW_OK)
      return st;
    if (gpu->async_copies != 0 && gpu->async_copies != 1) {
      snprintf(res->error, sizeof res->error,
               "platform %.300s: host %s: property async_copies='%.40s' is not 0 or 1",
               cfg->platform, name, sg_host_get_property_value(gpu->host, "async_copies"));
      return NW_ERR_ARG;
    }
    if (mem <= 0 || gpu->launch_s < 0) {
      snprintf(res->error, sizeof res->error,
               "platform %.300s: host %s needs a memsize property (bytes > 0)%s", cfg->platform,
               name, gpu->launch_s < 0 ? " and a launch_latency in seconds" : "");
      return NW_ERR_ARG;
    }
    if (cfg->gpu_mem > (uint64_t)mem) {
      snprintf(res->error, sizeof res->error, "--gpu-mem %llu: GPU %s has only %.0f bytes",
               (unsigned long long)cfg->gpu_mem, name, mem);
      return NW_ERR_ARG;
    }
    gpu->memsize = cfg->gpu_mem ? cfg->gpu_mem : (uint64_t)mem;
    const char *rates = sg_host_get_property_value(gpu->host, "copy_row_rates");
    char why[100];
    if (rates && sim_copy_rates_parse(rates, &gpu->copy_rates, why, sizeof why) != 0) {
      snprintf(res->error, sizeof res->error,
               "platform %.200s: host %s: property copy_row_rates: %s", cfg->platform, name, why);
      return NW_ERR_ARG;
    }
    gpu->link_bw[0] = sg_host_get_route_bandwidth(gpu->host, sn->host);
    gpu->link_bw[1] = sg_host_get_route_bandwidth(sn->host, gpu->host);
  }
  return NW_OK;
}

/* A functional run on modelled GPUs needs each kind's host emulation of its GPU kernel. */
static nw_status check_gpu_kernels(sim_world *w, nw_run_result *res) {
  if (w->cfg->devices == NW_DEVICES_CPU)
    return NW_OK;
  for (const nw_task_kind *const *k = w->app->kinds; k && *k; k++) {
    if (w->cfg->functional && !(*k)->gpu_emulated_kernel) {
      snprintf(res->error, sizeof res->error,
               "--devices %s: task kind '%s' cannot run on modelled GPUs in functional mode (no "
               "GPU emulation); use --data phantom or --devices cpu",
               nw_devices_mode_name(w->cfg->devices), (*k)->name);
      return NW_ERR_ARG;
    }
    if (w->cfg->devices == NW_DEVICES_GPU && !w->cfg->functional && !(*k)->flops) {
      snprintf(res->error, sizeof res->error, "task kind '%s' has no cost model", (*k)->name);
      return NW_ERR_ARG;
    }
  }
  return NW_OK;
}

/* The platform's transfer models, for the policies that weigh data movement: node 0 to node 1
 * (the platforms' nodes are alike), and node 0's host to its first GPU. */
static void transfer_models(sim_world *w, nw_node_config *nc) {
  if (w->nodes > 1) {
    nc->net_bandwidth = sg_host_get_route_bandwidth(w->node[0].host, w->node[1].host);
    nc->net_latency = sg_host_get_route_latency(w->node[0].host, w->node[1].host);
  }
  nc->dram_bandwidth = w->node[0].dram_bw;
  if (w->node[0].ngpu > 0) {
    nc->pcie_bandwidth = sg_host_get_route_bandwidth(w->node[0].host, w->node[0].gpu[0].host);
    nc->pcie_latency = sg_host_get_route_latency(w->node[0].host, w->node[0].gpu[0].host);
  }
}

static nw_status build_nodes(sim_world *w, nw_run_result *res) {
  const nw_run_config *cfg = w->cfg;
  w->node = calloc((size_t)w->nodes, sizeof *w->node);
  if (!w->node)
    return NW_ERR_NOMEM;
  nw_status st = check_gpu_kernels(w, res);
  if (st != NW_OK)
    return st;
  if (nw_run_check_gpu_mode(cfg, res->error, sizeof res->error) != NW_OK)
    return NW_ERR_ARG;
  nw_node_config *nc = calloc(1, sizeof *nc);
  if (!nc)
    return NW_ERR_NOMEM;
  nc->nodes = w->nodes;
  nc->functional = cfg->functional;
  nc->sched = cfg->sched;
  nc->check_views = cfg->check_views;
  nc->trace = cfg->trace[0] != '\0';
  nc->compress_network = cfg->compress_network;
  nc->compress_gpu = cfg->compress_gpu;
  nc->kinds = w->app->kinds;
  nc->calibrate = cfg->calibrate;
  nc->measure = cfg->perfmodel != NULL;
  nc->resilient = cfg->faults.nfail > 0; /* a run that loses nodes survives them */
  int cpus[NW_MAX_NODES], group[NW_MAX_NODES];
  for (int i = 0; i < w->nodes && st == NW_OK; i++) {
    char name[32];
    snprintf(name, sizeof name, "n%d-cpu", i);
    sg_host_t h = sg_host_by_name(name);
    int cores = sg_host_core_count(h);
    w->node[i].host = h;
    st = sim_costs_read(h, cfg->platform, w->app->name, &w->node[i].costs, res->error,
                        sizeof res->error);
    if (st != NW_OK)
      break;
    w->node[i].machine = sg_host_get_property_value(h, "rt_machine");
    w->node[i].dram_bw = sim_host_property(h, "dram_bw", 0);
    if (w->node[i].dram_bw < 0 || !isfinite(w->node[i].dram_bw)) {
      snprintf(res->error, sizeof res->error,
               "platform %.300s: host %s: property dram_bw='%.40s' is not a number of bytes/s >= 0",
               cfg->platform, name, sg_host_get_property_value(h, "dram_bw"));
      st = NW_ERR_ARG;
      break;
    }
    st = setup_gpus(w, i, res);
    if (st != NW_OK)
      break;
    int ngpu = w->node[i].ngpu;
    if (cfg->agglomerate > 0 && ngpu == 0) {
      snprintf(res->error, sizeof res->error,
               "--agglomerate %d: node %d runs no GPU (--devices %s); agglomeration is a GPU mode",
               cfg->agglomerate, i, nw_devices_mode_name(cfg->devices));
      st = NW_ERR_ARG;
      break;
    }
    char why[256];
    st = nw_run_cpu_layout(cfg, cores, ngpu, &cpus[i], &group[i], why, sizeof why);
    if (st != NW_OK) {
      snprintf(res->error, sizeof res->error, "%.180s (node %d of platform %.300s)", why, i,
               cfg->platform);
      break;
    }
    int total = cpus[i] + ngpu * cfg->gpu_streams;
    if (total > NW_MAX_DEVICES_PER_NODE || total < 1) {
      snprintf(res->error, sizeof res->error,
               "node %d of platform %.300s: %d devices with the GPU streams, 1 to %d allowed", i,
               cfg->platform, total, NW_MAX_DEVICES_PER_NODE);
      st = NW_ERR_ARG;
      break;
    }
    nc->devices_per_node[i] = total;
  }
  int total_devices = 0;
  for (int i = 0; i < w->nodes && st == NW_OK; i++)
    total_devices += nc->devices_per_node[i];
  if (st == NW_OK && !(w->cluster = calloc((size_t)total_devices, sizeof *w->cluster)))
    st = NW_ERR_NOMEM;
  nc->cluster = w->cluster;
  if (st == NW_OK)
    transfer_models(w, nc);
  for (int i = 0, g0 = 0; i < w->nodes && st == NW_OK; g0 += w->node[i].ndev, i++) {
    sim_node *sn = &w->node[i];
    sn->w = w;
    sn->id = i;
    sn->ndev = nc->devices_per_node[i];
    sn->rng = cfg->seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(i + 1));
    sn->pickup_rng = sn->rng ^ 0x5DEECE66Dull;
    sn->q.sem = sg_sem_init(0);
    snprintf(sn->data_mbox, sizeof sn->data_mbox, "data-%d", i);
    sn->out_sem = sg_sem_init(0);
    sn->out_dst = -1;
    nw_sendq_init(&sn->out);
    sn->dev = calloc((size_t)sn->ndev, sizeof *sn->dev);
    if (!sn->dev) {
      st = NW_ERR_NOMEM;
      break;
    }
    nc->id = i;
    nc->perfmodel = i == 0 ? cfg->perfmodel : NULL; /* node 0 records and predicts */
    nc->devices = sn->ndev;
    nc->gpus = sn->ngpu;
    for (int d = 0; d < sn->ndev; d++) {
      int gpu = d < cpus[i] ? -1 : (d - cpus[i]) / cfg->gpu_streams;
      nc->device_kind[d] = gpu < 0 ? NW_DEVICE_CPU : NW_DEVICE_GPU;
      nc->device_gpu[d] = gpu;
      nc->device_cores[d] = gpu < 0 ? group[i] : 0;
      sn->dev[d] = (sim_device){.node = sn,
                                .index = d,
                                .kind = nc->device_kind[d],
                                .gpu = gpu,
                                .host = gpu < 0 ? sn->host : sn->gpu[gpu].host,
                                .bytes_per_s = gpu < 0 ? sn->dram_bw / (cpus[i] * group[i])
                                                       : sn->gpu[gpu].mem_bw,
                                .sem = sg_sem_init(0)};
      int cores = gpu < 0 && group[i] > 1 ? group[i] : 1; /* a work-group spreads over its cores */
      w->cluster[g0 + d] =
          (nw_device_desc){.kind = nc->device_kind[d],
                           .cores = gpu < 0 ? cores : 0,
                           .flops = sg_host_get_speed(sn->dev[d].host) * cores,
                           .gpu = gpu,
                           .mem_bw = sn->dev[d].bytes_per_s * cores,
                           .fill_threads = gpu < 0 ? 0 : sn->gpu[gpu].fill_threads};
    }
    for (int g = 0; g < sn->ngpu; g++) {
      nc->gpu_memory[g] = sn->gpu[g].memsize;
      nw_agglo_init(&sn->gpu[g].fifo, cfg->agglomerate);
      if (cfg->agglomerate > 0 &&
          !(sn->gpu[g].batch = malloc((size_t)sn->gpu[g].fifo.max * sizeof *sn->gpu[g].batch)))
        st = NW_ERR_NOMEM;
      sn->gpu[g].fifo_sem = sg_sem_init(0);
      for (int d = 0; d < sn->ndev; d++)
        if (sn->dev[d].gpu == g && !sn->gpu[g].lane0)
          sn->gpu[g].lane0 = &sn->dev[d];
      if (st == NW_OK && cfg->gpu_mode == NW_GPU_MANY_TASK) {
        st = sim_mtc_open(sn, g, cfg->gpu_streams, res->error, sizeof res->error);
        for (int d = 0; st == NW_OK && d < sn->ndev; d++)
          if (sn->dev[d].gpu == g)
            sim_mtc_describe(&sn->gpu[g], cfg->gpu_streams, &w->cluster[g0 + d]);
      }
      for (int dir = 0; dir < 2; dir++) {
        sim_engine *e = &sn->gpu[g].engine[dir];
        *e = (sim_engine){.node = sn, .gpu = g, .to_device = dir, .sem = sg_sem_init(0)};
        snprintf(e->mbox, sizeof e->mbox, "%s-%d-%d", dir ? "h2d" : "d2h", i, g);
      }
      if (!sn->gpu[g].async_copies)
        sn->gpu[g].turns = sg_mutex_init();
    }
    /* Counted where the modelled run would fault them (bytes) or the platform prices them: a
     * handler's first writes (rt_KIND_per_space_page) or a kernel's writing in place
     * (rt_page_fresh). Without bytes too: a calibration takes a kernel's first touches out of
     * its samples, so a one-rank phantom run that did not charge them came out fast by them
     * (conv2d 6144/1536 -11% where the same run with bytes was right). */
    nc->count_space_pages =
        cfg->functional || sn->costs.space_pages_priced || sn->costs.page_fresh_s > 0;
    if (st == NW_OK)
      st = nw_node_create(nc, (nw_backend){&sim_ops, sn}, &sn->node);
  }
  free(nc);
  return st;
}

static void start_actors(sim_world *w) {
  unsigned dev_stack = w->cfg->functional ? STACK_DEFAULT : STACK_SERVICE;
  for (int i = 0; i < w->nodes; i++) {
    sim_node *sn = &w->node[i];
    sim_spawn("node", sn->host, node_actor, sn, 0, STACK_NODE);
    for (int d = 0; d < sn->ndev; d++)
      sim_spawn("device", sn->dev[d].host, device_actor, &sn->dev[d], 1, dev_stack);
    for (int g = 0; g < sn->ngpu; g++) {
      sim_engine *e = sn->gpu[g].engine;
      if (w->cfg->agglomerate > 0)
        sim_spawn("dispatch", sn->gpu[g].host, gpu_dispatch_actor, &sn->gpu[g], 1, dev_stack);
      if (sn->gpu[g].mtc)
        sim_mtc_start(&sn->gpu[g], dev_stack);
      sim_spawn("copy-d2h", sn->gpu[g].host, engine_actor, &e[0], 1, dev_stack);
      sim_spawn("sink-d2h", sn->host, mailbox_sink_actor, e[0].mbox, 1, STACK_SERVICE);
      sim_spawn("copy-h2d", sn->host, engine_actor, &e[1], 1, dev_stack);
      sim_spawn("sink-h2d", sn->gpu[g].host, mailbox_sink_actor, e[1].mbox, 1, STACK_SERVICE);
    }
    sim_spawn("sender", sn->host, sender_actor, sn, 1, STACK_SERVICE);
    sim_spawn("sink-data", sn->host, data_sink_actor, sn->data_mbox, 1, STACK_SERVICE);
  }
  w->postman_wakes = INFINITY;
  sim_spawn("postman", w->node[0].host, postman_actor, w, 1, STACK_SERVICE);
  sim_spawn("driver", w->node[0].host, driver_actor, w, 0, STACK_DEFAULT);
}

/* The many-task models are sim_mtc.c's and the shared-memory transfers' leftovers
 * sim_shm_poll.c's, freed there; the rest is the world's. */
static void free_world(sim_world *w) {
  for (int i = 0; w->node && i < w->nodes; i++) {
    for (int g = 0; g < w->node[i].ngpu; g++)
      sim_mtc_free(&w->node[i].gpu[g]);
    sim_shm_free(&w->node[i]);
  }
  sim_world_free(w);
}

nw_status nw_sim_run(const nw_run_config *cfg, const nw_app *app, nw_run_result *res) {
  static int initialized;
  memset(res, 0, sizeof *res);
  res->verified = -1;
  if (initialized) {
    snprintf(res->error, sizeof res->error, "the simulator runs once per process");
    return res->status = NW_ERR_STATE;
  }
  const char *settings[NW_SIMGRID_ARGS_MAX];
  int nsettings =
      cfg->nsimgrid_args < NW_SIMGRID_ARGS_MAX ? cfg->nsimgrid_args : NW_SIMGRID_ARGS_MAX;
  for (int i = 0; i < nsettings; i++)
    settings[i] = cfg->simgrid_args[i];
  nw_status st =
      nw_platform_check(cfg->platform, settings, nsettings, res->error, sizeof res->error);
  if (st != NW_OK)
    return res->status = st;
  initialized = 1;
  xbt_log_control_set("root.thres:critical");
  /* optim:Full when the fault plan needs it (sim_faults.h), before the researcher's settings. */
  sim_init_simgrid("narwhal", "--log=root.thres:critical",
                   sim_faults_need_full_update(cfg) ? "--cfg=network/optim:Full" : NULL, settings,
                   nsettings);
  simgrid_load_platform(cfg->platform);

  sim_world w = {.cfg = cfg, .app = app, .app_status = NW_OK};
  w.outcome.verified = -1;
  int available = sim_count_nodes();
  w.nodes = cfg->nodes > 0 ? cfg->nodes : available;
  if (available == 0) {
    snprintf(res->error, sizeof res->error,
             "platform %.300s has no nodes (a node is a host named n<i>-cpu, i from 0: a "
             "<cluster> with prefix=\"n\" suffix=\"-cpu\" radical=\"0-N\" for CPUs only, "
             "platforms/gen-platform.sh for nodes with GPUs)",
             cfg->platform);
    return res->status = NW_ERR_ARG;
  }
  int stray = sim_node_after_gap(available);
  if (stray >= 0) {
    snprintf(res->error, sizeof res->error,
             "platform %.300s: host n%d-cpu but no n%d-cpu: nodes are numbered from n0 without "
             "gaps",
             cfg->platform, stray, available);
    return res->status = NW_ERR_ARG;
  }
  if (w.nodes > available || w.nodes > NW_MAX_NODES) {
    snprintf(res->error, sizeof res->error, "platform %.300s has %d nodes, %d requested",
             cfg->platform, available, w.nodes);
    return res->status = NW_ERR_ARG;
  }
  if (nw_slowdown_check_nodes(cfg, w.nodes, res->error, sizeof res->error) != NW_OK ||
      sim_faults_setup(&w, res) != NW_OK)
    return res->status = NW_ERR_ARG;
  /* --devices auto: GPUs too when every node of the run has one and every task kind runs on a
   * modelled GPU (its emulation in functional mode, its cost model otherwise). */
  nw_run_config resolved = *cfg;
  int fewest_gpus = -1;
  for (int i = 0; i < w.nodes; i++)
    if (fewest_gpus < 0 || sim_count_gpus(i) < fewest_gpus)
      fewest_gpus = sim_count_gpus(i);
  resolved.devices = nw_run_auto_devices(cfg, app, fewest_gpus, cfg->functional, 0);
  res->device_mix = resolved.devices;
  w.cfg = cfg = &resolved;
  if (cfg->perfmodel && !cfg->calibrate &&
      (nw_perfmodel_create(&w.durations) != NW_OK ||
       nw_perfmodel_merge(w.durations, cfg->perfmodel) != NW_OK)) {
    snprintf(res->error, sizeof res->error, "out of memory copying the performance model");
    free_world(&w);
    return res->status = NW_ERR_NOMEM;
  }
  st = build_nodes(&w, res);
  if (st != NW_OK) {
    if (!res->error[0])
      snprintf(res->error, sizeof res->error, "cannot set up the simulated nodes (status %d)",
               (int)st);
    free_world(&w);
    return res->status = st;
  }
  if (cfg->check_only) {
    free_world(&w);
    res->reporter = 1;
    return res->status = NW_OK;
  }
  w.driver_sem = sg_sem_init(0);
  w.postman_sem = sg_sem_init(0);
  w.rt =
      (nw_runtime){.post = driver_post, .be = &w, .functional = cfg->functional, .nodes = w.nodes};
  start_actors(&w);
  sim_faults_start(&w);
  simgrid_run();

  nw_stats *stats = calloc((size_t)w.nodes, sizeof *stats);
  for (int i = 0; stats && i < w.nodes; i++) {
    stats[i] = *nw_node_stats(w.node[i].node);
    stats[i].rt = w.node[i].charged;
    stats[i].demand_overtakes = w.node[i].out.overtakes;
    for (int g = 0; g < w.node[i].ngpu; g++) {
      const sim_gpu *gpu = &w.node[i].gpu[g];
      stats[i].gpu_launches += gpu->launches;
      stats[i].gpu_launch_subtasks += gpu->launched;
      stats[i].gpu_launch_short += gpu->launched_short;
      stats[i].gpu_copy_transfers += gpu->engine[0].transfers + gpu->engine[1].transfers;
      if (gpu->largest > stats[i].gpu_launch_largest)
        stats[i].gpu_launch_largest = gpu->largest;
    }
  }
  if (stats) {
    stats[0].priced_by_model = w.priced_by_model;
    stats[0].priced_by_cost_model = w.priced_by_cost_model;
  }
  /* Never a silent fallback: the cost model at the platform's speed can be many times off
   * for a kind whose rate was never measured (an FFT priced at a core's SGEMM rate). */
  if (w.durations && w.priced_by_cost_model > 0)
    fprintf(stderr,
            "narwhal: the performance model (--perfmodel) could not time %llu of %llu subtasks "
            "(the first: %s, with neither ten samples of its data sizes nor a regression or a "
            "measured rate for its kind on that device): they took the cost model's flops at "
            "the platform's speed, uncalibrated\n",
            (unsigned long long)w.priced_by_cost_model,
            (unsigned long long)(w.priced_by_cost_model + w.priced_by_model), w.unpriced);
  st = stats ? nw_run_result_fill(res, stats, w.nodes, &w.outcome) : NW_ERR_NOMEM;
  for (int i = 0; st == NW_OK && cfg->trace[0] && i < w.nodes; i++)
    st = nw_run_result_add_trace(res, nw_node_trace_records(w.node[i].node));
  if (st == NW_OK && w.npriced > 0) { /* the result takes the array */
    res->priced = w.priced;
    res->npriced = w.npriced;
    w.priced = NULL;
  }
  free(stats);
  res->reporter = 1;
  res->faults = w.faults;
  res->status = st != NW_OK ? st : w.app_status;
  if (w.app_status != NW_OK)
    snprintf(res->error, sizeof res->error, "%s", w.rt.error[0] ? w.rt.error : "the run failed");
  if (!w.driver_done) { /* SimGrid found no activity left that could ever complete */
    snprintf(res->error, sizeof res->error,
             "the simulation stopped at %.6f s with work pending: a deadlock in Narwhal (please "
             "report it with this command line)",
             simgrid_get_clock());
    res->status = NW_ERR_INTERNAL;
  }
  sg_sem_destroy(w.driver_sem);
  sg_sem_destroy(w.postman_sem);
  free_world(&w);
  return res->status;
}
