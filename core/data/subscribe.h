/* subscribe.h: a subtask's subscriptions, as its task kind's callbacks give them
 * (subscribe.c): what it reads and writes of each bound space, and its scratch buffer. */
#ifndef NW_SUBSCRIBE_H
#define NW_SUBSCRIBE_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"
#include "region.h"

/* A subtask's scratch buffer (nw_subscribe_scratch): its size, and its host bytes as the
 * subscription callback filled them (NULL without data, or where none was asked for). */
typedef struct nw_scratch {
  uint64_t bytes;
  unsigned char *buf;
  int with_buffer; /* in: allocate buf (functional data) */
  int filled;      /* the callback asked to fill it: a GPU copies it in */
} nw_scratch;

/* subscribe.c */
/* Room for a subtask's subscriptions to nspaces spaces: nspaces read regions, then nspaces
 * write regions (NULL on no memory); and their end (the regions, then the block). */
nw_region *nw_subscription_sets(int nspaces);
void nw_subscription_sets_free(nw_region *sets, int nspaces);
nw_status nw_subscriptions(const nw_task_kind *kind, const nw_task_info *info,
                           const nw_access *access, uint64_t subtask, nw_region *read,
                           nw_region *write, char *why, size_t why_len);
/* The same, also giving the subtask's scratch buffer (scratch->with_buffer: with its host
 * bytes, which the caller frees). */
nw_status nw_subscriptions_scratch(const nw_task_kind *kind, const nw_task_info *info,
                                   const nw_access *access, uint64_t subtask, nw_region *read,
                                   nw_region *write, nw_scratch *scratch, char *why,
                                   size_t why_len);

#endif
