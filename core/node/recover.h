/* recover.h: surviving a lost node (recover.c): the membership of a resilient run, its
 * renumbering of nodes, and the backups and replicas a recovery rolls back to. */
#ifndef NW_RECOVER_H
#define NW_RECOVER_H

#include <stddef.h>
#include <stdint.h>

#include "node.h"
#include "space_state.h"
#include "wire.h"

typedef struct nw_stashed nw_stashed;
typedef struct nw_task_state nw_task_state;

/* Surviving lost nodes (recover.c); allocated in resilient runs only. Ids in the node's
 * configuration are logical: after a loss the survivors are renumbered 0..nodes-1 in their
 * original order, so that every policy and protocol sees an ordinary smaller cluster; the
 * backend keeps the original ids. */
typedef struct nw_membership {
  int home;                     /* this node's original (the backend's) id */
  uint32_t epoch;               /* recoveries begun; every message carries it */
  int to_backend[NW_MAX_NODES]; /* logical id -> backend id */
  int to_logical[NW_MAX_NODES]; /* backend id -> logical id; -1: lost */
  int original_nodes;
  int original_devices[NW_MAX_NODES];     /* every node's devices, by backend id */
  const nw_device_desc *original_cluster; /* the backend's, by backend id; may be NULL */
  nw_device_desc *cluster; /* the survivors' devices (cfg.cluster after a loss), owned here */
  /* A survivor between MSG_RECOVER and MSG_RECOVER_DONE: messages of the new epoch wait. */
  int awaiting_done;
  nw_stashed *held;
  /* Node 0 during a recovery: MSG_RECOVER_READY still awaited, and the highest space version
   * reported; the tasks it rolled back, to start again (their driver handles). */
  int ready_pending;
  uint64_t max_version;
  /* The spaces the rolled-back tasks (or a driver placement under way) wrote: node 0 takes
   * them whole from its replica; the others keep their owners (node 0's list, accumulated over
   * the recoveries of one epoch's sequence; a survivor's, as node 0 sent it). */
  uint64_t *dirty;
  size_t ndirty, capdirty;
  /* Node 0: what each survivor reported owning of the other spaces (MSG_RECOVER_READY). */
  struct nw_owned_report *reports;
} nw_membership;

/* recover.c: surviving a lost node (resilient runs; n->members NULL otherwise) */
nw_status nw_recover_init(nw_node *n);
void nw_recover_free(nw_node *n);
/* This node's original (backend) id, which traces report. */
int nw_node_home(const nw_node *n);
/* A logical node id to the backend's, and back (-1: a lost node). */
int nw_recover_backend_id(const nw_node *n, int logical);
int nw_recover_logical_id(const nw_node *n, int backend);
/* Appends the epoch to a message about to be sent. */
void nw_recover_tag(const nw_node *n, nw_writer *w);
/* A message arrived from backend node *src: 1 to handle it (*src now logical, *len without
 * the epoch); 0 when it was dropped (sent before a recovery, or by a lost node) or held until
 * the recovery under way is done; the buffer is then no longer the caller's. */
int nw_recover_admit(nw_node *n, int *src, void *buf, size_t *len);
/* A recovery is under way here: no task starts, driver calls wait. */
int nw_recover_busy(const nw_node *n);
void nw_recover_on_lost(nw_node *n, int backend_id, double at_s);
void nw_recover_on_recover(nw_node *n, nw_reader *r);
void nw_recover_on_ready(nw_node *n, int src, nw_reader *r);
void nw_recover_on_done(nw_node *n, nw_reader *r);
void nw_recover_on_backup(nw_node *n, nw_reader *r);

#endif
