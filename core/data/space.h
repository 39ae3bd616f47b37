/* space.h: address spaces and the fetch protocol (space.c): finding and making a node's
 * spaces, requesting and serving their bytes, ownership moves, and a recovery's end. */
#ifndef NW_SPACE_H
#define NW_SPACE_H

#include <stdint.h>

#include "region.h"
#include "space_state.h"
#include "wire.h"

typedef struct nw_node nw_node;

/* Why a node fetches data (paper 4.2): a demand fetch is for a subtask about to run (a
 * device's current one, a stolen or multi-assigned subtask it runs next, the driver's reads);
 * a prefetch is for the subtask pipelining anticipates (slot->next). The class travels in
 * MSG_FETCH, through the master's forwarding, to the owner, which sends the bytes on
 * NW_CHANNEL_DATA or NW_CHANNEL_PREFETCH accordingly. On the wire: one byte. */
typedef enum { NW_FETCH_DEMAND = 0, NW_FETCH_PREFETCH = 1 } nw_fetch_class;

/* space.c */
nw_space_state *nw_space_find(nw_node *n, uint64_t id);
/* Bytes of a node's copy of a space: size, rounded up to whole rows when it has several. */
uint64_t nw_space_copy_bytes(uint64_t size, uint64_t pitch);
nw_space_state *nw_space_get(nw_node *n, uint64_t id, uint64_t size, uint64_t pitch, int master,
                             int creator);
/* r of s's copy was written by one of the node's handlers: marks its pages, and counts those it
 * wrote first in nw_stats.space_pages_fresh (touched.h). */
void nw_space_wrote(nw_node *n, nw_space_state *s, const nw_region *r);
/* r of s's copy is about to be written by a CPU kernel in place: marks its pages and returns
 * how many it will write first (page faults inside the kernel, touched.h), also counted in
 * nw_stats.kernel_pages_fresh; 0 where the node counts no first touches. */
uint64_t nw_space_kernel_writes(nw_node *n, nw_space_state *s, const nw_region *r);
/* The same for the bytes [lo, hi) of s's copy, written by a handler. */
void nw_space_wrote_range(nw_node *n, nw_space_state *s, uint64_t lo, uint64_t hi);
/* A task reads s, and no task wrote it before: without bytes (--data phantom) a program writes
 * no inputs, where with them it wrote all it reads into the creator's copy before the task
 * (nw_space_write, before the run's clock): the creator's pages count as written then, as they
 * would be, and are not counted (the program's writes are not the run's). */
void nw_space_read_first(nw_node *n, nw_space_state *s);
/* Requests what of `need` is neither resident nor in flight. Data already in flight stays at
 * the class it was requested with (see pipeline.c: no upgrade). */
/* Requests the part of `need` that is neither resident nor on its way; adds it to *requested
 * (a region of s's pitch) when that is not NULL. */
nw_status nw_space_need(nw_node *n, nw_space_state *s, const nw_region *need, nw_fetch_class c,
                        nw_region *requested);
int nw_space_has(const nw_space_state *s, const nw_region *need);
void nw_space_on_fetch(nw_node *n, nw_reader *r);
/* 1 when the bytes were taken in (the caller lets waiting subtasks and reads go on). */
int nw_space_on_data(nw_node *n, int src, nw_reader *r);
/* s moves to a new version (a task that writes it starts or ends here, or the driver rewrote
 * it): data asked for before is dropped on arrival, and a driver read still waiting asks
 * again. */
void nw_space_new_version(nw_node *n, nw_space_state *s);
nw_status nw_space_give(nw_node *n, nw_space_state *s, const nw_region *what, int node, int *acks);
void nw_space_on_place(nw_node *n, int src, nw_reader *r);
void nw_space_on_place_dir(nw_node *n, int src, nw_reader *r);
/* Node 0 takes ownership of `what` for a driver write or placement between tasks; every other
 * node drops its ownership and copies of those bytes. *acks counts the acknowledgements to
 * wait for (0 when nobody else can hold them). */
nw_status nw_space_claim(nw_node *n, nw_space_state *s, const nw_region *what, int *acks);
/* The id of the space whose copies of the claimed bytes were dropped (the caller drops the
 * GPUs' cached copies), 0 when the message was bad. */
uint64_t nw_space_on_claim(nw_node *n, int src, nw_reader *r);
void nw_space_free_all(nw_node *n);
/* Master: an update round for a task that writes s begins / settles (routes held fetches). */
void nw_space_round_begins(nw_space_state *s);
void nw_space_round_settled(nw_node *n, nw_space_state *s);

/* space.c: a recovery's end on this node. Every node forgets s's requests in flight and held,
 * node 0 masters s from now on, and s moves to `version`. keep 0 (a rolled-back task wrote s):
 * node 0 owns all of it, from its replica, and the others forget what they owned and held of
 * it. keep 1: the owners keep their bytes and everyone their copies; on node 0, reports[k]
 * (k > 0, cfg.nodes entries; NULL: none) is what survivor k owns, and node 0 owns the rest,
 * taking from the replica the bytes it did not own before (the lost node's). */
nw_status nw_space_recovered(nw_node *n, nw_space_state *s, uint64_t version, int keep,
                             const nw_region *reports);

#endif
