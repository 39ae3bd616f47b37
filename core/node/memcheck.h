/* memcheck.h: whether a functional run's address spaces fit the memory it has: refused with
 * one line before they are made, rather than killed by the kernel's out-of-memory killer
 * halfway.
 *
 * In functional data mode every node that takes part in a task binding a space maps a copy of
 * the whole space (space.c: calloc, whose pages fill as they are touched), and the driver keeps
 * host buffers of its own. With S the bytes of every space the run has created so far (each
 * rounded up to whole rows, nw_space_copy_bytes) and N its nodes, the run needs at least
 *   RAM, on the machine node 0 runs on: node 0's copy (the driver writes the inputs there and
 *     reads the results back), the driver's own copy of them (every built-in app keeps its
 *     inputs, most a reference result besides) and, for each other node whose data lives in
 *     that RAM, its share of the data, S / N:   S * 2 + (S / N) * (ram_nodes - 1);
 *   address space, in node 0's process: a whole copy per node it holds (mapped whole however
 *     little is touched), the driver's, and what the backend maps for itself (the simulator's
 *     modelled GPU memories):   S * (address_nodes + 1) + address_backend.
 * A resilient run (one that survives lost nodes, recover.c) adds node 0's replica of every
 * space, S more in both: the replica fills as tasks complete and the driver writes.
 * Both are floors, measured against every built-in app (docs/experiments/memory-check.md):
 * private views, messages in flight and libraries' buffers come on top, so a refused run could
 * not have fitted, while one that passes may still run out.
 */
#ifndef NW_MEMCHECK_H
#define NW_MEMCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

typedef struct nw_memory_need {
  uint64_t ram, address; /* saturating at UINT64_MAX */
} nw_memory_need;

/* What `spaces` spaces of space_bytes bytes in all need on a run of `nodes` nodes, as above;
 * replica: the run is resilient, so node 0 keeps a replica of every space. */
nw_memory_need nw_memcheck_need(const nw_memory_room *room, uint64_t space_bytes, int nodes,
                                int replica);

/* NW_OK when the need fits the room; else NW_ERR_ARG with one line in why: "the run needs ~N
 * GB of memory for its ..., this machine has M GB available", or "... of address space ...,
 * the address-space limit (ulimit -v) leaves M GB" when that binds (checked first: mapping
 * fails at once, where RAM may still be freed by others). */
nw_status nw_memcheck(const nw_memory_room *room, uint64_t space_bytes, int spaces, int nodes,
                      int replica, char *why, size_t why_len);

/* "5.3 GB": bytes in GB (10^9), two significant digits below 10 GB; below 0.1 GB in MB. */
void nw_memcheck_gb(uint64_t bytes, char *out, size_t len);

#endif
