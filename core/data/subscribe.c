/* subscribe.c: collecting a subtask's subscriptions (paper section 2, Fig. 1 lines 46-62).
 *
 * The application's callback calls nw_subscribe() once per quad; each call is checked against
 * the space's size and the access the task bound it with, so a bad subscription is reported
 * with the subtask, space and quad instead of reading or writing out of bounds later.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reduce.h"
#include "subscribe.h"

struct nw_subscriber {
  const nw_task_info *info;
  const nw_access *access;
  uint64_t subtask;
  nw_region *read, *write;
  char *why;
  size_t why_len;
  nw_scratch *scratch; /* NULL: the caller needs no buffer (a check); the size is still checked */
  uint64_t scratch_bytes;
};

nw_status nw_subscribe_scratch(nw_subscriber *s, uint64_t bytes, void **fill) {
  if (fill)
    *fill = NULL;
  if (!s)
    return NW_ERR_ARG;
  if (bytes == 0) {
    snprintf(s->why, s->why_len, "subtask %llu asks for a scratch buffer of 0 bytes",
             (unsigned long long)s->subtask);
    return NW_ERR_ARG;
  }
  if (s->scratch_bytes) {
    snprintf(s->why, s->why_len,
             "subtask %llu asks for a second scratch buffer; a subtask has at most one",
             (unsigned long long)s->subtask);
    return NW_ERR_STATE;
  }
  s->scratch_bytes = bytes;
  if (s->scratch)
    s->scratch->filled = fill != NULL;
  if (!s->scratch || !s->scratch->with_buffer)
    return NW_OK;
  s->scratch->buf = calloc(1, bytes);
  if (!s->scratch->buf) {
    snprintf(s->why, s->why_len, "subtask %llu: no memory for a scratch buffer of %llu bytes",
             (unsigned long long)s->subtask, (unsigned long long)bytes);
    return NW_ERR_NOMEM;
  }
  if (fill)
    *fill = s->scratch->buf;
  return NW_OK;
}

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

nw_status nw_subscriptions_scratch(const nw_task_kind *kind, const nw_task_info *info,
                                   const nw_access *access, uint64_t subtask, nw_region *read,
                                   nw_region *write, nw_scratch *scratch, char *why,
                                   size_t why_len) {
  for (int i = 0; i < info->nspaces; i++) {
    nw_region_init(&read[i], info->space_pitch[i]);
    nw_region_init(&write[i], info->space_pitch[i]);
  }
  if (scratch) {
    scratch->bytes = 0;
    scratch->buf = NULL;
  }
  nw_subscriber s = {info, access, subtask, read, write, why, why_len, scratch, 0};
  why[0] = '\0';
  nw_status st = kind->subscribe(&s, info, subtask);
  if (st != NW_OK && !why[0])
    snprintf(why, why_len, "subtask %llu: subscription callback failed (status %d)",
             (unsigned long long)subtask, (int)st);
  /* A read-write subtask updates what it writes: it needs those bytes first. */
  for (int i = 0; st == NW_OK && i < info->nspaces; i++)
    if (access[i] == NW_READ_WRITE)
      st = nw_region_add(&read[i], &write[i]);
  if (scratch && st == NW_OK)
    scratch->bytes = s.scratch_bytes;
  if (scratch && st != NW_OK) {
    free(scratch->buf);
    scratch->buf = NULL;
  }
  return st;
}

nw_status nw_subscriptions(const nw_task_kind *kind, const nw_task_info *info,
                           const nw_access *access, uint64_t subtask, nw_region *read,
                           nw_region *write, char *why, size_t why_len) {
  return nw_subscriptions_scratch(kind, info, access, subtask, read, write, NULL, why, why_len);
}

nw_region *nw_subscription_sets(int nspaces) {
  return calloc(2 * (size_t)(nspaces > 0 ? nspaces : 1), sizeof(nw_region));
}

void nw_subscription_sets_free(nw_region *sets, int nspaces) {
  for (int i = 0; sets && i < 2 * nspaces; i++)
    nw_region_free(&sets[i]);
  free(sets);
}
