/* resend.h: what was fetched for a subtask before it moved, and so what fetching it again
 * re-sends (the paper's section 5.7.3: "additional transfer due to re-sending of data to the
 * new destination after stealing or multi-assignment"; nw_stats.bytes_resent).
 *
 * A subtask's data is fetched where it is prepared (pipeline.c, nw_prepared.fetched: per bound
 * space, the bytes its node requested for it, plus what earlier holders had). Two moves take
 * a subtask somewhere else after that: a steal of a device's prefetched subtask (steal.c), and
 * a copy of a running one (multi-assign). The bytes fetched before then stay with the subtask,
 * as an entry of its task here, carried in the steal's answer when the subtask goes to another
 * node (the answer's optional tail), until a device prepares it: the bytes of its new fetch
 * that the entry holds are re-sent. A device of the same node fetches none of them (the node
 * holds them, or has them on the way), so only another node's fetch counts. The tail only
 * feeds the counter: the simulator does not price it (nw_writer.uncharged), so a run's
 * simulated times are what they were without the counter; on hardware it crosses the network
 * with the answer, a few rectangles of 32 bytes per space.
 */
#ifndef NW_RESEND_H
#define NW_RESEND_H

#include <stddef.h>
#include <stdint.h>

#include "exec_state.h"
#include "queue.h"
#include "region.h"
#include "wire.h"

/* One subtask's earlier fetches: per bound space of its task, the bytes fetched for it on the
 * devices and nodes it has left. */
typedef struct nw_fetched_before {
  uint64_t subtask;
  nw_region *region; /* [nspaces] */
} nw_fetched_before;

/* The entries a task keeps on a node (in nw_task_state). */
typedef struct nw_resend_list {
  nw_fetched_before *e;
  size_t n, cap;
} nw_resend_list;

/* Device d gives up prepared subtask p (a steal of its prefetched one): what was fetched for
 * it stays here, for whoever prepares it next. */
nw_status nw_resend_keep(nw_task_state *t, const nw_prepared *p);
/* Preparing subtask p->subtask: adds the entry kept for it, if any, to p->fetched, removing
 * it, and returns the bytes p's own fetch (p->fetched before the call) shared with it. */
uint64_t nw_resend_take(nw_task_state *t, nw_prepared *p);
/* The optional tail of a steal's answer: the entries for the subtasks of ranges r[0..nr)
 * (taken from here: they go with the loot), and a copy's original's fetches (copy: the
 * original's prepared subtask, or NULL). Writes nothing when there is nothing to carry, so an
 * answer without them is what it was before the tail existed. */
nw_status nw_resend_write(nw_writer *w, nw_task_state *t, const nw_range *r, size_t nr,
                          const nw_prepared *copy);
/* Reads the tail, if the message has one, into t's entries (t NULL: the task is gone here;
 * the tail is skipped). Sets r->bad when it is malformed. */
void nw_resend_read(nw_reader *r, nw_task_state *t);
/* Forgets the entry for subtask s (a copy offered but not taken). */
void nw_resend_drop(nw_task_state *t, uint64_t s);
void nw_resend_free(nw_task_state *t);

#endif
