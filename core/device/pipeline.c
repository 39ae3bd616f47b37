/* pipeline.c: subtasks on devices: the initial split, each device's pipeline, commits.
 *
 * Paper section 4.3.2: a task starts with an equal share of contiguous subtask ids per device
 * in the cluster. A device runs its queue in order; with pipelining on (section 4.3), the next
 * subtask's data is requested while the current one executes, at lower priority than the data
 * devices wait for now (section 4.2; --prefetch-priority). When a device's queue is empty
 * it steals (steal.c). A finished subtask's private write views are committed to the node's
 * copy (write-only) or kept until the task ends (read-write: transactional semantics); a CPU
 * kernel that cannot have a second instance writes a write-only space, or the read-write space
 * of a task of one subtask, in place instead.
 */
#include <stdlib.h>
#include <string.h>

#include "node_internal.h"
#include "policy.h"
#include "resend.h"
#include "viewcheck.h"

/* The device's next subtask, of any task, in the policy's order (the queue's unless it says
 * otherwise). */
static int pop_next(nw_node *n, int d, nw_task_state **t, uint64_t *id) {
  return n->policy->pop ? n->policy->pop(n, d, t, id) : nw_queue_pop(n, d, t, id);
}

double nw_pipeline_rate(const nw_device_slot *s) {
  return s->busy_s > 0 ? (double)s->executed / s->busy_s : 0.0;
}

/* One block: the struct, then the read, write and fetched regions, then the cache entries. */
nw_prepared *nw_prepared_new(int nspaces) {
  size_t ns = (size_t)nspaces;
  nw_prepared *p =
      calloc(1, sizeof *p + 3 * ns * sizeof(nw_region) + (ns + 1) * sizeof(nw_cache_entry *));
  if (!p)
    return NULL;
  p->read = (nw_region *)(p + 1);
  p->write = p->read + ns;
  p->fetched = p->write + ns;
  p->entry = (nw_cache_entry **)(p->fetched + ns);
  return p;
}

/* One block too: the struct, then its arrays (every entry 8 bytes or a multiple of them). */
static nw_exec *exec_new(int nspaces) {
  size_t ns = (size_t)nspaces;
  size_t bytes = sizeof(nw_exec) + (ns + 1) * (sizeof(nw_view) + 2 * sizeof(nw_gpu_view)) +
                 ns * (2 * sizeof(unsigned char *) + sizeof(size_t) + sizeof(unsigned char *) +
                       sizeof(uint64_t));
  nw_exec *e = calloc(1, bytes);
  if (!e)
    return NULL;
  e->views = (nw_view *)(e + 1);
  e->gview = (nw_gpu_view *)(e->views + ns + 1);
  e->gview_run = e->gview + ns + 1;
  e->write_buf = (unsigned char **)(e->gview_run + ns + 1);
  e->check_read = e->write_buf + ns;
  e->check_shadow = e->check_read + ns;
  e->write_cap = (size_t *)(e->check_shadow + ns);
  e->check_len = (uint64_t *)(e->write_cap + ns);
  return e;
}

void nw_prepared_free(nw_prepared *p, int nspaces) {
  if (!p)
    return;
  for (int i = 0; i < nspaces; i++) {
    nw_region_free(&p->read[i]);
    nw_region_free(&p->write[i]);
    nw_region_free(&p->fetched[i]);
  }
  free(p->scratch.buf);
  free(p);
}

static int reads_resident(nw_prepared *p) {
  nw_task_state *t = p->task;
  for (int i = 0; i < t->info.nspaces; i++)
    if (!nw_region_empty(&p->read[i]) && !nw_space_has(t->bound[i].space, &p->read[i]))
      return 0;
  return 1;
}

/* Records how long the device's current subtask waited for its data: since its request (for
 * multi-assign estimates), and since it became current (the device's stall, demand_wait_s). */
static void note_ready(nw_node *n, int d, nw_prepared *p) {
  nw_task_state *t = p->task;
  nw_device_slot *slot = &t->dev[d];
  double now = n->be.ops->now(n->be.be);
  double wait = now - p->prepared_s, stall = now - p->current_s;
  slot->fetch_wait_s += wait;
  nw_dev_stats(n, d)->fetch_wait_s += wait;
  nw_dev_stats(n, d)->demand_wait_s += stall;
  n->stats.demand_wait_s += stall;
  slot->fetches++;
  if (wait > slot->max_fetch_s)
    slot->max_fetch_s = wait;
  if (stall > 0) /* a prefetch that came in time: the device never waited */
    nw_node_trace_span(n, NW_TRACE_DATA_WAIT, d, t, p->subtask, p->current_s, now, 0);
}

