/* reduce.h: combining bytes that several subtasks wrote (paper sections 4.5-4.6).
 *
 * The built-in operations of nw_reduce_op over the element types of nw_elem_type, and the one
 * step every reduction is made of: merging a result (a view over [lo, ...)) into a node's copy
 * of a space, where bytes already written in this task are combined and the others copied.
 * A subtask's commit (device/pipeline.c) and a partial result arriving from another node
 * (node/reduce_tree.c) both go through nw_reduce_merge.
 */
#ifndef NW_REDUCE_H
#define NW_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"
#include "region.h"

/* How one bound space's writes are combined; op 0 means not reduced. */
typedef struct nw_reducer {
  nw_reduce_op op;
  nw_elem_type type;
  /* For NW_REDUCE_CUSTOM: the kind's callback, its task and the space's binding index. */
  const nw_task_kind *kind;
  const nw_task_info *info;
  int space;
} nw_reducer;

/* Bytes of one element of `type`; 0 for an unknown type. */
size_t nw_reduce_elem_size(nw_elem_type type);
/* Whether op and type name a known operation ("add", "bit_xor", ...; NULL when unknown). */
const char *nw_reduce_op_name(nw_reduce_op op);
const char *nw_reduce_type_name(nw_elem_type type);

/* into[k] = into[k] op from[k] for the `bytes / element size` elements at both pointers (no
 * alignment needed). Only for built-in ops; `bytes` is a multiple of the element size. */
void nw_reduce_builtin(nw_reduce_op op, nw_elem_type type, void *into, const void *from,
                       uint64_t bytes);

/* into = into op from for one element of `type` (no alignment needed): nw_reduce_builtin's
 * combination, specialised per op and type for callers that fold one element at a time (the
 * emitters of emit.c). NULL for NW_REDUCE_CUSTOM or an unknown op or type. */
typedef void (*nw_reduce_fold_fn)(void *into, const void *from);
nw_reduce_fold_fn nw_reduce_fold(nw_reduce_op op, nw_elem_type type);

/* Whether every byte run of r starts and ends on a multiple of elem_size (as offsets in the
 * space). */
int nw_reduce_aligned(const nw_region *r, size_t elem_size);

/* Merges the bytes of `what`, held by `view` from space offset lo on (view[b - lo] is byte b),
 * into `space` (the node's copy, byte b at space[b]): bytes of `what` inside `done` (already
 * written in this task) are combined with red, the others copied. The caller then adds `what`
 * to `done`. Returns the bytes combined, or (uint64_t)-1 when out of memory. */
uint64_t nw_reduce_merge(const nw_reducer *red, const nw_region *what, const unsigned char *view,
                         uint64_t lo, unsigned char *space, const nw_region *done);

#endif
