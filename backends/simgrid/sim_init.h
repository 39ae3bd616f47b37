/* sim_init.h: starts SimGrid with Narwhal's settings, in one place for the run (sim_backend.c)
 * and for the child that checks the platform first (platform_check.c), so that the check starts
 * SimGrid as the run will. */
#ifndef NW_SIM_INIT_H
#define NW_SIM_INIT_H

/* Calls simgrid_init as program `name` with Narwhal's settings (sim_backend.c's opening comment
 * says why those), `log` (a --log=... setting), then `extra` unless NULL, then the researcher's
 * `nsettings` --cfg/--log `settings` (at most 64), last so that theirs win (README, "SimGrid's
 * own settings"). SimGrid starts once per process. */
void sim_init_simgrid(const char *name, const char *log, const char *extra,
                      const char *const *settings, int nsettings);

#endif