/* Computes the subtask's subscriptions and requests the reads this node lacks.
 *
 * Priority (paper 4.2) is decided here, once, when the request is made. A prefetched subtask
 * that becomes current while its data is still on the way keeps its request as it was: no
 * upgrade. The bytes sit in the owner's backend (a queued or started transfer) where the core
 * cannot reach them, and asking again at demand priority would send them twice; a duplicate
 * could land after a later task wrote those bytes here and overwrite them with stale ones.
 * The same holds when a demand need overlaps data another device of this node prefetches:
 * the request is merged (section 4.2: duplicate requests are filtered) and keeps its class.
 * At most one subtask per device is prefetched, so what such a device waits for is the one
 * transfer its pipeline asked for while the previous subtask ran. */
nw_prepared *nw_pipeline_prepare(nw_node *n, nw_task_state *t, int d, uint64_t subtask,
                                 int prefetch) {
  nw_prepared *p = nw_prepared_new(t->info.nspaces);
  if (!p) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return NULL;
  }
  nw_fetch_class cls = prefetch && n->cfg.sched.prefetch_priority == NW_PREFETCH_LOW
                           ? NW_FETCH_PREFETCH
                           : NW_FETCH_DEMAND;
  p->task = t;
  p->subtask = subtask;
  p->prepared_s = p->current_s = n->be.ops->now(n->be.be);
  p->copy_node = p->origin_node = -1;
  char why[256];
  p->scratch.with_buffer = n->cfg.functional;
  nw_status st = nw_subscriptions_scratch(t->kind, &t->info, t->access, subtask, p->read, p->write,
                                          &p->scratch, why, sizeof why);
  for (int i = 0; st == NW_OK && i < t->info.nspaces; i++) {
    nw_region_init(&p->fetched[i], t->bound[i].space->pitch);
    if (!nw_region_empty(&p->read[i]))
      st = nw_space_need(n, t->bound[i].space, &p->read[i], cls, &p->fetched[i]);
    nw_dev_stats(n, d)->bytes_fetched += nw_region_bytes(&p->fetched[i]);
  }
  if (st == NW_OK) /* fetched for it before, on a node it has left: re-sent (resend.h) */
    n->stats.bytes_resent += nw_resend_take(t, p);
  if (st != NW_OK) {
    /* Node 0 checked every subscription at submission, so this is a callback that answers
     * differently on different nodes or calls, or memory running out. */
    nw_node_fail(n, "node %d, task %llu: %s", n->cfg.id, (unsigned long long)t->id, why);
    nw_prepared_free(p, t->info.nspaces);
    return NULL;
  }
  p->waiting = !reads_resident(p);
  return p;
}

/* A CPU device of several cores: it runs each subtask as a work-group (paper 4.3.1). */
static int is_work_group(const nw_node *n, int d) {
  return n->cfg.device_kind[d] == NW_DEVICE_CPU && n->cfg.device_cores[d] > 1;
}

/* Zeroes the bytes of `what` in a private view holding [lo, ...): a write-only view's
 * subscribed bytes that a faulty kernel leaves unwritten commit as zeros, the same on every
 * run and backend, rather than as a recycled buffer's leftovers. */
static void zero_view(const nw_region *what, unsigned char *view, uint64_t lo) {
  for (size_t i = 0; i < what->n; i++) {
    const nw_rect *r = &what->r[i];
    for (uint64_t row = r->row0; row < r->row1; row++)
      memset(view + (row * what->pitch + r->col0 - lo), 0, r->col1 - r->col0);
  }
}

/* A GPU's write-only result copied out straight into the node's copy of the space, not into a
 * private view that the commit then copies again: when the rectangle the device holds and
 * copies back whole (its cache entry's key) is exactly the subtask's write region, every byte
 * the copy lands is the subtask's own. Not in a resilient run: a copy out of a subtask thrown
 * away by a rollback may still be in flight when the task's rerun finishes. On an H200 a
 * matmul 16384/4096 block's private view (the span of 4096 rows of the matrix) cost the event
 * loop a 64 MB copy per subtask and first touches of 16,384 fresh pages. */
static int gpu_writes_in_place(const nw_node *n, const nw_prepared *p, int i, nw_access a) {
  const nw_cache_entry *x = p->entry[i];
  return a == NW_WRITE_ONLY && !n->cfg.resilient && x &&
         nw_region_bytes(&p->write[i]) == nw_cache_key_bytes(&x->key);
}

/* Whether device d's kernel may write space i of subtask p straight into the node's copy:
 * a CPU kernel's write-only view, or read-write view of a task of one subtask (a GPU's
 * write-only result: gpu_writes_in_place), when no second instance of the subtask can exist
 * (not a multi-assigned copy, and the policy never makes one of it) and views are not checked. The
 * subtasks of a task write disjoint bytes (nw_task_submit refuses overlaps) and nothing reads a
 * write-only space during its task, so the bytes land where the commit would have copied them,
 * minus the private buffer, its zeroing and the copy (docs/experiments/real-matmul-in-place.md). A
 * read-write space is read by the task's other subtasks as it was at the task's start
 * (transactional), so only a task's sole subtask may update it in place: a task graph's tile
 * kernels (Cholesky's GEMM updating its tile), which would otherwise copy each tile in and out
 * around every kernel (docs/experiments/read-write-in-place.md). No other task touches the space
 * meanwhile (a task that reads or writes it waits for this one: graph.c). Not in a resilient run:
 * there a rolled-back task's space is restored from node 0's replica (recover.c), and a kernel
 * still running from before the rollback (a backend cannot preempt it) would update the restored
 * bytes again, where a write-only kernel rewrites the same bytes its rerun writes. The same
 * with phantom data, where no byte moves either way: the simulator then makes the private views
 * the real backend makes, and prices their first touches alike (pages_first_touched). */
