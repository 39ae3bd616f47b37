/* replica.h: node 0's replica in a resilient run (replica.c). */
#ifndef NW_REPLICA_H
#define NW_REPLICA_H

#include <stdint.h>

#include "region.h"

typedef struct nw_node nw_node;
typedef struct nw_task_state nw_task_state;
typedef struct nw_space_state nw_space_state;

/* What a node wrote of one space in one task, as node 0 keeps it until the task completes. */
typedef struct nw_backup {
  uint64_t space;
  nw_region region;
  unsigned char *bytes; /* functional data: the region's bytes, packed */
  struct nw_backup *next;
} nw_backup;

void nw_backups_free(nw_backup *b);
/* A node other than 0, at t's end: the bytes t wrote here go to node 0 (nothing when the run
 * is not resilient). */
void nw_replica_send_backup(nw_node *n, nw_task_state *t);
/* Node 0, t complete: every node's bytes of it go into the replica. */
void nw_replica_task_complete(nw_node *n, nw_task_state *t);
/* A driver write of len bytes at offset goes into s's replica too (if it has one). */
void nw_replica_write(nw_space_state *s, uint64_t offset, const void *src, uint64_t len);

#endif
