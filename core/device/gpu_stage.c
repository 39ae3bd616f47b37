/* gpu_stage.c: a GPU subtask's data on its device (paper 4.1 memory module, 4.4 GPU cache).
 *
 * Before a subtask runs on a GPU, each subscription it has (the bounding rectangle of its
 * region in that space) must be in the GPU's memory. Reads are looked up in the GPU's software
 * cache (gpu_cache.h) and copied in over PCIe only on a miss; a read-write subscription gets a
 * private entry filled from the node's copy; a write-only one gets a private entry the kernel
 * fills. Staging is all or nothing: if the room cannot be found now (entries pinned by running
 * subtasks), what was taken is given back and the subtask tries again when something is
 * released, so two subtasks never hold half of what each needs. After the kernel, the reads are
 * released and the writes are copied out to the exec's private host views, where the usual
 * commit path (pipeline.c) finds them. A write-only result this GPU computed and committed stays
 * cached, so that a later task reading the same block finds it (4.4: "data written by a
 * subtask of a task is later read by a subtask of another task"). A task that writes a space
 * makes every cached entry of that space stale: they are invalidated when it starts.
 *
 * Copies are actions of the core (backend.h, copy()); the backend runs them on copy engines,
 * one per direction, and answers with NW_EVENT_COPY_DONE. A copy pins its entry, so memory is
 * never reused while bytes still flow into or out of it.
 *
 * With --compression gpu (paper 4.6 and Fig. 18: "we compress data computed by subtasks before
 * transferring ... from GPU to CPU"), a result for a reduced space is run-length encoded on
 * the GPU by the backend, only the encoding crosses the link, and the copy's completion
 * decodes it here into the exec's private view, where the commit combines it as any other
 * (so results are the same bytes as without compression). Decoding runs on the node's CPU,
 * in its event loop, as the merges of reductions do; it is counted in bytes_rle, which the
 * simulator charges at the platform's rt_rle_per_byte. Only reduced spaces: their results
 * (PageRank's contributions) are sparse by nature; a plain result is dense and written once.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_stage.h"
#include "node_state.h"
#include "pipeline.h"
#include "rle.h"

typedef struct copy_job {
  nw_copy c;
  nw_cache_entry *entry;
  nw_exec *exec; /* a copy out: the exec whose result it carries */
  int device;
  int reduced;        /* a copy out of a reduced space's result */
  double issued_s;    /* when the core asked for it (the trace's copy span) */
  unsigned char *own; /* host bytes the copy owns (a scratch buffer's, copied): freed with it */
} copy_job;

nw_status nw_gpu_init(nw_node *n) {
  for (int g = 0; g < n->cfg.gpus; g++) {
    uint64_t seed = n->be.ops->random(n->be.be);
    nw_status st =
        nw_cache_init(&n->gpu[g].cache, n->cfg.gpu_memory[g], n->cfg.sched.gpu_cache, seed);
    if (st != NW_OK)
      return st;
  }
  return NW_OK;
}

void nw_gpu_free(nw_node *n) {
  for (int g = 0; g < n->cfg.gpus; g++)
    nw_cache_free(&n->gpu[g].cache);
}

/* The rectangle a subtask's access to space i covers (reads and writes together). */
static int subscription_key(const nw_task_state *t, const nw_region *read, const nw_region *write,
                            int i, nw_cache_key *k) {
  const nw_region *parts[2] = {&read[i], &write[i]};
  int any = 0;
  for (int j = 0; j < 2; j++)
    for (size_t r = 0; r < parts[j]->n; r++) {
      const nw_rect *x = &parts[j]->r[r];
      if (!any) {
        *k = (nw_cache_key){t->bound[i].space->id, x->row0, x->row1, x->col0, x->col1};
        any = 1;
        continue;
      }
      k->row0 = x->row0 < k->row0 ? x->row0 : k->row0;
      k->row1 = x->row1 > k->row1 ? x->row1 : k->row1;
      k->col0 = x->col0 < k->col0 ? x->col0 : k->col0;
      k->col1 = x->col1 > k->col1 ? x->col1 : k->col1;
    }
  return any;
}

