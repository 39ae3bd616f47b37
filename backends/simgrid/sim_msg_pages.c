/* sim_msg_pages.c: see sim_msg_pages.h. */
#include "sim_msg_pages.h"

#define PAGE 4096u
#define MMAP_THRESHOLD_START (128u << 10)           /* mallopt(3): M_MMAP_THRESHOLD */
#define MMAP_THRESHOLD_MAX ((uint64_t)4 << 20 << 3) /* 4 MiB * sizeof(long): 32 MiB */
#define TOP_PAD (128u << 10)                        /* mallopt(3): M_TOP_PAD */

static uint64_t pages(uint64_t bytes) {
  return (bytes + PAGE - 1) / PAGE;
}

/* A request's chunk: its bytes and a size word, in 16-byte units (glibc on 64-bit systems). The
 * thresholds compare chunks: a mapped chunk is whole pages, so once one is freed, a request of
 * the same size comes from the heap. */
static uint64_t chunk(uint64_t bytes) {
  uint64_t c = (bytes + 8 + 15) & ~(uint64_t)15;
  return c < 32 ? 32 : c;
}

uint64_t sim_msg_pages_alloc(sim_msg_pages *m, uint64_t bytes, sim_msg_buffer *b) {
  if (m->mmap_threshold == 0) {
    m->mmap_threshold = MMAP_THRESHOLD_START;
    m->trim_threshold = MMAP_THRESHOLD_START;
  }
  uint64_t c = chunk(bytes);
  /* The heap's free bytes serve first (its top chunk); only a request they cannot serve and
   * past the threshold is mapped. */
  *b = (sim_msg_buffer){.bytes = c,
                        .mapped = c >= m->mmap_threshold && m->heap_held - m->heap_live < c};
  if (b->mapped) {
    b->bytes = pages(c + 8) * PAGE; /* and the mapping's own size word */
    return b->bytes / PAGE;
  }
  m->heap_live += c;
  if (m->heap_live <= m->heap_held)
    return 0;
  uint64_t grow = m->heap_live - m->heap_held, fresh = pages(m->heap_live) - pages(m->heap_held);
  /* Past the untouched top, the heap is extended by what it lacks and the pad. */
  m->heap_untouched = grow <= m->heap_untouched ? m->heap_untouched - grow : TOP_PAD;
  m->heap_held = m->heap_live;
  return fresh;
}

void sim_msg_pages_free(sim_msg_pages *m, const sim_msg_buffer *b) {
  if (b->bytes == 0)
    return;
  if (b->mapped) {
    if (b->bytes > m->mmap_threshold && b->bytes <= MMAP_THRESHOLD_MAX) {
      m->mmap_threshold = b->bytes;
      m->trim_threshold = 2 * b->bytes;
    }
    return;
  }
  m->heap_live = m->heap_live > b->bytes ? m->heap_live - b->bytes : 0;
  uint64_t free_top = m->heap_held - m->heap_live;
  if (free_top + m->heap_untouched >= m->trim_threshold) { /* all but the pad goes back */
    uint64_t kept = free_top < TOP_PAD ? free_top : TOP_PAD;
    m->heap_held = m->heap_live + kept;
    m->heap_untouched = TOP_PAD - kept;
  }
}
