/* reduce_tree.c: a task's reduced spaces combined across nodes at its end (paper 4.5).
 *
 * Each node has already combined its own subtasks' results as they committed (pipeline.c).
 * At TASK_FINISH the nodes combine those partial results along a binomial tree per reduced
 * space, rooted at the space's master: in round r a node whose index relative to the root has
 * bit r set sends its partial result to the node 2^r below it and is done; the others take
 * their child's partial of that round, if they have one, and go on. Several nodes combine at
 * once, which is why the paper's reduction time falls as nodes are added (Fig. 8), and the
 * root, where the final combination happens, owns the result (section 3: "for multiple
 * writers, the final owner is where the final reduction occurs"). Children's results are taken
 * in round order, whatever order they arrive in, so the combination across nodes is the same
 * on every run. With compress_network on, a partial travels run-length encoded (4.6).
 */
#include <stdlib.h>
#include <string.h>

#include "node_state.h"
#include "reduce_tree.h"
#include "rle.h"
#include "space.h"

struct nw_partial {
  nw_region what;
  unsigned char *bytes; /* packed in what's order; NULL in phantom mode */
};

static void partial_free(nw_partial *p) {
  if (!p)
    return;
  nw_region_free(&p->what);
  free(p->bytes);
  free(p);
}

void nw_reduce_tree_free(nw_task_state *t) {
  for (int i = 0; t->red_in && i < t->info.nspaces; i++)
    for (int r = 0; r < NW_REDUCE_ROUNDS; r++)
      partial_free(t->red_in[i][r]);
  free(t->red_in);
  t->red_in = NULL;
}

int nw_reduce_tree_needed(const nw_task_state *t) {
  for (int i = 0; i < t->info.nspaces; i++)
    if (t->bound[i].reduce.op)
      return 1;
  return 0;
}

/* This node's index in space slot i's tree, counted from the root. */
static int rel_index(const nw_node *n, const nw_task_state *t, int i) {
  return (n->cfg.id - t->bound[i].space->master + n->cfg.nodes) % n->cfg.nodes;
}

static int abs_index(const nw_node *n, const nw_task_state *t, int i, int rel) {
  return (rel + t->bound[i].space->master) % n->cfg.nodes;
}

/* Sends this node's partial result of slot i to its parent; it then owns none of it. */
static void send_partial(nw_node *n, nw_task_state *t, int i, int parent, int round) {
  const nw_region *w = &t->written[i];
  uint64_t raw = nw_region_bytes(w), payload = raw;
  nw_writer m;
  nw_w_init(&m, MSG_REDUCE);
  nw_w_u64(&m, t->id);
  nw_w_u64(&m, t->bound[i].space->id);
  nw_w_u32(&m, (uint32_t)round);
  nw_w_region(&m, w);
  if (!n->cfg.functional) { /* phantom: the wire carries the raw size */
    nw_w_u8(&m, 0);
    nw_w_u64(&m, 0);
  } else {
    unsigned char *packed = malloc(raw ? raw : 1);
    unsigned char *enc = n->cfg.compress_network ? malloc(nw_rle_bound(raw)) : NULL;
    if (!packed || (n->cfg.compress_network && !enc)) {
      free(packed);
      free(enc);
      nw_w_free(&m);
      nw_node_fail(n, "node %d: out of memory for a reduction", n->cfg.id);
      return;
    }
    nw_region_gather(w, t->bound[i].space->data, packed);
    if (enc) {
      payload = nw_rle_encode(packed, raw, enc);
      n->stats.bytes_rle += raw;
    }
    nw_w_u8(&m, enc != NULL);
    nw_w_u64(&m, payload);
    nw_w_bytes(&m, enc ? enc : packed, payload);
    free(packed);
    free(enc);
  }
  n->stats.bytes_reduction_raw += raw;
  n->stats.bytes_reduction_sent += payload;
  nw_node_send(n, parent, NW_CHANNEL_DATA, &m, payload);
  nw_region_clear(&t->written[i]);
}

