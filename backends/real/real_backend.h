/* real_backend.h: runs an application on real hardware, one MPI rank per node (backends/real).
 */
#ifndef NW_REAL_BACKEND_H
#define NW_REAL_BACKEND_H

#include "run.h"

/* Initializes MPI (the first time), runs this rank's node (and the app's driver on rank 0),
 * gathers statistics to rank 0. On rank 0 res->reporter is 1 and res holds the run's result.
 * May be called again for another run in the same processes (`narwhal calibrate`). */
nw_status nw_real_run(const nw_run_config *cfg, const nw_app *app, nw_run_result *res);
/* Finalizes MPI if a run initialized it: once, before the process exits. */
void nw_real_finish(void);

#endif
