/* space.c: address spaces on one node and the fetch protocol of paper sections 3 and 4.2.
 *
 * A node keeps its own copy of each space (functional mode) and three region sets: what it
 * owns (its part of the ownership directory), what is resident (owned plus fetched: the
 * temporary directory) and what is in flight. A read it lacks is requested from the master,
 * which forwards each part to its true owner; owners reply with the bytes directly. The
 * master itself splits requests by its directory and asks the owners directly.
 *
 * Every request carries its class (demand or prefetch, paper 4.2) from the requester through
 * the master to the owner, which sends the bytes at that priority: the requester alone knows
 * whether a device waits for them now.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "handles.h"
#include "node_state.h"
#include "space.h"

nw_space_state *nw_space_find(nw_node *n, uint64_t id) {
  return nw_idmap_get(&n->space_ids, id);
}

/* Finds the space, or makes this node's state for it as it stands at its creation: the creator
 * owns every byte and the master knows it (paper section 3, state I). A node first hears of a
 * space when the first task that binds it starts (or a fetch names it), and no task can have
 * written it before then without this node taking part in that task. */
static void unpin(nw_node *n, nw_space_state *s) {
  if (s->data && n->cfg.gpus > 0 && n->be.ops->host_memory)
    n->be.ops->host_memory(n->be.be, s->data, nw_space_copy_bytes(s->size, s->pitch), 0);
}

uint64_t nw_space_copy_bytes(uint64_t size, uint64_t pitch) {
  /* A GPU copies whole bounding rectangles of rows (gpu_stage.c), and the last row of a space
   * whose size is not a multiple of its pitch is short: the rectangle may reach past `size`,
   * never past the end of that row. Those bytes belong to no subscription. */
  uint64_t rows = size / pitch + (size % pitch != 0);
  if (rows > 1 && rows > UINT64_MAX / pitch)
    return UINT64_MAX; /* no allocation can succeed */
  return rows > 1 ? rows * pitch : size;
}

/* The smallest copy whose pages all fault at their first write: GNU libc's malloc maps every
 * block of 32 MiB or more afresh (its mapping threshold rises with the blocks freed, to at most
 * 32 MiB on 64-bit hosts); a smaller one may come from heap memory the process touched already.
 * Two-rank matmul 1024/256's handlers, whose copies are 4 MiB, took no fault where 26 of their
 * messages wrote 6,500 pages first; 4096/1024's (64 MiB) took 1.5 faults a page
 * (docs/experiments/space-first-touches.md). */
#define FRESH_COPY_BYTES (32ull << 20)

/* Where the backend asks (nw_node_config.count_space_pages): marking every page a phantom
 * simulation moves doubled its time (matmul 32768/1024 on the paper's cluster), where nothing
 * priced them. A node with GPUs pins its copies when it makes them (host_memory), touching
 * every page. */
static int counts_first_touches(const nw_node *n, const nw_space_state *s) {
  return n->cfg.count_space_pages && n->cfg.gpus == 0 && s->touched.bytes >= FRESH_COPY_BYTES;
}

/* Marks r's pages of s's copy written; the pages it wrote first (0 where none are counted). */
static uint64_t first_touches(nw_node *n, nw_space_state *s, const nw_region *r) {
  return counts_first_touches(n, s) ? nw_touched_region(&s->touched, r) : 0;
}

void nw_space_wrote(nw_node *n, nw_space_state *s, const nw_region *r) {
  n->stats.space_pages_fresh += first_touches(n, s, r);
}

uint64_t nw_space_kernel_writes(nw_node *n, nw_space_state *s, const nw_region *r) {
  uint64_t fresh = first_touches(n, s, r);
  n->stats.kernel_pages_fresh += fresh;
  return fresh;
}

void nw_space_wrote_range(nw_node *n, nw_space_state *s, uint64_t lo, uint64_t hi) {
  if (counts_first_touches(n, s))
    n->stats.space_pages_fresh += nw_touched_range(&s->touched, lo, hi);
}

