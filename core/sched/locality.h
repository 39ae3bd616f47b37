/* locality.h: the rules of locality-aware scheduling (paper 4.3.4; UNICORN-NOTES, "Locality
 * scoring"), as pure functions on numbers, so that each is pinned by a unit test
 * (tests/unit/test_locality.c). locality_sched.c applies them to a node's task.
 *
 * Affinity: local(s, k) is how many bytes of subtask s's reads node k holds at the task's
 * start. UNICORN-NOTES' default criterion, "maximize local data" (cost = 2^30 / local bytes),
 * prefers for each subtask the node with the most local bytes, which for a given subtask is
 * the node with the least to fetch: fetch cost(s, k) = read bytes(s) - local(s, k).
 */
#ifndef NW_LOCALITY_H
#define NW_LOCALITY_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

/* Every node keeps local(s, k) for every subtask s and node k (a steal agent needs
 * local(s, stealer) for any stealer), 8 bytes each, and node 0 sends the whole matrix to every
 * node: subtasks x nodes is bounded so that this stays at 32 MiB. */
#define NW_LOCALITY_MAX_ENTRIES (1ull << 22)

/* The initial assignment (UNICORN-NOTES): subtasks in id order; each goes to its most
 * preferred node (most local bytes; ties to the lower completion time, then the lower id)
 * unless that raises the current maximum completion time, in which case it goes to the node
 * that raises the maximum least (ties: most local bytes, then the lower id). The completion
 * time of node k is (subtasks given to k) / capacity[k].
 *   local[k * subtasks + s] = local(s, k); capacity[k] > 0 for each of the nodes.
 * Writes owner[s], the node of subtask s. NW_ERR_ARG for a bad size or capacity, NW_ERR_NOMEM
 * when its bookkeeping cannot be allocated. */
nw_status nw_locality_assign(uint64_t subtasks, int nodes, const uint64_t *local,
                             const int *capacity, uint32_t *owner);

/* The weight of node v in a stealer's random choice of a victim node: 1 + nodes * L / R, where
 * L is how many bytes of the reads of the subtasks first given to v are local to the stealer
 * and R how many bytes those subtasks read in all; 1 when R is 0. At least 1, so every node
 * keeps a chance (steals must still find work anywhere), at most 1 + nodes. */
double nw_locality_victim_weight(int nodes, uint64_t local_bytes, uint64_t read_bytes);

/* An entry of [0, count) with tried[i] == 0, drawn with probability weight[i] / (sum of the
 * untried weights) from the 64-bit uniform number `random`; marks it tried. -1 when every
 * entry is tried. Weights must be > 0. The same inputs give the same entry. */
int nw_locality_pick(const double *weight, unsigned char *tried, int count, uint64_t random);

/* Marks in chosen[] (count entries, cleared first) the min(want, count) entries with the
 * largest gain; among equal gains the later entry wins, so that with no affinity difference
 * the choice is the queue's tail, as without locality (UNICORN-NOTES: stealing takes from the
 * tail). Returns how many it marked, or 0 with nothing marked when it cannot allocate. */
uint64_t nw_locality_choose(const int64_t *gain, size_t count, uint64_t want,
                            unsigned char *chosen);

#endif
