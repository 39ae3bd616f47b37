/* cost_fit.h: the runtime's handling costs that `narwhal calibrate` writes into a platform
 * (backends/simgrid/sim_costs.h: rt_KIND, rt_KIND_per_byte, rt_KIND_per_run), fitted to the
 * sums the real backend kept while it handled events (nw_rt_costs). */
#ifndef NW_COST_FIT_H
#define NW_COST_FIT_H

#include "stats.h"

/* A kind of event's handling cost: fixed + per_byte * bytes + per_run * runs + per_page * pages
 * + per_view_page * views (pages: those of the node's copies of spaces it wrote first,
 * nw_stats.space_pages_fresh; views: those of its new private views it touched first,
 * nw_stats.view_pages_fresh, priced here above what the probe's page costs, rt_page_fresh,
 * which the samples are kept without), with per_byte_class[cls] instead of per_byte for an
 * event of price class cls (0: not fitted). */
typedef struct tool_event_cost {
  double fixed, per_byte, per_run, per_page, per_view_page;
  double per_byte_class[NW_COST_CLASSES];
} tool_event_cost;

/* Kind k's cost from the sums the real backend kept (nw_rt_costs): the handlers' CPU time
 * where every event of the kind has one, over the bytes it moved, the row runs its copies took
 * (a copy costs per byte and per memcpy: an FFT's column blocks cost five times a matrix tile's
 * per byte) and the pages of the copies of spaces it wrote first (each a page fault: a handler
 * that copies a fetched tile into pages never written costs four to ten times one that copies
 * it into written ones), and the pages of its new views it touched first, above the probe's
 * price that the samples are kept without (LU's commits into fresh views paid 0.8-1.0 us a page
 * more than the probe of fresh pages with nothing else running: the C library's fresh blocks
 * are also unmapped and their pages freed when the views go). Of the least-squares fits over
 * some of the five terms whose coefficients are all >= 0, the one with the least residual (the
 * fullest on a tie); none: the fixed cost is the mean. A slope over bytes needs events that move
 * enough of them (a mean of at least 4096) for the copying to show through the noise of the
 * handlers' other work: tiny control messages alone give a steep slope of noise. Where some event
 * of the kind has no CPU time: the wall time, over bytes only. Where some but not all events fall
 * in a price class (nw_cost_class: mostly gathered into messages sent, or moving at least
 * r->cache_bytes, the real backend's knee, real_cache.h), the other terms are fitted to the others
 * alone, and per_byte_class[cls] is the price of a byte of the class's events: least squares
 * through what the fixed, run and page terms leave of their times (>= 0; 0 where the class has
 * none). A handler gathers a tile into a reply at 0.07 ns a byte and copies one it got in at
 * 0.3-0.6, each three times dearer past the cache; one slope over all of them is set by the few
 * largest: conv2d's 9.4 MB tiles came out at 1.02 ns a byte where they cost 0.47. */
void tool_fit_event_cost(const nw_rt_costs *r, int k, tool_event_cost *out);

#endif
