/* replica.c: node 0's replica of every space in a resilient run, the half of recovery a task's
 * life touches (recover.c says what the replica is for): a node other than 0 sends node 0 the
 * bytes a task wrote here (MSG_BACKUP; recover.c takes them in), node 0 applies them when the
 * task completes, and a driver write goes into the replica too. Nothing here calls task.c,
 * recover.c or the driver: they call this. */
#include <stdlib.h>
#include <string.h>

#include "node_internal.h"
#include "replica.h"

void nw_backups_free(nw_backup *b) {
  while (b) {
    nw_backup *next = b->next;
    nw_region_free(&b->region);
    free(b->bytes);
    free(b);
    b = next;
  }
}

void nw_replica_send_backup(nw_node *n, nw_task_state *t) {
  if (!n->members || n->cfg.id == 0)
    return;
  nw_writer w;
  nw_w_init(&w, MSG_BACKUP);
  nw_w_u64(&w, t->id);
  uint32_t entries = 0;
  uint64_t payload = 0;
  for (int i = 0; i < t->info.nspaces; i++)
    entries += (t->bound[i].access & NW_WRITE_ONLY) != 0;
  if (entries == 0) {
    nw_w_free(&w);
    return;
  }
  nw_w_u32(&w, entries);
  for (int i = 0; i < t->info.nspaces; i++) {
    if (!(t->bound[i].access & NW_WRITE_ONLY))
      continue;
    nw_space_state *s = t->bound[i].space;
    uint64_t bytes = nw_region_bytes(&t->written[i]);
    nw_w_u64(&w, s->id);
    nw_w_region(&w, &t->written[i]);
    if (n->cfg.functional) {
      unsigned char *at = nw_w_reserve(&w, bytes);
      if (at)
        nw_region_gather(&t->written[i], s->data, at);
    }
    payload += bytes;
  }
  nw_node_send(n, 0, NW_CHANNEL_DATA, &w, payload);
}

/* Node 0, a task complete: what every node wrote goes into the replica, node 0's own from its
 * copy of the space. */
void nw_replica_task_complete(nw_node *n, nw_task_state *t) {
  if (!n->members || !n->cfg.functional)
    return;
  for (nw_backup *b = t->backups; b; b = b->next) {
    nw_space_state *s = nw_space_find(n, b->space);
    if (s && s->replica && b->bytes)
      nw_region_scatter(&b->region, b->bytes, s->replica);
  }
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_space_state *s = t->bound[i].space;
    if (!(t->bound[i].access & NW_WRITE_ONLY) || !s->replica)
      continue;
    uint64_t bytes = nw_region_bytes(&t->written[i]);
    unsigned char *tmp = bytes ? malloc(bytes) : NULL;
    if (bytes && !tmp) {
      nw_node_fail(n, "node 0: out of memory updating the replica");
      return;
    }
    if (tmp) {
      nw_region_gather(&t->written[i], s->data, tmp);
      nw_region_scatter(&t->written[i], tmp, s->replica);
      free(tmp);
    }
  }
}

void nw_replica_write(nw_space_state *s, uint64_t offset, const void *src, uint64_t len) {
  if (s->replica && len)
    memcpy(s->replica + offset, src, len);
}
