/* byte_kinds.h: small task kinds over spaces of BK_BYTES bytes, a chunk of BK_CHUNK bytes per
 * subtask and BK_SUBTASKS subtasks, whose results are easy to check byte by byte; shared by
 * the tests of which tasks run when (test_task_graph.c, test_nested.c). */
#ifndef NW_TEST_BYTE_KINDS_H
#define NW_TEST_BYTE_KINDS_H

#include "narwhal.h"

enum { BK_CHUNK = 64, BK_SUBTASKS = 4, BK_BYTES = BK_CHUNK * BK_SUBTASKS };

/* fill: space 0 := conf[0]. inc: space 0 += 1 (read-write). copy: space 1 := space 0 + 1. */
extern const nw_task_kind bk_fill_kind, bk_inc_kind, bk_copy_kind;
/* The kinds' parts, for kinds that add a spawn callback to them. */
nw_status bk_fill_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i);
void bk_fill_kernel(const nw_task_info *t, uint64_t i, const nw_view *v);
nw_status bk_inc_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i);
void bk_inc_kernel(const nw_task_info *t, uint64_t i, const nw_view *v);
nw_status bk_copy_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i);
void bk_copy_kernel(const nw_task_info *t, uint64_t i, const nw_view *v);
double bk_flops(const nw_task_info *t, uint64_t i, nw_device_kind k);

/* A task of kind k with BK_SUBTASKS subtasks and conf[0] = v, binding a with access aa and, if
 * not NULL, b write-only. */
nw_task *bk_task(nw_runtime *rt, const nw_task_kind *k, unsigned char v, nw_space *a, nw_access aa,
                 nw_space *b);
/* Whether every byte of s (BK_BYTES bytes) is v. */
int bk_holds(nw_space *s, unsigned char v);

#endif
