/* sim_mtc.c: see sim_mtc.h. Of the simulator's own files it calls only sim_world.c (events,
 * actors, executions, a GPU's bytes), never back into sim_backend.c, which drives it. */
#include "sim_mtc.h"

#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "narwhal_mtc.h"

/* GeMTC's task descriptor: what travels in a bundle per task (backends/real/real_mtc.h). */
#define TASK_DESCRIPTOR_BYTES 48.0

typedef struct sim_mtc {
  sim_gpu *g;
  sim_device *lane; /* one of the GPU's lanes: its host and memory bandwidth */
  int bundle, workers;
  double bundle_s, task_s, flush_s;
  nw_mtcq in; /* subtasks the lanes handed over, not yet bundled */
  sg_sem_t in_sem;
  nw_exec **batch; /* the bundle being sent */
  /* Published on the device, not yet taken by a worker. The same queue: its workers are
   * actors, which never run at once, so taking one at a time from several is safe. */
  nw_mtcq ready;
  sg_sem_t work_sem;
} sim_mtc;

/* The host's property `name` as a number >= lo (default dflt); -1 with a reason. */
static int property(sg_host_t h, const char *platform, const char *name, double dflt, double lo,
                    double *out, char *why, size_t len) {
  *out = sim_host_property(h, name, dflt);
  if (!isfinite(*out) || *out < lo) {
    snprintf(why, len, "platform %.300s: host %s: property %s='%.40s' is not a number >= %g",
             platform, sg_host_get_name(h), name, sg_host_get_property_value(h, name), lo);
    return -1;
  }
  return 0;
}

nw_status sim_mtc_open(sim_node *sn, int gi, int lanes, char *why, size_t why_len) {
  sim_gpu *g = &sn->gpu[gi];
  const char *platform = sn->w->cfg->platform;
  double latency = sg_host_get_route_latency(sn->host, g->host);
  double bandwidth = sg_host_get_route_bandwidth(sn->host, g->host);
  double workers, bundle_s, task_s, flush_s;
  if (property(g->host, platform, "mtc_workers", lanes, 1, &workers, why, why_len) ||
      property(g->host, platform, "mtc_bundle_cost", 2 * latency, 0, &bundle_s, why, why_len) ||
      property(g->host, platform, "mtc_task_cost", 0, 0, &task_s, why, why_len))
    return NW_ERR_ARG;
  if (property(g->host, platform, "mtc_flush", bundle_s, 0, &flush_s, why, why_len))
    return NW_ERR_ARG;
  if (workers != floor(workers) || workers > 65536) {
    snprintf(why, why_len,
             "platform %.300s: host %s: property mtc_workers='%.40s' is not a whole number of "
             "workers from 1 to 65536",
             platform, sg_host_get_name(g->host),
             sg_host_get_property_value(g->host, "mtc_workers"));
    return NW_ERR_ARG;
  }
  sim_mtc *m = calloc(1, sizeof *m);
  if (!m)
    return NW_ERR_NOMEM;
  g->mtc = m;
  *m = (sim_mtc){.g = g,
                 .lane = g->lane0,
                 .bundle = sn->w->cfg->mtc_bundle,
                 .workers = (int)workers,
                 .bundle_s = bundle_s,
                 .task_s = task_s + (bandwidth > 0 ? TASK_DESCRIPTOR_BYTES / bandwidth : 0),
                 .flush_s = flush_s,
                 .in_sem = sg_sem_init(0),
                 .work_sem = sg_sem_init(0)};
  /* Each lane has at most one subtask launched (pipeline.c), so the lanes never fill them. */
  if (nw_mtcq_init(&m->in, (uint32_t)lanes * 2) != NW_OK ||
      nw_mtcq_init(&m->ready, (uint32_t)lanes * 2) != NW_OK ||
      !(m->batch = malloc((size_t)m->bundle * sizeof *m->batch)))
    return NW_ERR_NOMEM;
  return NW_OK;
}

void sim_mtc_describe(const sim_gpu *g, int lanes, nw_device_desc *d) {
  const sim_mtc *m = g->mtc;
  int bundle = m->bundle < lanes ? m->bundle : lanes; /* a lane has one subtask in at a time */
  d->lane_flops = sg_host_get_speed(g->host) / m->workers;
  d->lanes_per_worker = lanes > m->workers ? (double)lanes / m->workers : 1.0;
  d->stage_s = m->task_s + m->bundle_s / bundle;
  d->lane_s = m->bundle_s + bundle * m->task_s;
}