static int writes_in_place(const nw_node *n, const nw_task_state *t, int d, const nw_prepared *p,
                           int i, int checked) {
  nw_access a = t->bound[i].access;
  if (t->bound[i].reduce.op || checked || p->origin_node >= 0 ||
      (n->policy->may_run_twice && n->policy->may_run_twice(n, d)))
    return 0;
  if (n->cfg.device_kind[d] == NW_DEVICE_GPU)
    return gpu_writes_in_place(n, p, i, a);
  return n->cfg.device_kind[d] == NW_DEVICE_CPU &&
         (a == NW_WRITE_ONLY || (a == NW_READ_WRITE && t->info.subtasks == 1 && !n->cfg.resilient));
}

/* Fills a CPU kernel's private read-write view (holding [lo, ...) of space i) with the bytes
 * it may touch: the rows of its read and write regions, not the whole span between their
 * first and last bytes. A tile of a row-major matrix spans its rows at the matrix's full
 * pitch: LU's 384-wide tile of a 3072-wide matrix spans 8x the tile's bytes, and copying them
 * all into recycled or fresh pages took as long as the tile's kernel
 * (docs/experiments/read-write-view-fills.md). A kernel reads only its read region and writes
 * only its write region (checked views enforce it), so the bytes between are never seen. */
static void fill_view(const nw_prepared *p, int i, const unsigned char *space, unsigned char *view,
                      uint64_t lo) {
  const nw_region *r = &p->read[i], *w = &p->write[i];
  nw_region_copy_into(r, space, view, lo);
  if (!nw_region_contains(r, w)) /* bytes it writes without reading keep the node's values */
    nw_region_copy_into(w, space, view, lo);
}

/* Counts what filling a private read-write view [lo, hi) copies (fill_view's rows for a CPU's
 * unchecked view, else the whole span), with or without bytes: phantom runs count what
 * functional runs copy, so that the simulator charges both alike (rt_*_per_byte, per_run). */
static void count_view_fill(nw_node *n, const nw_prepared *p, int i, nw_device_kind kind,
                            int checked, uint64_t lo, uint64_t hi) {
  const nw_region *r = &p->read[i], *w = &p->write[i];
  if (kind == NW_DEVICE_CPU && !checked) {
    int both = !nw_region_contains(r, w);
    n->stats.bytes_view_fills += nw_region_bytes(r) + (both ? nw_region_bytes(w) : 0);
    n->stats.copy_runs += nw_region_runs(r) + (both ? nw_region_runs(w) : 0);
  } else {
    n->stats.bytes_view_fills += hi - lo;
    n->stats.copy_runs++;
  }
}

/* The pages a new private view's buffer [lo, hi) has touched before its kernel starts, as
 * make_exec fills it: a GPU's or a checked view's whole span, a CPU read-write view's read
 * and write rows (fill_view), a write-only view's write rows (zero_view). The kernel writes
 * only its write rows, already touched. Pages of 4 KiB, Linux's on x86-64 and arm64. */
static uint64_t pages_first_touched(const nw_region *r, const nw_region *w, uint64_t lo,
                                    uint64_t hi, nw_access a, nw_device_kind kind, int checked) {
  enum { PAGE = 4096 };
  if (kind == NW_DEVICE_GPU || checked)
    return (hi - lo + PAGE - 1) / PAGE;
  if (a != NW_READ_WRITE)
    return nw_region_pages(w, lo, PAGE);
  return nw_region_pages(r, lo, PAGE) +
         (nw_region_contains(r, w) ? 0 : nw_region_pages(w, lo, PAGE));
}

/* Builds the exec's views (narwhal.h, nw_view): reads see the node's copy of the space;
 * writes go to a private buffer spanning the subtask's writes (and, read-write, its reads),
 * so that a discarded or concurrent subtask never touches shared bytes, or in place where
 * that cannot happen (writes_in_place). */
