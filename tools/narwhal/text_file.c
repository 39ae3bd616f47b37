/* text_file.c: see text_file.h. */
#include "text_file.h"

#include <stdlib.h>

char *tool_read_stream(FILE *f) {
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 == cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b)
        free(buf);
      buf = b;
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    return NULL;
  }
  if (buf)
    buf[n] = '\0';
  return buf;
}