/* The scratch buffer's entry (nw_subscribe_scratch) sits after the bound spaces', in slot
 * nspaces: a private entry of one row, filled from the host buffer the subscription callback
 * wrote, never copied out. Its key names no space. */
#define SCRATCH_SPACE UINT64_MAX

static int slots(const nw_task_state *t, const nw_prepared *p) {
  return t->info.nspaces + (p->scratch.bytes ? 1 : 0);
}

/* Slot i's access: a bound space's, or the scratch buffer's (private, copied in). */
static nw_access slot_access(const nw_task_state *t, int i) {
  return i < t->info.nspaces ? t->bound[i].access : NW_READ_WRITE;
}

uint64_t nw_gpu_bytes_to_stage(const nw_node *n, int d, const nw_task_state *t,
                               const nw_region *read, const nw_region *write) {
  const nw_gpu_cache *c = &n->gpu[n->cfg.device_gpu[d]].cache;
  uint64_t bytes = 0;
  nw_cache_key k;
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_access a = t->bound[i].access;
    if (a == NW_WRITE_ONLY || !subscription_key(t, read, write, i, &k))
      continue; /* written on the GPU, never copied in; or not subscribed */
    if (a == NW_READ_ONLY && nw_cache_holds(c, &k, &read[i]))
      continue;
    bytes += nw_cache_key_bytes(&k); /* a miss, or a read-write view (always a private copy) */
  }
  return bytes;
}

/* Starts a copy; encode: a result the backend run-length encodes on the GPU (copies out with
 * host bytes only). Returns the copy's job, or NULL (the node failed) when out of memory. */
static copy_job *start_copy(nw_node *n, int device, nw_cache_entry *e, int to_device,
                            unsigned char *host, uint64_t host_pitch, nw_exec *exec, int reduced,
                            int encode) {
  int g = n->cfg.device_gpu[device];
  copy_job *j = calloc(1, sizeof *j);
  unsigned char *encoded = encode ? malloc(nw_rle_bound(e->bytes)) : NULL;
  if (!j || (encode && !encoded)) {
    free(j);
    free(encoded);
    nw_node_fail(n, "node %d: out of memory for a GPU copy", n->cfg.id);
    return NULL;
  }
  e->pins++; /* the copy's own: the memory is not reused while bytes flow */
  j->entry = e;
  j->exec = exec;
  j->device = device;
  j->reduced = reduced;
  j->issued_s = n->be.ops->now(n->be.be);
  j->c = (nw_copy){.gpu = g,
                   .to_device = to_device,
                   .dev_off = e->off,
                   .host = host,
                   .host_pitch = host_pitch,
                   .rows = e->key.row1 - e->key.row0,
                   .width = e->key.col1 - e->key.col0,
                   .owner = j,
                   .encode = encode,
                   .encoded = encoded};
  uint64_t bytes = e->bytes;
  nw_device_stats *ds = nw_dev_stats(n, device);
  if (to_device) {
    n->stats.bytes_h2d += bytes;
    ds->bytes_h2d += bytes;
  } else if (!encode) { /* an encoding's length is known when it has crossed */
    n->stats.bytes_d2h += bytes;
    ds->bytes_d2h += bytes;
  }
  n->be.ops->copy(n->be.be, &j->c);
  return j;
}

/* Copies a scratch buffer in from a copy of its host bytes that the copy owns: the prepared
 * subtask holding the buffer may be dropped (stolen away) while the copy engine still reads
 * (ASan found that in the random programs). */
static void start_scratch_copy(nw_node *n, int device, nw_cache_entry *e, const nw_scratch *sc) {
  unsigned char *own = sc->buf ? malloc(sc->bytes) : NULL;
  if (sc->buf && !own) {
    nw_node_fail(n, "node %d: out of memory for a GPU copy", n->cfg.id);
    return;
  }
  if (own)
    memcpy(own, sc->buf, sc->bytes);
  copy_job *j = start_copy(n, device, e, 1, own, sc->bytes, NULL, 0, 0);
  if (j)
    j->own = own;
  else
    free(own);
}

