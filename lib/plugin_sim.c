/* plugin_sim.c: the simulator as a plugin of libnarwhal (backend_plugin.h). */
#include "backend_plugin.h"
#include "sim_backend.h"
#include "version.h"

const nw_backend_plugin nw_backend_plugin_entry = {
    NW_TOOL_VERSION, sizeof(nw_run_config), sizeof(nw_run_result), "sim", nw_sim_run, NULL};