/* Combines a child's partial result into this node's copy and its set S. */
static void merge_partial(nw_node *n, nw_task_state *t, int i, nw_partial *p) {
  nw_space_wrote(n, t->bound[i].space, &p->what);
  if (!n->cfg.functional) /* phantom: what would be combined, for the simulator's costs */
    n->stats.bytes_reduced += nw_region_overlap_bytes(&p->what, &t->written[i]);
  else if (!nw_region_empty(&p->what)) {
    uint64_t lo, hi;
    nw_region_bounds(&p->what, &lo, &hi);
    unsigned char *view = malloc(hi - lo);
    uint64_t combined = view ? 0 : (uint64_t)-1;
    if (view) {
      nw_region_scatter_to(&p->what, p->bytes, lo, view);
      combined = nw_reduce_merge(&t->bound[i].reduce, &p->what, view, lo, t->bound[i].space->data,
                                 &t->written[i]);
      free(view);
    }
    if (combined == (uint64_t)-1) {
      nw_node_fail(n, "node %d: out of memory for a reduction", n->cfg.id);
      return;
    }
    n->stats.bytes_reduced += combined;
  }
  if (nw_region_add(&t->written[i], &p->what) != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
}

int nw_reduce_tree_begin(nw_node *n, nw_task_state *t) {
  t->reducing = 1;
  t->red_start_s = n->be.ops->now(n->be.be);
  return nw_reduce_tree_step(n, t);
}

int nw_reduce_tree_step(nw_node *n, nw_task_state *t) {
  int done = 1, nodes = n->cfg.nodes;
  for (int i = 0; i < t->info.nspaces; i++) {
    if (!t->bound[i].reduce.op)
      continue;
    int rel = rel_index(n, t, i);
    while (t->red_round[i] >= 0) {
      int r = t->red_round[i];
      int mask = 1 << r;
      if (mask >= nodes) { /* the root: every child's result is in */
        t->red_round[i] = -1;
        n->stats.reduction_tree_s += n->be.ops->now(n->be.be) - t->red_start_s;
        break;
      }
      if (rel & mask) {
        send_partial(n, t, i, abs_index(n, t, i, rel - mask), r);
        t->red_round[i] = -1;
        break;
      }
      if (rel + mask < nodes) {
        nw_partial *p = t->red_in ? t->red_in[i][r] : NULL;
        if (!p) {
          done = 0;
          break;
        }
        t->red_in[i][r] = NULL;
        merge_partial(n, t, i, p);
        partial_free(p);
      }
      t->red_round[i]++;
    }
  }
  t->reducing = !done;
  return done;
}

void nw_reduce_tree_on_partial(nw_node *n, nw_task_state *t, int src, nw_reader *r) {
  uint64_t space_id = nw_r_u64(r);
  uint32_t round = nw_r_u32(r);
  int i = 0;
  while (i < t->info.nspaces && t->bound[i].space->id != space_id)
    i++;
  /* Only from the child of that round, once per round, for a reduced space. */
  if (r->bad || i == t->info.nspaces || !t->bound[i].reduce.op || round >= NW_REDUCE_ROUNDS ||
      (t->red_in && t->red_in[i][round]) || rel_index(n, t, i) + (1 << round) >= n->cfg.nodes ||
      abs_index(n, t, i, rel_index(n, t, i) + (1 << round)) != src) {
    r->bad = 1;
    return;
  }
  nw_partial *p = calloc(1, sizeof *p);
  if (!p) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  nw_r_region(r, &p->what, t->info.space_pitch[i]);
  int compressed = nw_r_u8(r);
  uint64_t len = nw_r_u64(r);
  const unsigned char *bytes = nw_r_bytes(r, len);
  uint64_t raw = nw_region_bytes(&p->what);
  if (!r->bad && n->cfg.functional) {
    p->bytes = malloc(raw ? raw : 1);
    if (!p->bytes) {
      partial_free(p);
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
    if (compressed) {
      r->bad = nw_rle_decode(bytes, len, p->bytes, raw) != 0;
      n->stats.bytes_rle += raw;
    } else if (len != raw)
      r->bad = 1;
    else
      memcpy(p->bytes, bytes, raw);
  }
  if (!r->bad && !t->red_in && !(t->red_in = calloc((size_t)t->info.nspaces, sizeof *t->red_in))) {
    partial_free(p);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  if (r->bad) {
    partial_free(p);
    return;
  }
  t->red_in[i][round] = p;
}
