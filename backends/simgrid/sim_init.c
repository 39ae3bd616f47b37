/* sim_init.c: see sim_init.h. */
#include "sim_init.h"

#include <simgrid/engine.h>
#include <stddef.h>

#define SETTINGS_MAX 64

void sim_init_simgrid(const char *name, const char *log, const char *extra,
                      const char *const *settings, int nsettings) {
  /* Static: simgrid_init may keep pointers into argv, and the simulation outlives this call. */
  static char *argv[8 + SETTINGS_MAX + 1];
  int argc = 0;
  argv[argc++] = (char *)name;
  argv[argc++] = "--cfg=network/latency-factor:1";
  argv[argc++] = "--cfg=network/bandwidth-factor:1";
  argv[argc++] = "--cfg=network/TCP-gamma:0";
  argv[argc++] = (char *)log;
#ifdef NW_SIM_THREAD_CONTEXTS
  argv[argc++] = "--cfg=contexts/factory:thread";
#endif
  if (extra)
    argv[argc++] = (char *)extra;
  for (int i = 0; i < nsettings && i < SETTINGS_MAX; i++)
    argv[argc++] = (char *)settings[i];
  argv[argc] = NULL;
  simgrid_init(&argc, argv);
}