void sim_mtc_submit(sim_gpu *g, nw_exec *e) {
  sim_mtc *m = g->mtc;
  if (nw_mtcq_push(&m->in, e) != 0) {
    fprintf(stderr, "narwhal: a many-task GPU's incoming queue is full (more subtasks launched "
                    "than lanes: a bug)\n");
    exit(1);
  }
  sg_sem_release(m->in_sem);
}

/* The host side: waits for a first subtask, then up to mtc_flush for a full bundle, sends it
 * (the bundle's costs) and publishes its subtasks to the workers, in order. */
static void bundler_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_mtc *m = sg_actor_self_get_data();
  sim_gpu *g = m->g;
  sg_actor_sleep_for(g->launch_s); /* the resident kernel: launched once */
  for (;;) {
    while (nw_mtcq_queued(&m->in) == 0)
      sg_sem_acquire(m->in_sem);
    double deadline = simgrid_get_clock() + m->flush_s;
    while (nw_mtcq_queued(&m->in) < (uint32_t)m->bundle) {
      double left = deadline - simgrid_get_clock();
      if (left <= 0 || sg_sem_acquire_timeout(m->in_sem, left) != 0)
        break;
    }
    uint32_t k = nw_mtcq_take(&m->in, (void **)m->batch, (uint32_t)m->bundle);
    sg_actor_sleep_for(m->bundle_s + k * m->task_s);
    for (uint32_t j = 0; j < k; j++) {
      nw_mtcq_push(&m->ready, m->batch[j]); /* room: they were in `in` a moment ago */
      sg_sem_release(m->work_sem);
    }
    g->launches++;
    g->launched += k;
    g->largest = k > g->largest ? k : g->largest;
  }
}

/* The subtask's computation: the kind's worker-kernel operation where it has one (what a CUDA
 * GPU runs in this mode, narwhal_mtc.h), else its emulated kernel. */
static void run_functional(nw_exec *e, unsigned char *memory) {
  if (!nw_exec_has_mtc(e)) {
    nw_exec_run_gpu_emulated(e, memory);
    return;
  }
  nw_mtc_task t;
  if (nw_exec_mtc_task(e, memory, &t) != 0 || nw_mtc_run_host(&t) != 0) {
    fprintf(stderr,
            "narwhal: task kind '%s' described a subtask the many-task worker cannot run "
            "(a bug in the kind's mtc_task)\n",
            nw_exec_kind_name(e));
    exit(1);
  }
}

/* A worker warp: takes the next published subtask and runs it at its share of the GPU. A
 * measured model's durations are per launched subtask, launch included, so the cost model's
 * work is charged instead (as for agglomerated launches). */
static void worker_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  sim_mtc *m = sg_actor_self_get_data();
  sim_device *lane = m->lane;
  double bound = sg_host_get_speed(lane->host) / m->workers;
  for (;;) {
    sg_sem_acquire(m->work_sem);
    nw_exec *e;
    nw_mtcq_take(&m->ready, (void **)&e, 1);
    if (lane->node->w->cfg->functional)
      run_functional(e, sim_gpu_memory(m->g));
    sim_execute_bounded(lane, sim_roofline_work(lane, e), bound);
    nw_event *ev = sim_new_event(NW_EVENT_EXEC_DONE);
    ev->exec = e;
    sim_post(lane->node, ev);
  }
}

void sim_mtc_start(sim_gpu *g, unsigned stack) {
  sim_mtc *m = g->mtc;
  sim_spawn("mtc-bundler", m->lane->node->host, bundler_actor, m, 1, STACK_SERVICE);
  for (int w = 0; w < m->workers; w++)
    sim_spawn("mtc-worker", g->host, worker_actor, m, 1, stack);
}

void sim_mtc_free(sim_gpu *g) {
  sim_mtc *m = g->mtc;
  if (!m)
    return;
  nw_mtcq_free(&m->in);
  if (m->in_sem)
    sg_sem_destroy(m->in_sem);
  if (m->work_sem)
    sg_sem_destroy(m->work_sem);
  nw_mtcq_free(&m->ready);
  free(m->batch);
  free(m);
  g->mtc = NULL;
}
