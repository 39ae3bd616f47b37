/* real_cache.c: see real_cache.h. */
#define _POSIX_C_SOURCE 200809L
#include "real_cache.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of path, without its newline; 0 when it cannot be read. */
static int read_line(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  if (ok)
    buf[strcspn(buf, "\n")] = '\0';
  return ok;
}

/* "32768K", "32M", "1024" (bytes) as bytes; 0 when malformed. */
static uint64_t parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s)
    return 0;
  switch (toupper((unsigned char)*end)) {
  case '\0':
    return v;
  case 'K':
    return v << 10;
  case 'M':
    return v << 20;
  case 'G':
    return v << 30;
  default:
    return 0;
  }
}

/* The largest data or unified cache of CPU 0 at `level` (0: the highest level there is). */
static uint64_t cache_bytes(int level) {
  int best_level = 0;
  uint64_t best = 0;
  for (int i = 0; i < 16; i++) {
    char path[128], lv[32], type[32], size[32];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    if (!read_line(path, lv, sizeof lv))
      continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    if (!read_line(path, type, sizeof type) || !strcmp(type, "Instruction"))
      continue;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    if (!read_line(path, size, sizeof size))
      continue;
    int l = atoi(lv);
    uint64_t b = parse_size(size);
    if (b > 0 && (level == 0 || l == level) && (l > best_level || (l == best_level && b > best)))
      best_level = l, best = b;
  }
  return best;
}

uint64_t real_cache_knee_bytes(void) {
  uint64_t llc = cache_bytes(0), l2 = cache_bytes(2);
  return llc ? (llc + (l2 < llc ? l2 : 0)) / 2 : 0;
}
