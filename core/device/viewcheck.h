/* viewcheck.h: views that hold exactly the subscribed bytes, for catching kernels that touch
 * bytes they did not subscribe to (--check-views, on by default in sanitizer builds).
 *
 * Normally a CPU subtask's read view is the node's whole copy of the space and its write view
 * a buffer spanning its writes' byte range, so a kernel that strays outside its subscriptions
 * silently reads bytes that may be stale or writes bytes that are never committed. When views
 * are checked:
 * - a read view is a private buffer holding only the subscribed bytes, the rest filled with
 *   0xDB (and, under AddressSanitizer, poisoned, so that reading them stops the run with a
 *   report naming the kernel);
 * - a write view keeps a shadow of its initial bytes, the unsubscribed ones poisoned under
 *   AddressSanitizer; after the kernel, any byte outside the subtask's writes that differs
 *   from the shadow fails the run with a message naming the subtask, space and byte.
 * GPU views (device memory rectangles) are not checked.
 */
#ifndef NW_VIEWCHECK_H
#define NW_VIEWCHECK_H

#include "region.h"

typedef struct nw_exec nw_exec;

/* Byte value of the unsubscribed bytes of a checked read view. */
#define NW_VIEWCHECK_FILL 0xDB

/* Replaces view i of a read-only space (space = the node's copy) by a private buffer holding
 * exactly `read`. */
nw_status nw_viewcheck_read_view(nw_exec *e, int i, const unsigned char *space,
                                 const nw_region *read);
/* Shadows write view i (already filled) and poisons what is neither read nor written. */
nw_status nw_viewcheck_write_view(nw_exec *e, int i, const nw_region *read, const nw_region *write);
/* After the kernel: lifts the poison, frees the checked read views and shadows, and returns 1
 * with the first byte written outside the subtask's writes (*space index, *byte offset), else
 * 0. */
int nw_viewcheck_finish(nw_exec *e, const nw_region *write, int *space, uint64_t *byte);
/* Frees what checking holds for an exec that never finished (a run ending in failure). */
void nw_viewcheck_drop(nw_exec *e);

#endif
