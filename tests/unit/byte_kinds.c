/* byte_kinds.c: see byte_kinds.h. */
#include "byte_kinds.h"

#include <string.h>

nw_status bk_fill_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * BK_CHUNK, BK_CHUNK, BK_CHUNK, 1);
}

void bk_fill_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  memset(nw_view_at(&v[0], i * BK_CHUNK), *(const unsigned char *)t->conf, BK_CHUNK);
}

nw_status bk_inc_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_READ_WRITE, i * BK_CHUNK, BK_CHUNK, BK_CHUNK, 1);
}

void bk_inc_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  unsigned char *p = nw_view_at(&v[0], i * BK_CHUNK);
  for (int k = 0; k < BK_CHUNK; k++)
    p[k]++;
}

nw_status bk_copy_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, i * BK_CHUNK, BK_CHUNK, BK_CHUNK, 1);
  return st != NW_OK ? st : nw_subscribe(s, 1, NW_WRITE_ONLY, i * BK_CHUNK, BK_CHUNK, BK_CHUNK, 1);
}

void bk_copy_kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  (void)t;
  const unsigned char *in = nw_view_at(&v[0], i * BK_CHUNK);
  unsigned char *out = nw_view_at(&v[1], i * BK_CHUNK);
  for (int k = 0; k < BK_CHUNK; k++)
    out[k] = (unsigned char)(in[k] + 1);
}

double bk_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

const nw_task_kind bk_fill_kind = {
    .name = "fill", .subscribe = bk_fill_sub, .cpu_kernel = bk_fill_kernel, .flops = bk_flops};
const nw_task_kind bk_inc_kind = {
    .name = "inc", .subscribe = bk_inc_sub, .cpu_kernel = bk_inc_kernel, .flops = bk_flops};
const nw_task_kind bk_copy_kind = {
    .name = "copy", .subscribe = bk_copy_sub, .cpu_kernel = bk_copy_kernel, .flops = bk_flops};

nw_task *bk_task(nw_runtime *rt, const nw_task_kind *k, unsigned char v, nw_space *a, nw_access aa,
                 nw_space *b) {
  nw_task *t = NULL;
  nw_task_create(rt, k, BK_SUBTASKS, &v, 1, &t);
  nw_task_bind(t, a, aa);
  if (b)
    nw_task_bind(t, b, NW_WRITE_ONLY);
  return t;
}

int bk_holds(nw_space *s, unsigned char v) {
  unsigned char got[BK_BYTES];
  if (nw_space_read(s, 0, got, BK_BYTES) != NW_OK)
    return 0;
  for (int k = 0; k < BK_BYTES; k++)
    if (got[k] != v)
      return 0;
  return 1;
}
