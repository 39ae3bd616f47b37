/* reproduce.c: `narwhal reproduce`. The figures, their commands and the report are
 * scripts/reproduce-paper.sh's (README, "Using it"); this parses the options, finds the script
 * of the repository this executable was built from and replaces itself with it:
 *   1. <directory of this executable>/../scripts/reproduce-paper.sh (build/narwhal in the
 *      repository);
 *   2. else <narwhal_SOURCE_DIR>/scripts/reproduce-paper.sh, read from the CMakeCache.txt
 *      beside the executable (a build directory outside the repository).
 * The build directory defaults to the executable's own; relative paths are made absolute
 * here, since the script runs from the repository root. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "reproduce.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_file.h"

#define SCRIPT "scripts/reproduce-paper.sh"

static int usage(FILE *out) {
  fprintf(out, "usage: narwhal reproduce [--out DIR] [--build DIR] [--only NAME[,NAME...]] "
               "[--resume]\n");
  return 0;
}

/* The directory of this executable, into dir. */
static int exe_dir(char *dir, size_t len) {
  ssize_t n = readlink("/proc/self/exe", dir, len - 1);
  if (n <= 0)
    return -1;
  dir[n] = '\0';
  char *slash = strrchr(dir, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  return 0;
}

/* The repository's script, into path: beside the build directory, or where CMakeCache.txt
 * says the sources are. */
static int find_script(const char *dir, char *path, size_t len) {
  int n = snprintf(path, len, "%s/../" SCRIPT, dir);
  if (n > 0 && (size_t)n < len && access(path, X_OK) == 0)
    return 0;
  char cache[PATH_MAX + 32], line[PATH_MAX + 64];
  snprintf(cache, sizeof cache, "%s/CMakeCache.txt", dir);
  FILE *f = fopen(cache, "r");
  if (!f)
    return -1;
  const char *key = "narwhal_SOURCE_DIR:STATIC=";
  int found = -1;
  while (found && fgets(line, sizeof line, f)) {
    if (strncmp(line, key, strlen(key)) != 0)
      continue;
    line[strcspn(line, "\r\n")] = '\0';
    int n = snprintf(path, len, "%s/" SCRIPT, line + strlen(key));
    found = n > 0 && (size_t)n < len && access(path, X_OK) == 0 ? 0 : -1;
    break;
  }
  fclose(f);
  return found;
}

/* path as an absolute path into abs (relative to the current directory); it need not exist. */
static int absolute(const char *path, char *abs, size_t len) {
  if (path[0] == '/')
    return snprintf(abs, len, "%s", path) < (int)len ? 0 : -1;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd))
    return -1;
  return snprintf(abs, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

int reproduce_main(int argc, char **argv) {
  const char *out = NULL, *build = NULL, *only = NULL;
  int resume = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], **dst = NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
      return usage(stdout);
    if (!strcmp(a, "--resume")) { /* keep the figures an earlier run into --out finished */
      resume = 1;
      continue;
    }
    const char *names[] = {"--out", "--build", "--only"};
    const char **dsts[] = {&out, &build, &only};
    const char *value = NULL;
    for (int k = 0; k < 3 && !dst; k++) {
      size_t n = strlen(names[k]);
      if (strncmp(a, names[k], n) != 0 || (a[n] != '\0' && a[n] != '='))
        continue;
      dst = dsts[k];
      value = a[n] == '=' ? a + n + 1 : i + 1 < argc ? argv[++i] : NULL;
    }
    if (!dst) {
      tool_say("reproduce: unknown argument '%s' (--out DIR, --build DIR, --only NAME, --resume)",
               a);
      return 2;
    }
    if (!value || !value[0]) {
      tool_say("reproduce: %.*s: missing value", (int)strcspn(a, "="), a);
      return 2;
    }
    *dst = value;
  }

  char dir[PATH_MAX], script[PATH_MAX + 64], build_abs[PATH_MAX], out_abs[PATH_MAX];
  if (exe_dir(dir, sizeof dir) != 0 || find_script(dir, script, sizeof script) != 0) {
    tool_say("reproduce: cannot find " SCRIPT " of the repository this narwhal was built from");
    return 1;
  }
  if (build && !realpath(build, build_abs)) {
    tool_say("reproduce: --build %s: %s", build, strerror(errno));
    return 2;
  }
  if (!build)
    snprintf(build_abs, sizeof build_abs, "%s", dir);
  if (out && absolute(out, out_abs, sizeof out_abs) != 0) {
    tool_say("reproduce: --out %s: path too long", out);
    return 2;
  }
  char *args[8];
  int n = 0;
  args[n++] = script;
  if (only) {
    args[n++] = "--only";
    args[n++] = (char *)only;
  }
  if (resume)
    args[n++] = "--resume";
  args[n++] = build_abs;
  if (out)
    args[n++] = out_abs;
  args[n] = NULL;
  fflush(NULL);
  execv(script, args);
  tool_say("reproduce: cannot run %s: %s", script, strerror(errno));
  return 1;
}
