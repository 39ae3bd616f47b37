/* backend_plugin.h: the backends as plugins of libnarwhal.
 *
 * SimGrid's library defines the MPI_* functions itself (SMPI), so one process must never hold
 * both SimGrid and Open MPI. libnarwhal therefore links neither: each backend is a plugin
 * (narwhal-sim.so, narwhal-real.so) that nw_run_app loads by name, so one program runs
 * simulated or under mpirun without being built twice. A plugin holds its backend's objects
 * only; the core it drives is libnarwhal's (or a static program's, linked with its symbols
 * exported), so there is one core per process. */
#ifndef NW_BACKEND_PLUGIN_H
#define NW_BACKEND_PLUGIN_H

#include <stddef.h>

#include "run.h"

/* What a plugin exports as nw_backend_plugin_entry. The version and the two sizes tie it to
 * the library it was built with: a plugin of another build is refused, never run. */
typedef struct nw_backend_plugin {
  const char *version; /* NW_TOOL_VERSION */
  size_t config_size, result_size;
  const char *backend; /* "sim" or "real" */
  nw_status (*run)(const nw_run_config *cfg, const nw_app *app, nw_run_result *res);
  void (*finish)(void); /* before the process exits (MPI_Finalize); may be NULL */
} nw_backend_plugin;

#define NW_BACKEND_PLUGIN_SYMBOL "nw_backend_plugin_entry"

/* Loads the plugin of `backend` ("sim", "real") once per process and returns it; NULL with a
 * one-line reason (the paths tried and the loader's message). Looked for, in order, in
 * $NARWHAL_PLUGIN_DIR, in narwhal/ beside the library (or program) that holds this code, and in
 * the directory the library was configured to install them to. */
const nw_backend_plugin *nw_backend_plugin_load(const char *backend, char *why, size_t why_len);

#endif