/* Gives back what a failed staging attempt took; entries it created die with it. */
static void undo_stage(nw_gpu_cache *c, nw_prepared *p, const int *created, int nspaces) {
  for (int i = 0; i < nspaces; i++) {
    if (!p->entry[i])
      continue;
    if (created[i])
      p->entry[i]->dead = 1;
    nw_cache_release(c, p->entry[i]);
    p->entry[i] = NULL;
  }
}

static int all_valid(const nw_prepared *p, int nspaces) {
  for (int i = 0; i < nspaces; i++)
    if (p->entry[i] && !p->entry[i]->valid)
      return 0;
  return 1;
}

/* Staging with scratch arrays of ns entries (key, has, created zeroed) from the caller. */
static int stage_in_with(nw_node *n, int d, nw_prepared *p, int ns, nw_cache_key *key, int *has,
                         int *created) {
  nw_task_state *t = p->task;
  int g = n->cfg.device_gpu[d];
  nw_gpu_cache *c = &n->gpu[g].cache;
  uint64_t need = 0;
  for (int i = 0; i < ns; i++) {
    if (i == t->info.nspaces) {
      key[i] = (nw_cache_key){SCRATCH_SPACE, 0, 1, 0, p->scratch.bytes};
      has[i] = 1;
    } else {
      has[i] = subscription_key(t, p->read, p->write, i, &key[i]);
    }
    need += has[i] ? nw_cache_key_bytes(&key[i]) + NW_DEVMEM_ALIGN : 0;
  }
  if (!nw_cache_fits(c, need)) {
    nw_node_fail_input(n,
                       "node %d, GPU %d: subtask %llu of task %llu needs %llu bytes of GPU "
                       "memory; the budget is %llu (--gpu-mem, or the platform's memsize)",
                       n->cfg.id, g, (unsigned long long)p->subtask, (unsigned long long)t->id,
                       (unsigned long long)need, (unsigned long long)c->mem.capacity);
    return 0;
  }
  uint64_t hits = c->stats.hits, misses = c->stats.misses, evictions = c->stats.evictions;
  int fresh = c->nentries == 0; /* nothing in the cache: the attempt cannot fail for room */
  for (int i = 0; i < ns; i++) {
    if (!has[i])
      continue;
    if (slot_access(t, i) == NW_READ_ONLY) {
      /* A hit must hold every byte this subtask reads: an entry of the same rectangle may
       * have been filled for another subtask's reads, the rest of it never fetched here. */
      p->entry[i] = nw_cache_lookup(c, &key[i], &p->read[i]);
      if (p->entry[i])
        continue;
    }
    p->entry[i] =
        nw_cache_insert(c, &key[i], nw_cache_key_bytes(&key[i]), slot_access(t, i) != NW_READ_ONLY);
    created[i] = 1;
    if (p->entry[i] && slot_access(t, i) == NW_READ_ONLY &&
        nw_region_copy(&p->entry[i]->held, &p->read[i]) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      p->entry[i]->dead = 1; /* never found: it holds nothing known */
    }
    if (!p->entry[i]) { /* no room while others run: retried when something is released */
      undo_stage(c, p, created, ns);
      n->stats.cache_evictions += c->stats.evictions - evictions;
      c->stats.hits = hits; /* the retry counts them */
      c->stats.misses = misses;
      /* With nothing pinned by anyone else, no release will ever come: the room is short
       * only because this subtask's own entries (hits, or the pieces it placed around
       * entries it then evicted) split the free memory. Start again from an empty cache,
       * where its need (no more than the budget, alignment included) always fits. */
      if (!nw_cache_idle(c))
        return 0;
      if (fresh) {
        nw_node_fail(n,
                     "node %d, GPU %d: subtask %llu of task %llu does not fit an empty GPU "
                     "memory of %llu bytes (a bug: it needs %llu)",
                     n->cfg.id, g, (unsigned long long)p->subtask, (unsigned long long)t->id,
                     (unsigned long long)c->mem.capacity, (unsigned long long)need);
        return 0;
      }
      nw_cache_flush(c);
      return nw_gpu_stage_in(n, d, p);
    }
  }
  n->stats.cache_hits += c->stats.hits - hits;
  n->stats.cache_misses += c->stats.misses - misses;
  n->stats.cache_evictions += c->stats.evictions - evictions;
  for (int i = 0; i < ns; i++) {
    int unfilled_scratch = i == t->info.nspaces && !p->scratch.filled;
    if (!created[i] || slot_access(t, i) == NW_WRITE_ONLY || unfilled_scratch) {
      if (created[i])
        p->entry[i]->valid = 1; /* the kernel fills it */
      continue;
    }
    if (i == t->info.nspaces) { /* the scratch buffer: zeroes, or what the callback wrote */
      start_scratch_copy(n, d, p->entry[i], &p->scratch);
      continue;
    }
    nw_space_state *s = t->bound[i].space;
    unsigned char *host = n->cfg.functional ? s->data + key[i].row0 * s->pitch + key[i].col0 : NULL;
    start_copy(n, d, p->entry[i], 1, host, s->pitch, NULL, 0, 0);
  }
  p->gpu_stage = GPU_COPYING;
  return nw_gpu_stage_in(n, d, p);
}

