/* settle_memory.c: see settle_memory.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "settle_memory.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

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

uint64_t tool_pages_touched(int children) {
  struct rusage ru;
  if (getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru) != 0)
    return 0;
  return ru.ru_minflt > 0 ? (uint64_t)ru.ru_minflt : 0;
}

uint64_t tool_memory_available_mib(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  long kib = -1;
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
      break;
  if (f)
    fclose(f);
  return kib > 0 ? (uint64_t)kib / 1024 : 0;
}

uint64_t tool_settle_mib_for(uint64_t floor_mib, uint64_t touched, int sharers) {
  long page = sysconf(_SC_PAGESIZE);
  uint64_t want = (touched * (uint64_t)(page > 0 ? page : 4096) / 4 * 5 + (1u << 20) - 1) >> 20;
  if (want <= floor_mib)
    return floor_mib;
  uint64_t cap = tool_memory_available_mib() / 2 / (uint64_t)(sharers > 0 ? sharers : 1);
  if (want > cap)
    want = cap;
  return want > floor_mib ? want : floor_mib;
}
