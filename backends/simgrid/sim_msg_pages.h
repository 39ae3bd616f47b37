/* sim_msg_pages.h: how many pages of a message's buffer are fresh, as the C library hands them
 * out.
 *
 * On hardware a rank packs each message it sends into a buffer it allocates, and receives each
 * message into another one (backends/real/real_net.c). A page of a buffer that the allocator
 * takes from the kernel is zeroed and mapped at its first touch: 1.2-1.9 us, ten times a warm
 * copy of it. Between two ranks of one host a 7 MB message took 5.6-6.0 ms in buffers mapped
 * afresh, 0.5-1.0 ms in reused ones (docs/experiments/message-buffers.md), and the first
 * messages of a run are the fresh ones: two-rank matmul 3072/768 started its first kernels
 * 13-23 ms into the task on hardware, 1.4-2.2 ms in simulation without this model.
 *
 * Which pages are fresh follows glibc's malloc as mallopt(3) documents it: a request of at
 * least M_MMAP_THRESHOLD bytes (128 KiB at first) is mapped on its own, all of it fresh; freeing
 * such a block raises the threshold to its size (up to 32 MiB on 64-bit systems, the dynamic
 * threshold since glibc 2.8) and the trim threshold to twice that. Smaller requests come from
 * the heap, fresh only where it must grow past the pages it touched before (the heap grows by
 * the request and M_TOP_PAD, 128 KiB, whose pages stay untouched until used); freeing leaves the
 * pages with the heap until the trim threshold or more lies free at its top, free pages and
 * untouched ones together (then all but M_TOP_PAD go back). Free heap bytes serve any request
 * they can hold, even one past the threshold. Fragmentation and the process's other
 * allocations are ignored: the model counts a node's message buffers alone, freed buffers
 * lying at the heap's top. So a rank that holds one buffer of a size at a time reuses its pages
 * from the third message on, and one that holds two at once (a message sent while one of the
 * same size is received) frees 2 x its size plus the pad at once and gives them back: fresh
 * pages every time (benchmarks/message-buffers.sh measures both).
 *
 * Pure C: no SimGrid here, so the model is unit-tested alone (tests/sim/test_msg_pages.c). */
#ifndef NW_SIM_MSG_PAGES_H
#define NW_SIM_MSG_PAGES_H

#include <stdint.h>

typedef struct sim_msg_pages {
  uint64_t mmap_threshold; /* 0 before sim_msg_pages_alloc's first call: 128 KiB */
  uint64_t trim_threshold;
  /* Bytes of the heap in buffers now; touched (in buffers or freed); past those, at its top,
   * taken from the system but not touched yet (what an extension takes beyond the request). */
  uint64_t heap_live, heap_held, heap_untouched;
} sim_msg_pages;

/* A buffer as allocated: whether it was mapped on its own (what freeing it needs to know). */
typedef struct sim_msg_buffer {
  uint64_t bytes; /* the chunk's: a mapped one's in whole pages; 0: no buffer */
  int mapped;
} sim_msg_buffer;

/* Allocates `bytes` for a message; returns the fresh pages (4 KiB) the allocation brings and
 * fills *b for sim_msg_pages_free. */
uint64_t sim_msg_pages_alloc(sim_msg_pages *m, uint64_t bytes, sim_msg_buffer *b);

/* Frees a buffer that sim_msg_pages_alloc gave. */
void sim_msg_pages_free(sim_msg_pages *m, const sim_msg_buffer *b);

#endif
