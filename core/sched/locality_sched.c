/* locality_sched.c: locality-aware scheduling on a node (paper 4.3.4; --locality on).
 *
 * The paper's default scheduler is locality-oblivious; a task may opt in to one that uses the
 * directory's knowledge of where data lies (paper sections 3 and 4.3.4, UNICORN-NOTES
 * "Locality scoring", criterion "maximize local data"). Here, at a task's start, instead of
 * pipeline.c's equal contiguous split:
 *   1) every node computes, for every subtask, local(s, itself): the bytes of the subtask's
 *      reads it holds at the task's start, and sends the vector to node 0 (MSG_LOC_VECTOR).
 *      "Holds" means its temporary directory (paper section 3): what it owns plus the copies of
 *      read-only spaces kept from earlier tasks. Those copies are valid (a task that writes a
 *      space discards every node's copies at its end) and the fetch path consults exactly this
 *      set, so read bytes - local(s, k) is exactly what node k would fetch for s;
 *   2) node 0, with all N vectors, runs the assignment of locality.h and sends every other
 *      node the node of each subtask and the whole affinity matrix (MSG_LOC_ASSIGN): a steal
 *      agent needs local(s, stealer) for any stealer;
 *   3) each node deals its own subtasks to its devices as equal runs of its sorted list
 *      (consecutive ids merge into one range) and starts them.
 * The capacity of a node in the assignment is its device count: device rates are unknown at
 * a task's start (they are measured as subtasks complete). Both messages go on the data
 * channel with their real size, so the simulator charges them behind the node's other
 * transfers (paper 4.1: one data thread per node), and they count in bytes_network: the
 * locality on/off comparison includes the protocol's own cost.
 *
 * Steals (steal.c) then use the matrix: an agent answering a remote stealer hands over the
 * queued subtasks with the largest local(s, stealer) - local(s, victim) (UNICORN-NOTES:
 * "affinity-aware steals"), and a stealer draws its victim node with weight
 * 1 + N * L_v / R_v over the subtasks first given to v (locality.h).
 */
#include <stdlib.h>
#include <string.h>

#include "locality.h"
#include "node_internal.h"

void nw_locality_free(nw_task_locality *l) {
  if (!l)
    return;
  free(l->read);
  free(l->local);
  free(l->owner);
  free(l->node_weight);
  free(l->dev_weight);
  free(l->heard);
  free(l);
}

static void fail_oom(nw_node *n) {
  nw_node_fail(n, "node %d: out of memory", n->cfg.id);
}

/* The protocol's messages hold real bytes in both data modes (no phantom payload). */
static void send_bulk(nw_node *n, int dst, nw_writer *w) {
  if (dst != n->cfg.id && !w->oom)
    n->stats.bytes_network += w->len;
  nw_node_send(n, dst, NW_CHANNEL_DATA, w, 0);
}

/* This node's row of the matrix, and every subtask's read bytes. */
static nw_status compute_row(nw_node *n, nw_task_state *t) {
  nw_task_locality *l = t->loc;
  uint64_t subtasks = t->info.subtasks;
  uint64_t *row = l->local + (uint64_t)n->cfg.id * subtasks;
  int ns = t->info.nspaces;
  nw_region *read = nw_subscription_sets(ns);
  if (!read)
    return NW_ERR_NOMEM;
  nw_region *write = read + ns;
  char why[256];
  for (uint64_t s = 0; s < subtasks; s++) {
    nw_status st = nw_subscriptions(t->kind, &t->info, t->access, s, read, write, why, sizeof why);
    if (st == NW_OK) {
      l->read[s] = 0;
      for (int i = 0; i < t->info.nspaces; i++)
        l->read[s] += nw_region_bytes(&read[i]);
      row[s] = nw_locality_local_bytes(t, read);
    }
    for (int i = 0; i < t->info.nspaces; i++) {
      nw_region_free(&read[i]);
      nw_region_free(&write[i]);
    }
    if (st != NW_OK) {
      /* Node 0 checked every subscription at submission: a callback that answers differently
       * on different nodes or calls, or memory running out. */
      nw_node_fail(n, "node %d, task %llu: %s", n->cfg.id, (unsigned long long)t->id, why);
      free(read);
      return st;
    }
  }
  free(read); /* its regions were freed subtask by subtask */
  return NW_OK;
}

/* Each device gets an equal run of this node's subtasks, in id order. */
static nw_status deal(nw_node *n, nw_task_state *t) {
  const nw_task_locality *l = t->loc;
  uint64_t subtasks = t->info.subtasks, mine = 0, pos = 0;
  uint64_t devices = (uint64_t)n->cfg.devices;
  for (uint64_t s = 0; s < subtasks; s++)
    mine += l->owner[s] == (uint32_t)n->cfg.id;
  int d = 0;
  for (uint64_t s = 0; s < subtasks; s++) {
    if (l->owner[s] != (uint32_t)n->cfg.id)
      continue;
    while (pos >= ((uint64_t)d + 1) * mine / devices) /* device d: [d*m/D, (d+1)*m/D) */
      d++;
    pos++;
    t->dev[d].range_len++;
    if (nw_queue_push_one(n, d, t, s) != NW_OK)
      return NW_ERR_NOMEM;
  }
  return NW_OK;
}