static nw_exec *make_exec(nw_node *n, nw_task_state *t, int d, nw_prepared *p) {
  nw_exec *e = exec_new(t->info.nspaces);
  if (!e)
    return NULL;
  e->task = t;
  e->device = d;
  e->subtask = p->subtask;
  e->prep = p;
  nw_device_kind kind = n->cfg.device_kind[d];
  e->flops = t->kind->flops ? t->kind->flops(&t->info, p->subtask, kind) : 0.0;
  e->bytes = t->kind->bytes ? t->kind->bytes(&t->info, p->subtask, kind) : 0.0;
  e->items = is_work_group(n, d) && t->kind->cpu_work_item ? t->dev[d].wg.next : 1;
  int checked = n->cfg.check_views && n->cfg.functional && kind == NW_DEVICE_CPU;
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_space_state *s = t->bound[i].space;
    nw_access a = t->bound[i].access;
    nw_view *v = &e->views[i];
    if (a == NW_READ_ONLY || writes_in_place(n, t, d, p, i, checked)) { /* checked: reads only */
      *v = (nw_view){.base = s->data, .lo = 0, .hi = s->size};
      if (a != NW_READ_ONLY && kind == NW_DEVICE_CPU) /* its first touches are the kernel's */
        e->kernel_pages_fresh += nw_space_kernel_writes(n, s, &p->write[i]);
      if (checked && nw_viewcheck_read_view(e, i, s->data, s->size, &p->read[i]) != NW_OK)
        goto nomem;
      continue;
    }
    uint64_t lo, hi, rlo, rhi;
    nw_region_bounds(&p->write[i], &lo, &hi);
    nw_region_bounds(&p->read[i], &rlo, &rhi); /* empty unless read-write */
    if (rhi > rlo) {
      lo = hi > lo && lo < rlo ? lo : rlo; /* union of the two byte ranges */
      hi = hi > rhi ? hi : rhi;
    }
    if (kind == NW_DEVICE_GPU && p->entry[i]) {
      /* The device holds the whole bounding rectangle and copies it back whole: the view
       * must span the rectangle's bytes, which reach left of the first subscribed byte and
       * right of the last one whenever the region is not itself a rectangle. */
      const nw_cache_key *k = &p->entry[i]->key;
      lo = k->row0 * s->pitch + k->col0;
      hi = (k->row1 - 1) * s->pitch + k->col1;
    }
    *v = (nw_view){.base = NULL, .lo = lo, .hi = hi};
    if (hi <= lo)
      continue;
    void *buf;
    int fresh = nw_bufpool_get(&n->views, hi - lo, &buf, &e->write_cap[i]);
    if (fresh < 0)
      goto nomem;
    e->write_buf[i] = buf;
    if (fresh)
      n->stats.view_pages_fresh +=
          pages_first_touched(&p->read[i], &p->write[i], lo, hi, a, kind, checked);
    if (a == NW_READ_WRITE)
      count_view_fill(n, p, i, kind, checked, lo, hi);
    if (!n->cfg.functional) /* the pool keeps sizes only: which views are new */
      continue;
    if (a == NW_READ_WRITE && kind == NW_DEVICE_CPU && !checked) {
      fill_view(p, i, s->data, e->write_buf[i], lo);
    } else if (a == NW_READ_WRITE) { /* a GPU copies its whole rectangle; checks compare it all */
      memcpy(e->write_buf[i], s->data + lo, hi - lo);
    } else if (checked) { /* what a kernel leaves unwritten is recognisable */
      memset(e->write_buf[i], NW_VIEWCHECK_FILL, hi - lo);
      /* ... except a reduced space's subscribed bytes, which start as zeros whether views are
       * checked or not (narwhal.h: a kernel may add into them) */
      if (t->bound[i].reduce.op)
        zero_view(&p->write[i], e->write_buf[i], lo);
    } else { /* only the subscribed bytes: they alone are committed (a matmul block's view spans
              * b rows of the whole matrix pitch, up to 16x more bytes than it writes) */
      zero_view(&p->write[i], e->write_buf[i], lo);
    }
    v->base = e->write_buf[i];
    if (checked && nw_viewcheck_write_view(e, i, &p->read[i], &p->write[i]) != NW_OK)
      goto nomem;
  }
  /* The scratch buffer (nw_subscribe_scratch): the kernel may write it; nothing commits it. */
  if (p->scratch.bytes)
    e->views[t->info.nspaces] = (nw_view){.base = p->scratch.buf, .lo = 0, .hi = p->scratch.bytes};
  if (kind == NW_DEVICE_GPU)
    nw_gpu_exec_views(n, e);
  return e;
nomem:
  nw_viewcheck_drop(e);
  for (int j = 0; j < t->info.nspaces; j++)
    nw_bufpool_put(&n->views, e->write_buf[j], e->write_cap[j]);
  free(e);
  return NULL;
}

static void launch(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  nw_task_state *t = v->current->task;
  nw_exec *e = make_exec(n, t, d, v->current);
  if (!e) {
    nw_node_fail(n, "node %d: out of memory for a subtask's views", n->cfg.id);
    return;
  }
  v->state = DEV_EXECUTING;
  e->started_s = v->current->started_s = n->be.ops->now(n->be.be);
  if (is_work_group(n, d))
    nw_dev_stats(n, d)->workgroup_size = e->items;
  v->running = e;
  t->running++;
  n->dev_running[d]++;
  n->be.ops->launch(n->be.be, d, e);
}

