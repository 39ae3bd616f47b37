/* embed_program.c: see embed_program.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "embed_program.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int embed_program_app(const char *path, const char *symbol, const nw_app **app, char *why,
                      size_t why_len) {
  *app = NULL;
  char resolved[PATH_MAX];
  /* A path, never a name for the loader to search: as a sweep's "program", it starts from
   * the current directory. */
  if (!realpath(path, resolved)) {
    snprintf(why, why_len,
             "program '%.200s' is not a file (relative paths start from the current directory)",
             path);
    return 2;
  }
  void *handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(why, why_len, "program %.200s: %.300s", path, dlerror());
    return 2;
  }
  const nw_app *a = symbol && *symbol ? dlsym(handle, symbol) : NULL;
  if (!a) {
    snprintf(why, why_len, "program %.200s: exports no nw_app named '%.100s'", path,
             symbol ? symbol : "");
    dlclose(handle);
    return 2;
  }
  if (!a->name || !a->kinds || !a->check_args || !a->main) {
    snprintf(why, why_len,
             "program %.200s: the application '%.100s' needs a name, kinds, check_args and main",
             path, symbol);
    dlclose(handle);
    return 2;
  }
  *app = a;
  return 0;
}

int embed_program_names_app(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--config")) { /* its value is a file's name, whatever it reads */
      i++;
      continue;
    }
    if (!strcmp(argv[i], "--app") || !strncmp(argv[i], "--app=", 6))
      return 1;
  }
  return 0;
}