/* The matrix and assignment are here (node 0: computed): weights, queues, go. */
static void apply(nw_node *n, nw_task_state *t) {
  nw_task_locality *l = t->loc;
  int nodes = n->cfg.nodes, total = 0;
  uint64_t subtasks = t->info.subtasks;
  for (int k = 0; k < nodes; k++)
    total += n->cfg.devices_per_node[k];
  uint64_t *lv = calloc((size_t)nodes, sizeof *lv), *rv = calloc((size_t)nodes, sizeof *rv);
  l->node_weight = malloc((size_t)nodes * sizeof *l->node_weight);
  l->dev_weight = malloc((size_t)total * sizeof *l->dev_weight);
  if (!lv || !rv || !l->node_weight || !l->dev_weight) {
    free(lv);
    free(rv);
    fail_oom(n);
    return;
  }
  const uint64_t *mine = l->local + (uint64_t)n->cfg.id * subtasks;
  for (uint64_t s = 0; s < subtasks; s++) {
    lv[l->owner[s]] += mine[s];
    rv[l->owner[s]] += l->read[s];
  }
  for (int k = 0, g = 0; k < nodes; k++) {
    l->node_weight[k] = nw_locality_victim_weight(nodes, lv[k], rv[k]);
    for (int d = 0; d < n->cfg.devices_per_node[k]; d++)
      l->dev_weight[g++] = l->node_weight[k];
  }
  free(lv);
  free(rv);
  l->assigned = 1;
  if (deal(n, t) != NW_OK) {
    fail_oom(n);
    return;
  }
  nw_pipeline_go(n, t);
}

/* Node 0, once every vector is in: assign, tell the others, start here. */
static void maybe_assign(nw_node *n, nw_task_state *t) {
  nw_task_locality *l = t->loc;
  int nodes = n->cfg.nodes;
  uint64_t subtasks = t->info.subtasks;
  if (l->vectors < nodes)
    return;
  if (l->gathered) { /* another policy decides with the matrix */
    l->gathered(n, t);
    return;
  }
  int capacity[NW_MAX_NODES];
  for (int k = 0; k < nodes; k++)
    capacity[k] = n->cfg.devices_per_node[k];
  nw_status st = nw_locality_assign(subtasks, nodes, l->local, capacity, l->owner);
  if (st != NW_OK) {
    nw_node_fail(n, "node 0, task %llu: the locality-aware assignment failed (status %d)",
                 (unsigned long long)t->id, (int)st);
    return;
  }
  if (nodes > 1) {
    nw_writer w;
    nw_w_init(&w, MSG_LOC_ASSIGN);
    nw_w_u64(&w, t->id);
    nw_w_u32(&w, (uint32_t)nodes);
    nw_w_u64(&w, subtasks);
    for (uint64_t s = 0; s < subtasks; s++)
      nw_w_u32(&w, l->owner[s]);
    for (uint64_t i = 0; i < (uint64_t)nodes * subtasks; i++)
      nw_w_u64(&w, l->local[i]);
    for (int k = 1; k < nodes; k++) {
      nw_writer copy = w;
      if (k + 1 < nodes) { /* every destination gets its own buffer */
        copy.buf = w.oom ? NULL : malloc(w.len);
        copy.cap = w.len; /* its own buffer: what nw_node_send appends must grow it */
        if (!copy.buf) {
          nw_w_free(&w);
          fail_oom(n);
          return;
        }
        memcpy(copy.buf, w.buf, w.len);
      }
      send_bulk(n, k, &copy);
    }
  }
  apply(n, t);
}

void nw_locality_start(nw_node *n, nw_task_state *t, void (*gathered)(nw_node *, nw_task_state *)) {
  int nodes = n->cfg.nodes;
  uint64_t subtasks = t->info.subtasks;
  if (subtasks > NW_LOCALITY_MAX_ENTRIES / (uint64_t)nodes) { /* node 0 refuses these first */
    nw_node_fail(n, "node %d: task %llu has too many subtasks for locality-aware scheduling",
                 n->cfg.id, (unsigned long long)t->id);
    return;
  }
  nw_task_locality *l = calloc(1, sizeof *l);
  if (l) {
    l->read = malloc(subtasks * sizeof *l->read);
    l->local = calloc((size_t)nodes * subtasks, sizeof *l->local);
    l->owner = malloc(subtasks * sizeof *l->owner);
    l->heard = calloc((size_t)nodes, 1);
  }
  if (!l || !l->read || !l->local || !l->owner || !l->heard) {
    nw_locality_free(l);
    fail_oom(n);
    return;
  }
  l->gathered = gathered;
  t->loc = l;
  if (compute_row(n, t) != NW_OK)
    return;
  if (n->cfg.id == 0) {
    l->heard[0] = 1;
    l->vectors = 1;
    maybe_assign(n, t);
    return;
  }
  nw_writer w;
  nw_w_init(&w, MSG_LOC_VECTOR);
  nw_w_u64(&w, t->id);
  nw_w_u64(&w, subtasks);
  const uint64_t *row = l->local + (uint64_t)n->cfg.id * subtasks;
  for (uint64_t s = 0; s < subtasks; s++)
    nw_w_u64(&w, row[s]);
  send_bulk(n, 0, &w);
}