/* The device's next subtask becomes its current one: the prefetched one, or the queue's next. */
static int take_current(nw_node *n, int d) { /* 1, 0: nothing to take, -1: failed */
  nw_device *v = &n->dev[d];
  nw_task_state *t;
  uint64_t id;
  if (v->next) {
    v->current = v->next;
    v->next = NULL;
    v->current->current_s = n->be.ops->now(n->be.be); /* the device waits from now */
    if (!v->current->waiting) /* pipelining paid: its data came during the last one */
      nw_dev_stats(n, d)->prefetch_hits++;
    return 1;
  }
  if (!pop_next(n, d, &t, &id))
    return 0;
  v->current = nw_pipeline_prepare(n, t, d, id, 0);
  return v->current ? 1 : -1;
}

void nw_pipeline_advance(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  nw_task_state *t;
  uint64_t id;
  if (v->state == DEV_STEALING || v->state == DEV_BACKOFF || v->state == DEV_RETIRED)
    return; /* idle until its policy gives it work (nw_pipeline_give, nw_pipeline_go) */
  if (v->state != DEV_EXECUTING) {
    int took = v->current ? 1 : take_current(n, d);
    if (took < 0)
      return;
    if (took == 0) {
      if (v->asked) { /* the policy asked for work ahead: wait for it */
        v->state = DEV_STEALING;
        return;
      }
      v->state = DEV_IDLE; /* StarPU's pop for an idle worker: the policy finds work or not */
      n->policy->dry(n, d);
      return;
    }
    if (v->current->waiting) {
      v->state = DEV_WAITING;
      return;
    }
    if (v->current->prepared_s >= 0) {
      note_ready(n, d, v->current);
      v->current->prepared_s = -1; /* counted */
    }
    if (nw_dev_is_gpu(n, d) && !nw_gpu_stage_in(n, d, v->current)) {
      v->state = DEV_WAITING; /* copies in, or room on the GPU */
      return;
    }
    if (n->dev_running[d] > 0) { /* a losing copy still computes there: nw_pipeline_on_exec_done */
      v->state = DEV_WAITING;
      return;
    }
    launch(n, d);
  }
  if (n->cfg.sched.pipeline && v->state == DEV_EXECUTING && !v->next && pop_next(n, d, &t, &id))
    v->next = nw_pipeline_prepare(n, t, d, id, 1);
  /* On a GPU the next subtask's copies in overlap this one's kernel (paper 4.3.1, streams). */
  if (v->next && !v->next->waiting && v->state == DEV_EXECUTING && nw_dev_is_gpu(n, d))
    nw_gpu_stage_in(n, d, v->next);
  if (v->state == DEV_EXECUTING && n->policy->busy)
    n->policy->busy(n, d);
}

nw_status nw_pipeline_init(nw_node *n) {
  n->dev = calloc((size_t)n->cfg.devices, sizeof *n->dev);
  return n->dev ? NW_OK : NW_ERR_NOMEM;
}

static void free_running(nw_exec *e, int nspaces) {
  nw_viewcheck_drop(e);
  for (int i = 0; i < nspaces; i++)
    free(e->write_buf[i]);
  free(e);
}

void nw_pipeline_free(nw_node *n) {
  for (int d = 0; n->dev && d < n->cfg.devices; d++) {
    nw_device *v = &n->dev[d];
    nw_queue_free(&v->queue);
    /* Only when a run ends with the device still busy (its prep is the current subtask). */
    if (v->running)
      free_running(v->running, v->running->task->info.nspaces);
    if (v->current)
      nw_prepared_free(v->current, v->current->task->info.nspaces);
    if (v->next)
      nw_prepared_free(v->next, v->next->task->info.nspaces);
  }
  free(n->dev);
  n->dev = NULL;
}

void nw_pipeline_task_init(nw_node *n, nw_task_state *t) {
  for (int d = 0; d < n->cfg.devices; d++)
    if (is_work_group(n, d)) /* k is tuned per task: the search starts afresh */
      nw_wg_init(&t->dev[d].wg, n->cfg.device_cores[d]);
}

/* Devices with work queued go first: one with none asks its policy at once, and a stealing
 * policy would take what a later device in the loop was dealt before that device even
 * started (so every small task used to end up on device 0). */
void nw_pipeline_go(nw_node *n, nw_task_state *t) {
  (void)t;
  for (int pass = 0; pass < 2; pass++)
    for (int d = 0; d < n->cfg.devices && !n->error[0]; d++) {
      nw_device *v = &n->dev[d];
      if ((v->queue.count > 0) != (pass == 0))
        continue;
      if (v->state == DEV_RETIRED ||
          ((v->state == DEV_STEALING || v->state == DEV_BACKOFF) && v->queue.count > 0))
        v->state = DEV_IDLE;
      nw_pipeline_advance(n, d);
    }
}

