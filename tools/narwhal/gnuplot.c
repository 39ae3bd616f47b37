/* gnuplot.c: see gnuplot.h. */
#define _POSIX_C_SOURCE 200809L
#include "gnuplot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform_path.h"
#include "text_file.h"

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

int gnuplot_script(const char *who, const char *name, char *out, size_t cap) {
  if (tool_plot_script(name, out, cap) == 0)
    return 0;
  const char *own = getenv("NARWHAL_PLOTS");
  tool_say("%s: no plot: no folder has the gnuplot script %s (looked in %s%s%sthe source tree's "
           "plots/ and the installed share/narwhal/plots)",
           who, name, own && own[0] ? "$NARWHAL_PLOTS=" : "", own && own[0] ? own : "",
           own && own[0] ? ", " : "");
  return -1;
}

void gnuplot_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n') {
      fputs("\\n", f);
      continue;
    }
    if (*s == '"' || *s == '\\' || *s == '`') /* gnuplot runs `...` as a shell command */
      fputc('\\', f);
    fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
  }
  fputc('"', f);
}

int gnuplot_draw(const char *path) {
  if (strchr(path, '\'')) /* not quotable in the shell line: say so rather than guess */
    return errno = EINVAL, -1;
  char cmd[4200];
  if (snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", path) >= (int)sizeof cmd)
    return errno = ENAMETOOLONG, -1;
  return system(cmd) == 0 ? 0 : -1;
}
