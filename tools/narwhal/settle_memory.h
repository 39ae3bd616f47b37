/* settle_memory.h: leaving recently freed pages for the next process to take (calibrate's and
 * validate's --settle). */
#ifndef NW_TOOL_SETTLE_MEMORY_H
#define NW_TOOL_SETTLE_MEMORY_H

#include <stdint.h>

/* Writes a byte into every page of mib MiB, then unmaps them: the kernel's free lists get that
 * many recently freed pages, which the next run's first touches take. Where freed memory goes
 * back to a VM's host, a page's first touch costs 1 to 8 us depending on what ran before
 * (benchmarks/touch_pages.c), and up to 27 us where a run first-touches more than was settled
 * (conv2d 8192/2048 on two ranks after 768 MiB each: its 134 MB result message handled at
 * 6.6 ns a byte, 1.25 after 2048 MiB). mmap rather than malloc: a free() may keep the memory in
 * the process's heap. Failing to map is not an error: the runs measure as they would have
 * without it. Nothing for mib 0. */
void tool_settle_memory(uint64_t mib);

/* Pages first touched so far: this process's minor faults (children 0), or those of its
 * children waited for (children 1; an mpirun's count its ranks'). */
uint64_t tool_pages_touched(int children);

/* What to settle before a run that last time first-touched `touched` pages: at least
 * floor_mib, else a quarter more than those pages, but no more than half of the memory
 * available now shared by `sharers` processes settling at once (floor_mib is kept even
 * then). */
uint64_t tool_settle_mib_for(uint64_t floor_mib, uint64_t touched, int sharers);

/* MemAvailable in MiB (/proc/meminfo); 0 where it cannot be read. */
uint64_t tool_memory_available_mib(void);

#endif