void nw_pipeline_data_arrived(nw_node *n) {
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_device *v = &n->dev[d];
    if (v->next && v->next->waiting) {
      v->next->waiting = !reads_resident(v->next);
      if (!v->next->waiting && v->state == DEV_EXECUTING && nw_dev_is_gpu(n, d))
        nw_gpu_stage_in(n, d, v->next);
    }
    if (v->current && v->current->waiting) {
      v->current->waiting = !reads_resident(v->current);
      if (!v->current->waiting) {
        note_ready(n, d, v->current);
        v->current->prepared_s = -1;
      }
      if (!v->current->waiting && v->state == DEV_WAITING)
        nw_pipeline_advance(n, d);
    }
  }
}

/* Which of an exec's write views commit_views copies in. */
enum { COMMIT_ALL, COMMIT_REDUCED, COMMIT_UNREDUCED };

/* Copies an exec's private write views into the node's copy; a reduced space's bytes that
 * earlier subtasks of the task wrote here (t->written, which does not hold this exec's writes
 * yet) are combined instead (paper 4.5: reductions as soon as results are ready). */
static void commit_views(nw_node *n, nw_exec *e, int which) {
  nw_task_state *t = e->task;
  for (int i = 0; i < t->info.nspaces; i++) {
    if ((which == COMMIT_REDUCED && !t->bound[i].reduce.op) ||
        (which == COMMIT_UNREDUCED && t->bound[i].reduce.op))
      continue;
    const nw_region *w = &e->prep->write[i];
    if (!n->cfg.functional && t->bound[i].reduce.op) /* phantom: for the simulator's costs */
      n->stats.bytes_reduced += nw_region_overlap_bytes(w, &t->written[i]);
    if (!e->write_cap[i]) /* written in place (its kernel's first touches: make_exec), or nothing */
      continue;
    nw_space_wrote(n, t->bound[i].space, w); /* its first touches are this commit's */
    if (n->cfg.functional && t->bound[i].reduce.op) {
      uint64_t combined = nw_reduce_merge(&t->bound[i].reduce, w, e->write_buf[i], e->views[i].lo,
                                          t->bound[i].space->data, &t->written[i]);
      if (combined == (uint64_t)-1)
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      else
        n->stats.bytes_reduced += combined;
    } else if (n->cfg.functional) {
      nw_region_copy_from(w, e->write_buf[i], e->views[i].lo, t->bound[i].space->data);
    }
    /* With or without bytes: phantom runs count what functional runs copy (count_view_fill) */
    n->stats.bytes_view_copies += nw_region_bytes(w);
    n->stats.copy_runs += nw_region_runs(w);
  }
}

static void free_exec(nw_node *n, nw_exec *e) {
  for (int i = 0; i < e->task->info.nspaces; i++)
    nw_bufpool_put(&n->views, e->write_buf[i], e->write_cap[i]);
  nw_prepared_free(e->prep, e->task->info.nspaces);
  free(e);
}

void nw_exec_commit(nw_node *n, nw_exec *e) {
  commit_views(n, e, COMMIT_UNREDUCED); /* a deferred exec's reduced views went in at once */
  free_exec(n, e);
}

void nw_exec_discard(nw_node *n, nw_exec *e) {
  free_exec(n, e);
}

uint64_t nw_locality_local_bytes(const nw_task_state *t, const nw_region *read) {
  uint64_t bytes = 0;
  for (int i = 0; i < t->info.nspaces; i++)
    bytes += nw_region_overlap_bytes(&read[i], &t->start_resident[i]);
  return bytes;
}

void nw_pipeline_commit_result(nw_node *n, nw_task_state *t, nw_exec *e) {
  int d = e->device;
  n->stats.subtasks_executed++;
  nw_dev_stats(n, d)->subtasks++;
  for (int i = 0; i < t->info.nspaces; i++)
    n->stats.locality_read_bytes += nw_region_bytes(&e->prep->read[i]);
  n->stats.locality_local_bytes += nw_locality_local_bytes(t, e->prep->read);
  int deferred = 0;
  for (int i = 0; i < t->info.nspaces; i++)
    deferred |= t->bound[i].access == NW_READ_WRITE && !nw_region_empty(&e->prep->write[i]);
  /* Before the set S grows: reductions combine with what it held. A reduced space is merged
   * now even when the read-write views wait for the task's end: once S holds these bytes, a
   * later merge would combine them with whatever the space held instead of copying them, and
   * the other subtasks' merges meanwhile with bytes that are not there yet. Nothing on the node
   * reads a write-only space during the task, so merging early changes no subtask's view. */
  commit_views(n, e, deferred ? COMMIT_REDUCED : COMMIT_ALL);
  for (int i = 0; i < t->info.nspaces; i++)
    if (!nw_region_empty(&e->prep->write[i]) &&
        nw_region_add(&t->written[i], &e->prep->write[i]) != NW_OK)
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  if (deferred) {
    if (t->ndeferred == t->capdeferred) {
      size_t cap = t->capdeferred ? 2 * t->capdeferred : 8;
      nw_exec **a = realloc(t->deferred, cap * sizeof *a);
      if (!a) {
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
        return;
      }
      t->deferred = a;
      t->capdeferred = cap;
    }
    t->deferred[t->ndeferred++] = e;
  } else {
    free_exec(n, e);
  }
  /* Last: on node 0 this may complete the task and free t. */
  n->hooks.subtask_committed(n, t, 1);
}

