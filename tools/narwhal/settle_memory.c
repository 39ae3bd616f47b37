/* settle_memory.c: see settle_memory.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "settle_memory.h"

#include <stddef.h>
#include <sys/mman.h>

void tool_settle_memory(uint64_t mib) {
  size_t bytes = (size_t)mib << 20;
  if (bytes == 0)
    return;
  volatile char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return;
  for (size_t i = 0; i < bytes; i += 4096)
    p[i] = 1;
  munmap((void *)p, bytes);
}
