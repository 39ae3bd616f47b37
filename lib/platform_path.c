/* platform_path.c: see platform_path.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "platform_path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NW_SOURCE_DIR
#define NW_SOURCE_DIR ""
#endif
#ifndef NW_DATA_INSTALL_DIR
#define NW_DATA_INSTALL_DIR ""
#endif

void tool_platform_resolve(char *path, size_t cap) {
  if (!path[0] || path[0] == '/' || access(path, F_OK) == 0)
    return;
  const char *const bases[] = {NW_SOURCE_DIR, NW_DATA_INSTALL_DIR};
  const char *const subdirs[] = {"", "platforms/"};
  for (size_t b = 0; b < sizeof bases / sizeof *bases; b++)
    for (size_t s = 0; s < sizeof subdirs / sizeof *subdirs && bases[b][0]; s++) {
      char candidate[PATH_MAX];
      int n = snprintf(candidate, sizeof candidate, "%s/%s%s", bases[b], subdirs[s], path);
      if (n > 0 && (size_t)n < sizeof candidate && (size_t)n < cap &&
          access(candidate, R_OK) == 0) {
        memcpy(path, candidate, (size_t)n + 1);
        return;
      }
    }
}

int tool_plot_script(const char *name, char *out, size_t cap) {
  const char *own = getenv("NARWHAL_PLOTS");
  const char *const dirs[] = {own && own[0] ? own : NULL, NW_SOURCE_DIR[0] ? NW_SOURCE_DIR : NULL,
                              NW_DATA_INSTALL_DIR[0] ? NW_DATA_INSTALL_DIR : NULL};
  const char *const subdirs[] = {"", "/plots", "/plots"};
  for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
    char candidate[PATH_MAX], whole[PATH_MAX];
    if (!dirs[d])
      continue;
    int n = snprintf(candidate, sizeof candidate, "%s%s/%s", dirs[d], subdirs[d], name);
    if (n <= 0 || (size_t)n >= sizeof candidate || access(candidate, R_OK) != 0 ||
        !realpath(candidate, whole) || strlen(whole) >= cap)
      continue;
    memcpy(out, whole, strlen(whole) + 1);
    return 0;
  }
  return -1;
}