/* A subtask's views per bound space, and its scratch buffer's: the few a task usually binds on
 * the stack, more from the heap. */
enum { STAGE_ON_STACK = 17 };

int nw_gpu_stage_in(nw_node *n, int d, nw_prepared *p) {
  if (p->gpu_stage == GPU_ON_DEVICE)
    return 1;
  int ns = slots(p->task, p);
  if (p->gpu_stage == GPU_COPYING) {
    if (!all_valid(p, ns))
      return 0;
    p->gpu_stage = GPU_ON_DEVICE;
    return 1;
  }
  nw_cache_key key_stack[STAGE_ON_STACK];
  int flags_stack[2 * STAGE_ON_STACK] = {0};
  nw_cache_key *key = key_stack;
  int *flags = flags_stack;
  if (ns > STAGE_ON_STACK) {
    key = malloc((size_t)ns * sizeof *key);
    flags = calloc(2 * (size_t)ns, sizeof *flags);
    if (!key || !flags) {
      free(key);
      free(flags);
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return 0;
    }
  }
  int r = stage_in_with(n, d, p, ns, key, flags, flags + ns);
  if (key != key_stack) {
    free(key);
    free(flags);
  }
  return r;
}

void nw_gpu_exec_views(nw_node *n, nw_exec *e) {
  nw_task_state *t = e->task;
  e->gpu = n->cfg.device_gpu[e->device];
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_cache_entry *x = e->prep->entry[i];
    if (!x)
      continue;
    e->gview[i] = (nw_gpu_view){.base = (unsigned char *)(uintptr_t)x->off,
                                .row0 = x->key.row0,
                                .rows = x->key.row1 - x->key.row0,
                                .col0 = x->key.col0,
                                .width = x->key.col1 - x->key.col0,
                                .pitch = x->key.col1 - x->key.col0,
                                .space_pitch = t->bound[i].space->pitch};
  }
  nw_cache_entry *x = e->prep->scratch.bytes ? e->prep->entry[t->info.nspaces] : NULL;
  if (x)
    e->gview[t->info.nspaces] = (nw_gpu_view){.base = (unsigned char *)(uintptr_t)x->off,
                                              .rows = 1,
                                              .width = x->bytes,
                                              .pitch = x->bytes,
                                              .space_pitch = x->bytes};
}

void nw_gpu_unstage(nw_node *n, int d, nw_prepared *p, int publish) {
  if (!p || p->gpu_stage == GPU_UNSTAGED || !nw_dev_is_gpu(n, d))
    return;
  nw_task_state *t = p->task;
  int g = n->cfg.device_gpu[d];
  nw_gpu_cache *c = &n->gpu[g].cache;
  for (int i = 0; i < slots(t, p); i++) {
    nw_cache_entry *x = p->entry[i];
    if (!x)
      continue;
    /* Only the bytes the kernel wrote are the space's: the rest of a strided write's
     * rectangle is garbage, so the entry is found only for reads inside the writes. */
    if (publish && i < t->info.nspaces && t->bound[i].access == NW_WRITE_ONLY &&
        !t->bound[i].reduce.op && x->dead && x->valid &&
        nw_region_copy(&x->held, &p->write[i]) == NW_OK)
      nw_cache_publish(c, x);
    nw_cache_release(c, x);
    p->entry[i] = NULL;
  }
  p->gpu_stage = GPU_UNSTAGED;
}

