/* devmem.h: first-fit sub-allocation of one GPU's memory budget, as offsets.
 *
 * Unicorn's memory module (paper section 4.1) allocates device memory once and hands out
 * pieces of it. The core keeps the books (offsets into [0, capacity)); a backend turns an
 * offset into a pointer: base of one cudaMalloc'd arena on hardware, of a host buffer in the
 * simulator's functional mode, nothing in phantom mode. Pure arithmetic, no allocation of the
 * managed memory itself.
 */
#ifndef NW_DEVMEM_H
#define NW_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

/* Every block starts on this boundary (cudaMalloc's own alignment). */
#define NW_DEVMEM_ALIGN 256u

typedef struct nw_devmem_hole {
  uint64_t off, len;
} nw_devmem_hole;

typedef struct nw_devmem {
  uint64_t capacity, used;
  nw_devmem_hole *hole; /* free ranges, sorted by offset, never adjacent */
  size_t nhole, caphole;
} nw_devmem;

nw_status nw_devmem_init(nw_devmem *m, uint64_t capacity);
void nw_devmem_free_all(nw_devmem *m);
/* Takes `bytes` (rounded up to the alignment; 0 counts as 1) from the lowest hole that fits.
 * Returns 1 and sets *off, or 0 when no hole is large enough (nothing changes then). */
int nw_devmem_alloc(nw_devmem *m, uint64_t bytes, uint64_t *off);
/* Gives back a block obtained from nw_devmem_alloc with the same byte count; merges holes. */
void nw_devmem_release(nw_devmem *m, uint64_t off, uint64_t bytes);
/* Room for `more` holes beyond those there now, so that that many releases (or claims) cannot
 * fail to grow the array: 1, or 0 when it cannot be allocated (nothing changes then). */
int nw_devmem_reserve(nw_devmem *m, size_t more);
/* Takes back exactly the block [off, off + bytes rounded) that a release just gave back: undoes
 * releases (in reverse order) so that the books are again what they were, holes included (the
 * holes are the maximal free ranges, so the same free bytes give the same holes). Returns 1, or
 * 0 when the range is not free or a hole would be needed beyond the reserve (nothing changes). */
int nw_devmem_claim(nw_devmem *m, uint64_t off, uint64_t bytes);

#endif
