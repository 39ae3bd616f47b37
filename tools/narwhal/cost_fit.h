/* cost_fit.h: the runtime's handling costs that `narwhal calibrate` writes into a platform
 * (backends/simgrid/sim_costs.h: rt_KIND, rt_KIND_per_byte, rt_KIND_per_run), fitted to the
 * sums the real backend kept while it handled events (nw_rt_costs). */
#ifndef NW_COST_FIT_H
#define NW_COST_FIT_H

#include "stats.h"

/* A kind's handling cost a + b * bytes + c * runs, from the sums the real backend kept
 * (nw_rt_costs): the handlers' CPU time where every event of the kind has one, over the bytes
 * it moved and the row runs its copies took (a copy costs per byte and per memcpy: an FFT's
 * column blocks cost five times a matrix tile's per byte). Of the least-squares fits over some
 * of the three terms whose coefficients are all >= 0, the one with the least residual (the
 * fullest on a tie); none: a is the mean. A slope over bytes needs events that move enough of
 * them (a mean of at least 4096) for the copying to show through the noise of the handlers'
 * other work: tiny control messages alone give a steep slope of noise. Where some event of the
 * kind has no CPU time: the wall time, over bytes only. */
void tool_fit_event_cost(const nw_rt_costs *r, int k, double *a, double *b, double *c);

#endif