void nw_space_read_first(nw_node *n, nw_space_state *s) {
  if (!n->cfg.functional && !s->task_wrote && s->creator == n->cfg.id && counts_first_touches(n, s))
    (void)nw_touched_range(&s->touched, 0, s->touched.bytes);
}

/* A zeroed copy of `bytes` whose first byte starts a page (touched.h's pages are offsets from
 * it, so they are the pages the copy's first writes fault in), from calloc, which maps fresh
 * zero pages lazily: untouched parts cost no memory. A large calloc's block starts 16 bytes into
 * a page, and the counted and the faulted first touches fell on different events: two-rank
 * fft2d 4096/256's column commits counted 4096 pages where they faulted none and none where
 * they faulted 4096 (the next block's 16 bytes had done it). *block: what to free. */
static unsigned char *calloc_pages(uint64_t bytes, void **block) {
  *block = calloc(1, bytes + NW_TOUCHED_PAGE);
  if (!*block)
    return NULL;
  uintptr_t at = (uintptr_t)*block;
  return (unsigned char *)*block + (NW_TOUCHED_PAGE - at % NW_TOUCHED_PAGE) % NW_TOUCHED_PAGE;
}

nw_space_state *nw_space_get(nw_node *n, uint64_t id, uint64_t size, uint64_t pitch, int master,
                             int creator) {
  nw_space_state *s = nw_space_find(n, id);
  if (s)
    return s;
  if (pitch == 0 || size == 0 || master < 0 || master >= n->cfg.nodes || creator < 0 ||
      creator >= n->cfg.nodes)
    return NULL;
  s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  *s = (nw_space_state){
      .id = id, .size = size, .pitch = pitch, .master = master, .creator = creator};
  nw_region_init(&s->owned, pitch);
  nw_chunked_init(&s->resident, pitch);
  nw_region_init(&s->inflight, pitch);
  nw_tally_init(&s->received, pitch);
  nw_tally_init(&s->served, pitch);
  nw_touched_init(&s->touched, nw_space_copy_bytes(size, pitch));
  int ok = 1;
  if (n->cfg.functional) {
    uint64_t bytes = nw_space_copy_bytes(size, pitch);
    s->data = calloc_pages(bytes, &s->data_block);
    ok = s->data != NULL;
    if (ok && n->members && n->cfg.id == 0) /* recover.c: node 0's replica */
      ok = (s->replica = calloc(1, bytes)) != NULL;
    if (ok && n->cfg.gpus > 0 && n->be.ops->host_memory)
      n->be.ops->host_memory(n->be.be, s->data, bytes, 1);
  }
  if (ok && creator == n->cfg.id)
    ok = nw_region_add_range(&s->owned, 0, size) == NW_OK &&
         nw_chunked_add_range(&s->resident, 0, size) == NW_OK;
  if (ok && master == n->cfg.id)
    ok = nw_directory_create(n->cfg.nodes, pitch, size, creator, &s->dir) == NW_OK;
  ok = ok && nw_idmap_put(&n->space_ids, id, s) == NW_OK;
  if (!ok) {
    nw_directory_free(s->dir);
    nw_region_free(&s->owned);
    nw_chunked_free(&s->resident);
    nw_region_free(&s->inflight);
    nw_tally_free(&s->received);
    nw_tally_free(&s->served);
    nw_touched_free(&s->touched);
    unpin(n, s);
    free(s->data_block);
    free(s->replica);
    free(s);
    return NULL;
  }
  s->next = n->spaces;
  n->spaces = s;
  return s;
}

int nw_space_has(const nw_space_state *s, const nw_region *need) {
  return nw_chunked_contains(&s->resident, need);
}

static void write_descriptor(nw_writer *w, const nw_space_state *s) {
  nw_w_u64(w, s->id);
  nw_w_u64(w, s->size);
  nw_w_u64(w, s->pitch);
  nw_w_u32(w, (uint32_t)s->master);
  nw_w_u32(w, (uint32_t)s->creator);
}

