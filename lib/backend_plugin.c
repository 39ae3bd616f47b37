/* backend_plugin.c: see backend_plugin.h. */
#define _GNU_SOURCE
#include "backend_plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

#ifndef NW_PLUGIN_INSTALL_DIR
#define NW_PLUGIN_INSTALL_DIR ""
#endif

static const nw_backend_plugin *loaded;

/* dir/narwhal-<backend>.so, opened with its symbols global: Open MPI's own components, which it
 * opens itself, look for libmpi's symbols there. Returns the entry, or NULL with the loader's
 * message appended to tried. */
static const nw_backend_plugin *try_dir(const char *dir, const char *backend, char *tried,
                                        size_t len) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%.3900s/narwhal-%.16s.so", dir, backend);
  void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  const char *err = NULL;
  const nw_backend_plugin *p = NULL;
  if (!h)
    err = dlerror();
  else if (!(p = dlsym(h, NW_BACKEND_PLUGIN_SYMBOL)))
    err = "no " NW_BACKEND_PLUGIN_SYMBOL;
  if (p && (strcmp(p->version, NW_TOOL_VERSION) || p->config_size != sizeof(nw_run_config) ||
            p->result_size != sizeof(nw_run_result) || strcmp(p->backend, backend))) {
    err = "built for another version of libnarwhal";
    p = NULL;
  }
  if (!p) {
    size_t at = strlen(tried);
    snprintf(tried + at, len - at, "%s%s (%s)", at ? "; " : "", path, err ? err : "?");
  }
  return p;
}

const nw_backend_plugin *nw_backend_plugin_load(const char *backend, char *why, size_t len) {
  if (loaded && !strcmp(loaded->backend, backend))
    return loaded;
  if (loaded) { /* SimGrid and Open MPI never share a process */
    snprintf(why, len, "--backend %s: this process already runs the %s backend", backend,
             loaded->backend);
    return NULL;
  }
  char dirs[3][PATH_MAX] = {"", "", ""};
  const char *env = getenv("NARWHAL_PLUGIN_DIR");
  if (env && env[0])
    snprintf(dirs[0], sizeof dirs[0], "%s", env);
  Dl_info info;
  if (dladdr((void *)nw_backend_plugin_load, &info) && info.dli_fname) {
    char self[PATH_MAX];
    snprintf(self, sizeof self, "%s", info.dli_fname);
    char *slash = strrchr(self, '/');
    if (slash) {
      *slash = '\0';
      snprintf(dirs[1], sizeof dirs[1], "%.*s/narwhal", (int)(sizeof dirs[1] - 9), self);
    }
  }
  snprintf(dirs[2], sizeof dirs[2], "%s", NW_PLUGIN_INSTALL_DIR);
  char tried[3 * PATH_MAX + 600] = "";
  for (int i = 0; i < 3 && !loaded; i++)
    if (dirs[i][0])
      loaded = try_dir(dirs[i], backend, tried, sizeof tried);
  if (!loaded)
    snprintf(why, len, "--backend %s: cannot load its plugin: %.400s", backend,
             tried[0] ? tried : "no directory to look in (set NARWHAL_PLUGIN_DIR)");
  return loaded;
}
