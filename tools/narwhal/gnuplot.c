/* gnuplot.c: see gnuplot.h. */
#define _POSIX_C_SOURCE 200809L
#include "gnuplot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gnuplot_installed(void) {
  const char *path = getenv("PATH");
  char dir[4096], exe[4200];
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    size_t n = strcspn(p, ":");
    snprintf(dir, sizeof dir, "%.*s", (int)n, p);
    snprintf(exe, sizeof exe, "%s/gnuplot", dir[0] ? dir : ".");
    if (access(exe, X_OK) == 0)
      return 1;
    p += n + (p[n] == ':');
  }
  return 0;
}