static void exec_done(nw_node *n, nw_exec *e);

void nw_pipeline_on_exec_done(nw_node *n, nw_exec *e) {
  int d = e->device;
  n->dev_running[d]--;
  exec_done(n, e);                    /* may free e's task */
  if (n->dev[d].state == DEV_WAITING) /* it may have waited only for the device to be free */
    nw_pipeline_advance(n, d);
}

static void exec_done(nw_node *n, nw_exec *e) {
  nw_task_state *t = e->task;
  int d = e->device;
  nw_device *v = &n->dev[d];
  nw_device_slot *slot = &t->dev[d];
  nw_prepared *p = e->prep;
  double now = n->be.ops->now(n->be.be);
  slot->busy_s += now - e->started_s;
  slot->executed++;
  if (v->running == e)
    v->running = NULL;
  nw_device_stats *ds = nw_dev_stats(n, d);
  ds->busy_s += now - e->started_s;
  ds->finish_s = now;
  nw_node_trace(n, NW_TRACE_EXEC, d, t, e->subtask, e->started_s, 0);
  if (is_work_group(n, d)) /* per flop, so that subtasks of other sizes compare fairly */
    nw_wg_observe(&slot->wg, e->items, (now - e->started_s) / (e->flops > 0 ? e->flops : 1.0));
  if (v->current == p) {
    v->current = NULL;
    v->state = DEV_IDLE;
  }
  if (n->policy->executed && !t->aborted) /* a rolled-back task's policy is gone */
    n->policy->executed(n, e);
  int space;
  uint64_t byte;
  int stray = nw_viewcheck_finish(e, p->write, &space, &byte);
  if (stray == 1)
    nw_node_fail(n,
                 "node %d: subtask %llu of task %llu ('%s') changed byte %llu of space index %d, "
                 "which it did not subscribe to write (--check-views)",
                 n->cfg.id, (unsigned long long)e->subtask, (unsigned long long)t->id,
                 t->kind->name, (unsigned long long)byte, space);
  else if (stray == 2)
    nw_node_fail(n,
                 "node %d: subtask %llu of task %llu ('%s') wrote at byte %llu of space index %d "
                 "a value made from bytes it did not subscribe to read (--check-views fills "
                 "them with the NaN 0x%08X)",
                 n->cfg.id, (unsigned long long)e->subtask, (unsigned long long)t->id,
                 t->kind->name, (unsigned long long)byte, space, NW_VIEWCHECK_NAN);
  if (!nw_dev_is_gpu(n, d) || nw_gpu_exec_done(n, e)) {
    nw_pipeline_exec_result(n, e);
    return;
  }
  /* The results are on their way out of the GPU; the device goes on meanwhile. */
  nw_pipeline_advance(n, d);
}

static void handle_result(nw_node *n, nw_task_state *t, nw_exec *e) {
  int d = e->device;
  nw_prepared *p = e->prep;
  if (t->finishing || p->lost) {
    /* Another instance won (paper 4.3.3; counted as cancelled when that was decided). */
    nw_exec_discard(n, e);
    nw_pipeline_advance(n, d);
    n->hooks.exec_returned(n, t);
    return;
  }
  if (n->policy->take_result && n->policy->take_result(n, e)) {
    nw_pipeline_advance(n, d); /* the policy decides (a multi-assigned copy) */
    return;
  }
  nw_pipeline_advance(n, d);
  nw_pipeline_commit_result(n, t, e); /* last: may free t */
}

void nw_pipeline_exec_result(nw_node *n, nw_exec *e) {
  nw_task_state *t = e->task;
  int d = e->device;
  nw_prepared *p = e->prep;
  int gpu_pending = nw_dev_is_gpu(n, d) && e->copies_out == 0 && p->gpu_stage != GPU_UNSTAGED;
  t->running--;
  /* The GPU's entries are let go now; a write-only result this instance commits stays cached. */
  if (gpu_pending)
    nw_gpu_unstage(n, d, p, !t->finishing && !p->lost && p->origin_node < 0);
  handle_result(n, t, e);
  if (gpu_pending)
    nw_pipeline_retry_gpu(n, n->cfg.device_gpu[d]); /* the room it held may let others stage */
}

void nw_pipeline_drop_prepared(nw_node *n, int d, nw_prepared *p) {
  nw_gpu_unstage(n, d, p, 0);
  nw_prepared_free(p, p->task->info.nspaces);
}

