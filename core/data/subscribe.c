/* subscribe.c: collecting a subtask's subscriptions (paper section 2, Fig. 1 lines 46-62).
 *
 * The application's callback calls nw_subscribe() once per quad; each call is checked against
 * the space's size and the access the task bound it with, so a bad subscription is reported
 * with the subtask, space and quad instead of reading or writing out of bounds later.
 */
#include <stdio.h>

#include "node_internal.h"
#include "reduce.h"

struct nw_subscriber {
  const nw_task_info *info;
  const nw_access *access;
  uint64_t subtask;
  nw_region *read, *write;
  char *why;
  size_t why_len;
};

nw_status nw_subscribe(nw_subscriber *s, int space_index, nw_access access, uint64_t offset,
                       uint64_t length, uint64_t step, uint64_t count) {
  if (!s)
    return NW_ERR_ARG;
  if (space_index < 0 || space_index >= s->info->nspaces) {
    snprintf(s->why, s->why_len, "subtask %llu subscribes to space index %d; the task binds %d",
             (unsigned long long)s->subtask, space_index, s->info->nspaces);
    return NW_ERR_ARG;
  }
  nw_access bound = s->access[space_index];
  if ((access & ~bound) != 0 || access == 0) {
    snprintf(s->why, s->why_len,
             "subtask %llu subscribes to space index %d for %s, but the task binds it %s",
             (unsigned long long)s->subtask, space_index,
             access == NW_READ_ONLY ? "reading" : "writing",
             bound == NW_READ_ONLY ? "read-only" : "write-only");
    return NW_ERR_STATE;
  }
  nw_quad q = {offset, length, step, count};
  char reason[256];
  nw_status st = nw_quad_check(q, s->info->space_size[space_index], reason, sizeof reason);
  if (st != NW_OK) {
    snprintf(s->why, s->why_len, "subtask %llu, space index %d: %s", (unsigned long long)s->subtask,
             space_index, reason);
    return st;
  }
  if (access & NW_READ_ONLY)
    st = nw_region_add_quad(&s->read[space_index], q);
  if (st == NW_OK && (access & NW_WRITE_ONLY))
    st = nw_region_add_quad(&s->write[space_index], q);
  return st;
}

nw_status nw_subscribe_keys(nw_subscriber *s, int space_index, nw_elem_type type, uint64_t first,
                            uint64_t count) {
  if (!s)
    return NW_ERR_ARG;
  uint64_t es = nw_reduce_elem_size(type);
  if (!es || count == 0) {
    snprintf(s->why, s->why_len, "subtask %llu, space index %d: %s", (unsigned long long)s->subtask,
             space_index, es ? "subscribes no keys" : "keys of an unknown element type");
    return NW_ERR_ARG;
  }
  if (first > UINT64_MAX / es || count > UINT64_MAX / es || first * es > UINT64_MAX - count * es) {
    snprintf(s->why, s->why_len,
             "subtask %llu, space index %d: %llu keys from key %llu end past 2^64 bytes",
             (unsigned long long)s->subtask, space_index, (unsigned long long)count,
             (unsigned long long)first);
    return NW_ERR_RANGE;
  }
  /* one quad of whole elements: aligned as a reduced space needs */
  return nw_subscribe(s, space_index, NW_WRITE_ONLY, first * es, count * es, count * es, 1);
}

nw_status nw_subscriptions(const nw_task_kind *kind, const nw_task_info *info,
                           const nw_access *access, uint64_t subtask, nw_region *read,
                           nw_region *write, char *why, size_t why_len) {
  for (int i = 0; i < info->nspaces; i++) {
    nw_region_init(&read[i], info->space_pitch[i]);
    nw_region_init(&write[i], info->space_pitch[i]);
  }
  nw_subscriber s = {info, access, subtask, read, write, why, why_len};
  why[0] = '\0';
  nw_status st = kind->subscribe(&s, info, subtask);
  if (st != NW_OK && !why[0])
    snprintf(why, why_len, "subtask %llu: subscription callback failed (status %d)",
             (unsigned long long)subtask, (int)st);
  /* A read-write subtask updates what it writes: it needs those bytes first. */
  for (int i = 0; st == NW_OK && i < info->nspaces; i++)
    if (access[i] == NW_READ_WRITE)
      st = nw_region_add(&read[i], &write[i]);
  return st;
}