int nw_gpu_exec_done(nw_node *n, nw_exec *e) {
  nw_task_state *t = e->task;
  nw_prepared *p = e->prep;
  if (t->finishing || p->lost)
    return 1; /* thrown away: nothing to copy out */
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_cache_entry *x = p->entry[i];
    if (!x || t->bound[i].access == NW_READ_ONLY)
      continue;
    nw_space_state *s = t->bound[i].space;
    /* Into the private view, or the node's copy itself where the result is written in place
     * (pipeline.c's writes_in_place: the view is then the whole space). */
    unsigned char *base = e->write_buf[i] ? e->write_buf[i] : (unsigned char *)e->views[i].base;
    unsigned char *host =
        base ? base + (x->key.row0 * s->pitch + x->key.col0 - e->views[i].lo) : NULL;
    int reduced = t->bound[i].reduce.op != 0;
    if (start_copy(n, e->device, x, 0, host, s->pitch, e, reduced,
                   reduced && host && n->cfg.compress_gpu))
      e->copies_out++;
  }
  return e->copies_out == 0;
}

/* A reduced result came back: counts it, and decodes it into the exec's view if it came
 * encoded. */
static void reduced_copy_done(nw_node *n, copy_job *j) {
  nw_copy *c = &j->c;
  uint64_t raw = c->rows * c->width, sent = c->encode ? c->encoded_len : raw;
  n->stats.bytes_gpu_reduction_raw += raw;
  n->stats.bytes_gpu_reduction_sent += sent;
  if (!c->encode)
    return;
  n->stats.bytes_d2h += sent;
  nw_dev_stats(n, j->device)->bytes_d2h += sent;
  n->stats.bytes_rle += raw;
  if (nw_rle_decode_rows(c->encoded, c->encoded_len, c->host, c->rows, c->width, c->host_pitch) !=
      0)
    nw_node_fail(n,
                 "node %d, GPU %d: the run-length encoded result of subtask %llu (%llu bytes "
                 "for %llu x %llu) does not decode (a bug in the GPU encoder)",
                 n->cfg.id, c->gpu, (unsigned long long)j->exec->subtask,
                 (unsigned long long)c->encoded_len, (unsigned long long)c->rows,
                 (unsigned long long)c->width);
  free(c->encoded);
  c->encoded = NULL;
}

nw_exec *nw_gpu_copy_finished(nw_node *n, nw_copy *c) {
  copy_job *j = c->owner; /* c lives in j */
  int g = c->gpu;
  nw_node_trace(n, c->to_device ? NW_TRACE_COPY_IN : NW_TRACE_COPY_OUT, g,
                j->exec ? j->exec->task : NULL, j->exec ? j->exec->subtask : 0, j->issued_s,
                c->encode ? c->encoded_len : c->rows * c->width);
  if (j->reduced)
    reduced_copy_done(n, j);
  if (c->to_device)
    j->entry->valid = 1;
  nw_cache_release(&n->gpu[g].cache, j->entry);
  nw_exec *e = j->exec;
  free(j->own);
  free(j);
  return e && --e->copies_out == 0 ? e : NULL;
}

void nw_copy_free(nw_copy *c) {
  free(c->encoded);
  free(((copy_job *)c->owner)->own);
  free(c->owner); /* c lives in it */
}

void nw_gpu_space_written(nw_node *n, uint64_t space) {
  nw_cache_key all = {space, 0, UINT64_MAX, 0, UINT64_MAX};
  for (int g = 0; g < n->cfg.gpus; g++)
    nw_cache_invalidate(&n->gpu[g].cache, &all);
}

void nw_gpu_task_writes(nw_node *n, nw_task_state *t) {
  for (int i = 0; i < t->info.nspaces; i++)
    if (t->bound[i].access != NW_READ_ONLY)
      nw_gpu_space_written(n, t->bound[i].space->id);
}