static nw_space_state *read_descriptor(nw_node *n, nw_reader *r) {
  uint64_t id = nw_r_u64(r), size = nw_r_u64(r), pitch = nw_r_u64(r);
  int master = (int)nw_r_u32(r), creator = (int)nw_r_u32(r);
  if (r->bad)
    return NULL;
  nw_space_state *s = nw_space_get(n, id, size, pitch, master, creator);
  if (!s)
    r->bad = 1;
  return s;
}

/* Who asked, how urgently, and for which version of the space (see nw_space_state.version):
 * it travels with the request through the master to the owner and back with the data. */
typedef struct fetch_req {
  int requester;
  nw_fetch_class cls;
  uint64_t version;
} fetch_req;

struct nw_held_fetch {
  fetch_req q;
  nw_region need;
  nw_held_fetch *next;
};

/* --trace: what this node asked for and when, until the bytes arrive (a network span each). */
struct nw_trace_ask {
  nw_region want;
  double asked_s;
  nw_trace_ask *next;
};

static void trace_forget(nw_space_state *s) {
  while (s->asked) {
    nw_trace_ask *a = s->asked;
    s->asked = a->next;
    nw_region_free(&a->want);
    free(a);
  }
}

static void trace_ask(nw_node *n, nw_space_state *s, const nw_region *want) {
  nw_trace_ask *a = malloc(sizeof *a);
  if (!a || nw_region_copy(&a->want, want) != NW_OK) {
    free(a);
    n->trace.lost = 1; /* the trace says it is incomplete rather than fail the run */
    return;
  }
  a->asked_s = n->be.ops->now(n->be.be);
  a->next = s->asked;
  s->asked = a;
}

/* `got` came from node src: a span from the request it answers (the owner answers each
 * request's part in one message) to now. */
static void trace_answered(nw_node *n, nw_space_state *s, int src, const nw_region *got) {
  nw_trace_ask **at = &s->asked;
  while (*at && nw_region_overlap_bytes(&(*at)->want, got) == 0)
    at = &(*at)->next;
  if (!*at)
    return;
  nw_trace_ask *a = *at;
  double now = n->be.ops->now(n->be.be);
  nw_trace_rec r = {.start_s = a->asked_s,
                    .end_s = now,
                    .task = s->id,
                    .node = n->cfg.id,
                    .device = src,
                    .kind = NW_TRACE_TRANSFER,
                    .task_kind = -1,
                    .bytes = nw_region_bytes(got)};
  nw_trace_add(&n->trace, &r);
  if (nw_region_subtract(&a->want, got) != NW_OK || nw_region_empty(&a->want)) {
    *at = a->next;
    nw_region_free(&a->want);
    free(a);
  }
}

void nw_space_free_all(nw_node *n) {
  nw_idmap_free(&n->space_ids);
  while (n->spaces) {
    nw_space_state *s = n->spaces;
    n->spaces = s->next;
    nw_directory_free(s->dir);
    nw_region_free(&s->owned);
    nw_chunked_free(&s->resident);
    nw_region_free(&s->inflight);
    nw_tally_free(&s->received);
    nw_tally_free(&s->served);
    nw_touched_free(&s->touched);
    free(s->readers);
    while (s->held) {
      nw_held_fetch *h = s->held;
      s->held = h->next;
      nw_region_free(&h->need);
      free(h);
    }
    trace_forget(s);
    unpin(n, s);
    free(s->data_block);
    free(s->replica);
    free(s);
  }
}

