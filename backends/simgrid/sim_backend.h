/* sim_backend.h: runs an application on a SimGrid-modelled cluster (backends/simgrid). */
#ifndef NW_SIM_BACKEND_H
#define NW_SIM_BACKEND_H

#include "run.h"

/* Loads cfg->platform, runs cfg->nodes nodes and the app's driver, fills res. Errors (bad
 * platform, too few nodes, app failure) come back in res->status / res->error; never aborts. */
nw_status nw_sim_run(const nw_run_config *cfg, const nw_app *app, nw_run_result *res);

#endif
