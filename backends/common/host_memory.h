/* host_memory.h: what Linux says a process may still take, for the backends' memory_room
 * (core/backend.h, nw_memory_room): the RAM the machine has available and the address space
 * RLIMIT_AS (`ulimit -v`) leaves. Header-only, so that both backends use it without a library
 * of their own.
 */
#ifndef NW_HOST_MEMORY_H
#define NW_HOST_MEMORY_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* Field `key` ("MemAvailable:") of a /proc file of "Key: value kB" lines, in bytes; UINT64_MAX
 * when the file or the field is missing. */
static inline uint64_t nw_host_proc_kb(const char *path, const char *key) {
  FILE *f = fopen(path, "r");
  if (!f)
    return UINT64_MAX;
  char line[256];
  uint64_t bytes = UINT64_MAX;
  size_t klen = strlen(key);
  unsigned long long kb;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, klen) == 0 && sscanf(line + klen, "%llu", &kb) == 1) {
      bytes = (uint64_t)kb * 1024;
      break;
    }
  fclose(f);
  return bytes;
}

/* RAM the machine can give without swapping (MemAvailable); UINT64_MAX when unknown. */
static inline uint64_t nw_host_ram_available(void) {
  return nw_host_proc_kb("/proc/meminfo", "MemAvailable:");
}

/* Address space this process may still map: RLIMIT_AS less its size now (VmSize); UINT64_MAX
 * when no limit is set (or its size cannot be read), 0 when it is at the limit already. */
static inline uint64_t nw_host_address_left(void) {
  struct rlimit lim;
  if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return UINT64_MAX;
  uint64_t size = nw_host_proc_kb("/proc/self/status", "VmSize:");
  if (size == UINT64_MAX)
    return UINT64_MAX;
  return (uint64_t)lim.rlim_cur > size ? (uint64_t)lim.rlim_cur - size : 0;
}

#endif
