/* viewcheck.h: views that hold exactly the subscribed bytes, for catching kernels that touch
 * bytes they did not subscribe to (--check-views, on by default in sanitizer builds).
 *
 * Normally a CPU subtask's read view is the node's whole copy of the space and its write view
 * a buffer spanning its writes' byte range, so a kernel that strays outside its subscriptions
 * silently reads bytes that may be stale or writes bytes that are never committed. When views
 * are checked:
 * - a read view is a private buffer holding only the subscribed bytes, the rest filled with
 *   the 32-bit word NW_VIEWCHECK_NAN at every 4-byte-aligned offset of the space (and, under
 *   AddressSanitizer, poisoned, so that reading them stops the run with a report naming the
 *   kernel). That word is a quiet NaN as a float and, twice over, as a double, and x86's
 *   arithmetic passes a NaN operand's payload on: a result computed from an unsubscribed
 *   floating-point value is that word again. After the kernel, a written word equal to it
 *   fails the run with a message naming the subtask, the space and the byte (a Jacobi sweep
 *   that forgot its halo). Integer kernels get a large wrong value instead (2146032603);
 *   only the sanitizer build stops those at the read;
 * - a write view keeps a shadow of its initial bytes, the unsubscribed ones poisoned under
 *   AddressSanitizer; after the kernel, any byte outside the subtask's writes that differs
 *   from the shadow fails the run with a message naming the subtask, space and byte.
 * GPU views (device memory rectangles) are not checked.
 */
#ifndef NW_VIEWCHECK_H
#define NW_VIEWCHECK_H

#include "region.h"

typedef struct nw_exec nw_exec;

#define NW_VIEWCHECK_MARGIN 65536

/* Byte value of a checked write-only view before the kernel: what it leaves unwritten is
 * recognisable (not the NaN below, which would then read as a stray read). */
#define NW_VIEWCHECK_FILL 0xDB
/* The word at each 4-byte-aligned offset of a checked read view's unsubscribed bytes (little
 * endian: bytes DB DB F8 7F). */
#define NW_VIEWCHECK_NAN 0x7FF8DBDBu

/* Replaces view i of a read-only space (space = the node's copy, size bytes) by a private
 * buffer holding exactly `read`'s bytes, over the span of `read` widened on each side by
 * NW_VIEWCHECK_MARGIN or the span's own length, whichever is more (within the space): the
 * bytes next to a subscription, which a kernel that forgot its halo reads, hold the NaN.
 * A read further out leaves the buffer (AddressSanitizer reports it). */
nw_status nw_viewcheck_read_view(nw_exec *e, int i, const unsigned char *space, uint64_t size,
                                 const nw_region *read);
/* Shadows write view i (already filled) and poisons what is neither read nor written. */
nw_status nw_viewcheck_write_view(nw_exec *e, int i, const nw_region *read, const nw_region *write);
/* After the kernel: lifts the poison, frees the checked read views and shadows, and returns
 * 1 with the first byte written outside the subtask's writes (*space index, *byte offset),
 * 2 with the first word of its writes equal to NW_VIEWCHECK_NAN (a value made from bytes it
 * did not subscribe to read; only where one of its views was a checked read view), else 0. */
int nw_viewcheck_finish(nw_exec *e, const nw_region *write, int *space, uint64_t *byte);
/* Frees what checking holds for an exec that never finished (a run ending in failure). */
void nw_viewcheck_drop(nw_exec *e);

#endif