void nw_locality_on_vector(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r), subtasks = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t) {
    r->bad = 1; /* node 0 keeps a task until it completes, which needs every vector */
    return;
  }
  nw_task_locality *l = t->loc;
  if (n->cfg.id != 0 || !l || src <= 0 || src >= n->cfg.nodes || l->heard[src] ||
      subtasks != t->info.subtasks || r->len - r->pos != subtasks * 8) {
    r->bad = 1;
    return;
  }
  uint64_t *row = l->local + (uint64_t)src * subtasks;
  for (uint64_t s = 0; s < subtasks; s++)
    row[s] = nw_r_u64(r);
  l->heard[src] = 1;
  l->vectors++;
  maybe_assign(n, t);
}

void nw_locality_on_assign(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  uint32_t nodes = nw_r_u32(r);
  uint64_t subtasks = nw_r_u64(r);
  if (r->bad || src != 0 || nodes != (uint32_t)n->cfg.nodes) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, id);
  if (!t || t->finishing)
    return; /* the others ran every subtask while this (empty-handed) node's copy travelled */
  nw_task_locality *l = t->loc;
  if (!l || l->assigned || subtasks != t->info.subtasks ||
      r->len - r->pos != subtasks * 4 + (uint64_t)nodes * subtasks * 8) {
    r->bad = 1;
    return;
  }
  for (uint64_t s = 0; s < subtasks; s++) {
    l->owner[s] = nw_r_u32(r);
    if (l->owner[s] >= nodes) {
      r->bad = 1;
      return;
    }
  }
  for (uint64_t i = 0; i < (uint64_t)nodes * subtasks; i++)
    l->local[i] = nw_r_u64(r);
  apply(n, t);
}

/* Appends subtask id to a list of ranges, extending the last range when id continues it. */
static nw_status push_id(nw_range **a, size_t *count, size_t *cap, uint64_t id) {
  if (*count > 0 && (*a)[*count - 1].last == id) {
    (*a)[*count - 1].last++;
    return NW_OK;
  }
  if (*count == *cap) {
    size_t c = *cap ? 2 * *cap : 4;
    nw_range *b = realloc(*a, c * sizeof *b);
    if (!b)
      return NW_ERR_NOMEM;
    *a = b;
    *cap = c;
  }
  (*a)[(*count)++] = (nw_range){id, id + 1};
  return NW_OK;
}

uint64_t nw_locality_take(nw_node *n, nw_task_state *t, int v, int stealer, uint64_t want,
                          nw_loot *out) {
  const nw_task_locality *l = t->loc;
  uint64_t q = nw_queue_length(n, v, t), subtasks = t->info.subtasks;
  if (q == 0 || want == 0)
    return 0;
  uint64_t *ids = malloc(q * sizeof *ids);
  int64_t *gain = malloc(q * sizeof *gain);
  unsigned char *chosen = malloc(q);
  const uint64_t *theirs = l->local + (uint64_t)stealer * subtasks;
  const uint64_t *ours = l->local + (uint64_t)n->cfg.id * subtasks;
  uint64_t got = 0;
  nw_status st = ids && gain && chosen ? NW_OK : NW_ERR_NOMEM;
  if (st == NW_OK) {
    nw_queue_task_ids(n, v, t, ids);
    for (uint64_t i = 0; i < q; i++)
      gain[i] = (int64_t)theirs[ids[i]] - (int64_t)ours[ids[i]];
    got = nw_locality_choose(gain, q, want, chosen);
    st = got ? NW_OK : NW_ERR_NOMEM; /* want > 0 and q > 0: 0 only when it could not allocate */
  }
  /* The loot keeps the queue's order; consecutive ids merge into ranges. */
  for (uint64_t i = 0; st == NW_OK && i < q; i++)
    if (chosen[i])
      st = push_id(&out->r, &out->n, &out->cap, ids[i]);
  if (st == NW_OK)
    st = nw_queue_remove(n, v, t, chosen); /* what stays keeps its place */
  free(ids);
  free(gain);
  free(chosen);
  if (st != NW_OK) { /* the queue is untouched; what was gathered is dropped */
    out->n = 0;
    fail_oom(n);
    return 0;
  }
  return got;
}

int nw_locality_pick_victim(nw_node *n, nw_task_state *t, unsigned char *tried, int count,
                            int per_device) {
  const double *w = per_device ? t->loc->dev_weight : t->loc->node_weight;
  return nw_locality_pick(w, tried, count, n->be.ops->random(n->be.be));
}
