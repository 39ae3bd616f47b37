/* settle_memory.h: leaving recently freed pages for the next process to take (calibrate's and
 * validate's --settle). */
#ifndef NW_TOOL_SETTLE_MEMORY_H
#define NW_TOOL_SETTLE_MEMORY_H

#include <stdint.h>

/* Writes a byte into every page of mib MiB, then unmaps them: the kernel's free lists get that
 * many recently freed pages, which the next run's first touches take. Where freed memory goes
 * back to a VM's host, a page's first touch costs 1 to 8 us depending on what ran before
 * (benchmarks/touch_pages.c). mmap rather than malloc: a free() may keep the memory in the
 * process's heap. Failing to map is not an error: the runs measure as they would have without
 * it. Nothing for mib 0. */
void tool_settle_memory(uint64_t mib);

#endif