void nw_pipeline_task_forget(nw_node *n, nw_task_state *t) {
  nw_queue_forget(n, t);
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_device *v = &n->dev[d];
    if (v->next && v->next->task == t) {
      nw_pipeline_drop_prepared(n, d, v->next);
      v->next = NULL;
    }
    if (v->current && v->current->task == t) {
      if (v->running && v->running->prep == v->current) {
        v->current->lost = 1; /* discarded when it returns (its task is a zombie till then) */
      } else {
        nw_pipeline_drop_prepared(n, d, v->current);
        v->current = NULL;
        v->state = DEV_IDLE;
      }
    }
  }
}

void nw_pipeline_reset(nw_node *n) {
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_device *v = &n->dev[d];
    v->asked = 0;
    if (v->state != DEV_EXECUTING && !v->current)
      v->state = DEV_IDLE;
  }
}

nw_prepared *nw_pipeline_current_of(const nw_node *n, int d, const nw_task_state *t) {
  nw_prepared *p = n->dev[d].current;
  return p && p->task == t ? p : NULL;
}

nw_prepared *nw_pipeline_next_of(const nw_node *n, int d, const nw_task_state *t) {
  nw_prepared *p = n->dev[d].next;
  return p && p->task == t ? p : NULL;
}

int nw_pipeline_steal_next(nw_node *n, int d, const nw_task_state *t, uint64_t *s) {
  nw_prepared *p = nw_pipeline_next_of(n, d, t);
  if (!p)
    return 0;
  *s = p->subtask;
  n->dev[d].next = NULL;
  if (nw_resend_keep(p->task, p) != NW_OK) /* its fetches go with it */
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  nw_pipeline_drop_prepared(n, d, p);
  return 1;
}

int nw_pipeline_in_hand(const nw_node *n, int d) {
  return n->dev[d].current != NULL || n->dev[d].state == DEV_EXECUTING;
}

int nw_pipeline_may_add(nw_node *n, int d, uint64_t task) {
  const nw_device *v = &n->dev[d];
  /* The current subtask counts until it is handed over (DEV_EXECUTING): once launched it is in
   * the FIFO, in a launch, or done, and the lane's next unit is its prefetched or queued one.
   * Not one whose data is in host memory but found no room on the GPU (gpu_stage.c): the room
   * it waits for is held by the units in the FIFO, which only a launch frees. */
  const nw_prepared *c = v->current;
  int room_short = c && v->state == DEV_WAITING && !c->waiting && c->gpu_stage == GPU_UNSTAGED;
  if (c && v->state != DEV_EXECUTING && c->task->id == task && !room_short)
    return 1;
  if (v->next && v->next->task->id == task)
    return 1;
  const nw_task_state *t = nw_node_task(n, task);
  return t && nw_queue_length(n, d, t) > 0;
}

void nw_pipeline_give(nw_node *n, nw_task_state *t, int d, nw_range r) {
  if (nw_queue_push(n, d, t, r) != NW_OK) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  nw_pipeline_resume(n, d);
}

void nw_pipeline_resume(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  v->asked = 0;
  if (v->state == DEV_STEALING || v->state == DEV_RETIRED || v->state == DEV_BACKOFF)
    v->state = DEV_IDLE;
  nw_pipeline_advance(n, d); /* runs it, or, while executing, prefetches it */
}

void nw_pipeline_wait_for_work(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  v->asked = 1;
  if (!v->current && v->state != DEV_EXECUTING)
    v->state = DEV_STEALING;
}

void nw_pipeline_retire(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  v->asked = 0;
  if (!v->current && v->state != DEV_EXECUTING)
    v->state = DEV_RETIRED;
}

void nw_pipeline_backoff(nw_node *n, int d) {
  nw_device *v = &n->dev[d];
  v->asked = 0;
  if (!v->current && v->state != DEV_EXECUTING)
    v->state = DEV_BACKOFF;
}

/* (gpu_stage.c stages; the pipeline decides when, so that staging calls nothing above it.)
 * Retries staging for every subtask on GPU g that waits for room or for copies. Called only
 * from the top of an event's handling (never while a caller holds a prepared subtask it is
 * about to free), since it may stage any of them. */
void nw_pipeline_retry_gpu(nw_node *n, int g) {
  for (int d = 0; d < n->cfg.devices; d++) {
    if (!nw_dev_is_gpu(n, d) || n->cfg.device_gpu[d] != g)
      continue;
    nw_device *v = &n->dev[d];
    if (v->next && !v->next->waiting && v->next->gpu_stage != GPU_ON_DEVICE && v->current &&
        v->current->gpu_stage == GPU_ON_DEVICE)
      nw_gpu_stage_in(n, d, v->next);
    if (v->state == DEV_WAITING && v->current && !v->current->waiting)
      nw_pipeline_advance(n, d);
  }
}

void nw_pipeline_copy_done(nw_node *n, nw_copy *c) {
  int g = c->gpu;
  nw_exec *e = nw_gpu_copy_finished(n, c);
  if (e)
    nw_pipeline_exec_result(n, e);
  nw_pipeline_retry_gpu(n, g);
}
