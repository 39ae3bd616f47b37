/* real_load.h: external load for experiments on hardware (--slow): busy threads that take
 * this rank's cores from a given time on, so its devices run `factor` times slower. */
#ifndef NW_REAL_LOAD_H
#define NW_REAL_LOAD_H

#include "run.h"

typedef struct real_load real_load;

/* Starts the load for this rank's slowdowns (none: returns NULL). t0: the run's start on
 * CLOCK_MONOTONIC; cores: the cores this rank uses. */
real_load *real_load_start(const nw_run_config *cfg, int rank, int cores, double t0);
void real_load_stop(real_load *l);

#endif