static void send_fetch(nw_node *n, int dst, const nw_space_state *s, fetch_req q,
                       const nw_region *part) {
  nw_writer w;
  nw_w_init(&w, MSG_FETCH);
  write_descriptor(&w, s);
  nw_w_u32(&w, (uint32_t)q.requester);
  nw_w_u8(&w, (uint8_t)q.cls);
  nw_w_u64(&w, q.version);
  nw_w_region(&w, part);
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

/* The transfer frequency's counts (nw_stats.bytes_received and bytes_served): `part` adds
 * `bytes` to *total and what `ever` lacked of it to *unique, then joins `ever`. Bookkeeping
 * only; nothing decides by it. */
static void count_transfer(nw_node *n, nw_tally *ever, const nw_region *part, uint64_t *total,
                           uint64_t *unique) {
  uint64_t fresh;
  *total += nw_region_bytes(part);
  if (nw_tally_add(ever, part, &fresh) != NW_OK)
    nw_node_fail(n, "node %d: out of memory counting transfers", n->cfg.id);
  *unique += fresh;
}

static void send_data(nw_node *n, nw_space_state *s, fetch_req q, const nw_region *part) {
  uint64_t bytes = nw_region_bytes(part);
  if (q.requester != n->cfg.id)
    count_transfer(n, &s->served, part, &n->stats.bytes_served, &n->stats.bytes_served_unique);
  nw_fetch_class c = q.cls;
  int dst = q.requester;
  nw_writer w;
  nw_w_init(&w, MSG_DATA);
  nw_w_u64(&w, s->id);
  nw_w_u64(&w, q.version);
  nw_w_region(&w, part);
  n->stats.copy_runs += nw_region_runs(part);
  n->stats.bytes_gathered += bytes;
  if (n->cfg.functional) {
    unsigned char *dstp = nw_w_reserve(&w, bytes);
    if (dstp)
      nw_region_gather(part, s->data, dstp);
  }
  nw_node_send(n, dst, c == NW_FETCH_PREFETCH ? NW_CHANNEL_PREFETCH : NW_CHANNEL_DATA, &w, bytes);
}

/* A request made under an older version of the space than this node's asked for data of a
 * task that has ended (a prefetch or a copy's fetch still on its way at the task end): its
 * requester has since forgotten it (its version moved on and its in-flight set was cleared)
 * and would drop the reply. Legitimate requests never carry an older version than the
 * master's or owner's: a task's fetches begin after its start everywhere has moved the
 * versions of what it writes on (nw_space_new_version), and after the previous task ended. */
static int stale_request(nw_node *n, const nw_space_state *s, fetch_req q) {
  if (q.version >= s->version)
    return 0;
  n->stats.stale_fetches_dropped++;
  return 1;
}

/* --master-serves copies, on the master: answers the part of *rest it holds but does not own
 * (fetched in this task, so as the task found it: reads see the state at the task's start,
 * paper section 3), and leaves in *rest what it still lacks. What it owns the directory's
 * split serves, as without the option. */
static nw_status serve_copies(nw_node *n, nw_space_state *s, fetch_req q, nw_region *rest) {
  nw_region lacks, copies;
  nw_region_init(&copies, s->pitch);
  nw_status st = nw_region_copy(&lacks, rest);
  if (st == NW_OK)
    st = nw_chunked_subtract_from(&s->resident, &lacks); /* what it does not hold */
  if (st == NW_OK)
    st = nw_region_add(&copies, rest);
  if (st == NW_OK)
    st = nw_region_subtract(&copies, &lacks); /* what it holds... */
  if (st == NW_OK)
    st = nw_region_subtract(&copies, &s->owned); /* ...without owning it */
  if (st == NW_OK && !nw_region_empty(&copies)) {
    n->stats.bytes_served_copies += nw_region_bytes(&copies);
    send_data(n, s, q, &copies);
    st = nw_region_subtract(rest, &copies);
  }
  nw_region_free(&lacks);
  nw_region_free(&copies);
  return st;
}

/* On the master: serve what it owns, forward each other part to its owner. While an update
 * round of the space is under way the directory is half updated: the request waits for the
 * round to settle (nw_space_round_settled). */
static nw_status route_by_directory(nw_node *n, nw_space_state *s, fetch_req q,
                                    const nw_region *need) {
  int requester = q.requester;
  if (stale_request(n, s, q))
    return NW_OK;
  if (s->updating > 0) {
    nw_held_fetch *h = malloc(sizeof *h);
    if (!h || nw_region_copy(&h->need, need) != NW_OK) {
      free(h);
      return NW_ERR_NOMEM;
    }
    h->q = q;
    h->next = s->held;
    s->held = h;
    return NW_OK;
  }
  /* With --master-serves copies, what it answers from its copies leaves the rest to split. */
  nw_region rest;
  nw_region_init(&rest, s->pitch);
  int copies =
      n->cfg.sched.master_serves_copies && requester != n->cfg.id && q.version == s->version;
  nw_status st = copies ? nw_region_copy(&rest, need) : NW_OK;
  if (copies && st == NW_OK)
    st = serve_copies(n, s, q, &rest);
  const nw_region *split = copies ? &rest : need;
  nw_region *parts = st == NW_OK ? calloc((size_t)n->cfg.nodes, sizeof *parts) : NULL;
  if (!parts) {
    nw_region_free(&rest);
    return NW_ERR_NOMEM;
  }
  for (int k = 0; k < n->cfg.nodes; k++)
    nw_region_init(&parts[k], s->pitch);
  if (!nw_region_empty(split))
    st = nw_directory_split(s->dir, split, parts);
  nw_region_free(&rest);
  for (int k = 0; k < n->cfg.nodes && st == NW_OK; k++) {
    if (nw_region_empty(&parts[k]))
      continue;
    if (k == requester) {
      nw_node_fail(n, "node %d: node %d asked for space %llu bytes it owns", n->cfg.id, requester,
                   (unsigned long long)s->id);
      break;
    }
    n->stats.fetch_owners++;
    if (k == n->cfg.id)
      send_data(n, s, q, &parts[k]);
    else
      send_fetch(n, k, s, q, &parts[k]);
  }
  for (int k = 0; k < n->cfg.nodes; k++)
    nw_region_free(&parts[k]);
  free(parts);
  return st;
}

nw_status nw_space_need(nw_node *n, nw_space_state *s, const nw_region *need, nw_fetch_class c,
                        nw_region *requested) {
  nw_region missing;
  nw_status st = nw_region_copy(&missing, need);
  if (st == NW_OK)
    st = nw_chunked_subtract_from(&s->resident, &missing);
  if (st == NW_OK)
    st = nw_region_subtract(&missing, &s->inflight);
  if (st == NW_OK && !nw_region_empty(&missing)) {
    st = nw_region_add(&s->inflight, &missing);
    n->stats.fetch_requests++;
    if (requested && st == NW_OK)
      st = nw_region_add(requested, &missing);
    if (st == NW_OK && n->trace.on)
      trace_ask(n, s, &missing);
    fetch_req q = {n->cfg.id, c, s->version};
    if (st == NW_OK) {
      if (s->master == n->cfg.id)
        st = route_by_directory(n, s, q, &missing);
      else
        send_fetch(n, s->master, s, q, &missing);
    }
  }
  nw_region_free(&missing);
  return st;
}

void nw_space_on_fetch(nw_node *n, nw_reader *r) {
  nw_space_state *s = read_descriptor(n, r);
  int requester = (int)nw_r_u32(r);
  uint8_t c = nw_r_u8(r);
  uint64_t version = nw_r_u64(r);
  if (r->bad || c > NW_FETCH_PREFETCH) {
    r->bad = 1;
    return;
  }
  fetch_req q = {requester, (nw_fetch_class)c, version};
  nw_region need;
  nw_r_region(r, &need, s->pitch);
  if (r->bad || requester < 0 || requester >= n->cfg.nodes) {
    r->bad = 1;
  } else if (s->master == n->cfg.id) {
    if (route_by_directory(n, s, q, &need) != NW_OK)
      nw_node_fail(n, "node %d: out of memory routing a fetch", n->cfg.id);
  } else if (!nw_region_contains(&s->owned, &need)) {
    if (stale_request(n, s, q)) {
      nw_region_free(&need);
      return;
    }
    nw_node_fail(n, "node %d: asked for %llu bytes of space %llu it does not own", n->cfg.id,
                 (unsigned long long)nw_region_bytes(&need), (unsigned long long)s->id);
  } else {
    send_data(n, s, q, &need);
  }
  nw_region_free(&need);
}

/* A region and, in functional mode, its bytes, written into the node's copy of s. */
static void read_region_bytes(nw_node *n, nw_space_state *s, nw_reader *r, nw_region *got) {
  nw_r_region(r, got, s->pitch);
  if (!r->bad) {
    n->stats.copy_runs += nw_region_runs(got);
    nw_space_wrote(n, s, got);
  }
  if (!r->bad && n->cfg.functional) {
    const unsigned char *bytes = nw_r_bytes(r, nw_region_bytes(got));
    if (bytes)
      nw_region_scatter(got, bytes, s->data);
  }
}

int nw_space_on_data(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r), version = nw_r_u64(r);
  nw_space_state *s = nw_space_find(n, id);
  if (r->bad || !s || version > s->version) {
    r->bad = 1;
    return 0;
  }
  nw_region got;
  if (version < s->version) {
    /* Asked for before a task that wrote the space ended here (a cancelled copy's data, a
     * prefetch of a subtask stolen away): these bytes are older than the node's copy and its
     * temporary directory, which that task's end reset. They crossed the network all the
     * same. */
    n->stats.stale_data_dropped++;
    nw_r_region(r, &got, s->pitch);
    if (!r->bad)
      count_transfer(n, &s->received, &got, &n->stats.bytes_received,
                     &n->stats.bytes_received_unique);
    nw_region_free(&got);
    return 0;
  }
  read_region_bytes(n, s, r, &got);
  if (!r->bad) {
    count_transfer(n, &s->received, &got, &n->stats.bytes_received,
                   &n->stats.bytes_received_unique);
    if (s->asked)
      trace_answered(n, s, src, &got);
    if (nw_chunked_add(&s->resident, &got) != NW_OK ||
        nw_region_subtract(&s->inflight, &got) != NW_OK)
      nw_node_fail(n, "node %d: out of memory recording data", n->cfg.id);
  }
  nw_region_free(&got);
  return !r->bad;
}

