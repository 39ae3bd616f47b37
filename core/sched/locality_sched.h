/* locality_sched.h: locality-aware scheduling applied to a node's task (locality_sched.c):
 * a task's affinities, the initial assignment's messages, and affinity-aware steals. The
 * rules themselves are pure functions in locality.h, which names no node state. */
#ifndef NW_LOCALITY_SCHED_H
#define NW_LOCALITY_SCHED_H

#include <stdint.h>

#include "steal.h"
#include "wire.h"

typedef struct nw_task_state nw_task_state;

/* A task's locality-aware scheduling state (locality_sched.c); only with sched.locality on. */
typedef struct nw_task_locality {
  uint64_t *read;       /* [s]: bytes subtask s reads (every node computes its own) */
  uint64_t *local;      /* [k * subtasks + s]: local(s, k); this node's row, all once assigned */
  uint32_t *owner;      /* [s]: the node of subtask s in the initial assignment */
  double *node_weight;  /* [k]: weight of node k as a victim of this node's stealers */
  double *dev_weight;   /* [g]: the same per device of the cluster (one-level stealing) */
  unsigned char *heard; /* node 0: the nodes whose vector arrived */
  int vectors;          /* node 0: how many */
  int assigned;         /* the assignment is here: devices have their queues */
  /* Node 0, every row in: the policy that asked for the matrix decides (NULL: the locality
   * assignment below). */
  void (*gathered)(nw_node *n, nw_task_state *t);
} nw_task_locality;

/* locality_sched.c: locality-aware scheduling (paper 4.3.4) */
/* At task start: affinities to node 0, which assigns (gathered NULL), or calls gathered(n, t)
 * once every node's row is in (l->local holds the whole matrix there; other nodes have only
 * their own row and wait for that policy's message). */
void nw_locality_start(nw_node *n, nw_task_state *t,
                       void (*gathered)(nw_node *n, nw_task_state *t));
void nw_locality_on_vector(nw_node *n, int src, nw_reader *r);
void nw_locality_on_assign(nw_node *n, int src, nw_reader *r);
/* Affinity-aware steal by a remote stealer: moves up to `want` of device v's queued subtasks
 * with the largest local(s, stealer) - local(s, this node) into out; returns how many. */
uint64_t nw_locality_take(nw_node *n, nw_task_state *t, int v, int stealer, uint64_t want,
                          nw_loot *out);
/* A stealer's victim: an untried entry of tried[0..count) (nodes, or the cluster's devices when
 * per_device) drawn with task t's locality weights; marks it tried; -1 if none. */
int nw_locality_pick_victim(nw_node *n, nw_task_state *t, unsigned char *tried, int count,
                            int per_device);
void nw_locality_free(nw_task_locality *l);

#endif
