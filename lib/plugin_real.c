/* plugin_real.c: the real backend (MPI ranks, threads, BLAS, CUDA) as a plugin of libnarwhal
 * (backend_plugin.h). */
#include "backend_plugin.h"
#include "real_backend.h"
#include "version.h"

const nw_backend_plugin nw_backend_plugin_entry = {NW_TOOL_VERSION,       sizeof(nw_run_config),
                                                   sizeof(nw_run_result), "real",
                                                   nw_real_run,           nw_real_finish};