/* Data asked for before a task that writes s started here is older than what that
 * task commits here. A write-only subtask's result goes into the node's copy as the subtask
 * ends, while the task is still running; a fetch from an earlier task that read s (a prefetch
 * of a subtask stolen away, a cancelled copy's fetch) can still be on its way then, and its
 * version was current, since no task had written s since it was asked for. It landed on the
 * result just committed, and from the task's end this node owned those old bytes and served
 * them to later tasks: data two steps old in a chain that writes two spaces in turn. So the
 * version moves on at a writer's start as at its end, and nothing counts as in flight. */
void nw_space_new_version(nw_node *n, nw_space_state *s) {
  s->version++;
  nw_region_clear(&s->inflight);
  trace_forget(s); /* what was asked for under the old version arrives stale */
  /* A driver read still waiting for bytes of s would wait for ever: it asks again. */
  if (n->read_call && n->read_call->space->id == s->id &&
      nw_space_need(n, s, &n->read_need, NW_FETCH_DEMAND, NULL) != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
}

static void send_ack(nw_node *n, int dst) {
  nw_writer w;
  nw_w_init(&w, MSG_PLACE_ACK);
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

/* The master records that `node` now owns `what` outside a task's update round (placements,
 * driver writes): nobody needs telling what they lost, since the caller handles that. */
static nw_status record_owner(nw_node *n, nw_space_state *s, int node, const nw_region *what) {
  nw_region *lost = calloc((size_t)n->cfg.nodes, sizeof *lost);
  if (!lost)
    return NW_ERR_NOMEM;
  for (int k = 0; k < n->cfg.nodes; k++)
    nw_region_init(&lost[k], s->pitch);
  nw_status st = nw_directory_assign(s->dir, node, what, lost);
  for (int k = 0; k < n->cfg.nodes; k++)
    nw_region_free(&lost[k]);
  free(lost);
  return st;
}

/* Node 0 gives `what` (which it owns) to `node`: the bytes go to the new owner, the news to the
 * master; each acknowledges. *acks counts the acknowledgements to wait for. */
nw_status nw_space_give(nw_node *n, nw_space_state *s, const nw_region *what, int node, int *acks) {
  *acks = 0;
  if (node == n->cfg.id)
    return NW_OK;
  nw_writer w;
  nw_w_init(&w, MSG_PLACE);
  write_descriptor(&w, s);
  nw_w_region(&w, what);
  uint64_t bytes = nw_region_bytes(what);
  n->stats.copy_runs += nw_region_runs(what);
  n->stats.bytes_gathered += bytes;
  if (n->cfg.functional) {
    unsigned char *dst = nw_w_reserve(&w, bytes);
    if (dst)
      nw_region_gather(what, s->data, dst);
  }
  n->stats.bytes_placed += bytes;
  n->stats.messages_placed++;
  nw_node_send(n, node, NW_CHANNEL_DATA, &w, bytes);
  (*acks)++;
  nw_status st = nw_region_subtract(&s->owned, what);
  if (st == NW_OK)
    st = nw_chunked_subtract(&s->resident, what);
  if (st != NW_OK)
    return st;
  if (s->master == n->cfg.id)
    return record_owner(n, s, node, what);
  nw_w_init(&w, MSG_PLACE_DIR);
  write_descriptor(&w, s);
  nw_w_u32(&w, (uint32_t)node);
  nw_w_region(&w, what);
  nw_node_send(n, s->master, NW_CHANNEL_CONTROL, &w, 0);
  (*acks)++;
  return NW_OK;
}

void nw_space_on_place(nw_node *n, int src, nw_reader *r) {
  nw_space_state *s = read_descriptor(n, r);
  if (r->bad)
    return;
  nw_region got;
  read_region_bytes(n, s, r, &got);
  if (!r->bad &&
      (nw_region_add(&s->owned, &got) != NW_OK || nw_chunked_add(&s->resident, &got) != NW_OK))
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  nw_region_free(&got);
  if (!r->bad)
    send_ack(n, src);
}

void nw_space_on_place_dir(nw_node *n, int src, nw_reader *r) {
  nw_space_state *s = read_descriptor(n, r);
  uint32_t node = nw_r_u32(r);
  if (r->bad || !s->dir || node >= (uint32_t)n->cfg.nodes) {
    r->bad = 1;
    return;
  }
  nw_region got;
  nw_r_region(r, &got, s->pitch);
  nw_status st = r->bad ? NW_OK : record_owner(n, s, (int)node, &got);
  nw_region_free(&got);
  if (st != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  else if (!r->bad)
    send_ack(n, src);
}

/* A driver write or placement between tasks (narwhal.h: nw_space_write, nw_space_place). The
 * written bytes must end up owned by node 0 and nowhere else: earlier tasks may have left
 * their ownership on other nodes, and copies fetched for read-only bindings stay resident
 * across tasks. Every node drops ownership and copies of `what`, forgets what it has in flight
 * for the space and counts a new version (in-flight data is then dropped on arrival, as at a
 * task end: every node counts the same versions), and the master records node 0 as owner.
 * Nobody uses the space meanwhile: node 0 refuses the call while a task bound to it is
 * queued or running, and starts no task before every node has acknowledged. */
static void drop_copies(nw_node *n, nw_space_state *s, const nw_region *what) {
  if (nw_region_subtract(&s->owned, what) != NW_OK ||
      nw_chunked_subtract(&s->resident, what) != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  nw_space_new_version(n, s);
}

nw_status nw_space_claim(nw_node *n, nw_space_state *s, const nw_region *what, int *acks) {
  *acks = 0;
  if (!s->shared && nw_region_contains(&s->owned, what))
    return NW_OK; /* only node 0 has ever held these bytes */
  nw_status st = NW_OK;
  for (int k = 1; k < n->cfg.nodes; k++) {
    nw_writer w;
    nw_w_init(&w, MSG_CLAIM);
    write_descriptor(&w, s);
    nw_w_region(&w, what);
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
    (*acks)++;
  }
  if (nw_region_add(&s->owned, what) != NW_OK || nw_chunked_add(&s->resident, what) != NW_OK)
    st = NW_ERR_NOMEM;
  nw_space_new_version(n, s);
  if (st == NW_OK && s->master == n->cfg.id)
    st = record_owner(n, s, 0, what);
  return st;
}

uint64_t nw_space_on_claim(nw_node *n, int src, nw_reader *r) {
  nw_space_state *s = read_descriptor(n, r);
  if (r->bad)
    return 0;
  nw_region what;
  nw_r_region(r, &what, s->pitch);
  if (!r->bad) {
    drop_copies(n, s, &what);
    if (s->master == n->cfg.id && record_owner(n, s, 0, &what) != NW_OK)
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    send_ack(n, src);
  }
  nw_region_free(&what);
  return r->bad ? 0 : s->id;
}

void nw_space_round_begins(nw_space_state *s) {
  s->updating++;
}

void nw_space_round_settled(nw_node *n, nw_space_state *s) {
  if (s->updating <= 0 || --s->updating > 0)
    return;
  /* Oldest first: reverse the list, then route each with the settled directory. */
  nw_held_fetch *h = s->held, *order = NULL;
  s->held = NULL;
  while (h) {
    nw_held_fetch *next = h->next;
    h->next = order;
    order = h;
    h = next;
  }
  while (order) {
    nw_held_fetch *x = order;
    order = x->next;
    if (route_by_directory(n, s, x->q, &x->need) != NW_OK)
      nw_node_fail(n, "node %d: out of memory routing a fetch", n->cfg.id);
    nw_region_free(&x->need);
    free(x);
  }
}

nw_status nw_space_recovered(nw_node *n, nw_space_state *s, uint64_t version, int keep,
                             const nw_region *reports) {
  nw_directory_free(s->dir);
  s->dir = NULL;
  while (s->held) { /* requests of the old epoch: their requesters forgot them */
    nw_held_fetch *h = s->held;
    s->held = h->next;
    nw_region_free(&h->need);
    free(h);
  }
  s->updating = 0;
  trace_forget(s);
  nw_region_clear(&s->inflight);
  s->version = version;
  s->master = s->creator = 0;
  s->shared = 1;
  if (!keep) { /* a rolled-back task wrote it: what this node held may be its results */
    nw_region_clear(&s->owned);
    nw_chunked_clear(&s->resident);
  }
  if (n->cfg.id != 0)
    return NW_OK;
  /* Node 0 masters it: survivors keep what they own of a kept space, node 0 owns the rest,
   * and the bytes it did not own before (the lost node's, or all of a space not kept) come
   * from the replica: the state before the tasks rolled back, after every completed one. */
  int nodes = n->cfg.nodes;
  nw_region *lost = calloc((size_t)nodes, sizeof *lost);
  nw_region fresh;
  nw_region_init(&fresh, s->pitch);
  nw_status st = lost ? nw_directory_create(nodes, s->pitch, s->size, 0, &s->dir) : NW_ERR_NOMEM;
  for (int k = 0; k < nodes && lost; k++)
    nw_region_init(&lost[k], s->pitch);
  for (int k = 1; keep && reports && k < nodes && st == NW_OK; k++)
    if (!nw_region_empty(&reports[k]))
      st = nw_directory_assign(s->dir, k, &reports[k], lost);
  if (st == NW_OK)
    st = nw_region_copy(&fresh, nw_directory_owned_by(s->dir, 0));
  if (st == NW_OK)
    st = nw_region_subtract(&fresh, &s->owned);
  uint64_t bytes = st == NW_OK ? nw_region_bytes(&fresh) : 0;
  unsigned char *tmp = s->replica && bytes ? malloc(bytes) : NULL;
  if (tmp) {
    nw_region_gather(&fresh, s->replica, tmp);
    nw_region_scatter(&fresh, tmp, s->data);
    free(tmp);
  } else if (s->replica && bytes) {
    st = NW_ERR_NOMEM;
  }
  nw_region_clear(&s->owned);
  if (st == NW_OK)
    st = nw_region_add(&s->owned, nw_directory_owned_by(s->dir, 0));
  if (st == NW_OK)
    st = nw_chunked_add(&s->resident, &s->owned); /* its other copies stay valid */
  for (int k = 0; k < nodes && lost; k++)
    nw_region_free(&lost[k]);
  free(lost);
  nw_region_free(&fresh);
  return st;
}
