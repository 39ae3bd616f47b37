/* space_state.h: one address space as a node knows it (nw_space_state), apart from the
 * functions of space.c (space.h), so that the task's and the node's state can hold spaces
 * without the fetch protocol's declarations. */
#ifndef NW_SPACE_STATE_H
#define NW_SPACE_STATE_H

#include <stdint.h>

#include "chunked.h"
#include "directory.h"
#include "region.h"
#include "tally.h"
#include "touched.h"

typedef struct nw_held_fetch nw_held_fetch;
typedef struct nw_trace_ask nw_trace_ask; /* --trace: a fetch not yet answered (space.c) */

/* One address space as this node knows it (paper section 3). */
typedef struct nw_space_state {
  uint64_t id, size, pitch;
  int master, creator;
  unsigned char *data; /* this node's copy, laid out as the space (functional mode only) */
  void *data_block;    /* the allocation `data` starts a page into (space.c: calloc_pages) */
  nw_region owned;     /* regions this node owns: its part of the ownership directory */
  nw_chunked resident; /* owned + fetched: the temporary ownership directory (chunked.h) */
  nw_region inflight;  /* requested, not yet arrived */
  /* Every byte that ever arrived here in a fetch's reply, and every byte this node ever sent
   * in one: for nw_stats.bytes_received_unique and bytes_served_unique only (no decision reads
   * them). A tally, not a region: see tally.h. */
  nw_tally received, served;
  /* Pages of `data` this node's handlers or kernels wrote: the first write to each is a page
   * fault (touched.h), counted in nw_stats.space_pages_fresh where a handler pays it. */
  nw_touched touched;
  int task_wrote; /* a task that writes it was bound here (nw_space_read_first) */
  /* Starts and ends here of tasks that write this space, and driver writes to it (each moves
   * it on by one). Every node sees each task start and end and each driver write, so the count
   * agrees between nodes for a given state of the bytes. A fetch carries the requester's version
   * and its data comes back with it: data asked for under an older version is stale and dropped
   * (space.c), since the task end reset `resident` and `inflight`, or the task's start may already
   * have committed results over those bytes (nw_space_new_version). */
  uint64_t version;
  /* Node 0: a task has bound this space, so other nodes may hold copies of its bytes and a
   * driver write must tell them (nw_space_claim). */
  int shared;
  nw_directory *dir; /* the master directory; only on the master */
  /* Node 0 of a resilient run: the space's bytes as the last completed task or driver write
   * left them (recover.c), functional data only. */
  unsigned char *replica;
  /* Master: update rounds under way for tasks that write the space (task.c). Meanwhile the
   * directory is half updated, so fetches are held and routed once the round settles. */
  int updating;
  nw_held_fetch *held;
  nw_trace_ask *asked; /* --trace only: this node's requests and when it made them */
  /* Node 0's task graph (graph.c): the last queued task to write the space, the queued ones
   * that read it since, and how many queued tasks bind it at all. */
  struct nw_submitted *writer;
  struct nw_submitted **readers;
  size_t nreaders, capreaders;
  uint64_t uses;
  struct nw_space_state *next;
} nw_space_state;

#endif
